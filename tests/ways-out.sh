#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/ways-out.sh: every way out of iobufviz, through the real binary: each signal whose
# default action ends a process leaves no scratch dir and no child (and, in the TUI, a
# restored terminal); a run killed by SIGKILL has its dir removed by the next run, which
# says so; an unusable TERM and a failed write to standard output are errors, not exit 0.
testname=ways-out
. "$(dirname "$0")/lib.sh"
bad() { echo "FAIL: $*"; fail=1; failed=1; }   # (lib.sh's, and the section's mark)
failed=0
# Say a section held, if no check in it failed since the last ok.
ok() { [ "$failed" = 1 ] || echo "ok: $*"; failed=0; }
slow="$src/scenarios/13.3-writeback.yaml"

# Processes whose command line names this test's dir (the run and its children).
ours() { pgrep -f -- "--dir $1" | wc -l; }

# util-linux/procps kill(1) knows every name (SIGSTKFLT, SIGRTMIN+N); the shell's may not.
killer=$(command -v /usr/bin/kill || command -v /bin/kill) || skip "kill(1) (procps) not installed"

# The run in dir $1 is under way: its scratch dir is made and its worker forked (two
# processes name the dir), so that "nothing left" after a signal means something.
running_in() {
	[ -n "$(ls -A "$1")" ] && [ "$(ours "$1")" -ge 2 ]
}

# 1. Every catchable terminating signal, headless, in the middle of a 30 s wait step
#    (the real-time ones by number: glibc's SIGRTMIN is 34 and SIGRTMAX 64 on Linux).
sigs="HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU VTALRM
PROF IO PWR SYS 34 40 58 64"
for sig in $sigs; do
	d="$tmp/sig-$sig"
	mkdir "$d"
	# A shell starts background jobs with SIGINT and SIGQUIT ignored, and iobufviz keeps
	# an ignored signal ignored (nohup): give the run their default actions back.
	env --default-signal "$bin" --headless --dir "$d" "$slow" >/dev/null 2>&1 &
	pid=$!
	wait_for 'running_in "$d"' || bad "SIG$sig: the run never got under way"
	"$killer" -s "$sig" "$pid" || bad "kill -s $sig failed"
	wait "$pid"
	rc=$?
	case $sig in
	# Under AddressSanitizer its own handler reports these (exit 1), as it should.
	ILL|TRAP|ABRT|BUS|FPE|SEGV|SYS) [ "$rc" != 0 ] || bad "SIG$sig: exit 0" ;;
	*) [ "$rc" -gt 128 ] || bad "SIG$sig: exit $rc, expected death by the signal" ;;
	esac
	[ -z "$(ls -A "$d")" ] || bad "SIG$sig: left $(ls -A "$d")"
	[ "$(ours "$d")" = 0 ] || bad "SIG$sig: a child outlived iobufviz"
done
ok "headless: $(echo $sigs | wc -w) signals, nothing left"

# 2. SIGKILL leaves the dir (nothing can run then); the next run removes it and says so,
#    and leaves alone a dir whose run is alive.
d="$tmp/kill"
mkdir "$d"
"$bin" --headless --dir "$d" "$slow" >/dev/null 2>&1 &
live=$!
"$bin" --headless --dir "$d" "$slow" >/dev/null 2>&1 &
pid=$!
# Both runs under way: two dirs, two runs and their two workers.
wait_for '[ "$(ls -A "$d" | wc -l)" = 2 ] && [ "$(ours "$d")" = 4 ]' ||
	bad "SIGKILL: the two runs never got under way"
kill -KILL "$pid"
wait "$pid"
# Its worker dies of PDEATHSIG, and the lock goes with it: the live run's two are left.
wait_for '[ "$(ours "$d")" = 2 ]' || bad "SIGKILL: the killed run's worker lives on"
[ "$(ls -A "$d" | wc -l)" = 2 ] || bad "SIGKILL: expected 2 dirs (one live, one stale): $(ls -A "$d")"
"$bin" --headless --dir "$d" "$src/tests/cli-minimal.yaml" >/dev/null 2>"$tmp/reap.err"
grep -q "removed $d/iobufviz\.[A-Za-z0-9]\{6\}, left by an iobufviz run that is gone" \
	"$tmp/reap.err" || bad "reap: not said: $(cat "$tmp/reap.err")"
