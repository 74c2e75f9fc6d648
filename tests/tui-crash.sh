#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-crash.sh: x in a real terminal (a private tmux server): on the newest step of 13-3
# it shows what a crash leaves now (kill -9 keeps the 4096 bytes write() gave the kernel after
# fwrite); x again closes it; back on a step never crashed it says a crash shows the present
# only, and back on the one crashed it shows the view recorded with it. With a crash lab (root:
# --crash-fs=ext4) the power cut is shown and the disk pane has the device line; else the
# power cut says why it is not observable. q leaves no scratch dir.
testname=tui-crash
. "$(dirname "$0")/lib.sh"
need tmux

# Wait (up to 10 s) until the screen shows $1; report $2.
expect() {
	tmux_sees crash "$1" && echo "ok: tui-crash: $2" && return 0
	echo "FAIL: tui-crash: $2"
	return 1
}

# Wait (up to 10 s) until the screen no longer shows $1; report $2.
gone() {
	lib_gone=$1
	wait_for '! tmux_screen crash | grep -F -q -- "$lib_gone"' &&
		{ echo "ok: tui-crash: $2"; return 0; }
	bad "tui-crash: $2 ('$1' still shown)"
	return 1
}

lab=
[ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v mkfs.ext4 >/dev/null 2>&1 &&
	lab=--crash-fs=ext4
mkdir "$tmp/dir" || exit 99
tmux_new crash 110 34 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' $lab --dir '$tmp/dir' '$src/scenarios/13-3-fflush-fsync.yaml'; \
	 echo \$? > '$tmp/status'; sleep 60" || { bad "tmux"; finish; }
expect "step 0/6" "the lesson starts"
tmux_cmd crash send-keys -t crash n
expect "step 1/6" "fopen"
tmux_cmd crash send-keys -t crash n
expect "pending 904" "fwrite"
tmux_cmd crash send-keys -t crash x
expect "what a crash leaves" "x shows the crash view"
expect 'scratch: 4096 B "abcdefghijklmnopqrstuvwx..."' "kill -9 keeps what write() gave the kernel"
if [ -n "$lab" ]; then
	expect "loop" "the disk pane names the lab's device"
	expect "power cut: the device as it was" "the power cut is shown"
	if tmux_screen crash | sed -n '/power cut: the device/,$p' | grep -q 'scratch: \(no file\|an empty file\|4096 B\)'; then
		echo "ok: tui-crash: the power cut's outcome is one the device can hold"
	else
		bad "tui-crash: no power cut outcome"
	fi
else
	skip_part "power cut" "no crash lab here (needs root, loop devices, mkfs.ext4)"
	expect "not observable here" "the power cut says why it is missing"
fi
tmux_cmd crash send-keys -t crash x
gone "what a crash leaves" "x again closes it"
tmux_cmd crash send-keys -t crash p
expect "replay" "p goes back to fopen"
tmux_cmd crash send-keys -t crash x
expect "is a replay of what was recorded" "a step never crashed: a crash shows the present only"
tmux_cmd crash send-keys -t crash Escape n n
expect "step 3/6" "forward, and a new step"
tmux_cmd crash send-keys -t crash p x
expect "(recorded then)" "a step crashed earlier: the view recorded with it"
tmux_cmd crash send-keys -t crash q
wait_for '[ -s "$tmp/status" ]'
[ "$(cat "$tmp/status" 2>/dev/null)" = 0 ] || bad "tui-crash: exit status $(cat "$tmp/status" 2>/dev/null)"
[ -z "$(ls "$tmp/dir")" ] || bad "tui-crash: left in --dir: $(ls "$tmp/dir")"
finish
