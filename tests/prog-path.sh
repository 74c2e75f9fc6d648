#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/prog-path.sh: the program iobufviz runs is the one the shell would run: PROGRAM found
# through a relative PATH entry (".") where iobufviz was started, not in --dir, where the
# program then runs; refused, with a clear message, when that entry names another program
# there.
testname=prog-path
. "$(dirname "$0")/lib.sh"
need python3
mkdir "$tmp/w" "$tmp/D" "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR
printf '#!/bin/sh\necho here\n' >"$tmp/w/probe"
printf '#!/bin/sh\necho there\n' >"$tmp/D/other"
chmod +x "$tmp/w/probe" "$tmp/D/other"

# Run "probe" with PATH=.:/usr/bin:/bin from $tmp/w, --dir $tmp/D; its stdout in $out.
run() {
	(cd "$tmp/w" && PATH=.:/usr/bin:/bin timeout -s KILL 60 "$bin" --headless --format=json \
		--timeout=20 --dir "$tmp/D" -- probe) >"$tmp/$1.json" 2>"$tmp/$1.err"
	rc=$?
	out=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["program"]["stdout"] or "", end="")' \
		"$tmp/$1.json" 2>/dev/null)
}

# Only ./probe where we are: it runs (not "probe" looked up again inside --dir).
run here
[ $rc = 0 ] && [ "$out" = here ] || bad "./probe: exit $rc, stdout '$out': $(head -c 300 "$tmp/here.err")"

# Only $tmp/D/probe: the shell would find no probe, neither does iobufviz.
mv "$tmp/w/probe" "$tmp/w/probe.off"
cp "$tmp/D/other" "$tmp/D/probe"
run none
[ $rc != 0 ] && [ "$out" != there ] || bad "D/probe alone: exit $rc, ran it: '$out'"
grep -q "command not found" "$tmp/none.err" || bad "D/probe alone: message: $(head -c 300 "$tmp/none.err")"

# Both: "." names two programs; refused as ambiguous, nothing run.
mv "$tmp/w/probe.off" "$tmp/w/probe"
run both
[ $rc != 0 ] && [ -z "$out" ] || bad "both: exit $rc, stdout '$out'"
grep -q 'relative PATH entry "\."' "$tmp/both.err" && grep -qF "ambiguous" "$tmp/both.err" ||
	bad "both: message: $(head -c 300 "$tmp/both.err")"

[ $fail = 0 ] && echo "ok: a relative PATH entry is resolved where iobufviz starts, or refused as ambiguous"
finish
