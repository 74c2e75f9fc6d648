# SPDX-License-Identifier: MIT
# tests/crash-lib.sh: what the crash lab's shell tests add to tests/lib.sh (sourced after it,
# not run): lab_needs.

# Skip unless this can make loop devices and mounts (root, /dev/loop-control) and run the
# tools "$@".
lab_needs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make loop devices and mounts"
	[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices are unavailable here"
	for lib_t in "$@"; do
		PATH=$PATH:/usr/sbin:/sbin command -v "$lib_t" >/dev/null 2>&1 || skip "$lib_t is not installed"
	done
}
