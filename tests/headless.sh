#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/headless.sh: --headless in each format: exit 1 and the scenario's line:col when an
# expectation fails, exit 0 when all hold; TAP 13 well formed; JSON valid, also under a locale
# with a decimal comma (numbers are written as C writes them).
testname=headless
. "$(dirname "$0")/lib.sh"
need python3
wrong=$src/tests/expect-wrong.yaml
good=$src/scenarios/13-3-fflush-fsync.yaml

for scen in "$wrong" "$good"; do
	for fmt in text tap json; do
		"$bin" --headless --format=$fmt --dir "$tmp" "$scen" >"$tmp/out.$fmt" 2>"$tmp/err"
		echo $? >"$tmp/rc.$fmt"
	done
	python3 - "$tmp" "$scen" "$([ "$scen" = "$wrong" ] && echo wrong || echo good)" <<'PY' || fail=1
import json, re, sys
tmp, scen, kind = sys.argv[1:]
rc = {f: int(open("%s/rc.%s" % (tmp, f)).read()) for f in ("text", "tap", "json")}
out = {f: open("%s/out.%s" % (tmp, f)).read() for f in ("text", "tap", "json")}
errors = []
want = 1 if kind == "wrong" else 0
for f, r in rc.items():
    if r != want:
        errors.append("%s: exit %d, expected %d" % (f, r, want))
# The failed expectation is found at its place in the file: line 8, the value's column.
where = None
for n, line in enumerate(open(scen), 1):
    if "stdio.pending: 905" in line:
        where = "%s:%d:%d" % (scen, n, line.index("905") + 1)
if kind == "wrong" and where is None:
    errors.append("%s: no 'stdio.pending: 905' line" % scen); kind = "broken"
if kind == "wrong":
    if not re.search(r"FAIL stdio\.pending = 905 +\(got 904; %s\)" % re.escape(where), out["text"]):
        errors.append("text: no 'FAIL stdio.pending = 905 (got 904; %s)'" % where)
    if "SOME EXPECTATIONS FAILED" not in out["text"]:
        errors.append("text: no final verdict")
# TAP 13: version line, one plan matching the count, points numbered 1..N in order.
lines = out["tap"].splitlines()
if not lines or lines[0] != "TAP version 13":
    errors.append("tap: first line %r" % (lines[0] if lines else ""))
plans = [l for l in lines if re.match(r"^1\.\.\d+$", l)]
points = [re.match(r"^(ok|not ok) (\d+)\b", l) for l in lines]
points = [m for m in points if m]
if len(plans) != 1 or int(plans[0][3:]) != len(points) or len(points) == 0:
    errors.append("tap: plan %s for %d points" % (plans, len(points)))
if [int(m.group(2)) for m in points] != list(range(1, len(points) + 1)):
    errors.append("tap: points not numbered 1..N")
for l in lines:
    if not (l.startswith(("TAP version", "#", "ok ", "not ok ", "1..", "  ")) or l == ""):
        errors.append("tap: stray line %r" % l)
nok = [m for m in points if m.group(1) == "not ok"]
if kind == "wrong":
    if len(nok) != 1 or ('at: "%s"' % where) not in out["tap"]:
        errors.append("tap: expected one 'not ok' at %s" % where)
elif nok:
    errors.append("tap: %d 'not ok' in a scenario that holds" % len(nok))
# JSON: valid, ok false/true, and the failed expectation with its line and column.
try:
    j = json.loads(out["json"])
    if j["ok"] != (kind == "good"):
        errors.append("json: ok is %s" % j["ok"])
    bad = [e for s in j["steps"] for e in s["expect"] if not e["ok"]]
    if kind == "wrong" and not (len(bad) == 1 and "%s:%d:%d" % (scen, bad[0]["line"], bad[0]["col"]) == where
                                and bad[0]["got"] == "904"):
        errors.append("json: failed expectation %s" % bad)
except Exception as e:
    errors.append("json: %s" % e)
for e in errors:
    print("FAIL %s: %s" % (kind, e))
sys.exit(1 if errors else 0)
PY
done
# No expectations at all: TAP says the plan of 0 is a skip, and why; exit 0.
"$bin" --headless --format=tap --dir "$tmp" "$src/tests/cli-minimal.yaml" >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] || { echo "FAIL: no expectations: exit $rc"; fail=1; }
grep -qx "1\.\.0 # SKIP no expectations in this scenario" "$tmp/out" ||
	{ echo "FAIL: no expectations: plan: $(grep '^1\.\.' "$tmp/out")"; fail=1; }

# A locale whose decimal point is a comma (de_DE) changes no number printed: the JSON stays
# valid (python3 -m json.tool reads it). One installed, else one made here by localedef.
comma_point() {
	LC_ALL=$1 python3 -c 'import locale, sys
locale.setlocale(locale.LC_ALL, "")
sys.exit(0 if locale.localeconv()["decimal_point"] == "," else 1)' 2>/dev/null
}
comma=
for l in $(locale -a 2>/dev/null | grep -E '^(de_DE|fr_FR|es_ES|it_IT|nl_NL|ru_RU)'); do
	comma_point "$l" && { comma=$l; break; }
done
if [ -z "$comma" ] && command -v localedef >/dev/null 2>&1 && mkdir -p "$tmp/loc" &&
   localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	LOCPATH=$tmp/loc
	export LOCPATH
	comma_point de_DE.UTF-8 && comma=de_DE.UTF-8
fi
if [ -z "$comma" ]; then
	skip_part "a decimal-comma locale" "none installed, and localedef could not make de_DE.UTF-8"
else
	mkdir -p "$tmp/loc-run"
	LC_ALL=$comma "$bin" --headless --format=json --dir "$tmp/loc-run" "$good" >"$tmp/comma.json" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "LC_ALL=$comma: exit $rc: $(head -c 300 "$tmp/err")"
	elif ! python3 -m json.tool "$tmp/comma.json" >/dev/null 2>"$tmp/err"; then
		bad "LC_ALL=$comma: the JSON is not valid: $(cat "$tmp/err")"
	else
		echo "ok: LC_ALL=$comma: the JSON is valid (numbers as C writes them)"
	fi
	LC_ALL=$comma "$bin" --headless --dir "$tmp/loc-run" "$good" >"$tmp/comma.txt" 2>/dev/null
	# Its times and sizes keep the point ("0.12 ms"), as the documented transcripts show.
	grep -qE '[0-9],[0-9]+ (s|ms|µs|us|ns|%)' "$tmp/comma.txt" &&
		bad "LC_ALL=$comma: the text transcript has a decimal comma: $(grep -E '[0-9],[0-9]+ (s|ms|µs|us|ns|%)' "$tmp/comma.txt" | head -n 2)"
	unset LOCPATH
fi

# An intro that opens with code keeps it as written: 13-4-pty's snippet, indented past the
# text below it, both lines alike (the first one lost its indentation once).
"$bin" --headless --dir "$tmp" "$src/scenarios/13-4-pty.yaml" >"$tmp/pty.txt" 2>&1
grep -q '^      printf("If I had more time' "$tmp/pty.txt" &&
	grep -q '^      write(STDOUT_FILENO' "$tmp/pty.txt" ||
	bad "13-4-pty's intro does not show its snippet indented: $(sed -n 7,9p "$tmp/pty.txt")"

[ -z "$(ls -A "$tmp" | grep iobufviz)" ] || { echo "FAIL: a scratch dir was left"; fail=1; }
finish
