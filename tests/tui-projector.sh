#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tui-projector.sh: projector mode turns on by itself from 160 columns with the program
# pane shown too (cells two columns wide), and its zoom on a step's pages never leaves a
# cached page out: 13.5's step 9 (20 pages cached by read-ahead) in tmux at 160x45 and 200x56.
testname=tui-projector
. "$(dirname "$0")/lib.sh"
need tmux
need python3

# The page-cache pane of the screen on stdin: "OK" when its cells are two columns wide and its
# cached cells (of a zoom, when one is shown) hold at least the "cached N" pages, else why not.
cat >"$tmp/cells.py" <<'PY'
import re, sys
rows = sys.stdin.read().split("\n")
top = next((i for i, r in enumerate(rows) if "page cache (kernel)" in r), None)
if top is None:
    sys.exit("no page cache pane")
x0 = rows[top].index("page cache (kernel)") - 2
x1 = rows[top].index("\u2510", x0)
pane = []
for r in rows[top + 1:]:
    if len(r) <= x0 or r[x0] != "\u2502":
        break
    pane.append(r[x0 + 1:x1])
text = "\n".join(pane)
m = re.search(r"cached (\d+) dirty", text)
if not m:
    sys.exit("no cached count in the pane: %r" % text)
cached = int(m.group(1))
# The pages a shown cell holds: a zoom's ("pages 0-19, 1 a cell"), its rows only; else the
# grid's ("1 cell = 3 pages").
at = next((i for i, line in enumerate(pane) if " a cell (" in line), None)
if at is not None:
    ppc = int(re.search(r"(\d+) a cell \(", pane[at]).group(1))
    pane = pane[at + 1:]
else:
    mm = re.search(r"1 cell = (\d+) page", text)
    if not mm:
        sys.exit("no cell size in the pane: %r" % text)
    ppc = int(mm.group(1))
# The grid's rows (not the legends': a glyph, a space, a word).
grid = [line.rstrip() for line in pane if "cached" not in line and
        not re.search("[\u2591\u2593\u224b\u00b7] [0-9a-z]", line) and
        re.search("[\u2591\u2593\u224b\u00b7]", line)]
runs = [len(run) for line in grid for run in re.findall("[\u2591\u2593\u224b]+", line)]
if not runs or any(n % 2 for n in runs):
    sys.exit("cells are not two columns wide: runs %r" % runs)
# Cells two rows tall when every row comes twice.
rh = 2 if len(grid) % 2 == 0 and all(grid[i] == grid[i + 1] for i in range(0, len(grid), 2)) \
    else 1
cells = sum(runs) // 2 // rh
if cells * ppc < cached:
    sys.exit("%d cached cells of %d pages shown for %d cached pages: some left out" %
             (cells, ppc, cached))
print("OK %d cached pages in %d cells of %d page(s), %d row(s) a cell" % (cached, cells, ppc, rh))
PY

for size in 160x45 200x56; do
	w=${size%x*}
	h=${size#*x}
	ses=p$w
	mkdir "$tmp/$ses" || exit 99
	tmux_new "$ses" "$w" "$h" \
		"LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$tmp/$ses' '$src/scenarios/13.5-fadvise.yaml'; sleep 60" ||
		{ echo "FAIL: tmux"; exit 99; }
	tmux_sees "$ses" "step 0/" 20 || continue
	n=$(grep -c '^  - ' "$src/scenarios/13.5-fadvise.yaml")
	k=1
	while [ $k -le 9 ]; do
		tmux_cmd "$ses" send-keys -t "$ses" n
		tmux_sees "$ses" "step $k/$n" 30 || break
		wait_for "tmux_settled '$ses'" 30 || { echo "FAIL: $size: step $k never settles"; fail=1; }
		k=$((k + 1))
	done
	tmux_sees "$ses" "program: step 9" 10 || { echo "FAIL: $size: no program pane"; }
	if out=$(tmux_screen "$ses" | PYTHONIOENCODING=utf-8 python3 "$tmp/cells.py" 2>&1); then
		echo "ok: $size: projector cells beside the program pane, zoom keeps every page: $out"
	else
		echo "FAIL: $size: $out"
		tmux_screen "$ses" | sed 's/^/    | /'
		fail=1
	fi
	tmux_cmd "$ses" send-keys -t "$ses" q
done
finish
