/* SPDX-License-Identifier: MIT */
/* trace/peek.h: reading a traced process's memory (a path, an iovec array, a struct the call
 * filled in), or a recording of it in tests, the same way for both tracers. */
#ifndef IOBUFVIZ_PEEK_H
#define IOBUFVIZ_PEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Where memory is read from: a live process (peek_pid), or what a test recorded. */
struct peek {
	/* Copy up to len bytes at addr into buf: bytes copied (fewer at an unmapped page), or -1. */
	ssize_t (*read)(const struct peek *m, uint64_t addr, void *buf, size_t len);
	pid_t pid;                /* peek_pid's process */
	const void *user;         /* the reader's own data (a test's recording) */
};

/* A reader of process pid's memory (process_vm_readv, or PTRACE_PEEKDATA where refused). */
struct peek peek_pid(pid_t pid);

/* Exactly len bytes at addr into buf: true, or false (m NULL, addr 0, or unreadable). */
bool peek_read(const struct peek *m, uint64_t addr, void *buf, size_t len);

/* The NUL-terminated string at addr into buf (cut to len - 1; "" if unreadable). True if it
 * was read whole. */
bool peek_str(const struct peek *m, uint64_t addr, char *buf, size_t len);

#endif
