#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-lessons.sh: the lessons whose steps run outside the worker (pty: children of
# the TUI process; tail: output carried back) hold their expectations in the TUI too, not
# only --headless: the TUI process's own state (curses, atexit, stdout) must not leak in.
testname=tui-lessons
. "$(dirname "$0")/lib.sh"
need tmux

for name in 13-4-pty 13-5-tail 13.2-fflush; do
	f=$src/scenarios/$name.yaml
	n=$(grep -c '^  - ' "$f")
	# tmux reads '.' in a target as a pane index.
	ses=$(echo "$name" | tr . _)
	mkdir "$tmp/$name" || exit 99
	tmux_new "$ses" 160 40 \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/$name' '$f'; sleep 60" ||
		{ echo "FAIL: tmux"; exit 99; }
	ok=yes
	tmux_sees "$ses" "step 0/$n" || ok=no
	k=1
	while [ $ok = yes ] && [ $k -le "$n" ]; do
		tmux_cmd "$ses" send-keys -t "$ses" n
		tmux_sees "$ses" "step $k/$n" || { ok=no; break; }
		# Let the step finish and its expectations show.
		wait_for "tmux_settled '$ses'" || { echo "FAIL $name: step $k: the screen never settles"; fail=1; }
		if tmux_screen "$ses" | grep -F -q '✗'; then
			echo "FAIL $name: step $k: an expectation failed in the TUI"
			tmux_screen "$ses" | sed 's/^/    | /'
			ok=failed
			fail=1
		fi
		k=$((k + 1))
	done
	if [ $ok = yes ]; then
		echo "ok: $name: $n steps in the TUI"
	elif [ $ok = no ]; then
		echo "FAIL $name: the TUI did not reach step $k/$n"
		fail=1
	fi
	tmux_cmd "$ses" send-keys -t "$ses" q
done
finish
