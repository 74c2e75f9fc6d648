#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/calls-truth.sh: every row of the syscall table that a program can make on a file, made
# for real by tests/foreign/calls on two files, traced by "iobufviz -- PROGRAM" and by
# strace -f -y: the same calls in the same order, with the same name, fds, sizes, offsets,
# lengths, address, flags (as strace names them) and result.
testname=calls-truth
. "$(dirname "$0")/lib.sh"
need python3 strace
prog=$build/tests/foreign/calls
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
mkdir "$tmp/ours" "$tmp/theirs" "$tmp/t"
strace -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"

# iobufviz makes its scratch dir under $TMPDIR: keep it in ours.
TMPDIR=$tmp/t "$bin" --headless --format=json --dir "$tmp/ours" -- "$prog" a b \
	>"$tmp/ours.json" 2>"$tmp/ours.err" ||
	{ echo "FAIL: iobufviz -- calls: exit $?"; head -c 2000 "$tmp/ours.err"; exit 1; }
(cd "$tmp/theirs" && strace -f -y -qq -o "$tmp/st" "$prog" a b) ||
	{ echo "FAIL: calls under strace: exit $?"; exit 1; }

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
from stracelib import split_args
tmp = sys.argv[1]
doc = json.load(open(tmp + "/ours.json"))
if doc["program"]["exit_code"] != 0:
    # A call this filesystem refuses is still a call to compare: say which, go on.
    print("note: the program said: " + doc["program"]["stderr"].strip())

# Where strace prints each column, by call (its argument positions: readv's iovecs are one).
# b "R": the bytes are the result. flags: the arguments our detail shows, and how.
SPEC = {
    "read": dict(fd=0, b=2), "write": dict(fd=0, b=2),
    "pread64": dict(fd=0, b=2, off=3), "pwrite64": dict(fd=0, b=2, off=3),
    "readv": dict(fd=0, b="R"), "writev": dict(fd=0, b="R"),
    "preadv": dict(fd=0, b="R", off=3), "pwritev": dict(fd=0, b="R", off=3),
    "preadv2": dict(fd=0, b="R", off=3, tail=4), "pwritev2": dict(fd=0, b="R", off=3, tail=4),
    "copy_file_range": dict(fd=0, off=1, fd2=2, off2=3, b=4),
    "sendfile": dict(fd=0, fd2=1, off2=2, b=3),
    "splice": dict(fd=0, off=1, fd2=2, off2=3, b=4, tail=5),
    "lseek": dict(fd=0, off=1, det=[2]), "fadvise64": dict(fd=0, off=1, ln=2, det=[3]),
    "sync_file_range": dict(fd=0, off=1, ln=2, det=[3]),
    "fallocate": dict(fd=0, off=2, ln=3, mode=1), "ftruncate": dict(fd=0, ln=1),
    "mmap": dict(addr=0, ln=1, fd=4, off=5, det=[2, 3]),
    "msync": dict(addr=0, ln=1, det=[2]), "munmap": dict(addr=0, ln=1),
    "dup2": dict(fd=0, fd2=1), "dup3": dict(fd=0, fd2=1, tail=2),
    "flock": dict(fd=0, det=[1]), "fcntl": dict(fd=0, det=[1, 2]),
    "openat": dict(path=1, det=[2, 3]), "openat2": dict(path=1), "open": dict(path=0, det=[1]),
    "creat": dict(path=0, det=[1]),
}

def num(arg):
    """An fd, a size, an offset as strace prints it: 3</path>, 4096, 0x1000, NULL, [512] => [1512]."""
    if arg == "NULL":
        return -1
    m = re.match(r'^\[(-?\w+)\]', arg)
    if m:
        arg = m.group(1)
    m = re.match(r'^(-?(?:0x[0-9a-f]+|\d+))', arg)
    return int(m.group(1), 0)

def fd_path(arg):
    m = re.match(r'^-?\d+<(.*)>$', arg)
    return m.group(1) if m else None

