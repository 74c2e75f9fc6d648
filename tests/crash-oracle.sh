#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-oracle.sh: what iobufviz says a crash leaves, against an oracle that shares none of
# its code. For every bundled crash lesson (scenarios/crash-*.yaml) on ext4, xfs and btrfs, the
# test makes its own image, loop device and mount (losetup, mkfs, mount), runs the lesson's calls
# as a plain C program there (tests/crash-seq), and at each crash: step crashes it both ways
# itself: a copy of the image taken with cp while the device's counters show it quiet, mounted
# on a second loop device (the kernel's recovery: the power cut), and kill -9 of a copy of the
# program, then reading the file (the process crash). What it recovers must be what iobufviz's
# JSON transcript of the lesson (--crash-fs) says at the same step: each half's existence, size
# and first bytes. The process crash is fixed by the calls; so is a power cut when every write
# that reached the device was one a call of the lesson waited for (fsync, fdatasync, O_SYNC):
# otherwise (a journal's timer, writeback, a sync(2) anywhere on the machine) it is compared
# only where neither side saw such a write, and the rest is a named skip. The bundled 13-3
# lesson's views after every step (the Done-when of issue 22: kill -9 keeps 4096, 5000, 5000
# bytes after fwrite, fflush, fsync; a power cut no file, no file, 5000) are held against the
# oracle's crash-13-3 too.
# Needs root, loop devices and the three mkfs; else "SKIP: crash-oracle: <reason>" (exit 77).
testname=crash-oracle
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
seq=$build/tests/crash-seq

lab_needs losetup mount umount cp stat head mkfs.ext4 mkfs.xfs mkfs.btrfs python3 mkfifo
PATH=$PATH:/usr/sbin:/sbin
[ -x "$seq" ] || { echo "FAIL: crash-oracle: $seq not built"; exit 1; }

work=$tmp
mounts=""
loops=""
pids=""

# Kill the program, unmount and detach everything made here, newest first (lib.sh then
# removes the work dir).
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	for m in $mounts; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
}

status=0 compared=0 skipped=0
fail() {
	echo "FAIL: crash-oracle: $*"
	status=1
}

# A file as a reader finds it: "SIZE:HEAD" (the first 16 bytes, '.' for a space and what is
# not printable ASCII), or "none".
seen() {
	if [ -e "$1" ]; then
		printf '%s:%s' "$(stat -c %s "$1")" "$(head -c 16 "$1" | LC_ALL=C tr -c '!-~' '.')"
	else
		printf none
	fi
}

# The write counters of loop device $1 (requests, sectors), its requests in flight, and its
# discard (requests, sectors) and flush counters.
counters() {
	set -- $(cat "/sys/block/${1#/dev/}/stat")
	echo "$5 $7 $9 ${12:-0} ${14:-0} ${16:-0}"
}

# Copy image $1 to $2 while its device $3 is quiet: nothing in flight before or after, and
# no write, discard or flush completed between. 0 if it got such a copy.
quiet_copy() {
	for try in 1 2 3 4 5 6 7 8 9 10; do
		before=$(counters "$3")
		cp --sparse=always "$1" "$2"
		after=$(counters "$3")
		set -- "$1" "$2" "$3" $before
		[ "$6" = 0 ] && [ "$before" = "$after" ] && return 0
	done
	return 1
}

# mkfs.$1 as the crash lab makes it (src/crash/crash.c): quiet, nothing lazy left behind.
make_fs() {
	case $1 in
	ext4) mkfs.ext4 -q -F -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=1 "$2" ;;
	*) "mkfs.$1" -q -f -K "$2" ;;
	esac
}

