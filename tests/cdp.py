# SPDX-License-Identifier: MIT
# tests/cdp.py: a headless Chromium driven over the DevTools protocol on a pipe (no network,
# no npm): open a page offline, run script in it, press keys, size the window, take
# screenshots, and keep every console message, exception and request the page made.
import base64
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time


class Browser:
    """One Chromium with a fresh profile; close() kills it and removes the profile.
    loopback: pages served on 127.0.0.1 can be opened (else only file: and data:);
    extra: more command-line switches (a measurement's, e.g. --js-flags=...)."""

    def __init__(self, exe, loopback=False, extra=()):
        self.profile = tempfile.mkdtemp(prefix="cdp-profile.")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # The protocol's pipe: Chromium reads commands on fd 3, writes replies on fd 4
            # (kept open by pass_fds, which is applied after this).
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--disable-default-apps", "--mute-audio",
             # No name resolves and every request goes to a dead proxy: offline. With
             # loopback, 127.0.0.1 stays reachable (a page a test serves there), nothing else.
             "--host-resolver-rules=MAP * ~NOTFOUND" + (", EXCLUDE 127.0.0.1" if loopback else ""),
             "--proxy-server=127.0.0.1:9",
             # A page that computes (an emulator) is not slowed as a hidden tab would be.
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe"] + list(extra) +
            ["about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=fds, start_new_session=True)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")
        self.call("Network.emulateNetworkConditions",
                  {"offline": not loopback, "latency": 0, "downloadThroughput": -1,
                   "uploadThroughput": -1})

    def _read(self, timeout):
        """One message from Chromium, or None after timeout seconds."""
        end = time.monotonic() + timeout
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                return None
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe (exit %s)" % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=30):
        """Send a command; return its result (events that come first are kept)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            m = self._read(max(0.0, end - time.monotonic()))
            if m is None:
                raise RuntimeError("no reply to %s in %d s" % (method, timeout))
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method, timeout=30):
        """Wait for an event named method that has not been seen yet; return its params."""
        end = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == method and not e.get("seen"):
                    e["seen"] = True
                    return e["params"]
            m = self._read(max(0.0, end - time.monotonic()))
            if m is None:
                raise RuntimeError("no %s in %d s" % (method, timeout))
            if "method" in m:
                self.events.append(m)

    def size(self, w, h, mobile=False):
        """The viewport: w x h CSS pixels (a phone's when mobile)."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})

    def scripts(self, on):
        """Let the pages opened from now on run their scripts, or not (a reader with
        JavaScript off; the protocol's own evaluation still works)."""
        self.call("Emulation.setScriptExecutionDisabled", {"value": not on})

    def open(self, url):
        """Load url afresh (never as a jump within the page already open) and wait until it
        has loaded."""
        if not url.startswith("about:"):
            self.open("about:blank")
        for e in self.events:
            if e["method"] == "Page.loadEventFired":
                e["seen"] = True
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def js(self, expr):
        """The value of a JavaScript expression in the page (an exception raises)."""
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr[:80], r["exceptionDetails"]))
        return r["result"].get("value")

    def key(self, key, code=None, keycode=0):
        """Press and release a key (ArrowRight, Home, n, ...)."""
        base = {"key": key, "code": code or key, "windowsVirtualKeyCode": keycode}
        if len(key) == 1:
            self.call("Input.dispatchKeyEvent", dict(base, type="keyDown", text=key))
        else:
            self.call("Input.dispatchKeyEvent", dict(base, type="rawKeyDown"))
        self.call("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def click(self, selector):
        """A real mouse click at the middle of the element selector names."""
        box = self.js("(function(){const e=document.querySelector(%s);"
                      "e.scrollIntoView({block:'center'});const r=e.getBoundingClientRect();"
                      "return [r.x+r.width/2, r.y+r.height/2];})()" % json.dumps(selector))
        for t in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": t, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def screenshot(self, path):
        """A PNG of the viewport into path."""
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def pixels(self, vision="none"):
        """The viewport's pixels (png_pixels) as a reader with vision sees them: none,
        deuteranopia, protanopia, tritanopia or achromatopsia (Chromium's simulation)."""
        self.call("Emulation.setEmulatedVisionDeficiency", {"type": vision})
        try:
            data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        finally:
            self.call("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        return png_pixels(base64.b64decode(data))

    def problems(self):
        """Every console error or warning, uncaught exception and policy violation so far."""
        out = []
        for e in self.events:
            p = e["params"]
            if e["method"] == "Runtime.exceptionThrown":
                out.append("exception: %s" % p["exceptionDetails"].get("exception", {})
                           .get("description", p["exceptionDetails"].get("text")))
            elif e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning",
                                                                             "assert"):
                out.append("console.%s: %s" % (p["type"], [a.get("value", a.get("description"))
                                                           for a in p["args"]]))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append("log %s: %s" % (p["entry"]["source"], p["entry"]["text"]))
        return out

    def requests(self):
        """The URL of every request the page made."""
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]

    def close(self):
        """Kill Chromium (its whole process group is ours) and remove the profile."""
        try:
            os.write(self.to_chrome, json.dumps({"id": 0, "method": "Browser.close"}).encode()
                     + b"\0")
            self.proc.wait(timeout=10)
        except Exception:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels(data):
    """The width, height and rows of RGB(A) tuples of an 8-bit PNG (Chromium's screenshots)."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "PNG kind %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows
