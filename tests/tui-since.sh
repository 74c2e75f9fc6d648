#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-since.sh: at 80x24 the title bar tells the time a person took before the shown
# step when it is long enough for the kernel to act on its own (over a second: "+2.6 s since
# step 1"), and says nothing for the first step or one run at once. Going back (p) to a step
# shows its own time again; the step's details (Tab) say what the kernel did in it. 13-3, in
# a scratch dir of the test's own.
testname=tui-since
. "$(dirname "$0")/lib.sh"
need tmux

# The title bar (the screen's first line) of session s now.
title() {
	tmux_screen s | head -n 1
}

mkdir -p "$tmp/d" || exit 99
tmux_new s 80 24 \
	"LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/d' '$src/scenarios/13-3-fflush-fsync.yaml'; sleep 60" ||
	{ echo "FAIL: tmux"; exit 99; }
tmux_sees s "step 0/6" 20 || finish
tmux_cmd s send-keys -t s n
tmux_sees s "step 1/6" 20 || finish
wait_for "tmux_settled s" 20
title | grep -q 'since step' && bad "step 1 (the first) tells a time since a step before: $(title)"

# A person reads for 2.5 s: step 2 says so, in the title bar, whole at 80 columns.
sleep 2.5
tmux_cmd s send-keys -t s n
sent2=$(date +%s%N)
tmux_sees s "step 2/6" 20 || finish
if title | grep -Eq '\+(2\.[5-9]|[3-9]\.[0-9]|[1-9][0-9]) s since step 1 '; then
	echo "ok: tui-since: step 2 tells the 2.5 s since step 1: $(title | sed 's/  */ /g')"
else
	bad "step 2 after 2.5 s: no '+2.5 s since step 1' (or more) in the title bar: $(title)"
fi
title | grep -q 'step 2/6 .*? help' || bad "the title bar lost its keys: $(title)"

# Run at once (the key sent before the screen settled): no time told.
# Step 2 ended after its key was sent, step 3's key was read before step 3 is seen: the time
# between bounds the pause. On a loaded machine it may pass a second, and then may be told.
tmux_cmd s send-keys -t s n
tmux_sees s "step 3/6" 20 || finish
gap_ms=$(( ($(date +%s%N) - sent2) / 1000000 ))
if title | grep -q 'since step'; then
	[ "$gap_ms" -gt 1000 ] ||
		bad "step 3, run at once ($gap_ms ms after step 2's key), tells a time since step 2: $(title)"
	told=$(title | sed -n 's/.*+\([0-9]*\)\.\([0-9]\) s since step 2.*/\1\2/p')
	[ -n "$told" ] && [ $((told * 100)) -le "$gap_ms" ] ||
		bad "step 3 tells more than the $gap_ms ms the test saw: $(title)"
fi

# Back to step 2 (a replay of what was recorded): its own time, again.
tmux_cmd s send-keys -t s p
tmux_sees s "REPLAY" 20 || finish
title | grep -Eq 'step 2/6 +\+[0-9.]+ s since step 1' ||
	bad "step 2 replayed: its time since step 1 is not told: $(title)"
tmux_cmd s send-keys -t s q
finish
