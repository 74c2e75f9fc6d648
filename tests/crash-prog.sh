#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/crash-prog.sh: iobufviz --crash-fs=FS -- PROG, through the real binary, with a program
# written here and built with -g (write 5000 bytes, fsync, close, rename over "data"). Its
# working directory is the lab: the JSON transcript has both crashes after each step from the
# open on (same keys as a lesson's), null before it; the kill -9 view keeps the 5000 bytes from
# the write on (the page cache); the power cut keeps them after the fsync (what fsync
# promises), and before it only if a write had reached the device by then; after the rename
# the views look at "data"; the durability note names the fsync's source line; the transcript
# is valid against doc/transcript.schema.json (where python3-jsonschema is); x in the TUI
# shows both crashes after the fsync (where tmux is), and so do the text and the page; the
# 13-3 calls as a program crash as the bundled lesson does. Each
# filesystem whose mkfs is installed (ext4 at least). Then: no loop device or mount is left,
# also when iobufviz is killed by SIGKILL mid-run; as user nobody the program runs without
# the lab, as a lesson does, the reason said once (tests/prog-lab-nonroot.sh has more). Needs root, loop devices, mkfs.ext4, cc and python3; else
# "SKIP: crash-prog: <reason>".
testname=crash-prog
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/crash-lib.sh"
lab_needs mkfs.ext4
need cc python3

chmod 755 "$tmp"
pids=""
# The runs still alive on the way out (lib.sh then removes the dir).
cleanup() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
}

# True if a loop device is attached to a file under dir $1 (the lab's image has no name, but
# the kernel shows its dir: "DIR/#12345 (deleted)").
backs() {
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && case $(cat "$f" 2>/dev/null) in "$1"/*) return 0 ;; esac
	done
	return 1
}
gone() { ! backs "$1"; }

cat >"$tmp/wfr.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static char buf[5000];
	int fd;

	memset(buf, 'a', sizeof buf);
	fd = open("data.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);  /* LINE:open */
	if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)  /* LINE:write */
		return 1;
	if (fsync(fd) != 0)  /* LINE:fsync */
		return 1;
	close(fd);
	if (rename("data.tmp", "data") != 0)  /* LINE:rename */
		return 1;
	/* Held here (a sleep is no step) when asked: the SIGKILL part kills iobufviz then. */
	if (argc > 1)
		sleep((unsigned)strlen(argv[1]) * 10);
	return 0;
}
EOF
cc -g -O0 -o "$tmp/wfr" "$tmp/wfr.c" || skip "cc cannot build a program here"

ran=""
for fs in ext4 xfs btrfs; do
	if ! PATH=$PATH:/usr/sbin:/sbin command -v "mkfs.$fs" >/dev/null 2>&1; then
		[ "$fs" = ext4 ] && bad "mkfs.ext4 vanished"
		skip_part "$fs" "mkfs.$fs is not installed"
		continue
	fi
	d=$tmp/$fs
	mkdir "$d"
	"$bin" --headless --format=json --crash-fs="$fs" --dir "$d" -- "$tmp/wfr" >"$d.json" \
		2>"$d.err" || { bad "$fs: exit $?: $(head -c 300 "$d.err")"; continue; }
	python3 - "$d.json" "$tmp/wfr.c" "$fs" "$src/doc/transcript.schema.json" <<'PY' || fail=1
import json, re, sys
path, source, fs, schema = sys.argv[1:5]
bad = 0
def no(msg):
    global bad
    print("FAIL: crash-prog: %s: %s" % (fs, msg))
    bad = 1
mark = {}
for n, text in enumerate(open(source), 1):
    m = re.search(r"/\* LINE:(\w+) \*/", text)
    if m:
        mark[m.group(1)] = n
doc = json.load(open(path))
steps = doc["steps"]
try:
    import jsonschema
    jsonschema.validate(doc, json.load(open(schema)))
except ImportError:
    print("SKIP: crash-prog: %s: schema: python3-jsonschema not installed" % fs)
except jsonschema.ValidationError as e:
    no("not valid against the schema: %s" % e.message)
def at(tag):
    for s in steps:
        if s.get("source") and s["source"].get("line") == mark[tag]:
            return s
    no("no step on line %d (%s)" % (mark[tag], tag))
    return None
