#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/pace.sh: the lessons at a person's pace (--pace, iobufviz(1)). Between two steps the
# kernel goes on: ext4 commits its journal every 5 s, writeback takes dirty pages after 30 s,
# another process may sync(). What that changes is not observable here, with why; it never
# fails an expectation, and a sentence it makes false is shown "FALSE here, by another
# writer" (counted and named here, not the lesson's failure). Every bundled lesson runs with
# --pace=6, and 13-3, crash-13-3, 13.1 and fclose-truncate with --pace=35 (past writeback's
# 30 s), each in an ext4 crash lab (--crash-fs=ext4) and on tmpfs (--dir /dev/shm): exit 0, no
# FAIL line, no sentence false by the lesson; a failure names the lesson, the place and the
# step. At least
# one paced run must say what the kernel did between two steps ("pause" lines: ext4's journal
# commit makes some in every crash lab run of 6 s a step), in text and in JSON, where the
# journal's commits are counted and timed. crash-close at 6 s in the lab runs PACE_CLOSE
# (default 4) times: its journal commit, due in each pause, used to land in the next step
# about one run in two and be counted as the lesson's own write.
# The runs mostly sleep: they run side by side, the longest first, PACE_JOBS (default 12)
# crash labs (each a loop device) and as many runs on tmpfs at a time. A run whose pauses
# alone take longer than PACE_BUDGET seconds (default 480: fclose-truncate at 35 s a step
# needs 455) is a named skip. Lessons headed "# slow" only with
# IOBUFVIZ_SLOW=1. Only in the plain build: under the sanitizers (IOBUFVIZ_SANITIZERS=1,
# set by make check) it is a named skip: its minutes are asleep, the code it runs is the
# plain build's, and the suite's time is short. Needs root (loop devices and mounts for the crash lab); else
# "SKIP: pace: <reason>".
testname=pace
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
[ "${IOBUFVIZ_SANITIZERS:-0}" = 1 ] &&
	skip "a sanitizer build: its 8 minutes of paced runs, mostly asleep, are the plain build's (tools/run-tests runs it there)"
lab_needs mkfs.ext4
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm (tmpfs)"
cap=${PACE_JOBS:-12}
budget=${PACE_BUDGET:-480}
close_n=${PACE_CLOSE:-4}

# One run: lesson file $1 at pace $2 in place $3 (ext4: a crash lab; tmpfs: /dev/shm), named
# $4 (lesson@pace@place, #N for a repeat), its transcript in $tmp/NAME.txt, its exit status
# in $tmp/NAME.rc when it is over.
# (Shell functions share their variables with the caller: theirs are r_* and q_*.)
run() {
	r_f=$1 r_pace=$2 r_place=$3 r_id=$4
	r_extra=
	grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$r_f" && r_extra=--budget=0.05
	if [ "$r_place" = ext4 ]; then
		r_where="--crash-fs=ext4 --dir $tmp"
	else
		r_where="--dir /dev/shm"
	fi
	# shellcheck disable=SC2086
	( nice "$bin" --headless --pace="$r_pace" $r_extra $r_where "$r_f" >"$tmp/$r_id.txt" 2>&1
	  echo $? >"$tmp/$r_id.rc" ) &
	started=$((started + 1))
	eval "started_$r_place=\$((started_$r_place + 1))"
}

# True if fewer than the cap run in place $1.
room() {
	eval "room_n=\$started_$1"
	[ $((room_n - $(find "$tmp" -maxdepth 1 -name "*@$1*.rc" | wc -l))) -lt "$cap" ]
}

# The queue: "SECONDS FILE PACE PLACE NAME" a line, SECONDS the run's pauses at the least
# (its steps less one, times the pace).
queue() {
	q_n=$(grep -c '^  - [a-z_]*:' "$1")
	q_secs=$(( (q_n - 1) * $2 ))
	if [ "$q_secs" -gt "$budget" ]; then
		skip_part "$4" "its pauses take $q_secs s, over the test's budget of $budget s (PACE_BUDGET=$q_secs runs it)"
		return
	fi
	echo "$q_secs $1 $2 $3 $4" >>"$tmp/queue"
}

started=0 started_ext4=0 started_tmpfs=0
: >"$tmp/queue"
for name in 13-3-fflush-fsync crash-13-3 13.1-buffer-cache fclose-truncate; do
	for place in ext4 tmpfs; do
		queue "$src/scenarios/$name.yaml" 35 $place "$name@35@$place"
	done
