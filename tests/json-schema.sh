#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/json-schema.sh: the JSON transcript of every bundled lesson (sweeps: one tiny one)
# validates against doc/transcript.schema.json, traced and untraced, and so does a
# scenario full of escape sequences.
testname=json-schema
. "$(dirname "$0")/lib.sh"
need python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"
n=0

# Write the transcript of $1 (extra options after it) into $tmp/<n>.json.
run() {
	f=$1
	shift
	n=$((n + 1))
	"$bin" --headless --format=json --dir "$tmp" "$@" "$f" >"$tmp/$n.json" 2>"$tmp/$n.err"
	rc=$?
	# 1: an expectation failed on this machine; the transcript is still to be valid.
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		echo "FAIL: $(basename "$f") $*: exit $rc: $(head -c 300 "$tmp/$n.err")"
		fail=1
		rm -f "$tmp/$n.json"
	else
		echo "$(basename "$f") $*" >"$tmp/$n.name"
	fi
}

for f in "$src"/scenarios/*.yaml; do
	head -n 1 "$f" | grep -q '^# *slow' && continue
	grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$f" && continue
	run "$f"
done
run "$src/scenarios/13.1-buffer-cache.yaml" --trace=procio
# Both crashes after every step (as a user: the power cut's half null, with its why).
run "$src/scenarios/13-3-fflush-fsync.yaml" --crash-fs=ext4
# Residency only: dirty and writeback counts are null, each with its _why.
run "$src/scenarios/13.1-buffer-cache.yaml" --probe=mincore
run "$src/tests/inject.yaml"
run "$src/tests/sweep-tiny.yaml" --budget=0.05
# A program's transcript, each step with the source line that made it (built with -g).
n=$((n + 1))
mkdir -p "$tmp/prog"
if "$bin" --headless --format=json --dir "$tmp/prog" -- "$build/tests/foreign/lines" \
	>"$tmp/$n.json" 2>"$tmp/$n.err"; then
	echo "tests/foreign/lines (a program)" >"$tmp/$n.name"
else
	echo "FAIL: tests/foreign/lines: exit $?: $(head -c 300 "$tmp/$n.err")"
	fail=1
	rm -f "$tmp/$n.json"
fi
python3 - "$src/doc/transcript.schema.json" "$tmp" <<'PY' || fail=1
import glob, json, os, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
files = sorted(glob.glob(os.path.join(sys.argv[2], "*.json")))
for p in files:
    name = open(p[:-5] + ".name").read().strip()
    try:
        doc = json.load(open(p))
    except ValueError as e:
        print("FAIL: %s: not JSON: %s" % (name, e)); bad = 1; continue
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:5]:
        print("FAIL: %s: /%s: %s" % (name, "/".join(map(str, e.absolute_path)), e.message[:300]))
    bad |= bool(errors)
print("json-schema: %d transcripts checked" % len(files))
sys.exit(bad)
PY
finish
