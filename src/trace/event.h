/* SPDX-License-Identifier: MIT */
/* trace/event.h: one system call that reached the kernel for the scratch file. */
#ifndef IOBUFVIZ_EVENT_H
#define IOBUFVIZ_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call_row;
struct decode_stop;
struct peek;

/* Who made the call: the scenario's op itself, or stdio on its behalf. */
enum ev_origin { EV_DIRECT, EV_STDIO };

/* How the calls of a step were seen. */
enum ev_source {
	EV_SRC_PTRACE,  /* every call, from the tracer: exact count, order, sizes */
	EV_SRC_PROCIO,  /* /proc/PID/io diffs: only counts and totals (fallback) */
};

/* One system call: the same fields whichever tracer saw it (event_decode fills them). */
struct event {
	char call[24];        /* "write", "pwrite64", "openat", "fstat", "fadvise64", ... */
	long nr;              /* syscall number */
	int fd;               /* its fd argument, -1 if none */
	int fd2;              /* its second fd (copy_file_range's and splice's out, sendfile's
	                       * in, dup2's new), -1 if none */
	uint64_t bytes;       /* bytes to move (readv ...: moved, the result; 0 if not a transfer) */
	int64_t offset;       /* its offset argument for fd, -1 if none (lseek's may be negative) */
	int64_t offset2;      /* the offset for fd2, -1 if none */
	int64_t length;       /* the length of the range it acts on (fadvise64, sync_file_range,
	                       * fallocate, ftruncate's new size, mmap, msync), -1 if none */
	uint64_t addr;        /* the memory it acts on (mmap's hint, msync, munmap), 0 if none */
	bool sync;            /* it asks for its data to reach the disk before it returns: a
	                       * CALL_SYNC row (fsync ...), or by its own flags (pwritev2's
	                       * RWF_DSYNC, RWF_SYNC) */
	int64_t result;       /* return value; -1 on error */
	int err;              /* errno, 0 on success */
	uint64_t ns;          /* duration */
	bool ns_traced;       /* ns measured by the tracer: includes ptrace overhead */
	enum ev_origin origin;
	bool child;           /* made by a child of the program after fork (trace/tracer.c follows it) */
	char run[12];         /* which run of a step that runs its calls twice made it ("terminal",
	                       * "file": exercise 13-4's pty step); "" for the others */
	char detail[96];      /* its other arguments decoded: flags, advice names, ... */
	char name[48];        /* the file it names by path, when that is a name in the current
	                       * directory (a lesson's files: "scratch", "data.new"); "" if not */
};

/* At most this many events are kept per step; the rest are counted in dropped. */
#define EV_MAX 4096

/* The calls one step made. */
struct event_list {
	enum ev_source source;
	struct event *v;
	size_t n, cap;
	size_t dropped;       /* calls past EV_MAX: counted, not kept */
	/* Totals for the step, from /proc/PID/io (both sources fill them). */
	uint64_t syscr, syscw, rchar, wchar;
	uint64_t n_read, n_write;           /* read-like / write-like calls on the file */
	uint64_t bytes_read, bytes_written; /* their summed results */
};

/* Append a copy of e (counts it in the totals; past EV_MAX only counts). 0 or -1 (ENOMEM). */
int event_list_add(struct event_list *l, const struct event *e);

/* Free the events (the list itself is caller storage). */
void event_list_clear(struct event_list *l);

/* At a call's entry stop, into s: what its exit cannot tell (the offsets behind pointers). */
void event_decode_entry(const struct call_row *c, struct decode_stop *s, const struct peek *m);

/* The one decoder: the finished call s of row c as an event (every field but ns, ns_traced,
 * origin and child, which are the tracer's), its memory read through m (NULL: none). */
void event_decode(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
                  struct event *e);

/* True for calls that move file data out of a file (read, pread64, readv, ..., the copies). */
bool event_is_read(const struct event *e);

/* True for calls that move data into a file (write, pwrite64, writev, ..., the copies). */
bool event_is_write(const struct event *e);

/* True for posix_fadvise(POSIX_FADV_WILLNEED): it asks for its range to be read into the page
 * cache, in the background (offset and length say which bytes; length 0: to the end). */
bool event_is_willneed(const struct event *e);

/* True for calls that set the file offset of their fd (lseek): their result is the new one. */
bool event_is_seek(const struct event *e);

/* True for calls that open a file by its name: their result is a new fd at offset 0. */
bool event_is_open(const struct event *e);

/* True for calls that ask for data to reach the disk (fsync, fdatasync, sync_file_range,
 * msync, sync, syncfs; a pwritev2 with RWF_DSYNC or RWF_SYNC). */
bool event_is_sync(const struct event *e);

/* Format "write(3, 4096) = 4096", "pread64(3, 100, @8192) = 100", "fadvise64(3, @0, len=0,
 * POSIX_FADV_DONTNEED) = 0" (or "= -1 EINVAL") into buf, after "child: " or the run's name
 * ("terminal: write(1, 21) = 21"). Return buf. */
char *event_format(const struct event *e, char *buf, size_t len);

#endif
