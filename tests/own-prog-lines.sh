#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-lines.sh: a program built with -g whose calls stand on known lines
# (tests/foreign/lines.c: a helper's fprintf called in a loop, a helper's two calls of which
# the second makes no stop, fflush, fsync, fputs, fclose,
# open, write, close): each step names the line and function that made it, in the text
# and the JSON transcript alike, equal to what addr2line -f says of the step's address and
# to the line the source marks for that call; the helper's calls name their caller's line
# too, every step of them (those logged without a stop as well). Built without -g, a step names its function and address, and one hint says -g.
testname=own-prog-lines
. "$(dirname "$0")/lib.sh"
need python3 addr2line
prog=$build/tests/foreign/lines
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
nog=$build/tests/foreign/lines-nog
[ -x "$nog" ] || { echo "FAIL: $nog not built"; exit 99; }
for p in lines lines-nog; do
	mkdir -p "$tmp/$p-t" "$tmp/$p-j"
	"$bin" --headless --dir "$tmp/$p-t" -- "$build/tests/foreign/$p" >"$tmp/$p.txt" \
		2>"$tmp/$p.err" || bad "iobufviz $p exit $?: $(head -c 300 "$tmp/$p.err")"
	"$bin" --headless --format=json --dir "$tmp/$p-j" -- "$build/tests/foreign/$p" \
		>"$tmp/$p.json" 2>"$tmp/$p.err" || bad "iobufviz $p json exit $?"
done

