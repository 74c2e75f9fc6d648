#!/bin/sh
# SPDX-License-Identifier: MIT
# tui-smoke.sh: the TUI in a real terminal (a private tmux server): panes, a step, help,
# resize, a recording, and q leaving the terminal and no scratch file behind.
set -u

command -v tmux >/dev/null 2>&1 || { echo "SKIP: no tmux"; exit 77; }
bin=${IOBUFVIZ_BIN:-src/iobufviz}
srcdir=${IOBUFVIZ_SRCDIR:-.}
scn=$srcdir/tests/tui-smoke.yaml
[ -x "$bin" ] || { echo "SKIP: $bin not built"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-smoke.XXXXXX") || exit 99
sock=iobufviz-test-$$
fail=0

cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Screen contents now.
screen() {
	tmux -L "$sock" capture-pane -p -t smoke 2>/dev/null
}

# Wait until the screen shows $1 (a fixed string), up to 10 s.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		if screen | grep -F -q -- "$1"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Check that the screen shows $1; report $2 if not.
expect() {
	if wait_for "$1"; then
		echo "ok: $2"
	else
		echo "FAIL: $2 (no '$1' on the screen)"
		screen | sed 's/^/    | /'
		fail=1
	fi
}

mkdir "$tmp/dir" || exit 99
tmux -L "$sock" -f /dev/null new-session -d -s smoke -x 100 -y 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' --record '$tmp/rec.cast' '$scn'; \
	 echo \$? > '$tmp/status'; sleep 60" || { echo "FAIL: tmux"; exit 99; }

expect "stdio buffer" "stdio pane title"
expect "page cache" "page cache pane title"
expect "disk" "disk pane title"
expect "step 0/5" "step counter"
[ -n "$(ls "$tmp/dir")" ] && echo "ok: scratch dir made under --dir" ||
	{ echo "FAIL: no scratch dir under --dir"; fail=1; }

tmux -L "$sock" send-keys -t smoke n
expect "step 1/5" "n runs the first step"
tmux -L "$sock" send-keys -t smoke n
expect "write(" "the log shows the write() stdio made"
expect "pending 904" "the stdio pane shows the 904 pending bytes"

tmux -L "$sock" send-keys -t smoke '?'
expect "q F10" "? shows the help"
tmux -L "$sock" send-keys -t smoke Escape
sleep 0.3

tmux -L "$sock" resize-window -t smoke -x 80 -y 24
sleep 0.5
expect "step 2/5" "80x24: still at step 2"
expect "write(" "80x24: the log is still there"
expect "├ page cache" "80x24: panes stacked"
tmux -L "$sock" resize-window -t smoke -x 60 -y 20
expect "too small" "60x20: says the terminal is too small"
tmux -L "$sock" resize-window -t smoke -x 160 -y 45
expect "step 2/5" "160x45: back, same step"

tmux -L "$sock" send-keys -t smoke p
expect "REPLAY" "p shows the recorded snapshot, marked replay"
tmux -L "$sock" send-keys -t smoke n n
expect "step 3/5" "n replays forward, then runs the next step"

tmux -L "$sock" send-keys -t smoke q
i=0
while [ ! -s "$tmp/status" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
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
tmux -L "$sock" new-session -d -s term -x 100 -y 30 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --dir '$tmp/dir' '$scn'; \
	 echo \$? > '$tmp/status'; echo after-the-tui; sleep 60" || { echo "FAIL: tmux"; exit 99; }
i=0
until tmux -L "$sock" capture-pane -p -t term | grep -q "stdio buffer" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
shell=$(tmux -L "$sock" list-panes -t term -F '#{pane_pid}')
tui=$(pgrep -P "$shell" -x iobufviz || pgrep -P "$shell" | head -n 1)
[ -n "$tui" ] && kill -TERM "$tui"
i=0
while [ ! -s "$tmp/status" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
status=$(cat "$tmp/status" 2>/dev/null)
if [ "$status" = 143 ] && tmux -L "$sock" capture-pane -p -t term | grep -q after-the-tui &&
   ! tmux -L "$sock" capture-pane -p -t term | grep -q "stdio buffer"; then
	echo "ok: SIGTERM gives the terminal back and ends with the signal"
else
	echo "FAIL: after SIGTERM: status '$status'"
	tmux -L "$sock" capture-pane -p -t term | sed 's/^/    | /'
	fail=1
fi
if [ -z "$(ls -A "$tmp/dir")" ]; then
	echo "ok: SIGTERM removed the scratch dir"
else
	echo "FAIL: SIGTERM left behind: $(ls -A "$tmp/dir")"
	fail=1
fi

# The recording: a JSON header, then [time, "o", text] events; every line valid JSON.
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
    assert ev[1] in ("o", "r") and isinstance(ev[2], str)
    assert ev[0] >= last
    last = ev[0]
    frames += ev[1] == "o"
assert frames >= 5, frames
assert any("write(" in json.loads(l)[2] for l in lines[1:])
PY
	then
		echo "ok: the recording is valid asciicast v2"
	else
		echo "FAIL: the recording is not valid asciicast v2"
		fail=1
	fi
fi
exit $fail
