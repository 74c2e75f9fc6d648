#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-tui-log.sh: at 80x24 (a private tmux server), a folded step's line in the event
# log keeps who made its calls ("[by stdio]") and their time: its long text is cut in the
# middle, to the call column, as the other lines are ("write(3, 4096) x 2: 8192 B,…of
# stdio)  [by stdio]  24.1 µs*"); the "what happened" pane still has the whole text. Two
# folds: unseen flushes of putc_unlocked (tests/foreign/unlocked), and getdelim x 3001 with
# its reads (tests/foreign/getdelim).
testname=own-prog-tui-log
. "$(dirname "$0")/lib.sh"
need tmux python3
for p in tests/foreign/unlocked tests/foreign/getdelim; do
	[ -x "$build/$p" ] || { echo "FAIL: $build/$p not built"; exit 99; }
done
if command -v nm >/dev/null 2>&1 && nm -D "$build/tests/foreign/unlocked" | grep -Eq ' U putc_unlocked'; then
	skip "the build calls putc_unlocked (CFLAGS without -O): its flushes are no fold of stdio's"
fi
mkdir "$tmp/w1" "$tmp/w2" "$tmp/t"
python3 -c 'import sys; open(sys.argv[1], "w").write(",".join("r%d" % i for i in range(3000)) + ",")' \
	"$tmp/w2/in.csv"

# Run iobufviz on a program in an 80x24 terminal; n until the step "$1" is shown.
run_to() {
	lib_want=$1
	shift
	tmux_new own 80 24 "TMPDIR='$tmp/t' '$bin' --dir $*; echo EXITED \$?; sleep 60"
	tmux_sees own "stopped before its first call" || return 1
	for k in $(seq 1 "$lib_want"); do
		tmux_cmd own send-keys -t own n
		tmux_sees own "step $k/$k" || return 1
	done
}

# The screen has a log line matching the extended regex $1 that ends at the pane's border
# with [by stdio] and a time: what it is, $2.
log_line() {
	if tmux_screen own | grep -Eq "^│ #[0-9]+ +$1.*… ?.* \[by stdio\] +[0-9.]+ [mµn]?s\*? │$"; then
		echo "ok: $2"
	else
		bad "$2: no such line:"
		tmux_screen own | sed 's/^/    | /'
	fi
}

# The flushes of putc_unlocked: step 5 (open, fstat, its own fstat, write x 2, ...).
run_to 5 "'$tmp/w1' -- '$build/tests/foreign/unlocked' out.txt" &&
	tmux_sees own "x 2: 8192 B, each = 4096; stdio flushing fp's buffer," &&
	log_line "write +write\(3, 4096\) x 2: 8192 B" \
		"an unseen fold's log line keeps [by stdio] and its time at 80 columns" &&
	tmux_sees own "use of stdio)" && echo "ok: the what-happened pane has the whole text"
tmux_kill own
# getdelim x 3001: its 3000 records and their reads in one step, the third.
run_to 3 "'$tmp/w2' -- '$build/tests/foreign/getdelim' in.csv" &&
	tmux_sees own "x 3001: 3000 records, 16890 B, then" &&
	log_line "getdelim +getdelim\(&line, &n, delim," \
		"a stdio fold's log line keeps [by stdio] and its time at 80 columns"
tmux_kill own
finish
