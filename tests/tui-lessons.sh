#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-lessons.sh: the lessons whose steps run outside the worker (pty: children of
# the TUI process; tail: output carried back) hold their expectations in the TUI too, not
# only --headless: the TUI process's own state (curses, atexit, stdout) must not leak in.
set -u
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tui-lessons: tmux not installed"; exit 77; }
bin=${IOBUFVIZ_BIN:?}
src=${IOBUFVIZ_SRCDIR:?}
[ -x "$bin" ] || { echo "SKIP: tui-lessons: $bin not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tui-lessons.XXXXXX") || exit 99
sock=iobufviz-lessons-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM HUP
fail=0

# Screen contents of session $1.
screen() {
	tmux -L "$sock" capture-pane -p -t "$1" 2>/dev/null
}

# Wait up to 10 s for session $1 to show the fixed string $2.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen "$1" | grep -F -q -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

for name in 13-4-pty 13-5-tail 13.2-fflush; do
	f=$src/scenarios/$name.yaml
	n=$(grep -c '^  - ' "$f")
	# tmux reads '.' in a target as a pane index.
	ses=$(echo "$name" | tr . _)
	mkdir "$tmp/$name" || exit 99
	tmux -L "$sock" -f /dev/null new-session -d -s "$ses" -x 160 -y 40 \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/$name' '$f'; sleep 60" ||
		{ echo "FAIL: tmux"; exit 99; }
	ok=yes
	wait_for "$ses" "step 0/$n" || ok=no
	k=1
	while [ $ok = yes ] && [ $k -le "$n" ]; do
		tmux -L "$sock" send-keys -t "$ses" n
		wait_for "$ses" "step $k/$n" || { ok=no; break; }
		# Let the step finish and its expectations show.
		sleep 0.3
		if screen "$ses" | grep -F -q '✗'; then
			echo "FAIL $name: step $k: an expectation failed in the TUI"
			screen "$ses" | sed 's/^/    | /'
			ok=no
			fail=1
		fi
		k=$((k + 1))
	done
	if [ $ok = yes ]; then
		echo "PASS $name: $n steps in the TUI"
	elif [ $fail = 0 ]; then
		echo "FAIL $name: the TUI did not reach step $k/$n"
		screen "$ses" | sed 's/^/    | /'
		fail=1
	fi
	tmux -L "$sock" send-keys -t "$ses" q
done
exit $fail
