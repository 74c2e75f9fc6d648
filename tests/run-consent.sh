#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/run-consent.sh: a scenario's run step runs a program only when the command line allows
# it (--allow-run=PROG, by its name or its file, or --allow-run); --check lists what it would
# run, escaped; headless refuses otherwise (exit 2, FILE:LINE:COL, nothing run). The program
# gets stdin only from /dev/null, the scratch file or a file in the lesson's directory (not
# --dir), and no controlling
# terminal even when iobufviz has one.
testname=run-consent
. "$(dirname "$0")/lib.sh"
need python3
hostile=$build/tests/foreign/hostile
[ -x "$hostile" ] || { echo "FAIL: $hostile not built"; exit 99; }
mkdir "$tmp/d" "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR
touch_path=$(command -v touch)

# A scenario whose step 2 touches $tmp/ran; its second argument carries an ESC and a BEL.
cat >"$tmp/touch.yaml" <<EOF
title: "runs touch"
steps:
  - note: "[background] first"
  - run: {program: touch, args: ["$tmp/ran", "$tmp/\e]0;pwned\a"]}
    expect: {exit.status: 0}
EOF

# --check: ok, and the command line it would run, in full and escaped.
"$bin" --check "$tmp/touch.yaml" >"$tmp/check.out" 2>&1 || bad "--check: exit $?"
grep -qF "$tmp/touch.yaml:4:5: step 2 runs: touch $tmp/ran '$tmp/\\x1b]0;pwned\\x07'" "$tmp/check.out" ||
	bad "--check does not list the run step: $(cat "$tmp/check.out")"
LC_ALL=C grep -q "$(printf '\033')" "$tmp/check.out" && bad "--check wrote a raw ESC"

# Headless without consent: exit 2, the step named at its line, nothing run.
"$bin" --headless --dir "$tmp/d" "$tmp/touch.yaml" >"$tmp/no.out" 2>"$tmp/no.err"
rc=$?
[ $rc = 2 ] || bad "no --allow-run: exit $rc, expected 2"
[ ! -e "$tmp/ran" ] || bad "no --allow-run: the program ran"
grep -qF "$tmp/touch.yaml:4:5: step 2 runs: touch" "$tmp/no.err" || bad "no --allow-run: message: $(cat "$tmp/no.err")"
grep -qF -- "--allow-run" "$tmp/no.err" || bad "no --allow-run: the message does not say how to allow it"
[ ! -s "$tmp/no.out" ] || bad "no --allow-run: a transcript was printed"
LC_ALL=C grep -q "$(printf '\033')" "$tmp/no.err" && bad "no --allow-run: a raw ESC on stderr"

# Another program allowed: still refused.
"$bin" --headless --allow-run=cat --allow-run=./touch --dir "$tmp/d" "$tmp/touch.yaml" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/ran" ] || bad "--allow-run=cat: exit $rc, ran: $(ls "$tmp")"

# Allowed by its name, by its file, or all: it runs.
for allow in --allow-run=touch "--allow-run=$touch_path" --allow-run; do
	rm -f "$tmp/ran"
	"$bin" --headless --format=tap $allow --dir "$tmp/d" "$tmp/touch.yaml" >"$tmp/yes.out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ -e "$tmp/ran" ] || bad "$allow: exit $rc, ran: $([ -e "$tmp/ran" ] && echo yes || echo no): $(cat "$tmp/yes.out")"
done

# --export=c: the program it writes runs the step's program when the student runs it, so it
# takes the same consent: without it, nothing on stdout and exit 2, the step named; with it,
# the program's opening comment names every command line it runs, escaped (no ESC, no early
# "*/"), and the program compiles.
cat >"$tmp/export.yaml" <<EOF
title: "exports touch"
steps:
  - note: "[background] first"
  - run: {program: touch, args: ["$tmp/exported", "*/ int x; /* \e[31m"]}
  - run: {program: cat, stdin: "{file}"}
