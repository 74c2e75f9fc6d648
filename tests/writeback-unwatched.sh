#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/writeback-unwatched.sh: a user whose run cannot count the kernel's writebacks (no
# tracefs) cannot tell a sync() elsewhere from a wrong lesson: an expectation that the file is
# not written back yet, false after a sync() of another process in the pause, is "not
# observable here" and says why, not failed; after the lesson's own fsync() the same wrong
# expectation still fails (the step wrote the file back itself). As user nobody (needs root
# and setpriv; the work dir must be on a disk filesystem, not tmpfs).
testname=writeback-unwatched
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to run as nobody"
command -v setpriv >/dev/null 2>&1 || skip "no setpriv to run as nobody"
as="setpriv --reuid=65534 --regid=65534 --clear-groups"
chmod 755 "$tmp"
mkdir -m 777 "$tmp/d"
[ "$(stat -f -c %T "$tmp/d")" = tmpfs ] && skip "the work dir is on tmpfs: nothing is written back"
$as test -x "$bin" || skip "nobody cannot run $bin"
cat >"$tmp/w.yaml" <<'YAML'
title: "written back in a pause, unseen"
steps:
  - open: {flags: [O_WRONLY, O_CREAT, O_TRUNC]}
  - write: {bytes: 5000}
  - wait: {seconds: 4}
  - lseek: {offset: 0}
    expect: {disk.allocated_bytes: 0}
  - fsync: {}
    expect: {disk.allocated_bytes: 0}
YAML
chmod 644 "$tmp/w.yaml"
# The sync() elsewhere: once the lesson's 5000 bytes are in its file (during the wait).
( for i in $(seq 300); do
	[ -n "$(find "$tmp/d" -name scratch -size 5000c 2>/dev/null)" ] && { sync; exit 0; }
	sleep 0.1
  done ) &
$as env HOME="$tmp" "$bin" --headless --dir "$tmp/d" "$tmp/w.yaml" >"$tmp/out.txt" 2>&1
rc=$?
wait
grep -q '^  skip disk.allocated_bytes = 0  (not observable here: .*cannot count its writebacks' "$tmp/out.txt" ||
	bad "after the pause's sync(): not 'not observable' with why: $(grep allocated_bytes "$tmp/out.txt")"
grep -q '^  FAIL disk.allocated_bytes = 0  (got ' "$tmp/out.txt" ||
	bad "after fsync(): the wrong expectation did not fail: $(grep allocated_bytes "$tmp/out.txt")"
[ $rc = 1 ] || bad "exit $rc, not 1 (one failed)"
[ $fail = 0 ] && echo "ok: unseen writeback excused with why; the lesson's own still fails"
finish
