#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/sweep-out.sh: a sweep's outputs through the real binary: transcripts fit 100 columns,
# CSV and Markdown stay tables whatever a scenario's strings hold, no control byte gets out,
# Markdown is one unit without empty columns, the SVG plot is well-formed, log-log, rendered,
# and no markup of a scenario gets into it; a timed child frees what it allocated; a sweep's
# words differ on tmpfs and on a disk filesystem.
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

# 3. Markdown for a course page (table-13-1): a title line, times in seconds only (the unit in
# the titles), no column that is empty or all "-", the 4 MiB reference scaled to 100 MB.
"$bin" --export=md --budget 0.005 --dir "$tmp" "$src/scenarios/table-13-1.yaml" >"$tmp/t.md" \
	2>/dev/null || bad "table-13-1 --export=md: exit $?"
python3 - "$tmp/t.md" <<'PY' || bad "table-13-1's Markdown"
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
ok = True
def no(msg):
    global ok
    print("  " + msg)
    ok = False
if not text.startswith("## "):
    no("no title line: %r" % text[:40])
rows = [[c.strip() for c in re.split(r"(?<!\\)\|", l)[1:-1]] for l in text.split("\n") if l.startswith("|")]
head, body = rows[0], rows[2:]
if len(body) != 14:
    no("%d rows, expected 14" % len(body))
for k, title in enumerate(head):
    if all(r[k] in ("", "-") for r in body):
        no("column %r is empty" % title)
for cell in [c for r in body for c in r]:
    if re.search(r"\d (s|ms|µs|us|ns)\b", cell):
        no("a cell with its own unit: %r" % cell)
        break
if not any("answers 4MiB elapsed (s, ×23.8)" == t for t in head):
    no("the 4 MiB reference is not scaled to 100 MB: %r" % head)
sys.exit(0 if ok else 1)
PY

# 4. The plot (table-13-1): one well-formed SVG (xmllint, else python3's parser), on log-log
# axes: BUF_SIZE 1, 2, 4 equally spaced; the book's 107.43 s and 54.16 s as far apart as
# log10 of their ratio in decades of the axis; the 4 MiB reference drawn 100 MB / 4 MiB higher.
"$bin" --export=svg --budget 0.005 --dir "$tmp" "$src/scenarios/table-13-1.yaml" >"$tmp/t.svg" \
	2>/dev/null || bad "table-13-1 --export=svg: exit $?"
if command -v xmllint >/dev/null; then
	xmllint --noout "$tmp/t.svg" || bad "table-13-1's SVG is not well-formed XML"
fi
python3 - "$tmp/t.svg" <<'PY' || bad "table-13-1's plot"
import math, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
ok = True
def no(msg):
    global ok
    print("  " + msg)
    ok = False
texts = {(t.text or ""): float(t.get("y")) for t in root.iter(ns + "text")}
ppd = texts.get("1 s", 0) - texts.get("10 s", 0)
if not ppd > 10:
    no("no decade ticks 1 s and 10 s: %r" % sorted(texts)[:12])
def marks(stroke):
    return sorted((float(c.get("cx")), float(c.get("cy"))) for c in root.iter(ns + "circle")
                  if c.get("stroke") == stroke and c.get("r") == "4" and float(c.get("cx")) < 570)
book, answers, ours = marks("#555"), marks("#888"), marks("#000")
if len(book) != 14 or len(ours) < 10:
    no("%d book and %d measured elapsed points" % (len(book), len(ours)))
else:
    (x1, y1), (x2, y2), (x4, _) = book[0], book[1], book[2]
    if abs((x2 - x1) - (x4 - x2)) > 0.3:
        no("BUF_SIZE is not on a log2 axis: %r" % book[:3])
    if abs((y2 - y1) - math.log10(107.43 / 54.16) * ppd) > 0.6:
        no("time is not on a log10 axis: %r, %g per decade" % (book[:2], ppd))
    scaled = math.log10(10.848 * 100e6 / (4 << 20) / 107.43) * ppd
    if not answers or abs((y1 - answers[0][1]) - scaled) > 0.6:
        no("the 4 MiB reference is not scaled to 100 MB: %r" % answers[:1])
# A row that ran on fewer bytes is extrapolated, not measured: hollow (BUF_SIZE 1 cannot copy
# 100 MB in 5 ms, its row is always scaled), and named so in the legend.
def ours_all():
    return sorted((float(c.get("cx")), c.get("fill")) for c in root.iter(ns + "circle")
                  if c.get("stroke") == "#000" and c.get("r") == "4" and float(c.get("cx")) < 570)
