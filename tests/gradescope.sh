#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/gradescope.sh: --format=gradescope writes Gradescope's results.json as its documentation
# describes it (tests/gradescope.schema.json): for a grading scenario that holds and one that
# fails (its run: step's program, examples/tail), a lesson, a lesson whose facts are not
# observable here (with and without --strict), a traced program, and a scenario of escape
# sequences. Its tests are TAP's test points, point for point; each is worth a point whatever
# this machine can observe (a TAP skip: the point given; --strict: failed), so that a lesson
# is graded out of the same here and with another probe; the score is the sum of the tests'
# scores; the exit status is TAP's; every format is text (never HTML).
testname=gradescope
. "$(dirname "$0")/lib.sh"
need python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"
[ -x "$build/examples/tail" ] || { echo "FAIL: $build/examples/tail not built"; exit 99; }
n=0

# Run iobufviz on "$@" as gradescope and as tap: $tmp/N.{json,tap,rc,name}. Two runs are two
# experiments: where the kernel's own writeback (another test's sync(), the flusher) took the
# lesson's file in either, their outcomes may differ, and the pair runs again (at most 5 times).
run() {
	n=$((n + 1))
	echo "$*" >"$tmp/$n.name"
	tries=0
	while :; do
		# The grading scenarios name examples/tail from the build directory.
		(cd "$build" && "$bin" --headless --format=gradescope --dir "$tmp" "$@") \
			>"$tmp/$n.json" 2>"$tmp/$n.err"
		echo $? >"$tmp/$n.rc"
		(cd "$build" && "$bin" --headless --format=tap --dir "$tmp" "$@") >"$tmp/$n.tap" \
			2>/dev/null
		echo $? >"$tmp/$n.taprc"
		tries=$((tries + 1))
		grep -q "took this file after the lesson" "$tmp/$n.json" "$tmp/$n.tap" &&
			[ $tries -lt 5 ] || break
		echo "note: $*: the kernel's writeback took the file in run $tries: again"
	done
}

run --allow-run=examples/tail "$src/tests/grade-tail.yaml"
run --allow-run=examples/tail "$src/tests/grade-tail-fail.yaml"
run "$src/scenarios/13-3-fflush-fsync.yaml"
run --probe=mincore "$src/scenarios/13.1-buffer-cache.yaml"
run --strict --probe=mincore "$src/scenarios/13.1-buffer-cache.yaml"
run "$src/tests/inject.yaml"
run -- "$build/examples/tail" -n 3 "$src/tests/grade-tail.yaml"

python3 - "$src/tests/gradescope.schema.json" "$tmp" "$n" <<'PY' || fail=1
import json, re, sys
import jsonschema
schema, tmp, count = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
def fail(name, msg):
    global bad
    print("FAIL: %s: %s" % (name, msg))
    bad = 1
for i in range(1, count + 1):
    name = open("%s/%d.name" % (tmp, i)).read().strip()
    rc, taprc = (int(open("%s/%d.%s" % (tmp, i, k)).read()) for k in ("rc", "taprc"))
    raw = open("%s/%d.json" % (tmp, i)).read()
    try:
        doc = json.loads(raw)
    except ValueError as e:
        fail(name, "not JSON: %s" % e)
        continue
    for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))[:5]:
        fail(name, "/%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:200]))
    if "\x1b" in raw:
        fail(name, "a raw escape")
    if rc != taprc:
        fail(name, "exit %d, TAP's %d" % (rc, taprc))
    tests = doc.get("tests", [])
    # Nothing becomes markup on the student's page: every text is declared text.
    for k in ("output_format", "test_output_format", "test_name_format"):
        if doc.get(k) != "text":
            fail(name, "%s is %r, not text" % (k, doc.get(k)))
    total = sum(t.get("score", 0) for t in tests)
    if doc.get("score") != total:
        fail(name, "score %r, the tests' sum %r" % (doc.get("score"), total))
    if len({t["number"] for t in tests}) != len(tests):
        fail(name, "two tests have the same number")
    for t in tests:
        if "\n" in t["name"]:
            fail(name, "a name on two lines: %r" % t["name"])
        if "score" in t and not 0 <= t["score"] <= t["max_score"]:
            fail(name, "%s: score %r of %r" % (t["name"], t["score"], t["max_score"]))
        if "score" in t and (t["status"] == "passed") != (t["score"] == t["max_score"]):
            fail(name, "%s: %s with %r of %r" % (t["name"], t["status"], t["score"], t["max_score"]))
    # Point for point TAP's: each test point is a test, with its outcome.
    tap = [l for l in open("%s/%d.tap" % (tmp, i)) if re.match(r"(not )?ok \d+ ", l)]
    graded = [t for t in tests if "score" in t or name.startswith("-- ")]
    if len(tap) != len(graded):
        fail(name, "%d tests, TAP has %d points" % (len(graded), len(tap)))
    for point, t in zip(tap, graded):
        want = "failed" if point.startswith("not ") else "passed"
        skipped = "# SKIP" in point
        if t["status"] != want or (skipped and (t.get("max_score"), t.get("score")) != (1, 1)):
            fail(name, "%r is %s (max %r), TAP: %s" % (t["name"], t["status"], t.get("max_score"),
                                                      point.strip()[:120]))
    print("ok: %s: %d tests, score %s, exit %d" % (name, len(tests), doc.get("score"), rc))
# What each run must come to. The lesson's every point won: its 27 at least (a sentence that
# named no fact names one now, and rests: a test more; a background one is no test).
want = {1: (0, 4, 4), 2: (1, 1, 2), 3: (0, 27, 27)}
for i, (rc, score, max_score) in want.items():
    doc = json.load(open("%s/%d.json" % (tmp, i)))
    got = (int(open("%s/%d.rc" % (tmp, i)).read()), doc["score"],
           sum(t.get("max_score", 0) for t in doc["tests"]))
    if i == 3 and got[0] == rc and got[1] == got[2] >= max_score:
        continue
    if got != (rc, score, max_score):
        fail(open("%s/%d.name" % (tmp, i)).read().strip(),
             "exit, score, out of: %r, expected %r" % (got, (rc, score, max_score)))
# Not observable here: the point given, out of the same one, or (--strict) failed. The lesson
# is graded out of as much under mincore, which cannot see dirty pages, as with cachestat.
lax, strict = (json.load(open("%s/%d.json" % (tmp, i))) for i in (4, 5))
given = [t for t in lax["tests"] if "the point is given" in t["output"]]
if not given or any((t["status"], t.get("score"), t.get("max_score")) != ("passed", 1, 1)
                    for t in given):
    fail("--probe=mincore", "facts not observable are not tests whose point is given")
if any(t.get("max_score") == 0 for t in lax["tests"] + strict["tests"]):
    fail("--probe=mincore", "a test is worth nothing: the lesson's max score depends on the probe")
out_of = [sum(t.get("max_score", 0) for t in d["tests"]) for d in (lax, strict)]
if out_of[0] != out_of[1] or strict["score"] >= out_of[1]:
    fail("--strict --probe=mincore", "facts not observable do not fail, or change the max (%s)" % out_of)
# The traced program's one check: it ran.
prog = json.load(open("%s/%d.json" % (tmp, count)))
if [t["status"] for t in prog["tests"]] != ["passed"] or "exited 0" not in prog["tests"][0]["output"]:
    fail("a program", "its check is %r" % prog["tests"])
sys.exit(bad)
PY
finish
