# SPDX-License-Identifier: MIT
# tests/checklib.py: the "ok:" and "FAIL:" lines of the shell tests' Python parts, and their
# verdict (checklib.failed): a part that printed a FAIL line exits 1 however it ends, so a
# script that forgets its sys.exit cannot pass with a failed check; strace_rw, the reads or
# writes strace -f logged on one file; and line_marks, the lines a test program's source marks.
import atexit
import os
import re
import sys

failed = False


def _verdict():
    """At the end of the part: exit 1 if a check failed (whatever exit status it asked)."""
    if failed:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)


atexit.register(_verdict)


def check(cond, what):
    """Print "ok: WHAT" if cond holds, else "FAIL: WHAT" and remember it; return cond."""
    global failed
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failed = True
    return cond


def line_marks(source):
    """The lines a source file marks with /* LINE:tag */, by tag."""
    mark = {}
    for n, text in enumerate(open(source), 1):
        m = re.search(r"/\* LINE:(\w+) \*/", text)
        if m:
            mark[m.group(1)] = n
    return mark


def strace_rw(path, call, name):
    """(size asked, result) of each read or write (call) strace -f -y -s 0 logged in path on
    the file whose base name is name, in order."""
    out = []
    pat = re.compile(r"^\d+\s+%s\(\d+<([^>]*)>, [^,]*, (\d+)\)\s+=\s+(-?\d+)" % re.escape(call))
    for line in open(path):
        m = pat.match(line)
        if m and os.path.basename(m.group(1)) == name:
            out.append((int(m.group(2)), int(m.group(3))))
    return out


def every_stream(doc):
    """Every FILE of each step's process as the step left it, one list per step (None where
    the step's streams are null), from a program's JSON transcript: a step lists only the
    streams it changed and those gone since (closed); the others are as that process's last
    step showed them. A step whose counts do not add up fails a check."""
    live = {}
    out = []
    for s in doc["steps"]:
        if s.get("streams") is None:
            out.append(None)
            continue
        have = live.setdefault(s["pid"], {})
        shown = 0
        for x in s["streams"]:
            if x.get("closed"):
                have.pop(x["addr"], None)
            else:
                have[x["addr"]] = x
                shown += 1
        if len(have) != shown + s["streams_unchanged"]:
            check(False, "step %d: %d streams shown and %d unchanged, %d known" %
                  (s["index"], shown, s["streams_unchanged"], len(have)))
        out.append(list(have.values()))
    return out
