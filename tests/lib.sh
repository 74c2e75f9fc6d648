# SPDX-License-Identifier: MIT
# tests/lib.sh: what every shell test does the same way. A test sets name, then sources it:
#     name=headless
#     . "$(dirname "$0")/lib.sh"
# and gets:
#   bin, src, build  the iobufviz binary ($IOBUFVIZ_BIN), the source tree ($IOBUFVIZ_SRCDIR)
#                    and the build tree the binary is in (make check sets the two variables)
#   tmp              a private directory, removed with what cleanup() removes on every way out
#   cleanup          a function the test may redefine (kill its tmux server, ...): run first
#   fail             0, set to 1 by bad; "exit $fail" (or finish) ends the test
#   bad MSG          a "FAIL: MSG" line; the test fails
#   skip REASON      the whole test cannot run here: "SKIP: NAME: REASON", exit 77 (counted once)
#   skip_part WHAT REASON   a part of it cannot: "SKIP: NAME: WHAT: REASON" (each one counted)
#   need CMD...      skip unless every CMD is installed
#   wait_for COND [SECONDS]  poll the shell command COND every 0.1 s until it holds (0), or
#                    give up after SECONDS (default 10) (1): instead of a fixed sleep
#   finish           "PASS: NAME" if nothing failed; exit with fail
# tools/run-tests counts one result per test, plus one per SKIP line of a test that passed.
set -u
: "${name:?set name before sourcing tests/lib.sh}"
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
	echo "SKIP: $name: $*"
	exit 77
}

# One part of the test cannot run here: a named skip of its own, counted by tools/run-tests.
skip_part() {
	part=$1
	shift
	echo "SKIP: $name: $part: $*"
}

# Skip the test unless every command named is installed.
need() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c not installed"
	done
}

# Poll COND (a shell command) every 0.1 s for up to $2 seconds (10): 0 once it holds, else 1.
wait_for() {
	lib_i=0
	lib_n=$(( ${2:-10} * 10 ))
	until eval "$1"; do
		[ "$lib_i" -ge "$lib_n" ] && return 1
		sleep 0.1
		lib_i=$((lib_i + 1))
	done
	return 0
}

# End the test: a PASS line if nothing failed; its status.
finish() {
	[ "$fail" = 0 ] && echo "PASS: $name"
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
	[ -n "${tmp:-}" ] && { chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"; }
	exit "$lib_rc"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX") || { echo "FAIL: $name: mktemp"; exit 99; }
trap lib_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
