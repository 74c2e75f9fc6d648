#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tracing-times.sh: times that include ptrace stops say so. The text transcript marks
# them and says what tracing adds to a call here; JSON keeps the call's own cost
# (call_usec) and the traced time (usec_incl_tracing) apart, and measures the null call.
testname=tracing-times
. "$(dirname "$0")/lib.sh"
need python3
scen=$src/tests/tracing-times.yaml
for t in ptrace procio; do
	for fmt in text json; do
		"$bin" --headless --trace=$t --format=$fmt --dir "$tmp" "$scen" >"$tmp/$t.$fmt" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			# ptrace refused here (in a container, under a debugger): nothing to compare.
			[ $t = ptrace ] && grep -q "ptrace refused" "$tmp/err" &&
				skip "ptrace refused here"
			echo "FAIL: --trace=$t --format=$fmt: exit $rc: $(cat "$tmp/err")"
			exit 1
		fi
	done
done
python3 - "$tmp" <<'PY' || fail=1
import json, re, sys
tmp = sys.argv[1]
errors = []
def text(t):
    return open("%s/%s.text" % (tmp, t)).read()
# Traced: the legend says what tracing adds; every worker op's time is starred.
m = re.search(r"^trace +ptrace: .*times marked \* include tracing\n +\(tracing adds about "
              r"([0-9.]+ [nµm]?s) to each system call here; a null call takes ([0-9.]+ [nµm]?s) "
              r"untraced\)$", text("ptrace"), re.M)
if not m:
    errors.append("ptrace text: no legend saying what tracing adds")
steps = re.findall(r"^step \d+/\d+  (.*?)  -> \S+  \[([^]]*)\]$", text("ptrace"), re.M)
if len(steps) != 3 or not all(t.endswith("*") for _, t in steps):
    errors.append("ptrace text: op times not all marked as including tracing: %s" % steps)
# Untraced: the times are the calls' own, unmarked.
if "times are the calls' own" not in text("procio"):
    errors.append("procio text: legend does not say the times are the calls' own")
steps = re.findall(r"^step \d+/\d+  (.*?)  -> \S+  \[([^]]*)\]$", text("procio"), re.M)
if len(steps) != 3 or any(t.endswith("*") for _, t in steps):
    errors.append("procio text: op times %s" % steps)
for t in ("ptrace", "procio"):
    try:
        j = json.load(open("%s/%s.json" % (tmp, t)))
    except ValueError as e:
        errors.append("%s json: %s" % (t, e)); continue
    env = j["environment"]
    for s in j["steps"][:3]:
        for o in [s] + s["events"]:
            own, traced = o.get("call_usec", "absent"), o.get("usec_incl_tracing", "absent")
            if "usec" in o:
                errors.append("%s json: step %d: an ambiguous 'usec'" % (t, s["index"]))
            if t == "ptrace" and not (own is None and o.get("call_usec_why") and
                                      isinstance(traced, float)):
                errors.append("%s json: step %d: call_usec %r, usec_incl_tracing %r"
                              % (t, s["index"], own, traced))
            if t == "procio" and not (isinstance(own, float) and traced is None):
                errors.append("%s json: step %d: call_usec %r, usec_incl_tracing %r"
                              % (t, s["index"], own, traced))
    tr = env.get("tracing", "absent")
    if t == "ptrace" and not (isinstance(tr, dict) and
                              tr["null_call_traced_usec"] > tr["null_call_usec"] > 0):
        errors.append("ptrace json: environment.tracing %r" % (tr,))
    if t == "procio" and not (tr is None and env.get("tracing_why")):
        errors.append("procio json: environment.tracing %r" % (tr,))
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
PY
finish
