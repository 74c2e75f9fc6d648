# SPDX-License-Identifier: MIT
# tests/web-lab-browser.py: the browser lab (build-web/) in headless Chromium, as a student
# opens it: served on 127.0.0.1, opened at index.html#run=iobufviz -H 13-3 at 1280x800, the
# terminal's text read from the DOM (xterm.js's screen-reader tree) until the guest prints
# "all expectations held"; the page restored its saved state (state.zst), not a cold boot;
# every request stays on 127.0.0.1 and nothing breaks the CSP. Then the same page (one boot)
# resized to 390x844 (a phone): the terminal keeps 80x24 or more with a font of 12 px or more
# (its box scrolls sideways, the page does not) and the guest's console gets the new size
# (stty size); the TUI runs there with the header in view. At both sizes the header stays at
# the top and the terminal fits the window under it; the TUI draws Unicode lines (the
# guest's locale is C.UTF-8). Before the phone, on the same page: the #env
# line says what the guest reported (Linux 6.1 (i686), one CPU, an emulator's times); the
# guest's console has the terminal's size (stty size); the time from a key press to its echo in the terminal's DOM (5 keys, target 200 ms); a C file
# uploaded through the page's Upload control (DOM.setFileInputFiles), compiled by tcc in the
# guest and traced by iobufviz -H (its fopen's openat read from the DOM); the file its run
# wrote, a 64 KiB binary file uploaded and the C file itself downloaded through the Download
# control and compared byte for byte, and a page of 13-3 made by --export=html in the guest
# (its sha256sum there); the editor's text saved to the guest; the TUI of 13-3
# stepped with n (step 2/ read from the DOM), q back to the shell; crash-13-3 on ext4, x
# after step 1 shows what a kill -9 and a power cut leave. Then a second page, the cold
# boot (index.html#cold), timed to its shell, with keys typed while it boots: they must run
# at its shell's first prompt, in order. Each part's time is printed, the restored and cold
# starts against their targets (3 s, 15 s; over is said, not failed: CI machines differ).
# Screenshots into OUTDIR.
# --cold: the page's cold boot instead (index.html#cold&run=...), to measure it.
# Usage: python3 tests/web-lab-browser.py [--cold] DIR CHROMIUM OUTDIR SECONDS
# Prints "web-lab-browser: ..." lines; exit 0, or 1 with "FAIL: ..." lines.
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import sys
import tempfile
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


# Only the screen (the rows xterm.js drew): what a full-screen program shows now.
SCREEN = "(function(){const r=document.querySelector('.xterm-rows');return r?r.innerText:'';})()"


def wait_screen(b, pattern, seconds):
    """Poll the screen until the regular expression pattern matches: its match, or None."""
    t0 = time.time()
    while time.time() - t0 < seconds:
        m = re.search(pattern, b.js(SCREEN) or "")
        if m:
            return m
        time.sleep(0.2)
    return None


# Where the header and the terminal are: both in the window, the page not scrolled past the
# header, and the page no wider than the window (the terminal's own box scrolls sideways).
LAYOUT = ("(function(){const h=document.querySelector('header').getBoundingClientRect();"
          "const t=document.getElementById('terminal').getBoundingClientRect();"
          "const d=document.documentElement;"
          "return {headerTop:h.top,headerBottom:h.bottom,boxTop:t.top,boxLeft:t.left,boxRight:t.right,"
          "boxBottom:t.bottom,height:window.innerHeight,width:d.clientWidth,"
          "pageWidth:d.scrollWidth,scrolled:window.scrollY};})()")


def layout_ok(b, where):
    """The header in view, the terminal whole under it (the page, scrolled to the file
    controls, comes back when the terminal has the focus), no sideways page."""
    l = b.js(LAYOUT)
    print("web-lab-browser: %s: header %.0f-%.0f px, terminal's box %.0f-%.0f px wide, "
          "%.0f-%.0f px of %d high, page scrolled %d px" %
          (where, l["headerTop"], l["headerBottom"], l["boxLeft"], l["boxRight"], l["boxTop"],
           l["boxBottom"], l["height"], l["scrolled"]))
    if l["headerTop"] < 0 or l["headerBottom"] > l["height"] / 3:
        bad("%s: the header is not at the top of the window: %s" % (where, l))
    if l["boxTop"] < l["headerBottom"] - 1 or l["boxBottom"] > l["height"]:
        bad("%s: the terminal is not whole in the window under the header: %s" % (where, l))
    if l["pageWidth"] > l["width"] or l["boxRight"] > l["width"]:
        bad("%s: the page is wider than the window: %s" % (where, l))


