#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-program.sh: the program pane in a real terminal (tmux): from 120 columns it is on
# screen beside the panes with the current step's line marked; at 80x24 it is hidden until
# `c` shows it; `p` moves the mark back; q leaves nothing behind.
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tui-program: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
src=${IOBUFVIZ_SRCDIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-program.XXXXXX") || exit 99
sock=$tmp/tmux.sock
fail=0
trap 'tmux -S "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
bad() { echo "FAIL: $*"; fail=1; }

# The screen now.
screen() { tmux -S "$sock" capture-pane -p -t prog 2>/dev/null; }

# Wait (at most 10 s) until the screen shows the fixed string $1; 0 if it did.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Start the 13-3 lesson at $1 x $2.
start() {
	mkdir -p "$tmp/d"
	tmux -S "$sock" -f /dev/null new-session -d -s prog -x "$1" -y "$2" \
		"env TERM=xterm-256color LANG=C.UTF-8 '$bin' --dir '$tmp/d' \
		'$src/scenarios/13-3-fflush-fsync.yaml'; sleep 30"
	wait_for "step 0/" || wait_for "n/" || bad "$1x$2: no screen"
}

# At 120x40: the pane is there; after two steps the fwrite line carries the mark.
start 120 40
tmux -S "$sock" send-keys -t prog n
wait_for "step 1/" || bad "120x40: step 1 not reached"
tmux -S "$sock" send-keys -t prog n
wait_for "step 2/" || bad "120x40: step 2 not reached"
screen >"$tmp/wide.txt"
grep -q "program: step 2" "$tmp/wide.txt" || bad "120x40: no program pane: $(head -3 "$tmp/wide.txt")"
grep -q '[0-9]>  *if (fwrite(wbuf, 1, 5000, fp)' "$tmp/wide.txt" ||
	bad "120x40: the fwrite line is not marked"
tmux -S "$sock" send-keys -t prog p
wait_for "program: step 1" || bad "120x40: p did not move the mark back"
screen | grep -q '[0-9]>  *fp = fopen(path, "w");' || bad "120x40: p: the fopen line is not marked"
tmux -S "$sock" send-keys -t prog q
sleep 0.5
tmux -S "$sock" kill-server >/dev/null 2>&1

# At 80x24: hidden until c, then shown; c again hides it.
start 80 24
tmux -S "$sock" send-keys -t prog n
wait_for "step 1/" || bad "80x24: step 1 not reached"
screen | grep -q "program: step" && bad "80x24: the pane is shown before c"
tmux -S "$sock" send-keys -t prog c
wait_for "program: step 1" || bad "80x24: c did not show the pane"
screen | grep -q '[0-9]>  *fp = fopen(path, "w");' || bad "80x24: the fopen line is not marked"
tmux -S "$sock" send-keys -t prog c
sleep 0.5
screen | grep -q "program: step" && bad "80x24: c did not hide the pane"
tmux -S "$sock" send-keys -t prog q
sleep 0.5
[ -z "$(ls -A "$tmp/d")" ] || bad "left $(ls -A "$tmp/d")"
[ $fail = 0 ] && echo "ok: program pane at 120x40 and 80x24"
exit $fail
