// SPDX-License-Identifier: MIT
// web/lab.js: boot Debian's i386 kernel in v86 and bridge its serial console (ttyS0) to an
// xterm.js terminal; say what the page is doing while it boots; with #run=COMMAND, type
// COMMAND into the shell once it is up. tests/web-lab.sh reads window.lab and the DOM.
"use strict";

(function () {
	const progress = document.getElementById("progress");
	const say = (text, cls) => {
		progress.textContent = text;
		progress.className = cls || "";
	};

	// The terminal: at least 80x24, larger when the window has room; the font shrinks to
	// fit 80 columns on a narrow screen (a phone) rather than cut the lines.
	const box = document.getElementById("terminal");
	const width = Math.max(320, window.innerWidth - 16);
	const height = Math.max(240, window.innerHeight - 120);
	const fontSize = Math.max(5, Math.min(15, Math.floor(width / 80 / 0.62)));
	const cols = Math.min(160, Math.max(80, Math.floor(width / (fontSize * 0.62))));
	const rows = Math.min(60, Math.max(24, Math.floor(height / (fontSize * 1.2))));
	const term = new Terminal({
		cols: cols, rows: rows, fontSize: fontSize, scrollback: 2000,
		screenReaderMode: true, cursorBlink: false,
		fontFamily: "'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace",
	});
	term.open(box);

	const hash = decodeURIComponent(window.location.hash.replace(/^#/, ""));
	const run = hash.startsWith("run=") ? hash.slice(4) : "";

	// The kernel: quiet, the console on the first serial port; pnpbios=off and nomce skip
	// probes that take seconds under emulation; lab.size tells init the terminal's size.
	const emulator = new V86({
		wasm_path: "v86.wasm",
		memory_size: 512 * 1024 * 1024,
		vga_memory_size: 2 * 1024 * 1024,
		bios: { url: "bios.bin" },
		vga_bios: { url: "vgabios.bin" },
		bzimage: { url: "vmlinuz" },
		initrd: { url: "initrd.img" },
		cmdline: "console=ttyS0 quiet loglevel=3 pnpbios=off nomce rdinit=/init lab.size=" +
			cols + "x" + rows,
		acpi: false,
		autostart: true,
		disable_keyboard: true,
		disable_mouse: true,
		disable_speaker: true,
	});

	const lab = { emulator: emulator, term: term, started: 0, bootSeconds: 0, ready: false, ran: "" };
	window.lab = lab;

	emulator.add_listener("download-progress", (e) => {
		const mb = (n) => (n / 1048576).toFixed(1);
		say("Fetching " + e.file_name.replace(/.*\//, "") + " (" + (e.file_index + 1) + " of " +
			e.file_count + ")" + (e.lengthComputable ? ": " + mb(e.loaded) + " of " + mb(e.total) +
			" MB" : ""));
	});
	emulator.add_listener("download-error", (e) => {
		say("Could not fetch " + e.file_name + ": the lab needs every file of its folder", "failed");
	});

	// Serial bytes are batched into one terminal write per task: a write per byte is slow.
	let pending = [];
	let cur = "";     // the serial line being received
	let status = "";  // init's last "lab: ..." line, shown on the progress line
	let tail = "";
	const flush = () => {
		if (pending.length) {
			term.write(Uint8Array.from(pending));
			pending = [];
		}
	};
	const ticker = () => {
		if (lab.ready) return;
		const s = ((performance.now() - lab.started) / 1000).toFixed(0);
		say("Booting Linux 6.1 (i686) in the emulator: " + s + " s" + (status ? ": " + status : ""));
	};
	let timer = 0;
	emulator.add_listener("emulator-started", () => {
		lab.started = performance.now();
		timer = setInterval(ticker, 500);
		ticker();
	});
	emulator.add_listener("serial0-output-byte", (b) => {
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
			if (l !== "lab: ready") return;
			lab.ready = true;
			lab.bootSeconds = (performance.now() - lab.started) / 1000;
			clearInterval(timer);
			say("Ready: a root shell on Linux 6.1 (i686), booted in " +
				lab.bootSeconds.toFixed(1) + " s" + (run ? "; typing: " + run : ""), "ready");
			term.focus();
			return;
		}
		// Once ready, the first prompt is the moment to type #run's command.
		if (!run || lab.ran) return;
		tail = (tail + c).slice(-8);
		if (/# $/.test(tail)) {
			lab.ran = run;
			emulator.serial0_send(run + "\n");
		}
	});

	term.onData((d) => emulator.serial0_send(d));
	say("Starting the emulator (v86)…");
})();
