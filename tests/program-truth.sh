#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/program-truth.sh [SCENARIO...]: the program --export=c writes for a scenario makes, on
# the scratch file, the very calls iobufviz reports for it (name, fd, sizes, offsets, lengths,
# flags, results, in order): strace on the compiled program against the JSON transcript, with no
# tracer of ours. Every bundled scenario, or those given (tests/export-payloads.sh gives its own).
testname=program-truth
. "$(dirname "$0")/lib.sh"
need strace python3
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler ($cc)"
# Probe once: strace must be able to trace here (a container may forbid ptrace).
strace -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"

calls=openat,read,write,pread64,pwrite64,lseek,newfstatat,fstat,fcntl,fsync,fdatasync
calls=$calls,sync_file_range,sync,fadvise64,fallocate,ftruncate,close,rename,renameat,renameat2

# Run iobufviz on $1 (with option $2, if any) into $d/ours.json, then export and compile
# $scen's program into $d/prog (cc options after $2). Non-zero, having said why, if the
# scenario is to be left: it cannot run here (exit 3), or it failed (fail=1).
both() {
	y=$1 opt=$2
	shift 2
	"$bin" --headless --format=json $opt --dir "$d" "$y" >"$d/ours.json" 2>"$d/ours.err"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		echo "skip $name: iobufviz cannot run it here: $(head -1 "$d/ours.err")"
		return 1
	fi
	[ "$rc" -le 1 ] || { echo "FAIL $name: iobufviz exit $rc"; cat "$d/ours.err"; fail=1; return 1; }
	"$bin" --export=c "$scen" >"$d/prog.c" || { echo "FAIL $name: --export=c"; fail=1; return 1; }
	"$cc" -std=c11 -Wall -Wextra -Werror -Wtrigraphs "$@" -o "$d/prog" "$d/prog.c" 2>"$d/cc.err" ||
		{ echo "FAIL $name: does not compile"; cat "$d/cc.err"; fail=1; return 1; }
}

# Run $d/prog on $d/scratch (beside iobufviz's own file: the same filesystem) under
# strace, tracing the calls $1, into $d/st.
trace() {
	strace -f -qq -y -o "$d/st" -e trace="$1" "$d/prog" "$d/scratch" >"$d/out" 2>"$d/err" \
		</dev/null || { echo "FAIL $name: the program failed"; cat "$d/err"; fail=1; return 1; }
}

