#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/long-text.sh: no fixed buffer holds text of unbounded length. A lesson with a title,
# an intro, a narration and an fputs() text of 10,000 characters each, run under a --dir
# path of about 3,000 characters (a name is at most 255 bytes, so the length is the path's),
# keeps each of them whole in the text, JSON, TAP and HTML transcripts; where a column must
# cut one (the call's text in a step's line) the cut ends in "…"; and the TUI at 80x24 shows
# the title cut with "…" and the narration whole in its details popup. An expectation on a
# 2,000-character file.content (it is read up to 4 KiB) that differs from the file only in
# its last character fails (compared whole, not in its first 255 bytes); the text it got is
# whole in the transcripts, what it wanted is whole in the JSON (its "want"), and why its
# sentence is false (what it wanted and what it got, both whole) is whole in the text and
# JSON transcripts. A run step whose program is a path of 10,000 characters, allowed, cannot
# run (the name is too long): the step's note that says so names the program whole in the
# text and JSON transcripts. --check names a scenario under that --dir path, and its unknown
# op of 1,000 characters, whole; a usage error, an unknown option of 2,000. A program run
# with an argument of 5,000 characters has its command line whole as the transcript's title.
# Under ASan (the build-san build) any overflow fails the run.
testname=long-text
. "$(dirname "$0")/lib.sh"
need python3

# run_headless NAME STATUS WHAT "FORMATS" ARGS...: iobufviz --headless ARGS once in each format
# into $tmp/NAME.FORMAT; an exit other than STATUS, or anything on stderr, fails.
run_headless() {
	name=$1 want=$2 what=$3 fmts=$4
	shift 4
	for fmt in $fmts; do
		"$bin" --headless --format=$fmt "$@" >"$tmp/$name.$fmt" 2>"$tmp/$name-err.$fmt"
		rc=$?
		if [ $rc -ne "$want" ] || [ -s "$tmp/$name-err.$fmt" ]; then
			echo "FAIL: $what: --format=$fmt: exit $rc, not $want:"
			head -c 2000 "$tmp/$name-err.$fmt" | sed 's/^/    | /'
			fail=1
		fi
	done
}

# The 10,000-character texts, each ending in a word the test looks for.
python3 - "$tmp" <<'PY' || exit 99
import sys
tmp = sys.argv[1]
title = ("Title-" * 1666)[:9994] + "TITEND"
intro = ("Intro " * 1666)[:9994] + "INTEND"
say = ("Narration " * 1000)[:9994] + "SAYEND"
text = ("steptext-" * 1112)[:9994] + "TXTEND"
for s in (title, intro, say, text):
    assert len(s) == 10000
open(tmp + "/long.yaml", "w").write('''title: "%s"
intro: "%s on {fs}"
steps:
  - fopen: {mode: w}
    say: "%s [stdio.mode = full]"
  - fputs: {text: "%s"}
    say: "%s [stdio.mode = full]"
  - fclose: {}
''' % (title, intro, say, text, say))
PY

# A --dir of 14 names of 200 bytes: 2,814 bytes below $tmp.
long=$tmp/$(python3 -c "print('/'.join(['d' * 200] * 14))")
mkdir -p "$long" || exit 99

run_headless out 0 "the long lesson" "text json tap html" --dir "$long" "$tmp/long.yaml"
python3 - "$tmp" "$long" <<'PY' || fail=1
import html, json, re, sys
tmp, long = sys.argv[1:]
out = {f: open("%s/out.%s" % (tmp, f), encoding="utf-8").read()
       for f in ("text", "json", "tap", "html")}
title = ("Title-" * 1666)[:9994] + "TITEND"
intro = ("Intro " * 1666)[:9994] + "INTEND"
say = ("Narration " * 1000)[:9994] + "SAYEND"
text = ("steptext-" * 1112)[:9994] + "TXTEND"
bad = []
# The text transcript wraps narration at 80 columns, indented (a step's behind "| "): compared
# with its line breaks folded.
flat = re.sub(r"\s*\n\s*(\| )?", " ", out["text"])
def whole(fmt, what, s, body):
    if s not in body and (fmt != "text" or s not in flat):
        bad.append("%s: the %s is not there whole" % (fmt, what))
for fmt in ("text", "json"):
    whole(fmt, "title", title, out[fmt])
    whole(fmt, "intro", intro, out[fmt])
    whole(fmt, "narration", say, out[fmt])
    whole(fmt, "scratch directory", long, out[fmt])
