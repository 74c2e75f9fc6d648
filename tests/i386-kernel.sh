#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/i386-kernel.sh: every bundled lesson run by an i386 iobufviz on Debian 12's own 686
# kernel under qemu-system-i386 (TCG), as root and as uid 1000, from an initramfs on tmpfs
# (not yet ext4 as tests/old-kernel.sh: 13.6-direct-io needs O_DIRECT, which 6.1's tmpfs lacks;
# not yet in TESTS: the i386 build is not made by tools/build).
# Needs an i386 build (I386_BUILD: its build dir, e.g. a --host=i686-linux-gnu build) and
# the i386 root whose libraries and busybox-static it links (I386_ROOT); the kernel comes
# from apt-get download with a private i386 apt config, cached in I386_CACHE.
# Without them: "SKIP: i386-kernel: <reason>" (77). I386_LESSONS: the lessons to run.
top=$(cd "$(dirname "$0")/.." && pwd)
IOBUFVIZ_BIN=${IOBUFVIZ_BIN:-$top/build/src/iobufviz}
IOBUFVIZ_SRCDIR=${IOBUFVIZ_SRCDIR:-$top}
export IOBUFVIZ_BIN IOBUFVIZ_SRCDIR
testname=i386-kernel
. "$(dirname "$0")/lib.sh"

b=${I386_BUILD:-}; r=${I386_ROOT:-/work/i386root}
[ -n "$b" ] && [ -x "$b/src/iobufviz" ] || skip "no i386 build (I386_BUILD)"
[ -x "$r/bin/busybox" ] && [ -e "$r/lib/ld-linux.so.2" ] || skip "no i386 root with busybox-static at $r (I386_ROOT)"
for t in qemu-system-i386 apt-get dpkg-deb cpio gzip timeout; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
cache=${I386_CACHE:-$b/i386-kernel}
mkdir -p "$cache/lists/partial" "$cache/archives/partial" || skip "cannot make $cache"
cat >"$cache/apt.conf" <<CONF
APT::Architecture "i386";
APT::Architectures { "i386"; };
Dir::State::Lists "$cache/lists";
Dir::State::status "$cache/status";
Dir::Cache "$cache";
Dir::Etc::sourcelist "$cache/sources.list";
Dir::Etc::sourceparts "/nonexistent";
CONF
echo "deb http://deb.debian.org/debian bookworm main" >"$cache/sources.list"
touch "$cache/status"
if ! ls "$cache"/linux-image-*-686_*.deb >/dev/null 2>&1; then
	APT_CONFIG=$cache/apt.conf apt-get update >"$cache/update.log" 2>&1 ||
		skip "apt-get update (i386) failed: $(tail -n 1 "$cache/update.log")"
	kpkg=$(APT_CONFIG=$cache/apt.conf apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-686$' |
		sed 's/ .*//' | sort -V | tail -n 1)
	[ -n "$kpkg" ] || skip "no linux-image-6.1.0-*-686 in Debian 12's i386 index"
	(cd "$cache" && APT_CONFIG=$cache/apt.conf apt-get download "$kpkg" >"$cache/dl.log" 2>&1) ||
		skip "apt-get download $kpkg failed"
fi
work=$tmp
dpkg-deb -x "$(ls "$cache"/linux-image-*-686_*.deb | tail -n 1)" "$work/k" || exit 99
vmlinuz=$(ls "$work"/k/boot/vmlinuz-* | head -n 1)

ir=$work/ir
mkdir -p "$ir/bin/shim" "$ir/lib/i386-linux-gnu" "$ir/scenarios" "$ir/proc" "$ir/dev" "$ir/sys" \
	"$ir/tmp" "$ir/etc"
cp "$r/bin/busybox" "$ir/bin/busybox"
for a in sh cat mount echo poweroff sync su env timeout grep sed head tail cut sort uname; do
	ln -s busybox "$ir/bin/$a"
done
cp "$b/src/iobufviz" "$ir/bin/"
cp "$b/src/shim/iobufviz-shim.so" "$ir/bin/shim/"
for l in libcyaml.so.1 libyaml-0.so.2 libncursesw.so.6 libtinfo.so.6 libc.so.6; do
	f=$(ls "$r/lib/i386-linux-gnu/$l" "$r/usr/lib/i386-linux-gnu/$l" 2>/dev/null | head -n 1)
	[ -n "$f" ] || skip "no $l in $r"
	cp -L "$f" "$ir/lib/i386-linux-gnu/"
done
cp -L "$r/lib/ld-linux.so.2" "$ir/lib/"
cp "$src"/scenarios/*.yaml "$ir/scenarios/"
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$ir/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$ir/etc/group"
lessons=${I386_LESSONS:-$(cd "$src/scenarios" && ls *.yaml | sed "s/\\.yaml$//" | tr "\n" " ")}
cat >"$ir/init" <<INIT
#!/bin/sh
export PATH=/bin
mount -t devtmpfs dev /dev; mount -t proc proc /proc; mount -t sysfs sys /sys
mount -t tmpfs -o mode=1777 tmp /tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts -o ptmxmode=0666,mode=0620 devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
echo "i386-kernel: guest \$(cat /proc/sys/kernel/osrelease) \$(uname -m) up \$(cut -d' ' -f1 /proc/uptime) s"
cd /tmp
for who in root user; do
	for name in $lessons; do
		f=/scenarios/\$name.yaml
		budget=
		grep -q '^[[:space:]]*-[[:space:]]*sweep:' \$f && budget=--budget=0.02
		t0=\$(cut -d' ' -f1 /proc/uptime)
		if [ \$who = root ]; then
			timeout 300 /bin/iobufviz --headless \$budget \$f >/tmp/out 2>&1
		else
			timeout 300 su -s /bin/sh -c "env -i PATH=/bin /bin/iobufviz --headless \$budget \$f" user >/tmp/out 2>&1
		fi
		rc=\$?
		echo "i386-kernel: \$who: \$name: exit \$rc (\$t0 .. \$(cut -d' ' -f1 /proc/uptime) s) \$(grep -E '^[0-9]+ held, ' /tmp/out | tail -n 1)"
		[ \$rc -ne 0 ] && sed "s|^|i386-kernel: \$who: \$name: > |" /tmp/out | grep -E 'FAIL|false here|rror' | head -n 20
	done
done
echo hello >/tmp/f
timeout 60 /bin/iobufviz --headless -- /bin/busybox cat /tmp/f >/tmp/p 2>&1
echo "i386-kernel: own program: exit \$? \$(grep -c '^step ' /tmp/p) steps: \$(grep -o 'openat(.*' /tmp/p | head -n 1)"
echo "i386-kernel: guest done at \$(cut -d' ' -f1 /proc/uptime) s"
sync
poweroff -f
INIT
chmod 755 "$ir/init"
(cd "$ir" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz" || exit 99
start=$(date +%s)
timeout 1500 qemu-system-i386 -nodefaults -display none -no-reboot -accel tcg -m 1024 -smp 1 \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" -append "console=ttyS0 quiet panic=-1 rdinit=/init" \
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
