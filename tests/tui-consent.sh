#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-consent.sh: in the TUI (a private tmux server), a scenario's run step runs its
# program only after the user said yes to its command line, shown in full and escaped (its
# ESC never reaches the terminal); n runs nothing; --allow-run=PROG asks nothing; q while the
# program runs quits at once and leaves no process.
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tui-consent: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
build=$(cd "$(dirname "$bin")/.." && pwd)
hostile=$build/tests/foreign/hostile
[ -x "$hostile" ] || { echo "FAIL: $hostile not built"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-consent.XXXXXX") || exit 99
# A copy of our own: its path tells our processes from those of tests running beside us.
cp "$hostile" "$tmp/hostile" && hostile=$(readlink -f "$tmp/hostile") || exit 99
base=iobufviz-consent-$(basename "$tmp")
n=0
sock=$base-0
fail=0
# The hostile program, if a failure left it running, is killed by pid (found by its exe).
left() {
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$hostile" ] && { p=${e#/proc/}; echo "${p%/exe}"; }
	done
}
cleanup() {
	i=1
	while [ $i -le $n ]; do
		tmux -L "$base-$i" kill-server >/dev/null 2>&1
		i=$((i + 1))
	done
	for p in $(left); do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
mkdir "$tmp/d" "$tmp/t"

cat >"$tmp/touch.yaml" <<EOF
title: "runs touch"
steps:
  - note: "first"
  - run: {program: touch, args: ["$tmp/ran", "$tmp/x\e]0;pwned\a"]}
EOF
cat >"$tmp/quiet.yaml" <<EOF
title: "runs a quiet program"
steps:
  - note: "first"
  - run: {program: "$hostile", args: [quiet]}
  - note: "last"
EOF

# The screen of the session.
screen() {
	tmux -L "$sock" capture-pane -p -t c 2>/dev/null
}

# Wait up to 10 s until the screen shows $1; say so if it does not.
wait_for() {
	i=0
	until screen | grep -F -q -- "$1"; do
		if [ $i -ge 100 ]; then
			echo "FAIL: the screen does not show '$1':"
			screen | sed 's/^/  | /'
			fail=1
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

# Start iobufviz with arguments $* in a 100x30 terminal of a new tmux server (one each: a
# server being killed cannot take a new session); its status goes to $tmp/status.
start() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
	n=$((n + 1))
	sock=$base-$n
	rm -f "$tmp/status" "$tmp/ran"
	tmux -L "$sock" -f /dev/null new-session -d -s c -x 100 -y 30 \
		"LC_ALL=C.UTF-8 TERM=screen TMPDIR='$tmp/t' '$bin' --dir '$tmp/d' $*; echo \$? >'$tmp/status'; sleep 60"
	wait_for "step 0/"
}

# 1. No consent on the command line: the popup shows the command line, escaped; n runs nothing.
start "'$tmp/touch.yaml'"
tmux -L "$sock" send-keys -t c n
wait_for "step 1/2"
tmux -L "$sock" send-keys -t c n
wait_for "this lesson runs programs" && wait_for "step 2: touch $tmp/ran" &&
	wait_for "x\\x1b]0;pwned\\x07" && echo "ok: the popup shows the command line, escaped"
case $(tmux -L "$sock" display -p -t c '#{pane_title}') in
*pwned*) echo "FAIL: the scenario's ESC reached the terminal (pane title)"; fail=1 ;;
esac
[ ! -e "$tmp/ran" ] || { echo "FAIL: the program ran before the answer"; fail=1; }
tmux -L "$sock" send-keys -t c n
wait_for "was not allowed" && echo "ok: n: the step runs nothing and says so"
[ ! -e "$tmp/ran" ] || { echo "FAIL: n: the program ran"; fail=1; }

# 2. y: it runs.
start "'$tmp/touch.yaml'"
tmux -L "$sock" send-keys -t c n
wait_for "step 1/2"
tmux -L "$sock" send-keys -t c n
wait_for "this lesson runs programs"
tmux -L "$sock" send-keys -t c y
wait_for "step 2/2" && wait_for "exited 0" && echo "ok: y: the program ran"
[ -e "$tmp/ran" ] || { echo "FAIL: y: the program did not run"; fail=1; }

# 3. --allow-run=touch: nothing is asked.
start --allow-run=touch "'$tmp/touch.yaml'"
tmux -L "$sock" send-keys -t c n
wait_for "step 1/2"
tmux -L "$sock" send-keys -t c n
wait_for "step 2/2" && echo "ok: --allow-run=touch: no question"
[ -e "$tmp/ran" ] || { echo "FAIL: --allow-run=touch: the program did not run"; fail=1; }
screen | grep -qF "this lesson runs programs" && { echo "FAIL: --allow-run=touch: asked anyway"; fail=1; }

# 4. q while the run step's program runs (it makes no call for 30 s): out at once, nothing left.
start --allow-run "'$tmp/quiet.yaml'"
tmux -L "$sock" send-keys -t c n
wait_for "step 1/3"
tmux -L "$sock" send-keys -t c n
wait_for "step 2 running" && [ -n "$(left)" ] || { echo "FAIL: q: the program is not running"; fail=1; }
tmux -L "$sock" send-keys -t c q
i=0
while [ ! -s "$tmp/status" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
if [ -s "$tmp/status" ]; then
	echo "ok: q during a run step quits in $((i / 10)).$((i % 10)) s, exit $(cat "$tmp/status")"
else
	echo "FAIL: q: still running 3 s after q"
	screen | sed 's/^/  | /'
	fail=1
fi
sleep 0.3
[ -z "$(left)" ] || { echo "FAIL: q: the program outlived iobufviz: $(left)"; fail=1; }
[ -z "$(ls -A "$tmp/t")" ] || { echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"; fail=1; }
exit $fail