python3 - "$tmp" "$prog" "$src/tests/foreign/lines.c" <<'PY' || fail=1
import json, os, re, subprocess, sys
tmp, prog, source = sys.argv[1:4]
bad = 0
def no(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
from checklib import line_marks
mark = line_marks(source)       # /* LINE:tag */
doc = json.load(open(os.path.join(tmp, "lines.json")))
steps = doc["steps"]
# Each step's call (the first word of a stdio call's func, or a system call's name) and
# where it says it was made.
def what(s):
    if s.get("stdio_call"):
        return s["stdio_call"]["func"]
    m = re.match(r"(?:\w+ = )?(\w+)\(", re.sub(r"^\[\d+\] ", "", s["args"]))
    return m.group(1) if m else s["args"]
seen = {}
for s in steps:
    src = s.get("source")
    w = what(s)
    if s["op"] in ("exit",) or w == "execve":
        continue
    if src is None:
        no("step %s (%s) names no source" % (s["args"], w))
        continue
    a2l = subprocess.run(["addr2line", "-f", "-e", prog, src["addr"]], capture_output=True,
                         text=True).stdout.split("\n")
    func, fl = a2l[0], re.sub(r" \(discriminator \d+\)", "", a2l[1])
    f, _, ln = fl.rpartition(":")
    if func != src["function"] or os.path.basename(f) != os.path.basename(src["file"] or "") \
       or ln != str(src["line"]):
        no("%s: iobufviz says %s:%s in %s, addr2line %s %s in %s" %
           (w, src["file"], src["line"], src["function"], src["addr"], fl, func))
    seen.setdefault(w, []).append(src)
# The calls on the lines the source marks for them.
want = {"fopen": ("fopen", "main"), "fprintf": ("save", "save"), "fputc": ("mark", "header"),
        "putc": ("mark2", "header"), "fflush": ("fflush", "main"),
        "fsync": ("fsync", "main"), "fwrite": ("fputs", "main"), "fclose": ("fclose", "main"),
        "openat": ("open", "main"), "write": ("write", "main"), "close": ("close", "main")}
for w, (tag, func) in want.items():
    got = seen.get(w)
    if not got:
        no("no step of %s" % w)
        continue
    for src in got:
        if src["line"] != mark[tag] or src["function"] != func:
            no("%s: line %s in %s, the source has it on line %d in %s" %
               (w, src["line"], src["function"], mark[tag], func))
# The helper's calls: every step of them called from the loop's line, those that made no
# system call (no stop, no walk of the stack: the shim kept the word a walk found the
# caller's return address in) as those that did.
for src in seen.get("fprintf", []):
    if src.get("caller_line") != mark["loop"] or src.get("caller_function") != "main":
        no("an fprintf step says it was called from line %s in %s, not line %d in main" %
           (src.get("caller_line"), src.get("caller_function"), mark["loop"]))
# The text transcript says the same, step by step.
text = open(os.path.join(tmp, "lines.txt")).read()
tl = re.findall(r"^step \d+ .*\n(?:  source  line (\d+) in (\w+)\(\))?", text, re.M)
jl = [(str(s["source"]["line"]), s["source"]["function"]) if s.get("source") else ("", "")
      for s in steps]
if [t for t in tl] != jl:
    no("text and JSON differ: %s vs %s" % (tl, jl))
# A folded run of the helper's fprintf is named as written: its format, not "format".
if not re.search(r'^step \d+ +\[\d+\] fprintf\(fp, "record %d\\n", \.\.\.\) x \d+: ', text, re.M):
    no("no folded fprintf step named with its format: %s" %
       re.findall(r"^step \d+ .*fprintf.*", text, re.M)[:2])
# header()'s fputc is the stream's first call (its buffer's allocation stops it: a walk);
# its putc, from the same function and frame, makes no stop: its caller is the walk's.
for w in ("fputc", "putc"):
    for src in seen.get(w, []):
        if src.get("caller_line") != mark["header"] or src.get("caller_function") != "main":
            no("a %s step says it was called from line %s in %s, not line %d in main" %
               (w, src.get("caller_line"), src.get("caller_function"), mark["header"]))
# Without -g: the function and its address, no line; the hint once.
ng = json.load(open(os.path.join(tmp, "lines-nog.json")))
srcs = [s["source"] for s in ng["steps"] if s.get("source")]
if not srcs or any(x["line"] is not None or x["function"] not in ("main", "save", "header") for x in srcs):
    no("without -g: %s" % srcs[:3])
ntext = open(os.path.join(tmp, "lines-nog.txt")).read()
if ntext.count("build the program with -g") != 1:
    no("without -g: the hint is said %d times" % ntext.count("build the program with -g"))
print("own-prog-lines: %d steps checked against addr2line" % sum(len(v) for v in seen.values()))
sys.exit(bad)
PY

# The TUI at 120x40: the program's source beside the panes, the shown step's line marked
# ("NN>" in the gutter): the helper's fprintf at step 5, fflush at step 7.
if command -v tmux >/dev/null 2>&1; then
	mkdir -p "$tmp/tui" "$tmp/t"
	tmux_new lines 120 40 "TMPDIR='$tmp/t' '$bin' --dir '$tmp/tui' -- '$prog'; sleep 60"
	tmux_sees lines "Your program, stopped before its first call on a file"
	# The line of the call marked LINE:$1 is marked, with that call's text on it.
	marked() {
		ln=$(grep -n "LINE:$1 \*/" "$src/tests/foreign/lines.c" | cut -d: -f1)
		want=$2
		wait_for 'tmux_screen lines | grep -E "[|│] *$ln> " | grep -qF -- "$want"' 5 && return 0
		bad "step $3: line $ln ($2) is not marked in the source pane:"
		tmux_screen lines | sed 's/^/    | /'
		return 1
	}
	# 2 s before the first n: not the execve's time, which is the program's.
	sleep 2
	tmux_cmd lines send-keys -t lines n n n n n
	tmux_sees lines "step 5/5" && marked save "fprintf(fp" 5 &&
		echo "ok: step 5: the source pane marks save()'s fprintf line"
	# o: the folded calls, each as written (its format and its own result).
	tmux_cmd lines send-keys -t lines o
	tmux_sees lines 'fprintf(fp, "record %d\n", ...) = 9' &&
		echo "ok: o names the folded fprintf calls as written"
	tmux_cmd lines send-keys -t lines Escape
	if tmux_screen lines | grep -E "#1 +execve" | grep -qE "[0-9] s\*"; then
		bad "the execve's time counts the wait for the first n:"
		tmux_screen lines | grep -E "#1 +execve" | sed 's/^/    | /'
	else
		echo "ok: the execve's time is the program's: $(tmux_screen lines | grep -oE "#1 +execve.*" | grep -oE "[0-9.]+ [mµn]?s\*")"
	fi
	tmux_cmd lines send-keys -t lines n n
	tmux_sees lines "step 7/7" && marked fflush "fflush(fp)" 7 &&
		echo "ok: step 7: the source pane marks the fflush line"
	tmux_kill lines
else
	skip_part "tmux not installed: the TUI's source pane"
fi
finish
