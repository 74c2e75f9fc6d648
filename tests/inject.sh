#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/inject.sh: a scenario full of escape sequences leaves the terminal as it found it in
# every headless format: no ESC, BEL or C1 reaches stdout raw, TAP stays well formed.
testname=inject
. "$(dirname "$0")/lib.sh"
need python3
scen=$src/tests/inject.yaml
for fmt in text tap json; do
	"$bin" --headless --format=$fmt --dir "$tmp" "$scen" >"$tmp/out.$fmt" 2>"$tmp/err.$fmt"
	rc=$?
	[ $rc = 0 ] || { echo "FAIL: $fmt: exit $rc: $(cat "$tmp/err.$fmt")"; fail=1; }
done
python3 - "$tmp" <<'PY' || fail=1
import json, re, sys
tmp = sys.argv[1]
errors = []
for f in ("text", "tap", "json"):
    raw = open("%s/out.%s" % (tmp, f), "rb").read()
    # Any C0 but newline, DEL, a C1 as UTF-8 (C2 80..9F) or as a bare byte (80..9F alone).
    for m in re.finditer(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", raw):
        errors.append("%s: raw control %r at byte %d: %r" % (f, m.group(), m.start(),
                      raw[max(0, m.start() - 20):m.start() + 20]))
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        errors.append("%s: not UTF-8: %s" % (f, e))
text = open(tmp + "/out.text").read()
# The C line of the fputs step is one line, its newline escaped as C writes it.
if 'fputs("x\\x1b[5mblink\\n", fp)' not in text:
    errors.append("text: no one-line fputs(\"x\\x1b[5mblink\\n\", fp)")
for want in ("T\\x1b]0;PWNED\\x07", "I\\x1bc intro", "S\\x1b[?25l hidden cursor", "n\\x1b[2J"):
    if want not in text:
        errors.append("text: %r not shown escaped" % want)
# TAP 13: version, one plan matching the points, every line a TAP line.
lines = open(tmp + "/out.tap").read().splitlines()
if not lines or lines[0] != "TAP version 13":
    errors.append("tap: first line %r" % (lines[:1],))
plans = [l for l in lines if re.match(r"^1\.\.\d+$", l)]
points = [l for l in lines if re.match(r"^(not )?ok \d+ ", l)]
if len(plans) != 1 or int(plans[0][3:]) != len(points) or len(points) != 1:
    errors.append("tap: plan %s for %d points" % (plans, len(points)))
for l in lines:
    if not (l.startswith(("TAP version", "# ", "ok ", "not ok ", "1..", "  ")) or l == ""):
        errors.append("tap: stray line %r" % l)
# JSON: valid, and the strings come back exactly as the scenario wrote them.
try:
    j = json.loads(open(tmp + "/out.json").read())
    if j["scenario"]["title"] != "T\x1b]0;PWNED\x07\x1b[?1049h\x1b[31mred\u009b31m":
        errors.append("json: title %r" % j["scenario"]["title"])
    if j["steps"][0]["say"] != "S\x1b[?25l hidden cursor":
        errors.append("json: say %r" % j["steps"][0]["say"])
except Exception as e:
    errors.append("json: %r" % e)
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
PY
finish
