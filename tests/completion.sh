#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/completion.sh: bash completion (completion/iobufviz) driven as bash drives it
# (COMP_WORDS, COMP_CWORD, the function complete -p names), through the real binary: options,
# their values, bundled lesson names, practice topics, scenario files, a program after --.
# IOBUFVIZ_BIN, IOBUFVIZ_COMPLETION and IOBUFVIZ_SCENARIO_DIR may name installed files
# (tests/deb-install.sh).
testname=completion
# Installed (tests/deb-install.sh): no source tree; the completion file is named.
[ -n "${IOBUFVIZ_COMPLETION:-}" ] && : "${IOBUFVIZ_SRCDIR:=/nonexistent}"
. "$(dirname "$0")/lib.sh"
comp=${IOBUFVIZ_COMPLETION:-$src/completion/iobufviz}
need bash
[ -r "$comp" ] || { echo "FAIL: completion: no completion file $comp"; exit 1; }

# Complete the last of the words "$@" as bash would (the words split as bash splits them:
# "--format=js" is "--format" "=" "js"); print the candidates sorted, one per line.
comp() {
	bash --norc --noprofile -c '
		. "$1" || exit 1
		shift
		spec=$(complete -p iobufviz) || exit 1
		fn=${spec#*-F }
		fn=${fn%% *}
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@" | sed '/^$/d' | LC_ALL=C sort
}

# Expect the candidates of words "$2..." to be exactly the lines of $1.
want() {
	w=$1
	shift
	got=$(comp "$@")
	[ "$got" = "$w" ] || bad "completing '$*': got [$(echo $got)], want [$(echo $w)]"
}

# 1. Sourcing the file registers a function for iobufviz.
bash --norc --noprofile -c '. "$1" && complete -p iobufviz' sh "$comp" | grep -q -- '-F _iobufviz iobufviz$' ||
	bad "sourcing $comp does not register a completion for iobufviz"

# 2. Lesson names: every bundled scenario whose name starts so, from the installed list.
lessons=$("$bin" --list 2>/dev/null | awk '/^  / { print $1 }' | LC_ALL=C sort)
[ -n "$lessons" ] || bad "--list names no lesson"
want "$(printf '%s\n' "$lessons" | grep '^13-')" "$bin" 13-
echo "$lessons" | grep -qx 13-3-fflush-fsync || bad "--list has no 13-3-fflush-fsync"
want 13-3-fflush-fsync "$bin" --headless 13-3
want table-13-1 "$bin" -H --dir /tmp table-13-1
# The names are those of the files (scenarios/ of the tree, or the installed directory).
sdir=${IOBUFVIZ_SCENARIO_DIR:-${src:+$src/scenarios}}
if [ -n "$sdir" ]; then
	files=$(cd "$sdir" && ls ./*.yaml | sed 's|^\./||; s|\.yaml$||' | LC_ALL=C sort)
	[ "$files" = "$lessons" ] || bad "--list names [$(echo $lessons)], $sdir holds [$(echo $files)]"
fi

# 3. Options, from --help: all of them for "--", one with its "=" for a prefix.
opts=$("$bin" --help | grep -oE -- '--[a-z][a-z-]*' | LC_ALL=C sort -u)
got=$(comp "$bin" -- | sed 's/=$//' | LC_ALL=C sort -u)
[ "$got" = "$opts" ] || bad "'--' offers [$(echo $got)], --help has [$(echo $opts)]"
want --format= "$bin" --for
want --headless "$bin" --head

# 4. Values: from the program's own list, as --opt=, --opt VALUE and -f VALUE.
want "$(printf '%s\n' gradescope html json tap text)" "$bin" --format =
want json "$bin" --format = j
want json "$bin" --format j
want "$(printf '%s\n' tap text)" "$bin" -f t
want "$(printf '%s\n' auto procio ptrace)" "$bin" --trace =
want "$(printf '%s\n' auto cachestat kpageflags mincore)" "$bin" --probe ""
# --crash-fs's filesystems, as its own usage error lists them ("ext4|xfs|btrfs").
want "$(printf '%s\n' btrfs ext4 xfs)" "$bin" --crash-fs =
want ext4 "$bin" --crash-fs = e
want "$(printf '%s\n' 35 6)" "$bin" --pace =
want xfs "$bin" --crash-fs x
"$bin" --export= 2>&1 | grep -q "expected csv" || bad "--export= does not list its formats"
for f in csv json md svg c html; do
	comp "$bin" --export = | grep -qx "$f" || bad "--export= does not offer $f"
done

# 5. Practice topics after --practice.
topics=$("$bin" --practice | awk '{ print $1 }' | LC_ALL=C sort)
[ -n "$topics" ] || bad "--practice lists no topic"
want "$topics" "$bin" --practice ""
want stdio "$bin" --practice st

# 6. Files: a scenario is a lesson name, a .yaml file or a directory; --dir takes directories.
mkdir "$tmp/sub" && : >"$tmp/a.yaml" && : >"$tmp/b.txt" || exit 99
want "$(printf '%s\n' "$tmp/a.yaml" "$tmp/sub")" "$bin" "$tmp/"
want "$tmp/sub" "$bin" --dir "$tmp/"
want "$tmp/sub" "$bin" -d "$tmp/s"
want "$tmp/b.txt" "$bin" --stdin "$tmp/b"

# 7. After --: a program (a command or a file), then its arguments are files.
comp "$bin" -H -- tru | grep -qx true || bad "'-- tru' does not offer the command true"
want "$tmp/b.txt" "$bin" -H -- ./copy "$tmp/b"
finish
