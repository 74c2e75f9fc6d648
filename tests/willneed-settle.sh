#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/willneed-settle.sh: after posix_fadvise(WILLNEED) the kernel reads in the background;
# a probe that counts a page once its read has completed (mincore, kpageflags) saw 0 of its
# 64 pages as the call returned on a loop device, and all 64 a moment later. The step's count
# is the settled one (the same as after a 0.2 s wait, and as cachestat's, which counts pages
# as they are added), and where it changed the note says so. On ext4 and btrfs loop mounts
# made here, whose reads take long enough to be seen in flight.
if [ "$(id -u)" -eq 0 ] && [ -z "${WILLNEED_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare --mount true 2>/dev/null; then
	WILLNEED_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
testname=willneed-settle
. "$(dirname "$0")/lib.sh"
need python3
[ "$(id -u)" -eq 0 ] || skip "needs root for loop mounts"
[ -e /dev/loop-control ] || skip "no loop devices"
scen=$src/tests/willneed.yaml
mounts= loops=
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	for l in $loops; do losetup -d "$l" 2>/dev/null; done
}
ran=0
for fs in ext4 btrfs; do
	command -v "mkfs.$fs" >/dev/null 2>&1 || { skip_part "$fs" "no mkfs.$fs"; continue; }
	truncate -s 320M "$tmp/$fs.img"
	case $fs in
	ext4) mkfs.ext4 -q -F "$tmp/$fs.img" >/dev/null 2>&1 ;;
	btrfs) mkfs.btrfs -q -f "$tmp/$fs.img" >/dev/null 2>&1 ;;
	esac || { skip_part "$fs" "mkfs.$fs failed"; continue; }
	mkdir "$tmp/$fs"
	# Direct I/O to the image: the loop device's reads go to the disk below, not to the
	# image's own pages in the cache, so they take long enough to be seen in flight.
	loop=$(losetup -f --show --direct-io=on "$tmp/$fs.img" 2>/dev/null) ||
		loop=$(losetup -f --show "$tmp/$fs.img" 2>/dev/null) ||
		{ skip_part "$fs" "no loop device"; continue; }
	loops="$loop $loops"
	mount "$loop" "$tmp/$fs" 2>/dev/null || { skip_part "$fs" "cannot mount $loop"; continue; }
	mounts="$tmp/$fs $mounts"
	for probe in cachestat mincore kpageflags; do
		"$bin" --headless --format=json --probe=$probe --dir "$tmp/$fs" "$scen" \
			>"$tmp/$fs.$probe.json" 2>"$tmp/$fs.$probe.err"
		rc=$?
		if [ $rc -eq 3 ]; then
			skip_part "$fs --probe=$probe" "$(head -n 1 "$tmp/$fs.$probe.err")"
			continue
		fi
		[ $rc -eq 0 ] || { bad "$fs --probe=$probe: exit $rc: $(head -n 3 "$tmp/$fs.$probe.err")"; continue; }
		ran=$((ran + 1))
	done
	python3 - "$tmp" "$fs" <<'PY' || fail=1
import json, os, sys
tmp, fs = sys.argv[1:]
def pages(probe, i):
    p = "%s/%s.%s.json" % (tmp, fs, probe)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        return None, None
    s = json.load(open(p))["steps"][i]
    return s["state"]["cache"]["pages"], s["note"] or ""
bad = 0
for probe in ("mincore", "kpageflags"):
    for i in (2, 5):
        ref, _ = pages("cachestat", i)
        got, note = pages(probe, i)
        if got is None:
            continue
        later, _ = pages(probe, i + 1)
        ok = got == later == 64 and (ref is None or ref == got)
        print("%s %s --probe=%s: WILLNEED step %d: %s pages, 0.2 s later %s, cachestat %s; "
              "note: %s" % ("ok  " if ok else "FAIL", fs, probe, i + 1, got, later, ref,
                            note or "-"))
        bad |= not ok
sys.exit(bad)
PY
done
[ $ran -gt 0 ] || skip "no probe could run here"
finish
