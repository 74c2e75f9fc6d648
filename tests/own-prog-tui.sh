#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-tui.sh: "iobufviz -- PROGRAM" in a real terminal (a private tmux server): n takes
# steps of examples/copy, Tab switches the file (and the stream with it), q quits (also while
# it waits for a program that makes no call), and neither the program nor a scratch dir is
# left behind.
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

# Start iobufviz on the program in a 120x40 terminal of a new tmux server; "EXITED n" when
# it ends.
start() {
	tmux_new own 120 40 "TMPDIR='$tmp/t' '$bin' --dir '$tmp/work' -- $*; echo EXITED \$?; sleep 60"
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
tmux_cmd own send-keys -t own o d
wait_sees "step 9/9" && echo "ok: d: the second write"
tmux_cmd own send-keys -t own d
wait_sees "exit() flushes fp" && echo "ok: d: exit()'s flush, a step of its own"
tmux_cmd own send-keys -t own q
wait_sees "EXITED 0" && echo "ok: q quits"
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
if [ -n "$(ls -A "$tmp/t")" ]; then
	echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi
finish
