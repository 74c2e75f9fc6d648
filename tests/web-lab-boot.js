// SPDX-License-Identifier: MIT
// tests/web-lab-boot.js: boot build-web/ (tools/web-lab) in v86 under Node, as the page does
// (same files, same kernel command line), and drive its serial console: wait for init's
// "lab: ready" and the shell's prompt, type each command given, and wait for the text each
// must print. Prints "web-lab-boot: ..." lines; exit 0 when every text came, 1 when not.
// Usage: node tests/web-lab-boot.js DIR SECONDS [COMMAND EXPECTED]...
"use strict";
const fs = require("fs");
const path = require("path");
const [dir, seconds, ...pairs] = process.argv.slice(2);
const { V86 } = require(path.resolve(dir, "libv86.js"));
const file = (f) => {
	const b = fs.readFileSync(path.join(dir, f));
	return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) };
};
// The page's command line, read from lab.js so that the two cannot drift apart.
const js = fs.readFileSync(path.join(dir, "lab.js"), "utf8");
const m = js.match(/cmdline: "([^"]*)"/);
// WEB_LAB_CMDLINE: another command line, to measure what an option saves.
const cmdline = process.env.WEB_LAB_CMDLINE || (m ? m[1] : "console=ttyS0 rdinit=/init") + "80x24";
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
const emulator = new V86({
	wasm_path: path.resolve(dir, "v86.wasm"),
	memory_size: 512 * 1024 * 1024,
	vga_memory_size: 2 * 1024 * 1024,
	bios: file("bios.bin"),
	vga_bios: file("vgabios.bin"),
	bzimage: file("vmlinuz"),
	initrd: file("initrd.img"),
	cmdline: cmdline,
	acpi: false,
	autostart: true,
	disable_keyboard: true,
	disable_mouse: true,
	disable_speaker: true,
});
let out = "";
let from = 0;
let want = null;
let step = -1;
const log = process.env.WEB_LAB_LOG ? fs.openSync(process.env.WEB_LAB_LOG, "w") : null;
function next() {
	step++;
	if (step * 2 >= pairs.length) {
		console.log("web-lab-boot: every command printed what it should, at " + secs() + " s");
		emulator.stop();
		process.exit(0);
	}
	const cmd = pairs[step * 2];
	want = pairs[step * 2 + 1];
	from = out.length;
	console.log("web-lab-boot: typing: " + cmd);
	emulator.serial0_send(cmd + "\n");
}
let ready = false;
emulator.add_listener("serial0-output-byte", (b) => {
	const c = String.fromCharCode(b);
	out += c;
	if (log !== null) fs.writeSync(log, c);
	if (!ready) {
		if (/lab: ready\r?\n[\s\S]*lab:[^\n]*# $/.test(out)) {
			ready = true;
			console.log("web-lab-boot: shell prompt at " + secs() + " s");
			next();
		}
		return;
	}
	if (want !== null && out.slice(from).includes(want)) {
		console.log("web-lab-boot: saw \"" + want + "\" at " + secs() + " s");
		want = null;
		// Wait for the prompt after it before the next command.
	}
	if (want === null && /lab:[^\n]*# $/.test(out.slice(-40))) next();
});
setTimeout(() => {
	console.log("web-lab-boot: FAIL: after " + seconds + " s " +
		(ready ? "no \"" + want + "\"" : "no shell prompt") + "; the console's last lines:");
	console.log(out.split("\n").slice(-25).join("\n"));
	process.exit(1);
}, seconds * 1000);
