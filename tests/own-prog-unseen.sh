#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-unseen.sh: stdio's system calls made from no call the shim sees are stdio's. A
# program built with -O writes with putc_unlocked and fputc_unlocked and reads with
# getc_unlocked (inline code from <stdio.h>: only __overflow and __uflow are called, never
# wrapped; tests/foreign/unlocked.c): its buffer flushes and refills, whose bytes are in the
# stream's buffer, have origin stdio and say so in words, and so does the fstat that sizes its
# buffer (made from _IO_file_doallocate); the program's own fstat(fileno(fp)) and
# write(fileno(fp), ...) of its own buffer stay direct; and every call on the file equals
# strace -f's (name, fd, size, result, order).
testname=own-prog-unseen
. "$(dirname "$0")/lib.sh"
need python3 strace
prog=$build/tests/foreign/unlocked
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
# A build without -O calls putc_unlocked and getc_unlocked (then the shim sees them).
if command -v nm >/dev/null 2>&1 && nm -D "$prog" | grep -Eq ' U (f?putc|getc)_unlocked'; then
	skip "the build calls putc_unlocked (CFLAGS without -O): nothing is unseen"
fi
mkdir "$tmp/w" "$tmp/s"
"$bin" --headless --format=json --dir "$tmp/w" -- "$prog" out.txt >"$tmp/out.json" \
	2>"$tmp/err" || bad "iobufviz exit $?: $(head -c 300 "$tmp/err")"
"$bin" --headless --dir "$tmp/w" -- "$prog" out.txt >"$tmp/out.txt" 2>&1 ||
	bad "iobufviz (text) exit $?"
(cd "$tmp/s" && strace -f -y -qq -s 0 -o "$tmp/strace" "$prog" out.txt >/dev/null) ||
	bad "strace exit $?"

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]
doc = json.load(open(os.path.join(tmp, "out.json")))
path = os.path.join(tmp, "w", "out.txt")
steps = [s for s in doc["steps"] if s["file"] == path]
events = [(s, e) for s in steps for e in s["events"]]
rw = [(s, e) for s, e in events if e["call"] in ("read", "write")]
flush = [(s, e) for s, e in rw if e["call"] == "write" and e["bytes"] == 4096]
own = [(s, e) for s, e in rw if e["call"] == "write" and e["bytes"] == 100]
refill = [(s, e) for s, e in rw if e["call"] == "read"]
check(len(flush) == 2 and all(e["origin"] == "stdio" for s, e in flush),
      "putc_unlocked's two buffer flushes are stdio's: %s" % [e["origin"] for s, e in flush])
check(all(s["op"] == "call" and "stdio flushing fp's buffer, from code iobufviz cannot see"
          in s["args"] and "putc_unlocked" in s["args"] for s, e in flush),
      "their step says so: %s" % sorted({s["args"] for s, e in flush}))
# Stopped at the flush's end, glibc has not moved its pointers yet: the step shows the stream
# as the flush leaves it (nothing pending: the 4096 bytes are in the kernel now), not the full
# buffer read at that instant beside a page cache that already holds its bytes.
every = {s["index"]: v for s, v in zip(doc["steps"], checklib.every_stream(doc))}
left = [x["pending"] for s, e in flush for x in every[s["index"]] or [] if x["fd"] == e["fd"]]
check(left and all(p == 0 for p in left) and
      all(s["state"]["stdio"]["pending"] == 0 for s, e in flush),
      "after an unseen flush its stream holds nothing pending: %s" % left)
check(len(own) == 1 and own[0][1]["origin"] == "direct" and "stdio" not in own[0][0]["args"],
      "the program's own write(fileno(fp), own, 100) stays direct: %s"
      % [(e["origin"], s["args"]) for s, e in own])
check(len(refill) >= 3 and all(e["origin"] == "stdio" for s, e in refill) and
      all("stdio refilling fp's buffer" in s["args"] and "getc_unlocked" in s["args"]
          for s, e in refill if s["op"] == "call"),
      "getc_unlocked's refills are stdio's and say so: %s"
      % [(e["origin"], s["args"]) for s, e in refill])
stats = [(s, e) for s, e in events if e["call"] in ("fstat", "newfstatat")]
check([e["origin"] for s, e in stats] == ["direct", "stdio", "stdio"] and
      all("stdio asking the block size to size fp's new buffer" in s["args"]
          for s, e in stats[1:]) and "stdio" not in stats[0][0]["args"],
      "the program's own fstat is direct; stdio's two, before a buffer, are stdio's: %s"
      % [(e["origin"], s["args"]) for s, e in stats])
text = open(os.path.join(tmp, "out.txt")).read()
check("stdio flushing fp's buffer" in text and "stdio refilling fp's buffer" in text and
      re.search(r"write\(3, 4096\) x 2: 8192 B, each = 4096; stdio flushing", text) is not None,
      "the text output words them the same")

# Every call on out.txt, in order, as strace saw it: (call, fd, bytes, result).
ours = [(e["call"], e["fd"] if e["call"] != "openat" else -1,
         e["bytes"] if e["call"] in ("read", "write") else 0, e["result"])
        for s, e in events if e["call"] != "execve"]
theirs = []
for line in open(os.path.join(tmp, "strace")):
    m = re.match(r"^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)", line)
    if not m or "out.txt" not in line:
        continue
    call, args, res = m.group(1), m.group(2), int(m.group(3))
    if call == "openat":
        theirs.append((call, -1, 0, res))
        continue
    fd = re.match(r"^(\d+)<[^>]*out\.txt>", args)
    if not fd:
        continue
    parts = args.split(", ")
    theirs.append((call, int(fd.group(1)),
                   int(parts[2]) if call in ("read", "write") else 0, res))
check(ours == theirs, "the calls on out.txt equal strace's:\n  ours   %s\n  strace %s"
      % (ours, theirs))
sys.exit(1 if checklib.failed else 0)
PY
finish
