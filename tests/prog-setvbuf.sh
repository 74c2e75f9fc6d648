#!/bin/sh
# SPDX-License-Identifier: MIT
# prog-setvbuf.sh: "iobufviz -- PROGRAM" shows setvbuf with the size the program passed, and
# beside it the buffer glibc then uses where that differs. tests/foreign/vbuf calls
# setvbuf(a, NULL, _IOLBF, 0), (b, NULL, _IOLBF, 8192), (c, NULL, _IOFBF, 8192) and
# (d, own, _IOFBF, 1000), and prints what glibc's own __fbufsize said right after each: the
# step says the size passed, and "glibc's buffer: N B" (or "none yet") exactly where
# __fbufsize differs from it. A lesson's setvbuf step that gives no size is shown with the
# size the run passes (BUFSIZ, as <stdio.h> defines it), not 0. Needs python3 (and cc for
# BUFSIZ, else a named skip of that part).
testname=prog-setvbuf
. "$(dirname "$0")/lib.sh"
vbuf=$build/tests/foreign/vbuf
need python3
[ -x "$vbuf" ] || { echo "FAIL: $vbuf not built"; exit 99; }
mkdir "$tmp/w" "$tmp/t"
TMPDIR=$tmp/t "$bin" --headless --format=json --dir "$tmp/w" --timeout=60 -- "$vbuf" . \
	>"$tmp/v.json" 2>"$tmp/v.err" || bad "iobufviz exit $?: $(head -c 300 "$tmp/v.err")"

python3 - "$tmp" <<'PY' || fail=1
import json, os, re, sys
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
import checklib
from checklib import check
doc = json.load(open(os.path.join(sys.argv[1], "v.json")))
out = (doc["program"]["stdout"] or "").split()
check(len(out) == 5 and out[0] == "sizes", "the program says its buffers: %r" % out)
fb = [int(x) for x in out[1:5]] if len(out) == 5 else [None] * 4
calls = [("_IOLBF", 0, False), ("_IOLBF", 8192, False), ("_IOFBF", 8192, False),
         ("_IOFBF", 1000, True)]
steps = [s for s in doc["steps"] if s["op"] == "stdio" and s["stdio_call"]["func"] == "setvbuf"]
check(len(steps) == 4, "four setvbuf steps (%d)" % len(steps))
for s, (mode, size, own), got in zip(steps, calls, fb):
    a = re.sub(r"^\[\d+\] ", "", s["args"])
    check(a.startswith("setvbuf(fp, %s, %s, %d) = 0" % ("buf" if own else "NULL", mode, size)),
          "setvbuf(..., %s, %d) is shown as passed: %s" % (mode, size, a))
    m = re.search(r"glibc's buffer: (none yet|(\d+) B)", a)
    if got == size:
        check(m is None, "%s %d: glibc uses the size passed (%d): no other size said: %s" %
              (mode, size, got, a))
    elif got == 0:
        check(m is not None and m.group(1) == "none yet",
              "%s %d: glibc has no buffer yet (__fbufsize 0): %s" % (mode, size, a))
    else:
        check(m is not None and m.group(2) == str(got),
              "%s %d: glibc's buffer is %d B (__fbufsize): %s" % (mode, size, got, a))
sys.exit(1 if checklib.failed else 0)
PY

# A lesson's setvbuf with no size: ops_setvbuf passes BUFSIZ; the step's line says so.
if command -v cc >/dev/null 2>&1 &&
	bufsiz=$(printf '#include <stdio.h>\nBUFSIZ\n' | cc -E -P - 2>/dev/null | tail -n 1) &&
	[ -n "$bufsiz" ]; then
	printf '%s\n' 'title: "setvbuf with no size"' 'steps:' '  - fopen: {mode: "w"}' \
		'  - setvbuf: {mode: line}' '  - setvbuf: {mode: full, size: 1000, buffer: own}' \
		'  - fclose: {}' >"$tmp/l.yaml"
	"$bin" --headless --format=json --dir "$tmp/w" "$tmp/l.yaml" >"$tmp/l.json" 2>"$tmp/l.err" ||
		bad "lesson: iobufviz exit $?: $(head -c 300 "$tmp/l.err")"
	python3 - "$tmp/l.json" "$bufsiz" <<'PY' || fail=1
import json, sys
args = [s["args"] for s in json.load(open(sys.argv[1]))["steps"] if s["op"] == "setvbuf"]
want = ["setvbuf(fp, NULL, _IOLBF, %d)" % int(sys.argv[2]), "setvbuf(fp, buf, _IOFBF, 1000)"]
if args != want:
    print("FAIL: a lesson's setvbuf steps are shown as %r, the run passes %r" % (args, want))
    sys.exit(1)
print("ok: a lesson's setvbuf with no size is shown with the BUFSIZ it passes: %s" % args[0])
PY
else
	skip_part "lesson" "no cc to read BUFSIZ from <stdio.h>"
fi
finish
