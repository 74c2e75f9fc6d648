#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-program.sh: the program pane in a real terminal (tmux): from 120 columns it is on
# screen beside the panes with the current step's line marked; at 80x24 it is hidden until
# `c` shows it; `p` moves the mark back; q leaves nothing behind.
testname=tui-program
. "$(dirname "$0")/lib.sh"
need tmux

# The screen now.
screen() { tmux_screen prog; }

# Wait (at most 10 s) until the screen shows the fixed string $1; 0 if it did (quietly: the
# caller says what failed).
shows() {
	lib_want=$1
	wait_for 'screen | grep -qF -- "$lib_want"'
}

# Start the 13-3 lesson at $1 x $2, on a tmux server of its own; "EXITED" when it ends.
start() {
	mkdir -p "$tmp/d"
	tmux_new prog "$1" "$2" "env TERM=xterm-256color LANG=C.UTF-8 '$bin' --dir '$tmp/d' \
		'$src/scenarios/13-3-fflush-fsync.yaml'; echo EXITED; sleep 30"
	shows "step 0/" || bad "$1x$2: no screen"
}

# At 120x40: the pane is there; after two steps the fwrite line carries the mark.
start 120 40
tmux_cmd prog send-keys -t prog n
shows "step 1/" || bad "120x40: step 1 not reached"
tmux_cmd prog send-keys -t prog n
shows "step 2/" || bad "120x40: step 2 not reached"
screen >"$tmp/wide.txt"
grep -q "program: step 2" "$tmp/wide.txt" || bad "120x40: no program pane: $(head -3 "$tmp/wide.txt")"
grep -q '[0-9]>  *if (fwrite(wbuf, 1, 5000, fp)' "$tmp/wide.txt" ||
	bad "120x40: the fwrite line is not marked"
tmux_cmd prog send-keys -t prog p
shows "program: step 1" || bad "120x40: p did not move the mark back"
screen | grep -q '[0-9]>  *fp = fopen(path, "w");' || bad "120x40: p: the fopen line is not marked"
tmux_cmd prog send-keys -t prog q
shows "EXITED" || bad "120x40: q did not end it"

# At 80x24: hidden until c, then shown; c again hides it. (A new server, on a new socket.)
start 80 24
tmux_cmd prog send-keys -t prog n
shows "step 1/" || bad "80x24: step 1 not reached"
screen | grep -q "program: step" && bad "80x24: the pane is shown before c"
tmux_cmd prog send-keys -t prog c
shows "program: step 1" || bad "80x24: c did not show the pane"
screen | grep -q '[0-9]>  *fp = fopen(path, "w");' || bad "80x24: the fopen line is not marked"
tmux_cmd prog send-keys -t prog c
wait_for '! screen | grep -q "program: step"' || bad "80x24: c did not hide the pane"
tmux_cmd prog send-keys -t prog q
shows "EXITED" || bad "80x24: q did not end it"
[ -z "$(ls -A "$tmp/d")" ] || bad "left $(ls -A "$tmp/d")"
finish
