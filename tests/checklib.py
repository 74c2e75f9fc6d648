# SPDX-License-Identifier: MIT
# tests/checklib.py: the "ok:" and "FAIL:" lines of the shell tests' Python parts, and their
# verdict (checklib.failed): a part that printed a FAIL line exits 1 however it ends, so a
# script that forgets its sys.exit cannot pass with a failed check; and strace_rw, the reads or
# writes strace -f logged on one file.
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
