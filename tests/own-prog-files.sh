#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-files.sh: a flush stdio makes from code the shim cannot see (putc_unlocked, inline
# with -O; tests/foreign/files.c) names the FILE whose buffer held the bytes, not the fd's
# usual stream: of two fdopen of one fd, the one written, by the address the program printed;
# of stdout and an fdopen(1), each its own (and so do the stdio calls on them); and a process
# with 40 FILEs open (more than the 32 once looked through) still has its flushes found on its
# oldest and newest stream, with every stream in the step; so does one with 4000 streams in memory (fmemopen) beside its file;
# past 4096 the run says that its calls were not looked through. exit()'s flush of stdout and an
# fdopen(1) is a step per FILE, in glibc's order, each with the other as it then is. The calls on each file equal
# strace -f's (name, fd, size, result, order).
testname=own-prog-files
. "$(dirname "$0")/lib.sh"
need python3 strace
prog=$build/tests/foreign/files
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
if command -v nm >/dev/null 2>&1 && nm -D "$prog" | grep -Eq ' U putc_unlocked'; then
	skip "the build calls putc_unlocked (CFLAGS without -O): nothing is unseen"
fi
for m in share stdout exit many mem4000 mem4100; do
	mkdir "$tmp/w-$m" "$tmp/s-$m"
	case $m in
	share) set -- share out.txt ;;
	stdout) set -- stdout ;;
	exit) set -- exit ;;
	many) set -- many 40 out ;;
	mem*) set -- mem "${m#mem}" out.txt ;;
	esac
	"$bin" --headless --format=json --dir "$tmp/w-$m" -- "$prog" "$@" >"$tmp/$m.json" \
		2>"$tmp/$m.err" || bad "iobufviz $m exit $?: $(head -c 300 "$tmp/$m.err")"
	# stdout to a regular file, as iobufviz keeps it.
	(cd "$tmp/s-$m" && strace -f -y -qq -s 0 -o "$tmp/$m.strace" "$prog" "$@" \
		>"$tmp/s-$m/stdout" 2>/dev/null) || bad "strace $m exit $?"
done

# The text of exit: the other FILE on fd 1 is listed beside the step's own.
mkdir "$tmp/w-exit-text"
"$bin" --headless --dir "$tmp/w-exit-text" -- "$prog" exit >"$tmp/exit.txt" 2>&1 ||
	bad "iobufviz exit (text) exit $?"

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]
said = re.compile(r"stdio flushing (\w+)'s buffer(?: \(FILE\* (0x[0-9a-f]+), one of (\d+) on "
                  r"fd (\d+)\))?, from code iobufviz cannot see")

def load(m):
    return json.load(open(os.path.join(tmp, m + ".json")))

def flushes(doc, fd, path=None):
    """(name, FILE*, of how many, fd) for each unseen write on fd (of path), as its step
    words it."""
    out = []
    for s in doc["steps"]:
        for e in s["events"]:
            if (e["call"] == "write" and e["fd"] == fd and e["origin"] == "stdio" and
                    s["op"] == "call" and (path is None or s["file"] == path)):
                w = said.search(s["args"])
                out.append(w.groups() if w else ("?", s["args"]))
    return out

def writes(doc, fd, path=None):
    """(bytes, result) of every write on fd (of path), in order."""
    return [(e["bytes"], e["result"]) for s in doc["steps"] for e in s["events"]
            if e["call"] == "write" and e["fd"] == fd and (path is None or s["file"] == path)]

def strace_writes(m, name):
    """(bytes, result) of every write strace saw on the file named name, in order."""
    return checklib.strace_rw(os.path.join(tmp, m + ".strace"), "write", name)

# Two fdopen of one fd: b was written, and its flushes name b.
doc = load("share")
ptr = dict(re.findall(r"(\w)=(0x[0-9a-f]+)", doc["program"]["stderr"]))
out = os.path.join(tmp, "w-share", "out.txt")
fd = next(e["fd"] for s in doc["steps"] if s["file"] == out for e in s["events"]
          if e["call"] == "write")
got = flushes(doc, fd, out)
check(len(got) >= 2 and all(g == ("fp", ptr.get("b"), "2", str(fd)) for g in got),
      "two fdopen of fd %d: each flush of b names b (%s), one of 2: %s" % (fd, ptr, got))
check(writes(doc, fd, out) == strace_writes("share", "out.txt"),
      "share: the writes on out.txt equal strace's: %s / %s"
      % (writes(doc, fd, out), strace_writes("share", "out.txt")))

# stdout and an fdopen(1), o: o's flushes name o, then stdout's name stdout.
doc = load("stdout")
ptr = dict(re.findall(r"(\w)=(0x[0-9a-f]+)", doc["program"]["stderr"]))
got = flushes(doc, 1)
n = len([g for g in got if g[0] == "fp"])
check(n >= 2 and got == [("fp", ptr.get("o"), "2", "1")] * n + [("stdout", None, None, None)] * n,
      "stdout and fdopen(1) (o=%s): o's flushes, then as many of stdout's, each named its "
      "own: %s" % (ptr.get("o"), got))
words = [re.sub(r"^\[\d+\] ", "", s["args"]).split(" -> ")[0].split(":")[0]
         for s in doc["steps"] if s["op"] != "call"]
check([x for x in words if "fdopen" in x or "fflush" in x or "exit()" in x] ==
      ['fp = fdopen(1, "w")', "fflush(fp) = 0", "exit() flushes stdout"],
      "stdout and fdopen(1): its stdio calls name o fp, and exit() flushes stdout: %s" % words)
