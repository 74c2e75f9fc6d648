# SPDX-License-Identifier: MIT
# tests/html-check.py: iobufviz's web pages in a real browser (tests/html.sh runs it).
#   html-check.py CHROMIUM SCHEMA SHOTS walk PAGE [JSON]   step through every step
#   html-check.py CHROMIUM SCHEMA SHOTS marks PAGE [JSON]  the same, and some sentence of the
#                                                          run is marked unchecked with its reason
#   html-check.py CHROMIUM SCHEMA SHOTS hostile PAGE MARK   no byte of the run is markup
# Each mode also reads the page with JavaScript off (every step written in it); walk and marks
# ask a prediction and count the score, zoom for a projector, and check 13.5's origin marks.
# SCHEMA: doc/transcript.schema.json ("" when python3-jsonschema is missing: not validated);
# SHOTS: a directory for the screenshots. Prints "FAIL: ..." lines; exits 1 if any.
import base64
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

chromium, schema_path, shots, mode, page = sys.argv[1:6]
rest = sys.argv[6:]
failures = []


def bad(msg):
    failures.append(msg)
    print("FAIL: %s: %s" % (os.path.basename(page), msg))


def blocks(html):
    """The page's two data blocks, parsed: the transcript, the page's own data and each
    step's [origin marks, their legend, question]."""
    got = {}
    for name in ("transcript", "page"):
        m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % name, html, re.S)
        got[name] = json.loads(m.group(1)) if m else None
    if got["page"] is None:
        return got["transcript"], None, None
    return got["transcript"], got["page"][0], got["page"][1]


def shown(s, block=False):
    """A string as the page shows it (page.js's shown(): one line, or a block that keeps its
    newlines and tabs)."""
    return re.sub("[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]",
                  lambda m: m.group(0) if block and m.group(0) in "\n\t" else
                  "\\u%04x" % ord(m.group(0)), s)


def cell_kind(c):
    """page.js's class of a cache cell [cached, dirty, writeback]."""
    if c[2]:
        return "writeback"
    if c[1]:
        return "dirty"
    if c[0]:
        return "resident" if c[1] is None else "clean"
    return "absent"


def member(o, k):
    for p in k.split("."):
        o = o.get(p) if isinstance(o, dict) else None
    return o


# What the page shows of the step it is at, read from its DOM.
SEEN = """(function () {
  const q = (s) => Array.from(document.querySelectorAll(s));
  return {
    where: document.getElementById('where').textContent,
    hash: location.hash,
    current: q('#chips button[aria-current="step"]').map(b => Number(b.dataset.step)),
    nums: q('#main [data-k]').map(e => [e.closest('.pane').id, e.dataset.k, e.textContent]),
    log: q('#log tr.now td.text').map(e => e.textContent),
    expects: q('#expect li').map(e => [e.dataset.key, e.className]),
    program: q('#program li').map((e, n) => e.classList.contains('cur') ? n : -1).filter(n => n >= 0),
    cache: q('#cache .cells .cell').map(e => [e.dataset.kind, e.classList.contains('chg')]),
    disk: q('#disk .cell').map(e => [e.dataset.kind, e.classList.contains('chg')]),
    narration: document.getElementById('what').textContent,
    sentences: q('#narration .sentence').map(e => [e.textContent, e.classList[2]]),
    marks: q('#narration .mark').map(e => e.textContent),
    why: q('#narration .why').map(e => e.textContent),
    outputs: q('#stdio pre').map(e => e.textContent),
    call: document.getElementById('call').textContent,
    crash: q('#narration .crash p[data-half]').map(e => [e.dataset.half, e.dataset.exists,
                                                           e.dataset.size || null]),
    device: q('#disk .device').map(e => [Number(e.dataset.writes), Number(e.dataset.flushes)]),
    pause: q('#narration .pause').map(e => e.textContent),
  };
})()"""


