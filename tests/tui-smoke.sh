#!/bin/sh
# SPDX-License-Identifier: MIT
# tui-smoke.sh: the TUI in a real terminal (a private tmux server): panes, a step, help,
# resize, a recording, and q leaving the terminal and no scratch file behind.
testname=tui-smoke
. "$(dirname "$0")/lib.sh"
need tmux

scn=$src/tests/tui-smoke.yaml

# Screen contents now.
screen() {
	tmux_screen smoke
}

# Check that the screen stops showing $1 (within 10 s); report $2 if not.
gone() {
	lib_gone=$1
	if ! wait_for '! screen | grep -F -q -- "$lib_gone"'; then
		echo "FAIL: $2 ('$1' still on the screen)"
		fail=1
	else
		echo "ok: $2"
	fi
}

# Check that the screen shows $1; report $2 if not.
expect() {
	expect_in smoke "$1" "$2"
}

# Wait until session $1 shows $2 (fixed string); report $3.
expect_in() {
	if tmux_sees "$1" "$2"; then
		echo "ok: $3"
	else
		echo "FAIL: $3"
		return 1
	fi
}

mkdir "$tmp/dir" || exit 99
tmux_new smoke 100 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' --record '$tmp/rec.cast' '$scn'; \
	 echo \$? > '$tmp/status'; sleep 60" || { echo "FAIL: tmux"; exit 99; }

expect "stdio buffer" "stdio pane title"
expect "page cache" "page cache pane title"
expect "disk" "disk pane title"
expect "step 0/5" "step counter"
[ -n "$(ls "$tmp/dir")" ] && echo "ok: scratch dir made under --dir" ||
	{ echo "FAIL: no scratch dir under --dir"; fail=1; }

tmux_cmd smoke send-keys -t smoke n
expect "step 1/5" "n runs the first step"
tmux_cmd smoke send-keys -t smoke n
expect "write(" "the log shows the write() stdio made"
expect "pending 904" "the stdio pane shows the 904 pending bytes"

tmux_cmd smoke send-keys -t smoke '?'
expect "q F10" "? shows the help"
tmux_cmd smoke send-keys -t smoke Escape
gone "q F10" "Esc closes the help"

tmux_cmd smoke resize-window -t smoke -x 80 -y 24
expect "├ page cache" "80x24: panes stacked"
expect "step 2/5" "80x24: still at step 2"
expect "write(" "80x24: the log is still there"
tmux_cmd smoke resize-window -t smoke -x 60 -y 20
expect "too small" "60x20: says the terminal is too small"
tmux_cmd smoke resize-window -t smoke -x 160 -y 45
expect "step 2/5" "160x45: back, same step"

tmux_cmd smoke send-keys -t smoke p
expect "REPLAY" "p shows the recorded snapshot, marked replay"
tmux_cmd smoke send-keys -t smoke n n
expect "step 3/5" "n replays forward, then runs the next step"

tmux_cmd smoke send-keys -t smoke Tab
expect "__fbufsize 4096" "Tab: the stdio pane's details"
tmux_cmd smoke send-keys -t smoke Escape z C-l
gone "__fbufsize" "Esc closes the details"
expect "step 3/5" "a key of no meaning and Ctrl-L (repaint) leave the step alone"
tmux_cmd smoke send-keys -t smoke BTab
expect "op took" "Shift-Tab: the log's details (the step and its calls)"
tmux_cmd smoke send-keys -t smoke Escape
gone "op took" "Esc closes them"

# r: a new runner, a new scratch dir (the old one removed), back to step 0.
old=$(ls "$tmp/dir")
tmux_cmd smoke send-keys -t smoke r
expect "restarted with a new scratch file" "r restarts"
expect "step 0/5" "r: back to step 0"
new=$(ls "$tmp/dir")
if [ -n "$new" ] && [ "$new" != "$old" ] && [ "$(ls "$tmp/dir" | wc -l)" -eq 1 ]; then
	echo "ok: r: one new scratch dir, the old one gone"
else
	echo "FAIL: r: scratch dirs before '$old', after '$new'"
	fail=1
fi

# a at 4x: autoplay runs every step to the end.
tmux_cmd smoke send-keys -t smoke + + a
wait_for 'screen | grep -q "end of scenario"' 15
expect "end of scenario: every expectation held" "a: autoplay to the end, expectations held"
expect "step 5/5" "a: all five steps ran"

tmux_cmd smoke send-keys -t smoke q
wait_for '[ -s "$tmp/status" ]'
status=$(cat "$tmp/status" 2>/dev/null)
if [ "$status" = 0 ]; then
	echo "ok: q exits with status 0"
else
	echo "FAIL: exit status '$status' after q"
	fail=1