EOF
"$bin" --export=c "$tmp/export.yaml" >"$tmp/export.c" 2>"$tmp/export.err"
rc=$?
[ $rc = 2 ] || bad "--export=c, no --allow-run: exit $rc, expected 2"
[ ! -s "$tmp/export.c" ] || bad "--export=c, no --allow-run: a program was written"
grep -qF "$tmp/export.yaml:4:5: step 2 runs: touch $tmp/exported" "$tmp/export.err" &&
	grep -qF "$tmp/export.yaml:5:5: step 3 runs: cat < {file}" "$tmp/export.err" &&
	grep -qF -- "--allow-run" "$tmp/export.err" ||
	bad "--export=c, no --allow-run: message: $(cat "$tmp/export.err")"
"$bin" --export=c --allow-run=touch "$tmp/export.yaml" >"$tmp/export.c" 2>"$tmp/export.err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/export.c" ] || bad "--export=c --allow-run=touch (cat not allowed): exit $rc"
for allow in "--allow-run=touch --allow-run=cat" --allow-run; do
	# shellcheck disable=SC2086
	"$bin" --export=c $allow "$tmp/export.yaml" >"$tmp/export.c" 2>"$tmp/export.err"
	rc=$?
	[ $rc = 0 ] || bad "--export=c $allow: exit $rc: $(cat "$tmp/export.err")"
done
# The opening comment (to its first "*/"), its lines joined as one text.
sed -n '1,/\*\//p' "$tmp/export.c" | sed 's/^ \*//' | tr '\n' ' ' | tr -s ' ' >"$tmp/export.head"
grep -qF "Warning: this program runs other programs, with your rights" "$tmp/export.head" &&
	grep -qF "step 2 (line 4): touch $tmp/exported '* / int x; / * \\x1b[31m'" "$tmp/export.head" &&
	grep -qF "step 3 (line 5): cat < {file}" "$tmp/export.head" ||
	bad "--export=c: the header does not name what it runs: $(cat "$tmp/export.head")"
LC_ALL=C grep -q "$(printf '\033')" "$tmp/export.c" && bad "--export=c: a raw ESC in the program"
if command -v cc >/dev/null; then
	cc -std=c11 -Wall -Wextra -Werror -Wtrigraphs -o "$tmp/export" "$tmp/export.c" 2>"$tmp/cc.err" ||
		bad "--export=c: does not compile: $(cat "$tmp/cc.err")"
else
	echo "SKIP: run-consent: export compiles: no cc"
fi
[ ! -e "$tmp/exported" ] || bad "--export=c ran the program"

# stdin: a file of the user's outside the scratch dir and the lesson's directory is never
# read, not even under --dir (where scratch files go: it grants nothing); the scratch file
# ({file}) and a file next to the lesson (by its path, or by a name relative to the lesson)
# are.
mkdir "$tmp/lesson"
echo "under dir" >"$tmp/d/input"
echo "secret" >"$tmp/secret"
echo "next to it" >"$tmp/lesson/input"
cat >"$tmp/lesson/stdin.yaml" <<EOF
title: "runs cat"
file: {size: 12, fill: lines}
steps:
  - run: {program: cat, stdin: "$tmp/secret"}
  - run: {program: cat, stdin: "{file}"}
  - run: {program: cat, stdin: "$tmp/d/input"}
  - run: {program: cat, stdin: "$tmp/lesson/input"}
  - run: {program: cat, stdin: "input"}
  - run: {program: cat, stdin: "/nonexistent/$(printf '%0300d' 0)"}
EOF
"$bin" --headless --format=json --allow-run=cat --dir "$tmp/d" "$tmp/lesson/stdin.yaml" >"$tmp/stdin.json" 2>"$tmp/stdin.err"
python3 - "$tmp/stdin.json" <<'PY' || fail=1
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
rc = 0
def check(ok, what):
    global rc
    if not ok:
        print("FAIL: stdin: " + what); rc = 1
def refused(s):
    return s["output"] is None and "not a regular file inside" in (s["note"] or "")
