#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-stop.sh: q while a long step runs (a 20 s wait; a worker step of many calls,
# traced and untraced) ends the program within about a second: the worker killed, the
# scratch dir removed, the terminal restored, exit status 0 (what ran held); q during a
# sweep stops the sweep, and the end of the scenario says so.
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tui-stop: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
src=${IOBUFVIZ_SRCDIR:?}
[ -x "$bin" ] || { echo "SKIP: tui-stop: $bin not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-stop.XXXXXX") || exit 99
sock=iobufviz-stop-$$
fail=0
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM

# The screen of session $1.
screen() {
	tmux -L "$sock" capture-pane -p -t "$1" 2>/dev/null
}

# Wait until session $1 shows $2, up to $3 tenths of a second (default 100).
wait_for() {
	i=0
	until screen "$1" | grep -F -q -- "$2"; do
		[ $i -ge "${3:-100}" ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# Run scenario $2 in session $1 (extra options $3), step until $4 shows, press q: the
# program must be gone within 1.5 s, leaving nothing.
stop_run() {
	name=$1
	mkdir "$tmp/$name"
	tmux -L "$sock" -f /dev/null new-session -d -s "$name" -x 100 -y 30 \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' $3 --dir '$tmp/$name' '$2'; \
		 echo \$? > '$tmp/$name.status'; echo after-the-tui; sleep 60" ||
		{ echo "FAIL: $name: tmux"; fail=1; return; }
	wait_for "$name" "step 0/3" || { echo "FAIL: $name: the TUI did not start"; fail=1; return; }
	tmux -L "$sock" send-keys -t "$name" n
	wait_for "$name" "step 1/3" || { echo "FAIL: $name: step 1 did not run"; fail=1; return; }
	tmux -L "$sock" send-keys -t "$name" n
	if ! wait_for "$name" "$4" 50; then
		echo "FAIL: $name: no '$4' while step 2 runs"
		screen "$name" | sed 's/^/    | /'
		fail=1
	fi
	[ -n "$(ls -A "$tmp/$name")" ] || { echo "FAIL: $name: no scratch dir while running"; fail=1; }
	tmux -L "$sock" send-keys -t "$name" q
	i=0
	while [ ! -s "$tmp/$name.status" ] && [ $i -lt 15 ]; do sleep 0.1; i=$((i + 1)); done
	if [ ! -s "$tmp/$name.status" ]; then
		echo "FAIL: $name: still running 1.5 s after q"
		screen "$name" | sed 's/^/    | /'
		fail=1
		return
	fi
	st=$(cat "$tmp/$name.status")
	[ "$st" = 0 ] && echo "ok: $name: q stops the step and exits 0 within $((i * 100)) ms" ||
		{ echo "FAIL: $name: exit status $st after q"; fail=1; }
	[ -z "$(ls -A "$tmp/$name")" ] && echo "ok: $name: nothing left in --dir" ||
		{ echo "FAIL: $name: left $(ls -A "$tmp/$name")"; fail=1; }
	wait_for "$name" after-the-tui 20 && ! screen "$name" | grep -q "stdio buffer" &&
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
tmux -L "$sock" -f /dev/null new-session -d -s sweep -x 120 -y 40 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp' '$src/tests/sweep-tiny.yaml'; \
	 echo \$? > '$tmp/sweep.status'; sleep 60" || { echo "FAIL: sweep: tmux"; fail=1; }
if wait_for sweep "step 0/1"; then
	tmux -L "$sock" send-keys -t sweep n
	wait_for sweep "q stops the sweep" 100 || echo "FAIL: sweep: no progress line"
	tmux -L "$sock" send-keys -t sweep q
	if wait_for sweep "step 1 was stopped" 100 && ! screen sweep | grep -q "every expectation held" &&
	   ! screen sweep | grep -q "failed: ECANCELED" && screen sweep | grep -q "stopped (q)"; then
		echo "ok: sweep: q stops it and the end says so"
	else
		echo "FAIL: sweep: the end does not say the sweep was stopped"
		screen sweep | sed 's/^/    | /'
		fail=1
	fi
	tmux -L "$sock" send-keys -t sweep q
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
tmux -L "$sock" -f /dev/null new-session -d -s rto -x 100 -y 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --timeout=2 --allow-run=sleep --dir '$tmp/rto' '$src/tests/tui-stop-run.yaml'; \
	 echo \$? > '$tmp/rto.status'; sleep 60" || { echo "FAIL: rto: tmux"; fail=1; }
if wait_for rto "step 0/3"; then
	tmux -L "$sock" send-keys -t rto n n
	wait_for rto "timeout" 100 || { echo "FAIL: rto: no timeout shown"; screen rto | sed 's/^/    | /'; }
	tmux -L "$sock" send-keys -t rto q
	i=0
	while [ ! -s "$tmp/rto.status" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	st=$(cat "$tmp/rto.status" 2>/dev/null)
	[ "$st" = 3 ] && echo "ok: rto: --timeout stops the run step, the TUI exits 3" ||
		{ echo "FAIL: rto: exit status '$st' after --timeout"; fail=1; }
else
	echo "FAIL: rto: the TUI did not start"
	fail=1
fi
exit $fail
