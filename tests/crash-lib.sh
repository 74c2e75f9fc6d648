# SPDX-License-Identifier: MIT
# tests/crash-lib.sh: what the crash lab's shell tests share (sourced, not run): $test names
# the test; skip, lab_needs, wait_for.

# Print "SKIP: $test: reason" and end the test as skipped (77).
skip() {
	echo "SKIP: $test: $*"
	exit 77
}

# Skip unless this can make loop devices and mounts (root, /dev/loop-control) and run the
# tools "$@".
lab_needs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make loop devices and mounts"
	[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices are unavailable here"
	for t in "$@"; do
		PATH=$PATH:/usr/sbin:/sbin command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
	done
}

# Wait (up to 10 s) until command "$@" succeeds; 0 if it did.
wait_for() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.05
	done
}
