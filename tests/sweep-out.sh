#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/sweep-out.sh: a sweep's outputs through the real binary: transcripts fit 100 columns,
# CSV and Markdown stay tables whatever a scenario's strings hold, no control byte gets out,
# and a timed child frees what it allocated.
testname=sweep-out
. "$(dirname "$0")/lib.sh"
need python3

# 1. Every bundled sweep's transcript (tiny budget) fits 100 display columns.
for s in table-13-1 table-13-2 table-13-3 ex-13-1b-osync ex-13-1c-tmpfs apue-fig-3-5 \
    hpux-table-3-5 fsync-vs-fdatasync; do
	"$bin" --headless --budget 0.005 --dir "$tmp" "$src/scenarios/$s.yaml" >"$tmp/$s.txt" 2>/dev/null
	rc=$?
	[ $rc -le 1 ] || bad "$s: exit $rc"
	python3 - "$tmp/$s.txt" <<'PY' || bad "$s: a line is wider than 100 columns"
import sys, unicodedata
ok = True
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    line = line.rstrip("\n")
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    if w > 100:
        print("  line %d: %d columns: %s" % (n, w, line[:60]))
        ok = False
sys.exit(0 if ok else 1)
PY
done

# 2. Hostile strings (|, comma, quote, newline, ESC sequences) in title, variant, reference.
h="$src/tests/sweep-hostile.yaml"
"$bin" --headless --dir "$tmp" "$h" >"$tmp/h.txt" 2>&1 || bad "hostile: text exit $?"
"$bin" --headless --wide --dir "$tmp" "$h" >"$tmp/h.wide" 2>&1 || bad "hostile: --wide exit $?"
grep -q "mean ± σ\|mean +/- sd" "$tmp/h.wide" || bad "--wide: no full table"
for fmt in csv md json; do
	"$bin" --headless --dir "$tmp" --export=$fmt "$h" >"$tmp/h.$fmt" 2>"$tmp/h.$fmt.err" ||
		bad "hostile: --export=$fmt exit $?"
done
python3 - "$tmp" <<'PY' || bad "hostile strings broke an output"
import csv, json, os, sys
d = sys.argv[1]
ok = True
def no(msg):
    global ok
    print("  " + msg)
    ok = False
for name in ("h.txt", "h.wide", "h.csv", "h.md", "h.json", "h.csv.err", "h.md.err"):
    data = open(os.path.join(d, name), "rb").read()
    if b"\x1b" in data or b"\x07" in data:
        no("%s: a control byte got out" % name)
rows = list(csv.reader(open(os.path.join(d, "h.csv"), newline="", encoding="utf-8")))
if len(rows) != 3:
    no("csv: %d rows, expected a header and 2" % len(rows))
elif rows[0][0] != "sweep" or any(len(r) != len(rows[0]) for r in rows):
    no("csv: header %r, row lengths %r" % (rows[0][:3], [len(r) for r in rows]))
elif rows[1][0] != 'a|b, "c"\\nnext line \\x1b[31mred\\x1b[0m \\x1b]0;title\\x07':
    no("csv: title cell %r" % rows[1][0])
def cells(line):
    n, esc = 0, False
    for c in line:
        if esc:
            esc = False
        elif c == "\\":
            esc = True
        elif c == "|":
            n += 1
    return n - 1
table = [l for l in open(os.path.join(d, "h.md"), encoding="utf-8").read().split("\n")
         if l.startswith("|")]
if len(table) != 4:
    no("md: %d table lines, expected header, alignment and 2 rows" % len(table))
elif len(set(cells(l) for l in table)) != 1:
    no("md: cells per line %r" % [cells(l) for l in table])
json.load(open(os.path.join(d, "h.json"), encoding="utf-8"))
sys.exit(0 if ok else 1)
PY

# 3. A timed fread+setvbuf child frees its 64 KiB stdio buffer (valgrind follows the fork).
if command -v valgrind >/dev/null; then
	valgrind --leak-check=full --show-leak-kinds=all "$bin" --headless --dir "$tmp" \
	    "$src/tests/sweep-setvbuf.yaml" >/dev/null 2>"$tmp/vg.txt"
	grep -q "LEAK SUMMARY\|still reachable\|All heap blocks were freed" "$tmp/vg.txt" ||
		bad "valgrind: no leak report"
	! grep -E "65,536 bytes in 1 blocks" "$tmp/vg.txt" || bad "setvbuf: 64 KiB not freed"
	! grep -E "definitely lost: [1-9]" "$tmp/vg.txt" || bad "setvbuf: memory definitely lost"
else
	skip_part "leak check of the timed child" "valgrind not installed"
fi
finish