def marked(sentences):
    """The reasons page.js shows under the sentences of a narration that are neither held nor
    background (not about the run: no reason to give)."""
    return ["[?%d] %s%s" % (n + 1, "false here: " if x["outcome"] == "false" else
                            "not observable here: ", shown(x["why"] or ""))
            for n, x in enumerate(x for x in sentences
                                  if x["outcome"] not in ("held", "background"))]


seen_marks = []


def check_step(b, t, p, i):
    """The page at step i shows step i of transcript t, and marks what changed."""
    st, n = t["steps"][i], len(t["steps"])
    s = b.js(SEEN)
    # Changes are marked against the previous step when it shows the same file.
    prev = t["steps"][i - 1]["state"] if i > 0 and \
        st.get("file") == t["steps"][i - 1].get("file") else None
    where = "step %d" % (i + 1)
    if s["where"] != "step %d/%d" % (i + 1, n):
        bad("%s: the bar says %r" % (where, s["where"]))
    if s["hash"] != "#step=%d" % (i + 1):
        bad("%s: the address ends in %r" % (where, s["hash"]))
    if s["current"] != [i]:
        bad("%s: the current step's button is %r" % (where, s["current"]))
    # Every number shown is the transcript's.
    seen = st["state"]["stdio"]["open"] or st["state"]["cache"]["source"] != "none"
    if seen and len(s["nums"]) < 3:
        bad("%s: only %d numbers shown" % (where, len(s["nums"])))
    for pane, k, text in s["nums"]:
        want = member(st["state"], k)
        if text != ("?" if want is None else str(want)):
            bad("%s: %s shows %s = %r, the transcript %r" % (where, pane, k, text, want))
    want_log = [shown(e["text"]) for e in st["events"]]
    if st["events"] and s["log"] != want_log:
        bad("%s: the log's calls %r, the transcript's %r" % (where, s["log"], want_log))
    want_x = [[x["key"], x["outcome"]] for x in st["expect"]]
    if s["expects"] != want_x:
        bad("%s: expectations %r, the transcript's %r" % (where, s["expects"], want_x))
    if p.get("program"):
        first, last = p["program"]["steps"][i]
        if s["program"] != list(range(first, last)):
            bad("%s: program lines %r marked, not %d..%d" % (where, s["program"], first, last - 1))
    elif s["program"] != [i]:
        bad("%s: the calls pane marks %r" % (where, s["program"]))
    if not s["call"].startswith("step %d" % (i + 1)) or shown(st["args"]) not in s["call"]:
        bad("%s: the call line is %r" % (where, s["call"]))
    say = st.get("say") or ""
    if st.get("sentences"):
        # Each sentence with its mark: held, unchecked (not observable here), false.
        want_s = [[shown(x["text"]), x["outcome"]] for x in st["sentences"]]
        if s["sentences"] != want_s:
            bad("%s: sentences %r, the transcript's %r" % (where, s["sentences"], want_s))
        # Each sentence not held: its mark after it, its reason below, as the TUI shows them.
        want_w = marked(st["sentences"])
        if s["marks"] != ["[?%d]" % (n + 1) for n in range(len(want_w))] or s["why"] != want_w:
            bad("%s: marks %r and reasons %r, the transcript's %r" % (where, s["marks"], s["why"],
                                                                    want_w))
        seen_marks.extend(want_w)
    elif say and shown(say.split("\n")[0][:40]) not in s["narration"]:
        bad("%s: the narration lacks %r" % (where, say[:40]))
    # What a pty or tail step printed, line by line as it was.
    want_o = [shown(st[k], True) for k in ("output", "output_file") if st.get(k) is not None]
    if s["outputs"] != want_o:
        bad("%s: outputs shown %r, the transcript's %r" % (where, s["outputs"], want_o))
    # Both crashes of a crash step (or of every step, with --crash-fs) as the transcript says.
    want_c = []
    for half in ("process", "power") if st.get("crash") else ():
        h = st["crash"][half]
        want_c.append([half, str(h["exists"]).lower() if h["observed"] else "unknown",
                       str(h["size"]) if h["observed"] and h["exists"] else None])
    if s["crash"] != want_c:
        bad("%s: crashes shown %r, the transcript's %r" % (where, s["crash"], want_c))
    # What the kernel did before the step (a crash lab's strays, a journal commit), as said.
    ps = st.get("pause") or {}
    want_p = ["Before this step, %s." % shown(ps["said"])] if ps.get("said") else []
    if s["pause"] != want_p:
        bad("%s: pause shown %r, the transcript's %r" % (where, s["pause"], want_p))
    dv = st.get("device")
    want_d = [[dv["writes"], dv["flushes"]]] if dv and st["state"]["disk"]["source"] != "none" \
        else []
    if s["device"] != want_d:
        bad("%s: device line %r, the transcript's %r" % (where, s["device"], want_d))
    # The grid's cells and the disk strip's, each changed one marked, and only those.
    kinds = [cell_kind(c) for c in st["state"]["cache"]["cells"]]
    before = [cell_kind(c) for c in prev["cache"]["cells"]] if prev else []
    want = [[k, j < len(before) and before[j] != k] for j, k in enumerate(kinds)]
    if st["state"]["cache"]["source"] != "none" and s["cache"] != want:
        bad("%s: cache cells %r, the transcript's %r" % (where, s["cache"], want))
    kinds = st["state"]["disk"].get("cells", [])
    before = prev["disk"].get("cells", []) if prev else []
    want = [[k, j < len(before) and before[j] != k] for j, k in enumerate(kinds)]
    if st["state"]["disk"]["source"] != "none" and s["disk"] != want:
        bad("%s: disk cells %r, the transcript's %r" % (where, s["disk"], want))


