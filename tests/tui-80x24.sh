#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-80x24.sh: an 80x24 terminal hides nothing that matters: 13.5's log keeps each
# fadvise's advice (the middle of a long call is cut, not its point), 13-4's cut narration
# and its terminal run's calls are whole under Shift-Tab, and crash-13-3's expectations that
# could not be observed give their whole reason there (the expected pane says "more").
testname=tui-80x24
. "$(dirname "$0")/lib.sh"
need tmux

# Start lesson $2 in session $1 at 80x24 and wait for its first screen.
start() {
	mkdir -p "$tmp/$1" || exit 99
	tmux_new "$1" 80 24 \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/$1' '$src/scenarios/$2.yaml'; sleep 60" ||
		{ echo "FAIL: tmux"; exit 99; }
	tmux_sees "$1" "step 0/" 20
}

# Step session $1 on to step $2 of $3 and wait until its screen settles.
step_to() {
	tmux_cmd "$1" send-keys -t "$1" n
	tmux_sees "$1" "step $2/$3" 30 || return 1
	wait_for "tmux_settled '$1'" 30 || { echo "FAIL: $1: step $2: the screen never settles"; fail=1; }
}

# The screen of session $1 shows the fixed string $2 (else report $3).
shows() {
	if tmux_screen "$1" | grep -qF -- "$2"; then
		echo "ok: $1: $3"
	else
		echo "FAIL: $1: $3: no '$2' on the screen:"
		tmux_screen "$1" | sed 's/^/    | /'
		fail=1
	fi
}

# 13.5: steps 6 and 7 are fadvise64(3, @0, len=0, ADVICE): the advice stays in the log.
start s135 13.5-fadvise
n=$(grep -c '^  - ' "$src/scenarios/13.5-fadvise.yaml")
k=1
while [ $k -le 7 ]; do
	step_to s135 $k "$n" || break
	k=$((k + 1))
done
shows s135 "DONTNEED) = 0" "13.5: fadvise's DONTNEED kept in a cut log line"
shows s135 "SEQUENTIAL) = 0" "13.5: fadvise's SEQUENTIAL kept in a cut log line"
tmux_cmd s135 send-keys -t s135 q

# 13-4: step 2's narration ends in the point of the lesson; Shift-Tab shows it whole, and
# the calls of the terminal run.
start s134 13-4-pty
step_to s134 1 3 && step_to s134 2 3
tmux_cmd s134 send-keys -t s134 BTab
tmux_sees s134 "judicious" 10 && echo "ok: 13-4: the narration's point under Shift-Tab"
shows s134 "terminal: write(1, 21) = 21" "13-4: the terminal run's calls under Shift-Tab"
tmux_cmd s134 send-keys -t s134 Escape
step_to s134 3 3
tmux_cmd s134 send-keys -t s134 q

# crash-13-3 (as root, in its crash lab; else the power cut is not observable, with why): its
# crash steps' expectations are on the screen, and every one shown "?" (a power cut the lab
# could not pin on the lesson, or no lab) has its whole reason under Shift-Tab.
# The popup's rows joined: the expectation, its whole reason (up to its closing parenthesis),
# then the step's own line after it: nothing cut in between.
reason_whole() {
	tmux_screen c133 | LC_ALL=C.UTF-8 sed -n 's/^.\{0,3\}│ \(.*[^ │]\) *│.\{0,3\}$/\1/p' |
		tr '\n' ' ' |
		grep -q '? crash\.[a-z.]* = [a-z0-9]* (not observable here: .*) *step [0-9]* ('
}
start c133 crash-13-3
n=$(grep -c '^  - ' "$src/scenarios/crash-13-3.yaml")
k=1
seen=0
crashes=0
while [ $k -le "$n" ]; do
	step_to c133 $k "$n" || break
	# A crash step: its power cut expectation held (in full on the screen), or not.
	tmux_screen c133 | grep -q '^│ [?✓] crash\.' && crashes=$((crashes + 1))
	if tmux_screen c133 | grep -q '^│ ? '; then
		seen=$((seen + 1))
		shows c133 "more: Shift-Tab" "crash-13-3: step $k: the expected pane says where the rest is"
		tmux_cmd c133 send-keys -t c133 BTab
		tmux_sees c133 "┌ details" 10
		# Waited for with a deadline: the title is drawn before the popup's last rows.
		wait_for reason_whole 10 ||
			{ echo "FAIL: crash-13-3: step $k: no whole reason under Shift-Tab:"
			  tmux_screen c133 | sed 's/^/    | /'; fail=1; }
		tmux_cmd c133 send-keys -t c133 Escape
		# The popup's title, not the key bar's "Tab details".
		wait_for "! tmux_screen c133 | grep -qF '┌ details'" 10 ||
			{ echo "FAIL: crash-13-3: step $k: Escape left the details popup"; fail=1; }
	fi
	k=$((k + 1))
done
if [ $crashes -eq 0 ]; then
	echo "FAIL: crash-13-3: no crash step's expectations on an 80x24 screen"
	fail=1
else
	echo "ok: crash-13-3: $crashes crash steps' expectations shown, $seen with a reason read" \
		"under Shift-Tab (the others held)"
fi
tmux_cmd c133 send-keys -t c133 q
finish
