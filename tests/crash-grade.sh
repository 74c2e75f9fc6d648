#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-grade.sh: a course grades a program's durability (doc/autograder.md): a run:
# step runs a student's program that writes "{file}", then a crash: step expects what each
# crash keeps. On a crash lab of each of ext4, xfs and btrfs: a program that fsyncs before it
# closes has all its expectations held; one that does not keeps its bytes after kill -9 (the
# page cache), and its power cut gives no file while no write reached the device (then the
# expectation failed), or, after stray writes (between steps), whatever the kernel had committed:
# a lost file is then "not observable here", never failed. Needs root, loop devices and
# python3; a filesystem whose mkfs is missing is a named skip.
testname=crash-grade
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs
need python3

# The student's program: 100 lines (790 bytes) through Python's buffer, fsync'd or not.
cat >"$tmp/w.py" <<'PY'
import os, sys
f = open(sys.argv[1], "w")
for i in range(100):
    f.write("line %d\n" % i)
f.flush()
if sys.argv[2] == "sync":
    os.fsync(f.fileno())
f.close()
PY

# The grading scenario for mode $1 (sync or nosync).
lesson() {
	cat >"$tmp/grade-$1.yaml" <<YAML
title: "does your output survive a power cut?"
steps:
  - run: {program: python3, args: ["$tmp/w.py", "{file}", "$1"], timeout: 30}
  - crash: {}
    expect: {crash.process.size: 790, crash.power.size: 790, crash.power.prefix: "line 0"}
YAML
}
lesson sync
lesson nosync

for fs in ext4 xfs btrfs; do
	if ! PATH=$PATH:/usr/sbin:/sbin command -v "mkfs.$fs" >/dev/null 2>&1; then
		skip_part "$fs" "mkfs.$fs is not installed"
		continue
	fi
	for mode in sync nosync; do
		out=$tmp/$fs-$mode.json
		"$bin" --headless --format=json --crash-fs="$fs" --allow-run=python3 \
			"$tmp/grade-$mode.yaml" >"$out" 2>"$tmp/err"
		rc=$?
		got=$(python3 - "$out" "$mode" "$rc" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mode, rc = sys.argv[2], int(sys.argv[3])
run, crash = d["steps"]
c = crash["crash"]
p, w = c["process"], c["power"]
res = {e["key"]: e["outcome"] for e in crash["expect"]}
bad = []
if run["result"] != 0:
    bad.append("the program did not exit 0: %s" % run["note"])
if not (p["observed"] and p["exists"] and p["size"] == 790):
    bad.append("kill -9 did not keep 790 bytes: %s" % p)
if res["crash.process.size"] != "held":
    bad.append("crash.process.size %s" % res["crash.process.size"])
if not w["observed"]:
    bad.append("the power cut was not observed: %s" % w["why"])
elif mode == "sync":
    if not (w["exists"] and w["size"] == 790 and w["head"].startswith("line 0")):
        bad.append("fsync'd, the power cut did not keep 790 bytes: %s" % w)
    if set(res.values()) != {"held"} or rc != 0:
        bad.append("fsync'd, not every expectation held (exit %d): %s" % (rc, res))
else:
    if w["device_writes"] == 0 and w["exists"]:
        bad.append("no write had reached the device, yet the file survived")
    if not w["exists"]:
        want = "failed" if w["stray_writes"] == 0 else "not_observable"
        if res["crash.power.size"] != want:
            bad.append("a lost file after %d stray writes: %s, not %s" %
                       (w["stray_writes"], res["crash.power.size"], want))
    if rc != (1 if "failed" in res.values() else 0):
        bad.append("exit %d with %s" % (rc, res))
print("power: %s, %s writes (%s stray) -> %s" % (
    "%d B" % w["size"] if w.get("exists") else "no file", w.get("device_writes"),
    w.get("stray_writes"), res.get("crash.power.size")))
for b in bad:
    print("FAIL: " + b)
PY
)
		echo "$got" | sed "s/^/$testname: $fs: $mode: /"
		case $got in *FAIL:*) fail=1 ;; esac
		[ -s "$out" ] || { echo "FAIL: $testname: $fs: $mode: exit $rc: $(head -c 300 "$tmp/err")"; fail=1; }
	done
done
finish