[ $# -gt 0 ] || set -- "$src"/scenarios/*.yaml
for scen in "$@"; do
	name=$(basename "$scen" .yaml)
	d=$tmp/$name
	mkdir "$d" || exit 99
	if grep -q '^ *- sweep:' "$scen"; then
		# A sweep's loop is timed in a child iobufviz does not trace: its counts of
		# write() calls per run (/proc/PID/io) against strace of the program, both on a
		# tiny copy of the sweep (64 KiB, 4096-byte buffers, one run per variant), without
		# its words (they name rows the copy does not have).
		sed -e 's/^\( *file_size:\).*/\1 64KiB/' -e 's/^\( *buffer_sizes:\).*/\1 [4096]/' \
		    -e 's/^\( *repeat:\).*/\1 1/' -e 's/^\( *warmup:\).*/\1 0/' "$scen" |
			awk '/^ *say:/ { ind = match($0, /[^ ]/); skip = 1; next }
			     skip && (/^ *$/ || match($0, /[^ ]/) > ind) { next }
			     { skip = 0; print }' >"$d/tiny.yaml"
		both "$d/tiny.yaml" "" -DFILE_SIZE=65536 -DBUF_SIZE=4096 || continue
		trace openat,read,write,pwrite64,close || continue
		python3 - "$d" "$name" <<'PY' || fail=1
import json, re, sys
d, name = sys.argv[1], sys.argv[2]
ours, ours_r = [], []
for s in json.load(open(d + "/ours.json"))["steps"]:
    for v in (s.get("sweep") or {}).get("variants", []):
        for r in v["rows"]:
            for run in r.get("runs", [])[:1]:
                ours.append(run["syscw"])
                ours_r.append(run["syscr"])
# The program's runs, in the same order: write() calls on any file but stdout and but
# prepare()'s and the cold cache's (O_CLOEXEC); each run opens the scratch file first.
theirs, theirs_r, skip = [], [], set()
for line in open(d + "/st"):
    m = re.match(r'^\d+\s+(\w+)\((.*)\)\s+= (-?\d+)', line)
    if not m:
        continue
    c, a, res = m.group(1), m.group(2), int(m.group(3))
    if c == "openat":
        if "O_CLOEXEC" in a:
            skip.add(res)
        elif '"%s/scratch"' % d in a:
            theirs.append(0)
            theirs_r.append(0)
    elif c == "close":
        fd = int(re.match(r'(\d+)', a).group(1))
        skip.discard(fd)
    elif c in ("write", "pwrite64"):
        fd = int(re.match(r'(\d+)', a).group(1))
        if fd > 2 and fd not in skip and theirs:
            theirs[-1] += 1
    elif c == "read":
        fd = int(re.match(r'(\d+)', a).group(1))
        if fd > 2 and fd not in skip and theirs_r:
            theirs_r[-1] += 1
# read() counts are shown, not compared: iobufviz's syscr of a reading sweep is one more
# than the reads strace sees in its own bench child (sweep/programs.c's /proc/self/io arithmetic).
if ours_r != theirs_r:
    print("     note %s: read() calls per run: iobufviz %s, the program %s" % (name, ours_r, theirs_r))
if ours == theirs and ours:
    print("ok   %s (sweep, tiny): write() calls per run the same: %s" % (name, ours))
    sys.exit(0)
print("FAIL %s (sweep, tiny): write() calls per run: iobufviz %s, the program %s" % (name, ours, theirs))
sys.exit(1)
PY
		continue
	fi
	both "$scen" --trace=ptrace || continue
	trace "$calls" || continue
	python3 - "$d" "$name" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
from stracelib import split_args
d, name = sys.argv[1], sys.argv[2]
scratch = d + "/scratch"

def norm_flags(f):
    return "|".join(sorted(x for x in f.split("|") if x != "O_LARGEFILE"))

def ours():
    out = []
    for s in json.load(open(d + "/ours.json"))["steps"]:
        for e in s["events"]:
            # A pty step's runs (exercise 13-4) write their own stdout, apart from the
            # program's file: the exported program runs its snippet on files of its own.
            if e.get("run"):
                continue
            c, det = e["call"], e["detail"] or ""
            key = [c, e["fd"]]
            if c == "openat":
                key = [c, norm_flags(det.split(",")[0])]
            elif c in ("read", "write"):
                key.append(e["bytes"])
            elif c in ("pread64", "pwrite64"):
                key += [e["bytes"], e["offset"]]
            elif c == "lseek":
                key += [e["offset"], det]
            elif c in ("fadvise64", "sync_file_range", "fallocate"):
                key += [e["offset"], e["length"], det]
            elif c == "ftruncate":
                key.append(e["length"])
            elif c == "fcntl":
                key.append(det.split(" -> ")[0])
            elif c == "sync":
                key = [c]
            elif c.startswith("rename"):
                key = ["rename"]
            out.append(tuple(key + [e["result"], e["errno"]]))
    return out

line_re = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+= (-?(?:0x[0-9a-f]+|\d+))(?:<[^>]*>)?(?: (E\w+))?')
def fdnum(arg):
    m = re.match(r'^(-?\d+)<(.*)>$', arg)
    return (int(m.group(1)), m.group(2)) if m else (None, None)

# The lesson's files: the scratch file, the others beside it (file:), and their directory;
# not the test's own files there (the program's stdout and stderr among them).
mine = {"out", "err", "st", "prog", "prog.c", "ours.json", "ours.err", "cc.err", "tiny.yaml"}
def ours_path(p):
    return p is not None and (p == scratch or p == d or
                              (os.path.dirname(p) == d and os.path.basename(p) not in mine))

def theirs():
    out, skipping = [], {}
    for line in open(d + "/st"):
        m = line_re.match(line)
        if not m:
            continue
        pid, c, a, res, err = m.group(1), m.group(2), m.group(3), int(m.group(4), 0), m.group(5)
        args = split_args(a)
        if c.startswith("rename"):
            paths = [x.strip('"') for x in args if x.startswith('"')]
            if paths and all(ours_path(os.path.normpath(x)) for x in paths):
                out.append(("rename", res, err))
            continue
        if c == "openat":
            if len(args) < 3 or not args[1].startswith('"') or \
               not ours_path(os.path.normpath(args[1].strip('"'))):
                continue
            flags = args[2]
            if "O_CLOEXEC" in flags:        # prepare(): not part of the lesson
                skipping[pid] = res
                continue
            out.append(("openat", norm_flags(flags), res, err))
            continue
        if c == "sync":
            out.append(("sync", res, err))
            continue
        fd, path = fdnum(args[0]) if args else (None, None)
        if fd is None and args and re.match(r'^-?\d+$', args[0]):
            fd, path = int(args[0]), None
        if not ours_path(path) and not (path is None and fd is not None and fd >= 3 and err == "EBADF"):
            continue
        if skipping.get(pid) == fd:
            if c == "close":
                del skipping[pid]
            continue
        key = [c, fd]
        if c in ("read", "write"):
            key.append(int(args[2]))
        elif c in ("pread64", "pwrite64"):
            key += [int(args[2]), int(args[3])]
        elif c == "lseek":
            key += [int(args[1]), args[2]]
        elif c in ("fadvise64", "sync_file_range"):
            key += [int(args[1]), int(args[2]), args[3]]
        elif c == "fallocate":
            key += [int(args[2]), int(args[3]), "mode=" + args[1]]
        elif c == "ftruncate":
            key.append(int(args[1]))
        elif c == "fcntl":
            key.append(", ".join(args[1:]))
        out.append(tuple(key + [res, err]))
    return out

a, b = ours(), theirs()
if a == b:
    print("ok   %s: %d calls, the same" % (name, len(a)))
    sys.exit(0)
import difflib
print("FAIL %s: iobufviz (-) and the exported program under strace (+) differ" % name)
for l in difflib.unified_diff([repr(x) for x in a], [repr(x) for x in b], "iobufviz", "program", lineterm="", n=2):
    print("     " + l)
sys.exit(1)
PY
done
finish
