#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/export-payloads.sh: no text of a scenario becomes code in the C that --export=c writes
# (issue 20.1). Every text field of every op (title, source, intro, say, ask, note, expected
# texts, fputs/printf/write/pwrite text, pty printf/write, run program/args/stdin, sweep and
# variant names and references) carries a list of hostile payloads: comment ends and starts,
# trigraphs, quotes, backslashes, every control byte, DEL, C1, bidi controls (Trojan Source),
# octal/hex neighbours, a 5000-byte text, 20 run args of 200 bytes. Each scenario is
# exported and compiled with -std=c11 -Wall -Wextra -Werror -Wtrigraphs by gcc and clang
# (a named skip without clang); the program runs under strace and must make the calls
# iobufviz makes (tests/program-truth.sh) with exactly the bytes iobufviz's own run writes
# (iobufviz under strace, --trace=procio), and no other program than the run step's. The
# transcripts show none of it raw; a file that is not UTF-8 is refused. KEEP=1 keeps its
# directory (scenarios, programs) to look at. "export-payloads.sh --seeds DIR" only writes the
# scenarios (*.yaml) into DIR: tests/fuzz/run.sh seeds the fuzzers with them (no build needed).
testname=export-payloads
seeds=
if [ "${1:-}" = --seeds ]; then
	seeds=${2:?--seeds DIR}
	mkdir -p "$seeds" || exit 99
	IOBUFVIZ_BIN=${IOBUFVIZ_BIN:-$seeds/no-iobufviz}
	IOBUFVIZ_SRCDIR=${IOBUFVIZ_SRCDIR:-.}
fi
. "$(dirname "$0")/lib.sh"
need python3
if [ -z "$seeds" ]; then
	need strace gcc
	strace -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
fi
# The run step's program: writes its arguments (NUL-terminated each) and then its standard
# input to the file named by its first argument.
cat >"$tmp/dumper.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int
main(int argc, char *argv[])
{
	FILE *out = argc > 1 ? fopen(argv[1], "w") : NULL;
	int c;

	if (out == NULL)
		return 1;
	for (int i = 2; i < argc; i++)
		fwrite(argv[i], 1, strlen(argv[i]) + 1, out);
	fputs("--stdin--", out);
	while ((c = getchar()) != EOF)
		putc(c, out);
	return fclose(out) == 0 ? 0 : 1;
}
EOF

python3 - "$bin" "$src" "${seeds:-$tmp}" "$seeds" <<'PY'
import json, os, re, shutil, subprocess, sys

bin_, src, tmp, seeds = sys.argv[1:5]
fails = []

def fail(msg):
    print("FAIL " + msg)
    fails.append(msg)

# ---- The payloads: Python strings; a scenario holds each exactly (YAML escapes). ----
controls = "".join(chr(c) for c in range(1, 32)) + "\x7f"
c1 = "".join(chr(c) for c in range(0x80, 0xa0))
bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029"
issue_title = ("x */ int system(const char *); __attribute__((constructor)) static void "
               "pwn(void) { system((char[]){'i','d',0}); } /* y")
payloads = [
    "*/", "/*", "//", issue_title, "*/ int x; /*", "*" * 3 + "/" * 3,
    "??/", "??!", "??=??(??)??'??<??>??-", "Why??!\n", "???/", "?",
    "??/\", 1)); { system(\"id\"); } //",
    "\"", "'", "\\", "\\\"", "end\\", "\\\n#define x", "\"\\\"\\\\\"",
    controls, c1, bidi, "if (ok) \u202e } \u2066 {",
    "\x01" "ABCDEF0123456789abcdef", "\x7f" "f7", "\x1b" "1", "\x80" "8",
    "\u00e9\u6f22\U0001f600", "\x1b[31mred\x1b]0;title\x07\x1b[?1049h",
    "%s%n%d%%", "tab\there\r\nCR", "{file}",
]
# (No NUL: the loader refuses a text that holds one, at its line and column; check-scenario.)
# 5000 bytes (UTF-8), of every kind of byte above.
unit = "0123456789abcdef??/\"\\\x1b\u202e*/\n\x7f\u00e9"
long_ = ""
while len((long_ + unit).encode()) <= 5000:
    long_ += unit
long_ += "x" * (5000 - len(long_.encode()))
assert len(long_.encode()) == 5000
payloads.append(long_)
short = [p for p in payloads if len(p) < 200]

def b(s):
    """The bytes a C string of s holds: up to a NUL, as iobufviz reads the YAML."""
    return s.encode().split(b"\0")[0]

def yq(s):
    """s as a YAML double-quoted scalar, every character outside printable ASCII escaped."""
    out = '"'
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out += "\\" + ch
        elif 0x20 <= o < 0x7f:
            out += ch
        elif o <= 0xffff:
            out += "\\u%04x" % o
        else:
            out += "\\U%08x" % o
    return out + '"'

def say(s):
    """s as narration: "{" and "[" start a mark there, "{{" is a brace, "[[" a bracket; a
    payload is not about the run, so it is marked background (its digits count nothing)."""
    return yq("[background]\n" + s.replace("{", "{{").replace("[", "[["))

def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path

# ---- The scenarios. ----
mix = " | ".join(short)
text = ["title: " + yq(mix), "source: " + yq(long_), "intro: " + say(mix), "steps:",
        "  - open: {flags: [O_RDWR, O_CREAT, O_TRUNC]}"]
for i, p in enumerate(payloads):
    text += ["  - write: {text: %s}" % yq(p), "    say: " + say(p), "    ask: " + yq(p),
             "    expect: {file.prefix: %s}" % yq(p),
             "  - pwrite: {text: %s, offset: %d}" % (yq(p), 100000 + 8192 * i),
             "  - note: " + say(p)]
text += ["  - fdopen: {mode: \"r+\"}"]
for p in payloads:
    text += ["  - fputs: {text: %s}" % yq(p), "  - printf: {text: %s}" % yq(p)]
text += ["  - fclose: {}"]
# A named pair's fd that only fileno sets (fuzz-export found it set but never used: -Werror).
text += ["  - fopen: {mode: r}", "    as: last", "  - fileno: {}", "    on: last"]
text_yaml = write("text.yaml", "\n".join(text) + "\n")

pty = ["title: pty", "steps:"]
for p in payloads:
    pty += ["  - pty: {printf: %s, write: %s, between: fflush}" % (yq(p), yq(p[::-1])),
            "    expect: {output: %s, output.file: %s}" % (yq(p), yq(p))]
pty_yaml = write("pty.yaml", "\n".join(pty) + "\n")

# The run step: its program in a directory named with payload bytes, its stdin a file named so.
odd = "d\x01\x1b??/\"\\\u202e*/ '%s".replace("/", "_")
os.makedirs(os.path.join(tmp, odd), exist_ok=True)
dumper = os.path.join(tmp, odd, "dumper")
if not seeds and subprocess.run(["gcc", "-std=c11", "-o", dumper,
                                 os.path.join(tmp, "dumper.c")]).returncode != 0:
    fail("the run step's program does not build")
stdin_name = "in-\x01\x1b??/\"\\\u202e*/.txt".replace("/", "_")
stdin_text = ("stdin " + mix).encode()
with open(os.path.join(tmp, stdin_name), "wb") as f:
    f.write(stdin_text)
args = [p for p in short if "\0" not in p] + ["{file}"] + [("%02d" % i) * 100 for i in range(20)]
out_path = os.path.join(tmp, "run.out")
run_yaml = write("run.yaml", "title: run\nsteps:\n  - run:\n      program: %s\n      args: [%s]\n"
                 "      stdin: %s\n      timeout: 30\n    expect: {output: %s}\n" %
                 (yq(dumper), ", ".join(yq(a) for a in [out_path] + args), yq(stdin_name),
                  yq(mix)))

names = [p for p in short if "\0" not in p and p != ""][:12]
sweep = ["title: " + yq(mix), "steps:", "  - sweep:", "      title: " + yq(mix),
         "      program: write", "      buffer_sizes: [4096]", "      file_size: 64KiB",
         "      repeat: 1", "      warmup: 0", "      variants:"]
sweep += ["        - {name: %s}" % yq(n) for n in names]
sweep += ["      reference:", "        - label: " + yq(mix), "          source: " + yq(mix),
          "          variant: " + yq(names[0]), "          rows:",
          "            - {buf_size: 4096, elapsed: 0.01}", "    say: " + say(mix)]
sweep_yaml = write("sweep.yaml", "\n".join(sweep) + "\n")
if seeds:
    sys.exit(0)

def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)

# ---- Every scenario loads, exports, and compiles with both compilers, trigraphs on. ----
compilers = ["gcc"]
if shutil.which("clang"):
    compilers.append("clang")
else:
    print("SKIP: export-payloads: clang: not installed (gcc alone compiles the programs)")
flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wtrigraphs"]
progs = {}
for y in (text_yaml, pty_yaml, run_yaml, sweep_yaml):
    n = os.path.basename(y)[:-5]
    r = run([bin_, "--check", y])
    if r.returncode != 0:
        fail("%s: --check refuses it: %s" % (n, r.stderr.decode(errors="replace")[:300]))
        continue
    # The run step's program runs when the exported program does: the same consent.
    r = run([bin_, "--export=c", "--allow-run=" + dumper, y])
    if r.returncode != 0:
        fail("%s: --export=c exit %d" % (n, r.returncode))
        continue
    c = r.stdout
    # Every scenario byte is escaped: the program is printable ASCII but for its own tabs
    # and newlines and the UTF-8 of a comment's printable characters; no bidi control.
    if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", c):
        fail("%s: a control byte in the program" % n)
    for ch in bidi + c1:
        if ch.encode() in c:
            fail("%s: U+%04X in the program" % (n, ord(ch)))
    with open(os.path.join(tmp, n + ".c"), "wb") as f:
        f.write(c)
    for cc in compilers:
        exe = os.path.join(tmp, "%s.%s" % (n, cc))
        extra = ["-DFILE_SIZE=65536", "-DBUF_SIZE=4096"] if n == "sweep" else []
        r = run([cc] + flags + extra + ["-o", exe, os.path.join(tmp, n + ".c")])
        if r.returncode != 0:
            fail("%s: %s does not compile it:\n%s" % (n, cc, r.stderr.decode(errors="replace")[:2000]))
        else:
            progs[(n, cc)] = exe
    print("ok   %s: exported, compiled by %s" % (n, " and ".join(compilers)))

# ---- The transcripts show every payload escaped (text and JSON, stdout and stderr). ----
for y in (text_yaml, pty_yaml, sweep_yaml):
    n = os.path.basename(y)[:-5]
    for fmt in ("text", "json", "tap"):
        r = run([bin_, "--headless", "--format=" + fmt, "--dir", tmp, y])
        both = r.stdout + r.stderr
        bad = re.findall(rb"[\x00-\x08\x0b-\x1f\x7f]", both)
        bad += [ch.encode() for ch in bidi + c1 if ch.encode() in both]
        if bad:
            fail("%s: --format=%s shows %r raw" % (n, fmt, bad[:5]))
print("ok   transcripts: no payload byte raw")

# ---- strace: the writes a process tree makes, with their bytes. ----
line_re = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+= (-?\d+)')
def unhex(s):
    return bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-f]{2})", s))

# What the exported program may touch besides its file (and its run step's program, which
# is the scenario's own): its stdout and stderr, ex13_4's terminal and temporary file,
# /dev/null (a sweep's reads), freopen's /proc/self/fd.
def allowed(p):
    return (p.startswith(b"scratch") or p.startswith(scratch) or
            p.startswith(b"/tmp/ex13_4.") or p.startswith(b"/dev/pts/") or
            p in (b"/dev/ptmx", b"/dev/null") or p.startswith(b"/proc/self/fd/"))

# (?: a call this architecture does not have, as aarch64 has no open.)
calls = ("write,pwrite64,writev,execve,openat,?open,?creat,?unlink,unlinkat,?rename,?renameat,"
         "renameat2,?link,linkat,?symlink,symlinkat,?mkdir,mkdirat,?chmod,fchmodat,truncate,"
         "socket,connect,kill,ptrace")

def traced(cmd, path_ok=lambda p: False, fd1=False):
    """Run cmd under strace; the writes on a file path_ok accepts (call, bytes, offset), or
    with fd1 the writes on fd 1 by any process but the first; every execve's argv; and what
    the processes that ran no other program did outside what allowed() accepts."""
    st = os.path.join(tmp, "st")
    r = run(["strace", "-f", "-qq", "-v", "-y", "-xx", "-s", "1000000", "-o", st,
             "-e", "trace=" + calls] + cmd, cwd=tmp)
    writes, execs, others, first, part, exec_d = [], [], [], None, {}, set()
    for line in open(st, errors="replace"):
        # A call another process interrupted: joined again, in the order it started.
        u = re.match(r'^(\d+)\s+(.*) <unfinished \.\.\.>$', line.rstrip("\n"))
        if u:
            part[u.group(1)] = u.group(2)
            continue
        u = re.match(r'^(\d+)\s+<\.\.\. \w+ resumed>(.*)$', line.rstrip("\n"))
        if u and u.group(1) in part:
            line = u.group(1) + " " + part.pop(u.group(1)) + u.group(2)
        m = line_re.match(line)
        if not m:
            continue
        pid, call, a = m.group(1), m.group(2), m.group(3)
        first = first or pid
        if call == "execve":
            argv = re.search(r'\[(.*)\]', a)
            execs.append([unhex(x) for x in re.findall(r'"((?:\\x[0-9a-f]{2})*)"', argv.group(1))]
                         if argv else [])
            if pid != first:
                exec_d.add(pid)
            continue
        if call.startswith("open") or call.startswith("unlink") or call == "creat":
            path = unhex((re.findall(r'"((?:\\x[0-9a-f]{2})*)"', a) or [""])[0])
            writing = call != "open" and call != "openat" or \
                re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC", a)
            if pid not in exec_d and writing and not allowed(path):
                others.append("%s(%r)" % (call, path))
            continue
        fm = re.match(r'(\d+)<((?:\\x[0-9a-f]{2})*)>(?:\(deleted\))?, "((?:\\x[0-9a-f]{2})*)"(.*)', a)
        if not fm:
            if pid not in exec_d:
                others.append(call)
            continue
        fd, path, data = int(fm.group(1)), unhex(fm.group(2)), unhex(fm.group(3))
        off = re.findall(r", (\d+)$", fm.group(4)) if call == "pwrite64" else []
        if pid not in exec_d and fd > 2 and not allowed(path):
            others.append("%s(%r)" % (call, path))
        if fd1 and fd == 1 and pid != first:
            writes.append((call, data))
        elif not fd1 and path_ok(path):
            writes.append((call, data, int(off[0]) if off else None))
    return r, writes, execs, others

def alone(what, execs, others, runs=0):
    """The program ran no other program than its run steps' and touched nothing else."""
    if len(execs) != 1 + runs:
        fail("%s: the program ran %d programs" % (what, len(execs) - 1))
    if others:
        fail("%s: the program did more than its lesson: %s" % (what, ", ".join(others[:5])))

def same(what, ours, theirs):
    if ours == theirs:
        print("ok   %s: %d writes, the same bytes" % (what, len(ours)))
        return
    for i, (o, t) in enumerate(zip(ours, theirs)):
        if o != t:
            fail("%s: write %d differs: iobufviz %r, the program %r" % (what, i + 1, o[:3], t[:3]))
            return
    fail("%s: iobufviz made %d writes, the program %d" % (what, len(ours), len(theirs)))

