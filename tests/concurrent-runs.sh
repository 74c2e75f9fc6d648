#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/concurrent-runs.sh: 8 rounds of 40 runs at once in one --dir. Each run first reaps the
# dirs of dead runs there; none may take a live run's dir (its lock was once visible before
# it was held): every run exits 0, says nothing on stderr, and the dir is empty at the end.
testname=concurrent-runs
. "$(dirname "$0")/lib.sh"
mkdir "$tmp/d" "$tmp/out"
rounds=8 width=40
r=1
while [ $r -le $rounds ]; do
	i=1
	while [ $i -le $width ]; do
		{ "$bin" --headless --dir "$tmp/d" "$src/tests/cli-minimal.yaml" >/dev/null \
			2>"$tmp/out/$r.$i.err"; echo $? >"$tmp/out/$r.$i.rc"; } &
		i=$((i + 1))
	done
	wait
	r=$((r + 1))
done
runs=$(cat "$tmp"/out/*.rc | wc -l)
bad=$(grep -L '^0$' "$tmp"/out/*.rc | wc -l)
[ "$runs" = $((rounds * width)) ] || { echo "FAIL: $runs runs reported, expected $((rounds * width))"; fail=1; }
[ "$bad" = 0 ] || { echo "FAIL: $bad of $runs runs did not exit 0:"; cat "$tmp"/out/*.err | sort | uniq -c | head; fail=1; }
said=$(cat "$tmp"/out/*.err | wc -l)
[ "$said" = 0 ] || { echo "FAIL: $said lines on stderr (a live run's dir reaped?):"; cat "$tmp"/out/*.err | sort | uniq -c | head; fail=1; }
[ -z "$(ls -A "$tmp/d")" ] || { echo "FAIL: left $(ls -A "$tmp/d")"; fail=1; }
[ $fail = 0 ] && echo "ok: $runs concurrent runs in one --dir ($rounds x $width): all exit 0, no dir lost, nothing left"
finish
