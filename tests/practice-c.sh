#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/practice-c.sh: practice problems are well posed where they are shown: seeds 1-20 of
# every topic print a program that compiles as printed (gcc -std=c11 -Wall -Wextra -Werror),
# the same in JSON; and every answer --answers prints, given back as --guess, scores right
# (save one this machine could not observe or fix in either run: a crash topic's power cut
# after writes no call waited for).
testname=practice-c
. "$(dirname "$0")/lib.sh"
need python3 gcc
topics=$("$bin" --practice | cut -d' ' -f1)
[ -n "$topics" ] || { echo "FAIL: no topics"; exit 1; }

python3 - "$bin" "$tmp" $topics <<'PY'
import json, re, subprocess, sys

binary, tmp, topics = sys.argv[1], sys.argv[2], sys.argv[3:]
bad = 0
compiled = guessed = 0


def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1


def run(args):
    return subprocess.run([binary] + args, capture_output=True, text=True)


def listing(text):
    """The program as printed: the lines after its heading up to the questions, unindented."""
    m = re.search(r"\nThe program[^\n]*:\n\n(.*?)\n\nQuestions", text, re.S)
    if m is None:
        return None
    return "\n".join(l[4:] if l.startswith("    ") else l for l in m.group(1).split("\n")) + "\n"


def compiles(name, src):
    path = "%s/%s.c" % (tmp, name)
    with open(path, "w") as f:
        f.write(src)
    p = subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "-o",
                        path + ".o", path], capture_output=True, text=True)
    return p.returncode == 0, p.stderr


for t in topics:
    for seed in range(1, 21):
        name = "%s-%d" % (t, seed)
        text = run(["--practice", t, "--seed", str(seed), "--headless"]).stdout
        src = listing(text)
        if src is None:
            fail("%s: no program in the text" % name)
            continue
        ok, err = compiles(name, src)
        if not ok:
            fail("%s: the program does not compile as printed:\n%s\n%s" % (name, src, err))
            continue
        compiled += 1
        j = json.loads(run(["--practice", t, "--seed", str(seed), "--format=json"]).stdout)
        if j["listing"] != src:
            fail("%s: JSON's listing is not the printed one" % name)
        for line in j["program"]:
            if "\n" in line:
                fail("%s: JSON program line %r holds a newline" % (name, line))

        # The answers as printed, given back, each score right.
        ans = run(["--practice", t, "--seed", str(seed), "--headless", "--answers",
                   "--dir", tmp]).stdout
        printed = re.findall(r"^  Q(\d+) +(.*?)(?:   \[the generator's model.*)?$",
                             ans.split("\nAnswers, as this machine")[-1], re.M)
        if not printed:
            fail("%s: no answers printed" % name)
            continue
        args = ["--practice", t, "--seed", str(seed), "--headless", "--dir", tmp]
        for _, a in printed:
            args.append("--guess=" + a)
        scored = run(args).stdout
        m = re.search(r"^score: (\d+) of (\d+) right$", scored, re.M)
        again = re.findall(r"^  Q(\d+) +(.*?)(?:   \[the generator's model.*?\])?   you said",
                           scored, re.M)
        # An answer this machine could not observe, or not fix (a crash topic's power cut
        # after writes no call waited for), is "?" in one of the runs: it may differ.
        pairs = list(zip(printed, again))
        unobservable = [a for (_, a), (_, b) in pairs if a.startswith("?") or b.startswith("?")]
        fixed = [(a, b) for a, b in pairs if not a[1].startswith("?") and not b[1].startswith("?")]
        if m is None:
            fail("%s: no score line" % name)
        elif len(again) != len(printed) or any(a != b for a, b in fixed):
            fail("%s: the second run answered otherwise (%s, then %s)" % (name, printed, again))
        elif int(m.group(1)) != int(m.group(2)) - len(unobservable):
            fail("%s: the printed answers score %s of %s (%d not observable here)\n%s"
                 % (name, m.group(1), m.group(2), len(unobservable), scored))
        else:
            guessed += 1
print("%d listings compiled, %d problems' printed answers scored right" % (compiled, guessed))
sys.exit(bad)
PY
[ $? = 0 ] || fail=1
finish
