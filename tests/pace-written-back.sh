#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pace-written-back.sh: a sentence about what a step wrote back is never held when the
# kernel wrote the pages back before it. 13-3 at --pace=3 in an ext4 crash lab while this test
# calls sync() every half second (as writeback would after 30 s of a person's pause, or
# another process's sync): fsync() at step 5 finds the pages clean, so "writes both pages"
# (cache.cleaned_pages = 2) is told unchecked, with the kernel's writeback as why; the run
# exits 0 with no FAIL and no FALSE, and the pause before step 5 or 4 says the kernel wrote the
# file back. Needs root (the crash lab); else "SKIP: pace-written-back: <reason>".
testname=pace-written-back
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs mkfs.ext4

"$bin" --headless --pace=3 --crash-fs=ext4 --dir "$tmp" \
	"$src/scenarios/13-3-fflush-fsync.yaml" >"$tmp/out" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sync
	sleep 0.5
done
wait "$pid"
rc=$?
[ "$rc" = 3 ] && skip "the environment cannot run it here: $(tail -n 1 "$tmp/out")"
[ "$rc" = 0 ] || bad "exit $rc: $(tail -n 3 "$tmp/out")"
grep -q '^  FAIL \|FALSE here' "$tmp/out" && bad "a FAIL or a FALSE: $(grep '^  FAIL \|FALSE here' "$tmp/out")"
sed -n '/^step 5\//,/^step 6\//p' "$tmp/out" >"$tmp/step5"
grep -q 'writes both pages' "$tmp/step5" || bad "step 5 does not tell its sentence at all"
# The sentence carries an unchecked mark ([?N]) whose reason is the kernel's writeback.
mark=$(tr '\n' ' ' <"$tmp/step5" | sed -n 's/.*writes both pages.*\[?\([0-9]*\)\].*/\1/p')
if [ -z "$mark" ]; then
	bad "step 5: 'writes both pages' is told held after the kernel wrote the pages back:"
	sed 's/^/    /' "$tmp/step5"
elif ! grep -q "^  ? \[?$mark\] .*pages this step took from dirty to clean.*writeback" "$tmp/step5"; then
	bad "step 5: [?$mark] does not give the kernel's writeback as why:"
	sed 's/^/    /' "$tmp/step5"
else
	echo "ok: pace-written-back: step 5's 'writes both pages' unchecked: $(grep "^  ? \[?$mark\]" "$tmp/step5" | cut -c1-150)"
fi
grep -q '^  pause   the kernel wrote the file back' "$tmp/out" ||
	bad "no pause says the kernel wrote the file back"
finish
