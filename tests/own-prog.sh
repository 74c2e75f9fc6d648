#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog.sh: "iobufviz --headless -- PROGRAM" on real programs: the steps of examples/copy
# and examples/tail against strace -f of the same runs, stdio pending against the program's
# own __fpending, a static binary, a fork, a signal, a timeout, and nothing left behind.
testname=own-prog
. "$(dirname "$0")/lib.sh"
need python3
for p in examples/copy examples/tail tests/foreign/fwrite tests/foreign/copy-static \
         tests/foreign/forks tests/foreign/killself; do
	[ -x "$build/$p" ] || { echo "FAIL: $build/$p not built"; exit 99; }
done
mkdir "$tmp/work" "$tmp/t"
# iobufviz makes its own scratch dir under $TMPDIR: this one must be empty at the end.
TMPDIR=$tmp/t
export TMPDIR
head -c 10000 /dev/urandom >"$tmp/work/in"
seq 1 12000 >"$tmp/work/lines"          # 64 KiB of numbered lines
cp "$tmp/work/in" "$tmp/in.orig"

# Run iobufviz headless as JSON on the program after --, into $tmp/$1.json; exit status 0.
run() {
	name=$1
	shift
	"$bin" --headless --format=json --dir "$tmp/work" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: $name: exit $rc: $(head -c 300 "$tmp/$name.err")"
		fail=1
	fi
}

run copy -- "$build/examples/copy" in out
run tail -- "$build/examples/tail" -n 3 lines
run fwrite -- "$build/tests/foreign/fwrite" fw
run static -- "$build/tests/foreign/copy-static" in out2
run forks -- "$build/tests/foreign/forks" c p
run killself -- "$build/tests/foreign/killself" k
start=$(date +%s)
run timeout --timeout=1 -- sleep 30
took=$(( $(date +%s) - start ))
[ $took -lt 10 ] || { echo "FAIL: --timeout=1 took ${took}s"; fail=1; }

# strace -f of the same copy and tail runs, fds shown as paths (-y).
have_strace=0
if command -v strace >/dev/null 2>&1 &&
   (cd "$tmp/work" && strace -f -y -qq -o "$tmp/copy.strace" "$build/examples/copy" in out.s) &&
   (cd "$tmp/work" && strace -f -y -qq -o "$tmp/tail.strace" "$build/examples/tail" -n 3 lines \
        >"$tmp/tail.out"); then
	have_strace=1
else
	skip_part "steps against strace -f" "strace is not installed or cannot trace here"
fi

python3 - "$tmp" "$have_strace" <<'PY' || fail=1
import json, os, re, sys
tmp, have_strace = sys.argv[1], sys.argv[2] == "1"
work = os.path.join(tmp, "work")
bad = 0
def check(cond, what):
    global bad
    if not cond:
        print("FAIL: " + what); bad = 1
    else:
        print("ok: " + what)
def load(name):
    return json.load(open(os.path.join(tmp, name + ".json")))

# Our steps on the given files: (call, bytes, result), in order.
def ours(doc, names):
    paths = {os.path.join(work, n) for n in names}
    out = []
    for s in doc["steps"]:
        # A stdio step holds the calls it made; a folded step, each of its calls.
        if s["op"] in ("call", "stdio") and s["file"] in paths:
            for e in s["events"]:
                out.append((e["call"], e["bytes"], e["result"]))
    return out

# strace's lines on the given files, as (call, bytes, result).
def theirs(path, names):
    out = []
    for line in open(path):
        m = re.match(r"^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)", line)
        if not m:
            continue
        call, args, res = m.group(1), m.group(2), int(m.group(3))
        hit = any(("<%s>" % os.path.join(work, n)) in line or
                  (call in ("openat", "open") and ('"%s"' % n) in args) for n in names)
        if not hit or call in ("execve",):
            continue
        b = 0
        if call in ("read", "write", "pread64", "pwrite64"):
            b = int(re.search(r",\s*(\d+)(?:,\s*\d+)?$", args).group(1))
        out.append((call, b, res))
    return out

copy = load("copy")
if have_strace:
    a, b = ours(copy, ["in", "out"]), theirs(os.path.join(tmp, "copy.strace"), ["in", "out.s"])
    b = [(c, n, r) for c, n, r in b]
    check(len(a) > 10 and a == b, "copy: %d steps on in/out = strace -f's (%d)" % (len(a), len(b)))
    if a != b:
        print("  ours:   %s\n  strace: %s" % (a[:12], b[:12]))
