#!/bin/sh
# SPDX-License-Identifier: MIT
# prog-foreign-sync.sh: "iobufviz -- PROGRAM" while another process syncs. tests/foreign/sleepy
# writes 20000 bytes, sleeps 3 s, closes; the test runs "sync -f" on its directory beside it,
# over and over. The kernel writes the file back during the sleep (the program's own
# cachestat says its pages are clean before close, and it made no sync call): no step of the
# program may be credited with the blocks that reached the disk then ("In this step ext4
# allocated ..."), and the step observed after it says "the kernel / another process wrote
# back" in its note (probe/wbwatch.c counts the writebacks of the file). The same program
# calling sync() itself is told no such thing. Needs root and tracefs (the writeback
# tracepoints), python3; else "SKIP: prog-foreign-sync: <reason>".
testname=prog-foreign-sync
. "$(dirname "$0")/lib.sh"
sleepy=$build/tests/foreign/sleepy
need python3 sync
[ -x "$sleepy" ] || { echo "FAIL: $sleepy not built"; exit 99; }
[ "$(id -u)" -eq 0 ] || skip "not root: the kernel's writebacks cannot be counted"
grep -qw tracefs /proc/filesystems || skip "no tracefs: the kernel's writebacks cannot be counted"
sync -f / 2>/dev/null || skip "this sync has no -f (syncfs)"

hammer=""
cleanup() {
	[ -n "$hammer" ] && kill "$hammer" 2>/dev/null && wait "$hammer" 2>/dev/null
}
mkdir "$tmp/w" "$tmp/t" "$tmp/own"

# The foreign sync: syncfs() of the filesystem of the program's directory, 5 times a second.
( while :; do sync -f "$tmp/w"; sleep 0.2; done ) &
hammer=$!
TMPDIR=$tmp/t "$bin" --headless --format=json --dir "$tmp/w" --timeout=60 -- "$sleepy" f.txt 3 \
	>"$tmp/foreign.json" 2>"$tmp/foreign.err" || bad "foreign: iobufviz exit $?: $(head -c 300 "$tmp/foreign.err")"
kill "$hammer" 2>/dev/null
wait "$hammer" 2>/dev/null
hammer=""

# The program's own sync() (no sync elsewhere from the test).
TMPDIR=$tmp/t "$bin" --headless --format=json --dir "$tmp/own" --timeout=60 -- "$sleepy" f.txt 1 sync \
	>"$tmp/own.json" 2>"$tmp/own.err" || bad "own: iobufviz exit $?: $(head -c 300 "$tmp/own.err")"

python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]
said = "the kernel / another process wrote back"

def load(name):
    p = os.path.join(tmp, name + ".json")
    return json.load(open(p)) if os.path.exists(p) and os.path.getsize(p) else None

def credited(doc):
    """The changes a step of the program is credited with: not between steps."""
    return [(s["index"], c["kind"], c["text"]) for s in doc["steps"] for c in s["changes"]
            if not c["between_steps"] and c["kind"] in ("allocated", "relocated")]

doc = load("foreign")
if doc is not None:
    out = (doc["program"]["stdout"] or "").split()
    d = [int(out[1]), int(out[2])] if len(out) >= 3 else [-1, -1]
    if d[1] < 0:
        print("SKIP: prog-foreign-sync: foreign: no cachestat here to tell the pages were written back")
    elif d[1] != 0:
        print("SKIP: prog-foreign-sync: foreign: the syncs did not take the file during the sleep (%s)" % d)
    else:
        check(credited(doc) == [], "foreign: no step is credited with the sync's blocks (%s)" % credited(doc))
        notes = [s["index"] for s in doc["steps"] if said in (s["note"] or "")]
        check(len(notes) >= 1, "foreign: a step says '%s' (%s)" %
              (said, [(s["index"], s["note"]) for s in doc["steps"]]))
        calls = [e["call"] for s in doc["steps"] for e in s["events"]]
        check(not any(c in ("sync", "syncfs", "fsync", "fdatasync") for c in calls),
              "foreign: the program made no sync call (%s)" % calls)

doc = load("own")
if doc is not None:
    notes = [(s["index"], s["note"]) for s in doc["steps"] if said in (s["note"] or "")]
    check(notes == [], "own: the program's own sync() is not another process's (%s)" % notes)
sys.exit(1 if checklib.failed else 0)
PY
finish