opened, wrote, synced, renamed = at("open"), at("write"), at("fsync"), at("rename")
if None in (opened, wrote, synced, renamed):
    sys.exit(1)
# Before the program opened a file in the lab there is nothing to crash; from it on, each step
# has both crashes with a lesson's keys.
for s in steps:
    c = s["crash"]
    if s["index"] < opened["index"]:
        if c is not None:
            no("step %d, before the open, has a crash view" % s["index"])
        continue
    if c is None:
        no("step %d (%s) has no crash view" % (s["index"], s["args"]))
        continue
    for half in ("process", "power"):
        for k in ("observed", "why", "exists", "size", "head", "ms"):
            if k not in c[half]:
                no("step %d: crash.%s has no %s" % (s["index"], half, k))
    for k in ("recovery", "tries", "device_writes", "device_write_bytes", "device_flushes",
              "stray_writes"):
        if k not in c["power"]:
            no("step %d: crash.power has no %s" % (s["index"], k))
    if s["op"] != "exit" and not (c["process"]["observed"] and c["power"]["observed"]):
        no("step %d: a crash not observed: %s / %s" % (s["index"], c["process"]["why"],
                                                       c["power"]["why"]))
    if s["device"] is None:
        no("step %d: no device line: %s" % (s["index"], s.get("device_why")))
def kept(s, half):
    h = s["crash"][half]
    return h["size"] if h["observed"] and h["exists"] else None
# kill -9: the page cache survives, from the write on.
for s in (wrote, synced, renamed):
    if kept(s, "process") != 5000:
        no("after %s a kill -9 keeps %r, not 5000 bytes" % (s["args"], kept(s, "process")))
if kept(opened, "process") != 0:
    no("after the open a kill -9 keeps %r, not an empty file" % kept(opened, "process"))
# The power cut: what fsync promises, and nothing before it that no write put on the device.
if kept(synced, "power") != 5000:
    no("after fsync a power cut keeps %r, not 5000 bytes" % kept(synced, "power"))
if synced["crash"]["power"]["head"] != "a" * 256 + "...":
    no("after fsync the power cut's bytes are not the program's: %r" %
       synced["crash"]["power"]["head"][:40])
for s in (opened, wrote):
    p = s["crash"]["power"]
    if kept(s, "power") == 5000 and p["device_writes"] == 0:
        no("before fsync a power cut keeps the bytes with no write on the device")
    elif kept(s, "power") == 5000:
        print("crash-prog: %s: a write reached the device before fsync (a sync elsewhere, "
              "a journal's timer): not held against it" % fs)
if not synced["reaches_disk"] or synced["device"]["flushes"] < 1:
    no("the fsync step sent no flush: %r" % synced["device"])
# After the rename the views look at the file by its new name.
if renamed["crash"]["file"] != "data" or wrote["crash"]["file"] != "data.tmp":
    no("the views' file: %r then %r" % (wrote["crash"]["file"], renamed["crash"]["file"]))
if renamed["name"] != "data":
    no("the rename step's file is named %r" % renamed["name"])
# The durability note says where the power cut began to keep the bytes.
notes = [n for n in doc["program"]["durability"] if n["kind"] == "power-cut"]
want = "after line %d (fsync) a power cut keeps 5000 bytes" % mark["fsync"]
if not any(want in n["text"] for n in notes):
    no("no power-cut note %r: %r" % (want, [n["text"] for n in notes]))
if doc["scenario"]["place_note"] is None or "crash lab" not in doc["scenario"]["place_note"]:
    no("the head does not say the program runs in a crash lab")
if not bad:
    print("ok: crash-prog: %s: views from the open on; fsync kept 5000 B at line %d" %
          (fs, mark["fsync"]))
sys.exit(bad)
PY
	wait_for 'gone "$d"' || bad "$fs: a loop device still backs the lab's image"
	[ -z "$(ls -A "$d")" ] || bad "$fs: left $(ls -A "$d")"
	ran="$ran $fs"
done

