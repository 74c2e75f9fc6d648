# SPDX-License-Identifier: MIT
# tests/checklib.py: the "ok:" and "FAIL:" lines of the shell tests' Python parts, and their
# verdict (checklib.failed): a part that printed a FAIL line exits 1 however it ends, so a
# script that forgets its sys.exit cannot pass with a failed check.
import atexit
import os
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
