#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-stop.sh: q while a long step runs (a 20 s wait; a worker step of many calls,
# traced and untraced) ends the program within about a second: the worker killed, the
# scratch dir removed, the terminal restored, exit status 0 (what ran held); q during a
# sweep stops the sweep, and the end of the scenario says so.
testname=tui-stop
. "$(dirname "$0")/lib.sh"
need tmux

# The screen of session $1.
screen() {
	tmux_screen "$1"
}

# Wait until session $1 shows $2, up to $3 seconds (default 10).
shows() {
	lib_s1=$1 lib_s2=$2
	wait_for 'screen "$lib_s1" | grep -F -q -- "$lib_s2"' "${3:-10}"
}

# Run scenario $2 in session $1 (extra options $3), step until $4 shows, press q: the
# program must be gone within 1.5 s, leaving nothing.
stop_run() {
	name=$1
	mkdir "$tmp/$name"
	tmux_new "$name" 100 30 \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' $3 --dir '$tmp/$name' '$2'; \
		 echo \$? > '$tmp/$name.status'; echo after-the-tui; sleep 60" ||
		{ echo "FAIL: $name: tmux"; fail=1; return; }
	shows "$name" "step 0/3" || { echo "FAIL: $name: the TUI did not start"; fail=1; return; }
	tmux_cmd "$name" send-keys -t "$name" n
	shows "$name" "step 1/3" || { echo "FAIL: $name: step 1 did not run"; fail=1; return; }
	tmux_cmd "$name" send-keys -t "$name" n
	if ! shows "$name" "$4" 5; then
		echo "FAIL: $name: no '$4' while step 2 runs"
		screen "$name" | sed 's/^/    | /'
		fail=1
	fi
	[ -n "$(ls -A "$tmp/$name")" ] || { echo "FAIL: $name: no scratch dir while running"; fail=1; }
	tmux_cmd "$name" send-keys -t "$name" q
	t0=$(date +%s%N)
	wait_for '[ -s "$tmp/$name.status" ]' 1.5
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ ! -s "$tmp/$name.status" ]; then
		echo "FAIL: $name: still running 1.5 s after q"
		screen "$name" | sed 's/^/    | /'
		fail=1
		return
	fi
	st=$(cat "$tmp/$name.status")
	[ "$st" = 0 ] && echo "ok: $name: q stops the step and exits 0 within $ms ms" ||
		{ echo "FAIL: $name: exit status $st after q"; fail=1; }
	[ -z "$(ls -A "$tmp/$name")" ] && echo "ok: $name: nothing left in --dir" ||
		{ echo "FAIL: $name: left $(ls -A "$tmp/$name")"; fail=1; }
	shows "$name" after-the-tui 2 && ! screen "$name" | grep -q "stdio buffer" &&
		echo "ok: $name: the terminal is restored" ||
		{ echo "FAIL: $name: the TUI's screen is still shown"; fail=1; }
	# No process of the run is left (the worker was killed, not orphaned).
	if pgrep -f -- "--dir $tmp/$name" >/dev/null 2>&1; then
		echo "FAIL: $name: a process of the run is still alive"
		fail=1
	fi
}

# q during a sweep stops the sweep (F10 quits): the end says the step was stopped, not
# that every expectation held.
tmux_new sweep 120 40 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp' '$src/tests/sweep-tiny.yaml'; \
	 echo \$? > '$tmp/sweep.status'; sleep 60" || { echo "FAIL: sweep: tmux"; fail=1; }
if shows sweep "step 0/1"; then
	tmux_cmd sweep send-keys -t sweep n
	shows sweep "q stops the sweep" 10 || bad "sweep: no progress line"
	tmux_cmd sweep send-keys -t sweep q
	if shows sweep "step 1 was stopped" 10 && ! screen sweep | grep -q "every expectation held" &&
	   ! screen sweep | grep -q "failed: ECANCELED" && screen sweep | grep -q "stopped (q)"; then
		echo "ok: sweep: q stops it and the end says so"
	else
		echo "FAIL: sweep: the end does not say the sweep was stopped"
		screen sweep | sed 's/^/    | /'
		fail=1
	fi
	tmux_cmd sweep send-keys -t sweep q
else
	echo "FAIL: sweep: the TUI did not start"
	fail=1
fi

stop_run wait "$src/tests/tui-stop.yaml" "" "step 2 running"
stop_run tail "$src/tests/tui-stop-tail.yaml" "" "step 2 running"
stop_run tailprocio "$src/tests/tui-stop-tail.yaml" "--trace=procio" "step 2 running"
stop_run run "$src/tests/tui-stop-run.yaml" "--allow-run=sleep" "step 2 running"

# --timeout stops a run: step as headless does, and the TUI then exits 3.
mkdir "$tmp/rto"
tmux_new rto 100 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --timeout=2 --allow-run=sleep --dir '$tmp/rto' '$src/tests/tui-stop-run.yaml'; \
	 echo \$? > '$tmp/rto.status'; sleep 60" || { echo "FAIL: rto: tmux"; fail=1; }
if shows rto "step 0/3"; then
	tmux_cmd rto send-keys -t rto n n
	shows rto "timeout" 10 || { bad "rto: no timeout shown"; screen rto | sed 's/^/    | /'; }
	tmux_cmd rto send-keys -t rto q
	wait_for '[ -s "$tmp/rto.status" ]' 3
	st=$(cat "$tmp/rto.status" 2>/dev/null)
	[ "$st" = 3 ] && echo "ok: rto: --timeout stops the run step, the TUI exits 3" ||
		bad "rto: exit status '$st' after --timeout"
else
	bad "rto: the TUI did not start"
fi
finish
