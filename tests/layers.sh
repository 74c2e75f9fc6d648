#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/layers.sh: the source tree's layering as the linker sees it. It reads the symbols of
# libiobufviz.a's members and of main's object (nm), names each object by its source file,
# and checks: no two files call each other, however indirectly (a cycle of symbol references
# between files); every edge between areas (folders of src/) is one src/LAYERS allows, and
# that list has no cycle itself; every source file is in an object it checked; no file is past
# ~800 lines. Types, macros and constants cross through headers, which nm does not see: so it
# also reads every #include "AREA/FILE" of src/ and checks each edge between areas against
# the same list. It first proves on made-up nm output that it finds a cycle, an edge against
# the list and a list with a cycle, and passes a clean one; and that an include against the
# list is found, in made-up files and added to a real file of the tree.
testname=layers
. "$(dirname "$0")/lib.sh"
need python3 nm
: "${IOBUFVIZ_LIB_OBJECTS:?not set: run through make check (Makefile.am sets it)}"
lib=$build/src/libiobufviz.a
[ -f "$lib" ] || { echo "FAIL: no $lib"; exit 1; }
# Archive members in order, and main's object: "FILE:" then nm's lines.
nm -g "$lib" >"$tmp/lib.nm" || { echo "FAIL: nm $lib"; exit 1; }
for o in ${IOBUFVIZ_MAIN_OBJECTS:-}; do
	echo "$o:"
	nm -g "$build/$o" || echo "FAIL: nm $build/$o"
done >"$tmp/main.nm"
python3 - "$src" "$tmp/lib.nm" "$tmp/main.nm" "$IOBUFVIZ_LIB_OBJECTS" <<'PY'
import glob, os, re, sys

MAX_LINES = 800     # past it, a file is to be split by job


def parse_nm(text):
    """nm -g output of an archive or of objects: [(member, defined, undefined)] in order."""
    objs, cur = [], None
    for line in text.splitlines():
        if line.endswith(":") and " " not in line:
            cur = (line[:-1], set(), set())
            objs.append(cur)
            continue
        p = line.split()
        if cur is None or not p:
            continue
        if len(p) == 2 and p[0] in ("U", "w", "v"):
            cur[2].add(p[1])
        elif len(p) == 3 and p[1] not in ("U", "w", "v"):
            cur[1].add(p[2])
    return objs


def parse_layers(text):
    """src/LAYERS: {area: set of areas it may use}, and the errors in the list itself."""
    allowed, errors = {}, []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        area, sep, deps = line.partition(":")
        area = area.strip()
        if not sep or not area or " " in area:
            errors.append("src/LAYERS:%d: expected 'AREA: AREA...'" % n)
        elif area in allowed:
            errors.append("src/LAYERS:%d: %s has a second line" % (n, area))
        else:
            allowed[area] = set(deps.split())
    for a, deps in allowed.items():
        for d in sorted(deps - set(allowed)):
            errors.append("src/LAYERS: %s may use %s, which has no line" % (a, d))
    return allowed, errors