# Equal to a lesson doing the same calls: exercise 13-3 (fopen "w", fwrite 5000, fflush,
# fsync, fclose) as a program and as the bundled lesson, on ext4: a kill -9 keeps the same
# after each call; a power cut the same after fsync and fclose, and before them where neither
# run had a write on its device by then (else only a sync elsewhere or a journal's timer
# could tell them apart: said, not failed).
cat >"$tmp/e133.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(void)
{
	static char buf[5000];
	FILE *fp;

	memset(buf, 'x', sizeof buf);
	if ((fp = fopen("scratch", "w")) == NULL || fwrite(buf, 1, sizeof buf, fp) != sizeof buf ||
	    fflush(fp) != 0 || fsync(fileno(fp)) != 0 || fclose(fp) != 0)
		return 1;
	return 0;
}
EOF
cc -g -o "$tmp/e133" "$tmp/e133.c" || bad "cc e133"
mkdir "$tmp/e133-p" "$tmp/e133-l"
"$bin" --headless -f json --crash-fs=ext4 --dir "$tmp/e133-p" -- "$tmp/e133" >"$tmp/e133-p.json" \
	2>/dev/null || bad "13-3 as a program: exit $?"
"$bin" --headless -f json --crash-fs=ext4 --dir "$tmp/e133-l" "$src/scenarios/13-3-fflush-fsync.yaml" \
	>"$tmp/e133-l.json" 2>/dev/null || bad "13-3 as a lesson: exit $?"
python3 - "$tmp/e133-p.json" "$tmp/e133-l.json" <<'PY' || fail=1
import json, sys
prog, lesson = (json.load(open(f))["steps"] for f in sys.argv[1:3])
def calls(steps, key):
    out = {}
    for s in steps:
        for name in ("fopen", "fwrite", "fflush", "fsync", "fclose"):
            if s["crash"] is not None and name in key(s) and name not in out:
                out[name] = s
    return out
p = calls(prog, lambda s: s["args"][:60])
l = calls(lesson, lambda s: s["args"])
bad = 0
def kept(h):
    return (h["size"] if h["exists"] else "no file") if h["observed"] else "?"
for name in ("fopen", "fwrite", "fflush", "fsync", "fclose"):
    if name not in p or name not in l:
        print("FAIL: crash-prog: 13-3: no %s step with a crash view (%s)" %
              (name, "program" if name not in p else "lesson"))
        bad = 1
        continue
    a, b = p[name]["crash"], l[name]["crash"]
    if kept(a["process"]) != kept(b["process"]):
        print("FAIL: crash-prog: 13-3: after %s a kill -9 keeps %s as a program, %s as the "
              "lesson" % (name, kept(a["process"]), kept(b["process"])))
        bad = 1
    quiet = a["power"]["device_writes"] == 0 and b["power"]["device_writes"] == 0
    if name in ("fsync", "fclose") or quiet:
        if kept(a["power"]) != kept(b["power"]):
            print("FAIL: crash-prog: 13-3: after %s a power cut keeps %s as a program, %s as "
                  "the lesson" % (name, kept(a["power"]), kept(b["power"])))
            bad = 1
    elif kept(a["power"]) != kept(b["power"]):
        print("crash-prog: 13-3: after %s the power cuts differ (%s, %s) with writes on a "
              "device before fsync: not held" % (name, kept(a["power"]), kept(b["power"])))
    print("crash-prog: 13-3 after %-6s program kill -9 %-7s power %-7s | lesson %-7s %s" %
          (name, kept(a["process"]), kept(a["power"]), kept(b["process"]), kept(b["power"])))
sys.exit(bad)
PY

# The text transcript says the same, with the line.
d=$tmp/text
mkdir "$d"
"$bin" --headless --crash-fs=ext4 --dir "$d" -- "$tmp/wfr" >"$d.out" 2>&1 || bad "text: exit $?"
grep -q '^  crash   data.tmp after kill -9: 5000 B' "$d.out" || bad "text: no kill -9 line"
grep -q '^  crash   data after a power cut: ' "$d.out" || bad "text: no power cut line after the rename"
grep -q '^lab      the program runs in a crash lab' "$d.out" || bad "text: the head has no lab line"
# And the page, under each step.
"$bin" --headless --format=html --crash-fs=ext4 --dir "$d" -- "$tmp/wfr" >"$d.html" 2>&1 ||
	bad "html: exit $?"
grep -q '<div class="crash"><p class="data">data.tmp after kill -9: 5000 B' "$d.html" ||
	bad "html: no crash view under a step"
grep -q 'data.tmp after a power cut: 5000 B' "$d.html" || bad "html: no power cut keeping the bytes"

