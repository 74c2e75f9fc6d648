#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-ways-out.sh: a run with a crash lab (--crash-fs), through the real binary, leaves
# no loop device on its image and nothing in any mount table, whatever way it ends: at its end,
# on an error after the lab was made, on every signal whose default action ends a process, and
# on SIGKILL (the kernel closes the run's files; its dir is removed by the next run, as any
# scratch dir). As a user who cannot mount, the run goes on and says once why the power cut
# is missing. Needs root, loop devices and mkfs.ext4; else "SKIP: crash-ways-out: <reason>".
testname=crash-ways-out
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
hold=$src/tests/crash-wait.yaml

lab_needs mkfs.ext4
killer=$(command -v /usr/bin/kill || command -v /bin/kill) || skip "kill(1) (procps) not installed"

chmod 755 "$tmp"
pids=""
# The runs still alive on the way out (lib.sh then removes the dir).
cleanup() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
}

# True if a loop device is attached to a file under dir $1 (the lab's image has no name, but
# the kernel shows its dir: "DIR/#12345 (deleted)").
backs() {
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && case $(cat "$f" 2>/dev/null) in "$1"/*) return 0 ;; esac
	done
	return 1
}

# True if a mount table shows a device under dir $1: never (the lab is mounted nowhere).
in_mounts() {
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case $(cat "$f" 2>/dev/null) in "$1"/*) ;; *) continue ;; esac
		dev=${f#/sys/block/}
		grep -q "^/dev/${dev%%/*} " /proc/mounts && return 0
	done
	return 1
}

gone() { ! backs "$1"; }

# 1. Every catchable terminating signal, in the middle of a 30 s wait on the lab (as
#    tests/ways-out.sh sends them, the real-time ones by number).
sigs="HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU VTALRM
PROF IO PWR SYS 34 64"
for sig in $sigs; do
	d=$tmp/sig-$sig
	mkdir "$d"
	env --default-signal "$bin" --headless --crash-fs=ext4 --dir "$d" "$hold" >"$d.out" 2>&1 &
	pid=$!
	pids="$pids $pid"
	wait_for 'backs "$d"' || { bad "SIG$sig: no loop device on the lab: $(cat "$d.out")"; kill -KILL $pid; wait $pid; continue; }
	in_mounts "$d" && bad "SIG$sig: the lab is in a mount table"
	"$killer" -s "$sig" "$pid" || bad "kill -s $sig failed"
	wait "$pid"
	wait_for 'gone "$d"' || bad "SIG$sig: a loop device still backs the lab's image"
	[ -z "$(ls -A "$d")" ] || bad "SIG$sig: left $(ls -A "$d")"
done
[ $fail = 0 ] && echo "ok: crash-ways-out: $(echo $sigs | wc -w) signals, no loop device, nothing left"

# 2. SIGKILL: nothing can run, yet the kernel unmounts and detaches the lab when it closes the
#    run's files; the next run removes its dir and says so.
d=$tmp/kill
mkdir "$d"
"$bin" --headless --crash-fs=ext4 --dir "$d" "$hold" >/dev/null 2>&1 &
pid=$!
pids="$pids $pid"
wait_for 'backs "$d"' || bad "SIGKILL: no loop device on the lab"
kill -KILL "$pid"
wait "$pid"
wait_for 'gone "$d"' || bad "SIGKILL: a loop device still backs the lab's image"
"$bin" --headless --crash-fs=ext4 --dir "$d" "$src/scenarios/13-3-fflush-fsync.yaml" >"$d.out" 2>"$d.err" ||
	bad "after SIGKILL: the next run failed: $(cat "$d.out" "$d.err")"
grep -q "removed $d/iobufviz\.[A-Za-z0-9]\{6\}, left by an iobufviz run that is gone" "$d.err" ||
	bad "after SIGKILL: the stale dir's removal not said: $(cat "$d.err")"
[ -z "$(ls -A "$d")" ] || bad "after SIGKILL: left $(ls -A "$d")"
# Its lab's loop device is detached by the kernel after the run has gone (autoclear on the
# last close can be done by a kernel worker later): waited for, as above.
wait_for 'gone "$d"' || bad "the run after SIGKILL left a loop device"
[ $fail = 0 ] && echo "ok: crash-ways-out: SIGKILL: detached by the kernel, the dir reaped by the next run"

# 3. An error after the lab was made (--trace=ptrace where ptrace is refused: under strace).
if command -v strace >/dev/null 2>&1; then
	d=$tmp/error
	mkdir "$d"
	# LeakSanitizer cannot work under ptrace (a sanitizer build): leave it out of this run.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o /dev/null "$bin" --headless --trace=ptrace --crash-fs=ext4 --dir "$d" \
		"$src/scenarios/13-3-fflush-fsync.yaml" >"$d.out" 2>&1
	rc=$?
	[ $rc = 3 ] || bad "error: exit $rc, expected 3: $(cat "$d.out")"
	wait_for 'gone "$d"' || bad "error: a loop device still backs the lab's image"
	[ -z "$(ls -A "$d")" ] || bad "error: left $(ls -A "$d")"
	[ $fail = 0 ] && echo "ok: crash-ways-out: an error after the lab was made: nothing left"
else
	skip_part "error path" "strace not installed"
fi

# 4. As user nobody: no lab, the process crash only, and the reason said once.
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin" 2>/dev/null; then
	d=$tmp/nobody
	mkdir -m 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --headless --crash-fs=xfs \
		--dir "$d" "$src/scenarios/13-3-fflush-fsync.yaml" >"$d.out" 2>&1 ||
		bad "nobody: exit $?: $(cat "$d.out")"
	n=$(grep -o "needs root to mount a filesystem image" "$d.out" | wc -l)
	[ "$n" = 1 ] || bad "nobody: the reason said $n times: $(cat "$d.out")"
	[ -z "$(ls -A "$d")" ] || bad "nobody: left $(ls -A "$d")"
	[ $fail = 0 ] && echo "ok: crash-ways-out: as nobody the run goes on; why the power cut is missing, said once"
else
	skip_part "as nobody" "setpriv missing, or nobody cannot run $bin"
fi
finish
