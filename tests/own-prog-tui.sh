#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-tui.sh: "iobufviz -- PROGRAM" in a real terminal (a private tmux server): n takes
# steps of examples/copy, Tab switches the file (and the stream with it), q quits (also while
# it waits for a program that makes no call), --timeout counts the program's time and not the
# time it waits for a key, d runs a long program at full speed, a folded step says what its
# calls did, the exit shows the file the step before it showed, and neither the program nor a
# scratch dir is left behind.
testname=own-prog-tui
. "$(dirname "$0")/lib.sh"
need tmux

for p in examples/copy tests/foreign/fwrite tests/foreign/pend; do
	[ -x "$build/$p" ] || { echo "FAIL: $build/$p not built"; exit 99; }
done
mkdir "$tmp/work" "$tmp/t"
head -c 5000 /dev/urandom >"$tmp/work/in"

# The screen shows $1 (up to 10 s; else a FAIL line with the screen).
wait_sees() {
	tmux_sees own "$1"
}

# The screen of the session now.
screen() {
	tmux_screen own
}

# Start iobufviz (with the options $opts) on the program in a 200x40 terminal of a new tmux
# server (the programs are built with -g: their source pane takes the columns past 120, the
# panes keep 120); "EXITED n" when it ends.
opts=
start() {
	tmux_new own 200 40 "TMPDIR='$tmp/t' '$bin' $opts --dir '$tmp/work' -- $*; echo EXITED \$?; sleep 60"
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
	tmux_cmd own send-keys -t own q
	wait_sees "EXITED 0" || return 1
	lib_prog=$1
	wait_for '! running "$lib_prog"' 5 || { bad "the program is still running after q"; return 1; }
}

start "'$build/examples/copy' in out"
wait_sees "Your program, stopped before its first call on a file"
# Before the first step there is no file yet: the cache pane says so, not "not observable".
if screen | grep -q "not observable"; then
	bad "before the first step the screen says 'not observable':"; screen | sed 's/^/  | /'
else
	echo "ok: before the first step: no file yet, nothing said 'not observable'"
fi
for k in 1 2 3 4 5; do
	tmux_cmd own send-keys -t own n
done
wait_sees "step 5/5" && echo "ok: five steps"
wait_sees "write(4, 1024) = 1024" && echo "ok: the log shows the write"
tmux_cmd own send-keys -t own Tab
wait_sees "file 1/2: in  |" && echo "ok: Tab: the input file, by its name in --dir"
tmux_cmd own send-keys -t own Tab
wait_sees "file 2/2: out  |" && echo "ok: Tab: the output file"
wait_sees "d next write" && wait_sees "o calls" && echo "ok: the footer shows this mode's keys"
running "$build/examples/copy" || { echo "FAIL: the program is not stopped under the tracer"; fail=1; }
quit_gone "$build/examples/copy" && echo "ok: q quits, exit 0"

# Two streams: the file's (fd 3) and stderr's (fd 2); Tab to each file shows its stream.
start "'$build/tests/foreign/fwrite' fw"
wait_sees "Your program, stopped"
for k in 1 2 3 4 5 6 7; do
	tmux_cmd own send-keys -t own n
done
wait_sees "step 7/7"
tmux_cmd own send-keys -t own Tab
wait_sees "file 1/2:" && wait_sees "FILE* fd 3" && echo "ok: Tab: the file and its stream (fd 3)"
tmux_cmd own send-keys -t own Tab
wait_sees "file 2/2:" && wait_sees "FILE* fd 2" && echo "ok: Tab: stderr and its stream (fd 2)"
# stderr's pane names no flush of the file's stream (fd 3).
if screen | grep -q "last flush: write(3"; then
	bad "stderr's pane shows fd 3's flush:"; screen | sed 's/^/  | /'
else
	echo "ok: stderr's pane shows no other stream's flush"
fi
tmux_cmd own send-keys -t own q
wait_sees "EXITED 0"

# An 8.9 KB fgetc/fputc copy (17,800 stdio calls): on screen at once, d stops at each write
# (fputc x 4097 -> write(5, 4096)), o opens a folded step, q quits at once.
head -c 8900 /dev/urandom >"$tmp/work/big"
start "'$build/tests/foreign/pend' - copy big copied"
t0=$(date +%s%N)
wait_sees "Your program, stopped" &&
	echo "ok: the copy is on screen after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
tmux_cmd own send-keys -t own d
wait_sees "step 7/7" && wait_sees "stopped at a write to a file" &&
	wait_sees "write(5, 4096) = 4096" && echo "ok: d: the first write, 4096 bytes of fputc"
