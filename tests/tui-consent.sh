#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-consent.sh: in the TUI (a private tmux server), a scenario's run step runs its
# program only after the user said yes to its command line, shown in full and escaped (its
# ESC never reaches the terminal); n runs nothing, and the narration says so (no failed call); --allow-run=PROG asks nothing; q while the
# program runs quits at once and leaves no process.
testname=tui-consent
. "$(dirname "$0")/lib.sh"
need tmux
hostile=$build/tests/foreign/hostile
[ -x "$hostile" ] || { echo "FAIL: $hostile not built"; exit 99; }
# A copy of our own: its path tells our processes from those of tests running beside us.
cp "$hostile" "$tmp/hostile" && hostile=$(readlink -f "$tmp/hostile") || exit 99
# The hostile program, if a failure left it running, is killed by pid (found by its exe).
left() {
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$hostile" ] && { p=${e#/proc/}; echo "${p%/exe}"; }
	done
}
# The copy's processes still alive on the way out (lib.sh ends the tmux servers, removes the dir).
cleanup() {
	for p in $(left); do kill -KILL "$p" 2>/dev/null; done
}
mkdir "$tmp/d" "$tmp/t"

cat >"$tmp/touch.yaml" <<EOF
title: "runs touch"
steps:
  - note: "[background] first"
  - run: {program: touch, args: ["$tmp/ran", "$tmp/x\e]0;pwned\a"]}
EOF
cat >"$tmp/quiet.yaml" <<EOF
title: "runs a quiet program"
steps:
  - note: "[background] first"
  - run: {program: "$hostile", args: [quiet]}
  - note: "[background] last"
EOF

# The screen of the session.
screen() {
	tmux_screen c
}

# Wait up to 10 s until the screen shows $1; say so if it does not.
wait_sees() {
	tmux_sees c "$1"
}

# Start iobufviz with arguments $* in a 100x30 terminal of a new tmux server (one each: a
# server being killed cannot take a new session); its status goes to $tmp/status.
start() {
	rm -f "$tmp/status" "$tmp/ran"
	tmux_new c 100 30 \
		"LC_ALL=C.UTF-8 TERM=screen TMPDIR='$tmp/t' '$bin' --dir '$tmp/d' $*; echo \$? >'$tmp/status'; sleep 60"
	wait_sees "step 0/"
}

# 1. No consent on the command line: the popup shows the command line, escaped; n runs nothing.
start "'$tmp/touch.yaml'"
tmux_cmd c send-keys -t c n
wait_sees "step 1/2"
tmux_cmd c send-keys -t c n
wait_sees "this lesson runs programs" && wait_sees "step 2: touch $tmp/ran" &&
	wait_sees "x\\x1b]0;pwned\\x07" && echo "ok: the popup shows the command line, escaped"
case $(tmux_cmd c display -p -t c '#{pane_title}') in
*pwned*) echo "FAIL: the scenario's ESC reached the terminal (pane title)"; fail=1 ;;
esac
[ ! -e "$tmp/ran" ] || { echo "FAIL: the program ran before the answer"; fail=1; }
tmux_cmd c send-keys -t c n
wait_sees "was not allowed" && echo "ok: n: the step runs nothing and says so"
# Declined is no failure of a call: no "failed: EPERM", no "returned -1".
if wait_sees "was not run" && ! screen | grep -q -e "failed: EPERM" -e "returned -1"; then
	echo "ok: n: the narration says the step was not run, not that a call failed"
else
	bad "n: the narration of a declined run:"; screen | sed 's/^/  | /'
fi
[ ! -e "$tmp/ran" ] || { echo "FAIL: n: the program ran"; fail=1; }

# 2. y: it runs.
start "'$tmp/touch.yaml'"
tmux_cmd c send-keys -t c n
wait_sees "step 1/2"
tmux_cmd c send-keys -t c n
wait_sees "this lesson runs programs"
tmux_cmd c send-keys -t c y
wait_sees "step 2/2" && wait_sees "exited 0" && echo "ok: y: the program ran"
[ -e "$tmp/ran" ] || { echo "FAIL: y: the program did not run"; fail=1; }

# 2b. Command lines too long for the screen (three long echos, then a touch the popup could
# not show): y is not taken, the prompt says to run --check; n runs none.
long=$(head -c 1500 /dev/zero | tr '\0' e)
{
	printf 'title: "hides a touch"\nsteps:\n  - note: "[background] first"\n'
	for i in 1 2 3; do printf '  - run: {program: echo, args: ["%s"]}\n' "$long"; done
	printf '  - run: {program: touch, args: ["%s/PWNED-UNSEEN"]}\n' "$tmp"
} >"$tmp/unseen.yaml"
start "'$tmp/unseen.yaml'"
tmux_cmd c send-keys -t c n
wait_sees "step 1/5"
tmux_cmd c send-keys -t c n
wait_sees "4 commands, too long to show here: run --check to read them"
tmux_cmd c send-keys -t c y
sleep 1
[ ! -e "$tmp/PWNED-UNSEEN" ] || bad "unseen: y ran a command line the popup never showed"
screen | grep -qF "too long to show here" || bad "unseen: y was taken: $(screen | head -5)"
tmux_cmd c send-keys -t c n
wait_sees "was not allowed"
[ ! -e "$tmp/PWNED-UNSEEN" ] || bad "unseen: n ran the touch"

# 3. --allow-run=touch: nothing is asked.
start --allow-run=touch "'$tmp/touch.yaml'"
tmux_cmd c send-keys -t c n
wait_sees "step 1/2"
tmux_cmd c send-keys -t c n
wait_sees "step 2/2" && wait_sees "exited 0" && echo "ok: --allow-run=touch: no question"
[ -e "$tmp/ran" ] || { echo "FAIL: --allow-run=touch: the program did not run"; fail=1; }
screen | grep -qF "this lesson runs programs" && { echo "FAIL: --allow-run=touch: asked anyway"; fail=1; }

# 4. q while the run step's program runs (it makes no call for 30 s): out at once, nothing left.
start --allow-run "'$tmp/quiet.yaml'"
tmux_cmd c send-keys -t c n
wait_sees "step 1/3"
tmux_cmd c send-keys -t c n
wait_sees "step 2 running" && [ -n "$(left)" ] || { echo "FAIL: q: the program is not running"; fail=1; }
tmux_cmd c send-keys -t c q
t0=$(date +%s%N)
if wait_for '[ -s "$tmp/status" ]' 3; then
	echo "ok: q during a run step quits in $(( ($(date +%s%N) - t0) / 1000000 )) ms, exit $(cat "$tmp/status")"
else
	echo "FAIL: q: still running 3 s after q"
	screen | sed 's/^/  | /'
	fail=1
fi
wait_for '[ -z "$(left)" ]' 5 || { echo "FAIL: q: the program outlived iobufviz: $(left)"; fail=1; }
[ -z "$(ls -A "$tmp/t")" ] || { echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"; fail=1; }
finish