def type_line(b, line):
    """Type a command line into the guest's shell (the bytes a keyboard would send)."""
    b.js("window.lab.emulator.serial0_send(%s)" % json.dumps(line + "\n"))


def status(b, want, seconds):
    """Wait for the file controls' status line to start with want: the line, or None."""
    t0 = time.time()
    line = ""
    while time.time() - t0 < seconds:
        line = b.js("document.getElementById('file-status').textContent") or ""
        if line.startswith(want) or "failed" in line:
            return line
        time.sleep(0.1)
    return line


def downloaded(folder, name, seconds):
    """The bytes of folder/name once Chromium has written it whole, or None."""
    t0 = time.time()
    path = os.path.join(folder, name)
    while time.time() - t0 < seconds:
        if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
            time.sleep(0.2)
            with open(path, "rb") as f:
                return f.read()
        time.sleep(0.1)
    return None


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
              "ready at %.1f s (target 3 s%s)" %
              (times["fetched"], times["restored"], times["ready"],
               "" if times["ready"] <= 3 else ": OVER THE TARGET"))
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

    known = len(b.problems())
    # What the guest runs, as it said on ttyS1 (uname -r, -m; its CPUs).
    env = b.js("document.getElementById('env').textContent") or ""
    print("web-lab-browser: the #env line: " + env)
    for want in ("Linux 6.1 (i686), emulated in your browser", "one CPU",
                 "an emulator's, not hardware's"):
        if want not in env:
            bad("the #env line does not say \"%s\"" % want)

    # The guest's console has the terminal's size: the page's first line on ttyS1 reached
    # init whole (a cold boot lost its first bytes while init had not yet opened the port).
    wait_screen(b, r"lab:/tmp# \s*$", 60)
    cols, rows = b.js("[window.lab.term.cols, window.lab.term.rows]")
    type_line(b, "stty size | sed 's/^/size=/'")
    m = wait_screen(b, r"size=(\d+) (\d+)", 60)
    print("web-lab-browser: the guest's console: %s, the terminal: %d rows, %d columns" %
          (m and m.group(0), rows, cols))
    if m is None or (int(m.group(1)), int(m.group(2))) != (rows, cols):
        bad("the guest's console is not the terminal's size (%d %d): %s" %
            (rows, cols, m and m.group(0)))

    # A key press to its echo in the terminal's DOM: 5 presses of k at the prompt, once the
    # lesson's run has given it back (it still removes its scratch files after its verdict).
    wait_screen(b, r"lab:/tmp# \s*$", 60)
    time.sleep(1)
    b.js("window.lab.term.focus()")
    echo = []
    for i in range(5):
        b.js("(function(){const rows=document.querySelector('.xterm-rows');"
             "const n=()=>rows.textContent.split('k').length;const n0=n();"
             "window.__echo=new Promise((res)=>{const t0=performance.now();"
             "const o=new MutationObserver(()=>{if(n()>n0){o.disconnect();"
             "res(performance.now()-t0);}});"
             "o.observe(rows,{childList:true,subtree:true,characterData:true});"
             "setTimeout(()=>{o.disconnect();res(-1);},10000);});})()")
        b.key("k", "KeyK", 75)
        echo.append(b.js("window.__echo"))
    b.js("window.lab.emulator.serial0_send('\\x15')")
    seen = sorted(e for e in echo if e >= 0)
    if len(seen) < len(echo):
        bad("a key press was not echoed in 10 s: %s" % echo)
    elif seen:
        median = seen[len(seen) // 2]
        print("web-lab-browser: a key press to its echo in the DOM: median %.0f ms, most %.0f ms "
              "(%s; target 200 ms)%s" % (median, seen[-1], ", ".join("%.0f" % e for e in echo),
                                         "" if median <= 200 else ": OVER THE TARGET"))
        if median > 1000:
            bad("a key press takes %.0f ms to echo" % median)

    # The student's own C file: uploaded through the page's control, compiled, traced.
    work = tempfile.mkdtemp(prefix="web-lab-files.")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    csrc = (b'#include <stdio.h>\n/* uploaded by tests/web-lab-browser.py */\n'
            b'int main(void)\n{\n\tFILE *f = fopen("up.out", "w");\n\n'
            b'\tfputs("uploaded, compiled by tcc, run\\n", f);\n'
            b'\treturn fclose(f);\n}\n')
    produced = b"uploaded, compiled by tcc, run\n"
    blob = os.urandom(65536)
    with open(os.path.join(work, "up.c"), "wb") as f:
        f.write(csrc)
    with open(os.path.join(work, "blob.bin"), "wb") as f:
        f.write(blob)
    try:
        b.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    except RuntimeError:
        b.call("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    root = b.call("DOM.getDocument")["root"]["nodeId"]
    upload = b.call("DOM.querySelector", {"nodeId": root, "selector": "#upload"})["nodeId"]

    def put(name):
        t = time.time()
        b.call("DOM.setFileInputFiles", {"nodeId": upload, "files": [os.path.join(work, name)]})
        line = status(b, "Uploaded", 120)
        print("web-lab-browser: upload %s: %.1f s: %s" % (name, time.time() - t, line))
        if not line.startswith("Uploaded: /tmp/" + name):
            bad("the upload of %s: %s" % (name, line))

    def get(name, want):
        t = time.time()
        b.js("document.getElementById('get-name').value=%s" % json.dumps(name))
        b.click("#download")
        line = status(b, "Downloaded", 120)
        got = downloaded(downloads, name, 30)
        print("web-lab-browser: download %s: %.1f s: %s" % (name, time.time() - t, line))
        if got is None:
            bad("no %s downloaded: %s" % (name, line))
        elif got != want:
            bad("the downloaded %s is not what it should be: %d bytes, %d wanted" %
                (name, len(got), len(want)))

    t = time.time()
    put("up.c")
    b.js("window.lab.term.clear()")
    # The trace into a file, its fopen's lines onto the screen (the whole trace is more than
    # a screen); then the program runs in /tmp (iobufviz runs it in a scratch directory).
    type_line(b, "clear; tcc up.c && iobufviz -H -- ./a.out >up.trace && "
              "grep -E 'fopen|O_WRONLY' up.trace && ./a.out && echo traced-$((6*7))")
    seen = wait_text(b, "traced-42", 300)
    text = b.js(TEXT) or ""
    if seen is None or "O_WRONLY|O_CREAT|O_TRUNC" not in text or "up.out" not in text:
        bad("up.c was not compiled and traced (no \"up.out\", O_WRONLY|O_CREAT|O_TRUNC, "
            "traced-42); the terminal shows:\n%s" % text[-1500:])
    else:
        call = [l.strip() for l in text.splitlines() if "O_WRONLY|O_CREAT|O_TRUNC" in l]
        print("web-lab-browser: up.c compiled by tcc and traced in %.1f s: %s" %
              (seen, call[0][:120] if call else ""))
    get("up.out", produced)
    # A name that is markup: the guest gets a plain one, the page shows it as text.
    hostile = "<i>x<b>.c"
    with open(os.path.join(work, hostile), "wb") as f:
        f.write(b"int x;\n")
    b.call("DOM.setFileInputFiles", {"nodeId": upload, "files": [os.path.join(work, hostile)]})
    line = status(b, "Uploaded", 60)
    tags = b.js("document.querySelectorAll('#file-status *, #env *, #progress *').length")
    if not line.startswith("Uploaded: /tmp/_i_x_b_.c, 7 bytes") or tags:
        bad("the upload of %s: %s (%s elements in the status lines)" % (hostile, line, tags))
    get("up.c", csrc)
    put("blob.bin")
    get("blob.bin", blob)
    # The run's own page (--export=html) out of the guest: its sha256sum there and here.
    b.js("window.lab.term.clear()")
    type_line(b, "clear; iobufviz --export=html 13-3 >13-3.html && sha256sum 13-3.html")
    m = wait_screen(b, r"([0-9a-f]{64})  13-3\.html", 300)
    if m is None:
        bad("no 13-3.html exported; the screen:\n" + (b.js(SCREEN) or ""))
    else:
        t1 = time.time()
        b.js("document.getElementById('get-name').value='13-3.html'")
        b.click("#download")
        line = status(b, "Downloaded", 120)
        got = downloaded(downloads, "13-3.html", 30)
        print("web-lab-browser: download 13-3.html (--export=html): %.1f s: %s" %
              (time.time() - t1, line))
        if got is None or hashlib.sha256(got).hexdigest() != m.group(1) or \
                not got.startswith(b"<!DOCTYPE html"):
            bad("the downloaded 13-3.html is not the guest's (sha256 %s): %s" %
                (m.group(1), line))
    b.js("document.getElementById('editor').open=true;"
         "document.getElementById('save-name').value='ed.c';"
         "document.getElementById('source').value='int main(void) { return 0; }\\n'")
    b.click("#save")
    line = status(b, "Saved", 60)
    if not line.startswith("Saved: /tmp/ed.c, 29 bytes"):
        bad("the editor's Save: %s" % line)
    b.js("document.getElementById('editor').open=false")
    print("web-lab-browser: files in and out: %.1f s" % (time.time() - t))
    b.screenshot(os.path.join(outdir, "web-lab-files.png"))

    # The TUI of 13-3, stepped with real key presses.
    t = time.time()
    b.js("window.lab.term.focus()")
    type_line(b, "clear; iobufviz 13-3")
    m = wait_screen(b, r"step (\d+)/(\d+)", 120)
    first = time.time() - t
    if m is None:
        bad("the TUI of 13-3 did not show its step count; the screen:\n" + (b.js(SCREEN) or ""))
    else:
        k = int(m.group(1))
        while k < 2 and m:
            b.key("n", "KeyN", 78)
            m = wait_screen(b, r"step %d/" % (k + 1), 120)
            k += 1
        if m is None:
            bad("n did not step the TUI to step %d; the screen:\n%s" % (k, b.js(SCREEN) or ""))
        else:
            print("web-lab-browser: the TUI of 13-3: up in %.1f s, \"step 2/\" at %.1f s" %
                  (first, time.time() - t))
        # The guest's locale is UTF-8 (C.UTF-8): the TUI draws its boxes with line drawing.
        screen = b.js(SCREEN) or ""
        lines = sum(screen.count(c) for c in "\u2500\u2502\u250c\u2510\u2514\u2518")
        print("web-lab-browser: the TUI's screen has %d line-drawing characters, %d '+'" %
              (lines, screen.count("+")))
        if lines < 80:
            bad("the TUI draws no Unicode boxes (the guest's locale is not UTF-8?); the "
                "screen:\n" + screen)
        layout_ok(b, "1280x800, the TUI running")
        b.screenshot(os.path.join(outdir, "web-lab-tui.png"))
    b.key("q", "KeyQ", 81)
    type_line(b, "echo back-$((6*7))")
    if wait_screen(b, r"back-42\s+lab:/tmp# ", 60) is None:
        bad("q did not bring the shell back; the screen:\n" + (b.js(SCREEN) or ""))
    print("web-lab-browser: the TUI of 13-3 and back to the shell: %.1f s" % (time.time() - t))

    # The crash lab on ext4: after step 1, x shows what a kill -9 and a power cut leave.
    t = time.time()
    type_line(b, "clear; iobufviz --crash-fs=ext4 crash-13-3")
    m = wait_screen(b, r"step (\d+)/(\d+)", 180)
    if m is None:
        bad("the TUI of crash-13-3 did not start; the screen:\n" + (b.js(SCREEN) or ""))
    else:
        if m.group(1) == "0":
            b.key("n", "KeyN", 78)
            m = wait_screen(b, r"step 1/", 180)
        b.key("x", "KeyX", 88)
        m = wait_screen(b, r"kill -9: the process dies[\s\S]*power cut: the device", 180)
        screen = b.js(SCREEN) or ""
        b.screenshot(os.path.join(outdir, "web-lab-crash.png"))
        if m is None:
            bad("x did not show both crashes; the screen:\n" + screen)
        else:
            # The popup's lines: from where its "kill -9:" starts, up to its border.
            rows = screen.splitlines()
            lines = []
            for i, l in enumerate(rows):
                for head in ("After step", "kill -9:", "power cut:"):
                    c = l.find(head)
                    if c < 0:
                        continue
                    for r in rows[i:i + (1 if head == "After step" else 3)]:
                        part = re.split(r"[|\u2502]", r[c:])[0].strip()
                        if part.strip("-\u2500"):
                            lines.append(part)
            print("web-lab-browser: crash-13-3 on ext4, x after step 1 in %.1f s:\n  %s" %
                  (time.time() - t, "\n  ".join(lines)))
        b.key("Escape", "Escape", 27)
        b.key("q", "KeyQ", 81)
        type_line(b, "echo back-$((7*7))")
        if wait_screen(b, r"back-49\s+lab:/tmp# ", 120) is None:
            bad("q did not end crash-13-3; the screen:\n" + (b.js(SCREEN) or ""))
    print("web-lab-browser: crash-13-3 and back to the shell: %.1f s" % (time.time() - t))
    shutil.rmtree(work, ignore_errors=True)
    for p in b.problems()[known:]:
        if "Content Security Policy" in p or "Refused" in p:
            bad("the CSP refused something: " + p)
        else:
            print("web-lab-browser: the console says: " + p[:200])

    # A phone, the same page resized: still 80 columns, a readable font (the terminal's box
    # scrolls sideways), and the guest's console told the new size (web/init's reader of
    # ttyS1 runs stty).
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
    print("web-lab-browser: 390x844: terminal %s, font %s px" % (geometry[:2], geometry[2]))
    if geometry[0] < 80 or geometry[1] < 24:
        bad("the terminal at 390x844 is %dx%d, under 80x24" % tuple(geometry[:2]))
    if geometry[2] < 12:
        bad("the terminal's font at 390x844 is %s px: too small to read" % geometry[2])
    layout_ok(b, "390x844")
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
    # The TUI on the phone: the header stays, the terminal fits under it.
    type_line(b, "clear; iobufviz 13-3")
    if wait_screen(b, r"step (\d+)/(\d+)", 120) is None:
        bad("the TUI of 13-3 did not start at 390x844; the screen:\n" + (b.js(SCREEN) or ""))
    else:
        layout_ok(b, "390x844, the TUI running")
    b.screenshot(os.path.join(outdir, "web-lab-390x844-tui.png"))
    b.key("q", "KeyQ", 81)

    # The cold boot (index.html#cold: the page's way when state.zst is missing or does not
    # load), timed to its shell; keys typed while it boots wait in the page and reach the
    # shell at its first prompt, in order. Not with --cold, whose page was cold already.
    if not cold:
        b.size(1280, 800)
        t = time.time()
        b.open(base + "index.html#cold")
        b.js("window.lab.term.focus()")
        early = "echo early-$((6*7))"
        for ch in early:
            code = ord(ch.upper()) if ch.isalnum() else 0
            b.key(ch, "Key" + ch.upper() if ch.isalpha() else ch, code)
        b.key("Enter", "Enter", 13)
        before = b.js("[window.lab.prompted, window.lab.how]")
        if before[0]:
            bad("the keys were typed after the cold boot's prompt: nothing checked")
        m = None
        while time.time() - t < limit:
            if b.js("window.lab.ready"):
                break
            time.sleep(0.2)
        cold_s = b.js("window.lab.bootSeconds")
        m = wait_screen(b, r"early-(\d+)", 60)
        print("web-lab-browser: cold boot (#cold, %s): the shell after %s s (target 15 s)%s" %
              (before[1], cold_s and "%.1f" % cold_s,
               "" if cold_s and cold_s <= 15 else ": OVER THE TARGET"))
        if not cold_s:
            bad("the cold boot had no shell after %d s" % limit)
        elif m is None or m.group(1) != "42":
            bad("keys typed during the cold boot did not reach its shell in order (%r); the "
                "screen:\n%s" % (early, b.js(SCREEN) or ""))
        else:
            print("web-lab-browser: keys typed during the cold boot ran at its shell: "
                  "\"%s\" printed early-42" % early)
    # With JavaScript off the page says it cannot start, not that it is loading.
    b.scripts(False)
    b.size(1280, 800)
    b.open(base + "index.html")
    shown = b.js("[document.body.innerText, getComputedStyle(document.getElementById("
                 "'progress')).display]")
    b.screenshot(os.path.join(outdir, "web-lab-nojs.png"))
    if "JavaScript off it cannot start" not in shown[0] or shown[1] != "none":
        bad("with JavaScript off the page does not say it cannot start: %r" % shown[0][:300])
    else:
        print("web-lab-browser: without JavaScript: the page says it cannot start")
finally:
    b.close()
    server.shutdown()
sys.exit(fail)
