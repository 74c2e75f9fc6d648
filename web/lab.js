// SPDX-License-Identifier: MIT
// web/lab.js: start Debian's i386 kernel in v86 and bridge its serial console (ttyS0) to an
// xterm.js terminal; say what the page is doing on the progress line. The guest comes from
// state.zst when the folder has it (tools/web-lab saved it: the kernel booted, init waiting
// for the page), else it boots cold (the kernel and initramfs, tens of seconds). Either way
// the page then sends "COLS ROWS EPOCH" on the second serial port (ttyS1, web/init reads it):
// the terminal's size and the clock; again whenever the window's size changes the terminal's.
// Init answers on ttyS1 with what it runs on ("env RELEASE MACHINE CPUS ...": the #env line
// says it) and serves files of /tmp: "put NAME" and base64 lines up to an end of file (^D),
// "get NAME" (web/init's lab_control says the answers): the page's Upload, Download and editor
// controls (lab.put, lab.get). Nothing the guest sends reaches the page as markup: the page
// writes text (textContent) and files (a Blob, downloaded) only.
// #cold boots cold even with a saved state; #run=COMMAND (or #cold&run=COMMAND) types
// COMMAND into the shell once it is up. tests/web-lab.sh reads window.lab and the DOM.
"use strict";

(function () {
	const opened = performance.now();
	const progress = document.getElementById("progress");
	const say = (text, cls) => {
		progress.textContent = text;
		progress.className = cls || "";
	};

	// The terminal: at least 80x24, larger when the window has room. The font is never under
	// 13 px: on a narrow screen (a phone) the terminal stays 80 columns wide and its box
	// scrolls sideways (a full-screen lesson needs its 80 columns; 7 px text fits them on a
	// phone's screen but nobody reads it). Its rows fill the window's height under the
	// header and above the file controls' lines, so that the page itself does not scroll.
	const box = document.getElementById("terminal");
	const wide = document.getElementById("wide");
	const header = document.querySelector("header");
	const files = document.getElementById("files");
	const font = "'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace";
	// A character cell at size px: its width and height, as xterm.js measures it (a span).
	const cell = (px) => {
		const s = document.createElement("span");
		s.style.cssText = "position:absolute;visibility:hidden;white-space:pre;font-family:" +
			font + ";font-size:" + px + "px";
		s.textContent = "W".repeat(40);
		document.body.appendChild(s);
		const r = s.getBoundingClientRect();
		s.remove();
		return { w: r.width / 40 || px * 0.6, h: Math.ceil(r.height) || Math.ceil(px * 1.2) };
	};
	// The window's size: the layout's (clientWidth), which a phone does not widen to the
	// terminal's as it does innerWidth.
	const geometry = () => {
		const view = document.documentElement;
		// Less the box's margins and xterm.js's own scroll bar (its scrollback's).
		const width = Math.min(window.innerWidth, view.clientWidth || 1e9) - 48;
		const fontSize = Math.max(13, Math.min(15, Math.floor(width / 80 / 0.6)));
		const c = cell(fontSize);
		const cols = Math.min(160, Math.max(80, Math.floor(width / c.w)));
		// A box that scrolls sideways may show a scroll bar under the terminal, and #wide.
		const bar = cols * c.w > width ? 36 : 0;
		const height = Math.min(window.innerHeight, view.clientHeight || 1e9) -
			header.getBoundingClientRect().height - files.getBoundingClientRect().height -
			bar - 12;
		return {
			fontSize: fontSize,
			cols: cols,
			rows: Math.min(60, Math.max(24, Math.floor(height / c.h))),
			cut: cols * c.w > width,
		};
	};
	let g = geometry();
	const term = new Terminal({
		cols: g.cols, rows: g.rows, fontSize: g.fontSize, scrollback: 2000,
		screenReaderMode: true, cursorBlink: false, fontFamily: font,
	});
	term.open(box);
	// Only a terminal wider than the window scrolls sideways: else xterm.js's helpers (the
	// input's textarea at the cursor) stick out of it by a few pixels, and a scroll bar showed.
	const sideways = () => {
		wide.hidden = !g.cut;
		box.style.overflowX = g.cut ? "auto" : "hidden";
	};
	sideways();
	// The page scrolled down to the file controls comes back when the terminal takes the
	// focus, or changes size with it: its top rows would be under the header, which stays.
	const show = () => {
		const under = header.getBoundingClientRect().bottom - box.getBoundingClientRect().top;
		if (under > 0) window.scrollBy(0, -under);
	};
	box.addEventListener("focusin", show);

	const hash = decodeURIComponent(window.location.hash.replace(/^#/, ""));
	const coldOnly = /^cold(&|$)/.test(hash);
	const rest = hash.replace(/^cold&?/, "");
	const run = rest.startsWith("run=") ? rest.slice(4) : "";

	// The machine and the cold boot's kernel: web/machine.js, shared with tools/web-lab-state.js
	// (which saved state.zst from them) and tests/web-lab-boot.js.
	// A .zst file comes with its unpacked size: v86 unpacks it (the kernel and initramfs).
	const url = (f, size) => (size ? { url: f, size: size } : { url: f });
	const machine = labMachine.settings(url, "v86.wasm");
	const cold = labMachine.cold(url);

	const lab = {
		emulator: null, term: term, how: "", started: 0, bootSeconds: 0, ready: false,
		prompted: false, ran: "",
		fallback: "", env: null,
		// Seconds since the page opened: state.zst fetched, restored, the shell ready.
		times: { fetched: 0, restored: 0, ready: 0 },
	};
	window.lab = lab;
	const secs = () => ((performance.now() - opened) / 1000).toFixed(1);

	// The page's line to init on ttyS1: the terminal's size, the clock (seconds since 1970).
	const tell = () => {
		const line = g.cols + " " + g.rows + " " + Math.floor(Date.now() / 1000) + "\n";
		lab.emulator.serial_send_bytes(1, new TextEncoder().encode(line));
	};

	// Serial bytes are batched into one terminal write per task: a write per byte is slow.
	let pending = [];
	let cur = "";     // the serial line being received
	let status = "";  // init's last "lab: ..." line, shown on the progress line
	let tail = "";
	let timer = 0;
	let watchdog = 0;
	const flush = () => {
		if (pending.length) {
			term.write(Uint8Array.from(pending));
			pending = [];
		}
	};
	const ticker = () => {
		if (lab.ready) return;
		say((lab.how === "restored" ? "Restoring a booted Linux 6.1 (i686) in the emulator: "
			: "Booting Linux 6.1 (i686) in the emulator: ") + secs() + " s" +
			(lab.fallback ? " (" + lab.fallback + ")" : "") + (status ? ": " + status : ""));
	};
	const output = (b) => {
		if (pending.length === 0) setTimeout(flush, 0);
		pending.push(b);
		const c = String.fromCharCode(b);
		if (!lab.ready) {
			if (c !== "\n") {
				cur += c;
				return;
			}
			const l = cur.replace(/\r/g, "").trim();
			cur = "";
			if (l.startsWith("lab: ")) status = l.slice(5);
			if (l === "lab: waiting for the page") tell();
			if (l !== "lab: ready") return;
			lab.ready = true;
			// The cold boot ran on v86's interpreter (start's disable_jit): its code, from here
			// on, is the student's, compiled as in a restored guest.
			if (lab.how === "cold") lab.emulator.v86.cpu.set_jit_config(0, 0);
			lab.bootSeconds = (performance.now() - opened) / 1000;
			lab.times.ready = lab.bootSeconds;
			clearInterval(timer);
			clearTimeout(watchdog);
			const os = lab.env ? lab.env.name : "Linux";
			say("Ready: a root shell on " + os + ", " + (lab.how === "restored"
				? "restored a booted Linux in " : "booted in ") + lab.bootSeconds.toFixed(1) +
				" s" + (lab.fallback ? " (" + lab.fallback + ")" : "") +
				(run ? "; typing: " + run : ""), "ready");
			term.focus();
			return;
		}
		// Once ready, the first prompt is the moment to type #run's command, then what the
		// student typed before it.
		if (lab.prompted) return;
		tail = (tail + c).slice(-8);
		if (/# $/.test(tail)) {
			lab.prompted = true;
			if (run) {
				lab.ran = run;
				lab.emulator.serial0_send(run + "\n");
			}
			if (early) lab.emulator.serial0_send(early);
			early = "";
		}
	};

	// ttyS1, init's answers: one line at a time (web/init's lab_control).
	let line1 = "";
	let waiting = null;  // the request whose answer comes: { kind, name, resolve, reject, ... }
	const envLine = document.getElementById("env");
	const answer = (l) => {
		const w = l.split(" ");
		if (w[0] === "env" && w.length >= 4) {
			// "env 6.1.0-50-686 i686 1 ext2/ext3": Linux 6.1 (i686), one CPU.
			const version = (/^[0-9]+\.[0-9]+/.exec(w[1]) || [w[1]])[0];
			const cpus = Number(w[3]) || 0;
			lab.env = { release: w[1], machine: w[2], cpus: cpus,
				name: "Linux " + version + " (" + w[2] + ")" };
			envLine.textContent = lab.env.name + ", emulated in your browser: " +
				(cpus === 1 ? "one CPU" : cpus + " CPUs") + ", files on a RAM-backed disk; " +
				"times, the sweeps' too, are an emulator's, not hardware's.";
			envLine.className = "known";
			files.classList.remove("waiting");
			refit();
			return;
		}
		if (!waiting) return;
		const r = waiting;
		if (r.kind === "get" && r.parts) {
			if (l === "end") {
				waiting = null;
				let bytes;
				try {
					bytes = Uint8Array.from(atob(r.parts.join("")), (c) => c.charCodeAt(0));
				} catch (e) {
					r.reject(new Error("the guest's base64 did not decode"));
					return;
				}
				if (bytes.length !== r.size) {
					r.reject(new Error("got " + bytes.length + " bytes of " + r.size));
				} else {
					r.resolve(bytes);
				}
			} else {
				r.parts.push(l);
			}
			return;
		}
		if (w[1] !== r.name) return;
		if (r.kind === "put" && w[0] === "saved") {
			waiting = null;
			r.resolve(Number(w[2]));
		} else if (r.kind === "put" && w[0] === "notsaved") {
			waiting = null;
			r.reject(new Error("the guest could not write /tmp/" + r.name));
		} else if (r.kind === "get" && w[0] === "file") {
			r.size = Number(w[2]);
			r.parts = [];
		} else if (r.kind === "get" && w[0] === "nofile") {
			waiting = null;
			r.reject(new Error("no file /tmp/" + r.name + " in the guest"));
		}
	};
	const control = (b) => {
		if (b === 10) {
			const l = line1.replace(/\r/g, "");
			line1 = "";
			answer(l);
		} else if (line1.length < 4096) {
			line1 += String.fromCharCode(b);
		}
	};
	// One request at a time, in order (init serves ttyS1's lines one after another).
	let queue = Promise.resolve();
	const request = (kind, name, send) => {
		const p = queue.then(() => new Promise((resolve, reject) => {
			if (!lab.emulator || !lab.env) {
				reject(new Error("the guest is not up yet"));
				return;
			}
			waiting = { kind: kind, name: name, resolve: resolve, reject: reject };
			lab.emulator.serial_send_bytes(1, send);
		}));
		queue = p.catch(() => {});
		return p;
	};
	// A name init takes: letters, digits, . _ + -, not starting with a dot.
	const plainName = (n) => n.replace(/[^A-Za-z0-9._+-]/g, "_").replace(/^\.+/, "").slice(0, 100);
	const ascii = (t) => new TextEncoder().encode(t);
	// bytes (a Uint8Array) into the guest's /tmp/NAME: resolves with the size init wrote.
	lab.put = (name, bytes) => {
		let bin = "";
		for (let i = 0; i < bytes.length; i += 0x8000) {
			bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
		}
		const b64 = btoa(bin).replace(/.{76}/g, "$&\n");
		const tail = b64.length && !b64.endsWith("\n") ? "\n" : "";
		return request("put", name, ascii("put " + name + "\n" + b64 + tail + "\x04"));
	};
	// The guest's /tmp/NAME: resolves with its bytes.
	lab.get = (name) => request("get", name, ascii("get " + name + "\n"));
	lab.plainName = plainName;

	// The controls: Upload (a file of the student's into /tmp), Download (a file of /tmp out,
	// as a Blob), the editor (its text saved as /tmp/NAME). Shown once init answers.
	const fileStatus = document.getElementById("file-status");
	const note = (text, cls) => {
		fileStatus.textContent = text;
		fileStatus.className = cls || "";
	};
	const MAX = 1024 * 1024;
	const upload = document.getElementById("upload");
	upload.addEventListener("change", async () => {
		const f = upload.files[0];
		if (!f) return;
		const name = plainName(f.name);
		if (!name) {
			note("Upload: \"" + f.name + "\" has no name the guest takes", "failed");
			return;
		}
		if (f.size > MAX) {
			note("Upload: " + f.name + " is over 1 MiB: too slow through the serial line", "failed");
			return;
		}
		note("Uploading " + f.name + " to /tmp/" + name + " (" + f.size + " bytes)…");
		const t = performance.now();
		try {
			const n = await lab.put(name, new Uint8Array(await f.arrayBuffer()));
			note("Uploaded: /tmp/" + name + ", " + n + " bytes, in " +
				((performance.now() - t) / 1000).toFixed(1) + " s", "done");
			getName.value = name;
		} catch (e) {
			note("Upload failed: " + e.message, "failed");
		}
		upload.value = "";
	});
	const getName = document.getElementById("get-name");
	const download = async () => {
		const name = plainName(getName.value.trim().replace(/^\/tmp\//, ""));
		if (!name) {
			note("Download: name a file of /tmp (letters, digits, . _ + -)", "failed");
			return;
		}
		note("Fetching /tmp/" + name + " from the guest…");
		const t = performance.now();
		try {
			const bytes = await lab.get(name);
			const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
			const a = document.createElement("a");
			a.href = url;
			a.download = name;
			a.hidden = true;
			document.body.appendChild(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
			note("Downloaded: /tmp/" + name + ", " + bytes.length + " bytes, in " +
				((performance.now() - t) / 1000).toFixed(1) + " s", "done");
		} catch (e) {
			note("Download failed: " + e.message, "failed");
		}
	};
	document.getElementById("download").addEventListener("click", download);
	getName.addEventListener("keydown", (e) => {
		if (e.key === "Enter") download();
	});
	const source = document.getElementById("source");
	const saveName = document.getElementById("save-name");
	document.getElementById("save").addEventListener("click", async () => {
		const name = plainName(saveName.value.trim().replace(/^\/tmp\//, ""));
		if (!name) {
			note("Save: name the file (letters, digits, . _ + -)", "failed");
			return;
		}
		try {
			const n = await lab.put(name, new TextEncoder().encode(source.value));
			note("Saved: /tmp/" + name + ", " + n + " bytes: tcc " + name +
				" && iobufviz -- ./a.out", "done");
		} catch (e) {
			note("Save failed: " + e.message, "failed");
		}
	});

	// how: "restored" (state, a promise of state.zst's bytes, is fetched while v86 starts:
	// its wasm compiled, its BIOS loaded) or "cold".
	const start = (how, state) => {
		lab.how = how;
		// A cold boot runs on v86's interpreter, without its JIT until the shell (set_jit_config
		// at "lab: ready"): the JIT turns the boot's code, run once or a few times, into many
		// small wasm modules that Chromium compiles, then compiles again optimized on its pool
		// threads, 40 to 50 s of CPU taken from the guest on a 2-core VM; interpreted, the
		// whole boot took 25 s of CPU, not 70 (tools/web-lab-time.py, headless Chromium).
		const emulator = new V86(Object.assign({}, machine,
			how === "cold" ? Object.assign({ disable_jit: true }, cold) : {}));
		lab.emulator = emulator;
		emulator.add_listener("download-progress", (e) => {
			const mb = (n) => (n / 1048576).toFixed(1);
			say("Fetching " + e.file_name.replace(/.*\//, "") + " (" + (e.file_index + 1) + " of " +
				e.file_count + ")" + (e.lengthComputable ? ": " + mb(e.loaded) + " of " +
				mb(e.total) + " MB" : ""));
		});
		emulator.add_listener("download-error", (e) => {
			say("Could not fetch " + e.file_name + ": the lab needs every file of its folder",
				"failed");
		});
		emulator.add_listener("serial0-output-byte", output);
		emulator.add_listener("serial1-output-byte", control);
		emulator.add_listener("emulator-loaded", async () => {
			if (how === "restored") {
				let bytes;
				try {
					bytes = await state;
				} catch (e) {
					emulator.destroy();
					lab.fallback = "no saved state: " + (e.message || e);
					start("cold");
					return;
				}
				try {
					await emulator.restore_state(bytes);
					lab.times.restored = (performance.now() - opened) / 1000;
				} catch (e) {
					// A state another v86 or machine saved: boot cold instead.
					emulator.destroy();
					lab.fallback = "the saved state did not load: " + (e.message || e);
					start("cold");
					return;
				}
				// A guest that does not answer its page is not the lab: boot cold instead.
				watchdog = setTimeout(() => {
					if (lab.ready) return;
					emulator.destroy();
					lab.fallback = "the restored guest did not answer";
					term.reset();
					start("cold");
				}, 60000);
			}
			lab.started = performance.now();
			clearInterval(timer);
			timer = setInterval(ticker, 500);
			ticker();
			emulator.run();
			// The restored init waits in its read of ttyS1 already.
			if (how === "restored") tell();
		});
	};

	// The saved state, fetched here (not by v86) to tell its progress and fall back on a miss.
	const fetchState = async () => {
		const r = await fetch("state.zst");
		if (!r.ok) throw new Error("HTTP " + r.status);
		const total = Number(r.headers.get("Content-Length")) || 0;
		const reader = r.body.getReader();
		const parts = [];
		let got = 0;
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			parts.push(value);
			got += value.length;
			say("Fetching the booted Linux (state.zst): " + (got / 1048576).toFixed(1) +
				(total ? " of " + (total / 1048576).toFixed(1) : "") + " MB");
		}
		const buf = new Uint8Array(got);
		let at = 0;
		for (const p of parts) {
			buf.set(p, at);
			at += p.length;
		}
		lab.times.fetched = (performance.now() - opened) / 1000;
		return buf.buffer;
	};

	// Keys go to the guest's console once its shell has prompted: bytes that reach the serial
	// port before (the kernel booting, init at work) are dropped when the port opens or read
	// by whatever reads the console first; typed early, they wait here (up to 4 KiB).
	let early = "";
	term.onData((d) => {
		if (!lab.emulator) return;
		if (lab.prompted) {
			lab.emulator.serial0_send(d);
		} else if (early.length + d.length <= 4096) {
			early += d;
		}
	});
	// A new window size (a phone turned, a window resized) or header: the terminal's size
	// and the guest's.
	const refit = () => {
		const n = geometry();
		if (n.cols === g.cols && n.rows === g.rows && n.fontSize === g.fontSize) return;
		g = n;
		sideways();
		term.options.fontSize = g.fontSize;
		term.resize(g.cols, g.rows);
		// Not when the student types elsewhere (a phone's keyboard opening for the editor
		// resizes the window too).
		if (box.contains(document.activeElement)) show();
		if (lab.ready || lab.env) tell();
	};
	let resizing = 0;
	window.addEventListener("resize", () => {
		clearTimeout(resizing);
		resizing = setTimeout(refit, 100);
	});

	say("Starting the emulator (v86)…");
	if (coldOnly) {
		lab.fallback = "#cold";
		start("cold");
	} else {
		// Fetched while v86 starts; a miss is handled once v86 is up (start).
		const state = fetchState();
		state.catch(() => {});
		start("restored", state);
	}
})();