if not ours or ours_all()[0][1] != "#fff":
    no("the extrapolated BUF_SIZE 1 point is not hollow: %r" % ours_all()[:2])
legend = " ".join(texts)
for name in ("elapsed, measured here", "elapsed, extrapolated here", "elapsed, TLPI 2010",
             "sys, TLPI 2010"):
    if name not in legend:
        no("the legend has no %r" % name)
sys.exit(0 if ok else 1)
PY

# 5. Markup in a scenario's strings stays text: the SVG is well-formed, with only our elements and
# no event attribute; the Markdown has no tag of it.
m="$src/tests/sweep-html.yaml"
"$bin" --export=svg --dir "$tmp" "$m" >"$tmp/m.svg" 2>/dev/null || bad "markup: svg exit $?"
"$bin" --export=md --dir "$tmp" "$m" >"$tmp/m.md" 2>/dev/null || bad "markup: md exit $?"
python3 - "$tmp/m.svg" "$tmp/m.md" <<'PY' || bad "markup in a scenario's strings became markup"
import re, sys, xml.etree.ElementTree as ET
ok = True
def no(msg):
    global ok
    print("  " + msg)
    ok = False
root = ET.parse(sys.argv[1]).getroot()
allowed = {"svg", "title", "rect", "text", "line", "path", "circle", "polygon", "g"}
for e in root.iter():
    tag = e.tag.split("}")[-1]
    if tag not in allowed:
        no("svg: element <%s>" % tag)
    for a in e.attrib:
        if a.lower().startswith("on") or "href" in a.lower():
            no("svg: attribute %s on <%s>" % (a, tag))
title = root.find("{http://www.w3.org/2000/svg}title").text
if not title.startswith("<script>alert(1)</script> & <b>bold</b> ]]> <!-- x -->"):
    no("svg: the title is not the scenario's text: %r" % title[:60])
md = open(sys.argv[2], encoding="utf-8").read()
if re.search(r"<\s*(script|img|svg|a|b)\b", md, re.I) or "<!--" in md:
    no("md: a tag got through")
if re.search(r"(?<!\\)\[l\]\(", md):
    no("md: a link got through")
sys.exit(0 if ok else 1)
PY

# 5b. Links and formulas in a scenario's strings stay text (issue 30.6): the Markdown through
# GitHub-flavoured Markdown's autolink extension (cmark-gfm -e autolink) has no link, and shows
# the URLs as they were; every CSV cell of a string that starts with = + - @ starts with "'".
l="$src/tests/sweep-links.yaml"
"$bin" --export=md --dir "$tmp" "$l" >"$tmp/l.md" 2>/dev/null || bad "links: md exit $?"
"$bin" --export=csv --dir "$tmp" "$l" >"$tmp/l.csv" 2>/dev/null || bad "links: csv exit $?"
if command -v cmark-gfm >/dev/null 2>&1; then
	for f in l m h t; do
		[ -s "$tmp/$f.md" ] || continue
		cmark-gfm -e autolink -e table -e strikethrough -e tagfilter "$tmp/$f.md" \
			>"$tmp/$f.md.html" || bad "cmark-gfm cannot read $f.md"
		if grep -qi "<a[ >]" "$tmp/$f.md.html"; then
			bad "$f.md: GitHub-flavoured Markdown makes a link of a scenario's text"
			grep -io "<a [^>]*>" "$tmp/$f.md.html" | head -n 5
		fi
	done
	python3 - "$tmp/l.md.html" <<'PY' || bad "links: the Markdown does not show the scenario's text"
import html, re, sys
text = html.unescape(re.sub(r"<[^>]*>", "", open(sys.argv[1], encoding="utf-8").read()))
text = text.replace("\u2060", "")
for want in ('=HYPERLINK("http://x.example/t","t") see www.x.example, HTTPS://x.example/b',
             "ftp://x.example mailto:m@x.example xmpp:j@x.example/r z@x.example WWW.y.example",
             "+cmd|'/C calc'!A0 www.v.example", "-2+3 http://r.example/l",
             "@SUM(1+1) https://s.example/s"):
    if want not in text:
        print("  not shown as it was: %r" % want)
        sys.exit(1)
PY
else
	skip_part "md autolinks" "cmark-gfm not installed (Markdown not checked for GFM links)"
fi
python3 - "$tmp/l.csv" <<'PY' || bad "links: a CSV cell of a scenario's string is a formula"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
ok = len(rows) == 3
cells = [rows[0][-3:]] + [[r[0], r[3]] for r in rows[1:]] if ok else []
for cell in (c for row in cells for c in row):
    if not cell.startswith("'") or cell[1:2] not in ("=", "+", "-", "@"):
        print("  cell %r" % cell)
        ok = False