tmux_cmd own send-keys -t own o
wait_sees "step 7: 4096 calls" && wait_sees "4084 more" && echo "ok: o: the folded calls, each"
# Each as the program wrote it (its byte and stream), not as a number: "fputc(0) = 28" was.
screen | grep -qE "fputc\(('.*'|[0-9]+), [a-z]+\) = " && ! screen | grep -qE "fputc\([0-9-]+\) =" &&
	echo "ok: o: each call named as written" ||
	{ bad "o: the calls are not named as written:"; screen | sed 's/^/    | /'; }
tmux_cmd own send-keys -t own o d
wait_sees "step 9/9" && echo "ok: d: the second write"
tmux_cmd own send-keys -t own d
wait_sees "exit() flushes fp" && echo "ok: d: exit()'s flush, a step of its own"
wait_sees "fgetc(fp) x 708: 707 B, then EOF (end of file)" &&
	echo "ok: the log says what the last fgetc calls did: 707 bytes, then EOF"
tmux_cmd own send-keys -t own q
wait_sees "EXITED 0" && echo "ok: q quits"
# A program that writes "kept", then reads and closes "in" (the file it opened last): its
# exit shows "kept", the file the step before it showed, its stream flushed.
start "'$build/tests/foreign/pend' - reread kept in"
wait_sees "Your program, stopped"
for k in 1 2 3 4 5 6 7 8; do
	tmux_cmd own send-keys -t own n
done
wait_sees "step 8/8" && wait_sees "exited 0" && wait_sees "file 1/2: kept  |" &&
	wait_sees "pending 0" && echo "ok: the exit shows the file the step before it showed, flushed"
tmux_cmd own send-keys -t own q
wait_sees "EXITED 0"
# A program that makes no call for 30 s: n waits for its next step, saying so; q quits at
# once, and the program goes with it.
[ -x "$build/tests/foreign/hostile" ] || { echo "FAIL: tests/foreign/hostile not built"; exit 99; }
# A copy of our own: its path tells our process from those of tests running beside us.
cp "$build/tests/foreign/hostile" "$tmp/hostile" || exit 99
hostile=$(readlink -f "$tmp/hostile")
start "'$hostile' quiet"
wait_sees "Your program, stopped"
tmux_cmd own send-keys -t own n
wait_sees "execve"
tmux_cmd own send-keys -t own n
wait_sees "waiting for the program's next call on a file" && echo "ok: a long wait says so"
t0=$(date +%s)
quit_gone "$hostile" &&
	echo "ok: q during the wait quits in $(( $(date +%s) - t0 )) s"

# --timeout=3: three steps, 5 s of the user's own (the point is time passing: no condition to
# wait for), the next step still comes: the program was not killed while it waited for a key.
opts=--timeout=3
start "'$build/examples/copy' in out2"
wait_sees "Your program, stopped"
tmux_cmd own send-keys -t own n n n
wait_sees "step 3/3"
sleep 5
tmux_cmd own send-keys -t own n
if wait_sees "step 4/4" && ! screen | grep -q "SIGKILL"; then
	echo "ok: --timeout counts the program's time, not the 5 s it waited for a key"
else
	bad "--timeout=3 killed the program while it waited 5 s for a key"
fi
tmux_cmd own send-keys -t own q
wait_sees "EXITED 0"

# d at full speed on a long program: 2500 lseeks on each of two fds alternately (5,000 steps,
# past the history's 4096), then a write: d gets there within the default --timeout (the
# sanitizer build traces ~200 steps a second on a busy CI machine). If it has not, the first q
# stops d ("q stops"), the second quits.
opts=
if command -v python3 >/dev/null 2>&1; then
	cat >"$tmp/work/seeks.py" <<'PY'
import os
a = os.open("in", os.O_RDONLY)
b = os.open("big", os.O_RDONLY)
for i in range(2500):
    os.lseek(a, i, 0)
    os.lseek(b, i, 0)
w = os.open("seeks.out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(w, b"x")
PY
	start "python3 -S -B seeks.py"
	wait_sees "Your program, stopped"
	t0=$(date +%s)
	tmux_cmd own send-keys -t own d
	if tmux_sees own "stopped at a write to a file" 90; then
		echo "ok: d: past 5,000 lseeks to the write in $(( $(date +%s) - t0 )) s"
	else
		tmux_cmd own send-keys -t own q
		tmux_sees own "stopped (q)" 10
	fi
	tmux_cmd own send-keys -t own q
	wait_sees "EXITED 0"
else
	skip_part long "python3 not installed (d on a long program)"
fi

if [ -n "$(ls -A "$tmp/t")" ]; then
	echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi
finish
