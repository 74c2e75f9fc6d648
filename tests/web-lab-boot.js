// SPDX-License-Identifier: MIT
// tests/web-lab-boot.js: start build-web/ (tools/web-lab) in v86 under Node as the page does
// (same files, same machine): restore its saved state (state.zst), or with --cold boot its
// kernel and initramfs with the page's command line; answer init's wait for the page on
// ttyS1 (80x24 and the clock); wait for "lab: ready" and the shell's prompt, type each command
// given, and wait for the text each must print. The text "@clock" stands for the guest's
// clock: the command must print "clock=SECONDS" (date +%s) within 60 s of the host's.
// Prints "web-lab-boot: ..." lines; exit 0 when every text came, 1 when not.
// Usage: node tests/web-lab-boot.js [--cold] DIR SECONDS [COMMAND EXPECTED]...
"use strict";
const fs = require("fs");
const path = require("path");
const args = process.argv.slice(2);
const cold = args[0] === "--cold";
if (cold) args.shift();
const [dir, seconds, ...pairs] = args;
const { V86 } = require(path.resolve(dir, "libv86.js"));
// A file of the folder; given its unpacked size (machine.js's kernel and initramfs), a .zst
// file unpacked with zstd, as v86 unpacks it in the page.
const file = (f, size) => {
	const b = size ? require("child_process").execFileSync("zstd", ["-dcq", path.join(dir, f)],
		{ maxBuffer: size + 1 }) : fs.readFileSync(path.join(dir, f));
	return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) };
};
// The page's machine and cold boot (web/machine.js, as the folder has it).
const machine = require(path.resolve(dir, "machine.js"));
// WEB_LAB_CMDLINE: another command line, to measure what an option saves.
const cmdline = process.env.WEB_LAB_CMDLINE || machine.cmdline;
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
// The guest's instructions so far, in millions: the work a boot takes, which a loaded host
// does not stretch as it does the seconds (v86's counter is 32 bits: read every 50 ms).
let ins = 0;
let ins32 = 0;
const minstr = () => {
	const n = emulator.get_instruction_counter();
	ins += (n - ins32 + 0x100000000) % 0x100000000;
	ins32 = n;
	return (ins / 1e6).toFixed(0) + "M instructions";
};
const settings = machine.settings(file, path.resolve(dir, "v86.wasm"));
if (cold) Object.assign(settings, machine.cold(file), { cmdline });
const emulator = new V86(settings);
const tell = () => emulator.serial_send_bytes(1,
	new TextEncoder().encode("80 24 " + Math.floor(Date.now() / 1000) + "\n"));
emulator.add_listener("emulator-loaded", async () => {
	if (!cold) {
		const state = file("state.zst").buffer;
		await emulator.restore_state(state);
		console.log("web-lab-boot: restored " + dir + "/state.zst (" +
			(state.byteLength / 1048576).toFixed(1) + " MB) at " + secs() + " s");
	}
	ins32 = emulator.get_instruction_counter();
	setInterval(minstr, 50).unref();
	emulator.run();
	if (!cold) tell();
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
const seen = (text) => {
	if (want !== "@clock") return text.includes(want);
	const c = text.match(/clock=(\d+)\r?\n/);
	if (!c) return false;
	const off = Number(c[1]) - Date.now() / 1000;
	console.log("web-lab-boot: the guest's clock is " + off.toFixed(0) + " s off the host's");
	if (Math.abs(off) > 60) {
		console.log("web-lab-boot: FAIL: the guest's clock is off by more than 60 s");
		process.exit(1);
	}
	return true;
};
let ready = false;
let waited = false;
emulator.add_listener("serial0-output-byte", (b) => {
	const c = String.fromCharCode(b);
	out += c;
	if (log !== null) fs.writeSync(log, c);
	if (!ready) {
		if (!waited && /lab: waiting for the page\r?\n/.test(out.slice(-40))) {
			waited = true;
			tell();
		}
		if (/lab: ready\r?\n[\s\S]*lab:[^\n]*# $/.test(out)) {
			ready = true;
			console.log("web-lab-boot: shell prompt at " + secs() + " s (" +
				(cold ? "cold boot" : "restored") + ", " + minstr() + ")");
			next();
		}
		return;
	}
	if (want !== null && seen(out.slice(from))) {
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
