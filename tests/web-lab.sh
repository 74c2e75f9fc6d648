#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/web-lab.sh: the browser lab (tools/web-lab's build-web/) starts and teaches. Node
# first (tests/web-lab-boot.js, v86 with the page's machine): restored from the folder's saved
# state (state.zst) as the page does, the guest's clock is the host's (the page sets it),
# "iobufviz -H 13-3" runs to its "all expectations held", a C file compiled with tcc in the
# guest is traced (its fopen's openat flags), and the crash lab on ext4 (crash-13-3: a loop
# device on the RAM disk's ext4) runs to the crash after fsync(), where a power cut keeps all
# 5000 bytes: what fsync() guarantees. (Not its verdict: the emulated guest is so slow that
# ext4's 5 s journal timer can fire inside a step and commit the new file before the lesson's
# "no file after a power cut" crash, seen once.) Then the cold boot (the kernel and initramfs
# with the page's command line, the page's way when the state is missing or does not load) to
# its shell: the guest is i686 with /tmp on ext4, its console the size sent; tools/web-lab checks that in the cold boot
# that saves the state, read from its output when it ran here, else --cold boots it now.
# Then headless Chromium (tests/web-lab-browser.py, the project's DevTools driver, no npm):
# served on 127.0.0.1, index.html#run=iobufviz -H 13-3 restores the state and shows "all
# expectations held" in the terminal's DOM text; on the same page, the #env line says what the
# guest reported (Linux 6.1, i686, one CPU), a key's echo time is measured, a C file goes in
# through the Upload control, is compiled by tcc and traced, files come out through Download
# byte for byte (a 64 KiB binary one too), the TUI of 13-3 steps with n, in Unicode lines
# (the guest's locale is C.UTF-8), and q quits, and crash-13-3 on ext4 shows both crashes
# (x); the same page resized to a phone's 390x844 keeps 80x24 or more in a font of 12 px
# or more (the terminal's box scrolls sideways, not the page) and tells the guest its new
# size; at both sizes the header stays in view and the terminal fits the window, the TUI
# running too. Then Chromium boots the page cold (index.html#cold) with keys typed while it
# boots, which must run at the shell's first prompt in order. Prints the restored and cold
# times (Node's and Chromium's) and the folder's size (at most 40 MB).
# The folder: WEB_LAB_DIR's as it is, else build-web/ beside the source tree, made afresh by
# tools/web-lab here (npm and Debian's archive must answer, else a named skip; its caches
# make a second build quick).
# Usage: tests/web-lab.sh [BIN [SRCDIR]] (BIN, the amd64 build, only says where the tree is).
top=$(cd "$(dirname "$0")/.." && pwd)
IOBUFVIZ_BIN=${1:-${IOBUFVIZ_BIN:-$top/build/src/iobufviz}}
IOBUFVIZ_SRCDIR=${2:-${IOBUFVIZ_SRCDIR:-$top}}
export IOBUFVIZ_BIN IOBUFVIZ_SRCDIR
testname=web-lab
. "$(dirname "$0")/lib.sh"

need node
need zstd
dir=${WEB_LAB_DIR:-$src/build-web}
if [ -n "${WEB_LAB_DIR:-}" ]; then
	[ -f "$dir/index.html" ] || skip "no lab at $dir (tools/web-lab makes it)"
else
	"$src/tools/web-lab" "$dir" >"$tmp/web-lab.out" 2>&1
	case $? in
	0) ;;
	77) skip "$(tail -n 1 "$tmp/web-lab.out")" ;;
	*) cat "$tmp/web-lab.out"; bad "tools/web-lab failed"; finish ;;
	esac
	grep -E '^web-lab: (state.zst: [0-9]|.*: [0-9]+ MB)' "$tmp/web-lab.out"
fi
for f in index.html machine.js lab.js libv86.js v86.wasm xterm.js bios.bin vgabios.bin kernel.zst initrd.zst state.zst \
	SOURCES; do
	[ -s "$dir/$f" ] || bad "$dir has no $f"
done
[ $fail = 0 ] || finish

# Nothing in the page's own files names a place outside the folder (the CSP forbids it too).
if grep -nE '(src|href)="(https?:)?//' "$dir/index.html"; then
	bad "index.html loads something from outside its folder"
