#!/bin/sh
# SPDX-License-Identifier: MIT
# real-progs.sh: "iobufviz -- PROGRAM" on real programs (cp, dd conv=fsync, cat, tail -n 3,
# sort -o, gzip -c, tee, a python3 -c that writes a file): every call each makes on regular
# files equals strace -f's of the same run: name, fd, sizes, offsets, result, order (the calls
# of several processes or threads compared as sets; a copy's second fd and offsets, an ioctl's
# request too). A program not installed is a named skip; calls strace sees that this tracer
# does not trace are named (a partial skip).
testname=real-progs
. "$(dirname "$0")/lib.sh"
need python3 strace
mkdir "$tmp/w" "$tmp/s"
# big.txt: 1,288,895 bytes of text; lines.txt: 400 short lines, unsorted.
python3 -c 'import sys
line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
data = (line * (1288895 // len(line) + 1))[:1288895]
open(sys.argv[1], "wb").write(data)' "$tmp/big.txt"
seq 400 | sort -R --random-source="$tmp/big.txt" >"$tmp/lines.txt"
ran=0
skipped=0

# Run "NAME PROGRAM ARGS..." in a fresh copy of the inputs, under iobufviz (JSON) and strace.
case_run() {
	name=$1
	shift
	if ! command -v "$1" >/dev/null 2>&1; then
		skip_part "$name" "$1 not installed"
		skipped=$((skipped + 1))
		return
	fi
	for side in w s; do
		rm -rf "$tmp/$side/$name"
		mkdir "$tmp/$side/$name"
		cp "$tmp/big.txt" "$tmp/lines.txt" "$tmp/$side/$name/"
	done
	"$bin" --headless --format=json --dir "$tmp/w/$name" --stdin "$tmp/w/$name/big.txt" \
		--timeout=120 -- "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
	(cd "$tmp/s/$name" && strace -f -y -qq -s 0 -o "$tmp/$name.strace" "$@" \
		<"$tmp/s/$name/big.txt" >"$tmp/s/$name/out" 2>"$tmp/s/$name/err")
	if [ $rc -ne 0 ]; then
		echo "FAIL: real-progs $name: iobufviz exit $rc: $(head -c 300 "$tmp/$name.err")"
		fail=1
		return
	fi
	python3 - "$tmp" "$name" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
from stracelib import split_args
tmp, name = sys.argv[1:]
doc = json.load(open(os.path.join(tmp, name + ".json")))
traced = set(doc["program"]["traced_calls"]) - {"execve"}
RW = {"read", "write", "pread64", "pwrite64"}
# The copies: (fd, off, fd2, off2, bytes) as argument positions, strace's order.
COPY = {"copy_file_range": (0, 1, 2, 3, 4), "splice": (0, 1, 2, 3, 4), "sendfile": (0, None, 1, 2, 3)}

def off(arg):
    """A copy's offset as strace shows it: NULL, or [N] (sendfile's [N] then [M]: the first)."""
    m = re.match(r"^\[(-?\d+)\]", arg)
    return int(m.group(1)) if m else -1

def loader(path):
    base = os.path.basename(path)
    return path in ("/etc/ld.so.cache", "/etc/ld.so.preload") or \
        (base.startswith("lib") and re.search(r"\.so(\.|$)", base) is not None)

def regular(path):
    # A file the program removed is no longer there to ask: strace names it "(deleted)".
    return path.startswith("/") and (os.path.isfile(path) or path.endswith(" (deleted)"))

# strace's lines: join "<unfinished ...>" with their "<... resumed>".
lines, pending = [], {}
for raw in open(os.path.join(tmp, name + ".strace")):
    raw = raw.rstrip("\n")
    m = re.match(r"^(\d+)\s+(.*)$", raw)
    if not m:
        continue
    pid, rest = m.group(1), m.group(2)
    if rest.endswith("<unfinished ...>"):
        pending[pid] = rest[: -len("<unfinished ...>")]
        continue
    r = re.match(r"^<\.\.\. \w+ resumed>(.*)$", rest)
    if r:
        rest = pending.pop(pid, "") + r.group(1)
    lines.append((pid, rest))

theirs, untraced = [], {}
for pid, rest in lines:
    m = re.match(r"^(\w+)\((.*)\)\s+=\s+(0x[0-9a-f]+|-?\d+)(<([^>]*)>)?", rest)
    if not m:
        continue
    call, args, res, rpath = m.group(1), m.group(2), m.group(3), m.group(5) or ""
    res = int(res, 16) if res.startswith("0x") else int(res)
    fdm = re.match(r"^(-?\d+)<([^>]*)>", args)
    if call in ("open", "openat", "creat", "openat2"):
        pm = re.search(r'"([^"]*)"', args)
        path = pm.group(1) if pm else ""
        if loader(path) or loader(rpath) or (res >= 0 and not regular(rpath)):
            continue
        key = (call, -1, 0, -1, res)
    elif call == "mmap":
        fm = re.search(r", (\d+)<([^>]*)>, ", args)
        if not fm or loader(fm.group(2)) or not regular(fm.group(2)):
            continue
        length = int(args.split(", ")[1])
        key = (call, int(fm.group(1)), length, -1, None)
    elif call in COPY:
        a = split_args(args.replace(" => ", " then "))
        fd, o, fd2, o2, b = COPY[call]
        paths = [re.match(r"^-?\d+<([^>]*)>", a[i]) for i in (fd, fd2)]
        if not any(p and regular(p.group(1)) and not loader(p.group(1)) for p in paths):
            continue
        key = (call, int(a[fd].split("<")[0]), int(a[b]), off(a[o]) if o is not None else -1,
               res, int(a[fd2].split("<")[0]), off(a[o2]))
    else:
        if not fdm or loader(fdm.group(2)) or not regular(fdm.group(2)):
            continue
        if call in ("newfstatat", "statx") and not re.match(r'^-?\d+<[^>]*>, ""', args):
            continue
        if call == "execve":
            continue
        fd = int(fdm.group(1))
        parts = args.split(", ")
        nbytes = int(parts[2]) if call in RW else 0
        at = int(parts[3]) if call in ("pread64", "pwrite64") else -1
        key = (call, fd, nbytes, at, res)
        if call == "ioctl":
            key += (parts[1],)
    if call not in traced:
        untraced[call] = untraced.get(call, 0) + 1
        continue
    theirs.append((pid, key))

ours = []
for s in doc["steps"]:
    if s["op"] not in ("call", "stdio"):
        continue
    for e in s["events"]:
        if e["call"] == "execve":
            continue
        c = e["call"]
        if c in ("open", "openat", "creat", "openat2"):
            key = (c, -1, 0, -1, e["result"])
        elif c == "mmap":
            key = (c, e["fd"], e["length"], -1, None)
        elif c in COPY:
            key = (c, e["fd"], e["bytes"], e["offset"], e["result"], e["fd2"], e["offset2"])
        else:
            key = (c, e["fd"], e["bytes"] if c in RW else 0,
                   e["offset"] if c in ("pread64", "pwrite64") else -1, e["result"])
            if c == "ioctl":
                key += ((e["detail"] or "").split(", ")[0],)
        ours.append((s["pid"], key))

multi = len({p for p, _ in theirs}) > 1 or len({p for p, _ in ours}) > 1
a, b = [k for _, k in ours], [k for _, k in theirs]
same = sorted(map(repr, a)) == sorted(map(repr, b)) if multi else a == b
how = "as sets (%d processes or threads)" % len({p for p, _ in theirs}) if multi else "in order"
among = sorted({k[0] for k in b if k[0] in COPY or k[0] == "ioctl"})
print(("ok: " if same else "FAIL: ") + "real-progs %s: %d calls on its files = strace -f's (%d), %s%s"
      % (name, len(a), len(b), how, "; among them " + ", ".join(
          "%s x%d" % (c, sum(1 for k in b if k[0] == c)) for c in among) if among else ""))
if not same:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("  first difference at %d: ours %s, strace %s" % (i, x, y))
            break
    print("  ours:   %s\n  strace: %s" % (a[:8], b[:8]))
if untraced:
    print("SKIP: real-progs: %s: strace sees calls this tracer does not trace: %s" %
          (name, ", ".join("%s x%d" % kv for kv in sorted(untraced.items()))))
sys.exit(0 if same else 1)
PY
	ran=$((ran + 1))
}

case_run cp cp big.txt copy.txt
case_run dd dd if=big.txt of=dd.out bs=64k conv=fsync status=none
case_run cat cat big.txt
case_run tail tail -n 3 big.txt
case_run sort sort -o sorted.txt lines.txt
case_run gzip gzip -c big.txt
case_run tee tee tee.out
# The interpreter itself, not a wrapper script in PATH (pyenv's shims are shell scripts).
py=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
case_run python3 "$py" -c 'open("py.out", "w").write("x" * 10000)'
echo "real-progs: $ran programs compared, $skipped skipped"
[ $ran -gt 0 ] || skip "none of the programs is installed"
finish
