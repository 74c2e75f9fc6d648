#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-moves.sh: "iobufviz -- PROGRAM" on programs that move file data without read or
# write: cp's copy_file_range copy of a 1,288,895-byte file is one step with its bytes, on the
# file it writes; a sendfile copy and a splice copy through a pipe likewise; stores through a
# shared mapping are a step at msync and at munmap whose dirty pages are those the program's
# own cachestat(2) saw; a mapping read and never stored to, of a file dirty from write(), is
# no "stores" step: it "may have stored" at most (no store observed); msync, munmap and a splice from a pipe name their file; pwritev2 with
# RWF_DSYNC reaches the disk (its page is clean after it), without it does not; a program that
# writes through an io_uring is told, in the transcript and in the terminal, that those calls
# are not observable (a named skip where the kernel refuses io_uring).
testname=own-prog-moves
. "$(dirname "$0")/lib.sh"
moves=$build/tests/foreign/moves
calls=$build/tests/foreign/calls
need python3
for p in "$moves" "$calls"; do
	[ -x "$p" ] || { echo "FAIL: $p not built"; exit 99; }
done
mkdir "$tmp/w" "$tmp/t" "$tmp/h"
# 1,288,895 bytes, as in the issue that asked for the copy to be seen.
python3 -c 'import sys
line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
open(sys.argv[1], "wb").write((line * (1288895 // len(line) + 1))[:1288895])' "$tmp/w/big.txt"

# Run NAME PROGRAM ARGS under iobufviz in $tmp/w: $tmp/NAME.json and $tmp/NAME.txt.
run() {
	name=$1
	shift
	for fmt in json text; do
		TMPDIR=$tmp/t "$bin" --headless --format=$fmt --dir "$tmp/w" --timeout=120 -- "$@" \
			>"$tmp/$name.$fmt" 2>"$tmp/$name.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL: $name: iobufviz exit $rc: $(head -c 300 "$tmp/$name.err")"
			fail=1
		fi
	done
}

if command -v cp >/dev/null; then
	run cp cp big.txt copy.txt
	cmp -s "$tmp/w/big.txt" "$tmp/w/copy.txt" || { echo "FAIL: cp: copy.txt is not big.txt"; fail=1; }
fi
run sendfile "$moves" sendfile big.txt sent.txt
run splice "$moves" splice big.txt spliced.txt
run map "$moves" map m.txt
run mapclean "$moves" map mc.txt clean
run mapread "$moves" mapread mr.txt
run dsync "$moves" dsync ds.txt
run calls "$calls" a b
run uring "$moves" uring u.txt

python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]
size = os.path.getsize(os.path.join(tmp, "w", "big.txt"))

def load(name):
    p = os.path.join(tmp, name + ".json")
    return json.load(open(p)) if os.path.exists(p) and os.path.getsize(p) else None

def copy_steps(doc, call):
    return [s for s in doc["steps"] if any(e["call"] == call for e in s["events"])]

# A copy: every call of it in one step, on the file it writes, with the file's bytes.
for name, call, out in (("cp", "copy_file_range", "copy.txt"), ("sendfile", "sendfile", "sent.txt"),
                        ("splice", "splice", "spliced.txt")):
    doc = load(name)
    if doc is None:
        continue
    steps = copy_steps(doc, call)
    if name == "cp" and not steps:
        print("SKIP: own-prog-moves: cp: this cp copies without copy_file_range")
        continue
    check(len(steps) == 1, "%s: its %s calls are one step (%d)" % (name, call, len(steps)))
    if not steps:
        continue
    s = steps[0]
    ev = [e for e in s["events"] if e["call"] == call]
    # The bytes that reached the file written: a splice copy's second pair of fds.
    into = [e for e in ev if e["fd"] == ev[-1]["fd"] and e["fd2"] == ev[-1]["fd2"]] \
        if call != "splice" else [e for e in ev if (e["fd"], e["fd2"]) != (ev[0]["fd"], ev[0]["fd2"])]
    moved = sum(max(e["result"], 0) for e in into)
    check(moved == size, "%s: the step moves the file's %d bytes (%d)" % (name, size, moved))
    check(s["count"] == len(s["events"]), "%s: count %d = its calls" % (name, s["count"]))
    check(s["name"] == out, "%s: the step is on the file it writes (%s)" % (name, s["name"]))
    check("%d B" % size in s["args"], "%s: its line says the bytes: %s" % (name, s["args"]))

# Stores through a shared mapping: a step at msync's and at munmap's entry, each with the
# dirty pages the program's own cachestat saw just before that call.
doc = load("map")
if doc is not None:
    d = [int(x) for x in (doc["program"]["stdout"] or "dirty -1 -1 -1").split()[1:]]
    steps = [s for s in doc["steps"] if s["name"] == "m.txt"]
    stores = [s for s in steps if s["op"] in ("stores", "may_store")]
    check(len(stores) == 2, "map: two stores steps (%d)" % len(stores))
    # A store is observed where the file keeps a dirty count (cachestat, not tmpfs).
    counted = [s["state"]["cache"]["source"] == "cachestat" and s["state"]["disk"].get("fs") != "tmpfs"
               for s in stores]
    check([s["op"] for s in stores] == ["stores" if c else "may_store" for c in counted],
          "map: the stores are observed where dirty pages are counted (%s, %s)" %
          ([s["op"] for s in stores], counted))
    msync = [s for s in steps if s["events"] and s["events"][0]["call"] == "msync"]
    munmap = [s for s in steps if s["events"] and s["events"][0]["call"] == "munmap"]
    check(len(msync) == 1 and len(munmap) == 1, "map: msync and munmap are steps on m.txt")
    if len(stores) == 2 and msync and munmap:
        i = [s["index"] for s in (stores[0], msync[0], stores[1], munmap[0])]
        check(i == sorted(i) and i[1] == i[0] + 1 and i[3] == i[2] + 1,
              "map: each stores step comes right before its call (steps %s)" % i)
        check(msync[0]["reaches_disk"], "map: msync(MS_SYNC) reaches the disk")
        if d[0] < 0 or stores[0]["state"]["cache"]["source"] != "cachestat":
            print("SKIP: own-prog-moves: map: no cachestat here to check the dirty pages by")
        else:
            got = [stores[0]["state"]["cache"]["dirty_pages"], msync[0]["state"]["cache"]["dirty_pages"],
                   stores[1]["state"]["cache"]["dirty_pages"], munmap[0]["state"]["cache"]["dirty_pages"]]
            check(d[0] > 0 and got[0] == d[0],
                  "map: the stores before msync left %s dirty pages; cachestat in the program: %d" % (got[0], d[0]))
            check(got[1] == d[1], "map: after msync %s dirty; the program: %d" % (got[1], d[1]))
            check(got[2] == d[2] and d[2] > 0,
                  "map: the store before munmap left %s dirty; the program: %d" % (got[2], d[2]))
            check(got[3] == d[2], "map: munmap writes nothing back: %s dirty" % got[3])

# Nothing stored after msync: munmap has no stores step (where the cache's dirty pages say
# so: cachestat, and not tmpfs, which keeps no dirty count).
doc = load("mapclean")
if doc is not None:
    steps = [s for s in doc["steps"] if s["name"] == "mc.txt"]
    kinds = [s["op"] if s["op"] != "call" else s["events"][0]["call"] for s in steps]
    cache = [s["state"]["cache"]["source"] for s in steps if s["op"] == "stores"]
    fs = [s["state"]["disk"].get("fs") for s in steps if s["op"] == "stores"]
    if not cache or cache[0] != "cachestat" or fs[0] == "tmpfs":
        print("SKIP: own-prog-moves-clean: no dirty count here (%s on %s)" % (cache, fs))
    else:
        check(kinds.count("stores") == 1 and "munmap" in kinds and
              kinds[kinds.index("munmap") - 1] == "msync",
              "mapclean: the stores before msync are a step, munmap after msync with no store "
              "has none (%s)" % kinds)

# A mapping the program reads and never stores to, of a file dirty from its write()s: the
# dirty pages at munmap are those the writes left (the program's own cachestat says so), so
# no step claims a store; at most one "may have stored", with a note that none was observed.
doc = load("mapread")
if doc is not None:
    out = (doc["program"]["stdout"] or "").split()
    d = [int(out[1]), int(out[2])] if len(out) >= 3 else [-1, -1]
    steps = [s for s in doc["steps"] if s["name"] == "mr.txt"]
    kinds = [s["op"] if s["op"] != "call" else s["events"][0]["call"] for s in steps]
    check("stores" not in kinds, "mapread: no step says the program stored (%s)" % kinds)
    text = open(os.path.join(tmp, "mapread.text")).read()
    check("stores through the shared mapping" not in text,
          "mapread: the text transcript claims no store")
    may = [s for s in steps if s["op"] == "may_store"]
    if d[0] < 0:
        print("SKIP: own-prog-moves: mapread: no cachestat here to check the dirty pages by")
    elif d[1] != d[0]:
        # A sync elsewhere on this machine wrote them back during the run: no step is owed.
        print("SKIP: own-prog-moves: mapread: written back during the run (%s)" % d)
    else:
        check(d[0] == 3, "mapread: the program's own cachestat: 3 dirty after write (%s)" % d)
        check(len(may) == 1 and kinds[kinds.index("may_store") + 1] == "munmap" and
              "no store observed" in (may[0]["note"] or ""),
              "mapread: one 'may have stored' step before munmap, with its note (%s)" % kinds)

# msync, munmap and a splice from a pipe into a file name their file.
doc = load("calls")
if doc is not None:
    for call, want in (("msync", "a"), ("munmap", "a")):
        s = [s for s in doc["steps"] if s["op"] == "call" and s["events"][0]["call"] == call]
        check(len(s) == 1 and s[0]["name"] == want, "calls: %s's step is on %s (%s)" %
              (call, want, [x["name"] for x in s]))
    s = [s for s in doc["steps"] if s["op"] == "call" and
         any(e["call"] == "splice" and e["offset2"] == 20000 for e in s["events"])]
    check(len(s) == 1 and s[0]["name"] == "b", "calls: splice(pipe -> b)'s step is on b (%s)" %
          [x["name"] for x in s])

# pwritev2 with RWF_DSYNC reaches the disk: its page is clean when it returns.
doc = load("dsync")
if doc is not None:
    s = [s for s in doc["steps"] if s["op"] == "call" and s["events"][0]["call"] == "pwritev2"]
    check(len(s) == 2, "dsync: two pwritev2 steps (a RWF_DSYNC one does not fold) (%d)" % len(s))
    if len(s) == 2:
        check(s[0]["reaches_disk"] and "RWF_DSYNC" in (s[0]["events"][0]["detail"] or ""),
              "dsync: pwritev2(RWF_DSYNC) reaches the disk")
        check(s[0]["state"]["cache"]["dirty_pages"] in (0, None),
              "dsync: its page is clean after it (%s dirty)" % s[0]["state"]["cache"]["dirty_pages"])
        check(not s[1]["reaches_disk"], "dsync: pwritev2 with no flag does not")

# io_uring: said, in the step that made the ring and at the end; its write is no step.
said = "this program submits I/O through io_uring: calls not observable"
doc = load("uring")
if doc is not None and doc["program"]["exit_code"] == 77:
    print("SKIP: own-prog-moves: io_uring: the kernel refuses it here: " +
          (doc["program"]["stderr"] or "").strip())
    open(os.path.join(tmp, "uring.refused"), "w").close()
elif doc is not None:
    setup = [s for s in doc["steps"] if s["op"] == "call" and s["events"][0]["call"] == "io_uring_setup"]
    check(len(setup) == 1 and setup[0]["note"] == said, "uring: io_uring_setup's step says: " + said)
    check(doc["program"]["unseen"] == said, "uring: the program says it: %s" % doc["program"]["unseen"])
    writes = [e for s in doc["steps"] if s["name"] == "u.txt" for e in s["events"] if e["bytes"] > 0]
    check(not writes and os.path.getsize(os.path.join(tmp, "w", "u.txt")) == 5000,
          "uring: u.txt has the 5000 bytes, and no step wrote them")
    text = open(os.path.join(tmp, "uring.text")).read()
    check(text.count(said) == 2, "uring: the text transcript says it at the step and at the end")
sys.exit(1 if checklib.failed else 0)
PY

# The terminal says it too, once the ring is made.
if [ ! -e "$tmp/uring.refused" ] && command -v tmux >/dev/null 2>&1; then
	tmux_new m 160 40 "TMPDIR='$tmp/t' '$bin' --dir '$tmp/w' -- '$moves' uring u.txt; sleep 60"
	# n until the step that makes the ring is shown (each poll takes one step).
	if wait_for '{ tmux_cmd m send-keys -t m n; tmux_screen m | grep -F -q "io_uring: calls not observable"; }'; then
		echo "ok: uring: the terminal says the io_uring's calls are not observable"
	else
		bad "uring: the terminal does not say it:"
		tmux_screen m | sed 's/^/  | /'
	fi
	# q while the program is stopped mid-way: iobufviz ends at once, and takes the program
	# with it (a tracee stopped on its way out goes on only when resumed: it once waited out
	# a 5 s grace, and a hang-up in that time left it waiting for ever).
	tmux_cmd m send-keys -t m q
	if wait_for '! pgrep -f -- "--dir $tmp/w -- " >/dev/null' 2; then
		echo "ok: uring: q ends iobufviz and its program within 2 s"
	else
		bad "uring: iobufviz still runs 2 s after q: $(pgrep -fa -- "--dir $tmp/w -- ")"
	fi
	# A hang-up mid-run (the terminal closed): the same, through the fatal-signal path.
	tmux_new h 100 30 "TMPDIR='$tmp/t' '$bin' --dir '$tmp/h' -- '$moves' uring u.txt; sleep 60"
	wait_for '{ tmux_cmd h send-keys -t h n; tmux_screen h | grep -F -q "io_uring: calls not observable"; }' >/dev/null
	tmux_kill h
	if wait_for '! pgrep -f -- "--dir $tmp/h -- " >/dev/null' 2; then
		echo "ok: uring: a hang-up ends iobufviz and its program within 2 s"
	else
		bad "uring: iobufviz still runs 2 s after a hang-up: $(pgrep -fa -- "--dir $tmp/h -- ")"
	fi
elif [ ! -e "$tmp/uring.refused" ]; then
	skip_part "uring in the terminal" "tmux not installed"
fi
finish
