#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/scenarios.sh: every bundled scenario runs --headless on this machine and its
# expectations hold; its JSON transcript parses. Scenarios whose first line is "# slow"
# (they wait for the kernel's 30 s writeback) are skipped unless IOBUFVIZ_SLOW=1; sweeps
# run with a tiny time budget. Each also runs with --trace=procio (the fallback when ptrace
# is refused), where its expectations must hold as well. An expectation that cannot be
# observed on this machine is not a pass: each such run is a named skip that says how many
# and why (the transcript's "not observable here" lines). No lesson's text names one
# machine's facts (a VM, a device, a modern kernel's version, a time): those come from the run
# ({kernel}, {device}, {time}; doc/scenarios.md section 5).
testname=scenarios
. "$(dirname "$0")/lib.sh"
have_json=yes
command -v python3 >/dev/null ||
	{ have_json=no; skip_part "JSON transcripts" "python3 not installed"; }

# The text transcript $2 of scenario run $1: a named skip for the expectations it could not
# observe here (with the first reason given); 0 if it observed every one.
observed() {
	nob=$(sed -n 's/^[0-9]* held, [0-9]* failed, \([0-9]*\) not observable here$/\1/p' "$2")
	[ "${nob:-0}" -eq 0 ] && return 0
	why=$(sed -n 's/^  skip .*(not observable here: \(.*\))$/\1/p' "$2" | head -n 1 | cut -c1-120)
	skip_part "$1" "$nob expectations not observable here ($why)"
	return 1
}

pass=0 fail=0 skip=0
# Lines of text (not a source: or label: naming a book's setup, not a comment) that name
# this machine, its devices, a kernel of today or a time measured once.
facts=$(grep -n -E -i 'this (vm|machine)\b|these notes|\b(vd[a-z]|sd[a-z]|nvme[0-9]+n?|loop[0-9]+)\b|kernel [56]\.[0-9]|[0-9] ?(ms|µs|us)\b' \
	"$src"/scenarios/*.yaml | grep -v -E '^[^:]+:[0-9]+:[[:space:]]*(-[[:space:]]*)?(source|label):|^[^:]+:[0-9]+:[[:space:]]*#')
if [ -n "$facts" ]; then
	echo "FAIL lessons name one machine's facts (write {kernel}, {device}, {time} ... here):"
	echo "$facts" | sed 's/^/    /'
	fail=$((fail + 1))
fi
for f in "$src"/scenarios/*.yaml; do
	[ -e "$f" ] || skip "no scenarios under $src/scenarios"
	name=$(basename "$f" .yaml)
	extra=
	if head -n 1 "$f" | grep -q '^# *slow' && [ "${IOBUFVIZ_SLOW:-0}" != 1 ]; then
		skip_part "$name" "slow (IOBUFVIZ_SLOW=1 runs it)"
		skip=$((skip + 1))
		continue
	fi
	if grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$f"; then
		extra=--budget=0.05
	fi
	out=$tmp/$name.txt
	"$bin" --headless $extra --dir "$tmp" "$f" >"$out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: --headless exited $rc"
		sed 's/^/    /' "$out"
		fail=$((fail + 1))
		continue
	fi
	if [ -z "$extra" ]; then
		"$bin" --headless --trace=procio --dir "$tmp" "$f" >"$tmp/$name.procio" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL $name: --headless --trace=procio exited $rc"
			sed 's/^/    /' "$tmp/$name.procio"
			fail=$((fail + 1))
			continue
		fi
	fi
	if [ $have_json = yes ]; then
		"$bin" --headless --format=json $extra --dir "$tmp" "$f" >"$tmp/$name.json" 2>"$tmp/$name.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL $name: --format=json exited $rc"
			sed 's/^/    /' "$tmp/$name.err"
			fail=$((fail + 1))
			continue
		fi
		if ! python3 -m json.tool "$tmp/$name.json" >/dev/null 2>"$tmp/$name.err"; then
			echo "FAIL $name: --format=json is not valid JSON"
			sed 's/^/    /' "$tmp/$name.err"
			fail=$((fail + 1))
			continue
		fi
	fi
	seen=yes
	observed "$name" "$tmp/$name.txt" || seen=no
	[ -z "$extra" ] && { observed "$name --trace=procio" "$tmp/$name.procio" || seen=no; }
	if [ $seen = yes ]; then
		echo "ok: $name"
		pass=$((pass + 1))
	else
		echo "ok: $name: what could be observed held"
		skip=$((skip + 1))
	fi
done
# Nothing may be left behind in --dir: every scratch dir is removed at exit.
left=$(find "$tmp" -mindepth 1 -name 'iobufviz.*' | head -n 1)
if [ -n "$left" ]; then
	echo "FAIL a scratch dir was left behind: $left"
	fail=$((fail + 1))
fi
echo "scenarios: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] || fail=1
finish
