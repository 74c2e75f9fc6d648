#!/bin/sh
# SPDX-License-Identifier: MIT
# prog-lab-nonroot.sh: "iobufviz --crash-fs=ext4 -- PROG" without root (as user nobody, or as
# the user running the test) runs the program without the crash lab, as a lesson does with
# --crash-fs and no root: exit 0, every step there, and the reason said once, in the text
# transcript's head, in the JSON's place_note (no step has a crash), and in the TUI's status
# line (where tmux is); x then says it again, not "run with --crash-fs".
testname=prog-lab-nonroot
. "$(dirname "$0")/lib.sh"
need python3
prog=$build/tests/foreign/lines
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 99; }
why="needs root to mount a filesystem image"
as=""
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip "root, and no setpriv to run as nobody"
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$tmp"
	cp "$prog" "$tmp/lines"
	$as test -x "$bin" && $as test -x "$tmp/lines" || skip "nobody cannot run $bin"
	prog=$tmp/lines
fi
mkdir -m 777 "$tmp/t" "$tmp/j"
$as env HOME="$tmp" "$bin" --headless --crash-fs=ext4 --dir "$tmp/t" -- "$prog" \
	>"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?
[ $rc = 0 ] || bad "text: exit $rc, not 0: $(cat "$tmp/err.txt" "$tmp/out.txt" | head -c 400)"
n=$(grep -c "$why" "$tmp/out.txt")
[ "$n" = 1 ] || bad "text: the reason said $n times"
grep -q "^lab  .*the program runs without it" "$tmp/out.txt" ||
	bad "text: no lab line in the head: $(head -5 "$tmp/out.txt")"
grep -q '^step 2 .*fopen' "$tmp/out.txt" || bad "text: the program's steps are missing"
[ -s "$tmp/err.txt" ] && bad "text: stderr: $(head -c 300 "$tmp/err.txt")"
$as env HOME="$tmp" "$bin" --headless --format=json --crash-fs=ext4 --dir "$tmp/j" -- "$prog" \
	>"$tmp/out.json" 2>"$tmp/err.json" || bad "json: exit $?: $(head -c 300 "$tmp/err.json")"
python3 - "$tmp/out.json" "$why" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
bad = 0
note = doc["scenario"].get("place_note") or ""
if sys.argv[2] not in note or "without it" not in note:
    print("FAIL: json: place_note %r" % note); bad = 1
if json.dumps(doc["steps"]).count(sys.argv[2]):
    print("FAIL: json: the reason repeated in the steps"); bad = 1
if any(s.get("crash") for s in doc["steps"]):
    print("FAIL: json: a step has a crash without a lab"); bad = 1
if len(doc["steps"]) < 10 or doc["program"]["exit_code"] != 0:
    print("FAIL: json: %d steps, exit %s" % (len(doc["steps"]), doc["program"]["exit_code"]))
    bad = 1
sys.exit(bad)
PY
# The TUI: said in the status line at once; x says it again.
if command -v tmux >/dev/null 2>&1; then
	mkdir -m 777 "$tmp/tui"
	tmux_new lab 120 40 "$as env HOME='$tmp' TMPDIR='$tmp/tui' '$bin' --crash-fs=ext4 -- '$prog'; sleep 60"
	tmux_sees lab "$why" && echo "ok: the TUI says why at once"
	tmux_cmd lab send-keys -t lab n n x
	tmux_sees lab "x: --crash-fs=ext4: not observable here" &&
		echo "ok: x says why there is no crash"
	tmux_kill lab
else
	skip_part "the TUI" "tmux not installed"
fi
finish