[ "$(ls -A "$d" | wc -l)" = 1 ] || bad "reap: expected the live run's dir only: $(ls -A "$d")"
kill -TERM "$live"
wait "$live"
[ -z "$(ls -A "$d")" ] || bad "reap: left $(ls -A "$d")"
# A dir that only looks like ours (no lock file) is never touched while it could be a run's
# setup (younger than 60 s), nor ever when something is in it.
mkdir -m 700 "$d/iobufviz.AAAAAA" "$d/iobufviz.BBBBBB"
echo keep >"$d/iobufviz.BBBBBB/file"
touch -m -d '2 minutes ago' "$d/iobufviz.BBBBBB"
"$bin" --headless --dir "$d" "$src/tests/cli-minimal.yaml" >/dev/null 2>&1
[ -d "$d/iobufviz.AAAAAA" ] || bad "reap: removed an empty dir without our lock, 0 s old"
[ -f "$d/iobufviz.BBBBBB/file" ] || bad "reap: removed a dir without our lock, with a file in it"
rm -r "$d/iobufviz.AAAAAA" "$d/iobufviz.BBBBBB"
ok "SIGKILL: the next run removes the stale dir, and only it"

# 3. Terminals that cannot draw the screen: exit 3 and a pointer to --headless.
if command -v script >/dev/null; then
	for t in bogus dumb ""; do
		script -qec "env TERM='$t' '$bin' --dir '$tmp' '$src/tests/cli-minimal.yaml'" \
			/dev/null >"$tmp/term.out" 2>&1 </dev/null
		rc=$?
		[ "$rc" = 3 ] || bad "TERM='$t': exit $rc, expected 3"
		grep -q -- "--headless" "$tmp/term.out" || bad "TERM='$t': no hint: $(cat "$tmp/term.out")"
	done
	ok "TERM bogus, dumb, empty: exit 3"
else
	skip_part "TERM checks" "script(1) (bsdutils) not installed"
fi

# 4. Standard output that cannot be written: not exit 0.
if [ -w /dev/full ]; then
	for args in --list --help --version "--check $src/tests/cli-minimal.yaml" \
	            "--headless --dir $tmp $src/tests/cli-minimal.yaml"; do
		# shellcheck disable=SC2086
		"$bin" $args >/dev/full 2>"$tmp/full.err"
		rc=$?
		[ "$rc" != 0 ] || bad "$args >/dev/full: exit 0"
		grep -q "writing standard output" "$tmp/full.err" || bad "$args >/dev/full: not said"
	done
	ok "/dev/full: exit non-zero and said"
else
	skip_part "/dev/full" "not writable here"
fi

# 5. --record to a file that exists: refused before the screen, exit 2, file untouched.
if command -v script >/dev/null; then
	echo keep >"$tmp/rec.cast"
	script -qec "TERM=xterm '$bin' --dir '$tmp' --record '$tmp/rec.cast' '$src/tests/cli-minimal.yaml'" \
		/dev/null >"$tmp/rec.out" 2>&1 </dev/null
	rc=$?
	[ "$rc" = 2 ] || bad "--record=EXISTING: exit $rc, expected 2"
	grep -q "exists" "$tmp/rec.out" || bad "--record=EXISTING: not said"
	[ "$(cat "$tmp/rec.cast")" = keep ] || bad "--record=EXISTING: file changed"
	ok "--record=EXISTING: exit 2"
else
	skip_part "--record=EXISTING" "script(1) (bsdutils) not installed"
fi

# 6. The TUI in tmux: a signal restores the terminal (no alternate screen, cursor shown).
if command -v tmux >/dev/null; then
	for sig in USR1 ALRM TERM HUP; do
		d="$tmp/tui-$sig"
		ses=tui$sig
		mkdir "$d"
		tmux_new "$ses" 100 30 \
			"env TERM=xterm-256color sh -c '\"$bin\" --dir \"$d\" \"$slow\"; echo EXITED; sleep 5'"
		# The screen, then a step, then the signal and the exit.
		tmux_sees "$ses" "13.3" || bad "TUI SIG$sig: no screen"
		tmux_cmd "$ses" send-keys -t "$ses" n
		tmux_sees "$ses" "step 1/" || bad "TUI SIG$sig: step 1 did not run"
		pid=$(pgrep -f -- "--dir $d" | head -n 1)
		[ -n "$pid" ] && kill "-$sig" "$pid"
		tmux_sees "$ses" EXITED
		alt=$(tmux_cmd "$ses" display -p -t "$ses" '#{alternate_on}')
		cur=$(tmux_cmd "$ses" display -p -t "$ses" '#{cursor_flag}')
		tmux_screen "$ses" >"$tmp/tui.out"
		tmux_kill "$ses"
		[ "$alt" = 0 ] || bad "TUI SIG$sig: still in the alternate screen"
		[ "$cur" = 1 ] || bad "TUI SIG$sig: cursor hidden"
		grep -q EXITED "$tmp/tui.out" || bad "TUI SIG$sig: did not end"
		[ -z "$(ls -A "$d")" ] || bad "TUI SIG$sig: left $(ls -A "$d")"
	done
	ok "TUI: 4 signals, terminal restored"
else
	skip_part "TUI signals" "tmux not installed"
fi

finish
