#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-tui.sh: "iobufviz -- PROGRAM" in a real terminal (a private tmux server): n takes
# steps of examples/copy, Tab switches the file (and the stream with it), q quits (also while
# it waits for a program that makes no call), and neither the program nor a scratch dir is
# left behind.
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
	for i in 1 2 3; do
		tmux -L "iobufviz-own-$$-$i" kill-server >/dev/null 2>&1
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

# Start iobufviz on the program in a 120x40 terminal of a new tmux server; "EXITED n" when
# it ends.
start() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	n=$((n + 1))
	sock=iobufviz-own-$$-$n
	tmux -L "$sock" -f /dev/null new-session -d -s own -x 120 -y 40 \
		"TMPDIR='$tmp/t' '$bin' --dir '$tmp/work' -- $*; echo EXITED \$?; sleep 60"
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
if [ -n "$(ls -A "$tmp/t")" ]; then
	echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi
exit $fail