whole("tap", "title", title, out["tap"])
whole("tap", "narration", say, out["tap"])
page = html.unescape(out["html"])
whole("html", "title", title, page)
whole("html", "narration", say, page)
# The fputs() text: whole, or cut where its line is laid out, and then with "…".
for fmt in ("text", "json"):
    body = out[fmt]
    if text not in body and ("steptext-steptext" not in body or "…" not in body):
        bad.append("%s: the fputs() text is neither whole nor cut with '…'" % fmt)
try:
    doc = json.loads(out["json"])
    if doc["scenario"]["title"] != title:
        bad.append("json: scenario.title is not the title")
except (ValueError, KeyError, TypeError) as e:
    bad.append("json: %s" % e)
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: 10,000-character title, intro, narration and a 2,800-byte --dir, whole in "
          "text, JSON, TAP and HTML; the call's text cut with '…'")
sys.exit(1 if bad else 0)
PY

# file.content of 2,000 characters, wrong in the last one only.
python3 - "$tmp" <<'PY' || exit 99
import sys
tmp = sys.argv[1]
got = ("content-" * 250)[:1994] + "CONEND"
want = got[:-1] + "X"
open(tmp + "/content.yaml", "w").write('''title: "a long file.content"
steps:
  - fopen: {mode: w}
  - fputs: {text: "%s"}
  - fclose: {}
    say: "The file holds it all [file.content]."
    expect: {file.content: "%s"}
''' % (got, want))
PY
run_headless content 1 "file.content wrong in its 2,000th character" "text json" \
	--dir "$tmp" "$tmp/content.yaml"
python3 - "$tmp" <<'PY' || fail=1
import json, re, sys
tmp = sys.argv[1]
got = ("content-" * 250)[:1994] + "CONEND"
want = got[:-1] + "X"
why = 'file.content = "%s", here %s' % (want, got)
bad = []
try:
    step = json.load(open(tmp + "/content.json", encoding="utf-8"))["steps"][2]
    x, v = step["expect"][0], step["sentences"][0]
    if x["outcome"] != "failed":
        bad.append("json: the expectation is %s, not failed" % x["outcome"])
    if x["got"] != got:
        bad.append("json: got is not the file's 2,000 characters whole (%d)" % len(x["got"] or ""))
    if x["want"] != '= "%s"' % want:
        bad.append("json: want is not the 2,000 characters whole (%d)" % len(x["want"] or ""))
    if v["outcome"] != "false" or v["why"] != why:
        bad.append("json: the sentence is %s, its why not the want and got whole (%d)" %
                   (v["outcome"], len(v["why"] or "")))
except (ValueError, KeyError, IndexError, TypeError) as e:
    bad.append("json: %s" % e)
flat = re.sub(r"\s*\n\s*(\| )?", " ", open(tmp + "/content.text", encoding="utf-8").read())
if got not in flat:
    bad.append("text: the content got is not there whole")
if why not in flat:
    bad.append("text: why the sentence is false is not there whole")
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: a 2,000-character file.content wrong in its last character fails; what it got, "
          "what it wanted and why its sentence is false are whole")
sys.exit(1 if bad else 0)
PY

# A run step whose program is a path of 10,000 characters: allowed, it cannot run, and the
# step's note says why, naming it whole.
prog=$(python3 -c "print('./' + ('prog-' * 2000)[:9992] + 'PROGEND')") || exit 99
printf 'title: "a long program name"\nsteps:\n  - run: {program: "%s"}\n' "$prog" >"$tmp/run.yaml"
run_headless run 0 "a run step of a 10,000-character program" "text json" \
	--allow-run="$prog" --dir "$tmp" "$tmp/run.yaml"
python3 - "$tmp" "$prog" <<'PY' || fail=1
import json, sys
tmp, prog = sys.argv[1:]
bad = []
try:
    note = json.load(open(tmp + "/run.json", encoding="utf-8"))["steps"][0]["note"] or ""
except (ValueError, KeyError, IndexError, TypeError) as e:
    note = ""
    bad.append("json: %s" % e)
text = open(tmp + "/run.text", encoding="utf-8").read()
if not note.startswith("./prog-prog"):
    # Refused before the program is named (no ptrace here): nothing of it to cut.
    print("SKIP: long-text: the run step's note: it does not name the program here: %s" %
          note[:200])
    sys.exit(0)
if prog not in note:
    bad.append("json: the note does not name the program whole (%d)" % len(note))
if "  note    " + prog not in text:
    bad.append("text: the note does not name the program whole")
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: a 10,000-character program name is whole in the run step's note, text and JSON")
sys.exit(1 if bad else 0)
PY

