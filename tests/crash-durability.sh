#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-durability.sh: a traced program's durability notes, through the real binary: a
# rename() of data never fsynced, and a new file made durable while no directory was, are
# named with the lesson that shows them (JSON: program.durability); a program that fsyncs the
# file before the rename, and its directory after, has none; a C program that makes its file
# with fopen() gets the directory note as one that uses open() does, and none once it fsyncs
# the directory (a named skip without cc). Needs python3 and ptrace; else
# "SKIP: crash-durability: <reason>".
testname=crash-durability
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
need python3

# Trace python3 -c "$2" in a fresh dir; print the kinds of its durability notes, one a line.
notes() {
	rm -rf "$tmp/d" && mkdir "$tmp/d" && echo old >"$tmp/d/data"
	"$bin" --headless --format=json --dir "$tmp/d" -- python3 -c "$2" >"$tmp/$1.json" 2>"$tmp/$1.err"
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: $testname: $1: exit $rc: $(head -c 300 "$tmp/$1.err")"; fail=1; return; }
	python3 - "$tmp/$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
steps = [s["args"] for s in d["steps"]]
for n in d["program"]["durability"]:
    print(n["kind"], n["lesson"])
print("renames", sum(1 for a in steps if " rename" in a))
PY
}

got=$(notes unsynced "
import os
fd = os.open('data.new', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
os.write(fd, b'new\n'); os.close(fd)
os.rename('data.new', 'data')
fd = os.open('b', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
os.write(fd, b'b\n'); os.fsync(fd); os.close(fd)")
echo "$got" | sed "s/^/$testname: unsynced: /"
echo "$got" | grep -q '^rename-unsynced crash-rename$' || { echo "FAIL: $testname: no rename note"; fail=1; }
echo "$got" | grep -q '^directory-unsynced crash-new-file$' || { echo "FAIL: $testname: no directory note"; fail=1; }
echo "$got" | grep -q '^renames 1$' || { echo "FAIL: $testname: the rename is not a step"; fail=1; }

got=$(notes synced "
import os
fd = os.open('data.new', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
os.write(fd, b'new\n'); os.fsync(fd); os.close(fd)
os.rename('data.new', 'data')
d = os.open('.', os.O_RDONLY | os.O_DIRECTORY); os.fsync(d); os.close(d)")
echo "$got" | sed "s/^/$testname: synced: /"
[ "$got" = "renames 1" ] || { echo "FAIL: $testname: a program that syncs both has notes"; fail=1; }

# fopen() makes the file (its openat with O_CREAT is a stdio step's call): the same note, and
# none when the directory is fsynced too (DIRSYNC).
if command -v cc >/dev/null 2>&1; then
	cat >"$tmp/fo.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	FILE *fp = fopen("out.txt", "w");

	if (fp == NULL)
		return 1;
	for (int i = 0; i < 500; i++)
		fprintf(fp, "line %d\n", i);
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0 || fclose(fp) != 0)
		return 1;
#ifdef DIRSYNC
	int d = open(".", O_RDONLY | O_DIRECTORY);
	if (d < 0 || fsync(d) != 0)
		return 1;
	close(d);
#endif
	return 0;
}
EOF
	for v in fo fo-dirsync; do
		cc -g -o "$tmp/$v" $([ $v = fo-dirsync ] && echo -DDIRSYNC) "$tmp/fo.c" ||
			{ echo "FAIL: $testname: cc $v"; fail=1; continue; }
		rm -rf "$tmp/d" && mkdir "$tmp/d"
		"$bin" --headless --format=json --dir "$tmp/d" -- "$tmp/$v" >"$tmp/$v.json" 2>"$tmp/$v.err" ||
			{ echo "FAIL: $testname: $v: exit $?: $(head -c 300 "$tmp/$v.err")"; fail=1; continue; }
		got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(n["kind"] for n in d["program"]["durability"]) or "none")' "$tmp/$v.json")
		echo "$testname: $v: $got"
		want=directory-unsynced
		[ $v = fo-dirsync ] && want=none
		[ "$got" = "$want" ] || { echo "FAIL: $testname: $v: notes '$got', not '$want'"; fail=1; }
	done
else
	echo "SKIP: $testname: fopen: cc not installed"
fi
finish
