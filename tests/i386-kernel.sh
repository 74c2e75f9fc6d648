#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/i386-kernel.sh: the bundled lessons run by an i386 iobufviz on Debian 12's own 686
# kernel under qemu-system-i386 (TCG), as root and as uid 1000, on an ext4 on a RAM disk
# (brd), then one program traced. The i386 build is tools/build-i386's (made here unless
# I386_BUILD names one); the kernel, busybox-static and e2fsprogs are the :i386 packages
# tools/debian-i386.pins pins (tools/debian-i386.sh: apt-get download, private apt config,
# cached in I386_CACHE, default the build's debian/). Needs no root.
# Without qemu-system-i386, the cross compiler or the archive: "SKIP: i386-kernel: <reason>"
# (77). I386_LESSONS: the lessons to run ("all", or names; default a few, see below).
# Usage: tests/i386-kernel.sh [BIN [SRCDIR]] (BIN, the amd64 build, only says where the tree is).
top=$(cd "$(dirname "$0")/.." && pwd)
IOBUFVIZ_BIN=${1:-${IOBUFVIZ_BIN:-$top/build/src/iobufviz}}
IOBUFVIZ_SRCDIR=${2:-${IOBUFVIZ_SRCDIR:-$top}}
export IOBUFVIZ_BIN IOBUFVIZ_SRCDIR
testname=i386-kernel
. "$(dirname "$0")/lib.sh"

# The i386 build: I386_BUILD's (made by tools/build-i386, its sysroot inside), else
# tools/build-i386 makes one in build-i386/ beside the source tree (a build failure fails).
if [ -n "${I386_BUILD:-}" ]; then
	b=$I386_BUILD
else
	b=$src/build-i386
	"$src/tools/build-i386" "$b" >"$tmp/build-i386.out" 2>&1
	case $? in
	0) ;;
	77) skip "$(tail -n 1 "$tmp/build-i386.out")" ;;
	*) cat "$tmp/build-i386.out"; echo "FAIL i386-kernel: tools/build-i386 failed"; exit 1 ;;
	esac
fi
[ -x "$b/src/iobufviz" ] || skip "no i386 build at $b (tools/build-i386 makes it)"
[ -d "$b/sysroot/usr/lib/i386-linux-gnu" ] || skip "$b has no sysroot/ (tools/build-i386 makes it)"
for t in qemu-system-i386 apt-get dpkg-deb readelf cpio gzip timeout; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
. "$src/tools/debian-i386.sh"
guest="linux-image-6.1.0-50-686 busybox-static e2fsprogs libext2fs2 libcom-err2 libss2 libblkid1 libuuid1"
deb386_init "${I386_CACHE:-$b/debian}" 2>"$tmp/fetch.err" || skip "$(tail -n 1 "$tmp/fetch.err")"
# shellcheck disable=SC2086
deb386_fetch $guest 2>"$tmp/fetch.err" || skip "$(tail -n 1 "$tmp/fetch.err")"
grep '^NOT PINNED' "$tmp/fetch.err"
work=$tmp
# shellcheck disable=SC2086
deb386_unpack "$work/pkgs" $guest || exit 99
vmlinuz=$(ls "$work"/pkgs/boot/vmlinuz-* | head -n 1)

# The initramfs: iobufviz as make install puts it (/usr), busybox, mkfs.ext4, the libraries
# they need, and the modules for an ext4 on a RAM disk (brd) and the crash lab's loop device.
ir=$work/ir
mkdir -p "$ir/bin" "$ir/sbin" "$ir/usr/bin" "$ir/usr/sbin" "$ir/proc" "$ir/dev" "$ir/sys" \
	"$ir/tmp" "$ir/etc"
make -s -C "$b" install DESTDIR="$ir" >"$work/install.out" 2>&1 ||
	{ tail -n 20 "$work/install.out"; echo "FAIL i386-kernel: make install"; exit 1; }