# The oracle for lesson $2 on fs $1: one line per crash step, "K NAME PROCESS POWER STRAY",
# PROCESS and POWER as seen() gives them, STRAY the writes no call of the lesson waited for.
oracle() {
	fs=$1 lesson=$2
	d=$work/$fs-$lesson
	mkdir "$d" "$d/live" "$d/copy"
	truncate -s 512M "$d/img"
	make_fs "$fs" "$d/img" >/dev/null 2>&1 || { fail "$fs: mkfs failed"; return 1; }
	live=$(losetup -f --show "$d/img") || { fail "$fs: losetup failed"; return 1; }
	loops="$live $loops"
	mount -o noatime "$live" "$d/live" || { fail "$fs: mount failed"; return 1; }
	mounts="$d/live $mounts"
	mkfifo "$d/go"
	"$seq" "$d/live" "${live#/dev/}" "$lesson" <"$d/go" >"$d/out" 2>&1 &
	pid=$!
	pids="$pid $pids"
	exec 9>"$d/go"
	k=0
	while :; do
		k=$((k + 1))
		wait_for "grep -q -e '^crash $k ' -e '^done' '$d/out'" || { fail "$fs $lesson: the program did not reach crash $k: $(cat "$d/out")"; break; }
		line=$(grep "^crash $k " "$d/out") || break
		set -- $line
		name=$3 child=$4 writes=$5 stray=$6
		# The power cut: the device as it is now.
		quiet_copy "$d/img" "$d/img.$k" "$live" || { fail "$fs $lesson: the device was never quiet"; break; }
		set -- $(counters "$live")
		[ "$1" -gt "$writes" ] && [ "$2" -gt 0 ] && stray=$((stray + $1 - writes))
		# The process crash: its copy dies by SIGKILL; another process reads the file.
		kill -9 "$child"
		wait_for "! kill -0 $child 2>/dev/null" || fail "$fs $lesson: the copy $child did not die"
		echo "$k $name $(seen "$d/live/$name") $stray" >>"$d/views"
		printf x >&9
	done
	exec 9>&-
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	umount "$d/live" && losetup -d "$live"
	# Each copy, recovered by the kernel.
	while read -r k name process stray; do
		copy=$(losetup -f --show "$d/img.$k") || { fail "$fs: losetup of a copy failed"; continue; }
		loops="$copy $loops"
		opt=noatime
		[ "$fs" = xfs ] && opt=noatime,nouuid
		if mount -o "$opt" "$copy" "$d/copy"; then
			echo "$k $name $process $(seen "$d/copy/$name") $stray"
			umount "$d/copy"
		else
			fail "$fs $lesson: copy $k did not mount"
		fi
		losetup -d "$copy"
		rm -f "$d/img.$k"
	done <"$d/views"
	rm -f "$d/img"
}

# iobufviz's crash steps of lesson file $1 (options after it), as oracle() writes its lines:
# "K NAME PROCESS POWER STRAY" (PROCESS or POWER "unobserved" when not observed); with
# --ops=a,b,c the views after the steps doing those ops instead of its crash steps.
lab() {
	f=$1
	shift
	ops=crash
	case ${1:-} in --ops=*) ops=${1#--ops=}; shift ;; esac
	"$bin" --headless --format=json --dir "$work" "$@" "$f" >"$work/lab.json" 2>"$work/lab.err"
	rc=$?
	[ $rc -le 1 ] || { fail "$(basename "$f") $*: iobufviz exited $rc: $(head -c 300 "$work/lab.err")"; return 1; }
	python3 - "$work/lab.json" "$ops" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = sys.argv[2].split(",")
def seen(h):
    if not h["observed"]:
        return "unobserved"
    if not h["exists"]:
        return "none"
    return "%d:%s" % (h["size"], "".join(c if "!" <= c <= "~" else "." for c in h["head"][:16]))
k = 0
for s in d["steps"]:
    if s["op"] not in ops or s["crash"] is None:
        continue
    k += 1
    c = s["crash"]
    print(k, c["file"], seen(c["process"]), seen(c["power"]), c["power"].get("stray_writes", 0))
PY
}