def validate(t):
    """The transcript in the page is a transcript (doc/transcript.schema.json)."""
    if not schema_path:
        return
    import jsonschema
    v = jsonschema.Draft202012Validator(json.load(open(schema_path)))
    for e in sorted(v.iter_errors(t), key=lambda e: list(e.absolute_path))[:5]:
        bad("the transcript in the page: /%s: %s" % ("/".join(map(str, e.absolute_path)),
                                                      e.message[:200]))


def same_run(t, j):
    """The page's transcript and --format=json's of the same lesson tell the same story."""
    def story(d):
        return [[s["op"], s["args"], [e["text"] for e in s["events"]],
                 [[x["key"], x["outcome"]] for x in s["expect"]]] for s in d["steps"]]
    if story(t) != story(j):
        bad("the page's run and --format=json's differ: %r vs %r" % (story(t), story(j)))


def colours(b, name):
    """Cached, dirty and writeback cells (and the disk's states) stay apart for readers
    who cannot tell red from green, or see no colour at all."""
    boxes = b.js("""(function () {
        document.getElementById('legend').scrollIntoView({block: 'center'});
        return Array.from(document.querySelectorAll('#legend .cell')).map(e => {
          const r = e.getBoundingClientRect();
          return [e.classList[1], Math.round(r.x), Math.round(r.y), Math.round(r.width),
                  Math.round(r.height)]; }); })()""")
    for vision in ("none", "deuteranopia", "protanopia", "achromatopsia"):
        w, h, px = b.pixels(vision)
        mean = {}
        for kind, x, y, bw, bh in boxes:
            inner = [px[yy][xx] for yy in range(y + 2, y + bh - 2) for xx in range(x + 2, x + bw - 2)
                     if 0 <= yy < h and 0 <= xx < w]
            if not inner:
                bad("%s: no pixels for the %s swatch" % (name, kind))
                return
            mean[kind] = [sum(c[k] for c in inner) / len(inner) for k in range(3)]
            # Grey level (BT.601) as a reader without colour sees it, and its spread: a
            # pattern has one.
            grey = [0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] for c in inner]
            avg = sum(grey) / len(grey)
            mean[kind].append(avg)
            mean[kind].append((sum((g - avg) ** 2 for g in grey) / len(grey)) ** 0.5)
        for group in (("clean", "dirty", "writeback", "absent"), ("on_disk", "no_block", "stale")):
            for a in group:
                for c in group:
                    if a >= c:
                        continue
                    # Apart by grey level or by pattern (its spread), not by hue alone.
                    dl = abs(mean[a][3] - mean[c][3])
                    ds = abs(mean[a][4] - mean[c][4])
                    if dl < 25 and ds < 12:
                        bad("%s, %s: %s and %s differ by hue only (grey %.0f vs %.0f, pattern "
                            "%.0f vs %.0f)" % (name, vision, a, c, mean[a][3], mean[c][3],
                                               mean[a][4], mean[c][4]))


