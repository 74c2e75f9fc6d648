#!/bin/sh
# SPDX-License-Identifier: MIT
# prog-sort.sh: the cost of "iobufviz --headless -- sort -o out.txt in.txt" on a 45 MB file
# of 1.5 M lines, paired with strace -f of the same command (and the command alone): runs
# alternate, the ratio is taken pair by pair, its median printed. Target (issue 19): within
# 1.5x strace -f's wall time; exit 1 past it.
set -u
bin=${IOBUFVIZ_BIN:?}
runs=${RUNS:-5}
command -v python3 >/dev/null || { echo "SKIP: prog-sort: python3 not installed"; exit 77; }
command -v strace >/dev/null || { echo "SKIP: prog-sort: strace not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prog-sort.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM HUP
python3 - "$tmp/in.txt" <<'PY'
import base64, os, sys
# 1,500,000 lines of 30 bytes: 29 random base64 characters and a newline (45 MB).
raw = base64.b64encode(os.urandom(1500000 * 29 * 3 // 4))
with open(sys.argv[1], "wb") as f:
    for i in range(0, 1500000 * 29, 29 * 10000):
        chunk = raw[i:i + 29 * 10000]
        f.write(b"".join(chunk[k:k + 29] + b"\n" for k in range(0, len(chunk), 29)))
PY
python3 - "$bin" "$tmp" "$runs" <<'PY'
import statistics, subprocess, sys, time
bin, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
cmds = {
    "bare": ["sort", "-o", tmp + "/out.txt", tmp + "/in.txt"],
    "strace -f": ["strace", "-f", "-o", "/dev/null", "sort", "-o", tmp + "/out.txt", tmp + "/in.txt"],
    "iobufviz": [bin, "--headless", "--format=json", "--dir", tmp, "--", "sort", "-o", "out.txt",
                 "in.txt"],
}
times = {k: [] for k in cmds}
for i in range(runs + 1):
    for k, c in cmds.items():
        t0 = time.monotonic()
        with open(tmp + "/transcript", "wb") as out:
            rc = subprocess.run(c, stdout=out, stderr=subprocess.DEVNULL).returncode
        dt = time.monotonic() - t0
        if rc != 0:
            sys.exit("prog-sort: %s exited %d" % (k, rc))
        if i > 0:                       # the first round warms the cache
            times[k].append(dt)
ratio = [a / b for a, b in zip(times["iobufviz"], times["strace -f"])]
for k, v in times.items():
    print("prog-sort: %-10s median %.2f s (min %.2f, max %.2f) over %d runs" %
          (k, statistics.median(v), min(v), max(v), len(v)))
r = statistics.median(ratio)
print("prog-sort: iobufviz / strace -f, paired: median %.2f (target <= 1.5)" % r)
sys.exit(0 if r <= 1.5 else 1)
PY
