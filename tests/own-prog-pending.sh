#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-pending.sh: "iobufviz -- PROGRAM": after every step, the pending bytes of the stream
# it used equal the program's own __fpending after that call (tests/foreign/pend reports it
# on a FIFO, which is no step), for an fgetc/fputc copy, a mix of fprintf and write, and a
# tail; in a program of 3000 random calls on four streams at once, every stream's pending and
# read-ahead bytes at every step equal the program's own after the step's last call; exit()'s
# flush of each stream is a stdio step of its own that writes what was pending and leaves
# nothing; the last step shows every stream flushed; 3000 fprintf calls filling seven buffers
# one after another are one step (the copy's fgetc and fputc steps, which alternate, are not);
# 40,100 fputc with no system call between fold by 16384, each step's pending exact; two
# threads writing a stream each at once: each stream's pending after every call, and a
# thread's last call, which writes and then ends the thread with no stop of its own, is a step
# with its writes (every byte of both files written in a step). A folded step says what its
# calls did ("fgetc(fp) x 3966: 3965 B, then EOF (end of file)"), never one result "x N" as
# if every call had it. The exit step of a program that last opened a file it only read
# shows the file the step before it showed, flushed, in JSON and text.
testname=own-prog-pending
. "$(dirname "$0")/lib.sh"
need python3
[ -x "$build/tests/foreign/pend" ] || { echo "FAIL: $build/tests/foreign/pend not built"; exit 99; }
mkdir "$tmp/work"
head -c 8900 /dev/urandom >"$tmp/work/in"
seq 1 3000 >"$tmp/work/lines"
head -c 60000 /dev/urandom | od -An -x >"$tmp/work/text"

# Run pend MODE ARGS under iobufviz into $tmp/NAME.json; its reports into $tmp/NAME.rep.
run() {
	name=$1
	shift
	mkfifo "$tmp/$name.fifo" || exit 99
	cat "$tmp/$name.fifo" >"$tmp/$name.rep" &
	reader=$!
	"$bin" --headless --format=json --dir "$tmp/work" --timeout=60 -- \
		"$build/tests/foreign/pend" "$tmp/$name.fifo" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
	wait $reader
	if [ $rc -ne 0 ]; then
		echo "FAIL: $name: iobufviz exit $rc: $(head -c 300 "$tmp/$name.err")"
		fail=1
	fi
}

run copy copy in out
run mix mix mixed
run tail tail 3 lines
run lines lines 3000 many
run random random 11 3000 text r1 r2
run burst burst 40000 burst
run threads threads 2000 t1 t2
run serial serial 20 s1
run reread reread kept in
"$bin" --headless --dir "$tmp/work" --timeout=60 -- "$build/tests/foreign/pend" - reread kept in \
	>"$tmp/reread.txt" 2>&1 || { echo "FAIL: reread: text: iobufviz exit $?"; fail=1; }

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp = sys.argv[1]