reads = [s for s in ours(copy, ["in"]) if s[0] == "read"]
check([r[1] for r in reads] == [1024] * len(reads) and sum(r[2] for r in reads) == 10000,
      "copy: read(1024) calls returning the 10000 bytes")
check(copy["program"]["exit_code"] == 0, "copy: the transcript says it exited 0")

tail = load("tail")
out = tail["program"]["stdout"]
check(out == "11998\n11999\n12000\n", "tail -n 3: printed the last three lines")
nread = sum(1 for s in ours(tail, ["lines"]) if s[0] in ("read", "pread64"))
check(nread <= 2, "tail -n 3 on 64 KiB: %d read calls (at most 2)" % nread)
if have_strace:
    a, b = ours(tail, ["lines"]), theirs(os.path.join(tmp, "tail.strace"), ["lines"])
    check(a == b, "tail: steps on the file = strace -f's (%d)" % len(a))
    if a != b:
        print("  ours:   %s\n  strace: %s" % (a, b))

fw = load("fwrite")
pend = [s["state"]["stdio"]["pending"] for s in fw["steps"]
        if s["op"] == "stdio" and s["stdio_call"]["func"] == "fwrite"]
own = [int(l.split()[1]) for l in (fw["program"]["stderr"] or "").splitlines()
       if l.startswith("pending ")]
check(len(pend) == 7 and pend == own, "fwrite: pending after each fwrite %s = the program's "
      "own __fpending %s" % (pend, own))

st = load("static")
check(not st["program"]["stdio_visible"] and "static" in (st["program"]["stdio_why"] or ""),
      "static: stdio not visible, and the transcript says why")
check(all(s["op"] in ("call", "exit") for s in st["steps"]) and
      sum(1 for s in st["steps"] if s["op"] == "call" and s["events"][0]["call"] == "read") >= 2,
      "static: system calls only, the reads are there")

fk = load("forks")
wr = [s for s in fk["steps"] if s["op"] == "call" and s["events"][0]["call"] == "write"]
check(len(wr) == 2 and wr[0]["pid"] != wr[1]["pid"] and
      all(s["args"].startswith("[%d]" % s["pid"]) for s in fk["steps"]),
      "forks: the child's and the parent's writes, labelled with their pids")
first = fk["program"]["pid"]
check(all(e["child"] == (s["pid"] != first) for s in fk["steps"] for e in s["events"]) and
      any(e["child"] for s in fk["steps"] for e in s["events"]),
      "forks: the child's calls, and only those, are marked child")

ks = load("killself")
check(ks["program"]["signal"] == "SIGUSR1" and ks["steps"][-1]["op"] == "exit" and
      ks["steps"][-1]["exit"]["signal"] > 0, "killself: killed by SIGUSR1, said so")

to = load("timeout")
check(to["program"]["timed_out"] and to["program"]["signal"] == "SIGKILL",
      "sleep 30 --timeout=1: found in PATH, killed at the timeout")

try:
    import jsonschema
    schema = json.load(open(os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "doc",
                                         "transcript.schema.json")))
    v = jsonschema.Draft202012Validator(schema)
    for n in ("copy", "tail", "fwrite", "static", "forks", "killself", "timeout"):
        errs = list(v.iter_errors(load(n)))
        check(not errs, "%s: the transcript validates against the schema%s" %
              (n, (": " + errs[0].message[:200]) if errs else ""))
except ImportError:
    print("SKIP: own-prog: transcripts against the schema: python3-jsonschema not installed")
sys.exit(bad)
PY

# Nothing left: the scratch dir is gone, the input file was never written.
if [ -n "$(ls -A "$tmp/t")" ]; then
	echo "FAIL: left in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi
cmp -s "$tmp/in.orig" "$tmp/work/in" || { echo "FAIL: the input file changed"; fail=1; }
# A program that is not there is a usage error.
"$bin" --headless --dir "$tmp/work" -- no-such-program-here >/dev/null 2>"$tmp/nf.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no-such-program-here" "$tmp/nf.err" ||
	{ echo "FAIL: a missing program: exit $rc, $(cat "$tmp/nf.err")"; fail=1; }
# TAP: one point, ok, for a program that ran (whatever its status).
"$bin" --headless --format=tap --dir "$tmp/work" -- "$build/tests/foreign/killself" k2 >"$tmp/k.tap"
rc=$?
[ $rc -eq 0 ] && grep -q '^ok 1 - the program ran: killed by SIGUSR1' "$tmp/k.tap" &&
	grep -q '^1\.\.1$' "$tmp/k.tap" || { echo "FAIL: TAP: exit $rc"; cat "$tmp/k.tap"; fail=1; }
