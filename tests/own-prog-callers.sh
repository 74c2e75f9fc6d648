#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-callers.sh: one fprintf line reached from two callers in turn, at the same depth of
# the stack, each call writing at once (tests/foreign/callers.c). The tracer walks a call
# site's stack once per caller and then only checks that caller's return address above the
# shim's frame: each step must still name its own caller's line (not the last walk's), and
# the walks must be fewer than the calls (else nothing was saved). A folded fprintf whose
# format varies from call to call is named "fprintf(fp, format, ...)", not by one format.
# The same for a write() made directly from one line reached from two callers in turn: the
# stack is walked once per caller, then known by the return addresses above the call's sp.
testname=own-prog-callers
. "$(dirname "$0")/lib.sh"
need python3
prog=$build/tests/foreign/callers
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
mkdir -p "$tmp/run"
"$bin" --headless --format=json --dir "$tmp/run" -- "$prog" >"$tmp/run.json" 2>"$tmp/err" ||
	bad "iobufviz exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/run.json" "$src/tests/foreign/callers.c" <<'PY' || fail=1
import json, re, sys
doc = json.load(open(sys.argv[1]))
mark = {}
for n, text in enumerate(open(sys.argv[2]), 1):
    m = re.search(r"/\* LINE:(\w+) \*/", text)
    if m:
        mark[m.group(1)] = n
bad = 0
got = [s for s in doc["steps"] if (s.get("stdio_call") or {}).get("func") == "fprintf" and
       s["name"] != "two.txt"]
# i = 0..5: two() when i % 3 == 2, else one(); each call its own step (fflush between).
want = [mark["two"] if i % 3 == 2 else mark["one"] for i in range(6)]
lines = [(s["source"] or {}).get("line") for s in got]
callers = [(s["source"] or {}).get("caller_line") for s in got]
funcs = [(s["source"] or {}).get("caller_function") for s in got]
if lines != [mark["save"]] * 6:
    print("FAIL: fprintf's lines %s, want %d each" % (lines, mark["save"])); bad = 1
if callers != want:
    print("FAIL: fprintf's callers' lines %s, want %s" % (callers, want)); bad = 1
if funcs != ["two" if i % 3 == 2 else "one" for i in range(6)]:
    print("FAIL: fprintf's callers %s" % funcs); bad = 1
# The varying format: the first call sizes the buffer (a step of its own), the other 9 fold,
# named by the parameter, not by one of the formats.
var = [s for s in doc["steps"] if (s.get("stdio_call") or {}).get("func") == "fprintf" and
       s["name"] == "two.txt"]
if [s["count"] for s in var] != [1, 9] or "fprintf(fp, format, ...) x 9:" not in var[1]["args"]:
    print("FAIL: the varying format: %s" % [(s["count"], s["args"]) for s in var]); bad = 1
# The direct write()s: put()'s line, called from three() or four() in turn; fsync's, main's.
wr = [s for s in doc["steps"] if s["name"] == "three.txt" and s["args"].split("(")[0].endswith("write")]
sy = [s for s in doc["steps"] if s["name"] == "three.txt" and "fsync(" in s["args"]]
want = [mark["four"] if i % 3 == 2 else mark["three"] for i in range(6)]
wsrc = [((s["source"] or {}).get("line"), (s["source"] or {}).get("caller_line"),
         (s["source"] or {}).get("caller_function")) for s in wr]
if wsrc != [(mark["put"], w, "four" if w == mark["four"] else "three") for w in want]:
    print("FAIL: write()'s sources %s, want line %d called from %s" % (wsrc, mark["put"], want))
    bad = 1
if [(s["source"] or {}).get("line") for s in sy] != [mark["sync"]] * 6:
    print("FAIL: fsync()'s lines %s" % [(s["source"] or {}).get("line") for s in sy]); bad = 1
tr = doc["program"]["tracer"]
# fprintf: 2 walks, 4 saved; write(): 2 walks, 4 saved; fsync(): 1 walk, 5 saved.
if tr["walks_saved"] < 4 + 4 + 5:
    print("FAIL: too few walks saved: %s" % tr); bad = 1
print("own-prog-callers: callers %s; writes %s; tracer %s" % (callers, wsrc, tr))
sys.exit(bad)
PY
finish
