#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-tui.sh: "iobufviz -- PROGRAM" in a real terminal (a private tmux server): n takes
# steps of examples/copy, Tab switches the file (and the stream with it), q quits (also while
# it waits for a program that makes no call), --timeout counts the program's time and not the
# time it waits for a key, d runs a long program at full speed, and neither the program nor a
# scratch dir is left behind.
set -u

command -v tmux >/dev/null 2>&1 || { echo "SKIP: own-prog-tui: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
build=$(cd "$(dirname "$bin")/.." && pwd)
for p in examples/copy tests/foreign/fwrite tests/foreign/pend; do
	[ -x "$build/$p" ] || { echo "FAIL: $build/$p not built"; exit 99; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/own-prog-tui.XXXXXX") || exit 99
sock=iobufviz-own-$$-0
n=0
fail=0
mkdir "$tmp/work" "$tmp/t"
head -c 5000 /dev/urandom >"$tmp/work/in"

cleanup() {
	i=1
	while [ $i -le $n ]; do
		tmux -L "iobufviz-own-$$-$i" kill-server >/dev/null 2>&1
		i=$((i + 1))
	done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Screen contents now.
screen() {
	tmux -L "$sock" capture-pane -p -t own 2>/dev/null
}

# Wait until the screen shows $1 (a fixed string), up to 10 s; say what was missing.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -F -q -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "FAIL: the screen does not show '$1':"
	screen | sed 's/^/  | /'
	fail=1
	return 1
}

# Start iobufviz (with the options $opts) on the program in a 120x40 terminal of a new tmux
# server; "EXITED n" when it ends.
opts=
start() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	n=$((n + 1))
	sock=iobufviz-own-$$-$n
	tmux -L "$sock" -f /dev/null new-session -d -s own -x 120 -y 40 \
		"TMPDIR='$tmp/t' '$bin' $opts --dir '$tmp/work' -- $*; echo EXITED \$?; sleep 60"
}

# A process of ours still running the program $1?
running() {
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}

# q: iobufviz exits 0 and the program $1 is gone with it.
quit_gone() {
	tmux -L "$sock" send-keys -t own q
	wait_for "EXITED 0" || return 1
	sleep 0.3
	if running "$1"; then
		echo "FAIL: the program is still running after q"
		fail=1
		return 1
	fi
}

start "'$build/examples/copy' in out"
wait_for "Your program, stopped before its first call on a file"
# Before the first step there is no file yet: the cache pane says so, not "not observable".
if screen | grep -q "not observable"; then
	echo "FAIL: before the first step the screen says 'not observable':"; screen | sed 's/^/  | /'
	fail=1
else
	echo "ok: before the first step: no file yet, nothing said 'not observable'"
fi
for k in 1 2 3 4 5; do
	tmux -L "$sock" send-keys -t own n
done
wait_for "step 5/5" && echo "ok: five steps"
wait_for "write(4, 1024) = 1024" && echo "ok: the log shows the write"
tmux -L "$sock" send-keys -t own Tab
wait_for "file 1/2: in  |" && echo "ok: Tab: the input file, by its name in --dir"
tmux -L "$sock" send-keys -t own Tab
wait_for "file 2/2: out  |" && echo "ok: Tab: the output file"
wait_for "d next write" && wait_for "o calls" && echo "ok: the footer shows this mode's keys"
running "$build/examples/copy" || { echo "FAIL: the program is not stopped under the tracer"; fail=1; }
quit_gone "$build/examples/copy" && echo "ok: q quits, exit 0"

# Two streams: the file's (fd 3) and stderr's (fd 2); Tab to each file shows its stream.
start "'$build/tests/foreign/fwrite' fw"
wait_for "Your program, stopped"
for k in 1 2 3 4 5 6 7; do
	tmux -L "$sock" send-keys -t own n
done
wait_for "step 7/7"
tmux -L "$sock" send-keys -t own Tab
wait_for "file 1/2:" && wait_for "FILE* fd 3" && echo "ok: Tab: the file and its stream (fd 3)"
tmux -L "$sock" send-keys -t own Tab
wait_for "file 2/2:" && wait_for "FILE* fd 2" && echo "ok: Tab: stderr and its stream (fd 2)"
# stderr's pane names no flush of the file's stream (fd 3).
if screen | grep -q "last flush: write(3"; then
	echo "FAIL: stderr's pane shows fd 3's flush:"; screen | sed 's/^/  | /'; fail=1
else
	echo "ok: stderr's pane shows no other stream's flush"
fi
tmux -L "$sock" send-keys -t own q
wait_for "EXITED 0"

# An 8.9 KB fgetc/fputc copy (17,800 stdio calls): on screen at once, d stops at each write
# (fputc x 4097 -> write(5, 4096)), o opens a folded step, q quits at once.
head -c 8900 /dev/urandom >"$tmp/work/big"
start "'$build/tests/foreign/pend' - copy big copied"
t0=$(date +%s%N)
wait_for "Your program, stopped" &&
	echo "ok: the copy is on screen after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
tmux -L "$sock" send-keys -t own d
wait_for "step 7/7" && wait_for "stopped at a write to a file" &&
	wait_for "write(5, 4096) = 4096" && echo "ok: d: the first write, 4096 bytes of fputc"
tmux -L "$sock" send-keys -t own o
wait_for "step 7: 4096 calls" && wait_for "4084 more" && echo "ok: o: the folded calls, each"
tmux -L "$sock" send-keys -t own o d
wait_for "step 9/9" && echo "ok: d: the second write"
tmux -L "$sock" send-keys -t own d
wait_for "exit() flushes fp" && echo "ok: d: exit()'s flush, a step of its own"
tmux -L "$sock" send-keys -t own q
wait_for "EXITED 0" && echo "ok: q quits"
# A program that makes no call for 30 s: n waits for its next step, saying so; q quits at
# once, and the program goes with it.
[ -x "$build/tests/foreign/hostile" ] || { echo "FAIL: tests/foreign/hostile not built"; exit 99; }
# A copy of our own: its path tells our process from those of tests running beside us.
cp "$build/tests/foreign/hostile" "$tmp/hostile" || exit 99
hostile=$(readlink -f "$tmp/hostile")
start "'$hostile' quiet"
wait_for "Your program, stopped"
tmux -L "$sock" send-keys -t own n
wait_for "execve"
tmux -L "$sock" send-keys -t own n
wait_for "waiting for the program's next call on a file" && echo "ok: a long wait says so"
t0=$(date +%s)
quit_gone "$hostile" &&
	echo "ok: q during the wait quits in $(( $(date +%s) - t0 )) s"

# --timeout=3: three steps, 5 s of the user's own (the point is time passing: no condition to
# wait for), the next step still comes: the program was not killed while it waited for a key.
opts=--timeout=3
start "'$build/examples/copy' in out2"
wait_for "Your program, stopped"
tmux -L "$sock" send-keys -t own n n n
wait_for "step 3/3"
sleep 5
tmux -L "$sock" send-keys -t own n
if wait_for "step 4/4" && ! screen | grep -q "SIGKILL"; then
	echo "ok: --timeout counts the program's time, not the 5 s it waited for a key"
fi
tmux -L "$sock" send-keys -t own q
wait_for "EXITED 0"

# d at full speed on a long program: 5000 lseeks on each of two fds alternately (10,000 steps,
# past the history's 4096), then a write: d gets there well within the default --timeout.
opts=
if command -v python3 >/dev/null 2>&1; then
	cat >"$tmp/work/seeks.py" <<'PY'
import os
a = os.open("in", os.O_RDONLY)
b = os.open("big", os.O_RDONLY)
for i in range(5000):
    os.lseek(a, i, 0)
    os.lseek(b, i, 0)
w = os.open("seeks.out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(w, b"x")
PY
	start "python3 -S -B seeks.py"
	wait_for "Your program, stopped"
	t0=$(date +%s)
	tmux -L "$sock" send-keys -t own d
	i=0
	while [ $i -lt 450 ] && ! screen | grep -q "seeks.out"; do
		sleep 0.1
		i=$((i + 1))
	done
	wait_for 'write(' && wait_for "stopped at a write to a file" &&
		echo "ok: d: past 10,000 lseeks to the write in $(( $(date +%s) - t0 )) s"
	tmux -L "$sock" send-keys -t own q
	wait_for "EXITED 0"
else
	echo "SKIP: own-prog-tui-long: python3 not installed (d on a long program)"
fi

if [ -n "$(ls -A "$tmp/t")" ]; then
	echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi
exit $fail
