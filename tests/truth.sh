#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/truth.sh: the reads and writes on the scratch file that iobufviz's own tracer reports
# are exactly those strace sees (count, order, sizes, results). Under strace, iobufviz's
# ptrace is refused, so the second run also exercises the /proc/PID/io fallback.
testname=truth
. "$(dirname "$0")/lib.sh"
need strace python3
scen=$src/tests/truth.yaml

"$bin" --headless --format=json --trace=ptrace --dir "$tmp" "$scen" >"$tmp/ours.json" ||
	{ echo "FAIL: iobufviz --trace=ptrace failed"; cat "$tmp/ours.json"; exit 1; }
# LeakSanitizer cannot run under ptrace (sanitizer builds): no leak check in this run.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -ff -y -qq -o "$tmp/st" -e trace=read,write,pread64,pwrite64,readv,writev \
	"$bin" --headless --format=json --dir "$tmp" "$scen" >"$tmp/fallback.json" ||
	{ echo "FAIL: iobufviz under strace failed"; cat "$tmp/fallback.json"; exit 1; }

python3 - "$tmp" <<'PY' || fail=1
import glob, json, re, sys
tmp = sys.argv[1]
ours = json.load(open(tmp + "/ours.json"))
fallback = json.load(open(tmp + "/fallback.json"))
assert ours["environment"]["trace"] == "ptrace", "first run did not use ptrace"
assert fallback["environment"]["trace"] == "procio", "under strace, expected the procio fallback"
io = ("read", "write", "pread64", "pwrite64", "readv", "writev")
mine = [(e["call"], e["bytes"], e["result"]) for s in ours["steps"] for e in s["events"]
        if e["call"] in io]
assert any(e["child"] for s in ours["steps"] for e in s["events"]), "no call marked the child's"
# strace -y: write(3</tmp/.../iobufviz.XXXXXX/scratch>, "..."..., 4096) = 4096
pat = re.compile(r'^(\w+)\((\d+)<([^>]*)>, "(?:[^"\\]|\\.)*"(?:\.\.\.)?, (\d+)(?:, \d+)?\)\s+= (-?\d+)')
theirs = []
# -ff: one log per process, so no call is split by another's; a child of the worker (fork)
# touches the file while the worker waits for it, so the logs in pid order are in call order.
for log in sorted(glob.glob(tmp + "/st.*"), key=lambda p: int(p.rsplit(".", 1)[1])):
    for line in open(log):
        m = pat.match(line)
        if m and m.group(1) in io and re.search(r'/iobufviz\.[^/]+/scratch$', m.group(3)):
            theirs.append((m.group(1), int(m.group(4)), int(m.group(5))))
print("iobufviz (ptrace):", len(mine), "calls;", "strace:", len(theirs), "calls")
for a, b in zip(mine, theirs):
    print("  %-24s %-24s %s" % (a, b, "" if a == b else "<-- differs"))
assert len(mine) >= 10, "too few calls recorded: %r" % (mine,)
assert mine == theirs, "the tracer and strace disagree"
# The fallback run's totals match too: same number of read/write calls and bytes per step.
# Except the calls of a child after fork: /proc/PID/io counts the worker's own calls only.
for s1, s2 in zip(ours["steps"], fallback["steps"]):
    if s1["op"] in ("fork", "exit", "_exit"):
        continue
    c1, c2 = s1["calls"], s2["calls"]
    for k in ("write", "read", "bytes_written", "bytes_read"):
        assert c1[k] == c2[k], "step %d %s: ptrace %d, procio %d" % (s1["index"], k, c1[k], c2[k])
print("ok: same calls, same order, same sizes; fallback totals agree")
PY
finish