# SIGTERM while the program runs: iobufviz dies of it, and takes the program (and its own
# children) and its scratch dir with it. The program's processes are known by their cwd.
mkdir "$tmp/term"
"$bin" --headless --dir "$tmp/term" -- sh -c 'echo a >started; exec sleep 30' >/dev/null 2>&1 &
pid=$!
# The processes whose working directory is $tmp/term, into $left; 0 if there are some.
in_term() {
	left=
	for c in /proc/[0-9]*/cwd; do
		[ "$(readlink "$c" 2>/dev/null)" = "$tmp/term" ] && left="$left ${c%/cwd}"
	done
	[ -n "$left" ]
}
# The program has started and become sleep (its only process there).
sleeping() {
	in_term && [ "$(cat "${left# }/comm" 2>/dev/null)" = sleep ]
}
wait_for '[ -s "$tmp/term/started" ] && sleeping' || bad "SIGTERM: the program did not start"
kill -TERM $pid
wait $pid
rc=$?
wait_for '! in_term' 5
in_term
if [ $rc -eq 143 ] && [ -z "$left" ] && [ -z "$(ls -A "$tmp/t")" ]; then
	echo "ok: SIGTERM: iobufviz died of it, the program with it, no scratch dir left"
else
	echo "FAIL: SIGTERM: exit $rc; still running:${left:- none}; in TMPDIR: $(ls -A "$tmp/t")"
	fail=1
fi

# run: a grading scenario that holds (exit 0, every TAP point ok) and one that fails (exit 1,
# a TAP point not ok), from the build directory where "examples/tail" is.
cd "$build" || exit 99
"$bin" --headless --format=tap --allow-run=examples/tail "$src/tests/grade-tail.yaml" >"$tmp/g1.tap" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q '^not ok' "$tmp/g1.tap" && grep -q '^1\.\.4$' "$tmp/g1.tap"; then
	echo "ok: run: grade-tail.yaml holds (exit 0, 4 points ok)"
else
	echo "FAIL: run: grade-tail.yaml: exit $rc"; sed 's/^/  | /' "$tmp/g1.tap"; fail=1
fi
"$bin" --headless --format=tap --allow-run=examples/tail "$src/tests/grade-tail-fail.yaml" >"$tmp/g2.tap" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^not ok 2 - .*calls.read <= 2' "$tmp/g2.tap" &&
   grep -q '^ok 1 - .*exit.status = 0' "$tmp/g2.tap"; then
	echo "ok: run: grade-tail-fail.yaml fails (exit 1, calls.read not ok)"
else
	echo "FAIL: run: grade-tail-fail.yaml: exit $rc"; sed 's/^/  | /' "$tmp/g2.tap"; fail=1
fi
"$bin" --headless --format=json --allow-run=examples/tail "$src/tests/grade-tail.yaml" >"$tmp/g1.json" 2>&1 &&
	python3 - "$src/doc/transcript.schema.json" "$tmp/g1.json" <<'PY' || fail=1
import json, sys
try:
    import jsonschema
except ImportError:
    print("SKIP: own-prog: run: the transcript against the schema: python3-jsonschema not "
          "installed")
    sys.exit(0)
errs = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).iter_errors(
    json.load(open(sys.argv[2]))))
print(("FAIL: run: the transcript does not validate: " + errs[0].message[:200]) if errs else
      "ok: run: the transcript validates")
sys.exit(1 if errs else 0)
PY
# --crash-fs with a program is not silently ignored: where a lab can be made (root, loop
# devices, mkfs.ext4) the program runs in it and the head says so (tests/crash-prog.sh shows
# its crashes); elsewhere the run is refused with why (exit 3), the program not run.
"$bin" --headless --crash-fs=ext4 -- "$build/examples/copy" in out >"$tmp/crash.out" \
	2>"$tmp/crash.err"
rc=$?
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] &&
   PATH=$PATH:/usr/sbin:/sbin command -v mkfs.ext4 >/dev/null 2>&1; then
	if [ $rc -eq 0 ] && grep -q "^lab      the program runs in a crash lab" "$tmp/crash.out"; then
		echo "ok: --crash-fs with a program: it runs in a crash lab"
	else
		bad "--crash-fs with a program: exit $rc, said: $(head -c 200 "$tmp/crash.err")"
	fi
elif [ $rc -eq 3 ] && grep -q "crash-fs=ext4" "$tmp/crash.err" && ! grep -q "^step" "$tmp/crash.out"; then
	echo "ok: --crash-fs with a program: no lab here, refused, exit 3"
else
	bad "--crash-fs with a program: exit $rc, said: $(head -c 200 "$tmp/crash.err")"
fi
finish
