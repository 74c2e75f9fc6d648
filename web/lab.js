// SPDX-License-Identifier: MIT
// web/lab.js: start Debian's i386 kernel in v86 and bridge its serial console (ttyS0) to an
// xterm.js terminal; say what the page is doing on the progress line. The guest comes from
// state.zst when the folder has it (tools/web-lab saved it: the kernel booted, init waiting
// for the page), else it boots cold (the kernel and initramfs, tens of seconds). Either way
// the page then sends "COLS ROWS EPOCH" on the second serial port (ttyS1, web/init reads it):
// the terminal's size and the clock; again whenever the window's size changes the terminal's.
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

	// The terminal: at least 80x24, larger when the window has room; the font shrinks to
	// fit 80 columns on a narrow screen (a phone) rather than cut the lines.
	const box = document.getElementById("terminal");
	// The window's width: the layout's (clientWidth), which a phone does not widen to the
	// terminal's as it does innerWidth once the terminal is wider than the screen.
	const geometry = () => {
		const view = document.documentElement;
		const width = Math.max(320, Math.min(window.innerWidth, view.clientWidth || 1e9) - 16);
		const height = Math.max(240, Math.min(window.innerHeight, view.clientHeight || 1e9) - 120);
		const fontSize = Math.max(5, Math.min(15, Math.floor(width / 80 / 0.62)));
		return {
			fontSize: fontSize,
			cols: Math.min(160, Math.max(80, Math.floor(width / (fontSize * 0.62)))),
			rows: Math.min(60, Math.max(24, Math.floor(height / (fontSize * 1.2)))),
		};
	};
	let g = geometry();
	const term = new Terminal({
		cols: g.cols, rows: g.rows, fontSize: g.fontSize, scrollback: 2000,
		screenReaderMode: true, cursorBlink: false,
		fontFamily: "'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace",
	});
	term.open(box);

	const hash = decodeURIComponent(window.location.hash.replace(/^#/, ""));
	const coldOnly = /^cold(&|$)/.test(hash);
	const rest = hash.replace(/^cold&?/, "");
	const run = rest.startsWith("run=") ? rest.slice(4) : "";

	// What both ways share (tools/web-lab-state.js and tests/web-lab-boot.js use the same:
	// a saved state restores only into the machine it was saved from).
	const machine = {
		wasm_path: "v86.wasm",
		memory_size: 512 * 1024 * 1024,
		vga_memory_size: 2 * 1024 * 1024,
		bios: { url: "bios.bin" },
		vga_bios: { url: "vgabios.bin" },
		acpi: false,
		uart1: true,
		autostart: false,
		disable_keyboard: true,
		disable_mouse: true,
		disable_speaker: true,
	};
	// The cold boot's kernel (tools/web-lab-state.js saves state.zst from the same): quiet,
	// the console on the first serial port; pnpbios=off and nomce skip probes that take
	// seconds under emulation; init_on_free=1 zeroes freed memory (the initramfs's compressed
	// image, ...), so that state.zst is 15 MB, not 22, and boots no slower.
	const cold = {
		bzimage: { url: "vmlinuz" },
		initrd: { url: "initrd.img" },
		cmdline: "console=ttyS0 quiet loglevel=3 pnpbios=off nomce rdinit=/init init_on_free=1",
	};

	const lab = {
		emulator: null, term: term, how: "", started: 0, bootSeconds: 0, ready: false, ran: "",
		fallback: "",
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
			lab.bootSeconds = (performance.now() - opened) / 1000;
			lab.times.ready = lab.bootSeconds;
			clearInterval(timer);
			clearTimeout(watchdog);
			say("Ready: a root shell on Linux 6.1 (i686), " + (lab.how === "restored"
				? "restored a booted Linux 6.1 in " : "booted in ") + lab.bootSeconds.toFixed(1) +
				" s" + (lab.fallback ? " (" + lab.fallback + ")" : "") +
				(run ? "; typing: " + run : ""), "ready");
			term.focus();
			return;
		}
		// Once ready, the first prompt is the moment to type #run's command.
		if (!run || lab.ran) return;
		tail = (tail + c).slice(-8);
		if (/# $/.test(tail)) {
			lab.ran = run;
			lab.emulator.serial0_send(run + "\n");
		}
	};

	const start = (how, state) => {
		lab.how = how;
		const emulator = new V86(Object.assign({}, machine, how === "cold" ? cold : {}));
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
		emulator.add_listener("emulator-loaded", async () => {
			if (how === "restored") {
				try {
					await emulator.restore_state(state);
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

	term.onData((d) => lab.emulator && lab.emulator.serial0_send(d));
	// A new window size (a phone turned, a window resized): the terminal's and the guest's.
	let resizing = 0;
	window.addEventListener("resize", () => {
		clearTimeout(resizing);
		resizing = setTimeout(() => {
			const n = geometry();
			if (n.cols === g.cols && n.rows === g.rows && n.fontSize === g.fontSize) return;
			g = n;
			term.options.fontSize = g.fontSize;
			term.resize(g.cols, g.rows);
			if (lab.ready) tell();
		}, 100);
	});

	say("Starting the emulator (v86)…");
	if (coldOnly) {
		lab.fallback = "#cold";
		start("cold");
	} else {
		fetchState().then((s) => start("restored", s), (e) => {
			lab.fallback = "no saved state: " + (e.message || e);
			start("cold");
		});
	}
})();
