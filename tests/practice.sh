#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/practice.sh: --practice through the real binary: the topic list, a bad topic, the same
# seed twice, and --answers equal to what a --headless run of the same scenario reports.
testname=practice
. "$(dirname "$0")/lib.sh"
need python3

# Alone: the topics, one a line, name first; at least three.
"$bin" --practice >"$tmp/list" 2>"$tmp/err" || bad "--practice alone: exit $?"
[ "$(wc -l <"$tmp/list")" -ge 3 ] || bad "--practice lists fewer than 3 topics"
for t in stdio cache direct; do
	grep -q "^$t " "$tmp/list" || bad "--practice does not list $t"
done

# A bad topic is a usage error that lists the topics.
"$bin" --practice no-such-topic >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || bad "bad topic: exit not 2"
grep -q "unknown topic 'no-such-topic'" "$tmp/err" || bad "bad topic: no message"
grep -q "^stdio " "$tmp/err" || bad "bad topic: no topic list on stderr"
"$bin" --seed 3 --headless x.yaml >/dev/null 2>&1
[ $? -eq 2 ] || bad "--seed without --practice: exit not 2"
"$bin" --practice stdio --seed x >/dev/null 2>&1
[ $? -eq 2 ] || bad "--seed x: exit not 2"

for t in stdio cache direct; do
	# The same seed gives byte-identical text; another seed another problem.
	"$bin" --practice $t --seed 42 >"$tmp/a" </dev/null || bad "$t: exit $?"
	"$bin" --practice $t --seed 42 >"$tmp/b" </dev/null
	cmp -s "$tmp/a" "$tmp/b" || bad "$t: seed 42 twice differs"
	"$bin" --practice $t --seed 43 >"$tmp/c" </dev/null
	cmp -s "$tmp/a" "$tmp/c" && bad "$t: seeds 42 and 43 give the same problem"
	grep -q "^Questions" "$tmp/a" || bad "$t: no questions"

	# --answers runs it; the answers are what a headless run of the same scenario observes.
	"$bin" --practice $t --seed 42 --answers --format=json --dir "$tmp" >"$tmp/p.json" ||
		bad "$t: --answers exit $?"
	python3 -c 'import json,sys; open(sys.argv[2],"w").write(json.load(open(sys.argv[1]))["scenario"])' \
		"$tmp/p.json" "$tmp/p.yaml" || { bad "$t: no scenario in the JSON"; continue; }
	"$bin" --headless --format=json --dir "$tmp" "$tmp/p.yaml" >"$tmp/h.json"
	python3 - "$tmp/p.json" "$tmp/h.json" "$t" <<'PY' || fail=1
import json, sys
p = json.load(open(sys.argv[1]))
h = json.load(open(sys.argv[2]))
steps = {s["index"]: s for s in h["steps"]}
bad = 0
for q in p["questions"]:
    a = q["answer"]
    if a is None or not a["observed"]:
        print("FAIL: %s Q%d: no answer" % (sys.argv[3], q["n"])); bad = 1; continue
    s = steps[q["line"]]
    if q["kind"] == "number":
        got = [e["got"] for e in s["expect"] if e["key"] == q["key"]]
        if got != [a["text"]]:
            print("FAIL: %s Q%d: practice says %s, the headless run %s" %
                  (sys.argv[3], q["n"], a["text"], got)); bad = 1
    elif q["key"] == "result.errno":
        want = "a" if s["errno"] is None else "b" if s["errno"] == "EINVAL" else "?"
        if a["text"] != want:
            print("FAIL: %s Q%d: practice says %s, errno %s" %
                  (sys.argv[3], q["n"], a["text"], s["errno"])); bad = 1
sys.exit(bad)
PY
done
# Guesses given headless are scored against what this machine did: the JSON says the score,
# each answer whether the guess was right; the answers themselves as guesses score them all.
"$bin" --practice stdio --seed 7 --dir "$tmp" --format=json >"$tmp/g0.json" --answers ||
	{ echo "FAIL: --answers json"; fail=1; }
python3 - "$bin" "$tmp" <<'PY' || fail=1
import json, subprocess, sys
binary, tmp = sys.argv[1:]
truth = json.load(open(tmp + "/g0.json"))
answers = [q["answer"]["text"] for q in truth["questions"]]
args = [binary, "--practice", "stdio", "--seed", "7", "--dir", tmp, "--format=json"]
for a in answers:
    args.append("--guess=" + a)
full = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
if full["score"] != {"right": len(answers), "asked": len(answers)}:
    sys.exit("FAIL: right guesses score %s" % full["score"])
wrong = json.loads(subprocess.run(args[:8] + ["--guess=999999"], capture_output=True,
                                  text=True, check=True).stdout)
if wrong["score"]["right"] != 0 or wrong["questions"][0]["answer"]["right"] is not False:
    sys.exit("FAIL: a wrong guess: %s" % wrong["score"])
if any(q["answer"]["guess"] is not None for q in wrong["questions"][1:]):
    sys.exit("FAIL: unanswered questions have a guess")
print("ok: guesses scored (%d of %d; 0 of %d)" % (len(answers), len(answers), len(answers)))
# A wrong answer comes with why, from the run's own facts: Q1 asks what is pending after its
# line, and the reason says what the stdio buffer held then and which calls the line made.
q = wrong["questions"][0]
why = q["answer"]["why"]
if "stdio buffer held %s B" % q["answer"]["text"] not in why or \
        not why.startswith("line "):
    sys.exit("FAIL: a wrong answer's reason: %r (answer %r)" % (why, q["answer"]["text"]))
text = subprocess.run(args[:7] + ["--guess=999999"], capture_output=True, text=True).stdout
if "you said 999999: wrong\n       why: " + why not in text:
    sys.exit("FAIL: the text transcript does not give the wrong answer's reason:\n" + text)
print("ok: a wrong answer's reason: " + why)
PY
finish
