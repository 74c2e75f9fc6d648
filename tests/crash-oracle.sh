#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-oracle.sh: the crash lab against an oracle that shares none of its code. For ext4,
# xfs and btrfs, and exercise 13-3's three stopping points (after fwrite, fflush, fsync), the
# test makes its own image, loop device and mount (losetup, mkfs, mount), runs a plain C
# program there (tests/crash-seq: fopen "w", fwrite 5000, then nothing / fflush / fflush +
# fsync), and crashes it both ways itself: cp --sparse of the image at a moment the device's
# counters show quiet, mounted on a second loop device (the kernel's recovery), and kill -9 of
# the program, then reading the file. What it recovers must be what the crash lab reports for
# the bundled 13-3 lesson (tests/crash-report) after the same calls: each half's existence,
# size and first bytes. And what the kernel guarantees must hold: after fsync a power cut
# keeps all 5000 bytes; a process crash keeps what stdio had written (4096, 5000, 5000); a
# power cut before any write request reached the device keeps no file. Without fsync, what a
# power cut keeps is not fixed: a sync(2) anywhere on the machine, a journal commit, writeback
# can put the file on the device first. Those outcomes are compared only where neither device
# had received a write since it was mounted; else the comparison is a named skip.
# Needs root, loop devices and the three mkfs; else "SKIP: crash-oracle: <reason>" (exit 77).
testname=crash-oracle
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
seq=$build/tests/crash-seq
report=$build/tests/crash-report
lesson=$src/scenarios/13-3-fflush-fsync.yaml

lab_needs losetup mount umount cp stat head mkfs.ext4 mkfs.xfs mkfs.btrfs
PATH=$PATH:/usr/sbin:/sbin
[ -x "$seq" ] && [ -x "$report" ] || { echo "FAIL: crash-oracle: $seq or $report not built"; exit 1; }

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

status=0
fail() {
	echo "FAIL: crash-oracle: $*"
	status=1
}

# A file as a reader finds it: "SIZE:HEAD" (the first 16 bytes, '.' for the unprintable),
# or "none".
seen() {
	if [ -e "$1" ]; then
		printf '%s:%s' "$(stat -c %s "$1")" "$(head -c 16 "$1" | tr -c '!-~' '.')"
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
		# Equal counters, the third (in flight) 0 before: 0 after too.
		set -- "$1" "$2" "$3" $before
		[ "$6" = 0 ] && [ "$before" = "$after" ] && return 0
	done
	return 1
}

# The oracle for fs $1, stopping point $2: "PROCESS POWER WRITES" as the test itself recovers
# them, WRITES the write requests the device completed from its mount to the copy.
oracle() {
	fs=$1 how=$2
	d=$work/$fs-$how
	mkdir "$d" "$d/live" "$d/copy"
	truncate -s 512M "$d/img"
	case $fs in
	ext4) mkfs.ext4 -q -F -b 4096 "$d/img" ;;
	*) "mkfs.$fs" -q -f "$d/img" ;;
	esac >/dev/null 2>&1 || { fail "$fs: mkfs failed"; return 1; }
	live=$(losetup -f --show "$d/img") || { fail "$fs: losetup failed"; return 1; }
	loops="$live $loops"
	mount "$live" "$d/live" || { fail "$fs: mount failed"; return 1; }
	mounts="$d/live $mounts"
	set -- $(counters "$live")
	born=$1
	"$seq" "$d/live/f" "$how" >"$d/ready" 2>&1 &
	pid=$!
	pids="$pid $pids"
	wait_for 'grep -q ready "$d/ready"' || { fail "$fs $how: the program did not get ready"; return 1; }
	# The power cut: the device as it is now, while the program still holds its buffer.
	quiet_copy "$d/img" "$d/img.copy" "$live" || { fail "$fs $how: the device was never quiet"; return 1; }
	set -- $(counters "$live")
	writes=$(($1 - born))
	# The process crash: the program dies by SIGKILL; another process reads the file.
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	process=$(seen "$d/live/f")
	copy=$(losetup -f --show "$d/img.copy") || { fail "$fs: losetup of the copy failed"; return 1; }
	loops="$copy $loops"
	opt=
	[ "$fs" = xfs ] && opt="-o nouuid"
	mount $opt "$copy" "$d/copy" || { fail "$fs $how: the copy did not mount"; return 1; }
	mounts="$d/copy $mounts"
	power=$(seen "$d/copy/f")
	umount "$d/copy" "$d/live"
	losetup -d "$copy" "$live"
	rm -f "$d/img" "$d/img.copy"
	echo "$process $power $writes"
}

# The step of the 13-3 lesson after the same calls (1 fopen, 2 fwrite, 3 fflush, 5 fsync).
step_of() {
	case $1 in none) echo 2 ;; fflush) echo 3 ;; fsync) echo 5 ;; esac
}

for fs in ext4 xfs btrfs; do
	"$report" "$fs" "$lesson" >"$work/$fs.report" 2>&1 || {
		fail "$fs: crash-report exited $?"
		sed 's/^/    /' "$work/$fs.report"
		continue
	}
	for how in none fflush fsync; do
		got=$(oracle "$fs" "$how") || continue
		set -- $got
		want_process=$1 want_power=$2 want_writes=$3
		line=$(grep "^$(step_of "$how") " "$work/$fs.report")
		lab_process=$(echo "$line" | sed -n 's/.* process=\([^ ]*\).*/\1/p')
		lab_power=$(echo "$line" | sed -n 's/.* power=\([^ ]*\).*/\1/p')
		lab_writes=$(echo "$line" | sed -n 's/.* device_writes=\([0-9]*\).*/\1/p')
		echo "$fs after $how: oracle process=$want_process power=$want_power ($want_writes writes); lab: $line"
		[ "$lab_process" = "$want_process" ] || fail "$fs $how: process crash: lab $lab_process, oracle $want_process"
		# What stdio and the kernel guarantee, whatever else runs on the machine.
		case $how in
		none) [ "${want_process%%:*}" = 4096 ] || fail "$fs $how: the process crash kept ${want_process%%:*} bytes, not the 4096 written" ;;
		*) [ "${want_process%%:*}" = 5000 ] || fail "$fs $how: the process crash kept ${want_process%%:*} bytes, not 5000" ;;
		esac
		[ "$want_writes" != 0 ] || [ "$want_power" = none ] || fail "$fs $how: oracle: a file in the copy, yet no write reached the device"
		[ "$lab_writes" != 0 ] || [ "$lab_power" = none ] || fail "$fs $how: lab: a file in the copy, yet no write reached the device"
		if [ "$how" = fsync ]; then
			[ "${want_power%%:*}" = 5000 ] || fail "$fs $how: a power cut after fsync kept $want_power"
			[ "$lab_power" = "$want_power" ] || fail "$fs $how: power cut: lab $lab_power, oracle $want_power"
		elif [ "$want_writes" = 0 ] && [ "$lab_writes" = 0 ]; then
			[ "$lab_power" = "$want_power" ] || fail "$fs $how: power cut: lab $lab_power, oracle $want_power"
		else
			skip_part "$fs after $how" "power cut not compared: writes reached the device before the copy (oracle $want_writes, lab $lab_writes: a sync(2) elsewhere, a journal commit, writeback)"
		fi
	done
	grep -E '^  power: kernel: ' "$work/$fs.report" | sort | uniq -c | sed "s/^/    $fs: /"
done
[ $status -eq 0 ] && echo "ok: crash-oracle: the crash lab recovers what the test recovers, on ext4, xfs and btrfs"
fail=$status
finish
