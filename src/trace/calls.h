/* SPDX-License-Identifier: MIT */
/* trace/calls.h: the one table of the system calls we decode, shared by the lesson's tracer
 * (trace/tracer.c) and the program's (prog/trace.c), in the style of strace's syscallent.h:
 * which arguments are the fds, sizes and offsets, what the call is, and its decoder. */
#ifndef IOBUFVIZ_CALLS_H
#define IOBUFVIZ_CALLS_H

#include <linux/audit.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/decode.h"

#if defined(__x86_64__)
#define CALLS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CALLS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define CALLS_AUDIT_ARCH AUDIT_ARCH_I386
#else
/* Another arch: prog_trace_start refuses (its syscall numbers are not checked here). */
#define CALLS_AUDIT_ARCH 0
#endif

/* What a call is (strace's TD, TF, TM ...): code asks these, never a list of names. */
enum calls_flag {
	CALL_FD = 1u << 0,        /* takes an fd (column fd; fd2 a second one) */
	CALL_PATH = 1u << 1,      /* takes a path (column path) */
	CALL_EMPTY_PATH = 1u << 2, /* an fd call only with path "" and AT_EMPTY_PATH (in flg) */
	CALL_READ = 1u << 3,      /* moves file data out of fd (to memory, or to fd2) */
	CALL_WRITE = 1u << 4,     /* moves data into the file of fd (from memory, or from fd2) */
	CALL_READ2 = 1u << 5,     /* moves file data out of fd2 (sendfile: into fd) */
	CALL_WRITE2 = 1u << 6,    /* moves data into the file of fd2 (copy_file_range, splice) */
	CALL_SYNC = 1u << 7,      /* asks for data to reach the disk before it returns */
	CALL_ALL_FILES = 1u << 8, /* concerns every file, names none (sync) */
	CALL_ADVISE = 1u << 9,    /* tells the page cache what to keep or drop */
	CALL_RESIZE = 1u << 10,   /* changes the file's size or blocks (fallocate, ftruncate) */
	CALL_SEEK = 1u << 11,     /* sets the file position: its offset may be negative */
	CALL_STAT = 1u << 12,     /* tells about the file */
	CALL_MAP = 1u << 13,      /* maps a file into memory: the result is an address */
	CALL_MEM = 1u << 14,      /* acts on mapped memory at addr (msync, munmap) */
	CALL_NEWFD = 1u << 15,    /* its result is a new fd (fcntl: only for F_DUPFD*) */
	CALL_CLOSE = 1u << 16,    /* closes fd (close_range: fd to fd2) */
	CALL_CMD = 1u << 17,      /* what it does depends on the command in flg (fcntl) */
	CALL_ASYNC = 1u << 18,    /* submits I/O the tracer cannot see (io_uring) */
	CALL_EXEC = 1u << 19,     /* runs another program */
	CALL_EXIT = 1u << 20,     /* ends the process: no exit stop follows */
	CALL_MARK = 1u << 21,     /* prctl: the stdio shim's marker (shim/protocol.h) */
	CALL_OFF_PTR = 1u << 22,  /* off and off2 are pointers to the offsets (NULL: none) */
	CALL_RWF = 1u << 23,      /* flg holds RWF_* flags: RWF_DSYNC or RWF_SYNC ask for the
	                           * data to reach the disk before it returns (pwritev2) */
	CALL_NAMES = 1u << 24,    /* changes a name in a directory (rename: flg is the new one) */
};

/* Where an argument column says "none", and where bytes is the call's result (readv ...). */
#define CALLS_NONE (-1)
#define CALLS_RESULT (-2)

/* One call: which argument is what (an index 0-5, or CALLS_NONE), what it is, its decoder. */
struct call_row {
	long nr;
	const char *name;         /* as strace names it */
	signed char fd, fd2;      /* its fds */
	signed char path;         /* its path */
	signed char bytes;        /* how many bytes it moves (CALLS_RESULT: what it returns) */
	signed char off, off2;    /* the offsets of fd and fd2 */
	signed char len;          /* the length of the range it acts on */
	signed char addr;         /* the memory it acts on */
	signed char flg;          /* its flags, command, advice or whence: what dec shows */
	unsigned flags;           /* enum calls_flag */
	decode_fn *dec;           /* NULL: nothing beside the columns */
};

/* The rows, and how many. */
extern const struct call_row calls_table[];
extern const size_t calls_n;

/* At most this many (the program's seccomp filter is built in an array of that size). */
#define CALLS_MAX 64

/* The row of syscall nr, or NULL. */
const struct call_row *calls_find(uint64_t nr);

/*
 * The registers of call nr at its entry (a) made the arguments its row's columns name, in
 * place: on i386 a 64-bit offset or length passed in two registers (low, then high) becomes
 * one argument and those after it move down (pread64, _llseek, fadvise64_64, fallocate ...),
 * mmap2's offset in 4096-byte units becomes bytes. Nothing to do on x86_64 and aarch64.
 */
void calls_fold_args(uint64_t nr, uint64_t *a);

/* A call's result as the kernel gave it (rval, is_error) made the one the event keeps: on
 * i386 a 32-bit register, an address above 2 GiB is not negative. */
int64_t calls_fold_rval(int64_t rval, bool is_error);

/* The row of the call strace names name, or NULL. */
const struct call_row *calls_named(const char *name);

struct peek;

/* The fd call c (arguments a) acts on, or -1: it takes none, or a path beside it names
 * another file (newfstatat and statx act on the fd only with "" and AT_EMPTY_PATH). */
int calls_fd(const struct call_row *c, const uint64_t *a, const struct peek *m);

/* True if the finished call c (arguments a, result rval) made the new fd rval. */
bool calls_made_fd(const struct call_row *c, const uint64_t *a, int64_t rval, bool is_error);

#endif