def flat(s):
    """s with its runs of white space made one space (HTML text flows)."""
    return re.sub(r"\s+", " ", s).strip()


def nojs(b, t):
    """With JavaScript off the page is every step written out: the intro on top, then each
    step's call, narration (every sentence told), calls and expectations."""
    b.scripts(False)
    try:
        b.size(1280, 800)
        b.open("file://" + os.path.abspath(page))
        s = b.js("""(function () {
          const vis = (id) => { const e = document.getElementById(id);
                                return !!e && getComputedStyle(e).display !== 'none'; };
          const lesson = document.getElementById('lesson'), nav = document.getElementById('nav');
          return { text: document.body.innerText, main: vis('main'), steps: vis('steps'),
                   nsteps: document.querySelectorAll('#steps section.step').length,
                   first: lesson ? lesson.getBoundingClientRect().top : null,
                   top: !!lesson && !!(lesson.compareDocumentPosition(nav) & 4),
                   pwned: window.__pwned === undefined ? null : String(window.__pwned) }; })()""")
    finally:
        b.scripts(True)
    text = flat(s["text"])
    if s["pwned"] is not None:
        bad("no script: the page ran the run's script (window.__pwned = %s)" % s["pwned"])
    if s["main"] or not s["steps"]:
        bad("no script: the stepping panes are shown (%r) or the written steps not (%r)" %
            (s["main"], s["steps"]))
    if s["nsteps"] != len(t["steps"]):
        bad("no script: %d steps written, the run has %d" % (s["nsteps"], len(t["steps"])))
    sc = t["scenario"]
    if sc.get("intro") and not t.get("program"):
        if not s["top"] or s["first"] is None or s["first"] > 200:
            bad("no script: the lesson's question is not on top (at %r)" % s["first"])
        for line in sc["intro"].split("\n")[:3]:
            # Its first sentence: a background one after it is told inside "[background: ...]"
            # (every sentence of the intro is checked below, as told).
            line = line.split(". ")[0]
            if line.strip() and flat(shown(line)) not in text:
                bad("no script: the intro's %r is not shown" % line[:60])
    told = [x for x in (sc.get("intro_sentences") or []) if x["outcome"] != "false"]
    for st in t["steps"]:
        told += [x for x in (st.get("sentences") or []) if x["outcome"] != "false"]
        for e in st["events"]:
            if flat(shown(e["text"])) not in text:
                bad("no script: step %d's call %r is not shown" % (st["index"], e["text"]))
        for x in st["expect"]:
            if x["key"] not in text:
                bad("no script: step %d's expectation %s is not shown" % (st["index"], x["key"]))
    missing = [x["text"] for x in told if flat(shown(x["text"])) not in text]
    if missing:
        bad("no script: %d of %d sentences not shown: %r" % (len(missing), len(told), missing[:3]))
    # The steps' sentences shown (the intro's apart).
    return sum(1 for st in t["steps"] for x in st.get("sentences") or []
               if x["outcome"] != "false" and flat(shown(x["text"])) in text)