fi
if [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: the scratch dir is gone"
else
	echo "FAIL: left behind: $(ls -A "$tmp/dir")"
	fail=1
fi

# SIGTERM: the terminal is given back (the shell's line shows again), the scratch dir goes.
rm -f "$tmp/status"
tmux_new term 100 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' '$scn'; \
	 echo \$? > '$tmp/status'; echo after-the-tui; sleep 60" || { echo "FAIL: tmux"; exit 99; }
tmux_sees term "stdio buffer"
shell=$(tmux_cmd term list-panes -t term -F '#{pane_pid}')
# The TUI is the shell's child: find it through /proc (no pgrep needed).
tui=$(grep -l "^PPid:[[:space:]]*$shell\$" /proc/[0-9]*/status 2>/dev/null | head -n 1 | cut -d/ -f3)
[ -n "$tui" ] && kill -TERM "$tui"
wait_for '[ -s "$tmp/status" ] && tmux_screen term | grep -q after-the-tui'
status=$(cat "$tmp/status" 2>/dev/null)
if [ "$status" = 143 ] && tmux_screen term | grep -q after-the-tui &&
   ! tmux_screen term | grep -q "stdio buffer"; then
	echo "ok: SIGTERM gives the terminal back and ends with the signal"
else
	echo "FAIL: after SIGTERM: status '$status'"
	tmux_screen term | sed 's/^/    | /'
	fail=1
fi
if [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: SIGTERM removed the scratch dir"
else
	echo "FAIL: SIGTERM left behind: $(ls -A "$tmp/dir")"
	fail=1
fi

# Start session $1 running iobufviz with options $2 (the scenario is added).
start() {
	tmux_new "$1" 100 30 \
		"LC_ALL=C.UTF-8 TERM=screen ${3-} '$bin' --dir '$tmp/dir' $2 '$scn'; \
		 echo \$? > '$tmp/status.$1'; sleep 60" || { echo "FAIL: tmux"; exit 99; }
}

# --quiz: the question before a step with expectations, the answer scored, a final score.
start quiz --quiz
expect_in quiz "stdio buffer" "quiz: started"
tmux_cmd quiz send-keys -t quiz n
expect_in quiz "step 1/5" "quiz: a step without expectations runs at once"
tmux_cmd quiz send-keys -t quiz n
expect_in quiz "How many write() calls" "quiz: asks for the number of write() calls"
tmux_cmd quiz send-keys -t quiz 1 Enter
expect_in quiz "observed 1" "quiz: the answer is compared with what was observed"
expect_in quiz "score 1/1" "quiz: scored"
tmux_cmd quiz send-keys -t quiz q
expect_in quiz "quiz: 1 of 1 predictions right" "quiz: the score is printed at the end"

# A mouse click (X10 encoding, as TERM=screen says) on the first cache cell shows its pages.
start mouse ""
expect_in mouse "stdio buffer" "mouse: started"
tmux_cmd mouse send-keys -t mouse n n
expect_in mouse "pending 904" "mouse: a step ran"
wait_for 'tmux_settled mouse'  # the animation is over
# 100x30: the cache grid's first cell is at column 35, row 5 (0-based): bytes 32+0, 33+35, 33+5.
tmux_cmd mouse send-keys -t mouse -l "$(printf '\033[M D&')"
tmux_cmd mouse send-keys -t mouse -l "$(printf '\033[M#D&')"
expect_in mouse "cell 0: pages 0-0" "mouse: a click on a cell shows its page range and state"
tmux_cmd mouse send-keys -t mouse q

# --trace=procio: no tracer, counts only, and the log says so.
start procio --trace=procio
expect_in procio "stdio buffer" "procio: started"
tmux_cmd procio send-keys -t procio n n
expect_in procio "(counts only)" "procio: the log shows counts, not invented calls"
tmux_cmd procio send-keys -t procio q

# --ascii with NO_COLOR: pure ASCII, no colour escapes, every state still drawn.
start plain --ascii NO_COLOR=1
expect_in plain "stdio buffer" "ascii: started"
tmux_cmd plain send-keys -t plain n n
expect_in plain "pending 904" "ascii: a step ran"
if tmux_screen plain | LC_ALL=C grep -q '[^ -~]'; then
	echo "FAIL: --ascii screen has non-ASCII bytes"
	tmux_screen plain | LC_ALL=C grep '[^ -~]' | sed 's/^/    | /'
	fail=1
else
	echo "ok: --ascii: the screen is pure ASCII"
fi
if tmux_cmd plain capture-pane -e -p -t plain | grep -q "$(printf '\033')\[\([0-9;]*;\)\?3[0-7]m"; then
	echo "FAIL: NO_COLOR: colour escapes on the screen"
	fail=1
else
	echo "ok: NO_COLOR: no colours"
fi
tmux_cmd plain send-keys -t plain q
wait_for '[ -s "$tmp/status.plain" ] && [ -s "$tmp/status.procio" ] &&
          [ -s "$tmp/status.quiz" ] && [ -s "$tmp/status.mouse" ]' ||
	bad "not every session ended after q"
if [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: no scratch dir left by any session"
else
	echo "FAIL: left behind: $(ls -A "$tmp/dir")"
	fail=1
fi

# A sweep at 80x24: its table and chart are longer than the box, which scrolls (End: the
# last lines, the border says which); Shift-Tab shows the step's whole narration.
tmux_new sweep 80 24 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' --budget=0.1 \
	 '$src/tests/sweep-tiny.yaml'; echo \$? > '$tmp/status.sweep'; sleep 60" ||
	{ echo "FAIL: tmux"; exit 99; }
expect_in sweep "step 0/1" "sweep: started"
tmux_cmd sweep send-keys -t sweep n
wait_for 'tmux_screen sweep | grep -q "end of scenario"' 30
if expect_in sweep " lines 1-" "sweep: the box says it holds more lines than it shows"; then
	range=$(tmux_screen sweep | sed -n 's/.* lines 1-\([0-9]*\) of \([0-9]*\) .*/\1 \2/p')
	rows=${range% *}
	total=${range#* }
	tmux_cmd sweep send-keys -t sweep End
	expect_in sweep " lines $((total - rows + 1))-$total of $total " "sweep: End scrolls to the last lines"
	tmux_cmd sweep send-keys -t sweep Home
	expect_in sweep " lines 1-$rows of $total " "sweep: Home scrolls back"
fi
tmux_cmd sweep send-keys -t sweep BTab
expect_in sweep "step 1 (sweep)" "Shift-Tab: the step's whole narration and calls"
tmux_cmd sweep send-keys -t sweep Escape q
wait_for '[ -s "$tmp/status.sweep" ]'
if [ "$(cat "$tmp/status.sweep" 2>/dev/null)" = 0 ] && [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: sweep: q exits 0, no scratch dir left"
else
	echo "FAIL: sweep: status '$(cat "$tmp/status.sweep" 2>/dev/null)', left: $(ls -A "$tmp/dir")"
	fail=1
fi

# The recording: a JSON header, then [time, "o", text] events and a [time, "m", "step N/M:
# call"] marker per step run; every line valid JSON.
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$tmp/rec.cast" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = json.loads(lines[0])
assert head["version"] == 2 and head["width"] == 100 and head["height"] == 30, head
assert "title" in head and "timestamp" in head
last = 0.0
frames = 0
for l in lines[1:]:
    ev = json.loads(l)
    assert isinstance(ev, list) and len(ev) == 3, ev
    assert ev[1] in ("o", "r", "m") and isinstance(ev[2], str)
    assert ev[0] >= last
    last = ev[0]
    frames += ev[1] == "o"
assert frames >= 5, frames
assert any("write(" in json.loads(l)[2] for l in lines[1:])
# A marker per step run, each named by its step ("step 2/5: fwrite(...)"): in order, from 1
# again after r restarts, up to the last.
marks = [json.loads(l)[2] for l in lines[1:] if json.loads(l)[1] == "m"]
nums = [int(m.split("/")[0][5:]) for m in marks]
assert len(marks) >= 5 and all(m.startswith("step %d/5: " % k) for m, k in zip(marks, nums)), marks
assert nums[0] == 1 and all(b in (a + 1, 1) for a, b in zip(nums, nums[1:])), marks
assert nums[-1] == 5 and "fwrite" in marks[1], marks
PY
	then
		echo "ok: the recording is valid asciicast v2"
	else
		echo "FAIL: the recording is not valid asciicast v2"
		fail=1
	fi
else
	skip_part "the recording" "python3 not installed"
fi

# --record into a directory that does not exist: said before the screen is taken, exit 2,
# nothing run (issue 20.6: it ran, exited 0 and recorded nothing).
tmux_new norec 100 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' --record '$tmp/nonexist/x.cast' '$scn' \
	 2>'$tmp/norec.err'; echo \$? > '$tmp/status.norec'; sleep 60" || { echo "FAIL: tmux"; exit 99; }
wait_for '[ -s "$tmp/status.norec" ]'
if [ "$(cat "$tmp/status.norec" 2>/dev/null)" = 2 ] &&
   grep -qF -- "--record: cannot create $tmp/nonexist/x.cast: No such file or directory" "$tmp/norec.err" &&
   [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: --record into a missing directory: exit 2, said on stderr"
else
	echo "FAIL: --record into a missing directory: status '$(cat "$tmp/status.norec" 2>/dev/null)', stderr '$(cat "$tmp/norec.err" 2>/dev/null)'"
	fail=1
fi
finish
