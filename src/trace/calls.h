/* SPDX-License-Identifier: MIT */
/* calls.h: the system calls a traced program stops on, and how each concerns a file. */
#ifndef IOBUFVIZ_PROG_CALLS_H
#define IOBUFVIZ_PROG_CALLS_H

#include <linux/audit.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#define PROG_CALLS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PROG_CALLS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
/* Another arch: prog_trace_start refuses (its syscall numbers are not checked here). */
#define PROG_CALLS_AUDIT_ARCH 0
#endif

/* How a call concerns a file. */
enum pt_kind {
	PK_FD,       /* fd in argument .fd */
	PK_OPEN,     /* open/creat: path in arg 0, result is an fd */
	PK_OPENAT,   /* openat/openat2: path in arg 1 */
	PK_DUP,      /* dup/dup2/dup3/fcntl: may make a new fd from .fd */
	PK_CLOSE,
	PK_STATAT,   /* newfstatat/statx: an fd call only with AT_EMPTY_PATH and "" */
	PK_EXEC,
	PK_EXIT,     /* exit_group: no exit stop */
	PK_MARK,     /* prctl(PROG_MARK_OPTION, ...): the shim's marker */
};

/* One call the seccomp filter stops on: which argument is the fd, the size, the offset. */
struct prog_call {
	long nr;
	const char *name;         /* as strace names it */
	signed char fd, bytes, off;
	unsigned char kind;
};

/* The calls that stop the tracee (the seccomp filter is made from them); the rest run free. */
extern const struct prog_call prog_calls[];
extern const size_t prog_calls_n;

/* At most this many (the seccomp filter is built in an array of that size). */
#define PROG_CALLS_MAX 64

/* The table entry of syscall nr, or NULL. */
const struct prog_call *prog_calls_find(uint64_t nr);

#endif
