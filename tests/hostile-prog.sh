#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/hostile-prog.sh: a traced program cannot escape, stall or flood iobufviz (tests/foreign/hostile.c):
# clone(CLONE_UNTRACED) and clone3 are refused in every ABI, a daemon it forks is killed at
# --timeout, a FIFO where it mapped a "libc" does not block the tracer, /dev/tty cannot be
# opened even when iobufviz has a terminal, a log it forges with runs of 4 G calls each is
# taken bounded; no process of it outlives the run.
testname=hostile-prog
. "$(dirname "$0")/lib.sh"
need python3
hostile=$build/tests/foreign/hostile
[ -x "$hostile" ] || { echo "FAIL: $hostile not built"; exit 99; }
# A copy of our own: its path tells our processes from those of tests running beside us.
cp "$hostile" "$tmp/hostile" && hostile=$(readlink -f "$tmp/hostile") || exit 99
# Whatever a failure leaves running is killed by pid (found by its exe), never by name.
# The copy's processes still alive on the way out (lib.sh then removes the dir).
cleanup() {
	for p in $(left); do kill -KILL "$p" 2>/dev/null; done
}
mkdir "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR

# The pids of processes running the hostile program (our copy).
left() {
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$hostile" ] && { p=${e#/proc/}; echo "${p%/exe}"; }
	done
}

# Trace "hostile MODE" headless (JSON into $tmp/MODE.json) with --timeout=$2, bounded by 60 s
# from outside; the time it took (s) in $took. Its exit status must be 0.
run() {
	mkdir -p "$tmp/$1"
	start=$(date +%s)
	timeout 60 "$bin" --headless --format=json --timeout="$2" --dir "$tmp/$1" -- "$hostile" "$1" \
		>"$tmp/$1.json" 2>"$tmp/$1.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	[ $rc = 0 ] || { echo "FAIL: $1: exit $rc (124: still running after 60 s): $(head -c 300 "$tmp/$1.err")"; fail=1; }
	[ -z "$(left)" ] || { echo "FAIL: $1: processes outlived the run: $(left)"; fail=1; }
}

# The program's stdout as its transcript has it.
stdout_of() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["program"]["stdout"] or "", end="")' "$1" 2>/dev/null
}

run untraced 20
out=$(stdout_of "$tmp/untraced.json")
for want in "clone: Operation not permitted" "clone3: Function not implemented"; do
	echo "$out" | grep -qxF "$want" || { echo "FAIL: untraced: no '$want' in: $out"; fail=1; }
done
case $(uname -m) in x86_64)
	if echo "$out" | grep -qxF 'clone (int $0x80): no IA32 emulation'; then
		echo "SKIP: hostile-prog: int \$0x80 clone: this kernel has no IA32 emulation"
	else
		echo "$out" | grep -qxF 'clone (int $0x80): Operation not permitted' ||
			echo "$out" | grep -qxF 'clone (int $0x80): Function not implemented' ||
			{ echo "FAIL: untraced: int \$0x80 clone not refused: $out"; fail=1; }
	fi ;;
esac
grep -q "CLONE_UNTRACED" "$tmp/untraced.json" || { echo "FAIL: untraced: the transcript does not say clone(CLONE_UNTRACED) is refused"; fail=1; }

# A traced daemon (new session, double fork, SIGTERM ignored) keeps the run going: killed at
# the timeout, with every process of the program.
run daemon 2
[ $took -le 15 ] || { echo "FAIL: daemon: --timeout=2 took ${took}s"; fail=1; }
grep -q '"killed by SIGKILL (timeout)"\|killed by SIGKILL (timeout)' "$tmp/daemon.json" ||
	{ echo "FAIL: daemon: no process killed at the timeout in the transcript"; fail=1; }

# The FIFO: the run ends (the program's own end, or --timeout), the tracer never blocks.
run fifo 5
[ $took -le 20 ] || { echo "FAIL: fifo: took ${took}s with --timeout=5"; fail=1; }
stdout_of "$tmp/fifo.json" | grep -qxF "child open: ok" ||
	{ echo "FAIL: fifo: the child's step was not traced: $(stdout_of "$tmp/fifo.json")"; fail=1; }

# /dev/tty, with iobufviz on a terminal of its own (a pseudo-terminal that is its controlling
# terminal): the program has none.
mkdir "$tmp/tty"
python3 "$src/tests/on-pty.py" "$tmp/tty.out" pwned "$bin" --headless --format=json \
	--timeout=20 --dir "$tmp/tty" -- "$hostile" tty 2>"$tmp/tty.err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: tty: exit $rc: $(cat "$tmp/tty.err")"; fail=1; }
out=$(stdout_of "$tmp/tty.out")
echo "$out" | grep -qxF "open /dev/tty: No such device or address" ||
	{ echo "FAIL: tty: the program opened /dev/tty: $out"; fail=1; }
[ -z "$(left)" ] || { echo "FAIL: tty: processes outlived the run: $(left)"; fail=1; }

# A forged log whose every entry claims a run of 4 G calls: each is taken as PROG_MARK_RUN
# (1024) calls at most, so the run ends at once, its calls bounded (8 stops, 512 entries and
# the run going on at each: at most 8 x 513 x 1024).
run forge 20
[ $took -le 15 ] || { echo "FAIL: forge: took ${took}s"; fail=1; }
calls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["program"]["calls"]["stdio"])' \
	"$tmp/forge.json" 2>/dev/null)
stdout_of "$tmp/forge.json" | grep -qxF "forged: ok" && [ -n "$calls" ] &&
	[ "$calls" -le $((8 * 513 * 1024 + 10)) ] ||
	{ echo "FAIL: forge: $calls stdio calls taken (bound $((8 * 513 * 1024))): $(stdout_of "$tmp/forge.json")"; fail=1; }

[ $fail = 0 ] && echo "ok: clone(CLONE_UNTRACED)/clone3 refused, a daemon killed at --timeout, a FIFO does not block, no /dev/tty, a forged log's runs bounded, nothing left"
finish
