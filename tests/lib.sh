# SPDX-License-Identifier: MIT
# tests/lib.sh: what every shell test does the same way. A test sets testname, then sources it:
#     testname=headless
#     . "$(dirname "$0")/lib.sh"
# and gets:
#   bin, src, build  the iobufviz binary ($IOBUFVIZ_BIN), the source tree ($IOBUFVIZ_SRCDIR)
#                    and the build tree the binary is in (make check sets the two variables)
#   tmp              a private directory, removed with what cleanup() removes on every way out
#                    (KEEP=1 in the environment keeps it, and says where)
#   cleanup          a function the test may redefine (kill its tmux server, ...): run first
#   fail             0, set to 1 by bad; "exit $fail" (or finish) ends the test
#   bad MSG          a "FAIL: MSG" line; the test fails
#   skip REASON      the whole test cannot run here: "SKIP: NAME: REASON", exit 77 (counted once)
#   skip_part WHAT REASON   a part of it cannot: "SKIP: NAME: WHAT: REASON" (each one counted)
#   need CMD...      skip unless every CMD is installed
#   wait_for COND [SECONDS]  poll the shell command COND every 0.1 s until it holds (0), or
#                    give up after SECONDS (default 10; 1.5 is fine) (1): not a fixed sleep
#   finish           "PASS: NAME" if nothing failed; exit with fail
# and, for a terminal driven like a person would (tmux):
#   tmux_new SES W H CMD     start session SES, W x H, running CMD, on a tmux server of its
#                    own whose socket is new in $tmp (never one just killed); again: a new one
#   tmux_cmd SES ARGS...     tmux ARGS on SES's server (send-keys -t SES n, display -p ...)
#   tmux_screen SES  the screen now
#   tmux_sees SES TEXT [SECONDS]  wait until the screen shows TEXT (a fixed string): 0; else
#                    a FAIL line with the screen, fail=1, and 1
#   tmux_settled SES the screen is the same twice 0.3 s apart (an animation is over): 0
#   tmux_kill SES    end SES's server (every server ends on the way out anyway)
# tools/run-tests counts one result per test, plus one per SKIP line of a test that passed.
set -u
: "${testname:?set testname before sourcing tests/lib.sh}"
bin=${IOBUFVIZ_BIN:?IOBUFVIZ_BIN is not set (run the test through make check)}
src=${IOBUFVIZ_SRCDIR:?IOBUFVIZ_SRCDIR is not set (run the test through make check)}
build=$(cd "$(dirname "$bin")/.." && pwd)
fail=0

# A part of the test failed: say what.
bad() {
	echo "FAIL: $*"
	fail=1
}

# The whole test cannot run here: say why, once, and end it as skipped.
skip() {
	echo "SKIP: $testname: $*"
	exit 77
}

# One part of the test cannot run here: a named skip of its own, counted by tools/run-tests.
skip_part() {
	lib_part=$1
	shift
	echo "SKIP: $testname: $lib_part: $*"
}

# Skip the test unless every command named is installed.
need() {
	for lib_c in "$@"; do
		command -v "$lib_c" >/dev/null 2>&1 || skip "$lib_c not installed"
	done
}

# Poll COND (a shell command) every 0.1 s for up to $2 seconds (10): 0 once it holds, else 1.
wait_for() {
	lib_i=0
	lib_n=$(echo "${2:-10}" | awk '{ printf "%d", $1 * 10 }')
	until eval "$1"; do
		[ "$lib_i" -ge "$lib_n" ] && return 1
		sleep 0.1
		lib_i=$((lib_i + 1))
	done
	return 0
}

lib_tmux_n=0

# Start session $1 ($2 x $3 cells) running the command $4 on a new private tmux server.
tmux_new() {
	tmux_kill "$1"
	lib_tmux_n=$((lib_tmux_n + 1))
	echo "$tmp/tmux.$lib_tmux_n" >"$tmp/tmux-$1.sock"
	tmux -S "$tmp/tmux.$lib_tmux_n" -f /dev/null new-session -d -s "$1" -x "$2" -y "$3" "$4"
}

# tmux on session $1's server, with the arguments after it.
tmux_cmd() {
	lib_ses=$1
	shift
	tmux -S "$(cat "$tmp/tmux-$lib_ses.sock" 2>/dev/null)" "$@"
}

# The screen of session $1 now.
tmux_screen() {
	tmux_cmd "$1" capture-pane -p -t "$1" 2>/dev/null
}

# Wait (up to $3 seconds, default 10) until session $1's screen shows the fixed string $2.
tmux_sees() {
	lib_ses_s=$1
	lib_text=$2
	wait_for 'tmux_screen "$lib_ses_s" | grep -qF -- "$lib_text"' "${3:-10}" && return 0
	echo "FAIL: the screen does not show '$2':"
	tmux_screen "$1" | sed 's/^/    | /'
	fail=1
	return 1
}

# Session $1's screen is the same twice 0.3 s apart: what it was drawing is drawn.
tmux_settled() {
	tmux_screen "$1" >"$tmp/tmux-$1.screen"
	sleep 0.3
	tmux_screen "$1" | cmp -s - "$tmp/tmux-$1.screen"
}

# End session $1's server, if it runs.
tmux_kill() {
	[ -f "$tmp/tmux-$1.sock" ] && tmux_cmd "$1" kill-server >/dev/null 2>&1
	rm -f "$tmp/tmux-$1.sock"
}

# End the test: a PASS line if nothing failed; its status.
finish() {
	[ "$fail" = 0 ] && echo "PASS: $testname"
	exit "$fail"
}

# What the test adds to the way out (redefine it after sourcing this file).
cleanup() {
	:
}

# Every way out: the test's own cleanup, then its private directory.
lib_exit() {
	lib_rc=$?
	trap - EXIT
	cleanup
	for lib_s in "$tmp"/tmux.*; do
		[ -S "$lib_s" ] && tmux -S "$lib_s" kill-server >/dev/null 2>&1
	done
	if [ -n "${KEEP:-}" ]; then
		echo "kept $tmp (KEEP)"
	elif [ -n "${tmp:-}" ]; then
		chmod -R u+rwx "$tmp" 2>/dev/null
		rm -rf "$tmp"
	fi
	exit "$lib_rc"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$testname.XXXXXX") || { echo "FAIL: $testname: mktemp"; exit 99; }
trap lib_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
