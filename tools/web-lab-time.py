# SPDX-License-Identifier: MIT
# tools/web-lab-time.py: time the browser lab's start in headless Chromium, again and again:
# each folder given (tools/web-lab's build-web/, or a copy with a changed page) is served on
# 127.0.0.1 and opened at index.html#cold (or index.html with --restored) in a fresh Chromium
# (tests/cdp.py), ROUNDS times, the folders taken in turn (A B A B ...: a busy machine's load
# moves one boot by tens of seconds, so they share it). For each boot: the page's own count
# to the shell (window.lab.bootSeconds, "lab: ready"), the seconds the page's thread spent in
# v86's slices of guest work (its do_tick) and outside them (between slices: yields, rendering,
# v86's compiled code arriving), the CPU seconds Chromium's processes used and, of them, the
# renderer's pool threads (ThreadPoolForeground: V8 compiling wasm, v86's generated code
# among it), and the host's load; then the medians per folder. --arg ARG adds a switch to
# Chromium's command line (a diagnosis, e.g. --js-flags=--liftoff-only; a student's browser
# has none).
# Usage: python3 tools/web-lab-time.py [--rounds N] [--restored] [--chromium EXE]
#        [--arg ARG]... DIR...
import functools
import http.server
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import cdp  # noqa: E402

args = sys.argv[1:]
rounds, restored, exe, dirs, extra = 3, False, "/usr/bin/chromium", [], []
while args:
    a = args.pop(0)
    if a == "--rounds":
        rounds = int(args.pop(0))
    elif a == "--restored":
        restored = True
    elif a == "--chromium":
        exe = args.pop(0)
    elif a == "--arg":
        extra.append(args.pop(0))
    else:
        dirs.append(a)
for d in dirs:
    if not os.path.isfile(os.path.join(d, "index.html")):
        sys.exit("web-lab-time.py: %s: no index.html (tools/web-lab makes the folder)" % d)
if not dirs:
    sys.exit("usage: web-lab-time.py [--rounds N] [--restored] [--chromium EXE] [--arg ARG]... "
             "DIR...")

# Counts the time in v86's slices (emulator.v86.do_tick), from the page's first script on.
SLICES = r"""(function(){
  const st = window.__slices = {n: 0, ms: 0};
  const iv = setInterval(() => {
    const v = window.lab && window.lab.emulator && window.lab.emulator.v86;
    if (!v || typeof v.do_tick !== "function") return;
    clearInterval(iv);
    const tick = v.do_tick;
    v.do_tick = function () {
      const t0 = performance.now();
      st.n++;
      try { return tick.apply(this, arguments); } finally { st.ms += performance.now() - t0; }
    };
  }, 1);
})();"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def log_message(self, *args):
        pass


def cpu(group):
    """CPU seconds of the processes in process group group: all, and the pool threads'."""
    tck = os.sysconf("SC_CLK_TCK")
    total = pool = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            f = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
            if int(f[2]) != group:
                continue
            total += (int(f[11]) + int(f[12])) / tck
            for tid in os.listdir("/proc/%s/task" % pid):
                raw = open("/proc/%s/task/%s/stat" % (pid, tid)).read()
                if raw[raw.index("(") + 1:raw.rindex(")")].startswith("ThreadPoolForeg"):
                    g = raw.rsplit(")", 1)[1].split()
                    pool += (int(g[11]) + int(g[12])) / tck
        except (OSError, ValueError):
            continue
    return total, pool


def boot(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    load = os.getloadavg()[0]
    b = cdp.Browser(exe, loopback=True, extra=extra)
    try:
        b.call("Page.addScriptToEvaluateOnNewDocument", {"source": SLICES})
        b.size(1280, 800)
        t0 = time.time()
        b.open(base + "index.html" + ("" if restored else "#cold"))
        while time.time() - t0 < 600 and not b.js("window.lab && window.lab.ready"):
            time.sleep(0.2)
        r = b.js("({s: window.lab.bootSeconds, run: window.lab.started / 1000, how: window.lab.how, "
                 "times: window.lab.times, "
                 "slices: window.__slices})")
        r["cpu"], r["pool"] = cpu(b.proc.pid)
    finally:
        b.close()
        server.shutdown()
    r["load"] = load
    return r


got = {d: [] for d in dirs}
for n in range(rounds):
    for d in dirs:
        r = boot(d)
        got[d].append(r)
        sl = r["slices"] or {"n": 0, "ms": 0}
        print("web-lab-time: %s: round %d: %s, the guest started at %.1f s, the shell at %.1f "
              "s; in v86's slices %.1f s (%d), outside them %.1f s; CPU %.1f s, "
              "%.1f s of it in the pool threads; load %.1f" %
              (d, n + 1, r["how"], r["run"], r["s"], sl["ms"] / 1000, sl["n"],
               r["s"] - sl["ms"] / 1000, r["cpu"], r["pool"], r["load"]),
              flush=True)
for d in dirs:
    s = [r["s"] for r in got[d]]
    inside = [(r["slices"] or {"ms": 0})["ms"] / 1000 for r in got[d]]
    print("web-lab-time: %s: median %.1f s to the shell (%s), %.1f s of it in v86's slices; "
          "%d boots, %.1f to %.1f s" % (d, statistics.median(s), "restored" if restored
                                         else "cold", statistics.median(inside), len(s),
                                         min(s), max(s)))
