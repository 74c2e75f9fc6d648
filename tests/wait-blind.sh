#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/wait-blind.sh: "wait: {until: clean}" under --probe=mincore, which cannot count dirty
# pages, after an overwrite of blocks already on the disk (no delalloc for FIEMAP to watch):
# the wait ends as clean only on the word of a source that counts dirty pages (cachestat, or
# kpageflags as root), and its note names it; where none works (no cachestat, not root) it
# says it cannot tell (EOPNOTSUPP), never "clean" after a glance at FIEMAP.
testname=wait-blind
. "$(dirname "$0")/lib.sh"
need python3
scen=$src/tests/wait-overwrite.yaml

# Step 3 of a JSON transcript: "ERRNO|NOTE|MS" (ERRNO "-" for none).
wait_step() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steps"][2]
print("%s|%s" % (s["errno"] or "-", s["note"]))
PY
}

"$bin" --headless --format=json --probe=mincore --dir "$tmp" "$scen" >"$tmp/as-is.json" \
	2>"$tmp/as-is.err" || { bad "as run here: exit $?"; cat "$tmp/as-is.err"; }
got=$(wait_step "$tmp/as-is.json") || bad "as run here: no JSON"
case $got in
-\|*"the wait asked cachestat, which saw none dirty"*|-\|*"the wait asked kpageflags, which saw none dirty"*)
	echo "ok   as run here: ended on a dirty count: $got" ;;
EOPNOTSUPP\|*"cannot be told"*|ETIMEDOUT\|*)
	echo "ok   as run here: not claimed clean: $got" ;;
*)
	bad "as run here: the wait ended with no source that counts dirty pages: $got" ;;
esac

# No cachestat, not root (no kpageflags): nothing here counts dirty pages.
if [ "$(id -u)" -ne 0 ]; then
	run() { IOBUFVIZ_NO_CACHESTAT=1 "$@"; }
elif command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin" 2>/dev/null; then
	run() { IOBUFVIZ_NO_CACHESTAT=1 setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	chmod 711 "$tmp" && mkdir "$tmp/nobody" && chown 65534:65534 "$tmp/nobody"
else
	run=
fi
if [ "$(id -u)" -ne 0 ] || [ -d "$tmp/nobody" ]; then
	dir=$tmp
	[ -d "$tmp/nobody" ] && dir=$tmp/nobody
	run "$bin" --headless --format=json --probe=mincore --dir "$dir" "$scen" \
		>"$tmp/blind.json" 2>"$tmp/blind.err" || { bad "blind: exit $?"; cat "$tmp/blind.err"; }
	got=$(wait_step "$tmp/blind.json") || bad "blind: no JSON"
	case $got in
	EOPNOTSUPP\|*"cannot be told"*) echo "ok   blind: $got" ;;
	*) bad "blind (no cachestat, no kpageflags): expected EOPNOTSUPP, cannot be told: $got" ;;
	esac
else
	skip_part "blind" "root without setpriv, or nobody cannot run $bin"
fi
finish
