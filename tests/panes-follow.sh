#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/panes-follow.sh: a lesson that acts on more than one file shows, in its cache and disk
# panes, the file of each step's descriptor (not its own scratch file, which it never
# touched): a, then b, named in the text transcript ("file    b"), in JSON (state.file) and
# with the sizes written there; switching files concludes nothing about the kernel (no page
# "dropped" or "written back" because the other file has fewer). A lesson of one file names
# none (state.file null), as before.
testname=panes-follow
. "$(dirname "$0")/lib.sh"
need python3

cat >"$tmp/two.yaml" <<'YAML'
title: "two files"
file: {size: 0}
steps:
  - open: {file: a, flags: [O_WRONLY, O_CREAT, O_EXCL]}
    as: a
  - write: {bytes: 12288}
    on: a
  - open: {file: b, flags: [O_WRONLY, O_CREAT, O_EXCL]}
    as: b
  - write: {text: "file b\n"}
    on: b
  - open: {file: ., flags: [O_RDONLY, O_DIRECTORY]}
    as: dir
  - write: {bytes: 4096}
    on: a
YAML
"$bin" --headless --format=json --dir "$tmp" "$tmp/two.yaml" >"$tmp/two.json" 2>"$tmp/err" ||
	bad "two.yaml: exit $?: $(head -c 300 "$tmp/err")"
"$bin" --headless --dir "$tmp" "$tmp/two.yaml" >"$tmp/two.txt" 2>&1 ||
	bad "two.yaml (text): exit $?"
"$bin" --headless --format=json --dir "$tmp" 13-3 >"$tmp/one.json" 2>"$tmp/err" ||
	bad "13-3: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/two.json" "$tmp/one.json" <<'PY' || fail=1
import json, sys
two, one = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
got = [(s["state"]["file"], s["state"]["cache"]["file_size"]) for s in two["steps"]]
# The directory's open (step 5) is no file to show: the panes stay on b.
want = [("a", 0), ("a", 12288), ("b", 0), ("b", 7), ("b", 7), ("a", 16384)]
if got != want:
    bad.append("the panes showed %s, not %s" % (got, want))
for i in (1, 3, 5):
    p = two["steps"][i]["state"]["cache"]["pages"]
    if not p or p < 1:
        bad.append("step %d: %r pages cached after a write" % (i + 1, p))
# Steps 3 and 6 change files: what one file has more or fewer of says nothing of the other.
for s in two["steps"]:
    for c in s["changes"]:
        if c["kind"] in ("evicted", "written_back") or (s["index"] in (3, 6) and
                                                         c["kind"] == "large_folio"):
            bad.append("step %d: concluded %s when the panes changed files: %s" %
                       (s["index"], c["kind"], c["text"]))
files = set(s["state"]["file"] for s in one["steps"])
if files != {None}:
    bad.append("13-3 (one file) named files: %s" % files)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
grep -q '^  file    b$' "$tmp/two.txt" || bad "the text does not name b: $(grep -E '^  (file|cache) ' "$tmp/two.txt" | head -4)"
# Ten files, each opened, written (100 B more than the last) and closed: past the first
# eight the panes still follow each one, never showing another's.
python3 - "$tmp/ten.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('title: "ten files"\nsteps:\n')
    for i in range(10):
        f.write('  - open: {file: f%d, flags: [O_WRONLY, O_CREAT]}\n' % i)
        f.write('  - write: {bytes: %d}\n  - close: {}\n' % (100 * (i + 1)))
PY
"$bin" --headless --dir "$tmp" "$tmp/ten.yaml" >"$tmp/ten.txt" 2>&1 || bad "ten files: exit $?"
got=$(awk '/^step [0-9]+\/30  write/ { w = 1; next } w && /^  file / { f = $2 }
	w && /^  cache / { print f, $2 $3; w = 0 }' "$tmp/ten.txt" | tr '\n' ' ')
want="f0 100B f1 200B f2 300B f3 400B f4 500B f5 600B f6 700B f7 800B f8 900B f9 1000B "
[ "$got" = "$want" ] || bad "ten files: the writes showed $got"

[ $fail = 0 ] && echo "ok: the panes follow a, b and a again, and name them; and each of ten files"
finish
