#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/false-words.sh: no sentence about the run without a fact, and held means true (issue
# 28): each false sentence of tests/false-words.txt, said after fopen("w") + fwrite(5000),
# is refused by --check (FILE:LINE:COL and the quoted words that need a fact) or shown false
# by the run, on the build's scratch filesystem and on tmpfs; never held, never unchecked.
# A sentence that names no fact is refused for that alone (doc/scenarios.md, section 5), so
# each is said a second time after "On {fs}: " (a fact of the run that backs no claim): then
# the words that need a fact must be what refuses it, or the run shows it false.
testname=false-words
. "$(dirname "$0")/lib.sh"
need python3

dirs=$tmp
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	mkdir -p /dev/shm/iobufviz-false-words.$$ && dirs="$dirs /dev/shm/iobufviz-false-words.$$"
	cleanup() { rm -rf "/dev/shm/iobufviz-false-words.$$"; }
else
	skip_part tmpfs "/dev/shm is not a tmpfs"
fi
refused=0 shown=0 n=0 ruled=0
grep -v '^#' "$src/tests/false-words.txt" >"$tmp/sentences"
sed 's/^\(.\)/On {fs}: \1/' "$tmp/sentences" >"$tmp/sentences.fs"
cat "$tmp/sentences" "$tmp/sentences.fs" >"$tmp/all"
while IFS= read -r say; do
	[ -n "$say" ] || continue
	n=$((n + 1))
	scen=$tmp/s$n.yaml
	q=$(printf '%s' "$say" | sed "s/'/''/g")
	printf 'title: "false words %d"\nfile: {size: 0}\nsteps:\n  - fopen: {mode: w}\n  - fwrite: {bytes: 5000}\n    say: '"'"'%s'"'"'\n' \
		"$n" "$q" >"$scen"
	if ! "$bin" --check "$scen" >"$tmp/check" 2>&1; then
		# Refused where it is written, naming the words that need a fact.
		if ! grep -q "^$scen:6:10: '[^']*' in the say of step 2 " "$tmp/check"; then
			bad "--check refused \"$say\" without its place and words: $(head -1 "$tmp/check")"
		elif [ "${say#On \{fs\}: }" = "$say" ]; then
			refused=$((refused + 1))
		elif grep -q "' in the say of step 2 names no fact of this run" "$tmp/check"; then
			bad "--check refused \"$say\" as naming no fact: $(head -1 "$tmp/check")"
		else
			ruled=$((ruled + 1))
		fi
		continue
	fi
	ok=1
	for d in $dirs; do
		"$bin" --headless --format=json --dir "$d" "$scen" >"$tmp/out.json" 2>"$tmp/err"
		python3 - "$tmp/out.json" "$say" "$d" <<'PY' || { fail=1; ok=0; }
import json, sys
path, say, where = sys.argv[1:]
try:
    t = json.load(open(path))
except ValueError as e:
    print("FAIL: %s on %s: no JSON transcript (%s)" % (say, where, e)); sys.exit(1)
st = [s for s in t["steps"] if s.get("index") == 2] or t["steps"][1:2]
v = st[0].get("sentences") or [] if st else []
if len(v) != 1 or v[0]["outcome"] != "false":
    print("FAIL: \"%s\" on %s shown %s, not false" % (say, where,
          ", ".join("%s (%s)" % (x["outcome"], x.get("why")) for x in v) or "nothing"))
    sys.exit(1)
PY
	done
	[ $ok -eq 0 ] || shown=$((shown + 1))
done <"$tmp/all"
# Background is told as such, never as held: the JSON's outcome, the text's bracket.
printf 'title: "background"\nfile: {size: 0}\nsteps:\n  - fopen: {mode: w}\n  - fwrite: {bytes: 5000}\n    say: "[background] Only fsync() makes data durable. {stdio.pending} bytes wait [calls.write = 1]."\n' \
	>"$tmp/bg.yaml"
"$bin" --check "$tmp/bg.yaml" >/dev/null 2>&1 || bad "--check refused a [background] sentence"
"$bin" --headless --format=json --dir "$tmp" "$tmp/bg.yaml" >"$tmp/bg.json" 2>&1
python3 - "$tmp/bg.json" <<'PY' || fail=1
import json, sys
v = json.load(open(sys.argv[1]))["steps"][1]["sentences"]
got = [(x["text"].strip(), x["outcome"]) for x in v]
want = [("Only fsync() makes data durable.", "background"), ("904 bytes wait.", "held")]
if got != want:
    print("FAIL: background in JSON: %r, expected %r" % (got, want)); sys.exit(1)
PY
"$bin" --headless --dir "$tmp" "$tmp/bg.yaml" >"$tmp/bg.txt" 2>&1
grep -q '\[background: Only fsync() makes data durable.\] 904 bytes wait.' "$tmp/bg.txt" ||
	bad "background not told inside [background: ...] in the text: $(grep -i durable "$tmp/bg.txt")"
n=$((n / 2))
echo "# $n false sentences: $refused refused by --check, $shown shown false by the run;" \
	"after \"On {fs}: \", $ruled refused for their words"
[ "$n" -ge 41 ] || bad "only $n sentences in tests/false-words.txt (the issue asks for 41)"
finish
