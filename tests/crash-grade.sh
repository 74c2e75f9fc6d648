#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-grade.sh: a course grades a program's durability (doc/autograder.md): a run:
# step runs a student's program that writes "{file}", then a crash: step expects what each
# crash keeps. On a crash lab of each of ext4, xfs and btrfs: a program that fsyncs before it
# closes has all its expectations held; one that does not keeps its bytes after kill -9 (the
# page cache), and its power cut gives no file while no write reached the device, or, after
# stray writes (between steps), whatever the kernel had committed: a lost or short file is
# failed either way (stray writes commit the program's own calls sooner, they lose nothing),
# as at a person's pace (--pace=6), where ext4's journal commits the new file empty between
# the steps (it was "not observable", 0 points out of 0, before).
# --format=gradescope grades each program out of the same score (every mode on ext4, the
# program that loses its file on each filesystem), and a lost file is a failed test there too.
# The program runs in the lab's root ("{file}" is its "scratch": no /proc link of iobufviz's
# is the program's to follow), and the writes its fsync() sends are its own, not strays.
# Needs root, loop devices and python3; a filesystem
# whose mkfs is missing is a named skip.
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
  - run: {program: python3, args: ["$tmp/w.py", "{file}", "$1"], timeout: 120}
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
	# paced: the program that does not fsync, at a person's pace (--pace=6): ext4's journal
	# commits its new, empty file in the pause (stray writes), and the power cut keeps 0 B.
	for mode in sync nosync paced; do
		out=$tmp/$fs-$mode.json
		yaml=$tmp/grade-$mode.yaml pace=
		[ "$mode" = paced ] && yaml=$tmp/grade-nosync.yaml pace=--pace=6
		"$bin" --headless --format=json $pace --crash-fs="$fs" --allow-run=python3 \
			"$yaml" >"$out" 2>"$tmp/err"
		rc=$?
		# Gradescope (a run of its own) for every mode on ext4, and for the program that
		# loses its file (nosync) on each filesystem: the grade is made from the same
		# results the JSON gives, so the runs left out would check the same code again (4
		# crash labs of 18, the slowest test of the suite).
		gs=no
		if [ "$fs" = ext4 ] || [ "$mode" = nosync ]; then
			gs=yes
			"$bin" --headless --format=gradescope $pace --crash-fs="$fs" \
				--allow-run=python3 "$yaml" >"$tmp/$fs-$mode.gs" 2>"$tmp/err.gs"
		fi
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
    # Its fsync() sent its own writes: they are not all the kernel's (strays).
    if not w["stray_writes"] < w["device_writes"]:
        bad.append("fsync'd, yet its %d writes were all taken for strays" % w["device_writes"])
else:
    if w["device_writes"] == 0 and w["exists"]:
        bad.append("no write had reached the device, yet the file survived")
    if not w["exists"] or w["size"] < 790:
        if res["crash.power.size"] != "failed":
            bad.append("a %s after %d stray writes: %s, not failed" %
                       ("lost file" if not w["exists"] else "file of %d B" % w["size"],
                        w["stray_writes"], res["crash.power.size"]))
    if rc != (1 if "failed" in res.values() else 0):
        bad.append("exit %d with %s" % (rc, res))
print("power: %s, %s writes (%s stray) -> %s" % (
    "%d B" % w["size"] if w.get("exists") else "no file", w.get("device_writes"),
    w.get("stray_writes"), res.get("crash.power.size")))
for b in bad:
    print("FAIL: " + b)
PY
)
		# Gradescope (a run of its own): out of 3 (an expectation a point) on every
		# filesystem; the power cut's size test failed whenever its crash lost the file or
		# kept less than 790 bytes (its output says what it got).
		[ $gs = yes ] && got=$got$(printf '\n'; python3 - "$tmp/$fs-$mode.gs" 2>&1 <<'PY'
import json, re, sys
g = json.load(open(sys.argv[1]))
tests = {t["name"].rsplit(": ", 1)[1].split(" ")[0]: t for t in g["tests"] if "max_score" in t}
out_of = sum(t["max_score"] for t in tests.values())
print("gradescope: %s of %d" % (g["score"], out_of))
if out_of != 3:
    print("FAIL: gradescope grades out of %d, not 3 (one point an expectation)" % out_of)
t = tests.get("crash.power.size")
if t is None:
    print("FAIL: gradescope has no crash.power.size test: %s" % sorted(tests))
else:
    m = re.search(r"(?:got|gave) (\d+)", t["output"])
    lost = "no file" in t["output"] or (m is not None and int(m.group(1)) < 790)
    if lost and t["status"] != "failed":
        print("FAIL: gradescope: a lost or short file is %s %s/%s: %s" %
              (t["status"], t["score"], t["max_score"], t["output"][:200]))
PY
)
		echo "$got" | sed "s/^/$testname: $fs: $mode: /"
		case $got in *FAIL:*) fail=1 ;; esac
		[ -s "$out" ] || { echo "FAIL: $testname: $fs: $mode: exit $rc: $(head -c 300 "$tmp/err")"; fail=1; }
	done
done
finish