cp "$work/pkgs/bin/busybox" "$ir/bin/busybox" && ln -s busybox "$ir/bin/sh"
cp "$work/pkgs/sbin/mke2fs" "$ir/sbin/" && ln -s mke2fs "$ir/sbin/mkfs.ext4"
deb386_libs "$ir" "$b/sysroot" "$work/pkgs" || exit 99
deb386_modules "$ir" "$work/pkgs" brd ext4 loop crc32c_generic || exit 99
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$ir/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$ir/etc/group"
# The lessons run: I386_LESSONS's names ("all": every bundled one), else a few that stand for
# what i386 changes: register pairs (pread64/pwrite64 in 13.6-direct-io, fadvise64_64 in
# 13.5-fadvise), O_LARGEFILE in F_GETFL (13.3-o-rsync), O_DIRECT on ext4 (13.6-direct-io), a
# pty (13-4-pty), the crash lab on a loop device (crash-13-3), and the course's first lesson
# (13-3-fflush-fsync). All of them: 491 s of qemu wall here (54 of 54 passed); these few: 21 s.
lessons=${I386_LESSONS:-13-3-fflush-fsync 13-4-pty 13.3-o-rsync 13.5-fadvise 13.6-direct-io crash-13-3}
[ "$lessons" = all ] && lessons=$(cd "$src/scenarios" && ls *.yaml | sed "s/\\.yaml$//" | tr "\n" " ")
cat >"$ir/init" <<INIT
#!/bin/sh
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
/bin/busybox mount -t proc proc /proc && /bin/busybox --install -s
mount -t devtmpfs dev /dev; mount -t sysfs sys /sys
for m in \$(cat /lib/modules/order); do
	case \$m in brd.ko) insmod /lib/modules/\$m rd_nr=1 rd_size=524288 ;; *) insmod /lib/modules/\$m ;; esac
done
mkfs.ext4 -q /dev/ram0 && mount -t ext4 /dev/ram0 /tmp && chmod 1777 /tmp ||
	echo "i386-kernel: no ext4 on /dev/ram0"
mkdir -p /dev/pts /dev/shm
mount -t devpts -o ptmxmode=0666,mode=0620 devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
echo "i386-kernel: guest \$(cat /proc/sys/kernel/osrelease) \$(uname -m), /tmp \$(stat -f -c %T /tmp), up \$(cut -d' ' -f1 /proc/uptime) s"
cd /tmp
for who in root user; do
	for name in $lessons; do
		f=/usr/share/iobufviz/scenarios/\$name.yaml
		budget=
		grep -q '^[[:space:]]*-[[:space:]]*sweep:' \$f && budget=--budget=0.02
		t0=\$(cut -d' ' -f1 /proc/uptime)
		if [ \$who = root ]; then
			timeout 300 /usr/bin/iobufviz --headless \$budget \$f >/tmp/out 2>&1
		else
			timeout 300 su -s /bin/sh -c "env -i PATH=/usr/bin:/bin /usr/bin/iobufviz --headless \$budget \$f" user >/tmp/out 2>&1
		fi
		rc=\$?
		echo "i386-kernel: \$who: \$name: exit \$rc (\$t0 .. \$(cut -d' ' -f1 /proc/uptime) s) \$(grep -E '^[0-9]+ held, ' /tmp/out | tail -n 1)"
		[ \$rc -ne 0 ] && sed "s|^|i386-kernel: \$who: \$name: > |" /tmp/out | grep -E 'FAIL|false here|rror' | head -n 20
	done
done
echo hello >/tmp/f
timeout 60 /usr/bin/iobufviz --headless -- /bin/busybox cat /tmp/f >/tmp/p 2>&1
echo "i386-kernel: own program: exit \$? \$(grep -c '^step ' /tmp/p) steps: \$(grep -o 'openat(.*' /tmp/p | head -n 1)"
echo "i386-kernel: guest done at \$(cut -d' ' -f1 /proc/uptime) s"
sync
poweroff -f
INIT
chmod 755 "$ir/init"
(cd "$ir" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz" || exit 99
start=$(date +%s)
timeout 1500 qemu-system-i386 -nodefaults -display none -no-reboot -accel tcg -m 1536 -smp 1 \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" -append "console=ttyS0 quiet panic=-1 no_timer_check rdinit=/init" \
	-serial "file:$work/console.log" >"$work/qemu.out" 2>&1
wall=$(($(date +%s) - start))
log=$work/console.log
grep -q '^i386-kernel: guest done' "$log" ||
	{ echo "FAIL i386-kernel: the guest did not finish after $wall s"; tail -n 30 "$log"; exit 1; }
grep '^i386-kernel: ' "$log"
status=0
for who in root user; do
	for name in $lessons; do
		line=$(grep -m1 "^i386-kernel: $who: $name: exit " "$log")
		case $line in
		*": exit 0 "*) ;;
		*) echo "FAIL i386-kernel: $who: $name: ${line:-no result}"; status=1 ;;
		esac
	done
done
grep -q '^i386-kernel: own program: exit 0 ' "$log" || { echo "FAIL i386-kernel: own program"; status=1; }
echo "i386-kernel: $(basename "$vmlinuz"), wall $wall s, $( [ $status -eq 0 ] && echo ok || echo FAILED)"
exit $status
