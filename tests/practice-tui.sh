#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/practice-tui.sh: --practice in a real terminal (a private tmux server): a choice
# question is asked with its letters, a letter is scored against the run, the score is shown;
# the quiz box shows the next line as the listing does, valid C (a newline as \n).
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: practice-tui: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/practice-tui.XXXXXX") || exit 99
sock=iobufviz-practice-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM

# Wait up to 10 s for the screen (of session $ses, p unless set) to show the fixed string
# $1; fail with $2 if it never does.
see() {
	for _ in $(seq 100); do
		tmux -L "$sock" capture-pane -p -t "${ses:-p}" >"$tmp/screen" 2>/dev/null
		grep -F -q -- "$1" "$tmp/screen" && { echo "ok: $2"; return 0; }
		sleep 0.1
	done
	echo "FAIL: $2 (no '$1' on the screen)"
	sed 's/^/    | /' "$tmp/screen"
	exit 1
}

tmux -L "$sock" -f /dev/null new-session -d -s p -x 120 -y 40 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --practice direct --seed 7 --dir '$tmp'; sleep 30"
see "Practice: direct, seed 7" "the problem's title"
tmux -L "$sock" send-keys -t p n
see "step 1/7" "the open(), which has no question, runs at once"
tmux -L "$sock" send-keys -t p n
see "a) succeeds" "the first transfer's question has its choices"
see "b) fails with EINVAL" "both of them"
tmux -L "$sock" send-keys -t p 7 b
see "your guess: b_" "a letter is the answer, a digit is not"
tmux -L "$sock" send-keys -t p Enter
see "you said b; observed" "the letter is scored against the run"
tmux -L "$sock" send-keys -t p q
see "predictions right" "the score is printed when the screen is given back"
grep -q "^quiz: [01] of 1 predictions right" "$tmp/screen" ||
	{ echo "FAIL: the score line:"; grep quiz "$tmp/screen"; exit 1; }

# A stdio problem: the quiz box's line is C, its newline escaped, the buffers named apart.
ses=s
tmux -L "$sock" -f /dev/null new-session -d -s s -x 120 -y 40 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --practice stdio --seed 3 --dir '$tmp'; sleep 30"
see "Practice: stdio, seed 3" "the stdio problem's title"
tmux -L "$sock" send-keys -t s n
see "step 1/7" "fopen runs"
tmux -L "$sock" send-keys -t s n
see "setvbuf(fp, sbuf, _IOFBF, 3000)" "the stream's buffer is sbuf on the screen too"
tmux -L "$sock" send-keys -t s n
see 'Next: step 3, fputs("wkajidwcyp\n", fp)' "the quiz box's line is C: the newline escaped"
tmux -L "$sock" send-keys -t s Escape q
