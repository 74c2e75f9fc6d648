#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pace-written-back.sh: a sentence about what a step wrote back is never held when the
# kernel wrote the pages back before it. 13-3 at --pace=3 while this test calls syncfs() on
# its filesystem every half second (as writeback would after 30 s of a person's pause, or
# another process's sync): fsync() at step 5 finds the pages clean, so "writes both pages"
# (cache.cleaned_pages = 2) is never told held: the lesson's alternative for it says what the
# kernel's writeback left fsync() to do, or it is FALSE here by another writer, with why
# (held means true; known-false is never unchecked); the run exits 0 with no FAIL and
# no sentence false but by another writer, and the pause before step 5 or 4 says the kernel
# wrote the file back. And fclose-truncate with a sync() put before its fclose() does not
# say closing the truncated file started writeback (there was nothing dirty to start). Needs root (the kernel's writebacks are counted through tracefs) and a
# disk under the test's directory; else "SKIP: pace-written-back: <reason>".
testname=pace-written-back
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root: the kernel's writebacks are counted through tracefs"
[ "$(stat -f -c %T "$tmp")" != tmpfs ] || skip "$tmp is on tmpfs: no disk, no writeback"

# syncfs(2) of the scratch file's filesystem only (sync -f): a sync() of every filesystem
# would reach the crash labs of tests running beside this one.
"$bin" --headless --pace=3 --dir "$tmp" \
	"$src/scenarios/13-3-fflush-fsync.yaml" >"$tmp/out" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sync -f "$tmp"
	sleep 0.5
done
wait "$pid"
rc=$?
[ "$rc" = 3 ] && skip "the environment cannot run it here: $(tail -n 1 "$tmp/out")"
[ "$rc" = 0 ] || bad "exit $rc: $(tail -n 3 "$tmp/out")"
grep -q '^  FAIL ' "$tmp/out" && bad "a FAIL: $(grep '^  FAIL ' "$tmp/out")"
# Every false sentence is another writer's doing (the summary counts them).
counts=$(sed -n 's/^sentences: [0-9]* held, [0-9]* unchecked here, \([0-9]*\) false here\( (\([0-9]*\) by another writer[^)]*)\)\{0,1\}\(,.*\)\{0,1\}$/\1 \3/p' "$tmp/out")
[ -n "$counts" ] || bad "no count of sentences: $(tail -n 3 "$tmp/out")"
set -- $counts 0
[ "$1" = "${2:-0}" ] || bad "false sentences not by another writer: $(grep '^sentences' "$tmp/out")"
sed -n '/^step 5\//,/^step 6\//p' "$tmp/out" >"$tmp/step5"
# Told (the narration's lines, "  | "), "writes both pages" would be held: never. The lesson's
# own alternative for this case tells it instead, or the sentence is shown false.
if sed -n 's/^  | //p' "$tmp/step5" | tr '\n' ' ' | grep -q 'writes both pages'; then
	bad "step 5: 'writes both pages' is told held after the kernel wrote the pages back:"
	sed 's/^/    /' "$tmp/step5"
elif grep -q 'cleaned only [0-9]* of the pages' "$tmp/step5" ||
	grep -q '^  FALSE here, by another writer: "fsync(fd): .*writes both pages.*so false here: cache.cleaned_pages = 2' "$tmp/step5"; then
	echo "ok: pace-written-back: step 5 tells what the kernel's writeback left fsync() to do"
else
	bad "step 5: neither the lesson's words for a writeback in the pause nor a false sentence:"
	sed 's/^/    /' "$tmp/step5"
fi
grep -q '^  pause   the kernel wrote the file back' "$tmp/out" ||
	bad "no pause says the kernel wrote the file back"

# fclose-truncate with the pages written back before fclose() (a sync() in the lesson, as
# writeback would after 30 s of a person's pause): "closing a file that was truncated made
# ext4 start writeback" is not told (it rests on cache.dirty_before >= 1); the lesson says the
# pages were clean already. The lesson as it is tells it (where the fs starts writeback).
fs=$(stat -f -c %T "$tmp")
sed 's/^  - fclose: {}$/  - sync: {}\n  - fclose: {}/' "$src/scenarios/fclose-truncate.yaml" >"$tmp/synced.yaml"
grep -q '^  - sync: {}$' "$tmp/synced.yaml" || bad "no sync step put in fclose-truncate"
for lesson in "$src/scenarios/fclose-truncate.yaml" "$tmp/synced.yaml"; do
	"$bin" --headless --dir "$tmp" "$lesson" >"$tmp/fc.out" 2>&1 ||
		bad "$(basename "$lesson"): exit $?: $(grep -E '^  (FAIL|FALSE)' "$tmp/fc.out" | head -n 3)"
	told=$(sed -n '/^step [0-9]*[/][0-9]*  fclose(/,/^step /s/^  | //p' "$tmp/fc.out" | tr '\n' ' ')
	case $lesson in
	*synced.yaml)
		case $told in
		*"start writeback at once"*) bad "after a sync(), fclose() is told to have started writeback: $told" ;;
		*"clean before fclose() already"*) echo "ok: pace-written-back: after a sync(), fclose() started nothing, and says so" ;;
		*) bad "after a sync(), fclose() says neither: $told" ;;
		esac ;;
	*)
		case $fs:$told in
		ext2/ext3:*"start writeback at once"*|xfs:*"start writeback at once"*|btrfs:*"start writeback at once"*)
			echo "ok: pace-written-back: fclose() of a truncated file started writeback on $fs" ;;
		ext2/ext3:*|xfs:*|btrfs:*) bad "fclose-truncate on $fs: no writeback at fclose() told: $told" ;;
		*) echo "pace-written-back: fclose-truncate on $fs: $told" ;;
		esac ;;
	esac
done
finish
