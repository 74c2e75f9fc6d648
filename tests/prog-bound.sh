#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/prog-bound.sh: a PROGRAM's transcript has a bound (--max-output, default 64 MiB;
# iobufviz(1), BOUNDS): 800 unbuffered FILE*s and 8000 fputc round robin (601 MB of JSON
# when every step repeated every stream) give complete JSON well under it, each step with
# only the stream it changed; a smaller --max-output cuts sooner, says where and why, exit 3;
# a program well inside it is complete (exit 0). Headless, --timeout bounds the wall time.
testname=prog-bound
. "$(dirname "$0")/lib.sh"
need cc python3
mkdir "$tmp/w" "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR
cat >"$tmp/many.c" <<'EOF'
#include <stdio.h>
/* 8000 fputc round robin on 800 unbuffered streams; with an argument, fputc without end. */
int main(int argc, char **argv)
{
	static FILE *f[800];
	char name[32];
	(void)argv;
	for (int i = 0; i < 800; i++) {
		snprintf(name, sizeof name, "s%03d", i);
		if ((f[i] = fopen(name, "w")) == NULL)
			return 1;
		setvbuf(f[i], NULL, _IONBF, 0);
	}
	for (unsigned k = 0; argc > 1 || k < 8000; k++)
		fputc('x', f[k % 800]);
	return 0;
}
EOF
cc -O1 -o "$tmp/many" "$tmp/many.c" || { echo "FAIL: many.c does not build"; exit 99; }

# Run iobufviz with "$@" on a program; the transcript in $tmp/$name, its size in $size. A
# file size limit of 100 MiB (and 120 s) keeps an unbounded transcript from filling the disk.
run() {
	name=$1
	shift
	(ulimit -f 204800 2>/dev/null; ulimit -n 2048 2>/dev/null
	 timeout -s KILL 120 "$bin" --headless --timeout=100 --dir "$tmp/w" "$@") \
		>"$tmp/$name" 2>"$tmp/$name.err"
	rc=$?
	size=$(wc -c <"$tmp/$name")
}

# The JSON's error, or "complete" if it has none.
json_error() {
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; print(e if e else "complete")' "$1" 2>&1
}

run many.json --format=json -- "$tmp/many"
many_size=$size
[ "$size" -lt 67108864 ] || bad "800 streams: ${size} bytes of JSON (bound 64 MiB), exit $rc"
# A step carries the streams it changed, not every stream of the process again: the whole
# run fits well inside the bound, and no fputc step lists more than its own stream.
why=$(json_error "$tmp/many.json")
[ "$why" = complete ] && [ $rc = 0 ] ||
	bad "800 streams: not complete (exit $rc, $size bytes): $why"
python3 - "$tmp/many.json" <<'PY' || bad "800 streams: a step lists streams it did not change"
import json, sys
d = json.load(open(sys.argv[1]))
puts = [s for s in d["steps"] if s["op"] == "stdio" and s["stdio_call"]["func"] == "fputc"]
most = max(len(s["streams"] or []) for s in puts)
if len(puts) < 8000 // 16384 + 1 or most > 1 or puts[-1]["streams_unchanged"] < 799:
    print("  %d fputc steps, up to %d streams each, %d unchanged at the last" %
          (len(puts), most, puts[-1]["streams_unchanged"] if puts else -1))
    sys.exit(1)
PY

run small.txt --max-output=256KiB -- "$tmp/many"
[ $rc = 3 ] && [ "$size" -lt 262144 ] || bad "--max-output=256KiB: exit $rc, $size bytes"
grep -q "^error: the transcript reached its bound of 256 KiB (--max-output) after step [0-9]" "$tmp/small.txt" ||
	bad "--max-output=256KiB: the text does not say where it was cut: $(tail -3 "$tmp/small.txt")"

run true.json --format=json --max-output=256KiB -- true
[ $rc = 0 ] && [ "$(json_error "$tmp/true.json")" = complete ] ||
	bad "true: exit $rc, $(json_error "$tmp/true.json")"

run bad.txt --max-output=12 -- true
[ $rc = 2 ] || bad "--max-output=12: exit $rc, expected 2 (usage)"

# Headless, --timeout is wall time: iobufviz's own work on the 800 streams counts too (it
# took 7 s of wall for --timeout=3 when only the program's time counted).
t0=$(date +%s%N)
(ulimit -n 2048 2>/dev/null; timeout -s KILL 60 "$bin" --headless --timeout=3 --dir "$tmp/w" \
	-- "$tmp/many" forever) >"$tmp/forever.txt" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
grep -q "^program  killed by SIGKILL (timeout)" "$tmp/forever.txt" ||
	bad "--timeout=3: not killed at its timeout (exit $rc): $(tail -2 "$tmp/forever.txt")"
[ $ms -lt 6000 ] || bad "--timeout=3: the run took $ms ms of wall time"

[ $fail = 0 ] && echo "ok: 800 streams x 8000 fputc: $many_size bytes of JSON, complete; --max-output cuts sooner; --timeout=3 ended in $ms ms"
finish
