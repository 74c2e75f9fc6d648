# SPDX-License-Identifier: MIT
# tests/web-lab-browser.py: the browser lab (build-web/) in headless Chromium, as a student
# opens it: served on 127.0.0.1, opened at index.html#run=iobufviz -H 13-3 at 1280x800, the
# terminal's text read from the DOM (xterm.js's screen-reader tree) until the guest prints
# "all expectations held"; the page restored its saved state (state.zst), not a cold boot;
# every request stays on 127.0.0.1 and nothing breaks the CSP. Then the same page (one boot)
# resized to 390x844 (a phone): the terminal keeps 80 columns with a smaller font and the
# guest's console gets the new size (stty size). Screenshots into OUTDIR.
# --cold: the page's cold boot instead (index.html#cold&run=...), to measure it.
# Usage: python3 tests/web-lab-browser.py [--cold] DIR CHROMIUM OUTDIR SECONDS
# Prints "web-lab-browser: ..." lines; exit 0, or 1 with "FAIL: ..." lines.
import functools
import http.server
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

args = sys.argv[1:]
cold = args[:1] == ["--cold"]
if cold:
    args.pop(0)
folder, exe, outdir, limit = args[0], args[1], args[2], float(args[3])


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                         functools.partial(Quiet, directory=folder))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d/" % server.server_address[1]
fail = 0


def bad(msg):
    global fail
    print("FAIL: web-lab-browser: " + msg)
    fail = 1


# The terminal's text as a screen reader gets it (xterm.js's accessibility tree), else the
# rows the DOM renderer drew.
TEXT = ("(function(){const a=document.querySelector('.xterm-accessibility-tree');"
        "const r=document.querySelector('.xterm-rows');"
        "return (a&&a.textContent.trim()?a.innerText:'')+'\\n'+(r?r.innerText:'');})()")


def wait_text(b, want, seconds):
    """Poll the terminal's text until want is in it: the seconds it took, or None."""
    t0 = time.time()
    while time.time() - t0 < seconds:
        if want in (b.js(TEXT) or ""):
            return time.time() - t0
        time.sleep(1)
    return None


b = cdp.Browser(exe, loopback=True)
try:
    b.size(1280, 800)
    t0 = time.time()
    b.open(base + "index.html#" + ("cold&" if cold else "") + "run=iobufviz -H 13-3")
    seen = wait_text(b, "all expectations held", limit)
    boot = b.js("window.lab && window.lab.bootSeconds")
    progress = b.js("document.getElementById('progress').textContent")
    b.screenshot(os.path.join(outdir, "web-lab-1280x800.png"))
    geometry = b.js("window.lab && [window.lab.term.cols, window.lab.term.rows]")
    how = b.js("window.lab && window.lab.how")
    print("web-lab-browser: 1280x800: terminal %s, shell after %s s (page's count, %s), "
          "progress line: %s" % (geometry, boot and round(boot, 1), how, progress))
    times = b.js("window.lab && window.lab.times")
    if how == "restored" and times:
        print("web-lab-browser: state.zst fetched at %.1f s, restored at %.1f s, the shell "
              "ready at %.1f s" % (times["fetched"], times["restored"], times["ready"]))
    if cold and how != "cold":
        bad("#cold did not boot cold: %s" % progress)
    elif not cold and os.path.exists(os.path.join(folder, "state.zst")) and how != "restored":
        bad("the page did not restore state.zst: %s" % progress)
    if seen is None:
        bad("no \"all expectations held\" after %d s; the terminal shows:\n%s" %
            (limit, (b.js(TEXT) or "")[-1500:]))
    else:
        print("web-lab-browser: \"all expectations held\" read from the DOM %.0f s after "
              "opening the page" % (time.time() - t0))
    if geometry and (geometry[0] < 80 or geometry[1] < 24):
        bad("the terminal is %dx%d, under 80x24" % tuple(geometry))
    outside = [u for u in b.requests()
               if not u.startswith((base, "data:", "blob:" + base))]
    if outside:
        bad("requests outside the folder: %s" % outside[:5])
    for p in b.problems():
        if "Content Security Policy" in p or "Refused" in p:
            bad("the CSP refused something: " + p)
        else:
            print("web-lab-browser: the console says: " + p[:200])

    # A phone, the same page resized: still 80 columns (a smaller font), and the guest's
    # console told the new size (web/init's reader of ttyS1 runs stty).
    before = geometry
    b.size(390, 844, mobile=True)
    t1 = time.time()
    geometry = None
    while time.time() - t1 < 10:
        geometry = b.js("window.lab && [window.lab.term.cols, window.lab.term.rows, "
                        "window.lab.term.options.fontSize]")
        if geometry and geometry[:2] != before[:2]:
            break
        time.sleep(0.2)
    width = b.js("document.querySelector('.xterm-screen').getBoundingClientRect().right")
    print("web-lab-browser: 390x844: terminal %s (font %s px), its right edge at %.0f px" %
          (geometry[:2], geometry[2], width))
    if geometry[0] < 80 or geometry[1] < 24:
        bad("the terminal at 390x844 is %dx%d, under 80x24" % tuple(geometry[:2]))
    if width > 390:
        bad("the terminal at 390x844 is %.0f px wide: cut off" % width)
    b.js("window.lab.emulator.serial0_send('clear; stty size\\n')")
    want = "%d %d" % (geometry[1], geometry[0])
    seen = wait_text(b, want, 60)
    b.screenshot(os.path.join(outdir, "web-lab-390x844.png"))
    if seen is None:
        bad("the guest's console is not %s after the resize (stty size); the terminal "
            "shows:\n%s" % (want, (b.js(TEXT) or "")[-500:]))
    else:
        print("web-lab-browser: 390x844: the guest's stty size says \"%s\" after %.0f s"
              % (want, seen))
finally:
    b.close()
    server.shutdown()
sys.exit(fail)