# x in the TUI (tmux): after the fsync both crashes keep the 5000 bytes; x again hides them;
# q leaves no loop device.
if command -v tmux >/dev/null 2>&1; then
	d=$tmp/tui
	mkdir "$d"
	tmux_new tui 120 40 "LC_ALL=C.UTF-8 TERM=screen '$bin' --crash-fs=ext4 --dir '$d' -- \
		'$tmp/wfr'; echo \$? > '$tmp/tui.status'; sleep 60" || bad "tmux"
	tmux_sees tui "runs in a crash lab" || bad "tui: the intro does not say the lab"
	tmux_cmd tui send-keys -t tui x
	tmux_sees tui "x: no step yet" || bad "tui: x before a step"
	for i in 1 2 3 4; do
		tmux_cmd tui send-keys -t tui n
		tmux_sees tui "step $i/$i" || bad "tui: step $i"
	done
	tmux_sees tui "fsync(3) = 0" || bad "tui: step 4 is not the fsync"
	tmux_cmd tui send-keys -t tui x
	tmux_sees tui "what a crash leaves" || bad "tui: x shows no crash view"
	n=$(tmux_screen tui | grep -c 'data.tmp: 5000 B "aaaa')
	[ "$n" = 2 ] || bad "tui: after fsync $n of the two crashes keep the 5000 bytes"
	tmux_sees tui "power cut: the device as it was" || bad "tui: no power cut"
	tmux_cmd tui send-keys -t tui x
	wait_for '! tmux_screen tui | grep -q "what a crash leaves"' || bad "tui: x again keeps it"
	tmux_cmd tui send-keys -t tui q
	wait_for '[ -s "$tmp/tui.status" ]' || bad "tui: q did not end it"
	[ "$(cat "$tmp/tui.status" 2>/dev/null)" = 0 ] || bad "tui: exit $(cat "$tmp/tui.status")"
	wait_for 'gone "$d"' || bad "tui: a loop device still backs the lab's image"
	tmux_kill tui
	[ $fail = 0 ] && echo "ok: crash-prog: x in the TUI: both crashes after the fsync"
else
	skip_part "tui" "tmux not installed"
fi

# SIGKILL in the middle (the program asleep after its rename): the kernel ends the traced
# program (PTRACE_O_EXITKILL), the last holder of the lab, which goes with its device.
d=$tmp/kill
mkdir "$d"
"$bin" --headless --crash-fs=ext4 --dir "$d" -- "$tmp/wfr" hold >"$d.out" 2>&1 &
pid=$!
pids="$pids $pid"
# Asleep (S), not stopped by its tracer (t): past its last step.
asleep() {
	for p in $(pgrep -f "$tmp/wfr hold"); do
		[ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = S ] && return 0
	done
	return 1
}
wait_for 'backs "$d"' || bad "SIGKILL: no loop device on the lab"
wait_for asleep 20 || bad "SIGKILL: the program never got past its rename"
kill -KILL "$pid"
wait "$pid"
wait_for 'gone "$d"' || bad "SIGKILL: a loop device still backs the lab's image"
wait_for '! pgrep -f "$tmp/wfr hold" >/dev/null' || bad "SIGKILL: the traced program outlived iobufviz"
[ $fail = 0 ] && echo "ok: crash-prog: SIGKILL mid-run: the program and its lab gone"

# As user nobody: run without the lab, as a lesson is, the reason said once.
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin" 2>/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$tmp/wfr" 2>/dev/null; then
	d=$tmp/nobody
	mkdir -m 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --headless --crash-fs=ext4 \
		--dir "$d" -- "$tmp/wfr" >"$d.out" 2>&1
	rc=$?
	[ $rc = 0 ] || bad "nobody: exit $rc, not 0: $(cat "$d.out")"
	n=$(grep -o "needs root to mount a filesystem image" "$d.out" | wc -l)
	[ "$n" = 1 ] || bad "nobody: the reason said $n times: $(cat "$d.out")"
	grep -q '^step' "$d.out" || bad "nobody: the program did not run: $(head -5 "$d.out")"
	[ $fail = 0 ] && echo "ok: crash-prog: as nobody: run without the lab, said once"
else
	skip_part "as nobody" "setpriv missing, or nobody cannot run $bin"
fi
echo "crash-prog: filesystems:$ran"
finish
