# SPDX-License-Identifier: MIT
# tools/debian-i386.sh: fetch Debian 12's i386 packages at the versions tools/debian-i386.pins
# names, without root and without touching the host's apt or dpkg (a private apt config for
# i386 in a cache dir; apt-get download; dpkg-deb -x). Sourced by tools/build-i386,
# tools/web-lab and tests/i386-kernel.sh:
#     . tools/debian-i386.sh
#     deb386_init CACHE          the private apt config and index (apt-get update once)
#     deb386_fetch NAME...       download each pinned package into CACHE/debs (once)
#     deb386_deb NAME            the .deb fetched for NAME
#     deb386_unpack DIR NAME...  unpack the packages into DIR; absolute symlinks are made
#                                to point inside DIR (a sysroot's libfoo.so -> /lib/...)
#     deb386_sources FILE ROOT...  "name version source licence" of every package fetched
#     deb386_libs IR ROOT...     the libraries the ELF files under IR need, from the ROOTs
#     deb386_modules IR KROOT MOD...  kernel modules and those they need, in load order
# Each returns non-zero after a line on stderr saying why. I386_PINS_STRICT=1: a pin the
# archive no longer has stops the fetch instead of taking the archive's version.
deb386_pins=$(cd "$(dirname "${0}")/.." 2>/dev/null && pwd)/tools/debian-i386.pins
[ -f "$deb386_pins" ] || deb386_pins=${DEB386_PINS:-}

# Make CACHE's private i386 apt config, and its index unless it has one.
deb386_init() {
	deb386_cache=$1
	mkdir -p "$deb386_cache/lists/partial" "$deb386_cache/archives/partial" "$deb386_cache/debs" ||
		return 1
	cat >"$deb386_cache/apt.conf" <<CONF
APT::Architecture "i386";
APT::Architectures { "i386"; };
Dir::State::Lists "$deb386_cache/lists";
Dir::State::status "$deb386_cache/status";
Dir::Cache "$deb386_cache";
Dir::Etc::sourcelist "$deb386_cache/sources.list";
Dir::Etc::sourceparts "/nonexistent";
CONF
	echo "deb http://deb.debian.org/debian bookworm main" >"$deb386_cache/sources.list"
	touch "$deb386_cache/status" "$deb386_cache/fetched"
	ls "$deb386_cache"/lists/*_Packages* >/dev/null 2>&1 && return 0
	deb386_update
}

# Refresh CACHE's index.
deb386_update() {
	APT_CONFIG=$deb386_cache/apt.conf apt-get update >"$deb386_cache/update.log" 2>&1 ||
		{ echo "apt-get update (i386) failed: $(tail -n 1 "$deb386_cache/update.log")" >&2; return 1; }
}

# The version tools/debian-i386.pins names for package $1.
deb386_pin() {
	awk -v n="$1" '$1 == n { print $2 }' "$deb386_pins"
}

# The .deb fetched for package $1 (none: empty, 1).
deb386_deb() {
	v=$(awk -v n="$1" '$1 == n { v = $2 } END { print v }' "$deb386_cache/fetched")
	[ -n "$v" ] || return 1
	f="$deb386_cache/debs/$1_$(echo "$v" | sed 's/:/%3a/')_"
	ls "$f"*.deb 2>/dev/null | head -n 1
}

# apt-get download $1 (NAME=VERSION) into CACHE/debs.
deb386_get() {
	(cd "$deb386_cache/debs" && APT_CONFIG=$deb386_cache/apt.conf apt-get download "$1") \
		>"$deb386_cache/download.log" 2>&1
}

# Download each named package at its pinned version, once; record "NAME VERSION" in
# CACHE/fetched.
deb386_fetch() {
	for deb386_n in "$@"; do
		[ -n "$(deb386_deb "$deb386_n")" ] && continue
		pin=$(deb386_pin "$deb386_n")
		[ -n "$pin" ] || { echo "$deb386_n has no pin in $deb386_pins" >&2; return 1; }
		v=$pin
		if ! deb386_get "$deb386_n=$pin"; then
			# An old index may not know the pin yet; a new one may not any more.
			deb386_update || return 1
			if ! deb386_get "$deb386_n=$pin"; then
				v=$(APT_CONFIG=$deb386_cache/apt.conf apt-cache policy "$deb386_n" |
					sed -n 's/^ *Candidate: //p')
				if [ -z "$v" ] || [ "$v" = "(none)" ]; then
					echo "$deb386_n is not in Debian 12's i386 index" >&2
					return 1
				fi
				if [ "${I386_PINS_STRICT:-0}" = 1 ]; then
					echo "$deb386_n $pin is gone from the archive (it has $v): update $deb386_pins" >&2
					return 1
				fi
				echo "NOT PINNED: $deb386_n $pin is gone from the archive; taking $v" >&2
				deb386_get "$deb386_n=$v" ||
					{ echo "apt-get download $deb386_n=$v failed: $(tail -n 1 "$deb386_cache/download.log")" >&2; return 1; }
			fi
		fi
		echo "$deb386_n $v" >>"$deb386_cache/fetched"
	done
}

# Unpack the named packages (fetched) into DIR; absolute symlinks then point inside DIR.
deb386_unpack() {
	deb386_dir=$1
	shift
	mkdir -p "$deb386_dir" || return 1
	for deb386_n in "$@"; do
		d=$(deb386_deb "$deb386_n")
		[ -n "$d" ] || { echo "$deb386_n was not fetched" >&2; return 1; }
		dpkg-deb -x "$d" "$deb386_dir" || { echo "dpkg-deb -x $d failed" >&2; return 1; }
	done
	find "$deb386_dir" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in
		/*) ln -sfn "$deb386_dir$t" "$l" ;;
		esac
	done
}

# Write "NAME VERSION apt-get-source:SOURCE=VERSION licence: LICENCE" for every fetched package
# into FILE: SOURCE is what apt-get source takes, LICENCE the License: names of its copyright
# file, found under the roots named after FILE (where the packages were unpacked).
deb386_sources() {
	deb386_out=$1
	shift
	: >"$deb386_out"
	sort -u "$deb386_cache/fetched" | while read -r n v; do
		d=$(deb386_deb "$n")
		[ -n "$d" ] || continue
		s=$(dpkg-deb -f "$d" Source)
		sv=$v
		case $s in
		*"("*) sv=$(echo "$s" | sed 's/.*(\(.*\)).*/\1/'); s=${s%% *} ;;
		"") s=$n ;;
		esac
		lic=
		for r in "$@"; do
			[ -f "$r/usr/share/doc/$n/copyright" ] || continue
			lic=$(sed -n 's/^License: *\([^ ]*\).*/\1/p' "$r/usr/share/doc/$n/copyright" |
				sort -u | tr '\n' ' ' | sed 's/ $//')
			[ -n "$lic" ] || lic="not machine-readable: see licences/$n"
			break
		done
		[ -n "$lic" ] || lic="see the package's copyright file"
		echo "$n $v apt-get-source:$s=$sv licence: $lic" >>"$deb386_out"
	done
}