for name in ("copy", "mix", "tail", "lines", "threads", "reread", "serial"):
    doc = json.load(open(os.path.join(tmp, name + ".json")))
    reps = {}
    for line in open(os.path.join(tmp, name + ".rep")):
        fd, p = map(int, line.split())
        reps.setdefault(fd, []).append(p)
    used = {fd: 0 for fd in reps}
    checked = mism = 0
    flushed = {}
    for s in doc["steps"]:
        if s["op"] == "stdio" and s["stdio_call"]["func"] == "exit":
            fd = s["stdio_call"]["fd"]
            wrote = sum(e["result"] for e in s["events"] if e["call"] == "write")
            last = reps[fd][used[fd] - 1] if fd in reps and used[fd] else None
            check(all(e["origin"] == "stdio" for e in s["events"]) and
                  s["args"].find("exit() flushes") >= 0,
                  "%s: exit()'s flush of fd %d is a stdio step, origin stdio" % (name, fd))
            check(wrote == last and s["state"]["stdio"]["pending"] == 0,
                  "%s: it writes the %s B pending (wrote %d) and leaves 0 (left %d)" %
                  (name, last, wrote, s["state"]["stdio"]["pending"]))
            flushed[fd] = True
            continue
        if s["op"] == "stdio":
            fd, func = s["stdio_call"]["fd"], s["stdio_call"]["func"]
            if func == "fclose":
                continue
        elif s["op"] == "call" and s["events"]:
            fd = s["events"][0]["fd"]
        else:
            continue
        if fd not in reps:
            continue
        used[fd] += s["count"]
        if used[fd] > len(reps[fd]):
            check(False, "%s: more calls on fd %d than the program reported" % (name, fd))
            break
        want = reps[fd][used[fd] - 1]
        got = s["state"]["stdio"]["pending"]
        checked += s["count"]
        if got != want:
            mism += 1
            if mism <= 3:
                print("  %s: step %d (%s): pending %d, __fpending %d" %
                      (name, s["index"], s["args"], got, want))
    check(mism == 0 and all(used[fd] == len(reps[fd]) for fd in reps),
          "%s: pending = the program's __fpending after each of its %d calls (%d steps differ; "
          "calls seen %s of %s)" % (name, checked, mism, used,
                                    {fd: len(v) for fd, v in reps.items()}))
    last, every = doc["steps"][-1], checklib.every_stream(doc)[-1]
    check(last["op"] == "exit" and every is not None and
          all(x["pending"] == 0 for x in every),
          "%s: the last step shows every stream flushed or closed" % name)
    if name == "lines":
        # Its fprintf steps, one after the other, each ended by a write, are one step (the
        # state after its last call); the calls after the last write, another (fclose's).
        p = [s for s in doc["steps"] if s["op"] == "stdio" and s["stdio_call"]["func"] == "fprintf"]
        w = [len([e for e in s["events"] if e["call"] == "write"]) for s in p]
        size = os.path.getsize(os.path.join(tmp, "work", "many"))
        check(len(p) == 2 and sum(s["count"] for s in p) == 3000 and w == [size // 4096, 0],
              "lines: 3000 fprintf calls (%d write()s of 4096) are 2 steps: counts %s, writes %s"
              % (size // 4096, [s["count"] for s in p], w))
    elif name == "threads":
        wrote, pids = {}, set()
        for s in doc["steps"]:
            for e in s["events"]:
                if e["call"] == "write" and e["fd"] in reps:
                    wrote[e["fd"]] = wrote.get(e["fd"], 0) + e["result"]
                    pids.add(s["pid"])
        size = sum(os.path.getsize(os.path.join(tmp, "work", f)) for f in ("t1", "t2"))
        check(len(reps) == 2 and len(pids) >= 2 and sum(wrote.values()) == size,
              "threads: two threads' writes, %s B on fds %s from %d threads, are the %d B of "
              "their files" % (sum(wrote.values()), sorted(wrote), len(pids), size))
        ends = [(s["exit"]["thread"], s["args"]) for s in doc["steps"] if s["op"] == "exit"]
        child = [e for s in doc["steps"] for e in s["events"] if e["child"]]
        check(len(ends) == 3 and [t for t, _ in ends] == [True, True, False] and
              all("thread ended" in a for _, a in ends[:2]) and "exited 0" in ends[2][1] and
              not child,
              "threads: two threads end ('thread ended', exit.thread), then the process "
              "('exited 0'); no call of a thread is a child's: %s, %d child calls" % (ends, len(child)))
    elif name == "reread":
        # It wrote "kept", then read and closed "in": the exit shows "kept" (the file the step
        # before showed, exit's flush of it), its stream flushed; not "in", opened last.
        before = doc["steps"][-2]
        st = last["state"]["stdio"]
        check(before["name"] == "kept" and last["name"] == "kept" and st["open"] and
              st["fd"] == before["stdio_call"]["fd"] and st["pending"] == 0,
              "reread: the exit step shows the file the step before showed, flushed: %s after "
              "%s, stream fd %d pending %d" % (last["name"], before["name"], st["fd"],
                                                st["pending"]))
        text = open(os.path.join(tmp, "reread.txt")).read().split("\n\nstep ")[-1]
        check(re.search(r"\] exited 0\n  file    kept\n  stdio   FILE\* on fd %d, "
                        r"[^\n]*pending 0 B\n" % st["fd"], text) is not None,
              "reread: the text's exit step says the same: %r" % text[:200])
    elif name == "serial":
        # Each thread's one fwrite, which writes, then its end; the next thread reuses its
        # stack (and the shim's state in it): nothing of the one before may be lost.
        ops = [("f" if s["op"] == "stdio" and s["stdio_call"]["func"] == "fwrite" else
                "e" if s["op"] == "exit" and s["exit"]["thread"] else
                "c" if s["op"] == "stdio" and s["stdio_call"]["func"] == "fclose" else "")
               for s in doc["steps"]]
        ops = "".join(ops)
        wrote = sum(e["result"] for s in doc["steps"] for e in s["events"] if e["call"] == "write")
        size = os.path.getsize(os.path.join(tmp, "work", "s1"))
        check(ops == "fe" * 20 + "c" and wrote == size == 100000,
              "serial: 20 threads one after another: each fwrite, then its end, then fclose "
              "('%s'); %d B written of the file's %d" % (ops, wrote, size))
    elif name != "copy":
        check(len(flushed) >= 1, "%s: exit() flushed a stream, as a step of its own" % name)
    else:
        check(4 in flushed or 5 in flushed or len(flushed) == 1,
              "copy: exit() flushed the output stream it never closed")
        n = len(doc["steps"])
        check(n < 40, "copy: 8900 bytes by fgetc/fputc fold into %d steps" % n)
        w = [s for s in doc["steps"] if any(e["call"] == "write" for e in s["events"])]
        check(len(w) == 3, "copy: three steps write (4096, 4096 and exit's 708): %d" % len(w))
        # 2 fopen, 8901 fgetc, 8900 fputc, 1 fclose: the calls, not the steps.
        n = doc["program"]["calls"]["stdio"]
        check(n == 17804, "copy: program.calls.stdio counts its 17804 stdio calls: %d" % n)

# A folded step says what its calls did: "CALL x N: [K lines, ]B B", and the calls that
# failed with their result ("then -1", "then 3 returned EOF", "each returned EOF", "3 of them
# returned EOF"), "(end of file)" when the last left its stream at the end.
def failed(base, r):
    return r == 0 if base in ("fread", "fwrite") else base != "perror" and r < 0


def results(c):
    # Each call's result (a run of n equal calls is one [arg, result, n]).
    return [e[1] for e in c["calls"] for _ in range(e[2] if len(e) > 2 else 1)]


def says(s):
    c = s["stdio_call"]
    base, res, n = c["func"].replace("_unlocked", ""), results(c), s["count"]
    bad = [i for i, r in enumerate(res) if failed(base, r)]
    out = ""
    if base in ("getline", "getdelim"):
        k = n - len(bad)
        out += "%d %s%s, " % (k, "line" if base == "getline" else "record", "" if k == 1 else "s")
    out += "%d B" % c["bytes"]
    if not bad:
        return out
    v = {"fread": "0", "fwrite": "0", "fgets": "NULL"}.get(base, "EOF")
    if base in ("getline", "getdelim") or base.endswith("printf"):
        v = "%d" % res[bad[-1]]
    if len(bad) == n:
        return out + ", each returned " + v
    if bad == list(range(n - len(bad), n)):
        return out + (", then " + v if len(bad) == 1 else ", then %d returned %s" % (len(bad), v))
    return out + ", %d of them returned %s" % (len(bad), v)


folds = 0
for name in ("copy", "mix", "tail", "lines", "random", "burst", "threads"):
    doc = json.load(open(os.path.join(tmp, name + ".json")))
    for s in doc["steps"]:
        if s["op"] != "stdio" or s["count"] < 2:
            continue
        folds += 1
        c = s["stdio_call"]
        m = re.match(r"\[\d+\] (\w+)\(.*?\) x (\d+): (.*?)( \(end of file\)| \(error\))?( -> .*)?$",
                     s["args"])
        want = says(s)
        last = c["calls"][-1][1]
        eof = failed(c["func"].replace("_unlocked", ""), last) and c["func"].startswith(
            ("fgetc", "getc", "fgets", "fread", "getline", "getdelim"))
        if not check(m is not None and m.group(1) == c["func"] and
                     int(m.group(2)) == s["count"] == len(results(c)) and m.group(3) == want and
                     (m.group(4) == " (end of file)") == eof,
                     "%s: step %d says what its %d calls did: %r (want %r%s)" %
                     (name, s["index"], s["count"], s["args"][:160], want,
                      " (end of file)" if eof else "")):
            break
check(folds > 20, "%d folded steps checked" % folds)

# What the programs did, from their input: the copy's 8901 fgetc read the 8900 bytes of "in",
# the last returned EOF; the tail's 3001 fgets read "lines", the last returned NULL.
for name, func, path, end in (("copy", "fgetc", "in", "then EOF (end of file)"),
                              ("tail", "fgets", "lines", "then NULL (end of file)")):
    doc = json.load(open(os.path.join(tmp, name + ".json")))
    p = [s for s in doc["steps"] if s["op"] == "stdio" and s["stdio_call"]["func"] == func]
    size = os.path.getsize(os.path.join(tmp, "work", path))
    calls = sum(s["count"] for s in p)
    moved = sum(s["stdio_call"]["bytes"] for s in p)
    ends = [s["args"] for s in p if end in s["args"]]
    want = size + 1 if func == "fgetc" else 3001
    check(calls == want and moved == size and len(ends) == 1 and ends[0] == p[-1]["args"],
          "%s: %d %s calls (want %d) moved %d B (the file: %d), the last step alone says %r: %s"
          % (name, calls, func, want, moved, size, end, p[-1]["args"][:120]))

# 40,100 fputc calls with no system call between them: a fold ends at 16384 calls (runs of
# those go on as one step, up to the last, which is its own), each step with the pending bytes
# its last call left (in a 1 MB buffer: the calls so far), though the tracer takes the calls
# from the log in runs that do not end where the folds do.
doc = json.load(open(os.path.join(tmp, "burst.json")))
reps = [int(line.split()[1]) for line in open(os.path.join(tmp, "burst.rep"))]
p = [s for s in doc["steps"] if s["op"] == "stdio" and s["stdio_call"]["func"] == "fputc"]
counts = [s["count"] for s in p]
pend = [s["state"]["stdio"]["pending"] for s in p]
cum = [sum(counts[:i + 1]) for i in range(len(counts))]
check(len(counts) >= 2 and all(c % 16384 == 0 for c in counts[:-1]) and cum[-1] == 40100 and
      pend == cum and reps == [0, 100, 40100],
      "burst: 40100 fputc are steps of %s calls, pending %s after each (the program: %s)" %
      (counts, pend, reps))

# Every stream of every step, as the program had it after the step's last call.
doc = json.load(open(os.path.join(tmp, "random.json")))
every = {s["index"]: v for s, v in zip(doc["steps"], checklib.every_stream(doc))}
reps = {}
for line in open(os.path.join(tmp, "random.rep")):
    parts = line.split()
    st = {}
    for x in parts[1:]:
        f, p, a = map(int, x.split(":"))
        st[f] = (p, a)
    reps.setdefault(int(parts[0]), []).append(st)
used = {fd: 0 for fd in reps}
bad = {"own": 0, "other": 0}
checked = missing = 0
for s in doc["steps"]:
    if s["op"] == "stdio":
        if s["stdio_call"]["func"] in ("exit", "fclose"):
            continue
        fd = s["stdio_call"]["fd"]
    elif s["op"] == "call" and s["events"]:
        fd = s["events"][0]["fd"]
    else:
        continue
    if fd not in reps:
        continue
    used[fd] += s["count"]
    if used[fd] > len(reps[fd]):
        check(False, "random: more calls on fd %d than the program reported" % fd)
        break
    want = reps[fd][used[fd] - 1]
    seen = {x["fd"]: x for x in every[s["index"]] or []}
    missing += len(set(want) - set(seen))
    for f, (p, a) in want.items():
        if f not in seen:
            continue
        checked += 1
        got = (seen[f]["pending"], seen[f]["read_avail"])
        if got != (p, a):
            kind = "own" if f == fd else "other"
            bad[kind] += 1
            if bad[kind] <= 3:
                print("  random: step %d (%s): fd %d (%s stream) shows pending %d, ahead %d; the "
                      "program had %d, %d" % (s["index"], s["args"][:60], f, kind, got[0], got[1],
                                              p, a))
check(bad["own"] == 0 and bad["other"] == 0 and missing == 0 and checked > 3000 and
      all(used[fd] == len(reps[fd]) for fd in reps),
      "random: every stream at every step = the program's own after the step's last call "
      "(%d checked; the step's own stream wrong %d times, another stream %d times, %d missing; "
      "calls seen %s of %s)" % (checked, bad["own"], bad["other"], missing, used,
                                {fd: len(v) for fd, v in reps.items()}))
last = doc["steps"][-1]
check(last["op"] == "exit" and all(x["pending"] == 0 for x in every[last["index"]] or [None]),
      "random: the last step shows every stream flushed")
sys.exit(1 if checklib.failed else 0)
PY

# A grading scenario's run: step sees exit()'s flush as the stdio library's write.
cd "$build" || exit 99
"$bin" --headless --format=json --allow-run=tests/foreign/pend - >"$tmp/grade.json" 2>"$tmp/grade.err" <<'YAML'
title: "fprintf, write, fprintf, no fclose: exit() writes what stdio held"
steps:
  - run: {program: tests/foreign/pend, args: ["-", "mix", "{file}"], timeout: 30}
    expect: {exit.status: 0, calls.write: 2, bytes.written: 46}
YAML
rc=$?
python3 - "$tmp/grade.json" "$rc" <<'PY' || fail=1
import json, sys
rc = int(sys.argv[2])
ev = [] if rc != 0 else json.load(open(sys.argv[1]))["steps"][0]["events"]
w = [(e["bytes"], e["origin"]) for e in ev if e["call"] == "write"]
ok = rc == 0 and w == [(17, "direct"), (29, "stdio")]
print(("ok: " if ok else "FAIL: ") + "run: the program's write is direct, exit()'s flush is stdio: "
      "exit %d, %s" % (rc, w))
sys.exit(0 if ok else 1)
PY
finish
