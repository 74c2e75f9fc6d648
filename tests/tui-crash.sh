#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-crash.sh: x in a real terminal (a private tmux server): on the newest step of 13-3
# it shows what a crash leaves now (kill -9 keeps the 4096 bytes write() gave the kernel after
# fwrite); x again closes it; back on a step never crashed it says a crash shows the present
# only, and back on the one crashed it shows the view recorded with it. With a crash lab (root:
# --crash-fs=ext4) the power cut is shown and the disk pane has the device line; else the
# power cut says why it is not observable. q leaves no scratch dir.
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tui-crash: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
src=${IOBUFVIZ_SRCDIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-crash.XXXXXX") || exit 99
sock=iobufviz-crash-$$
fail=0
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM

screen() { tmux -L "$sock" capture-pane -p -t crash 2>/dev/null; }

# Wait (up to 10 s) until the screen shows $1; report $2.
expect() {
	i=0
	while ! screen | grep -F -q -- "$1"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "FAIL: tui-crash: $2 (no '$1')"; screen | sed 's/^/    | /'; fail=1; return 1; }
		sleep 0.1
	done
	echo "ok: tui-crash: $2"
}

# Wait (up to 10 s) until the screen no longer shows $1; report $2.
gone() {
	i=0
	while screen | grep -F -q -- "$1"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "FAIL: tui-crash: $2 ('$1' still shown)"; fail=1; return 1; }
		sleep 0.1
	done
	echo "ok: tui-crash: $2"
}

lab=
[ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v mkfs.ext4 >/dev/null 2>&1 &&
	lab=--crash-fs=ext4
mkdir "$tmp/dir" || exit 99
tmux -L "$sock" -f /dev/null new-session -d -s crash -x 110 -y 34 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' $lab --dir '$tmp/dir' '$src/scenarios/13-3-fflush-fsync.yaml'; \
	 echo \$? > '$tmp/status'; sleep 60" || { echo "FAIL: tui-crash: tmux"; exit 99; }
expect "step 0/6" "the lesson starts"
tmux -L "$sock" send-keys -t crash n
expect "step 1/6" "fopen"
tmux -L "$sock" send-keys -t crash n
expect "pending 904" "fwrite"
tmux -L "$sock" send-keys -t crash x
expect "what a crash leaves" "x shows the crash view"
expect 'scratch: 4096 B "abcdefghijklmnopqrstuvwx..."' "kill -9 keeps what write() gave the kernel"
if [ -n "$lab" ]; then
	expect "loop" "the disk pane names the lab's device"
	expect "power cut: the device as it was" "the power cut is shown"
	if screen | sed -n '/power cut: the device/,$p' | grep -q 'scratch: \(no file\|an empty file\|4096 B\)'; then
		echo "ok: tui-crash: the power cut's outcome is one the device can hold"
	else
		echo "FAIL: tui-crash: no power cut outcome"
		fail=1
	fi
else
	echo "SKIP: tui-crash: no crash lab here (needs root, loop devices, mkfs.ext4): the power cut half not checked"
	expect "not observable here" "the power cut says why it is missing"
fi
tmux -L "$sock" send-keys -t crash x
gone "what a crash leaves" "x again closes it"
tmux -L "$sock" send-keys -t crash p
expect "replay" "p goes back to fopen"
tmux -L "$sock" send-keys -t crash x
expect "is a replay of what was recorded" "a step never crashed: a crash shows the present only"
tmux -L "$sock" send-keys -t crash Escape n n
expect "step 3/6" "forward, and a new step"
tmux -L "$sock" send-keys -t crash p x
expect "(recorded then)" "a step crashed earlier: the view recorded with it"
tmux -L "$sock" send-keys -t crash q
i=0
while [ ! -s "$tmp/status" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$tmp/status" 2>/dev/null)" = 0 ] || { echo "FAIL: tui-crash: exit status $(cat "$tmp/status" 2>/dev/null)"; fail=1; }
[ -z "$(ls "$tmp/dir")" ] || { echo "FAIL: tui-crash: left in --dir: $(ls "$tmp/dir")"; fail=1; }
[ $fail -eq 0 ] && echo "ok: tui-crash"
exit $fail