for r in rows[1:]:
    for cell in r[7:28]:   # numbers iobufviz measured stay numbers
        if cell.startswith("'"):
            print("  number %r" % cell)
            ok = False
sys.exit(0 if ok else 1)
PY

# 6. In a browser (headless Chromium, where installed): the plot renders to an image of its size.
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
	h=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)[.0-9]*".*/\1/p' "$tmp/t.svg" | head -n 1)
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/chrome" --window-size="800,$h" --screenshot="$tmp/t.png" \
		"file://$tmp/t.svg" >"$tmp/chrome.log" 2>&1
	python3 - "$tmp/t.png" 800 "$h" <<'PY' || bad "chromium did not render the plot"
import struct, sys
data = open(sys.argv[1], "rb").read()
w, h = struct.unpack(">II", data[16:24]) if data[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)
sys.exit(0 if (w, h) == (int(sys.argv[2]), int(sys.argv[3])) and len(data) > 20000 else 1)
PY
else
	echo "SKIP: sweep-out: chromium not installed (the plot is not rendered)"
fi

# 7. A timed fread+setvbuf child frees its 64 KiB stdio buffer (valgrind follows the fork).
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
# 8. A sweep's words are told where they are read (tests/sweep-say.yaml): on a disk filesystem
# the sentence resting on [disk = yes] is shown and its tmpfs alternative is not, on tmpfs the
# other way round, under both at once (two --dir) it is shown marked unchecked; one of the two
# comparisons of times is shown, with this run's times; no sentence is false anywhere.
say="$src/tests/sweep-say.yaml"
shm=/dev/shm
[ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] || shm=
disk=$tmp
[ "$(stat -f -c %T "$disk" 2>/dev/null)" = tmpfs ] && disk=
check_say() {
	# $1: a label, $2: the sentence that must be shown, $3: the one that must not, $4: the
	# outcome of $2; the remaining arguments: --dir options.
	label=$1 want=$2 nowant=$3 outcome=$4
	shift 4
	"$bin" --headless --format=json "$@" "$say" >"$tmp/say.$label.json" 2>"$tmp/say.$label.err" ||
		{ bad "sweep words on $label: exit $?: $(head -c 300 "$tmp/say.$label.err")"; return; }
	python3 - "$tmp/say.$label.json" "$want" "$nowant" "$outcome" <<'PY' || bad "sweep words on $label"
import json, re, sys
d = json.load(open(sys.argv[1]))
want, nowant, outcome = sys.argv[2:5]
said = [s for st in d["steps"] for s in st["sentences"]]
shown = {s["text"].split(":")[0]: s for s in said if s["outcome"] != "false"}
ok = True
def no(msg):
    global ok
    print("  " + msg + ": " + json.dumps(said)[:600])
    ok = False
if any(s["outcome"] == "false" for s in said) or not d["ok"]:
    no("a sentence false here")
if want not in shown or shown[want]["outcome"] != outcome:
    no("%s not shown as %s" % (want, outcome))
if nowant in shown:
    no(nowant + " shown")
times = [k for k in ("SLOWER", "NOT SLOWER") if k in shown]
if len(times) != 1:
    no("not one comparison of times")
elif outcome == "held" and not re.search(r"[0-9.]+ [mµn]?s against [0-9.]+ [mµn]?s",
                                       shown[times[0]]["text"]):
    no("the comparison quotes no times of this run")
sys.exit(0 if ok else 1)
PY
}
if [ -n "$disk" ]; then
	check_say disk DISK TMPFS held --dir "$disk"
else
	skip_part "sweep words on a disk filesystem" "$tmp is on tmpfs"
fi
if [ -n "$shm" ]; then
	check_say tmpfs TMPFS DISK held --dir "$shm"
	"$bin" --headless --dir "$shm" "$say" >"$tmp/say.tmpfs.txt" 2>&1
	! grep -q "waits for the disk" "$tmp/say.tmpfs.txt" || bad "tmpfs: the disk's sentence told"
else
	skip_part "sweep words on tmpfs" "/dev/shm is not a tmpfs"
fi
if [ -n "$disk" ] && [ -n "$shm" ]; then
	check_say both DISK TMPFS unchecked --dir "$disk" --dir "$shm"
	grep -q "true of some of them only" "$tmp/say.both.json" ||
		bad "two --dir: the unchecked sentence gives no reason"
fi
finish
