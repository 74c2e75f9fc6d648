#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-calls.sh: "iobufviz -- PROGRAM" sees the stdio calls a student writes beyond the
# plain ones, as a plain build and Ubuntu's gcc -O2 -D_FORTIFY_SOURCE=2 make them (getline ->
# fprintf, ftell, rewind, fscanf, the _unlocked functions: tests/foreign/stdio-calls.c): each
# is a stdio step named as the source wrote it, and every system call on the files is one of
# theirs (origin stdio), none the program's own. A file named lib*.so* that the program opens
# is the program's (its openat, write and fsync are steps); only calls made from the dynamic
# loader's code are passed over. A program whose first process exits and leaves a daemon
# behind is timed_out when --timeout kills the daemon.
testname=own-prog-calls
. "$(dirname "$0")/lib.sh"
need python3
for p in tests/foreign/stdio-calls tests/foreign/stdio-calls-fortify; do
	[ -x "$build/$p" ] || { echo "FAIL: $build/$p not built"; exit 99; }
done
mkdir "$tmp/work"
printf '12 apples\nsecond line\nthird line\n' >"$tmp/work/in"
head -c 100000 /dev/urandom >"$tmp/work/big"
ln -s big "$tmp/work/libx.so.1"

# Run iobufviz headless as JSON on the program after --, into $tmp/NAME.json.
run() {
	name=$1
	shift
	"$bin" --headless --format=json --dir "$tmp/work" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$name: exit $rc: $(head -c 300 "$tmp/$name.err")"
	fi
}

run plain -- "$build/tests/foreign/stdio-calls" in out0
run fortify -- "$build/tests/foreign/stdio-calls-fortify" in out2
# Did the compiler make the _FORTIFY_SOURCE forms? (a CFLAGS=-O0 build does not)
fortified=0
if command -v nm >/dev/null 2>&1 &&
   nm -D "$build/tests/foreign/stdio-calls-fortify" | grep -q ' U __fprintf_chk'; then
	fortified=1
else
	skip_part fortify "the build made no __fprintf_chk (CFLAGS without -O)"
fi
# A file named like a library, written and synced by the program after main began; a
# symlink named like one, read.
run lib -- sh -c 'printf result >libresult.so.txt && dd if=libresult.so.txt of=libout.so.2 \
conv=fsync status=none && cat libx.so.1 >/dev/null'
# The first process exits at once; a daemon it left (setsid, its own session) writes on.
run daemon --timeout=2 -- sh -c 'setsid sh -c "while :; do echo x >>daemon.txt; sleep 0.2; \
done" </dev/null >/dev/null 2>&1 & exit 0'

python3 - "$tmp" "$fortified" <<'PY' || fail=1
import json, os, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
tmp, fortified = sys.argv[1], sys.argv[2] == "1"
work = os.path.join(tmp, "work")

def load(name):
    return json.load(open(os.path.join(tmp, name + ".json")))

for name in ("plain", "fortify"):
    if name == "fortify" and not fortified:
        continue
    doc = load(name)
    files = {os.path.join(work, f) for f in ("in", "out0", "out2")}
    funcs = [s["stdio_call"]["func"] for s in doc["steps"] if s["op"] == "stdio"]
    want = ["getline", "fprintf", "ftell", "rewind", "fscanf", "fgets_unlocked",
            "fputs_unlocked", "fwrite_unlocked", "fputc_unlocked", "fclose"]
    missing = [f for f in want if f not in funcs]
    check(not missing, "%s: each call is a stdio step of its own name (missing: %s; seen: %s)"
          % (name, missing, sorted(set(funcs))))
    check(funcs.index("ftell") < funcs.index("rewind") < funcs.index("fscanf") if not missing
          else False, "%s: ftell, rewind, fscanf in the program's order" % name)
    direct = [(e["call"], e["fd"]) for s in doc["steps"] if s["file"] in files
              for e in s["events"] if e["origin"] == "direct" and e["call"] != "execve"]
    io = [e for s in doc["steps"] if s["file"] in files for e in s["events"]
          if e["call"] in ("read", "write", "lseek")]
    check(len(io) >= 3 and not direct,
          "%s: every call on its files is a stdio call's (%d reads, writes, seeks; the "
          "program's own: %s)" % (name, len(io), direct))
    try:
        out = open(os.path.join(work, "out0" if name == "plain" else "out2")).read()
    except OSError as e:
        out = str(e)
    check(out.startswith("0: 12 apples\n1: second line\n2: third line\npos 33\nx=12\n"
                         " apples\n az"),
          "%s: the program ran as written (%r)" % (name, out[-40:]))

lib = load("lib")
seen = [(e["call"], os.path.basename(s["file"] or "")) for s in lib["steps"]
        for e in s["events"]]
for c, f in (("openat", "libresult.so.txt"), ("openat", "libout.so.2"), ("write", "libout.so.2"),
             ("fsync", "libout.so.2"), ("read", "libx.so.1")):
    if f == "libx.so.1":
        ok = any(c2 == c and f2 in ("big", "libx.so.1") for c2, f2 in seen)
    else:
        ok = (c, f) in seen
    check(ok, "lib: %s on %s is a step" % (c, f))
check(lib["program"]["calls"]["loader"] > 0 and
      not any(f in ("ld.so.cache",) or f.startswith("libc.so") for _, f in seen),
      "lib: the loader's own calls (ld.so.cache, libc.so.6) are passed over (%d)"
      % lib["program"]["calls"]["loader"])

d = load("daemon")
ends = [s for s in d["steps"] if s["op"] == "exit"]
check(d["program"]["exit_code"] == 0 and d["program"]["timed_out"] and
      any("timeout" in s["args"] for s in ends),
      "daemon: the first process exited 0, the daemon was killed at --timeout: "
      "program.timed_out is true (%s)" % [s["args"] for s in ends])
sys.exit(1 if checklib.failed else 0)
PY
finish
