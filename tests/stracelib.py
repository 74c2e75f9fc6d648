# SPDX-License-Identifier: MIT
# tests/stracelib.py: reading strace's lines, for the shell tests that compare iobufviz with it.

def split_args(a):
    """The top-level arguments of a call as strace prints them: "3</f>, [{...}, {...}], 2"."""
    args, depth, cur, q, i = [], 0, "", False, 0
    while i < len(a):
        ch = a[i]
        if q:
            cur += ch
            if ch == "\\":
                cur += a[i + 1]; i += 1
            elif ch == '"':
                q = False
        elif ch == '"':
            q = True; cur += ch
        elif ch in "([{<":
            depth += 1; cur += ch
        elif ch in ")]}>":
            depth -= 1; cur += ch
        elif ch == "," and depth == 0:
            args.append(cur.strip()); cur = ""
        else:
            cur += ch
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return args
