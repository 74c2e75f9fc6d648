#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-getdelim.sh: a program reading comma-separated records with getdelim(..., ',', fp)
# (tests/foreign/getdelim.c) to the end of its file: its calls fold into steps worded
# "getdelim(&line, &n, delim, fp) x N: R records, B B, then -1 (end of file)" (or, when the
# last record ends the file, the -1 a step of its own, "getdelim(&line, &n, ',', fp) = -1");
# the records and bytes the steps say equal what the program counted, and what the file
# holds; each call's result in the JSON adds up the same; its reads equal strace -f's.
testname=own-prog-getdelim
. "$(dirname "$0")/lib.sh"
need python3 strace
prog=$build/tests/foreign/getdelim
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
# 3000 records of 0 to 40 bytes (newlines and spaces among them), one file ending with the
# delimiter and one without.
python3 - "$tmp" <<'PY' || bad "no input"
import os, random, sys
r = random.Random(19)
recs = ["".join(r.choice("abcdefghij\n ") for _ in range(r.randint(0, 40))) for _ in range(3000)]
for name, tail in (("end.csv", ","), ("open.csv", "")):
    for d in ("w-" + name, "s-" + name):
        os.makedirs(os.path.join(sys.argv[1], d))
        with open(os.path.join(sys.argv[1], d, "in.csv"), "w") as f:
            f.write(",".join(recs) + tail)
PY
for m in end.csv open.csv; do
	"$bin" --headless --format=json --dir "$tmp/w-$m" -- "$prog" in.csv >"$tmp/$m.json" \
		2>"$tmp/$m.err" || bad "iobufviz $m exit $?: $(head -c 300 "$tmp/$m.err")"
	(cd "$tmp/s-$m" && strace -f -y -qq -s 0 -o "$tmp/$m.strace" "$prog" in.csv >/dev/null) ||
		bad "strace $m exit $?"
done

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]
fold = re.compile(r"getdelim\(&line, &n, delim, fp\) x (\d+): (\d+) records?, (\d+) B"
                  r"(, then -1 \(end of file\))?(?: ->|$)")
one = re.compile(r"getdelim\(&line, &n, ',', fp\) = (-?\d+)")
for m in ("end.csv", "open.csv"):
    doc = json.load(open(os.path.join(tmp, m + ".json")))
    data = open(os.path.join(tmp, "w-" + m, "in.csv"), "rb").read()
    # What the file holds: a record ends at each comma, and the last runs to the end.
    want = (data.count(b",") + (0 if data.endswith(b",") else 1), len(data))
    own = re.match(r"(\d+) records, (\d+) bytes", doc["program"]["stdout"])
    own = (int(own.group(1)), int(own.group(2))) if own else None
    steps = [s for s in doc["steps"] if s.get("stdio_call") and
             s["stdio_call"]["func"] == "getdelim"]
    recs = byts = 0
    words = []
    for s in steps:
        f, o = fold.search(s["args"]), one.search(s["args"])
        if f:
            recs += int(f.group(2))
            byts += int(f.group(3))
            words.append(("fold", int(f.group(1)), bool(f.group(4))))
        elif o:
            recs += int(o.group(1)) >= 0
            byts += max(int(o.group(1)), 0)
            words.append(("one", int(o.group(1))))
        else:
            words.append(("?", s["args"][:160]))
    check(own == want, "%s: the program counted what the file holds: %s / %s" % (m, own, want))
    check((recs, byts) == want, "%s: the steps' words say %d records, %d B, as the program "
          "counted: %s" % (m, recs, byts, want))
    # A step of one call has its result, a fold the list of its calls' [arg, result].
    # (a run of n equal calls is one [arg, result, n])
    rets = [c[1] for s in steps
            for c in s["stdio_call"].get("calls") or [[0, s["stdio_call"]["result"]]]
            for _ in range(c[2] if len(c) > 2 else 1)]
    check(len([r for r in rets if r >= 0]) == want[0] and sum(r for r in rets if r > 0) ==
          want[1] and rets and rets[-1] == -1 and len(rets) == want[0] + 1,
          "%s: each call's result in the JSON: %d records, then -1" % (m, want[0]))
    # How the end is said: in the fold when its last call made the read that found it.
    if m == "end.csv":
        check(words and words[-1][0] == "fold" and words[-1][2] and
              all(w[0] == "fold" for w in words),
              "%s: the fold ends 'then -1 (end of file)': %s" % (m, words))
    else:
        check(len(words) >= 2 and words[-1] == ("one", -1) and
              all(w[0] == "fold" and not w[2] for w in words[:-1]),
              "%s: the -1 after the last record is a step of its own: %s" % (m, words))
    ours = [(e["bytes"], e["result"]) for s in doc["steps"] for e in s["events"]
            if e["call"] == "read" and s["file"] and s["file"].endswith("/in.csv")]
    theirs = checklib.strace_rw(os.path.join(tmp, m + ".strace"), "read", "in.csv")
    check(ours and ours == theirs, "%s: its reads equal strace's: %s / %s" % (m, ours, theirs))
PY
finish
