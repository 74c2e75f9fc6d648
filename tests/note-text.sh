#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/note-text.sh: a note step's text is shown once in the text transcript, its marks
# rendered ("[[" is a literal "[", "[background]" the bracket it is told in): a note without a
# say of its own is its own narration, not shown raw and then again; a note with a say shows
# its text and then its say.
testname=note-text
. "$(dirname "$0")/lib.sh"

cat >"$tmp/note.yaml" <<'YAML'
title: "notes"
steps:
  - note: "[background] brackets [[like this] here"
  - note: "a note of its own"
    say: "[background] and a say of its own"
YAML
"$bin" --headless --dir "$tmp" "$tmp/note.yaml" >"$tmp/out" 2>&1 || bad "exit $?: $(cat "$tmp/out")"
grep '^  | ' "$tmp/out" >"$tmp/said"
cat >"$tmp/want" <<'EOF2'
  | [background: brackets [like this] here]
  | a note of its own
  | [background: and a say of its own]
EOF2
cmp -s "$tmp/said" "$tmp/want" || bad "the notes read:
$(cat "$tmp/said")
not:
$(cat "$tmp/want")"
[ $fail = 0 ] && echo "ok: each note once, its marks rendered; a note's own say after its text"
finish
