#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/unobservable.sh: an expectation on a fact this run cannot observe (dirty pages under
# --probe=mincore) is neither held nor failed: TAP # SKIP, a "skip" line, JSON outcome and
# reason, exit 0; --strict makes it a failure (exit 1).
testname=unobservable
. "$(dirname "$0")/lib.sh"
need python3
scen=$src/tests/engine-facts.yaml
for fmt in text tap json; do
	"$bin" --headless --probe=mincore --format=$fmt --dir "$tmp" "$scen" >"$tmp/out.$fmt" 2>&1
	echo $? >"$tmp/rc.$fmt"
done
"$bin" --headless --strict --probe=mincore --dir "$tmp" "$scen" >"$tmp/out.strict" 2>&1
echo $? >"$tmp/rc.strict"
python3 - "$tmp" <<'PY' || fail=1
import json, re, sys
tmp = sys.argv[1]
rd = lambda n: open("%s/%s" % (tmp, n)).read()
errors = []
for f in ("text", "tap", "json"):
    if int(rd("rc." + f)) != 0:
        errors.append("%s: exit %s, expected 0 (nothing failed)" % (f, rd("rc." + f).strip()))
if int(rd("rc.strict")) != 1:
    errors.append("--strict: exit %s, expected 1" % rd("rc.strict").strip())
reason = "dirty pages: unknown, because --probe=mincore sees residency only"
tap = rd("out.tap")
skips = [l for l in tap.splitlines() if re.match(r"^ok \d+ - .*cache\.dirty_pages .* # SKIP not observable here: " + re.escape(reason), l)]
if not skips:
    errors.append("tap: no 'ok N - ... cache.dirty_pages ... # SKIP not observable here: %s'" % reason)
if re.search(r"^not ok", tap, re.M):
    errors.append("tap: a 'not ok' line")
text = rd("out.text")
if not re.search(r"^  skip cache\.dirty_pages >= 1  \(not observable here: " + re.escape(reason), text, re.M):
    errors.append("text: no 'skip cache.dirty_pages >= 1 (not observable here: ...)' line")
m = re.search(r"^(\d+) held, (\d+) failed, (\d+) not observable here$", text, re.M)
if not m or m.group(2) != "0" or m.group(3) == "0":
    errors.append("text: summary %s" % (m.group(0) if m else None))
if "SOME EXPECTATIONS FAILED" in text:
    errors.append("text: an unobservable fact was counted as failed")
strict = rd("out.strict")
if not re.search(r"^  FAIL cache\.dirty_pages .*--strict; .*engine-facts\.yaml:\d+:\d+\)$", strict, re.M):
    errors.append("--strict: no FAIL line for cache.dirty_pages")
try:
    j = json.loads(rd("out.json"))
    xs = [e for s in j["steps"] for e in s["expect"]]
    nob = [e for e in xs if e["outcome"] == "not_observable"]
    if not nob or any(e["ok"] or not e["skipped"] or not e["got_why"].startswith(reason) or e["got"] is not None for e in nob):
        errors.append("json: not_observable entries %s" % nob[:1])
    if any(e["skipped"] for e in xs if e["outcome"] != "not_observable"):
        errors.append("json: skipped on an observed fact")
    c = j["counts"]
    if (c["held"], c["failed"], c["not_observable"]) != (sum(e["outcome"] == "held" for e in xs), 0, len(nob)):
        errors.append("json: counts %s" % c)
    if j["ok"] is not True or j["strict"] is not False:
        errors.append("json: ok %s strict %s" % (j["ok"], j["strict"]))
except Exception as e:
    errors.append("json: %r" % e)
for e in errors:
    print("FAIL unobservable: %s" % e)
sys.exit(1 if errors else 0)
PY
finish
