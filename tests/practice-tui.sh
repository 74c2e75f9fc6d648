#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/practice-tui.sh: --practice in a real terminal (a private tmux server): a choice
# question is asked with its letters, a letter is scored against the run, the score is shown;
# the quiz box shows the next line as the listing does, valid C (a newline as \n).
testname=practice-tui
. "$(dirname "$0")/lib.sh"
need tmux

# Wait up to 10 s for the screen (of session $ses, p unless set) to show the fixed string
# $1; fail with $2 if it never does.
see() {
	tmux_sees "${ses:-p}" "$1" || { echo "FAIL: $2"; exit 1; }
	echo "ok: $2"
}

tmux_new p 120 40 "LC_ALL=C.UTF-8 TERM=screen '$bin' --practice direct --seed 7 --dir '$tmp'; sleep 30"
see "Practice: direct, seed 7" "the problem's title"
tmux_cmd p send-keys -t p n
see "step 1/7" "the open(), which has no question, runs at once"
tmux_cmd p send-keys -t p n
see "a) succeeds" "the first transfer's question has its choices"
see "b) fails with EINVAL" "both of them"
tmux_cmd p send-keys -t p 7 b
see "your guess: b_" "a letter is the answer, a digit is not"
tmux_cmd p send-keys -t p Enter
see "you said b; observed" "the letter is scored against the run"
tmux_cmd p send-keys -t p q
see "predictions right" "the score is printed when the screen is given back"
tmux_screen p >"$tmp/screen"
grep -q "^quiz: [01] of 1 predictions right" "$tmp/screen" ||
	bad "the score line: $(grep quiz "$tmp/screen")"

# A stdio problem: the quiz box's line is C, its newline escaped, the buffers named apart.
ses=s
tmux_new s 120 40 "LC_ALL=C.UTF-8 TERM=screen '$bin' --practice stdio --seed 3 --dir '$tmp'; sleep 30"
see "Practice: stdio, seed 3" "the stdio problem's title"
tmux_cmd s send-keys -t s n
see "step 1/7" "fopen runs"
tmux_cmd s send-keys -t s n
see "setvbuf(fp, sbuf, _IOFBF, 3000)" "the stream's buffer is sbuf on the screen too"
tmux_cmd s send-keys -t s n
see 'Next: step 3, fputs("wkajidwcyp\n", fp)' "the quiz box's line is C: the newline escaped"
tmux_cmd s send-keys -t s Escape q
finish
