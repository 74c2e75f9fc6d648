#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-wide.sh: characters two columns wide (a Japanese title and narration, emoji) and
# none wide (a combining accent) at 80x24: every border of the screen stays in its column
# (each row that ends in a box line is exactly 80 columns as the terminal counts them), and
# the text is there whole; so is a traced program's file named with an emoji.
testname=tui-wide
. "$(dirname "$0")/lib.sh"
need tmux python3 cc
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"

# The screen of session $1 has every box line in its column; $2 names the screen.
aligned() {
	tmux_screen "$1" >"$tmp/$1.screen"
	python3 - "$tmp/$1.screen" "$2" <<'PY' || fail=1
import sys, unicodedata
def width(s):
    w = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return w
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
bad = [(i, width(r), r) for i, r in enumerate(rows)
       if r.rstrip() and r.rstrip()[-1] in "│┐┘┤" and width(r.rstrip()) != 80]
if bad or not any(r.rstrip()[-1:] == "│" for r in rows):
    print("FAIL: %s: rows whose right border is not in column 80:" % sys.argv[2])
    for i, w, r in bad:
        print("    row %d: %d columns: %s" % (i, w, r))
    sys.exit(1)
print("ok: %s: every right border in column 80" % sys.argv[2])
PY
}

# The screen of session $1 shows $2.
shows() {
	if tmux_screen "$1" | grep -qF -- "$2"; then
		echo "ok: $1: shows $2"
	else
		echo "FAIL: $1: no '$2' on the screen:"
		tmux_screen "$1" | sed 's/^/    | /'
		fail=1
	fi
}

# On tmpfs where there is one: no writeback, so no note of the kernel's (a sync() of a test
# running beside this one) pushes the lesson's sentence out of the 80x24 screen.
lesson_dir=$tmp/l
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	lesson_dir=$(mktemp -d /dev/shm/iobufviz-tui-wide.XXXXXX) || exit 99
	cleanup() { rm -rf "$lesson_dir"; }
else
	mkdir "$lesson_dir" || exit 99
fi
tmux_new wl 80 24 "LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$lesson_dir' '$src/tests/tui-wide.yaml'; sleep 60" ||
	{ echo "FAIL: tmux"; exit 99; }
tmux_sees wl "step 0/3" 20 || { echo "FAIL: the lesson did not start"; tmux_screen wl; exit 1; }
shows wl "バッファの旅"
aligned wl "the title"
for k in 1 2 3; do
	tmux_cmd wl send-keys -t wl n
	tmux_sees wl "step $k/3" 30 && wait_for "tmux_settled wl" 30
	aligned wl "step $k"
done
shows wl "🙂🙂 nothing waits"
tmux_cmd wl send-keys -t wl p p
tmux_sees wl "step 1/3" 30 && wait_for "tmux_settled wl" 30
shows wl "$(printf 'Le cafe\314\201 du matin')"
aligned wl "step 1 again, with a combining accent"
tmux_cmd wl send-keys -t wl q

# A traced program writing a file named with an emoji.
cat >"$tmp/emoji.c" <<'C'
#include <stdio.h>
int main(void)
{
	FILE *f = fopen("\360\237\223\204 notes.txt", "w");
	if (f == NULL)
		return 1;
	fputs("hello\n", f);
	return fclose(f) != 0;
}
C
cc -o "$tmp/emoji" "$tmp/emoji.c" || { echo "FAIL: emoji.c does not build"; exit 99; }
mkdir "$tmp/p" || exit 99
tmux_new wp 80 24 "LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/p' -- '$tmp/emoji'; sleep 60" ||
	{ echo "FAIL: tmux"; exit 99; }
tmux_sees wp "step" 20 || { echo "FAIL: the program did not start"; tmux_screen wp; exit 1; }
k=0
while [ $k -lt 3 ] && ! tmux_screen wp | grep -qF "📄"; do
	tmux_cmd wp send-keys -t wp n
	sleep 1
	k=$((k + 1))
done
wait_for "tmux_settled wp" 30
shows wp "📄"
aligned wp "a program's file named with an emoji"
tmux_cmd wp send-keys -t wp q
finish
