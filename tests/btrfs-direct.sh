#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/btrfs-direct.sh: lesson 13.6 on a btrfs loop mount made here. btrfs runs an O_DIRECT
# transfer smaller than its sector as buffered I/O: a 512-byte O_DIRECT read leaves pages in
# the cache (fincore, on a file of our own, says how many). The lesson tells what btrfs did,
# every sentence held, none unchecked with a "so false here" beside a pane that shows pages.
# btrfs (6.18) writes an aligned O_DIRECT write through the cache too, then drops the page
# with invalidate_mapping_pages(), which skips a page anything else holds: the lesson runs
# once more with another process mapping the first page before step 12 (the write), and
# says that the page stayed, as it does when another CPU's LRU list still queues it.
if [ "$(id -u)" -eq 0 ] && [ -z "${BTRFS_DIRECT_NS:-}" ] && command -v unshare >/dev/null 2>&1 &&
	unshare --mount true 2>/dev/null; then
	BTRFS_DIRECT_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
testname=btrfs-direct
. "$(dirname "$0")/lib.sh"
need python3 mkfs.btrfs
[ "$(id -u)" -eq 0 ] || skip "needs root for a loop mount"
[ -e /dev/loop-control ] || skip "no loop devices"
mounted=
cleanup() { [ -n "$mounted" ] && umount "$mounted" 2>/dev/null; }
truncate -s 320M "$tmp/btrfs.img" && mkfs.btrfs -q -f "$tmp/btrfs.img" >/dev/null 2>&1 ||
	skip "mkfs.btrfs failed"
mkdir "$tmp/mnt" && mount -o loop "$tmp/btrfs.img" "$tmp/mnt" 2>/dev/null || skip "no loop mount"
mounted=$tmp/mnt

# What btrfs does, by itself: the pages a 512-byte O_DIRECT read leaves cached (fincore).
if command -v fincore >/dev/null 2>&1; then
	head -c 65536 /dev/urandom >"$tmp/mnt/own" && sync -f "$tmp/mnt/own"
	python3 - "$tmp/mnt/own" <<'PY' || bad "an O_DIRECT read of 512 bytes failed on btrfs"
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)
sys.exit(0 if os.readv(fd, [memoryview(buf)[:512]]) == 512 else 1)
PY
	echo "fincore: $(fincore -n -o PAGES "$tmp/mnt/own" | tr -d ' ') page(s) cached after a 512-byte O_DIRECT read"
	rm -f "$tmp/mnt/own"
fi

# Map the first page of the lesson's file while an iobufviz process has it open O_RDWR |
# O_DIRECT (steps 11 to 13), until the lesson removes it; print what was mapped.
hold_first_page() {
	python3 - "$tmp/mnt" <<'PY'
import mmap, os, sys, time
root, m, path, end = sys.argv[1] + "/", None, None, time.time() + 60
while time.time() < end and (m is None or os.path.exists(path)):
    time.sleep(0.01)
    if m is not None:
        continue
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open("/proc/%s/comm" % pid).read().strip() != "iobufviz":
                continue
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink("/proc/%s/fd/%s" % (pid, fd))
                info = open("/proc/%s/fdinfo/%s" % (pid, fd)).read()
            except OSError:
                continue
            flags = int(info.split("flags:")[1].split()[0], 8)
            if target.startswith(root) and flags & os.O_DIRECT and \
                    flags & os.O_ACCMODE == os.O_RDWR and m is None:
                f = os.open(target, os.O_RDONLY)
                m, path = mmap.mmap(f, 4096, prot=mmap.PROT_READ), target
                os.close(f)
                m[0]
print("mapped" if m is not None else "never mapped")
PY
}

for probe in auto mincore held; do
	if [ $probe = held ]; then
		hold_first_page >"$tmp/held.map" &
		holder=$!
		"$bin" --headless --format=json --pace=0.3 --dir "$tmp/mnt" \
			"$src/scenarios/13.6-direct-io.yaml" >"$tmp/$probe.json" 2>"$tmp/$probe.err"
		rc=$?
		wait $holder
		[ "$(cat "$tmp/held.map")" = mapped ] ||
			bad "first page held: the first page was never mapped while step 12 ran"
	else
		"$bin" --headless --format=json --probe=$probe --dir "$tmp/mnt" \
			"$src/scenarios/13.6-direct-io.yaml" >"$tmp/$probe.json" 2>"$tmp/$probe.err"
		rc=$?
	fi
	[ $rc -le 1 ] || { bad "--probe=$probe: exit $rc: $(head -n 3 "$tmp/$probe.err")"; continue; }
	label=--probe=$probe
	[ $probe = held ] && label="--probe=auto, first page mapped elsewhere"
	python3 - "$tmp/$probe.json" "$label" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for s in d["steps"]:
    for x in s["sentences"]:
        if x["outcome"] in ("unchecked", "false"):
            print("FAIL %s step %d (%s pages cached): %s %r (%s)" % (
                sys.argv[2], s["index"], s["state"]["cache"]["pages"], x["outcome"], x["text"],
                x.get("why")))
            bad = 1
s2 = d["steps"][1]
print("%s: step 2 (O_DIRECT read of 512): %s pages cached; says %r" % (
    sys.argv[2], s2["state"]["cache"]["pages"], " ".join(x["text"] for x in s2["sentences"])[:160]))
if not d["ok"]:
    print("FAIL %s: the lesson failed" % sys.argv[2])
    bad = 1
s12 = d["steps"][11]
said = " ".join(x["text"] for x in s12["sentences"])
print("%s: step 12 (O_DIRECT write of 4096): %s pages cached; says %r" % (
    sys.argv[2], s12["state"]["cache"]["pages"], said[:160]))
if "mapped elsewhere" in sys.argv[2] and (s12["state"]["cache"]["pages"] != 16 or
                              "still cached" not in said):
    print("FAIL %s: step 12: %s pages, %r" % (sys.argv[2], s12["state"]["cache"]["pages"], said))
    bad = 1
sys.exit(bad)
PY
done
finish
