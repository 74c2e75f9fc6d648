#!/bin/sh
# SPDX-License-Identifier: MIT
# mk/tpl2h.sh: text files kept as they are in the source tree (the exported program's C,
# the web page's markup, style and script), made into C string constants on stdout:
#   tpl2h.sh PREFIX SUFFIX SRCDIR FILE...
# each FILE (relative to SRCDIR) becomes "static const char PREFIX_NAME[]", NAME being its
# base name without SUFFIX (a sed pattern), '-' and '.' made '_'; each line quoted, its
# backslashes and quotes escaped (and "??", which a trigraph would read).
set -eu
prefix=$1 suffix=$2 srcdir=$3
shift 3
echo "/* Made by mk/tpl2h.sh from: $*. */"
for f in "$@"; do
	n=$(echo "$f" | sed -e 's|.*/||' -e "s|$suffix\$||" -e 's|[-.]|_|g')
	echo "static const char ${prefix}_$n[] ="
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/??/?\\?/g' -e 's/^/"/' -e 's/$/\\n"/' "$srcdir/$f"
	echo ';'
done
