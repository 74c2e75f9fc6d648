// SPDX-License-Identifier: MIT
// tools/web-lab-state.js: boot the lab folder's kernel and initramfs in v86 under Node once,
// as the page's cold boot does (web/machine.js: its machine, its command line with
// init_on_free=1 for a smaller state), until web/init says "lab: waiting for the page" (its
// modules loaded, /tmp's ext4 made, caches dropped, a read of ttyS1 the only thing left),
// let it settle, and write v86's save_state() to OUT
// (uncompressed: tools/web-lab compresses it with zstd, which v86's restore_state reads).
// Then, as the page's cold boot goes on, answer init on ttyS1 (80x24, the clock), wait for
// the shell and check it: i686, /tmp on ext4, the console 80x24 as sent ("the cold boot's
// shell: ..." is the cold path checked, which tests/web-lab.sh reads rather than boot cold
// again).
// Prints "web-lab-state: ..." lines; exit 0 saved and checked, 1 not.
// Usage: node tools/web-lab-state.js DIR OUT [SECONDS]
"use strict";
const fs = require("fs");
const path = require("path");
const [dir, out, seconds = "900"] = process.argv.slice(2);
const { V86 } = require(path.resolve(dir, "libv86.js"));
// A file of the folder; given its unpacked size (machine.js's kernel and initramfs), a .zst
// file unpacked with zstd, as v86 unpacks it in the page.
const file = (f, size) => {
	const b = size ? require("child_process").execFileSync("zstd", ["-dcq", path.join(dir, f)],
		{ maxBuffer: size + 1 }) : fs.readFileSync(path.join(dir, f));
	return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) };
};
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
// The page's machine and cold boot (web/machine.js, as the folder has it): a state restores only
// into the machine it was saved from.
const machine = require(path.resolve(dir, "machine.js"));
const emulator = new V86(Object.assign(machine.settings(file, path.resolve(dir, "v86.wasm")),
	machine.cold(file, machine.saveCmdline), { autostart: true }));
let line = "";
let console_ = "";
let saved = false;
let from = 0;
emulator.add_listener("serial0-output-byte", (b) => {
	const c = String.fromCharCode(b);
	console_ += c;
	if (saved) {
		const after = console_.slice(from);
		if (/lab: ready\r?\n[\s\S]*lab:[^\n]*# $/.test(after) && !after.includes("uname")) {
			emulator.serial0_send("uname -m; stat -f -c %T /tmp; stty size\n");
		} else if (/\ni686\r?\next2\/ext3\r?\n24 80\r?\n/.test(after)) {
			console.log("web-lab-state: the cold boot's shell at " + secs() +
				" s: i686, /tmp on ext4 (ext2/ext3), the console 80x24 as told");
			emulator.destroy();
			process.exit(0);
		}
		return;
	}
	if (c !== "\n") {
		line += c;
		return;
	}
	const l = line.replace(/\r/g, "").trim();
	line = "";
	if (l.startsWith("lab: ")) console.log("web-lab-state: " + secs() + " s: " + l);
	if (l !== "lab: waiting for the page") return;
	// Let init reach its read and the kernel its idle loop, then save.
	setTimeout(async () => {
		await emulator.stop();
		const state = await emulator.save_state();
		fs.writeFileSync(out, new Uint8Array(state));
		console.log("web-lab-state: saved " + (state.byteLength >> 20) + " MiB at " + secs() +
			" s (a cold boot in Node)");
		saved = true;
		from = console_.length;
		emulator.run();
		emulator.serial_send_bytes(1,
			new TextEncoder().encode("80 24 " + Math.floor(Date.now() / 1000) + "\n"));
	}, 3000);
});
setTimeout(() => {
	console.log("web-lab-state: FAIL: after " + seconds + " s " + (saved
		? "no shell in the cold boot that saved the state (i686, /tmp on ext4, 80x24)"
		: "no \"lab: waiting for the page\"") + "; the console's last lines:");
	console.log(console_.split("\n").slice(-25).join("\n"));
	process.exit(1);
}, seconds * 1000);
