#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tracer-guard.sh: what iobufviz traces cannot stop, trace, read or write it, as root and
# as nobody (tests/foreign/hostile.c): SIGSTOP to iobufviz (kill, its process group, tgkill),
# PTRACE_SEIZE of it, /proc/<iobufviz>/mem read-write (as root too) all refused; and a watchdog ends the
# program at --timeout, and at a run step's own timeout:, whatever state iobufviz is in (here
# stopped from outside), and wakes it: it exits with the timeout said.
testname=tracer-guard
. "$(dirname "$0")/lib.sh"
need python3 setpriv pgrep
hostile=$build/tests/foreign/hostile
[ -x "$hostile" ] || { echo "FAIL: $hostile not built"; exit 99; }
# Everything here is nobody's to read and write (the user runs below).
chmod 755 "$tmp"
mkdir -m 777 "$tmp/t" "$tmp/d"
cp "$hostile" "$tmp/hostile" && hostile=$(readlink -f "$tmp/hostile") || exit 99
chmod 755 "$hostile"
TMPDIR=$tmp/t
export TMPDIR

# The pids of processes running our copy of the hostile program, or iobufviz on it.
left() {
	for e in /proc/[0-9]*/exe; do
		p=${e#/proc/}
		p=${p%/exe}
		[ "$(readlink "$e" 2>/dev/null)" = "$hostile" ] && echo "$p"
		grep -qF "$hostile" "/proc/$p/cmdline" 2>/dev/null && echo "$p"
	done | sort -u
}
# Whether our copy runs MODE (its command line exactly: not iobufviz's, which names it too).
started() {
	pgrep -f -x "$hostile $1" >/dev/null
}
cleanup() {
	for p in $(left); do kill -KILL "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
}

# "$(as USER) CMD...": CMD as root, or as nobody (setpriv execs it: $! is CMD's pid).
as() {
	[ "$1" = root ] || echo "setpriv --reuid=nobody --regid=nogroup --clear-groups"
}

# Trace "hostile MODE" as USER with --timeout=3, killed from outside after 60 s; the program's
# stdout in $out, the time (s) in $took, the exit status in $rc.
run() {
	start=$(date +%s)
	$(as "$1") timeout -s KILL 60 "$bin" --headless --format=json --timeout=3 --dir "$tmp/d" \
		-- "$hostile" "$2" >"$tmp/$1-$2.json" 2>"$tmp/$1-$2.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	out=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["program"]["stdout"] or "", end="")' \
		"$tmp/$1-$2.json" 2>/dev/null)
	[ -z "$(left)" ] || { bad "$1 $2: processes outlived the run: $(left)"; cleanup; }
}

for user in root nobody; do
	run $user stop
	[ $took -le 10 ] || bad "$user stop: --timeout=3 took ${took}s (exit $rc)"
	for what in "kill SIGSTOP" "kill -pgrp SIGSTOP" "tgkill SIGSTOP"; do
		echo "$out" | grep -qxF "$what: Operation not permitted" ||
			bad "$user stop: '$what' not refused: $out"
	done

	run $user seize
	[ $took -le 10 ] || bad "$user seize: --timeout=3 took ${took}s (exit $rc)"
	echo "$out" | grep -qxF "PTRACE_SEIZE: Operation not permitted" ||
		bad "$user seize: PTRACE_SEIZE of iobufviz not refused: $out"

	# iobufviz stopped from outside while the program runs: the watchdog ends the program at
	# the timeout and wakes iobufviz, which says so.
	start=$(date +%s)
	$(as $user) "$bin" --headless --format=json --timeout=3 --dir "$tmp/d" -- "$hostile" quiet \
		>"$tmp/$user-quiet.json" 2>"$tmp/$user-quiet.err" &
	job=$!
	if wait_for "started quiet" 30; then
		kill -STOP $job
		# Bounded from outside: a wait that never returns fails the test, not the suite.
		wait_for "! kill -0 $job 2>/dev/null || grep -q 'State:.Z' /proc/$job/status" 20 ||
			{ bad "$user: a stopped iobufviz never ended"; kill -KILL $job; kill -CONT $job; }
		took=$(( $(date +%s) - start ))
		[ $took -le 10 ] || bad "$user: a stopped iobufviz with --timeout=3 took ${took}s"
		grep -q "timeout" "$tmp/$user-quiet.json" ||
			bad "$user: the transcript does not say the timeout ended it: $(head -c 300 "$tmp/$user-quiet.json")"
	else
		bad "$user: hostile quiet never started"
	fi
	wait $job 2>/dev/null
	cleanup
done

# Neither nobody nor root can open iobufviz's memory: it is not dumpable, and the program runs
# without CAP_SYS_PTRACE, with which root opened it read-write all the same (and wrote over its
# code). nobody cannot open its maps either.
for user in root nobody; do
	run $user mem
	echo "$out" | grep -qxF "open mem: Permission denied" || bad "$user mem: /proc/<iobufviz>/mem opened: $out"
done
echo "$out" | grep -qxF "open maps: Permission denied" || bad "nobody mem: /proc/<iobufviz>/maps opened: $out"

# A lesson's run step: its program cannot stop iobufviz above its tracer; and with its tracer
# stopped from outside, the step's own timeout: (3 s, the run's --timeout is 60) still ends it.
cat >"$tmp/grand.yaml" <<EOF
title: "a run step stops iobufviz"
steps:
  - run: {program: "$hostile", args: [stopgrand], timeout: 3}
EOF
for user in root nobody; do
	start=$(date +%s)
	$(as $user) timeout -s KILL 60 "$bin" --headless --format=json --allow-run --timeout=60 \
		--dir "$tmp/d" "$tmp/grand.yaml" >"$tmp/$user-grand.json" 2>"$tmp/$user-grand.err"
	took=$(( $(date +%s) - start ))
	[ $took -le 10 ] || bad "$user run step: timeout: 3 took ${took}s"
	grep -qF "kill iobufviz SIGSTOP: Operation not permitted" "$tmp/$user-grand.json" ||
		bad "$user run step: stopping iobufviz not refused: $(head -c 600 "$tmp/$user-grand.json")"
	cleanup

	start=$(date +%s)
	sed 's/stopgrand/quiet/' "$tmp/grand.yaml" >"$tmp/quiet.yaml"
	$(as $user) "$bin" --headless --format=json --allow-run --timeout=60 --dir "$tmp/d" \
		"$tmp/quiet.yaml" >"$tmp/$user-qstep.json" 2>"$tmp/$user-qstep.err" &
	job=$!
	wait_for "started quiet" 30 || bad "$user run step: hostile quiet never started"
	# The step's tracer (a helper of iobufviz's, the program's parent) stopped from outside.
	helper=$(ps -o ppid= -p "$(pgrep -f -x "$hostile quiet")" | tr -d ' ')
	kill -STOP "$helper"
	wait_for "! kill -0 $job 2>/dev/null || grep -q 'State:.Z' /proc/$job/status" 20 || { bad "$user run step: a stopped tracer never ended"; kill -KILL $job "$helper"; kill -CONT "$helper"; cleanup; }
	took=$(( $(date +%s) - start ))
	[ $took -le 10 ] || bad "$user run step: stopped tracer, timeout: 3 took ${took}s"
	grep -q "timeout" "$tmp/$user-qstep.json" || bad "$user run step: no timeout said: $(head -c 600 "$tmp/$user-qstep.json")"
	wait $job 2>/dev/null
	cleanup
done

[ $fail = 0 ] && echo "ok: SIGSTOP, PTRACE_SEIZE and /proc/PID/mem of iobufviz refused; a stopped iobufviz ends at the timeout"
finish