def printed(b, t, url):
    """On paper (print media, scripts on) the page is every step written out, not one."""
    b.size(1280, 800)
    b.open(url)
    b.call("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        s = b.js("[getComputedStyle(document.getElementById('steps')).display,"
                 " getComputedStyle(document.getElementById('main')).display,"
                 " document.querySelectorAll('#steps section.step').length]")
    finally:
        b.call("Emulation.setEmulatedMedia", {"media": ""})
    if s != ["block", "none", len(t["steps"])]:
        bad("print: written steps, stepping panes, steps: %r" % s)


def quiz(b, t, sd, url):
    """Predict, then see: stepping on into a step with a question asks it and hides the
    step; a wrong answer is told wrong with the run's value, a right one right; the score
    counts both."""
    qs = [i for i in range(1, len(t["steps"])) if sd[i][2]]
    if len(qs) < 2:
        return
    b.size(1280, 800)
    b.open(url + "#step=%d" % qs[0])
    state = """(function () { const a = document.getElementById('ask');
      return { ask: !a.hidden, main: getComputedStyle(document.getElementById('main')).display,
               q: document.getElementById('ask-q').textContent,
               where: document.getElementById('where').textContent,
               verdict: [document.getElementById('verdict').className,
                         document.getElementById('verdict').textContent],
               score: document.getElementById('score').textContent }; })()"""
    for k, i in enumerate(qs[:2]):
        if k:
            b.open(url + "#step=%d" % i)
            b.js("void 0")
        # The page opened at the step before: the next one asks first.
        b.key("ArrowRight", keycode=39)
        s = b.js(state)
        q = sd[i][2]
        if not s["ask"] or s["main"] != "none" or s["q"] != shown(q["question"]):
            bad("quiz: step %d is shown before its question is answered: %r" % (i + 1, s))
            return
        guess = q["answer"] + (1 if k == 0 else 0)
        b.js("document.getElementById('ask-in').value = '%d'" % guess)
        b.key("Enter", keycode=13)
        s = b.js(state)
        want = "wrong" if k == 0 else "right"
        if s["ask"] or s["where"] != "step %d/%d" % (i + 1, len(t["steps"])) or \
                s["verdict"][0] != want or str(q["answer"]) not in s["verdict"][1]:
            bad("quiz: step %d answered %d: %r" % (i + 1, guess, s))
        if k == 0 and s["score"] != "score 0/1":
            bad("quiz: after a wrong answer the score is %r" % s["score"])
    # A fresh page keeps no score: the second answer was on a page opened afresh.
    if s["score"] != "score 1/1":
        bad("quiz: after a right answer on a fresh page the score is %r" % s["score"])


def origins(b, t, sd, url):
    """13.5: where each step's pages came from marked on its cells, as many as the run's
    counts, with the legend's words."""
    for i, (cells, legend, _) in enumerate(sd):
        po = t["steps"][i].get("page_origins")
        if not po or not cells:
            continue
        b.open(url + "#step=%d" % (i + 1))
        s = b.js("""(function () { const q = (s) => document.querySelectorAll(s).length;
          return [q('#cache .cells .o-asked'), q('#cache .cells .o-ahead'), q('#cache .cells .o-before'),
                  Array.from(document.querySelectorAll('#cache ul.origins li')).map(e => e.textContent)];
          })()""")
        if t["steps"][i]["state"]["cache"]["pages_per_cell"] == 1 and \
                (s[0] != po["asked"] or s[1] != po["read_ahead"]):
            bad("step %d: %d cells marked asked and %d read ahead, the run's %d and %d" %
                (i + 1, s[0], s[1], po["asked"], po["read_ahead"]))
        if s[3] != [w for _, w in legend] or not any("read ahead" in w for w in s[3]):
            bad("step %d: the marks' legend %r" % (i + 1, s[3]))
        seen_origins.append(i)


seen_origins = []


def walk(b, t, p, j, sd):
    n = len(t["steps"])
    url = "file://" + os.path.abspath(page)
    said = nojs(b, t)
    if name == "13-3" and said != 11:
        bad("no script: %d sentences of 13-3 shown, not 11" % said)
    printed(b, t, url)
    quiz(b, t, sd, url)
    origins(b, t, sd, url)
    b.size(1280, 800)
    b.open(url)
    # Stepping by key through every step: no questions asked.
    b.click("#quiz-on")
    if b.js("document.getElementById('quiz-on').getAttribute('aria-pressed')") != "false":
        bad("the predict button does not turn the questions off")
    validate(t)
    if j is not None:
        same_run(t, j)
    want_w = marked(t["scenario"].get("intro_sentences") or [])
    got_w = b.js("Array.from(document.querySelectorAll('#intro .why')).map(e => e.textContent)")
    if got_w != want_w:
        bad("the intro's reasons %r, the transcript's %r" % (got_w, want_w))
    # Every step by the keyboard (right arrow and n), as a student would.
    for i in range(n):
        check_step(b, t, p, i)
        if i == 1:
            b.screenshot(os.path.join(shots, "%s-1280x800.png" % name))
        if i + 1 < n:
            b.key("ArrowRight" if i % 2 == 0 else "n", keycode=39 if i % 2 == 0 else 78)
    b.key("ArrowRight", keycode=39)
    if b.js("document.getElementById('where').textContent") != "step %d/%d" % (n, n):
        bad("past the last step, the page left it")
    b.key("Home", keycode=36)
    check_step(b, t, p, 0)
    b.key("End", keycode=35)
    check_step(b, t, p, n - 1)
    b.key("ArrowLeft", keycode=37)
    check_step(b, t, p, max(0, n - 2))
    b.key("p", keycode=80)
    check_step(b, t, p, max(0, n - 3))
    # By click: a step's button, a marked line of the program.
    k = min(2, n - 1)
    b.click('#chips button[data-step="%d"]' % k)
    check_step(b, t, p, k)
    k = n - 1
    b.click('#program li[data-step="%d"]' % k)
    check_step(b, t, p, k)
    # By its own address.
    k = min(3, n - 1)
    b.open(url + "#step=%d" % (k + 1))
    check_step(b, t, p, k)
    colours(b, name)
    # A phone: nothing wider than the screen.
    b.size(390, 844, mobile=True)
    b.open(url + "#step=2")
    check_step(b, t, p, min(1, n - 1))
    b.screenshot(os.path.join(shots, "%s-390x844.png" % name))
    sw = b.js("document.documentElement.scrollWidth")
    if sw > 390:
        bad("390x844: the page is %d pixels wide: it scrolls sideways" % sw)
    # A projector: no cell smaller than 24 px at 1920x1080; + and the button make it larger.
    b.size(1920, 1080)
    b.open(url + "#step=%d" % min(2, n))
    cell = "(function () { const c = document.querySelector('#main .cell');" \
        " return c ? c.getBoundingClientRect().width : null; })()"
    w0 = b.js(cell)
    b.screenshot(os.path.join(shots, "%s-1920x1080.png" % name))
    if w0 is not None and w0 < 24:
        bad("1920x1080: cells of %.1f px" % w0)
    b.key("+", keycode=187)
    b.click("#zoom-in")
    w1 = b.js(cell)
    if w0 is not None and (w1 is None or w1 < w0 * 1.4):
        bad("zoom: cells of %.1f px after + and A+ (from %.1f)" % (w1 or 0, w0))
    if b.js("document.documentElement.scrollWidth") > 1920:
        bad("zoom: the page scrolls sideways at 1920 px")


def hostile(b, t, mark):
    url = "file://" + os.path.abspath(page)
    nojs(b, t)
    b.size(1280, 800)
    b.open(url)
    n = len(t["steps"])
    for i in range(n):
        if i:
            b.key("ArrowRight", keycode=39)
        s = b.js("""(function () {
          const tags = new Set(Array.from(document.querySelectorAll('*')).map(e => e.localName));
          return { pwned: window.__pwned === undefined ? null : String(window.__pwned),
                   tags: Array.from(tags).sort(),
                   scripts: document.scripts.length,
                   text: document.body.innerText,
                   title: document.title,
                   where: document.getElementById('where').textContent }; })()""")
        where = "step %d" % (i + 1)
        if s["pwned"] is not None:
            bad("%s: the page ran the run's script (window.__pwned = %s)" % (where, s["pwned"]))
        foreign = set(s["tags"]) - {
            "html", "head", "meta", "title", "style", "body", "noscript", "header", "h1", "p",
            "dl", "nav", "div", "button", "span", "a", "ol", "li", "main", "section", "h2",
            "footer", "details", "summary", "ul", "table", "tbody", "tr", "td", "code", "dt",
            "dd", "script", "progress", "pre", "thead", "th", "h3", "h4", "b", "input"}
        if foreign:
            bad("%s: elements the page never makes: %s" % (where, sorted(foreign)))
        if s["scripts"] != 3:
            bad("%s: %d script elements (the page has 3)" % (where, s["scripts"]))
        if s["where"] != "step %d/%d" % (i + 1, n):
            bad("%s: the bar says %r" % (where, s["where"]))
        for c in "\u202e\u2066\u2028\u2029\u200f":
            if c in s["text"] or c in s["title"]:
                bad("%s: U+%04X reached the page's text as it is" % (where, ord(c)))
        if mark not in s["text"]:
            bad("%s: the run's text %r is not shown as text" % (where, mark))
    if "\\u202e" not in b.js("document.body.innerText"):
        bad("a bidi override is not shown as \\u202e")


def policy(html):
    """The policy's script and style hashes (made when iobufviz was built, mk/sha256b64.sh) are
    those of the page's one inline script and one style, byte for byte."""
    csp = re.search(r"script-src 'sha256-([^']+)'; style-src 'sha256-([^']+)'", html)
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    style = re.findall(r"<style>(.*?)</style>", html, re.S)
    if csp is None or len(script) != 1 or len(style) != 1:
        bad("no policy with one script and one style hash, or not one inline script and style")
        return
    for what, want, text in (("script", csp.group(1), script[0]), ("style", csp.group(2), style[0])):
        got = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        if got != want:
            bad("the policy's %s hash %s is not its SHA-256 %s" % (what, want, got))


b = cdp.Browser(chromium)
try:
    html = open(page, encoding="utf-8").read()
    policy(html)
    t, p, sd = blocks(html)
    name = os.path.splitext(os.path.basename(page))[0]
    if t is None or p is None:
        bad("no transcript or page data block")
    elif mode in ("walk", "marks"):
        walk(b, t, p, json.load(open(rest[0])) if rest else None, sd)
        if name.startswith("13.5") and len(seen_origins) < 3:
            bad("only %d steps' origin marks checked" % len(seen_origins))
        if mode == "marks" and not any(" not observable here: " in w and len(w) > 40
                                       for w in seen_marks):
            bad("no sentence is shown marked unchecked with its reason")
    else:
        hostile(b, t, rest[0])
    for msg in b.problems():
        bad("the browser said: %s" % msg[:300])
    own = "file://" + os.path.abspath(page)
    for u in b.requests():
        # Chromium's own filter for the simulated colour vision is a data: URL it loads.
        if u.startswith('data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"><filter '
                        'id="f"><feColorMatrix'):
            continue
        if u.split("#")[0] not in (own, "about:blank"):
            bad("a request for %s (the page must load nothing)" % u[:200])
finally:
    b.close()
print("%s: %s, %d failures" % (os.path.basename(page), mode, len(failures)))
sys.exit(1 if failures else 0)
