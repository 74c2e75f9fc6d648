#!/bin/sh
# SPDX-License-Identifier: MIT
# own-prog-runs.sh: runs of like stdio calls, which the shim logs as one entry each (a write
# that only adds its bytes to the buffer, like the call before it): tests/foreign/runs.c's
# helper fwrite called from two lines of main in an irregular order, then fputc and fputs
# loops. Every call is counted; after every step the pending bytes equal the program's own
# __fpending after that step's last call; each fwrite step names the helper's line and, when
# it names the line that called the helper, names the right one (a run of calls from both
# lines names no caller for the calls before its last, never a wrong one); and the shim's
# logs were read as far fewer entries than there were calls. With a buffer of 1 MiB the folds
# end in the middle of runs (each step's state then rebuilt from its run's last call), and
# the same with a stop every 7 calls (the tracer takes each run in parts) gives the same steps.
# A folded run of fputs of one literal names the literal, and so does each of its calls in the
# TUI's o list (tmux, 120x40).
testname=own-prog-runs
. "$(dirname "$0")/lib.sh"
need python3
prog=$build/tests/foreign/runs
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
n=20000
for c in "plain" "big 1048576" "stops 1048576 7"; do
	set -- $c
	name=$1
	shift
	mkdir "$tmp/$name"
	"$bin" --headless --format=json --dir "$tmp/$name" --timeout=60 -- "$prog" out rep $n "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err" ||
		bad "$name: iobufviz exit $?: $(head -c 300 "$tmp/$name.err")"
	[ -s "$tmp/$name/rep" ] || bad "$name: the program wrote no report"
done

python3 - "$tmp" "$src/tests/foreign/runs.c" "$n" <<'PY' || fail=1
import json, os, re, sys
tmp, source, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
bad = 0
def no(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1
sys.dont_write_bytecode = True          # nothing is written into the source tree
sys.path.insert(0, os.path.join(os.environ["IOBUFVIZ_SRCDIR"], "tests"))
from checklib import line_marks
mark = line_marks(source)       # /* LINE:tag */
def check(name):
  rep = [l.split() for l in open(os.path.join(tmp, name, "rep"))]
  rep = [(f, int(p), int(ln)) for f, p, ln in rep]
  if len(rep) != 3 * n:
    no("%s: the program reported %d calls, not %d" % (name, len(rep), 3 * n))
  doc = json.load(open(os.path.join(tmp, name + ".json")))
  fd = None
  for s in doc["steps"]:
      if s["op"] == "stdio" and s["stdio_call"]["func"] == "fopen":
          fd = s["stdio_call"]["fd"]
          break
  used = checked = mism = named = 0
  funcs = {"w": ("fwrite",), "c": ("fputc",), "s": ("fputs", "fwrite")}
  for s in doc["steps"]:
      if s["op"] == "stdio" and s["stdio_call"]["func"] == "fclose":
          break
      if s["op"] != "stdio" or s["stdio_call"]["fd"] != fd or \
         s["stdio_call"]["func"] in ("fopen", "setvbuf", "exit"):
          continue
      used += s["count"]
      if used > len(rep):
          no("more calls than the program made: %d" % used)
          break
      f, pend, line = rep[used - 1]
      got = s["state"]["stdio"]["pending"]
      checked += 1
      if got != pend or s["stdio_call"]["func"] not in funcs[f]:
          mism += 1
          if mism <= 3:
              print("  step %d (%s x %d): pending %d, __fpending %d (%s)" %
                    (s["index"], s["stdio_call"]["func"], s["count"], got, pend, f))
      # A run of one literal names it, folded as one call would ("fputs" made fwrite).
      if f == "s" and '"line of a literal\\n"' not in s["args"]:
          no("step %d: a run of fputs of one literal does not name it: %s" %
             (s["index"], s["args"][:120]))
      src = s.get("source") or {}
      if f == "w":
          if src.get("line") != mark["rec"] or src.get("function") != "rec":
              no("step %d: fwrite at line %s in %s, not line %d in rec" %
                 (s["index"], src.get("line"), src.get("function"), mark["rec"]))
          if src.get("caller_line") is not None:
              named += 1
              if src["caller_line"] != line:
                  no("step %d: its last fwrite was called from line %d, the step says line %s" %
                     (s["index"], line, src["caller_line"]))
  if mism or used != len(rep):
      no("pending after each step = the program's __fpending: %d of %d steps differ; %d of %d "
         "calls seen" % (mism, checked, used, len(rep)))
  else:
      print("ok: %s: %d calls in %d steps, each step's pending the program's own" % (name, used, checked))
  if named == 0:
      no("no fwrite step names the line that called rec()")
  else:
      print("ok: %s: %d fwrite steps name the line that called rec(), each the right one" % (name, named))
  tr = doc["program"]["tracer"]
  calls = doc["program"]["calls"]["stdio"]
  if name != "stops" and not (0 < tr["log_entries"] and tr["log_entries"] * 10 < calls):
      no("%d stdio calls read as %d log entries: runs were not logged as one" %
         (calls, tr["log_entries"]))
  else:
      print("ok: %s: %d stdio calls read as %d log entries" % (name, calls, tr["log_entries"]))
  return [(s["op"], (s.get("stdio_call") or {}).get("func"), s["count"],
           re.sub(r"^\[\d+\] ", "", s["args"]),
           json.dumps((s.get("state") or {}).get("stdio")), json.dumps(s.get("source")))
          for s in doc["steps"]]
steps = {name: check(name) for name in ("plain", "big", "stops")}
if steps["big"] != steps["stops"]:
    diff = [(a, b) for a, b in zip(steps["big"], steps["stops"]) if a != b][:2]
    no("a stop every 7 calls changed the steps: %s" % diff)
else:
    print("ok: a stop every 7 calls leaves the %d steps as they were" % len(steps["big"]))

sys.exit(bad)
PY

# The TUI at 120x40: o lists a run of fputs of one literal call by call, each naming it.
if command -v tmux >/dev/null 2>&1; then
	mkdir -p "$tmp/tui" "$tmp/t"
	tmux_new runs 120 40 "TMPDIR='$tmp/t' '$bin' --dir '$tmp/tui' -- '$prog' out rep 300; sleep 60"
	tmux_sees runs "Your program, stopped before its first call on a file"
	# n until the step shown is a folded run of the literal (the what-happened pane).
	i=0
	until tmux_screen runs | grep -qF 'fwrite("line of a literal\n", 1, 18, fp) x '; do
		[ $i -ge 20 ] && break
		before=$(tmux_screen runs | head -1)
		tmux_cmd runs send-keys -t runs n
		wait_for '[ "$(tmux_screen runs | head -1)" != "$before" ]' 5
		i=$((i + 1))
	done
	tmux_cmd runs send-keys -t runs o
	tmux_sees runs 'fwrite("line of a literal\n", 1, 18, fp) = 18' &&
		echo "ok: o names each call of a run of one literal by it"
else
	skip_part "tmux not installed: the TUI's o"
fi
finish
