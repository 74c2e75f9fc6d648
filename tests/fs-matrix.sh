#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fs-matrix.sh: every bundled scenario, headless, on ext4 (4 KiB and 1 KiB blocks), xfs,
# btrfs, tmpfs and overlay mounts made here, then again with --probe=mincore and
# --probe=kpageflags: no expectation may fail and no sentence may be false here (a lesson's
# words are checked like its expectations), and no scratch dir or process may be left on any
# of them. The slow lesson (13.3-writeback, about 30 s of waiting) runs on every mount with
# every probe too, all at once in the background while the others run, the filesystems in
# groups side by side (FS_MATRIX_JOBS, default one per core). A crash lesson (one
# with a crash: step) runs on a crash lab of each of ext4, xfs and btrfs (--crash-fs), once.
# Needs root and loop devices; without them it prints "SKIP: fs-matrix: <reason>" (exit 77).
# Usage: tests/fs-matrix.sh [BIN [SRCDIR]]   (default build/src/iobufviz and the tree's root)
# FS_MATRIX_KEEP=DIR copies every run's transcript there (FS.PROBE.LESSON.txt), to read the
# narration beside the panes.
top=$(cd "$(dirname "$0")/.." && pwd)
IOBUFVIZ_BIN=${1:-${IOBUFVIZ_BIN:-$top/build/src/iobufviz}}
IOBUFVIZ_SRCDIR=${2:-${IOBUFVIZ_SRCDIR:-$top}}
export IOBUFVIZ_BIN IOBUFVIZ_SRCDIR
# As root, in a mount namespace of its own whose mounts never reach the machine's: they go with
# its last process whatever way it ends (SIGKILL too), and each loop device with its mount
# (mount -o loop sets autoclear).
if [ "$(id -u)" -eq 0 ] && [ -z "${FS_MATRIX_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare --mount true 2>/dev/null; then
	FS_MATRIX_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
testname=fs-matrix
. "$(dirname "$0")/lib.sh"
budget=${FS_MATRIX_BUDGET:-0.02}
probes=${FS_MATRIX_PROBES:-"auto mincore kpageflags"}

[ -x "$bin" ] || skip "no iobufviz binary at $bin"
[ "$(id -u)" -eq 0 ] || skip "needs root to make loop devices and mounts"
for t in losetup mkfs.ext4 mkfs.xfs mkfs.btrfs mount umount; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices are unavailable here"

work=$tmp
mounts=""

# Unmount everything made here, newest first (each loop device goes with its mount), the
# transcripts copied to FS_MATRIX_KEEP first when it is set (lib.sh then removes the work dir).
cleanup() {
	if [ -n "${FS_MATRIX_KEEP:-}" ]; then
		mkdir -p "$FS_MATRIX_KEEP" && cp "$work"/*.txt "$FS_MATRIX_KEEP/" 2>/dev/null
	fi
	for m in $mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
}

# Make a sparse 768 MiB image (sweeps want 300 MB free, btrfs keeps some for itself),
# format it with mkfs.$1 (the arguments after $2), mount it at $work/$2.
make_fs() {
	fs=$1 name=$2
	shift 2
	img=$work/$name.img
	truncate -s 768M "$img" || return 1
	"mkfs.$fs" "$@" "$img" >"$work/$name.mkfs" 2>&1 ||
		{ sed 's/^/    /' "$work/$name.mkfs"; return 1; }
	mkdir -p "$work/$name"
	mount -o loop "$img" "$work/$name" 2>"$work/$name.loop" ||
		{ skip "a loop mount of $name failed: $(cat "$work/$name.loop")"; }
	mounts="$work/$name $mounts"
}

make_fs ext4 ext4 -q -F -b 4096 || { echo "FAIL fs-matrix: cannot make ext4"; exit 1; }
make_fs ext4 ext4-1k -q -F -b 1024 || { echo "FAIL fs-matrix: cannot make ext4 with 1 KiB blocks"; exit 1; }
make_fs xfs xfs -q -f || { echo "FAIL fs-matrix: cannot make xfs"; exit 1; }
make_fs btrfs btrfs -q -f || { echo "FAIL fs-matrix: cannot make btrfs"; exit 1; }
mkdir -p "$work/tmpfs" && mount -t tmpfs -o size=512m fs-matrix "$work/tmpfs" ||
	{ echo "FAIL fs-matrix: cannot mount tmpfs"; exit 1; }
mounts="$work/tmpfs $mounts"
mkdir -p "$work/lower" "$work/ext4/upper" "$work/ext4/ovlwork" "$work/overlay"
mount -t overlay fs-matrix -o "lowerdir=$work/lower,upperdir=$work/ext4/upper,workdir=$work/ext4/ovlwork" \
	"$work/overlay" || { echo "FAIL fs-matrix: cannot mount overlay"; exit 1; }
mounts="$work/overlay $mounts"

fss="ext4 ext4-1k xfs btrfs tmpfs overlay"
start=$(date +%s)
echo "fs-matrix: sweeps run with --probe=auto only (a sweep times programs), the rest with each probe"
echo "fs-matrix: crash lessons run on a crash lab of ext4, xfs and btrfs (--crash-fs), with --probe=auto"
status=0
summary=""

# The probes this machine has, per filesystem run (kpageflags needs /proc/kpageflags).
probes_here() {
	for probe in $probes; do
		if [ "$probe" = kpageflags ] && [ ! -r /proc/kpageflags ]; then
			continue
		fi
		echo "$probe"
	done
}

# Run lesson file $1 on filesystem $2 with probe $3 (and option $4) into
# $work/$2.$3.NAME.txt; the exit status into NAME.rc.
run_one() {
	f=$1 fs=$2 probe=$3 extra=${4:-}
	name=$(basename "$f" .yaml)
	grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$f" && extra=--budget=$budget
	"$bin" --headless $extra --probe="$probe" --dir "$work/$fs" "$f" \
		>"$work/$fs.$probe.$name.txt" 2>&1
	echo $? >"$work/$fs.$probe.$name.rc"
}

# The slow lessons first, every one at once in the background: they mostly wait.
slow=""
for f in "$src"/scenarios/*.yaml; do
	head -n 1 "$f" | grep -q '^# *slow' || continue
	for fs in $fss; do
		for probe in $(probes_here); do
			run_one "$f" "$fs" "$probe" &
			slow="$slow $!"
		done
	done
done

# The other lessons on filesystem $1, one after the other, each with each probe.
run_fs() {
	fs=$1
	for probe in $probes; do
		if [ "$probe" = kpageflags ] && [ ! -r /proc/kpageflags ]; then
			continue
		fi
		for f in "$src"/scenarios/*.yaml; do
			name=$(basename "$f" .yaml)
			head -n 1 "$f" | grep -q '^# *slow' && continue
			# By design, not a skip: a sweep times programs (the probe does not enter into it).
			if grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$f" && [ "$probe" != auto ]; then
				continue
			fi
			# By design, not a skip: a crash lesson's file is on a crash lab of its own, made
			# of ext4, xfs or btrfs (--crash-fs): once per lab filesystem, with the default probe.
			extra=
			if grep -q '^[[:space:]]*-[[:space:]]*crash:' "$f"; then
				case $fs.$probe in
				ext4.auto|xfs.auto|btrfs.auto) extra=--crash-fs=$fs ;;
				*) continue ;;
				esac
			fi
			run_one "$f" "$fs" "$probe" $extra
		done
	done
}

# The filesystems in FS_MATRIX_JOBS groups side by side (default: one per core), each group's
# one after the other (run last in tools/run-tests, the matrix alone took 160 s on 2 cores, one
# of them mostly idle).
jobs=${FS_MATRIX_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
groups=""
g=0
while [ $g -lt "$jobs" ]; do
	(
		i=0
		for fs in $fss; do
			[ $((i % jobs)) -eq $g ] && run_fs "$fs"
			i=$((i + 1))
		done
	) &
	groups="$groups $!"
	g=$((g + 1))
done
for p in $groups; do
	wait "$p"
done
for fs in $fss; do
	[ -r /proc/kpageflags ] || case " $probes " in
		*" kpageflags "*) skip_part "$fs" "--probe=kpageflags: /proc/kpageflags is not readable" ;;
	esac
done
for p in $slow; do
	wait "$p"
done

# Every run's outcome, counted per filesystem.
for fs in $fss; do
	dir=$work/$fs
	held=0 failed=0 unobs=0 said=0 unchecked=0 false=0 other=0 runs=0 skipped=0
	for rcf in "$work/$fs".*.rc; do
		[ -f "$rcf" ] || continue
		out=${rcf%.rc}.txt
		rc=$(cat "$rcf")
		base=$(basename "$rcf" .rc)
		probe=$(echo "$base" | sed "s/^$fs\.\([a-z]*\)\..*/\1/")
		name=${base#"$fs.$probe."}
		runs=$((runs + 1))
		counts=$(sed -n 's/^\([0-9]*\) held, \([0-9]*\) failed, \([0-9]*\) not observable here$/\1 \2 \3/p' "$out" | tail -n 1)
		set -- $counts 0 0 0
		held=$((held + $1)) failed=$((failed + $2)) unobs=$((unobs + $3))
		# "sentences: H held, U unchecked here, F false here[ (O by another writer...)][,
		# B background ...]": a false one another writer made is not the lesson's.
		counts=$(sed -n 's/^sentences: \([0-9]*\) held, \([0-9]*\) unchecked here, \([0-9]*\) false here\( (\([0-9]*\) by another writer[^)]*)\)\{0,1\}\(,.*\)\{0,1\}$/\1 \2 \3 \5/p' "$out" | tail -n 1)
		if [ -z "$counts" ] && grep -q '^sentences: ' "$out"; then
			echo "FAIL fs-matrix: $fs: $name --probe=$probe: cannot read: $(grep '^sentences: ' "$out")"
			status=1
		fi
		set -- $counts 0 0 0 0
		[ -n "$4" ] || set -- "$1" "$2" "$3" 0
		said=$((said + $1)) unchecked=$((unchecked + $2)) false=$((false + $3 - $4))
		other=$((other + $4))
		if [ "$rc" -eq 3 ]; then
			skip_part "$fs" "$name --probe=$probe: $(grep -m1 '^error' "$out")"
			skipped=$((skipped + 1))
		elif [ "$rc" -ne 0 ]; then
			echo "FAIL fs-matrix: $fs: $name --probe=$probe exited $rc"
			grep -E 'FAIL|FALSE here|error' "$out" | sed 's/^/    /'
			status=1
		fi
		# Every not-observable expectation and every unchecked sentence, with its reason,
		# once per lesson and probe.
		grep -E '^  (skip |\? \[\?[0-9]+\] )' "$out" | sed 's/^  ? \[?[0-9]*\] /  unchecked: /' |
			sort -u | sed "s|^  skip |    not observable: $fs: $name --probe=$probe: |;
				s|^  unchecked: |    unchecked sentence: $fs: $name --probe=$probe: |"
	done
	left=$(find "$dir" -maxdepth 1 -name 'iobufviz.*' 2>/dev/null | wc -l)
	if [ "$left" -ne 0 ]; then
		echo "FAIL fs-matrix: $fs: $left scratch dir(s) left behind"
		status=1
	fi
	if command -v fuser >/dev/null 2>&1 && fuser -m "$dir" >/dev/null 2>&1; then
		echo "FAIL fs-matrix: $fs: a process still uses the mount"
		status=1
	fi
	[ $failed -eq 0 ] && [ $false -eq 0 ] || status=1
	summary="$summary
fs-matrix: $fs: $held held, $failed failed, $unobs not observable; sentences: $said held, $unchecked unchecked, $false false here, $other false by another writer ($runs runs, $skipped skipped)"
done
echo "$summary" | sed '/^$/d'
echo "fs-matrix: $(($(date +%s) - start)) s, $( [ $status -eq 0 ] && echo ok || echo FAILED)"
exit $status