# Copy the i386 libraries the ELF files under IR need (NEEDED, and theirs), found in the
# roots named after IR (a sysroot, unpacked packages), into IR/lib/i386-linux-gnu; the
# dynamic loader into IR/lib.
deb386_libs() {
	deb386_ir=$1
	shift
	mkdir -p "$deb386_ir/lib/i386-linux-gnu" || return 1
	for r in "$@"; do
		[ -e "$r/lib/ld-linux.so.2" ] && { cp -L "$r/lib/ld-linux.so.2" "$deb386_ir/lib/"; break; }
	done
	[ -e "$deb386_ir/lib/ld-linux.so.2" ] || { echo "no ld-linux.so.2 in $*" >&2; return 1; }
	while :; do
		new=0
		for need in $(find "$deb386_ir" -type f \( -perm -u+x -o -name '*.so*' \) \
			-exec readelf -d {} + 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u); do
			[ -e "$deb386_ir/lib/i386-linux-gnu/$need" ] && continue
			f=
			for r in "$@"; do
				for d in lib/i386-linux-gnu usr/lib/i386-linux-gnu; do
					[ -e "$r/$d/$need" ] && { f=$r/$d/$need; break 2; }
				done
			done
			[ -n "$f" ] || { echo "no $need in $*" >&2; return 1; }
			cp -L "$f" "$deb386_ir/lib/i386-linux-gnu/" || return 1
			new=1
		done
		[ $new = 1 ] || break
	done
}

# Copy kernel modules (each after those it depends on, from their .modinfo) from the
# unpacked kernel package KROOT into IR/lib/modules; IR/lib/modules/order lists them to
# insmod in turn.
deb386_modules() {
	deb386_ir=$1 deb386_kroot=$2
	shift 2
	deb386_mods=$(ls -d "$deb386_kroot"/lib/modules/*/kernel | head -n 1)
	[ -d "$deb386_mods" ] || { echo "no modules in $deb386_kroot" >&2; return 1; }
	mkdir -p "$deb386_ir/lib/modules" && : >"$deb386_ir/lib/modules/order" || return 1
	for m in "$@"; do
		deb386_mod "$m" || return 1
	done
}

# Add module $1 (after its dependencies) to deb386_modules' IR.
deb386_mod() {
	grep -qx "$1.ko" "$deb386_ir/lib/modules/order" && return 0
	f=$(find "$deb386_mods" -name "$1.ko" | head -n 1)
	[ -n "$f" ] || { echo "no module $1 in $deb386_kroot" >&2; return 1; }
	for d in $(tr '\0' '\n' <"$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
		deb386_mod "$d" || return 1
	done
	# The calls above set f to their own module's file.
	cp "$(find "$deb386_mods" -name "$1.ko" | head -n 1)" "$deb386_ir/lib/modules/" &&
		echo "$1.ko" >>"$deb386_ir/lib/modules/order"
}