done
for f in "$src"/scenarios/*.yaml; do
	[ -e "$f" ] || skip "no scenarios under $src/scenarios"
	if head -n 1 "$f" | grep -q '^# *slow' && [ "${IOBUFVIZ_SLOW:-0}" != 1 ]; then
		skip_part "$(basename "$f" .yaml)" "slow (IOBUFVIZ_SLOW=1 runs it)"
		continue
	fi
	for place in ext4 tmpfs; do
		queue "$f" 6 $place "$(basename "$f" .yaml)@6@$place"
	done
done
k=2
while [ "$k" -le "$close_n" ]; do
	queue "$src/scenarios/crash-close.yaml" 6 ext4 "crash-close@6@ext4#$k"
	k=$((k + 1))
done
# Each place's runs, longest first; a run starts wherever its place has room.
sort -rn "$tmp/queue" >"$tmp/queue.sorted"
for place in ext4 tmpfs; do
	awk -v p=$place '$4 == p' "$tmp/queue.sorted" >"$tmp/queue.$place"
done
while [ -s "$tmp/queue.ext4" ] || [ -s "$tmp/queue.tmpfs" ]; do
	moved=0
	for place in ext4 tmpfs; do
		[ -s "$tmp/queue.$place" ] && room $place || continue
		# shellcheck disable=SC2046
		set -- $(head -n 1 "$tmp/queue.$place")
		run "$2" "$3" "$4" "$5"
		sed -i 1d "$tmp/queue.$place"
		moved=1
	done
	[ $moved = 1 ] || sleep 1
done
# The same in JSON: the pause is said there too (crash-13-3 in the lab, 6 s a step).
nice "$bin" --headless --format=json --pace=6 --crash-fs=ext4 --dir "$tmp" \
	"$src/scenarios/crash-13-3.yaml" >"$tmp/json.out" 2>"$tmp/json.err"
json_rc=$?
wait

said=0
n_other=0
for t in "$tmp"/*.txt; do
	id=$(basename "$t" .txt)
	rc=$(cat "$tmp/$id.rc" 2>/dev/null || echo none)
	# The steps that failed or told a false sentence, by number.
	steps=$(awk '/^step [0-9]+\//{ split($2, s, "/"); n = s[1] }
	             /^  FAIL |^  FALSE here: /{ printf "    step %s: %s\n", n, $0 }' "$t")
	# False by another writer (the kernel's timers, a sync() elsewhere, in a pause): shown
	# false, not the lesson's failure; counted and named.
	other=$(grep -c '^  FALSE here, by another writer: ' "$t")
	if [ "$other" -gt 0 ]; then
		n_other=$((n_other + other))
		echo "# $id: $other sentence(s) false here by another writer"
	fi
	if [ "$rc" = 3 ] && [ -z "$steps" ]; then
		skip_part "$id" "the environment cannot run it here: $(tail -n 1 "$t")"
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
runs=$(find "$tmp" -maxdepth 1 -name '*.txt' | wc -l)
[ "$runs" -eq "$started" ] || bad "$started runs started, $runs transcripts"
# ext4's journal commits within 6 s: the crash lab's runs say so.
[ "$said" -gt 0 ] || bad "no paced run said what the kernel did between two steps"
echo "# $runs paced runs; $said said what the kernel did between steps; $n_other sentences false here by another writer"

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
    assert (p["device_writes"] > 0 or p["kernel_writebacks"] > 0 or p["journal_commits"] > 0
            or p["waited_s"] >= 0.05), s["index"]
    assert p["seconds"] >= 6, p
    assert p["seconds"] >= 6 + p["waited_s"] - 0.2, p
    assert ("after step %d" % (s["index"] - 1) in p["said"] or
            p["said"].startswith("the step waited")), p["said"]
# ext4 commits the transaction step 1 began (fopen "w" made the file) within 5 to 6.5 s, or
# sooner for a sync() elsewhere: the pause before step 2 counts and times it, and says so.
p = steps[1]["pause"]
assert p["journal_commits"] >= 1, ("no journal commit counted before step 2", p)
assert p["commit_after_s"] is not None and 0 <= p["commit_after_s"] <= p["seconds"], p
assert "the journal committed" in p["said"], p["said"]
PY
fi
finish
