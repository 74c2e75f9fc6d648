#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/html.sh: --export=html in a real browser (headless Chromium driven over the DevTools
# pipe, offline: tests/cdp.py, tests/html-check.py). Exercise 13-3's page, a crash lesson's
# (both crashes, the device line) and a traced program's load with no console error and no
# request, read with JavaScript off (the lesson's question on top, every step written: its
# calls, sentences and expectations), ask a prediction before a step and count the score,
# zoom for a projector (cells of 24 px or more at 1920x1080), mark 13.5's pages by where they
# came from, go through every step by key, click and address showing the numbers of their JSON
# transcript and what changed (with each sentence of the narration marked held, or unchecked
# with its reason: 13-3 under mincore), keep cached,
# dirty and writeback apart for readers blind to red and green, tell what the kernel did
# before a step at a person's pace (13-3 at --pace=6 in an ext4 lab: the journal's commit, when),
# and fit 1280x800, 1920x1080
# and a 390x844 phone (screenshots kept in $IOBUFVIZ_SHOTS if it is set). A scenario and a program
# whose titles, texts and file names are markup, script, quotes and bidi controls give pages
# where none of it is more than text.
testname=html
. "$(dirname "$0")/lib.sh"
need python3
chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium not installed (tools/install-deps installs it)"
shots=${IOBUFVIZ_SHOTS:-$tmp/shots}
mkdir -p "$shots" "$tmp/work" || exit 99
schema=$src/doc/transcript.schema.json
python3 -c 'import jsonschema' 2>/dev/null || {
	skip_part "the page's transcript against the schema" "python3-jsonschema not installed"
	schema=
}

# Write the page of "$@" into $tmp/$1.html (exit 0, or 1: an expectation failed here).
page() {
	name=$1
	shift
	"$bin" --export=html --dir "$tmp/work" "$@" >"$tmp/$name.html" 2>"$tmp/$name.err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		echo "FAIL: --export=html $*: exit $rc: $(head -c 300 "$tmp/$name.err")"
		fail=1
		return 1
	fi
}

# Run html-check.py on $tmp/$1.html in mode $2 (the rest: its arguments).
check() {
	name=$1
	mode=$2
	shift 2
	python3 "$src/tests/html-check.py" "$chromium" "$schema" "$shots" "$mode" "$tmp/$name.html" \
		"$@" || fail=1
}

# A lesson: the page's run and --format=json's of the same lesson agree.
if page 13-3 "$src/scenarios/13-3-fflush-fsync.yaml"; then
	"$bin" --headless --format=json --dir "$tmp/work" "$src/scenarios/13-3-fflush-fsync.yaml" \
		>"$tmp/13-3.json" 2>/dev/null
	check 13-3 walk "$tmp/13-3.json"
fi

# The same lesson under --probe=mincore, which cannot see dirty pages: its sentences about them
# are shown marked, each with the reason under the narration.
if page 13-3-mincore --probe=mincore "$src/scenarios/13-3-fflush-fsync.yaml"; then
	"$bin" --headless --format=json --probe=mincore --dir "$tmp/work" \
		"$src/scenarios/13-3-fflush-fsync.yaml" >"$tmp/13-3-mincore.json" 2>/dev/null
	check 13-3-mincore marks "$tmp/13-3-mincore.json"
fi

# A crash lesson: both crashes at its crash steps and, on a crash lab (as root: ext4 by
# itself), the device line; as a user who cannot mount, why the power cut is missing.
page crash "$src/scenarios/crash-13-3.yaml" && check crash walk

# At a person's pace in an ext4 crash lab (root: loop devices): what the kernel did before a
# step (ext4's journal commit, its writes, when) is said above the step's narration.
if [ "$(id -u)" = 0 ]; then
	page paced --pace=6 --crash-fs=ext4 "$src/scenarios/13-3-fflush-fsync.yaml" &&
		check paced walk
else
	skip_part "the paced page" "not root: no crash lab to see a journal commit in"
fi

# Section 13.5: where each step's pages came from (asked for, read ahead, cached before),
# marked on its cells with the legend's counts.
page 13.5 "$src/scenarios/13.5-fadvise.yaml" && check 13.5 walk

# Exercise 13-4 (each run's calls, the file's pages) and a sweep (its table).
page 13-4 "$src/scenarios/13-4-pty.yaml" && check 13-4 walk
page sweep --budget=0.05 "$src/tests/sweep-tiny.yaml" && check sweep walk

# A grader's page of a student's program: every step (system calls and stdio calls).
if [ -x "$build/tests/foreign/fwrite" ]; then
	page prog -- "$build/tests/foreign/fwrite" out.txt && check prog walk
else
	skip_part "a program's page" "tests/foreign/fwrite not built"
fi

# A program built with -g: its step 5 (save()'s fprintf, folded) names the source line that
# made it, and the line that called save(), as the source marks them (tests/foreign/lines.c).
if [ -x "$build/tests/foreign/lines" ] && page lines -- "$build/tests/foreign/lines"; then
	l1=$(grep -n "LINE:save \*/" "$src/tests/foreign/lines.c" | cut -d: -f1)
	l2=$(grep -n "LINE:loop \*/" "$src/tests/foreign/lines.c" | cut -d: -f1)
	want="source <code class=\"data\">line $l1 in save(), called from line $l2 ("
	if timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/dom" \
		--dump-dom "file://$tmp/lines.html#step=5" 2>/dev/null | grep -qF "$want"; then
		echo "ok: a program's page names step 5's source line"
	else
		bad "a program's page does not say '$want' at step 5"
	fi
fi

# Hostile: the scenario (its file name too) and a program's arguments and file names.
mkdir "$tmp/a<" || exit 99
evil='script><img src=x onerror=window.__pwned=8>'
cp "$src/tests/html-hostile.yaml" "$tmp/a</$evil.yaml" || exit 99
page hostile "$tmp/a</$evil.yaml" && check hostile hostile HOSTILE-MARK
mkdir "$tmp/work/a<" || exit 99
if [ -x "$build/examples/copy" ]; then
	printf 'HOSTILE-MARK\n' >"$tmp/work/in"
	page hostile-prog -- "$build/examples/copy" in \
		"a</HOSTILE-MARK $evil $(printf '\342\200\256')txt.exe" &&
		check hostile-prog hostile HOSTILE-MARK
else
	skip_part "a hostile program's page" "examples/copy not built"
fi
finish