scratch = os.path.join(tmp, "scratch").encode()
ours_cmd = lambda y: [bin_, "--headless", "--trace=procio", "--dir", tmp, y]
# Lesson steps: the worker's writes on its scratch file, and the program's on its own.
r, ours, _, _ = traced(ours_cmd(text_yaml), lambda p: p.endswith(b"/scratch") and b"/iobufviz." in p)
if r.returncode > 1:
    fail("text: iobufviz exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[:300]))
want = [b(p) for p in payloads]
if [w[1] for w in ours if w[0] == "write"][:len(want)] != want or \
        [w[1] for w in ours if w[0] == "pwrite64"] != want:
    fail("text: iobufviz's own write() and pwrite() calls are not the payloads")
for cc in compilers:
    if ("text", cc) in progs:
        _, theirs, execs, others = traced([progs[("text", cc)], "scratch"], lambda p: p == scratch)
        same("text (%s)" % cc, ours, theirs)
        alone("text (%s)" % cc, execs, others)
# pty: what the snippet's children write to their stdout (the terminal, then the file).
r, ours, _, _ = traced(ours_cmd(pty_yaml), fd1=True)
for cc in compilers:
    if ("pty", cc) in progs:
        _, theirs, execs, others = traced([progs[("pty", cc)], "scratch"], fd1=True)
        same("pty (%s)" % cc, ours, theirs)
        alone("pty (%s)" % cc, execs, others)

# run: the program gets exactly the arguments and standard input iobufviz gave it: the
# scenario's bytes, "{file}" the scratch file's path (iobufviz's, the program's argument).
def dumped(path, file_path):
    try:
        data = open(path, "rb").read()
        os.unlink(path)
    except OSError:
        return "no output"
    argv, _, rest = data.partition(b"--stdin--")
    got = argv.split(b"\0")[:-1]
    want = [file_path(g) if a == "{file}" else a.encode() for a, g in zip(args, got)]
    if got != want or rest != stdin_text:
        return "arguments %d of %d, input %s" % (
            sum(x == y for x, y in zip(got, want)), len(args),
            "the same" if rest == stdin_text else "other")
    return None

# The consented form: the run step's program named on the command line (--allow-run=PROG).
r = run([bin_, "--headless", "--allow-run=" + dumper, "--dir", tmp, run_yaml], cwd=tmp)
why = dumped(out_path, lambda g: g if g.endswith(b"/scratch") else b"?")
if why:
    fail("run: iobufviz's run (exit %d): %s %s" % (r.returncode, why,
         r.stderr.decode(errors="replace")[:300]))
for cc in compilers:
    if ("run", cc) not in progs:
        continue
    _, _, execs, others = traced([progs[("run", cc)], "scratch"])
    why = dumped(out_path, lambda g: b"scratch")
    alone("run (%s)" % cc, execs, others, runs=1)
    if why:
        fail("run (%s): the program's run: %s" % (cc, why))
    elif execs[1:2] and execs[1][:2] != [dumper.encode(), out_path.encode()]:
        fail("run (%s): the program ran %r, not the run step's program" % (cc, execs[1][:1]))
    else:
        print("ok   run (%s): %d arguments and the input, byte for byte" % (cc, len(args)))

# sweep: each variant's name, printed by the program, is the scenario's.
r = run([bin_, "--headless", "--format=json", "--dir", tmp, sweep_yaml])
try:
    doc = json.loads(r.stdout)
    got = [v["name"] for s in doc["steps"] for v in (s.get("sweep") or {}).get("variants", [])]
    if got != names:
        fail("sweep: iobufviz's variant names %r" % got[:3])
except (ValueError, KeyError) as e:
    fail("sweep: iobufviz's JSON: %s" % e)
for cc in compilers:
    if ("sweep", cc) not in progs:
        continue
    r, _, execs, others = traced([progs[("sweep", cc)], "scratch"])
    alone("sweep (%s)" % cc, execs, others)
    at = 0
    for nm in names:
        k = r.stdout.find(nm.encode(), at)
        if k < 0:
            fail("sweep (%s): the program does not print the variant %r" % (cc, nm))
            break
        at = k + len(nm.encode())
    else:
        print("ok   sweep (%s): %d variant names, byte for byte" % (cc, len(names)))

# ---- A file that is not UTF-8 is refused where it stops being UTF-8, and exports nothing. ----
bad = os.path.join(tmp, "bad.yaml")
with open(bad, "wb") as f:
    f.write(b'title: t\nsteps:\n  - write: {text: "ok\xff\xfe"}\n')
r = run([bin_, "--export=c", bad])
if r.returncode != 2 or r.stdout or not re.match(rb".*bad\.yaml:3:\d+: ", r.stderr):
    fail("invalid UTF-8: --export=c exit %d, %r" % (r.returncode, r.stderr[:200]))
else:
    print("ok   invalid UTF-8: refused at 3:%s" % r.stderr.split(b":")[2].decode())

sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc -eq 0 ] || exit 1
[ -z "$seeds" ] || exit 0
# The calls (name, fd, sizes, offsets, results, in order), as program-truth.sh compares them.
"$src/tests/program-truth.sh" "$tmp/text.yaml" "$tmp/pty.yaml" "$tmp/sweep.yaml"
rc=$?
[ $rc = 77 ] && skip "program-truth.sh cannot run here"
[ $rc = 0 ] || fail=1
finish
