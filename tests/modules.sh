#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/modules.sh: the source tree's module graph has no cycle and no file is too long. A
# module is a file name without its extension (x.c with x.h, and x-int.h, its private header);
# "a includes b.h" is an edge.
set -u
src=${IOBUFVIZ_SRCDIR:?}/src
command -v python3 >/dev/null || { echo "SKIP: modules: python3 not installed"; exit 77; }
python3 - "$src" <<'PY'
import glob, os, re, sys
src = sys.argv[1]
g = {}
for f in glob.glob(os.path.join(src, "*", "*.[ch]")):
    m = os.path.relpath(f, src).rsplit(".", 1)[0]
    for inc in re.findall(r'#include "([^"]+)\.h"', open(f, encoding="utf-8").read()):
        # X-int.h is module X's private header: part of X.
        inc = inc[:-4] if inc.endswith("-int") else inc
        if inc != m:
            g.setdefault(m, set()).add(inc)
color, found = {}, []
def dfs(u, stack):
    color[u] = 1
    stack.append(u)
    for v in sorted(g.get(u, ())):
        if color.get(v) == 1:
            found.append(stack[stack.index(v):] + [v])
        elif not color.get(v):
            dfs(v, stack)
    stack.pop()
    color[u] = 2
for u in sorted(g):
    if not color.get(u):
        dfs(u, [])
for c in found:
    print("FAIL: module cycle: " + " -> ".join(c))
long = [(f, n) for f in glob.glob(os.path.join(src, "*", "*.c"))
        for n in [sum(1 for _ in open(f, encoding="utf-8"))] if n > 850]
for f, n in long:
    print("FAIL: %s has %d lines (over ~800: split it by job)" % (os.path.relpath(f, src), n))
print("ok: %d modules, %d edges, no cycle" % (len(set(g) | {v for s in g.values() for v in s}),
                                               sum(len(s) for s in g.values())) if not found else "")
sys.exit(1 if found or long else 0)
PY
