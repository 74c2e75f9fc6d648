#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/export-flow.sh: the C export is the run (issue 30.5): a flow-style lesson (every step
# on one line) with two named streams, each with its own buffer, writes AAAA into the lesson's
# file and BBBB into b.txt in the run (its expect says so), and so does the exported program:
# its helpers are named by step, not by line, so the streams do not share one buffer.
testname=export-flow
. "$(dirname "$0")/lib.sh"
need cc
mkdir "$tmp/d" "$tmp/t" "$tmp/x"
TMPDIR=$tmp/t
export TMPDIR
cat >"$tmp/flow.yaml" <<'EOF'
title: "two streams, two own buffers, one line"
steps: [{fopen: {mode: "w"}, as: a}, {setvbuf: {mode: full, size: 1024, buffer: own}, on: a}, {fopen: {file: b.txt, mode: "w"}, as: b}, {setvbuf: {mode: full, size: 1024, buffer: own}, on: b}, {fputs: {text: "AAAA"}, on: a}, {fputs: {text: "BBBB"}, on: b}, {fclose: {}, on: b}, {fclose: {}, on: a, expect: {file.content: "AAAA"}}]
EOF

# The run: its expectation (the lesson's file holds AAAA once a is closed) holds.
"$bin" --headless --dir "$tmp/d" "$tmp/flow.yaml" >"$tmp/run.out" 2>&1 ||
	bad "the run: exit $?: $(tail -5 "$tmp/run.out")"
grep -qF "all expectations held" "$tmp/run.out" || bad "the run: $(tail -3 "$tmp/run.out")"

# The export: compiles cleanly, and writes what the run wrote.
"$bin" --export=c "$tmp/flow.yaml" >"$tmp/flow.c" 2>"$tmp/export.err" || bad "--export=c: exit $?: $(cat "$tmp/export.err")"
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/flow" "$tmp/flow.c" 2>"$tmp/cc.err" ||
	bad "the export does not compile: $(head -5 "$tmp/cc.err")"
if [ -x "$tmp/flow" ]; then
	"$tmp/flow" "$tmp/x/file" >"$tmp/prog.out" 2>&1 || bad "the exported program: exit $?: $(cat "$tmp/prog.out")"
	[ "$(cat "$tmp/x/file" 2>/dev/null)" = AAAA ] ||
		bad "the exported program wrote '$(cat "$tmp/x/file" 2>/dev/null)' into the file, the run AAAA"
	[ "$(cat "$tmp/x/b.txt" 2>/dev/null)" = BBBB ] ||
		bad "the exported program wrote '$(cat "$tmp/x/b.txt" 2>/dev/null)' into b.txt, the run BBBB"
fi

[ $fail = 0 ] && echo "ok: a flow-style lesson's export writes AAAA/BBBB, as its run"
finish
