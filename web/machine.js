// SPDX-License-Identifier: MIT
// web/machine.js: the lab's emulated PC, the one description the page (web/lab.js), the build's
// saved state (tools/web-lab-state.js) and the Node test (tests/web-lab-boot.js) start v86
// with: a saved state restores only into the machine it was saved from, and the cold boot's
// command line is the one the state was made with. A script in the page (window.labMachine),
// a module in Node (require("./machine.js") from the built folder).
//   labMachine.settings(file, wasm)  v86's settings for a restore: file(NAME) is how a file
//                                    of the folder is given to v86 ({ url } in the page, { buffer }
//                                    in Node), wasm the path of v86.wasm
//   labMachine.cold(file[, cmdline]) what a cold boot adds: the kernel, the initramfs, the
//                                    command line (labMachine.cmdline unless another is given);
//                                    file(NAME, SIZE) for these: NAME ends in .zst, SIZE is its
//                                    unpacked size (v86 unpacks it in the page; Node with zstd)
//   labMachine.cmdline               the page's cold boot's kernel command line
//   labMachine.saveCmdline           the one of the boot tools/web-lab saves state.zst from
"use strict";

(function (root) {
	// The cold boot's kernel command line: the console on the first serial port, quiet (every
	// line printed is an emulated UART's bytes); pnpbios=off, noisapnp and nomce skip probes
	// that take seconds under emulation; init_kprobe_trace (the kprobe events' tracefs files,
	// which iobufviz does not use) waits seconds for RCU under emulation. The crypto API's
	// self-tests (cryptomgr.notests; crypto_kdf108_init is only the KDF's self-test) and the
	// blktrace tracer's registration (init_blk_tracer; the block layer's tracepoints stay)
	// were 5 s of the kernel's 11 (initcall_debug): half the cold boot's instructions.
	const cmdline = "console=ttyS0 quiet loglevel=3 pnpbios=off noisapnp nomce rdinit=/init " +
		"cryptomgr.notests initcall_blacklist=init_kprobe_trace,init_blk_tracer,crypto_kdf108_init";
	// The boot the build saves state.zst from adds init_on_free=1: the kernel zeroes the memory
	// it frees (the initramfs's compressed image, dropped caches, ...), and v86 saves a state
	// without its zero pages: 15 MB, not 22, to fetch and unpack at every restore. A cold boot
	// does without: zeroing all 512 MiB at boot takes it seconds.
	const saveCmdline = cmdline + " init_on_free=1";

	const settings = (file, wasm) => ({
		wasm_path: wasm,
		memory_size: 512 * 1024 * 1024,
		vga_memory_size: 2 * 1024 * 1024,
		bios: file("bios.bin"),
		vga_bios: file("vgabios.bin"),
		acpi: false,
		uart1: true,
		autostart: false,
		disable_keyboard: true,
		disable_mouse: true,
		disable_speaker: true,
	});

	// The unpacked sizes of kernel.zst (Debian's bzImage, its kernel unpacked at build time) and
	// initrd.zst (the initramfs's cpio): tools/web-lab writes them here as it copies this file
	// into the folder.
	const unpacked = { kernel: 0, initrd: 0 };

	const cold = (file, line) => ({
		bzimage: file("kernel.zst", unpacked.kernel),
		initrd: file("initrd.zst", unpacked.initrd),
		cmdline: line || cmdline,
	});

	const api = { settings: settings, cold: cold, cmdline: cmdline, saveCmdline: saveCmdline };
	if (typeof module === "object" && module.exports) {
		module.exports = api;
	} else {
		root.labMachine = api;
	}
})(this);