fi
size=$(du -sk "$dir" | cut -f1)
echo "web-lab: $dir: $((size / 1024)) MB"
[ "$size" -le $((40 * 1024)) ] || bad "the folder is $size KiB, over 40 MB"

# A student's C file: written in the guest, compiled by tcc, traced by iobufviz.
tcc_trace='printf "#include <stdio.h>\nint main(void){FILE *f = fopen(\"o\", \"w\"); fputs(\"hi\", f); return fclose(f);}\n" >t.c && tcc t.c && iobufviz -H -- ./a.out'
# Where Chromium runs below, it checks 13-3's verdict and the tcc trace on the page: Node
# checks only what the page does not (the clock, the power cut after fsync()), a core's half
# minute less in CI.
chromium=$(command -v chromium || command -v chromium-browser)
browser=yes
if [ -z "$chromium" ] || ! command -v python3 >/dev/null 2>&1 || [ "${WEB_LAB_BROWSER:-1}" = 0 ]; then
	browser=no
fi
set -- 'echo clock=$(date +%s)' '@clock'
[ $browser = yes ] || set -- "$@" 'iobufviz -H 13-3' 'all expectations held' \
	"$tcc_trace" 'O_WRONLY|O_CREAT|O_TRUNC'
start=$(date +%s)
WEB_LAB_LOG=$tmp/console.log timeout 600 node "$src/tests/web-lab-boot.js" "$dir" 540 "$@" \
	'iobufviz -H --crash-fs=ext4 crash-13-3' 'ok   crash.power.size = 5000' >"$tmp/boot.out" 2>&1
rc=$?
sed 's/^/  /' "$tmp/boot.out" | grep -v '^  web-lab-boot: FAIL' | grep 'web-lab-boot:'
echo "web-lab: Node, restored, and run: $(($(date +%s) - start)) s wall"
if [ $rc -ne 0 ]; then
	cat "$tmp/boot.out"
	bad "the lab in Node (restored) did not print what it should"
fi

# The cold boot, the page's way without a saved state: tools/web-lab checked it when it saved
# the state (the same cold boot, on to its shell) if it ran here; else a cold boot now.
if grep -q "^web-lab-state: the cold boot's shell" "$tmp/web-lab.out" 2>/dev/null; then
	grep -E '^web-lab-state: (saved|the cold)' "$tmp/web-lab.out"
else
	start=$(date +%s)
	WEB_LAB_LOG=$tmp/cold.log timeout 600 node "$src/tests/web-lab-boot.js" --cold "$dir" 540 \
		'uname -m; stat -f -c %T /tmp; grep -c ext4 /proc/mounts' 'i686' \
		'stty size | sed s/^/size=/' 'size=24 80' >"$tmp/cold.out" 2>&1
	rc=$?
	sed 's/^/  /' "$tmp/cold.out" | grep -v '^  web-lab-boot: FAIL' | grep 'web-lab-boot:'
	echo "web-lab: Node, cold boot: $(($(date +%s) - start)) s wall"
	if [ $rc -ne 0 ]; then
		cat "$tmp/cold.out"
		bad "the lab in Node (cold boot) did not print what it should"
	fi
	grep -q 'ext2/ext3' "$tmp/cold.log" ||
		bad "/tmp in the guest is not ext4 ($(grep -A2 'stat -f' "$tmp/cold.log" | head -n 3))"
fi

# The same in headless Chromium, as a student opens it (tests/web-lab-browser.py: one boot;
# screenshots at 1280x800 and 390x844 into WEB_LAB_SHOTS, default the work dir, kept with
# KEEP=1).
if [ -z "$chromium" ] || ! command -v python3 >/dev/null 2>&1; then
	skip_part chromium "chromium or python3 is not installed"
elif [ "${WEB_LAB_BROWSER:-1}" = 0 ]; then
	skip_part chromium "WEB_LAB_BROWSER=0"
else
	shots=${WEB_LAB_SHOTS:-$tmp}
	mkdir -p "$shots"
	start=$(date +%s)
	timeout 900 python3 "$src/tests/web-lab-browser.py" "$dir" "$chromium" "$shots" 240 ||
		bad "the lab in headless Chromium (above)"
	echo "web-lab: Chromium: $(($(date +%s) - start)) s wall; screenshots in $shots"
fi
finish
