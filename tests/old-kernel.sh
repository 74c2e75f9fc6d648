#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/old-kernel.sh: every bundled lesson on a real older kernel, as root and as a user.
# Debian 12's own kernel (linux-image-6.1.0-N-amd64: no cachestat, ext4 without large
# folios) is fetched with apt-get download (never installed) and booted under
# qemu-system-x86_64 with TCG (no KVM) from a small busybox initramfs that loads virtio_blk,
# ext4 and loop from the same package; the root is an ext4 image made by mkfs.ext4 -d that
# holds iobufviz, its libraries and the scenarios. The lessons run on that ext4 (/tmp) as
# root (kpageflags) and as uid 1000 (mincore: dirty pages unknown), in two guests at once,
# each with its own image (one guest's sync() would write back the other's dirty pages).
# Fails on a failed expectation or a sentence false here, as tests/fs-matrix.sh does.
# Needs no root. Without qemu, apt-get, or the packages: "SKIP: old-kernel: <reason>" (77).
# Usage: tests/old-kernel.sh [BIN [SRCDIR]]; OLD_KERNEL_CACHE: where the .deb files are kept
# between runs (default: old-kernel/ beside the build's src/); OLD_KERNEL_LESSONS: a list of
# lesson names to run instead of all of them; OLD_KERNEL_USER_SWEEPS=1 runs the sweeps as the
# user too; KEEP=1 keeps the work dir (tests/lib.sh).
top=$(cd "$(dirname "$0")/.." && pwd)
IOBUFVIZ_BIN=${1:-${IOBUFVIZ_BIN:-$top/build/src/iobufviz}}
IOBUFVIZ_SRCDIR=${2:-${IOBUFVIZ_SRCDIR:-$top}}
export IOBUFVIZ_BIN IOBUFVIZ_SRCDIR
testname=old-kernel
. "$(dirname "$0")/lib.sh"

[ -x "$bin" ] || skip "no iobufviz binary at $bin"
for t in qemu-system-x86_64 apt-get apt-cache dpkg-deb mkfs.ext4 ldd gzip timeout; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
cache=${OLD_KERNEL_CACHE:-$(cd "$(dirname "$bin")/.." && pwd)/old-kernel}
mkdir -p "$cache" || skip "cannot make the package cache $cache"

# The newest linux-image-6.1.0-N-amd64 the archive knows (Debian 12's kernel), and
# busybox-static; downloaded once into the cache.
kpkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
	sed 's/ .*//' | sort -V | tail -n 1)
[ -n "$kpkg" ] || skip "no linux-image-6.1.0-*-amd64 package in the apt sources (Debian 12's kernel)"
fetch() {
	ls "$cache/$1"_*.deb >/dev/null 2>&1 && return 0
	(cd "$cache" && apt-get download "$1" >"$cache/$1.log" 2>&1) ||
		skip "apt-get download $1 failed: $(tail -n 1 "$cache/$1.log")"
}
fetch "$kpkg"
fetch busybox-static

work=$tmp
qpid=
# Stop the guests if they still run (lib.sh then removes the work dir).
cleanup() {
	[ -n "$qpid" ] && kill $qpid 2>/dev/null
}