# A scenario under the 2,800-byte --dir path with an op of 1,000 characters: --check names
# both whole in its error line.
op=$(python3 -c "print(('op' * 500)[:997] + 'END')") || exit 99
printf 'title: "a long op"\nsteps:\n  - %s: {}\n' "$op" >"$long/bad.yaml"
"$bin" --check "$long/bad.yaml" >"$tmp/check.out" 2>"$tmp/check.err"
rc=$?
if [ $rc -ne 2 ]; then
	echo "FAIL: --check of a scenario with a 1,000-character op: exit $rc, not 2"
	fail=1
elif grep -qF "$long/bad.yaml:3:5: unknown op '$op' in step 1" "$tmp/check.err"; then
	echo "ok: --check names a 2,800-byte path and a 1,000-character op whole"
else
	echo "FAIL: --check's error line does not name the path and the op whole:"
	head -c 300 "$tmp/check.err" | sed 's/^/    | /'
	fail=1
fi

# An unknown option of 2,000 characters: the usage error names it whole.
opt=$(python3 -c "print('--' + ('opt-' * 500)[:1994] + 'OEND')") || exit 99
"$bin" "$opt" >/dev/null 2>"$tmp/opt.err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "unknown option '$opt'" "$tmp/opt.err"; then
	echo "ok: an unknown option of 2,000 characters is named whole"
else
	echo "FAIL: an unknown option of 2,000 characters: exit $rc, not named whole:"
	head -c 300 "$tmp/opt.err" | sed 's/^/    | /'
	fail=1
fi

# A program run with an argument of 5,000 characters: the transcript's title, its command
# line, names it whole.
arg=$(python3 -c "print(('arg-' * 1250)[:4996] + 'AEND')") || exit 99
"$bin" --headless --format=json -- true "$arg" >"$tmp/argv.json" 2>"$tmp/argv.err"
rc=$?
if [ $rc -eq 3 ]; then
	skip_part argv "the program cannot be traced here: $(head -c 200 "$tmp/argv.err")"
elif [ $rc -ne 0 ] || [ -s "$tmp/argv.err" ]; then
	echo "FAIL: a program run with a 5,000-character argument: exit $rc:"
	head -c 2000 "$tmp/argv.err" | sed 's/^/    | /'
	fail=1
else
	python3 - "$tmp" "$arg" <<'PY' || fail=1
import json, sys
tmp, arg = sys.argv[1:]
try:
    title = json.load(open(tmp + "/argv.json", encoding="utf-8"))["scenario"]["title"] or ""
except (ValueError, KeyError, TypeError) as e:
    title = "(%s)" % e
if title != "true " + arg:
    print("FAIL: json: the title is not the command line whole (%d characters)" % len(title))
    sys.exit(1)
print("ok: a program's 5,000-character argument is whole in the transcript's title")
PY
fi

# The TUI at 80x24: the title cut with "…", the step's narration whole in its details.
if command -v tmux >/dev/null 2>&1; then
	tmux_new lt 80 24 "LC_ALL=C.UTF-8 TERM=screen '$bin' --no-mouse --dir '$long' '$tmp/long.yaml' 2>'$tmp/tui.err'; echo exit=\$?; sleep 60" ||
		{ echo "FAIL: tmux"; exit 99; }
	if tmux_sees lt "step 0/3" 30; then
		if tmux_screen lt | head -1 | grep -q "Title-Title.*… *step 0/3"; then
			echo "ok: the title is cut with '…' in the top line"
		else
			echo "FAIL: the top line does not cut the title with '…':"
			tmux_screen lt | head -1 | sed 's/^/    | /'
			fail=1
		fi
		tmux_cmd lt send-keys -t lt n
		tmux_sees lt "step 1/3" 30 && wait_for "tmux_settled lt" 30
		# Shift-Tab: the log's details, the narration from its first word.
		tmux_cmd lt send-keys -t lt BTab
		if tmux_sees lt "details" 10 && tmux_screen lt | grep -q "Narration Narration" &&
			tmux_screen lt | grep -qF "… more"; then
			echo "ok: the details popup shows the narration, and says there is more"
		else
			echo "FAIL: no details popup with the narration and '… more':"
			tmux_screen lt | sed 's/^/    | /'
			fail=1
		fi
		tmux_cmd lt send-keys -t lt Escape q
		tmux_sees lt "exit=0" 20 || fail=1
		if [ -s "$tmp/tui.err" ]; then
			echo "FAIL: the TUI wrote to stderr:"
			head -c 2000 "$tmp/tui.err" | sed 's/^/    | /'
			fail=1
		fi
	fi
	tmux_kill lt
else
	skip_part tui "tmux not installed"
fi
finish