# stdio's fstat before a buffer: o and stdout have none (which one cannot be told), then only
# stdout has none.
sizing = [re.search(r"asking the block size to size (.*?), from code", s["args"]).group(1)
          for s in doc["steps"] if s["op"] == "call" and "asking the block size" in s["args"]]
check(sizing == ["a new buffer, for one of the 2 FILEs on fd 1 that have none",
                 "stdout's new buffer"],
      "stdout and fdopen(1): stdio's fstat sizes a buffer for one of the two, then stdout's: %s"
      % sizing)
check(writes(doc, 1) == strace_writes("stdout", "stdout"),
      "stdout: the writes on fd 1 equal strace's: %s / %s"
      % (writes(doc, 1), strace_writes("stdout", "stdout")))

# exit() flushes o (an fdopen(1), the newer) and then stdout: each step names its FILE and
# shows the other as it is then (stdout's 10 bytes still pending at o's flush).
doc = load("exit")
every = checklib.every_stream(doc)
got = [(re.sub(r"^\[\d+\] ", "", s["args"]),
        sorted((x["name"], x["pending"]) for x in every[i] or [] if x["fd"] == 1))
       for i, s in enumerate(doc["steps"]) if (s.get("stdio_call") or {}).get("func") == "exit"]
check(got == [("exit() flushes fp: write(1, 5) = 5", [("fp", 0), ("stdout", 10)]),
              ("exit() flushes stdout: write(1, 10) = 10", [("fp", 0), ("stdout", 0)])],
      "exit() with stdout and fdopen(1): o's flush, then stdout's, each named and the other "
      "as it then was: %s" % got)
text = open(os.path.join(tmp, "exit.txt")).read()
first = re.search(r"exit\(\) flushes fp: .*?(?=\n\n|$)", text, re.S)
check(first is not None and re.search(r"\n  FILE    stdout on fd 1: fully buffered, buffer \d+ B, "
                                      r"pending 10 B", first.group(0)) is not None,
      "exit (text): at o's flush, stdout on fd 1 is listed with its 10 bytes pending: %s"
      % (first.group(0) if first else text[-600:]))
check(writes(doc, 1) == strace_writes("exit", "stdout"),
      "exit: the writes on fd 1 equal strace's: %s / %s"
      % (writes(doc, 1), strace_writes("exit", "stdout")))

# 40 FILEs: the oldest (last in glibc's chain) and the newest are looked through.
doc = load("many")
every = {s["index"]: v for s, v in zip(doc["steps"], checklib.every_stream(doc))}
for i in (0, 39):
    path = os.path.join(tmp, "w-many", "out.%d" % i)
    steps = [s for s in doc["steps"] if s["file"] == path]
    fd = next(e["fd"] for s in steps for e in s["events"] if e["call"] == "write")
    got = flushes(doc, fd, path)
    check(len(got) >= 2 and all(g == ("fp", None, None, None) for g in got),
          "40 FILEs: the flushes of out.%d are stdio's, named fp: %s" % (i, got))
    full = [s for s in steps if s["op"] == "call" and "stdio flushing" in s["args"]]
    check(full and all(len(every[s["index"]] or []) == 43 for s in full),
          "40 FILEs: the step knows all 43 streams (40 and stdin, stdout, stderr): %s"
          % [len(every[s["index"]] or []) for s in full])
    check(writes(doc, fd, path) == strace_writes("many", "out.%d" % i),
          "many: the writes on out.%d equal strace's: %s / %s"
          % (i, writes(doc, fd, path), strace_writes("many", "out.%d" % i)))
check(doc["program"]["unseen"] is None, "no note of streams not looked through: %s"
      % doc["program"]["unseen"])

# 4000 streams in memory and the file's: looked through; 4100: more than 4096, said so.
for n in (4000, 4100):
    doc = load("mem%d" % n)
    every = {s["index"]: v for s, v in zip(doc["steps"], checklib.every_stream(doc))}
    path = os.path.join(tmp, "w-mem%d" % n, "out.txt")
    steps = [s for s in doc["steps"] if s["file"] == path]
    full = [s for s in steps if s["op"] == "call" and s["events"][0]["call"] == "write"]
    fd = full[0]["events"][0]["fd"] if full else -1
    check(writes(doc, fd, path) == strace_writes("mem%d" % n, "out.txt"),
          "mem %d: the writes on out.txt equal strace's: %s / %s"
          % (n, writes(doc, fd, path), strace_writes("mem%d" % n, "out.txt")))
    many = "this program has more than 4096 FILEs open at once"
    if n == 4000:
        got = flushes(doc, fd, path)
        check(len(got) >= 2 and all(g == ("fp", None, None, None) for g in got) and
              all(len(every[s["index"]] or []) == 4004 for s in full),
              "mem 4000: the file's flushes are stdio's, named fp, beside 4003 streams: %s %s"
              % (got, [len(every[s["index"]] or []) for s in full]))
        check(doc["program"]["unseen"] is None, "mem 4000: nothing said not looked through")
    else:
        check(full and all(e["origin"] == "direct" for s in full for e in s["events"]) and
              all(s["note"].startswith(many) for s in full) and
              (doc["program"]["unseen"] or "").startswith(many),
              "mem 4100: the flushes were not looked through, and the step and the run say "
              "so: %s / %s" % ([(s["note"], [e["origin"] for e in s["events"]]) for s in full],
                               doc["program"]["unseen"]))
PY
finish
