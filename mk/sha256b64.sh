#!/bin/sh
# SPDX-License-Identifier: MIT
# mk/sha256b64.sh: the SHA-256 of a text file as mk/tpl2h.sh makes it a C string (each line
# ended by a newline), in base64, as a Content-Security-Policy names an inline script or style
# ('sha256-BASE64'). The page's style and script are fixed when iobufviz is built, so their
# hashes are too. Only coreutils and awk: sha256sum's hex, made bytes by printf's octal
# escapes, then base64.
#   sha256b64.sh FILE
set -eu
hex=$(awk 1 "$1" | sha256sum | cut -d' ' -f1)
[ ${#hex} -eq 64 ] || { echo "sha256b64.sh: no digest of $1" >&2; exit 1; }
oct=$(echo "$hex" | awk '{
	for (i = 1; i < length($0); i += 2)
		printf "\\%03o", index("0123456789abcdef", substr($0, i, 1)) * 16 - 17 + \
		    index("0123456789abcdef", substr($0, i + 1, 1))
}')
# shellcheck disable=SC2059 # the octal escapes are the format
printf "$oct" | base64 | tr -d '\n'
