#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-blame.sh: the crash lab blames the right writer (issue 28 part 4). Five lessons
# with a deliberately wrong power-cut expectation (tests/crash-blame/: close() after O_TRUNC,
# rename() over a file, a new file, an fsync'd file said to keep 5 bytes, another file's
# fsync()) run 3 times on ext4, xfs and btrfs: at least 2 of 3 must fail, not be excused as
# "not observable" by writes the lesson's own calls made. A crash: first finds no file and the
# lesson's O_EXCL open succeeds. Needs root and loop devices; a missing mkfs is a named skip.
testname=crash-blame
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs
need python3

# A crash before the first open finds no file; O_CREAT|O_EXCL then succeeds.
cat >"$tmp/first.yaml" <<'YAML'
title: "no file before the lesson makes it"
file: {size: 0}
steps:
  - crash: {}
    expect: {crash.process.exists: no, crash.power.exists: no}
  - open: {flags: [O_WRONLY, O_CREAT, O_EXCL]}
    expect: {result.errno: 0}
YAML
"$bin" --headless --format=json --crash-fs=ext4 "$tmp/first.yaml" >"$tmp/first.json" 2>"$tmp/err" ||
	bad "a crash: first found a file, or O_EXCL failed: $(cat "$tmp/err") $(head -c 2000 "$tmp/first.json")"

for fs in ext4 xfs btrfs; do
	if ! PATH=$PATH:/usr/sbin:/sbin command -v "mkfs.$fs" >/dev/null 2>&1; then
		skip_part "$fs" "mkfs.$fs is not installed"
		continue
	fi
	for l in "$src"/tests/crash-blame/*.yaml; do
		failed=0
		for i in 1 2 3; do
			"$bin" --headless --format=json --crash-fs="$fs" "$l" >"$tmp/o.json" 2>"$tmp/err"
			got=$(python3 - "$tmp/o.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(e["outcome"] for s in d["steps"] for e in s.get("expect", [])
               if e["key"].startswith("crash.power")))
PY
)
			case $got in *failed*) failed=$((failed + 1)) ;; esac
			echo "$fs $(basename "$l") run $i: $got"
		done
		[ "$failed" -ge 2 ] || bad "$fs $(basename "$l"): the wrong expectation failed in $failed of 3 runs"
	done
done
finish
