#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/deb-install.sh DEB: the Debian package as a user gets it: dpkg -i, then the installed
# iobufviz runs lesson 13-3 headless from its installed scenarios, traces a program with its
# installed shim, and bash completes lesson names from the installed completion; then
# dpkg --purge leaves nothing behind. Root only (.ci/run, after tools/deb); it will not replace
# an iobufviz package that was installed before it (a named skip).
testname=deb-install
deb=${1:?usage: tests/deb-install.sh PACKAGE.deb}
here=$(cd "$(dirname "$0")" && pwd)
# The installed program is the one tested (lib.sh's bin is set again below).
IOBUFVIZ_BIN=/usr/bin/iobufviz IOBUFVIZ_SRCDIR=$(dirname "$here")
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (dpkg -i)"
need dpkg
dpkg -s iobufviz >/dev/null 2>&1 && skip "an iobufviz package is installed already; not replacing it"
# The package goes on every way out.
cleanup() {
	dpkg --purge iobufviz >/dev/null 2>&1
}

dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; echo "FAIL: deb-install: dpkg -i"; exit 1; }
bin=/usr/bin/iobufviz
[ -x "$bin" ] || bad "no $bin"
for f in /usr/share/iobufviz/scenarios/13-3-fflush-fsync.yaml /usr/share/iobufviz/transcript.schema.json \
    /usr/share/man/man1/iobufviz.1.gz /usr/share/bash-completion/completions/iobufviz; do
	[ -f "$f" ] || bad "no $f"
done
shim=$(dpkg -L iobufviz | grep '/iobufviz-shim\.so$')
[ -n "$shim" ] && [ -f "$shim" ] || bad "no shim in the package"

# The lesson, from the installed scenarios, in a directory that is not the source tree.
(cd "$tmp" && env -u IOBUFVIZ_SCENARIOS "$bin" --headless --dir "$tmp" 13-3) >"$tmp/13-3.txt" 2>&1 ||
	{ bad "iobufviz --headless 13-3: exit $?"; sed 's/^/    /' "$tmp/13-3.txt" | tail -n 20; }
grep -q 'fflush() then fsync()' "$tmp/13-3.txt" || bad "13-3's transcript has not its title"

# A traced program's stdio calls are seen only through the installed shim (sed writes its
# w file with fwrite): calls.stdio counts them.
printf 'hello\n' >"$tmp/in.txt"
(cd "$tmp" && "$bin" -H -f json --dir "$tmp" -- /bin/sed -n 'w out.txt' in.txt) >"$tmp/prog.json" \
	2>"$tmp/prog.err" || bad "iobufviz -- sed: exit $?"
python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["program"]["calls"]["stdio"] > 0 else 1)' \
	"$tmp/prog.json" || bad "no stdio call of the traced sed was seen (the shim was not loaded)"

# Tab completion of lesson names (and the rest) from the installed files.
IOBUFVIZ_BIN=$bin IOBUFVIZ_SRCDIR= IOBUFVIZ_COMPLETION=/usr/share/bash-completion/completions/iobufviz \
	IOBUFVIZ_SCENARIO_DIR=/usr/share/iobufviz/scenarios sh "$here/completion.sh" || bad "completion"

dpkg --purge iobufviz >/dev/null 2>&1 || bad "dpkg --purge"
[ ! -e "$bin" ] && [ ! -e /usr/share/iobufviz ] || bad "files left after dpkg --purge"
finish
