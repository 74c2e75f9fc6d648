# SPDX-License-Identifier: MIT
# tests/checklib.py: the "ok:" and "FAIL:" lines of the shell tests' Python parts, and their
# verdict (checklib.failed).
failed = False


def check(cond, what):
    """Print "ok: WHAT" if cond holds, else "FAIL: WHAT" and remember it; return cond."""
    global failed
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failed = True
    return cond