# Compare the lab's line $2 with the oracle's line $3 for what $1 names.
compare() {
	what=$1
	set -- $2 $3
	[ $# -eq 10 ] || { fail "$what: lines differ in shape: lab '$1 $2 $3 $4 $5', oracle '$6 $7 $8 $9 ${10}'"; return; }
	[ "$3" = "$8" ] || fail "$what crash $1 ($2): process crash: lab $3, oracle $8"
	if [ "$4" = "$9" ]; then
		compared=$((compared + 1))
	elif [ "$5" != 0 ] || [ "${10}" != 0 ]; then
		echo "SKIP: crash-oracle: $what crash $1 ($2): power cut not compared (lab $4, oracle $9): writes no step waited for reached the device first (lab $5, oracle ${10}: a journal's timer, writeback, a sync(2) elsewhere)"
		skipped=$((skipped + 1))
	else
		fail "$what crash $1 ($2): power cut: lab $4, oracle $9"
	fi
}

for fs in ext4 xfs btrfs; do
	for lesson in $("$seq" --list); do
		f=$src/scenarios/$lesson.yaml
		[ -f "$f" ] || { fail "$lesson: no $f"; continue; }
		lab "$f" --crash-fs="$fs" >"$work/lab.txt" || continue
		oracle "$fs" "$lesson" >"$work/oracle.txt" || continue
		n=$(wc -l <"$work/lab.txt")
		[ "$n" -gt 0 ] && [ "$n" = "$(wc -l <"$work/oracle.txt")" ] ||
			{ fail "$fs $lesson: $n crash steps in iobufviz's transcript, $(wc -l <"$work/oracle.txt") in the oracle's"; continue; }
		i=0
		while [ $i -lt "$n" ]; do
			i=$((i + 1))
			a=$(sed -n "${i}p" "$work/lab.txt")
			b=$(sed -n "${i}p" "$work/oracle.txt")
			echo "$fs $lesson: lab [$a] oracle [$b]"
			compare "$fs $lesson" "$a" "$b"
		done
		[ "$lesson" = crash-13-3 ] && cp "$work/oracle.txt" "$work/13-3.$fs"
	done
	# The bundled 13-3 with --crash-fs: its views after fwrite, fflush and fsync are the
	# oracle's crash-13-3 steps 2, 3 and 4.
	[ -f "$work/13-3.$fs" ] || continue
	lab "$src/scenarios/13-3-fflush-fsync.yaml" --ops=fwrite,fflush,fsync --crash-fs="$fs" >"$work/lab.txt" || continue
	for i in 1 2 3; do
		a=$(sed -n "${i}p" "$work/lab.txt")
		b=$(sed -n "$((i + 1))p" "$work/13-3.$fs" | sed "s/^[0-9]*/$i/")
		echo "$fs 13-3: lab [$a] oracle [$b]"
		compare "$fs 13-3" "$a" "$b"
	done
	# What the kernel guarantees, whatever else runs: kill -9 keeps what write() gave the
	# kernel (4096, 5000, 5000); fsync keeps all 5000 through a power cut.
	set -- $(cut -d' ' -f3 "$work/lab.txt" | cut -d: -f1)
	[ "${1:-}" = 4096 ] && [ "${2:-}" = 5000 ] && [ "${3:-}" = 5000 ] ||
		fail "$fs 13-3: kill -9 after fwrite, fflush, fsync kept ${1:-?}, ${2:-?}, ${3:-?} bytes, not 4096, 5000, 5000"
	[ "$(sed -n 3p "$work/lab.txt" | cut -d' ' -f4 | cut -d: -f1)" = 5000 ] ||
		fail "$fs 13-3: a power cut after fsync did not keep 5000 bytes"
done
echo "crash-oracle: $compared power cuts compared, $skipped not (named above)"
[ $status -eq 0 ] && echo "ok: crash-oracle: iobufviz recovers what the test recovers, on ext4, xfs and btrfs"
fail=$status
finish
