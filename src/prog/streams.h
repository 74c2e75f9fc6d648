/* SPDX-License-Identifier: MIT */
/* streams.h: read the stdio FILE objects of a glibc tracee from its memory. */
#ifndef IOBUFVIZ_PROG_STDIO_H
#define IOBUFVIZ_PROG_STDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How a stream buffers (from _flags). */
enum prog_stream_mode { PROG_STREAM_FULL, PROG_STREAM_LINE, PROG_STREAM_UNBUFFERED };

/* One FILE of the tracee. */
struct prog_stream {
	uint64_t addr;            /* the FILE* in the tracee */
	int fd;                   /* _fileno */
	unsigned flags;           /* _flags */
	enum prog_stream_mode mode;
	bool can_read, can_write; /* opened for reading / writing */
	bool putting;             /* _IO_CURRENTLY_PUTTING: the buffer holds output */
	uint64_t buf_size;        /* _IO_buf_end - _IO_buf_base (0: no buffer yet) */
	uint64_t pending;         /* _IO_write_ptr - _IO_write_base: what __fpending says */
	uint64_t read_ahead;      /* _IO_read_end - _IO_read_ptr: read but not yet consumed */
	uint64_t head_addr;       /* where the bytes it holds begin (pending, else read ahead) */
	uint64_t buf_base;        /* _IO_buf_base */
};

/* st as its flush (wrote) or refill of n bytes at buf leaves it once over (glibc moves its
 * pointers after the system call returns). */
void prog_streams_after_io(struct prog_stream *st, bool wrote, uint64_t buf, uint64_t n);

/* What prog_streams_scan found. */
enum prog_streams_result {
	PROG_STREAMS_OK = 0,        /* streams read */
	PROG_STREAMS_NOT_YET = 1,   /* a dynamic program whose libc is not mapped yet */
	PROG_STREAMS_HIDDEN = 2,    /* static or not glibc: only system calls can be seen */
	PROG_STREAMS_ERROR = -1,    /* the memory could not be read (errno) */
};

struct prog_streams;

/* A reader for process pid (finds its libc lazily, at the first scan). NULL on ENOMEM. */
struct prog_streams *prog_streams_new(pid_t pid);

/* Forget what was found (after an execve the process has another libc). */
void prog_streams_reset(struct prog_streams *s);

/*
 * Walk _IO_list_all's chain into v (at most max, newest first as glibc keeps them), *n
 * streams in the chain (more than max: call again with room for *n; at most
 * PROG_STREAMS_CHAIN_MAX). On HIDDEN or NOT_YET, *why (static storage) says why, e.g. "stdio: not
 * visible (static / not glibc), only system calls".
 */
int prog_streams_scan(struct prog_streams *s, struct prog_stream *v, size_t max, size_t *n,
                      const char **why);

/* The stream as a logged call c left it (shim/protocol.h's record of it, F_STATE) into *out. */
struct prog_mark_call;
void prog_streams_from_call(const struct prog_mark_call *c, struct prog_stream *out);

/* The first bytes (at most max) that stream st of pid holds, pending output or unread
 * input, into buf. Their number, 0 if none or unreadable. */
size_t prog_streams_head(pid_t pid, const struct prog_stream *st, void *buf, size_t max);

/* The stream whose buffer prog_streams_holds found, as a student can name it. */
struct prog_streams_owner {
	uint64_t file;            /* its FILE* (0: none) */
	const char *name;         /* as the program names it (prog_streams_name) */
	unsigned others;          /* the process's other streams on its fd (two fdopen of one fd,
	                             or stdout and an fdopen(1)) */
};

/* At most this many streams of a process are walked (a corrupt chain must not loop for
 * ever); past it, prog_streams_holds says PROG_STREAMS_TOO_MANY. */
#define PROG_STREAMS_CHAIN_MAX 4096

/* What prog_streams_holds found. */
enum prog_streams_hold { PROG_STREAMS_NOT_HELD, PROG_STREAMS_HELD, PROG_STREAMS_TOO_MANY };

/*
 * Whether a stream of s's process on fd has a buffer that holds [addr, addr + len): a system
 * call on those bytes is stdio's, whatever function (or macro: putc_unlocked) led to it;
 * *out is that stream (HELD). TOO_MANY: the process has more than PROG_STREAMS_CHAIN_MAX
 * streams (or its chain is broken), which are not looked through. The chain is kept between
 * calls: checked again in one read.
 */
enum prog_streams_hold prog_streams_holds(struct prog_streams *s, int fd, uint64_t addr, uint64_t len,
                                          struct prog_streams_owner *out);

/* The one stream of s's process on fd that has no buffer yet, into *out (the one stdio's
 * fstat sizes a buffer for). False when none or several (out->file 0; several: others is
 * how many but one). */
bool prog_streams_unallocated(struct prog_streams *s, int fd, struct prog_streams_owner *out);

/*
 * True if s's thread, stopped at an fstat with stack pointer sp, makes it
 * for stdio to size a new buffer (glibc's _IO_file_doallocate, at a stream's first I/O):
 * its return address is there. False when not, or when this glibc cannot say.
 */
bool prog_streams_allocating(struct prog_streams *s, uint64_t sp);

/* The FILE file on fd as a program names it: "stdin", "stdout", "stderr" when it is the one
 * libc made for that stream, else "fp"; by fd when s cannot tell (static, not glibc).
 * Static storage. */
const char *prog_streams_name(struct prog_streams *s, uint64_t file, int fd);

/* Free s. NULL is fine. */
void prog_streams_free(struct prog_streams *s);

#endif