def cycles(graph):
    """The strongly connected parts of more than one node (Tarjan), each sorted."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check(objs, layers_text):
    """objs: [(file, defined, undefined)], file as AREA/NAME. The failures, and a summary."""
    fails = []
    allowed, errors = parse_layers(layers_text)
    fails += errors
    for part in cycles(allowed):
        fails.append("src/LAYERS is not a layering: %s use each other" % ", ".join(part))
    definer = {}
    for f, defs, _ in objs:
        for s in defs:
            if s in definer and definer[s] != f:
                fails.append("%s is defined in both %s and %s" % (s, definer[s], f))
            definer[s] = f
    edges = {}          # file -> {file: first symbol}
    for f, _, undefs in objs:
        for s in sorted(undefs):
            d = definer.get(s)
            if d is not None and d != f:
                edges.setdefault(f, {}).setdefault(d, s)
    graph = {f: set(ds) for f, ds in edges.items()}
    for part in cycles(graph):
        inside = ["%s -> %s (%s)" % (a, b, edges[a][b]) for a in part
                  for b in sorted(edges.get(a, {})) if b in part]
        fails.append("files that call each other: " + "; ".join(inside))
    areas = set()
    n_area_edges = set()
    for f, _, _ in objs:
        areas.add(f.split("/")[0])
    for a in sorted(areas - set(allowed)):
        fails.append("area %s has no line in src/LAYERS" % a)
    for f in sorted(edges):
        for d, s in sorted(edges[f].items()):
            fa, da = f.split("/")[0], d.split("/")[0]
            if fa == da:
                continue
            n_area_edges.add((fa, da))
            if da not in allowed.get(fa, set()):
                fails.append("%s -> %s (%s): %s may not use %s (src/LAYERS)" % (f, d, s, fa, da))
    summary = ("%d files, %d edges between them, no cycle; %d areas, %d edges between them, "
               "each in src/LAYERS" % (len(objs), sum(len(g) for g in graph.values()),
                                       len(areas), len(n_area_edges)))
    return fails, summary


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_sources(srcdir):
    """Every C file and header below srcdir/src: {AREA/PATH: text}."""
    files = {}
    top = os.path.join(srcdir, "src")
    for path in sorted(glob.glob(os.path.join(top, "**", "*.[ch]"), recursive=True)):
        files[os.path.relpath(path, top)] = open(path, encoding="utf-8").read()
    return files


def check_includes(files, layers_text):
    """files: {AREA/PATH: text}. The includes between areas src/LAYERS does not allow (an
    include "AREA/FILE" is of AREA; one without a folder is of the includer's own), and a
    summary."""
    allowed, _ = parse_layers(layers_text)
    fails, edges, n = [], set(), 0
    for f in sorted(files):
        fa = f.split("/")[0]
        if fa not in allowed:
            fails.append("area %s (%s) has no line in src/LAYERS" % (fa, f))
            continue
        for ln, line in enumerate(files[f].splitlines(), 1):
            m = INCLUDE.match(line)
            if m is None or "/" not in m.group(1):
                continue
            ta = m.group(1).split("/")[0]
            if ta == fa:
                continue
            n += 1
            edges.add((fa, ta))
            if ta not in allowed[fa]:
                fails.append("src/%s:%d: includes %s: %s may not use %s (src/LAYERS)"
                             % (f, ln, m.group(1), fa, ta))
    return fails, ("%d includes between areas, %d edges between areas, each in src/LAYERS"
                   % (n, len(edges)))


def selftest():
    """The checker on made-up input: it must find what is wrong there, and pass what is not."""
    nm = ("x.o:\n0000000000000000 T a_x\n                 U a_y\n\n"
          "y.o:\n0000000000000000 T a_y\n                 U a_x\n                 U printf\n\n"
          "z.o:\n0000000000000010 D b_z\n                 U a_x\n")
    objs = [(f, d, u) for f, (_, d, u) in zip(["a/x", "a/y", "b/z"], parse_nm(nm))]
    clean = [(f, d, u - {"a_x"} if f == "a/y" else u) for f, d, u in objs]
    cases = [
        (objs, "a:\nb:\n", ["files that call each other: a/x -> a/y (a_y); a/y -> a/x (a_x)",
                            "b/z -> a/x (a_x): b may not use a"]),
        (clean, "a: b\nb: a\n", ["src/LAYERS is not a layering: a, b use each other"]),
        (clean, "a:\n", ["area b has no line in src/LAYERS", "b may not use a"]),
        (clean, "a:\nb: a\n", []),
    ]
    bad = []
    for objs_, layers, want in cases:
        got, _ = check(objs_, layers)
        for w in want:
            if not any(w in g for g in got):
                bad.append("the checker misses '%s' in %r: it said %r" % (w, layers, got))
        if not want and got:
            bad.append("the checker fails a clean tree: %r" % got)
    files = {"a/x.c": '#include <stdio.h>\n#include "a/x.h"\n  # include "b/y.h"\n',
             "a/x.h": "", "b/y.h": '#include "y-int.h"\n'}
    for layers, want in (("a:\nb:\n", "src/a/x.c:3: includes b/y.h: a may not use b"),
                         ("b:\n", "area a (a/x.c) has no line in src/LAYERS"),
                         ("a: b\nb:\n", None)):
        got, _ = check_includes(files, layers)
        if want is not None and not any(want in g for g in got):
            bad.append("the include check misses '%s' in %r: it said %r" % (want, layers, got))
        if want is None and got:
            bad.append("the include check fails a clean tree: %r" % got)
    return bad


def selftest_tree(files, layers_text):
    """The include check on this tree with one include added against src/LAYERS (base/,
    which may use nothing, including the command line's header): it must be found."""
    victim = "base/text.c"
    if victim not in files:
        return ["the tree self-test has no src/%s to add an include to" % victim]
    bad = dict(files)
    bad[victim] = files[victim] + '#include "cli/catalog.h"\n'
    got, _ = check_includes(bad, layers_text)
    want = "includes cli/catalog.h: base may not use cli"
    if not any(victim in g and want in g for g in got):
        return ["the include check misses an include added to src/%s: it said %r"
                % (victim, got)]
    return []


src, lib_nm, main_nm, lib_objects = sys.argv[1:5]
fails = selftest()
if fails:
    for f in fails:
        print("FAIL: self-test: " + f)
    sys.exit(1)
layers_text = open(os.path.join(src, "src", "LAYERS")).read()
sources = read_sources(src)
fails = selftest_tree(sources, layers_text)
if fails:
    for f in fails:
        print("FAIL: self-test: " + f)
    sys.exit(1)
print("ok: self-test: a cycle, an edge against the list, a list with a cycle are found; "
      "an include against the list is found, made up and added to the tree")

# Name each archive member by the object make put there, in the same order.
members = parse_nm(open(lib_nm).read())
names = lib_objects.split()
if [m[0] for m in members] != [os.path.basename(n) for n in names]:
    print("FAIL: the archive's members %s are not make's objects %s (rebuild)"
          % ([m[0] for m in members][:5], names[:5]))
    sys.exit(1)
objs = [(os.path.splitext(os.path.relpath(n, "src"))[0], d, u)
        for n, (_, d, u) in zip(names, members)]
objs += [(os.path.splitext(os.path.relpath(m, "src"))[0], d, u)
         for m, d, u in parse_nm(open(main_nm).read())]
fails, summary = check(objs, layers_text)
inc_fails, inc_summary = check_includes(sources, layers_text)
fails += inc_fails

# Every C file of src/ is in an object checked here (the shim is a program of its own).
seen = {f for f, _, _ in objs}
for c in sorted(glob.glob(os.path.join(src, "src", "*", "*.c"))):
    rel = os.path.splitext(os.path.relpath(c, os.path.join(src, "src")))[0]
    if rel not in seen and not rel.startswith("shim/"):
        fails.append("src/%s.c is in no object the layering was checked on" % rel)
    n = sum(1 for _ in open(c, encoding="utf-8"))
    if n > MAX_LINES:
        fails.append("src/%s.c has %d lines (over ~800: split it by job)" % (rel, n))
for f in fails:
    print("FAIL: " + f)
if not fails:
    print("ok: " + summary)
    print("ok: " + inc_summary)
sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc = 0 ] || fail=1
finish
