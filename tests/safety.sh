#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/safety.sh: through the real binary, nothing is left behind when iobufviz is cut short
# (a closed pipe, a signal in the middle of a sweep run), and a bad --dir or a file size
# limit is a clear error with exit status 3.
testname=safety
. "$(dirname "$0")/lib.sh"
need python3

# 1. Output into a pipe nobody reads: SIGPIPE ends the run; the scratch dir goes with it.
mkdir "$tmp/pipe"
{ "$bin" --headless --format=json --dir "$tmp/pipe" "$src/scenarios/13.5-fadvise.yaml"; \
  echo $? >"$tmp/pipe.rc"; } | true
[ "$(cat "$tmp/pipe.rc")" = 141 ] || bad "closed pipe: exit $(cat "$tmp/pipe.rc"), expected 141 (SIGPIPE)"
[ -z "$(ls -A "$tmp/pipe")" ] || bad "closed pipe: left $(ls -A "$tmp/pipe")"

# 2. SIGTERM to iobufviz alone while a sweep's timed child runs: no process of its session
#    outlives it (the child would go on writing into a removed file) and nothing is left.
mkdir "$tmp/sweep"
python3 - "$bin" "$tmp/sweep" "$src/tests/safety-sweep.yaml" <<'PY' || fail=1
import os, signal, subprocess, sys, time
binary, d, scen = sys.argv[1:]
p = subprocess.Popen([binary, "--headless", "--dir", d, scen], stdout=subprocess.DEVNULL,
                     start_new_session=True)
def children(pid):
    try:
        return open("/proc/%d/task/%d/children" % (pid, pid)).read().split()
    except OSError:
        return []
def session(sid):
    alive = []
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                st = open("/proc/%s/stat" % e).read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(st[3]) == sid and st[0] != "Z":
                alive.append(e)
    return alive
# The worker and a timed run: two children (up to 20 s for the run to start).
for _ in range(400):
    if len(children(p.pid)) >= 2 or p.poll() is not None:
        break
    time.sleep(0.05)
if len(children(p.pid)) < 2:
    print("FAIL: the sweep's timed run never started"); p.kill(); sys.exit(1)
# Past the short probe runs, into the row's long run.
time.sleep(1)
os.kill(p.pid, signal.SIGTERM)
p.wait()
left = session(p.pid)
for pid in left:
    os.kill(int(pid), signal.SIGKILL)
rc = 0
if p.returncode != -signal.SIGTERM:
    print("FAIL: SIGTERM: status %s" % p.returncode); rc = 1
if left:
    print("FAIL: SIGTERM: processes %s outlived iobufviz" % left); rc = 1
if os.listdir(d):
    print("FAIL: SIGTERM: left %s" % os.listdir(d)); rc = 1
sys.exit(rc)
PY

# 3. A bad --dir: exit 3 and a message naming it; nothing made anywhere.
: >"$tmp/afile"
for d in "$tmp/afile" "$tmp/none/such"; do
	"$bin" --headless --dir "$d" "$src/tests/cli-minimal.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 3 ] || bad "--dir $d: exit $rc, expected 3"
	grep -q "cannot make a scratch directory under $d" "$tmp/err" || bad "--dir $d: message: $(cat "$tmp/err")"
done
mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
if (: >"$tmp/ro/probe") 2>/dev/null; then
	rm -f "$tmp/ro/probe"
	skip_part "read-only --dir" "mode 555 does not keep this process out (root?)"
else
	"$bin" --headless --dir "$tmp/ro" "$src/tests/cli-minimal.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 3 ] || bad "read-only --dir: exit $rc, expected 3"
	[ -z "$(ls -A "$tmp/ro")" ] || bad "read-only --dir: left $(ls -A "$tmp/ro")"
fi
# 4. Past "ulimit -f": the prefill and a sweep's files fail with EFBIG, reported with exit
#    status 3 (not killed by SIGXFSZ with the scratch dir left behind).
mkdir "$tmp/fsize"
printf 'title: "big prefill"\nfile: {size: 1MiB}\nsteps:\n  - note: "[background] x"\n' >"$tmp/big.yaml"
(ulimit -f 64; exec "$bin" --headless --dir "$tmp/fsize" "$tmp/big.yaml") >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || bad "ulimit -f, prefill: exit $rc, expected 3"
grep -q "cannot prefill.*File too large" "$tmp/err" || bad "ulimit -f, prefill: message: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/fsize")" ] || bad "ulimit -f, prefill: left $(ls -A "$tmp/fsize")"
(ulimit -f 64; exec "$bin" --headless --budget=0.1 --dir "$tmp/fsize" "$src/tests/sweep-tiny.yaml") \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || bad "ulimit -f, sweep: exit $rc, expected 3"
grep -q "^error: step 1: the sweep's .* could not run: .*File too large" "$tmp/out" ||
	bad "ulimit -f, sweep: no error line: $(tail -3 "$tmp/out")"
[ -z "$(ls -A "$tmp/fsize")" ] || bad "ulimit -f, sweep: left $(ls -A "$tmp/fsize")"

# 5. The worker killed by SIGXFSZ (the lesson: the default action) is reported, its later
#    steps are not run, the scratch dir goes; without ptrace there is no errno to show.
printf 'title: "worker dies"\nsteps:\n  - open: {flags: [O_WRONLY]}\n  - write: {bytes: 1MiB}\n  - write: {bytes: 1MiB}\n  - fsync: {}\n' \
	>"$tmp/xfsz.yaml"
for trace in auto procio; do
	(ulimit -f 64; exec "$bin" --headless --trace=$trace --dir "$tmp/fsize" "$tmp/xfsz.yaml") \
		>"$tmp/out" 2>&1
	grep -q "note    worker killed by SIGXFSZ" "$tmp/out" || bad "worker SIGXFSZ ($trace): not reported"
	grep -q "nothing was run: worker killed by SIGXFSZ earlier" "$tmp/out" ||
		bad "worker SIGXFSZ ($trace): step 4 ran"
	! grep -q "(Success)" "$tmp/out" || bad "worker SIGXFSZ ($trace): an error that is 'Success'"
	[ -z "$(ls -A "$tmp/fsize")" ] || bad "worker SIGXFSZ ($trace): left $(ls -A "$tmp/fsize")"
done

finish
