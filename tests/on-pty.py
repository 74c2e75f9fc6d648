#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tests/on-pty.py OUT WORD CMD...: run CMD with a pseudo-terminal as its controlling terminal
# (so that /dev/tty works for it, and would for what it runs), its stdout into the file OUT.
# Exit status: CMD's, or 1 if the terminal saw WORD (what a program must not write there).
import os, pty, sys

out, word, cmd = sys.argv[1], sys.argv[2].encode(), sys.argv[3:]
o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid, fd = pty.fork()
if pid == 0:
    os.close(os.open("/dev/tty", os.O_WRONLY))      # ours is the pty
    os.dup2(o, 1)
    os.execv(cmd[0], cmd)
seen = b""
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    seen += b
_, st = os.waitpid(pid, 0)
if word in seen:
    sys.stderr.write("the terminal saw %r: %r\n" % (word, seen))
    sys.exit(1)
sys.exit(os.waitstatus_to_exitcode(st))
