#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/writeback-elsewhere.sh: another process syncs the filesystem while a lesson keeps pages
# dirty. The kernel guarantees nothing about how long a page stays dirty (a sync() anywhere,
# or its flusher threads, write it back when they will): a "still dirty" expectation that then
# fails is not observable here, with why, when the kernel's own writeback took the file since
# the lesson last wrote it back itself (probe/wbwatch.c counts it), and the sentences that rest
# on it are unchecked, or false here by another writer (never the lesson's own false), or the
# lesson's words for the case are told instead. scenarios/fclose-truncate runs 12 times (half with
# --trace=procio) on an ext4 of its own, loop-mounted in a mount namespace of the test's own,
# while a process calls syncfs() on it (only it) as fast as it can. Every run must end with no
# expectation failed and no sentence false by the lesson (5 runs in 12 had such without the
# fix), and at least one must say why (else a named skip: the syncs never took the file while
# it was dirty). Needs root, loop devices, mkfs.ext4, python3; else
# "SKIP: writeback-elsewhere: <reason>".
if [ "$(id -u)" -eq 0 ] && [ -z "${WB_ELSEWHERE_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare --mount true 2>/dev/null; then
	WB_ELSEWHERE_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
testname=writeback-elsewhere
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs python3 mkfs.ext4
[ -n "${WB_ELSEWHERE_NS:-}" ] || skip "needs a mount namespace of its own (unshare --mount)"

hammer=""
mnt=$tmp/ext4
# The syncing process ends with the test; the mount (and its loop device) with the namespace,
# or here.
cleanup() {
	[ -n "$hammer" ] && kill "$hammer" 2>/dev/null && wait "$hammer" 2>/dev/null
	umount "$mnt" 2>/dev/null
}

truncate -s 64M "$tmp/ext4.img" && mkfs.ext4 -q -F -b 4096 "$tmp/ext4.img" >"$tmp/mkfs" 2>&1 &&
	mkdir "$mnt" && mount -o loop "$tmp/ext4.img" "$mnt" 2>"$tmp/mount" ||
	skip "cannot loop-mount an ext4 here: $(cat "$tmp/mkfs" "$tmp/mount" 2>/dev/null | head -n 1)"

# syncfs() of the test's own ext4, over and over: no other filesystem is touched.
python3 - "$mnt" <<'PY' &
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
while True:
    libc.syncfs(fd)
PY
hammer=$!

scen=$src/scenarios/fclose-truncate.yaml
reached=0
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	mode=
	[ $((i % 2)) -eq 0 ] && mode=--trace=procio
	out=$tmp/run.$i
	"$bin" --headless $mode --dir "$mnt" "$scen" >"$out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$testname: run $i ${mode:-ptrace}: exit $rc: $(grep -E '^  FAIL|false here' "$out" | head -n 3)"
		continue
	fi
	grep -q 'nothing keeps pages dirty' "$out" || continue
	reached=$((reached + 1))
	# The sentence that rests on it is not told as held: it is unchecked, or false here by
	# another writer, or the lesson's own words for a writeback in the pause are told instead;
	# none is false by the lesson's own doing.
	counts=$(sed -n 's/^sentences: [0-9]* held, \([0-9]*\) unchecked here, \([0-9]*\) false here\( (\([0-9]*\) by another writer[^)]*)\)\{0,1\}\(,.*\)\{0,1\}$/\1 \2 \4/p' "$out")
	set -- $counts 0 0 0
	[ -n "$3" ] || set -- "$1" "$2" 0
	if [ -z "$counts" ] || [ "$2" -ne "$3" ] ||
		{ [ "$1" -eq 0 ] && [ "$3" -eq 0 ] && ! grep -q 'wrote them back on its own' "$out"; }; then
		bad "$testname: run $i: a dirty count was not observable, its sentences: $(grep '^sentences:' "$out")"
	fi
done
echo "$testname: a 'still dirty' fact was not observable (the kernel's writeback took the file) in $reached runs of 12"
[ $reached -gt 0 ] || skip_part "syncfs beside the lesson" "no sync of the other process took the file while it was dirty in 12 runs"
finish