dpkg-deb -x "$(ls "$cache/$kpkg"_*.deb | tail -n 1)" "$work/k" || exit 99
dpkg-deb -x "$(ls "$cache"/busybox-static_*.deb | tail -n 1)" "$work/bb" || exit 99
bb=$work/bb/bin/busybox
kver=${kpkg#linux-image-}
mods=$work/k/lib/modules/$kver
vmlinuz=$work/k/boot/vmlinuz-$kver
[ -f "$vmlinuz" ] && [ -d "$mods" ] || skip "$kpkg holds no vmlinuz or modules"

# The modules to load, each after those it depends on (their .modinfo "depends=").
order=
add_mod() {
	case " $order " in *" $1 "*) return ;; esac
	f=$(find "$mods/kernel" -name "$1.ko" | head -n 1)
	[ -n "$f" ] || { echo "old-kernel: no module $1 in $kpkg"; exit 1; }
	for d in $(tr '\0' '\n' <"$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
		add_mod "$d"
	done
	order="$order $1"
}
# virtio_pci and virtio_blk for the disk, crc32c for ext4's checksums, loop.
for m in virtio_pci virtio_blk crc32c_generic ext4 loop; do
	add_mod "$m"
done

# The initramfs: busybox, the modules, and an init that mounts the ext4 image as the root.
ir=$work/initramfs
mkdir -p "$ir/bin" "$ir/mod" "$ir/dev" "$ir/proc" "$ir/sys" "$ir/root"
cp "$bb" "$ir/bin/busybox"
ln -s busybox "$ir/bin/sh"
for m in $order; do
	cp "$(find "$mods/kernel" -name "$m.ko" | head -n 1)" "$ir/mod/"
done
cat >"$ir/init" <<EOF
#!/bin/sh
# Load the modules, mount the ext4 root, run the lessons there, power off.
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t proc proc /proc
for m in $order; do /bin/busybox insmod /mod/\$m.ko || echo "old-kernel: insmod \$m failed"; done
n=0
while [ ! -b /dev/vda ] && [ \$n -lt 100 ]; do /bin/busybox usleep 50000; n=\$((n + 1)); done
/bin/busybox mount -t ext4 /dev/vda /root || echo "old-kernel: cannot mount /dev/vda"
/bin/busybox mount -t devtmpfs dev /root/dev
/bin/busybox mount -t proc proc /root/proc
/bin/busybox mount -t sysfs sys /root/sys
/bin/busybox mkdir -p /root/dev/shm /root/dev/pts
/bin/busybox mount -t devpts -o ptmxmode=0666,mode=0620 devpts /root/dev/pts
/bin/busybox mount -t tmpfs -o mode=1777 shm /root/dev/shm
/bin/busybox chroot /root /bin/sh /run-lessons
/bin/busybox sync
/bin/busybox poweroff -f
EOF
chmod 755 "$ir/init"
(cd "$ir" && find . | "$bb" cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz" || exit 99

# The root: iobufviz, the libraries it links (ldd), busybox, the scenarios, a user.
rt=$work/rootfs
mkdir -p "$rt/bin" "$rt/etc" "$rt/dev" "$rt/proc" "$rt/sys" "$rt/tmp" "$rt/var/tmp" \
	"$rt/scenarios" "$rt/out"
chmod 1777 "$rt/tmp" "$rt/var/tmp" "$rt/out"
cp "$bb" "$rt/bin/busybox"
for a in sh su cat grep sed head tail timeout sync echo ls wc mkdir rm env; do
	ln -s busybox "$rt/bin/$a"
done
cp "$bin" "$rt/bin/iobufviz"
for lib in $(ldd "$bin" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
	mkdir -p "$rt$(dirname "$lib")"
	cp -L "$lib" "$rt$lib"
done
cp "$src"/scenarios/*.yaml "$rt/scenarios/"
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$rt/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$rt/etc/group"
lessons=${OLD_KERNEL_LESSONS:-$(cd "$src/scenarios" && ls *.yaml | sed "s/\\.yaml$//" | tr "\n" " ")}
# Each lesson as root, then as uid 1000 with an empty environment but for PATH (so that
# the scratch dir is chosen as a user's would be); its exit status and counts on the
# console, its whole transcript when it did not exit 0. A lesson with a sweep runs as root
# only (unless OLD_KERNEL_USER_SWEEPS=1): a sweep times the same calls for a user, and the
# five sweeps were 100 of the user guest's 140 s of lessons under TCG, a core of CI's two.
cat >"$rt/run-lessons" <<EOF
#!/bin/sh
export PATH=/bin
echo "old-kernel: guest \$(cat /proc/sys/kernel/osrelease) up \$(cut -d' ' -f1 /proc/uptime) s"
for who in \$(sed -n 's/.*iobufviz_who=\\([a-z]*\\).*/\\1/p' /proc/cmdline); do
	for name in $lessons; do
		f=/scenarios/\$name.yaml
		budget=
		if grep -q '^[[:space:]]*-[[:space:]]*sweep:' \$f; then
			[ \$who = user ] && [ "${OLD_KERNEL_USER_SWEEPS:-0}" != 1 ] && continue
			budget=--budget=0.02
		fi
		out=/out/\$who.\$name.txt
		t0=\$(cut -d' ' -f1 /proc/uptime)
		if [ \$who = root ]; then
			timeout 300 /bin/iobufviz --headless \$budget \$f >\$out 2>&1
		else
			timeout 300 su -s /bin/sh -c "env -i PATH=/bin /bin/iobufviz --headless \$budget \$f" \\
				user >\$out 2>&1
		fi
		rc=\$?
		t1=\$(cut -d' ' -f1 /proc/uptime)
		echo "old-kernel: \$who: \$name: exit \$rc (\$t0 .. \$t1 s) \$(grep -E '^[0-9]+ held, ' \$out | tail -n 1); \$(grep '^sentences: ' \$out)"
		grep -E '^  (skip |\? \[\?[0-9]+\] )' \$out | sed 's/^  ? \[?[0-9]*\] /  unchecked: /' | sort -u |
			sed "s|^  |old-kernel: \$who: \$name: |"
		if [ \$rc -ne 0 ]; then
			sed "s|^|old-kernel: \$who: \$name: > |" \$out
		fi
	done
done
echo "old-kernel: guest \$who done at \$(cut -d' ' -f1 /proc/uptime) s"
EOF
chmod 755 "$rt/run-lessons"
# Room for the sweeps' files (table-13-x write 300 MB at most with the small budget).
mkfs.ext4 -q -F -L oldroot -d "$rt" "$work/root.img" 1536M >"$work/mkfs.out" 2>&1 ||
	{ echo "FAIL old-kernel: mkfs.ext4 -d: $(cat "$work/mkfs.out")"; exit 1; }

cp --sparse=always "$work/root.img" "$work/root-user.img" || exit 99

# Boot them: TCG (no KVM, as on a CI runner), one guest for root's runs and one for the
# user's, at once, each console on a file.
start=$(date +%s)
for who in root user; do
	img=$work/root.img
	[ $who = user ] && img=$work/root-user.img
	timeout 1200 qemu-system-x86_64 -nodefaults -display none -no-reboot -accel tcg \
		-m 1024 -smp 1 -kernel "$vmlinuz" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check rdinit=/init iobufviz_who=$who" \
		-drive "file=$img,format=raw,if=virtio" \
		-serial "file:$work/console-$who.log" >"$work/qemu-$who.out" 2>&1 &
	qpid="$qpid $!"
done
qrc=0
for p in $qpid; do
	wait "$p" || qrc=$?
done
qpid=
wall=$(($(date +%s) - start))
log=$work/console.log
cat "$work/console-root.log" "$work/console-user.log" >"$log" 2>/dev/null
status=0
for who in root user; do
	if ! grep -q "^old-kernel: guest $who done" "$log"; then
		echo "FAIL old-kernel: the $who guest did not finish (qemu exit $qrc after $wall s)"
		tail -n 30 "$work/console-$who.log" "$work/qemu-$who.out" | sed 's/^/    /'
		exit 1
	fi
done
grep -E '^old-kernel: (guest|insmod|cannot)' "$log"
[ "${OLD_KERNEL_USER_SWEEPS:-0}" = 1 ] ||
	echo "old-kernel: the sweeps ran as root only (OLD_KERNEL_USER_SWEEPS=1: as the user too)"
runs=0
for who in root user; do
	for name in $lessons; do
		if [ $who = user ] && [ "${OLD_KERNEL_USER_SWEEPS:-0}" != 1 ] &&
			grep -q '^[[:space:]]*-[[:space:]]*sweep:' "$src/scenarios/$name.yaml"; then
			continue
		fi
		line=$(grep -m1 "^old-kernel: $who: $name: exit " "$log")
		runs=$((runs + 1))
		case $line in
		*": exit 0 "*) ;;
		"") echo "FAIL old-kernel: $who: $name: no result"; status=1 ;;
		*) echo "FAIL old-kernel: $line"; grep "^old-kernel: $who: $name: > " "$log" |
			grep -E 'FAIL|false here|error' | sed 's/^/    /'; status=1 ;;
		esac
	done
done
grep -E '^old-kernel: [a-z]+: [^:]+: (skip |unchecked: )' "$log" | sed 's/^/    /'
# Sentences unchecked here, per user: what the narration claims that this kernel cannot show.
for who in root user; do
	echo "old-kernel: $who: $(grep -E "^old-kernel: $who: [^:]+: exit " "$log" |
		sed -n 's/.*sentences: [0-9]* held, \([0-9]*\) unchecked here, \([0-9]*\) false here.*/\1 \2/p' |
		awk '{u += $1; f += $2} END {printf "%d sentences unchecked here, %d false here", u, f}')"
done
echo "old-kernel: $kpkg, $runs runs, wall $wall s (guest time: $(grep '^old-kernel: guest [a-z]* done' "$log" |
	sed 's/^old-kernel: guest \([a-z]*\) done at \(.*\)/\1 \2/' | paste -sd, - | sed 's/,/, /g')), $( [ $status -eq 0 ] && echo ok || echo FAILED)"
exit $status
