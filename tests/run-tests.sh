#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/run-tests.sh: tools/run-tests counts this run's results only, on a made-up build tree
# whose "make check" stops at a test program that does not compile (as automake's does): that
# test is one failure (not last run's pass, whose logs are there), a removed test's old logs
# do not count, each skip is counted and named, a program that fails after all its checks
# held is a failure, and the final line's counts are exactly those of the tests that ran.
# And every shell test sources tests/lib.sh (its one skip syntax).
testname=run-tests
. "$(dirname "$0")/lib.sh"
need make nproc
t=$tmp/tree
mkdir -p "$t/tests"
cat >"$t/Makefile" <<'MK'
TEST_LOGS = tests/unit.log tests/broken.log tests/leaky.log tests/whole.sh.log tests/parts.sh.log
check: tests/broken
	$(MAKE) test-suite.log
test-suite.log: $(TEST_LOGS)
tests/broken:
	@echo "tests/broken.c:1:1: error: this does not compile" >&2; exit 1
tests/broken.log: tests/broken
	@echo "100%: Checks: 9, Failures: 0, Errors: 0" >$@; echo ":test-result: PASS" >tests/broken.trs
tests/unit.log:
	@printf 'SKIP: unit: test_b: not here\n100%%: Checks: 3, Failures: 0, Errors: 0\n' >$@
	@echo ":test-result: PASS" >tests/unit.trs
tests/leaky.log:
	@printf '100%%: Checks: 2, Failures: 0, Errors: 0\nERROR: LeakSanitizer: 64 bytes\n' >$@
	@echo ":test-result: FAIL" >tests/leaky.trs
tests/whole.sh.log:
	@echo "SKIP: whole: tmux not installed" >$@; echo ":test-result: SKIP" >tests/whole.sh.trs
tests/parts.sh.log:
	@printf 'SKIP: parts: one: no strace\nSKIP: parts: two: no valgrind\nPASS: parts\n' >$@
	@echo ":test-result: PASS" >tests/parts.sh.trs
MK
# Last run's logs: the broken test passed then, and a test since removed passed too.
for old in broken removed; do
	echo "100%: Checks: 5, Failures: 0, Errors: 0" >"$t/tests/$old.log"
	echo ":test-result: PASS" >"$t/tests/$old.trs"
done
unset MAKEFLAGS MFLAGS MAKELEVEL
"$src/tools/run-tests" --in "$t" >"$tmp/out" 2>&1
rc=$?
sed 's/^/    | /' "$tmp/out"
[ $rc = 1 ] || bad "exit $rc, expected 1 (a test failed)"
last=$(tail -n 1 "$tmp/out")
# unit 3 + parts 1 + leaky 2 passed; broken and leaky failed; unit 1, whole 1, parts 2 skipped.
[ "$last" = "6 passed, 2 failed, 4 skipped" ] || bad "final line '$last', expected '6 passed, 2 failed, 4 skipped'"
grep -q '^broken: FAIL (no result this run' "$tmp/out" || bad "the test that did not build is not a failure"
grep -q 'removed' "$tmp/out" && bad "a removed test's old logs were counted"
for s in "SKIP: unit: test_b: not here" "SKIP: whole: tmux not installed" \
         "SKIP: parts: one: no strace" "SKIP: parts: two: no valgrind"; do
	grep -qF -- "    $s" "$tmp/out" || bad "skip not shown: $s"
done
grep -q 'leaky: FAIL after its checks' "$tmp/out" || bad "a failure after the checks is not said"
# Every shell test speaks the one skip syntax: it sources lib.sh.
for f in "$src"/tests/*.sh; do
	case $(basename "$f") in lib.sh|*-lib.sh) continue ;; esac   # sourced, not run
	grep -q '^\. "$(dirname "$0")/lib.sh"$' "$f" || bad "$(basename "$f") does not source tests/lib.sh"
done
finish
