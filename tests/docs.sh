#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/docs.sh: the documents say what a newcomer needs: every lesson in the curriculum,
# the mouse among the man page's keys, how to run the program that nothing installed yet.
testname=docs
. "$(dirname "$0")/lib.sh"

# Every lesson (a scenario without a sweep step) has its row in doc/curriculum.md.
for f in "$src"/scenarios/*.yaml; do
	name=$(basename "$f" .yaml)
	grep -q '^  - sweep:' "$f" && continue
	grep -F -q "\`$name\`" "$src/doc/curriculum.md" ||
		{ echo "FAIL: doc/curriculum.md does not name the lesson $name"; fail=1; }
done

# The man page's KEYS section names the mouse.
sed -n '/^\.SH KEYS/,/^\.SH /p' "$src/doc/iobufviz.1" | grep -q -i 'mouse' ||
	{ echo "FAIL: doc/iobufviz.1: KEYS says nothing of the mouse"; fail=1; }

# The README says how to run iobufviz before it is on the PATH.
sed -n '/^## Using it/,/^## /p' "$src/README.md" | grep -F -q 'build/src/iobufviz' ||
	{ echo "FAIL: README.md: Using it does not say where the program is"; fail=1; }
sed -n '/^## Using it/,/^## /p' "$src/README.md" | grep -F -q 'make -C build install' ||
	{ echo "FAIL: README.md: Using it does not say how to install"; fail=1; }

# Every whole scenario the documents show (a yaml block that starts with title:) loads: the
# examples follow the rules they teach (doc/scenarios.md section 5 among them).
for doc in README.md doc/scenarios.md; do
	awk -v dir="$tmp" -v doc="$(basename "$doc")" '
		/^```yaml$/ { n++; f = dir "/" doc "." n ".yaml"; keep = 0; inb = 1; next }
		/^```$/ { inb = 0; next }
		inb && !keep && /^title:/ { keep = 1 }
		inb && keep { print > f }
	' "$src/$doc"
done
for f in "$tmp"/*.yaml; do
	[ -f "$f" ] || continue
	"$bin" --check "$f" >/dev/null 2>"$tmp/err" ||
		bad "an example in $(basename "$f" | sed 's/\.[0-9]*\.yaml$//') does not load: $(cat "$tmp/err")"
done

finish
