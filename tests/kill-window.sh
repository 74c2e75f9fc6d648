#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/kill-window.sh: a run killed by SIGKILL at any system call stop of making its scratch
# dir (from mkdirat to the lock in place) or of removing it at its end leaves nothing that the
# next run does not remove, and says so: a dir holding its lock file at once, one without it
# (a run's setup: microseconds while it lives) once it is older than 60 s, never before. And a
# run held at any of those stops while its dir is made old and another run reaps still ends
# well with its own dir (it made another): no reaper takes a live run's dir. tests/kill-at
# kills, or holds, the run under ptrace at each stop in turn.
testname=kill-window
. "$(dirname "$0")/lib.sh"
killat=$build/tests/kill-at
[ -x "$killat" ] || { echo "FAIL: $killat not built"; exit 99; }
mkdir "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR
# Under ptrace LeakSanitizer cannot work (a sanitizer build): leave it out of these runs.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
minimal=$src/tests/cli-minimal.yaml
old() { touch -c -m -d '2 minutes ago' "$@"; }

mkdir "$tmp/probe"
"$killat" mkdirat iobufviz. 1 -- "$bin" --headless --dir "$tmp/probe" "$minimal" >/dev/null 2>&1
[ $? = 2 ] && skip "ptrace (PTRACE_GET_SYSCALL_INFO) refused here"

# The next run in $d: it must remove $d/$1 (and say so) and leave $d empty.
reaped() {
	"$bin" --headless --dir "$d" "$minimal" >/dev/null 2>"$d.err" || bad "$what: the next run failed: $(cat "$d.err")"
	grep -qF "removed $d/$1, left by an iobufviz run that is gone" "$d.err" ||
		bad "$what: the next run did not say it removed $1: $(cat "$d.err")"
	[ -z "$(ls -A "$d")" ] || bad "$what: left $(ls -A "$d") ($(ls -A "$d"/* 2>&1 | tr '\n' ' '))"
}

# Kill at stop $3 after the trigger ($1 $2); check what is left. Return 1 once the run ended
# before that stop, or got past the end of scratch_mkdir (its rt_sigprocmask's exit).
kill_case() {
	k=$((k + 1))
	d=$tmp/k$k
	mkdir "$d"
	"$killat" "$1" "$2" "$3" -- "$bin" --headless --dir "$d" "$minimal" >/dev/null 2>"$d.out"
	rc=$?
	out=$(grep -e '^killed at' -e '^ended before' "$d.out")
	[ $rc = 1 ] && return 1
	[ $rc = 0 ] || { bad "kill-at $1 $2 $3: exit $rc: $out"; return 1; }
	what="killed at $1 $2, stop $3 (${out#killed at stop * })"
	kills=$((kills + 1))
	left=$(ls -A "$d")
	if [ -n "$left" ]; then
		[ "$(echo "$left" | wc -l)" = 1 ] || bad "$what: left $left"
		left=$(echo "$left" | head -1)
		if [ ! -e "$d/$left/.iobufviz-lock" ]; then
			# No lock file: a live run could be there (making it): kept while young.
			"$bin" --headless --dir "$d" "$minimal" >/dev/null 2>"$d.err"
			[ -d "$d/$left" ] || bad "$what: a run removed a lockless dir 0 s old"
			old "$d/$left"
		fi
		reaped "$left"
		states=$((states + 1))
	fi
	case $out in *"rt_sigprocmask exit"*) [ "$1" = mkdirat ] && return 1 ;; esac
	return 0
}

k=0 kills=0 states=0
n=0
while [ $n -lt 60 ] && kill_case mkdirat iobufviz. $n; do n=$((n + 1)); done
[ $n -ge 10 ] || bad "setup: only $n stops between mkdirat and the end of scratch_mkdir"
for trig in ".iobufviz-lock" "scratch" "iobufviz."; do
	n=0
	while [ $n -lt 2 ] && kill_case unlinkat "$trig" $n; do n=$((n + 1)); done
done
[ $fail = 0 ] && echo "ok: $kills kills at every stop of making and removing a scratch dir; $states left a dir, each removed by the next run (a lockless one once 60 s old)"

# Held at each stop of the setup while its dir is made old and another run reaps: the held run
# still ends well, and nothing is left.
n=0 held=0
while [ $n -lt 60 ]; do
	d=$tmp/h$n
	mkdir "$d"
	"$killat" -r "touch -c -m -d '2 minutes ago' '$d'/iobufviz.* 2>/dev/null; '$bin' --headless --dir '$d' '$minimal' >/dev/null 2>'$d.reap'" \
		mkdirat iobufviz. $n -- "$bin" --headless --dir "$d" "$minimal" >/dev/null 2>"$d.err"
	rc=$?
	out=$(grep -e '^held at' -e '^ended before' "$d.err")
	case $out in held*) ;; *) bad "hold at stop $n: $out (exit $rc)"; break ;; esac
	held=$((held + 1))
	[ $rc = 0 ] || bad "held at stop $n (${out#held at stop * }): the run failed, exit $rc: $(cat "$d.err")"
	[ -z "$(ls -A "$d")" ] || bad "held at stop $n: left $(ls -A "$d")"
	case $out in *"rt_sigprocmask exit"*) break ;; esac
	n=$((n + 1))
done
[ $fail = 0 ] && echo "ok: a run held at each of $held stops of its setup, its dir 2 minutes old, while another reaps: it ends well, nothing left"
finish