# strace's lines on the files a and b: fds shown with their paths (-y); msync and munmap on
# a mapping of them.
files = (tmp + "/theirs/a", tmp + "/theirs/b")
line_re = re.compile(r'^\d+\s+(\w+)\((.*)\)\s+= (-?(?:0x[0-9a-f]+|\d+))(?:<[^>]*>)?(?: (E\w+))?')
theirs, maps = [], []
for line in open(tmp + "/st"):
    m = line_re.match(line)
    if not m:
        continue
    # sendfile's "[0] => [2000]": the offset at entry, then at exit ("=>" is no bracket).
    c, args = m.group(1), split_args(m.group(2).replace(" => ", " then "))
    res, err = int(m.group(3), 0), m.group(4)
    sp = SPEC.get(c, dict(fd=0))
    if not args or max(v for v in sp.values() if isinstance(v, int)) >= len(args):
        continue
    if "path" in sp:
        if args[sp["path"]].strip('"') not in ("a", "b"):
            continue
    elif "addr" in sp and sp.get("fd") is None:
        if num(args[0]) not in maps:
            continue
    elif not any(fd_path(args[sp[k]]) in files for k in ("fd", "fd2")
                 if k in sp and sp[k] < len(args)):
        continue
    if c == "mmap":
        maps.append(res)
        res = len(maps)                   # addresses differ from run to run: the nth map
    if "addr" in sp and sp.get("fd") is None:
        args[sp["addr"]] = str(maps.index(num(args[sp["addr"]])) + 1)
    elif "addr" in sp and args[sp["addr"]] == "NULL":
        args[sp["addr"]] = "0"
    key = {"call": c, "result": -1 if err else res, "errno": err}
    for k, field in (("fd", "fd"), ("fd2", "fd2"), ("off", "offset"), ("off2", "offset2"),
                     ("ln", "length"), ("addr", "addr")):
        if k in sp:
            key[field] = num(args[sp[k]])
    if "b" in sp:
        key["bytes"] = (res if not err else 0) if sp["b"] == "R" else num(args[sp["b"]])
    if "det" in sp:
        # The open family's detail names the path first, as strace's arguments do.
        key["detail"] = ", ".join(args[i] for i in ([sp["path"]] if "path" in sp else []) +
                                  sp["det"] if i < len(args))
    if "mode" in sp:
        key["detail"] = "mode=" + args[sp["mode"]]
    if "tail" in sp and args[sp["tail"]] != "0":
        key["detail_tail"] = args[sp["tail"]]
    theirs.append(key)

# Ours: every call of the call steps (a fold's each) but the program's own execve, its
# event's fields named as above.
ours, ours_maps = [], []
for e in [e for s in doc["steps"] if s["op"] == "call" for e in s["events"]]:
    if e["call"] in ("execve", "io_uring_setup"):
        continue
    e = dict(e)
    if e["call"] == "mmap":
        ours_maps.append(e["result"])
        e["result"] = len(ours_maps)
    elif e["call"] in ("msync", "munmap"):
        e["addr"] = ours_maps.index(e["addr"]) + 1 if e["addr"] in ours_maps else e["addr"]
    t = theirs[len(ours)] if len(ours) < len(theirs) else {}
    key = {"call": e["call"], "result": e["result"], "errno": e["errno"]}
    for field in ("fd", "fd2", "offset", "offset2", "length", "addr", "bytes"):
        if field in t:
            key[field] = e[field]
    det = e["detail"] or ""
    if e["call"] == "fcntl":
        det = det.split(" -> ")[0]         # F_GETFL: ours adds the flags it returned
    if "detail" in t:
        key["detail"] = det
    if "detail_tail" in t:
        key["detail_tail"] = det.split(", ")[-1]
    ours.append(key)

bad = 0
print("iobufviz: %d calls on the files; strace: %d" % (len(ours), len(theirs)))
for i in range(max(len(ours), len(theirs))):
    a = ours[i] if i < len(ours) else None
    b = theirs[i] if i < len(theirs) else None
    if a != b:
        bad = 1
        print("  differs at %d:\n    iobufviz %s\n    strace   %s" % (i + 1, a, b))
calls = {k["call"] for k in theirs}
want = {"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
        "pwritev2", "copy_file_range", "sendfile", "splice", "lseek", "fadvise64",
        "sync_file_range", "fallocate", "ftruncate", "fsync", "fdatasync", "syncfs", "mmap",
        "msync", "munmap", "fcntl", "flock", "dup", "dup3", "openat", "close"}
if not want <= calls:
    bad = 1
    print("FAIL: calls the program makes were not seen: %s" % sorted(want - calls))
# io_uring: no file, but a step that says so when the ring was made.
uring = [s for s in doc["steps"] if s["op"] == "call" and s["events"][0]["call"] == "io_uring_setup"]
made = any(re.match(r'^\d+\s+io_uring_setup\(.*\) = \d+', l) for l in open(tmp + "/st"))
if made != (len(uring) == 1):
    bad = 1
    print("FAIL: io_uring_setup: strace saw a ring made: %s; iobufviz steps: %d" % (made, len(uring)))
if bad:
    sys.exit(1)
print("ok: %d calls the same as strace's (name, fds, sizes, offsets, lengths, flags, result, "
      "order)%s" % (len(ours), "; io_uring_setup a step" if made else "; no io_uring here"))
PY
finish
