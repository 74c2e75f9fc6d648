#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tmpfs-fsync.sh: on tmpfs, a sentence that rests on dirty or writeback counts ("fsync()
# wrote the dirty pages back [cache.dirty_pages = 0]") is not held: those counts are 0 there
# by definition, not by anything seen, so it is shown unchecked with the reason (or false);
# on the build's own filesystem the same sentences hold. And the bundled lessons whose tmpfs
# sentences rested on such a count still tell every sentence held on tmpfs.
testname=tmpfs-fsync
. "$(dirname "$0")/lib.sh"
need python3
[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] ||
	skip "/dev/shm is not a tmpfs"
shm=/dev/shm/iobufviz-tmpfs-fsync.$$
mkdir -p "$shm" || skip "cannot make a directory in /dev/shm"
cleanup() { rm -rf "$shm"; }

# The outcomes of step 3's sentences in a JSON transcript, one "OUTCOME|WHY" a line.
outcomes() {
	python3 - "$1" <<'PY'
import json, sys
for x in json.load(open(sys.argv[1]))["steps"][2]["sentences"]:
    print("%s|%s" % (x["outcome"], x.get("why") or ""))
PY
}

"$bin" --headless --format=json --dir "$shm" "$src/tests/tmpfs-fsync.yaml" >"$tmp/shm.json" \
	2>"$tmp/shm.err"
outcomes "$tmp/shm.json" >"$tmp/shm.out" || bad "tmpfs: no JSON: $(head -n 3 "$tmp/shm.err")"
[ "$(wc -l <"$tmp/shm.out")" -eq 2 ] || bad "tmpfs: expected 2 sentences: $(cat "$tmp/shm.out")"
while IFS= read -r l; do
	case $l in
	"unchecked|dirty pages do not apply on tmpfs"*|false\|*) echo "ok   tmpfs: $l" ;;
	*) bad "tmpfs: a sentence that fsync() wrote pages back shown $l" ;;
	esac
done <"$tmp/shm.out"

# On a filesystem with a disk, where the counts are seen: held (the cache probe counts dirty
# pages here), or unchecked where it cannot.
"$bin" --headless --format=json --dir "$tmp" "$src/tests/tmpfs-fsync.yaml" >"$tmp/disk.json" \
	2>"$tmp/disk.err"
fs=$(stat -f -c %T "$tmp")
outcomes "$tmp/disk.json" >"$tmp/disk.out" || bad "$fs: no JSON: $(head -n 3 "$tmp/disk.err")"
if [ "$fs" = tmpfs ]; then
	skip_part "disk" "the build's own directory is on tmpfs"
elif grep -qv '^held|' "$tmp/disk.out"; then
	bad "$fs: not held: $(cat "$tmp/disk.out")"
else
	echo "ok   $fs: held"
fi

# The bundled lessons whose tmpfs sentences now rest on {fs = tmpfs}: all held there.
for l in 13-3-fflush-fsync 13.2-setvbuf 13.3-o-rsync 13.3-sync-calls 13.4-summary 13.7-mixing \
	fclose-truncate modern-large-folios 13.3-writeback; do
	"$bin" --headless --format=json --dir "$shm" "$src/scenarios/$l.yaml" >"$tmp/$l.json" \
		2>"$tmp/$l.err"
	python3 - "$tmp/$l.json" "$l" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = ["step %d line %d: %s (%s)" % (s["index"], x["line"], x["outcome"], x.get("why"))
       for s in d["steps"] for x in s["sentences"] if x["outcome"] in ("unchecked", "false")]
for b in bad:
    print("FAIL: %s on tmpfs: %s" % (sys.argv[2], b))
if not d["ok"]:
    print("FAIL: %s on tmpfs: an expectation failed" % sys.argv[2])
sys.exit(1 if bad or not d["ok"] else 0)
PY
done
finish