check(refused(steps[0]), "a file outside the scratch dir and the lesson's was given: %r %r" % (steps[0]["output"], steps[0]["note"]))
check(steps[1]["output"] == "line 000001\n", "{file}: %r" % steps[1]["output"])
check(refused(steps[2]), "a file under --dir was given: %r %r" % (steps[2]["output"], steps[2]["note"]))
check(steps[3]["output"] == "next to it\n", "a file next to the lesson: %r %r" % (steps[3]["output"], steps[3]["note"]))
check(steps[4]["output"] == "next to it\n", "a name relative to the lesson: %r %r" % (steps[4]["output"], steps[4]["note"]))
check(refused(steps[5]) and "/nonexistent/" + "0" * 187 + "\u2026 is not" in steps[5]["note"],
      "a long path is cut with a mark: %r" % steps[5]["note"])
sys.exit(rc)
PY

# No controlling terminal for the run step's program, though iobufviz has one (a pty).
cat >"$tmp/tty.yaml" <<EOF
title: "runs hostile tty"
steps:
  - run: {program: "$hostile", args: [tty]}
    expect: {output: "open /dev/tty: No such device or address\n"}
EOF
python3 "$src/tests/on-pty.py" "$tmp/tty.out" pwned "$bin" --headless --format=tap --allow-run \
	--dir "$tmp/d" "$tmp/tty.yaml" 2>"$tmp/tty.err" || bad "tty: $(cat "$tmp/tty.out" "$tmp/tty.err")"

# A command line longer than any buffer: --check and the refusal show it whole, its second
# line (after 4200 x of a comment) too.
long=$(head -c 4200 /dev/zero | tr '\0' x)
printf 'title: "long"\nsteps:\n  - run: {program: sh, args: ["-c", "echo hello # %s\\ntouch %s/PWNED-LONG"]}\n' \
	"$long" "$tmp" >"$tmp/long.yaml"
"$bin" --check "$tmp/long.yaml" >"$tmp/long-check.out" 2>&1 || bad "long: --check: exit $?"
grep -qF "$long\\ntouch $tmp/PWNED-LONG" "$tmp/long-check.out" ||
	bad "long: --check cuts the command line: $(tail -c 200 "$tmp/long-check.out")"
"$bin" --headless --dir "$tmp/d" "$tmp/long.yaml" >/dev/null 2>"$tmp/long-no.err"
rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/PWNED-LONG" ] || bad "long: no --allow-run: exit $rc"
grep -qF "$long\\ntouch $tmp/PWNED-LONG" "$tmp/long-no.err" ||
	bad "long: the refusal cuts the command line: $(tail -c 200 "$tmp/long-no.err")"

# A program that fails says why in its step's note: its stderr's last line, escaped, past
# 100 KB of lines before it (more than iobufviz keeps of its start).
cat >"$tmp/fails.yaml" <<'EOF'
title: "fails"
steps:
  - run: {program: sh, args: ["-c", 'seq 1 20000 >&2; printf "no such thing: \\033]0;pwned\\007\\n\\n" >&2; exit 3']}
EOF
"$bin" --headless --allow-run=sh --dir "$tmp/d" "$tmp/fails.yaml" >"$tmp/fails.out" 2>&1
grep -qF 'the program exited 3 after' "$tmp/fails.out" &&
	grep -qF 'its stderr ended "no such thing: \x1b]0;pwned\x07"' "$tmp/fails.out" ||
	bad "a failing program's stderr is not in its note: $(grep -F exited "$tmp/fails.out")"
LC_ALL=C grep -q "$(printf '\033')" "$tmp/fails.out" && bad "the failing program's note wrote a raw ESC"
# A last line longer than the note keeps is cut with a mark, not silently.
cat >"$tmp/fails-long.yaml" <<'EOF'
title: "fails long"
steps:
  - run: {program: sh, args: ["-c", 'printf "%0600d\\n" 7 >&2; exit 4']}
EOF
"$bin" --headless --allow-run=sh --dir "$tmp/d" "$tmp/fails-long.yaml" >"$tmp/fails-long.out" 2>&1
grep -q 'its stderr ended "0000000000*…"' "$tmp/fails-long.out" ||
	bad "a long stderr line is not cut with a mark: $(grep -F 'stderr ended' "$tmp/fails-long.out" | tail -c 120)"

[ $fail = 0 ] && echo "ok: --check lists, headless and --export=c refuse, --allow-run runs (name, file, all), the export names what it runs, stdin confined, no /dev/tty, a failure's stderr in its note"
finish
