/* SPDX-License-Identifier: MIT */
/* shim/log.c: the shim's log of a thread's stdio calls (shim/protocol.h): a call entered and
 * left, a run of like writes kept as one entry, the markers that stop the program. */
#undef _FORTIFY_SOURCE
#include <config.h>
#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim/protocol.h"
#include "shim/log.h"

/*
 * Each thread's log and call under way (the tracer reads them: initial-exec, so that the
 * address it is told is the thread's block for good).
 */
static __thread struct prog_mark_tls iobufviz_shim_tls __attribute__((tls_model("initial-exec")));

/* Make the marker system call prctl(PROG_MARK_OPTION, kind, value). */
static void
iobufviz_shim_mark(long kind, uintptr_t value)
{
	syscall(SYS_prctl, PROG_MARK_OPTION, kind, (long)value, 0L, 0L);
}

/* Tell the tracer where this thread's state is, with a log of its own. 0, or -1 (no log:
 * this thread's calls are not logged). */
static int
iobufviz_shim_hello(struct prog_mark_tls *t)
{
	if (t->log == 0) {
		void *log = mmap(NULL, PROG_MARK_LOG * sizeof(struct prog_mark_call),
		                 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (log == MAP_FAILED) {
			t->off = 1;
			return -1;
		}
		t->log = (uintptr_t)log;
	}
	t->written = t->read = 0;
	t->stop = 0;
	t->run.count = 0;
	t->magic = PROG_MARK_MAGIC;
	iobufviz_shim_mark(PROG_MARK_HELLO, (uintptr_t)t);
	return 0;
}

/* Copy the string s (cut to len - 1 bytes) into dst. */
static void
iobufviz_shim_str(char *dst, const char *s, size_t len)
{
	size_t n = s != NULL ? strnlen(s, len - 1) : 0;

	memcpy(dst, s != NULL ? s : "", n);
	dst[n] = '\0';
}

/*
 * Enter a wrapper of function id on stream f with arguments a, b (and the strings s1, s2
 * they name). Only the outermost call is a call of the program's (fputs called by a
 * wrapper, or a wrapper reached again from a signal handler, is not). Return whether this
 * call is logged; every enter has its leave.
 */
int
iobufviz_shim_enter_at(void *ra, void *frame, int id, FILE *f, long a, long b, const char *s1,
                       const char *s2)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	if (t->depth++ > 0 || t->off)
		return 0;
	if (t->magic != PROG_MARK_MAGIC && iobufviz_shim_hello(t) != 0)
		return 0;
	t->cur.seq++;
	t->cur.id = (uint16_t)id;
	t->cur.flags = 0;
	t->cur.file = (uintptr_t)f;
	t->cur.fd = f != NULL ? f->_fileno : -1;
	t->cur.a = a;
	t->cur.b = b;
	t->cur.caller = (uintptr_t)ra;
	t->cur.frame = (uintptr_t)frame;
	t->cur.up = 0;
	/* The same frame as a walk the tracer made from this call site: the word it found the
	 * caller's return address in is still this thread's stack (above this frame). */
	for (int i = 0; i < PROG_MARK_UPS; i++)
		if ((uintptr_t)ra > t->up[i].lo && (uintptr_t)ra <= t->up[i].hi &&
		    t->up[i].frame == (uintptr_t)frame && t->up[i].off < PROG_MARK_UP_MAX) {
			t->cur.up = *(const uintptr_t *)((const char *)frame + t->up[i].off);
			t->cur.up_off = (uint32_t)t->up[i].off;
			break;
		}
	iobufviz_shim_str(t->cur.str, s1, sizeof t->cur.str);
	iobufviz_shim_str(t->cur.str2, s2, sizeof t->cur.str2);
	return 1;
}

/* The state of stream f after the call into the entry c. */
static void
iobufviz_shim_state(struct prog_mark_call *c, FILE *f)
{
	uint64_t at, n;

	c->fd = f->_fileno;
	c->st_flags = (uint32_t)f->_flags;
	c->buf_base = (uintptr_t)f->_IO_buf_base;
	c->buf_end = (uintptr_t)f->_IO_buf_end;
	c->write_base = (uintptr_t)f->_IO_write_base;
	c->write_ptr = (uintptr_t)f->_IO_write_ptr;
	c->read_ptr = (uintptr_t)f->_IO_read_ptr;
	c->read_end = (uintptr_t)f->_IO_read_end;
	n = prog_mark_head(c->st_flags, c->write_base, c->write_ptr, c->read_ptr, c->read_end, &at);
	if (n > PROG_HEAD_MAX)
		n = PROG_HEAD_MAX;
	memcpy(c->head, (const void *)(uintptr_t)at, n);
	c->head_len = (uint8_t)n;
	c->flags |= PROG_MARK_F_STATE;
}

/* Put the call c in the log (waiting for the tracer when it is full). The entry, or NULL
 * (no tracer reads the log: logging is now off). */
static struct prog_mark_call *
iobufviz_shim_put(struct prog_mark_tls *t, const struct prog_mark_call *c)
{
	struct prog_mark_call *e;

	if (t->written - t->read >= PROG_MARK_LOG) {
		iobufviz_shim_mark(PROG_MARK_FULL, 0);
		if (t->written - t->read >= PROG_MARK_LOG) {
			t->off = 1;        /* no tracer reads it */
			return NULL;
		}
	}
	e = &((struct prog_mark_call *)(uintptr_t)t->log)[t->written % PROG_MARK_LOG];
	memcpy(e, c, sizeof *e);
	__atomic_store_n(&t->written, t->written + 1, __ATOMIC_RELEASE);
	return e;
}

/* Whether the call c is the next of a run (shim/protocol.h, prog_mark_tls.run) after the
 * call before it, last: all alike but for its seq, the bytes it added to the buffer and the
 * word its caller's return address may be in (up: a caller called from two lines). */
static int
iobufviz_shim_joins(const struct prog_mark_call *last, const struct prog_mark_call *c)
{
	return last->count < PROG_MARK_RUN && c->seq == last->seq + 1 && c->id == last->id &&
	       ((c->flags ^ last->flags) & ~PROG_MARK_F_UPS) == 0 && (c->flags & PROG_MARK_F_STATE) &&
	       !(c->flags & PROG_MARK_F_CALLS) && c->file == last->file && c->fd == last->fd &&
	       c->a == last->a && c->b == last->b && c->size == last->size && c->size > 0 &&
	       c->ret == last->ret && c->caller == last->caller && c->frame == last->frame &&
	       c->up_off == last->up_off && c->st_flags == last->st_flags &&
	       c->buf_base == last->buf_base && c->buf_end == last->buf_end &&
	       c->write_base == last->write_base && c->write_ptr == last->write_ptr + c->size &&
	       c->read_ptr == last->read_ptr && c->read_end == last->read_end &&
	       strcmp(c->str, last->str) == 0 && strcmp(c->str2, last->str2) == 0;
}

/*
 * Leave a wrapper: log the call (if logged) with the stream it left (f: the new one for
 * fopen; NULL for fclose, whose FILE is gone), the bytes moved, its result, and the string
 * literal it wrote (NULL: none); stop the program if the tracer asked to (the call made
 * system calls). A write like the one before it joins its run instead. errno is the call's.
 */
void
iobufviz_shim_leave(int logged, FILE *f, uint64_t size, int64_t ret, const char *literal)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;
	struct prog_mark_call c;
	const struct prog_mark_call *last;
	int e = errno;

	t->depth--;
	if (!logged)
		return;
	memcpy(&c, &t->cur, offsetof(struct prog_mark_call, head));
	if (f != NULL)
		c.file = (uintptr_t)f;
	c.count = 1;
	c.size = size;
	c.ret = ret;
	c.head_len = 0;
	if (f != NULL && c.id != PROG_MARK_FUNC_fclose)
		iobufviz_shim_state(&c, f);
	if (literal != NULL) {
		c.flags |= PROG_MARK_F_LITERAL;
		iobufviz_shim_str(c.str, literal, sizeof c.str);
	}
	if (t->stop)
		c.flags |= PROG_MARK_F_CALLS;
	/* The call before: the run going on, else the last one logged. */
	last = t->run.count > 0 ? &t->run :
	       t->written > 0 ? &((const struct prog_mark_call *)(uintptr_t)t->log)[
	                                (t->written - 1) % PROG_MARK_LOG] : NULL;
	if (last != NULL && prog_mark_class_put(c.id) && iobufviz_shim_joins(last, &c)) {
		/* count 0 while it changes: a stop in between (a signal) sees no run. */
		uint32_t n = t->run.count + 1;
		__atomic_store_n(&t->run.count, 0, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		c.count = 0;
		if (n > 1 && ((t->run.flags & PROG_MARK_F_UPS) || t->run.up != c.up))
			c.flags |= PROG_MARK_F_UPS;
		memcpy(&t->run, &c, offsetof(struct prog_mark_call, head) + c.head_len);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&t->run.count, n, __ATOMIC_RELAXED);
		errno = e;
		return;
	}
	if (t->run.count > 0) {
		if (iobufviz_shim_put(t, &t->run) == NULL) {
			errno = e;
			return;
		}
		t->run.count = 0;
	}
	if (iobufviz_shim_put(t, &c) != NULL && t->stop) {
		t->stop = 0;
		iobufviz_shim_mark(PROG_MARK_AFTER, (uintptr_t)c.seq);
	}
	errno = e;
}

/* exit() runs the atexit handlers, then flushes every stream: mark where that begins. The
 * handler is registered when the shim is loaded, before main, so it runs after the
 * program's own handlers (they run last registered first). What the program logged before
 * is read at this stop. */
void
iobufviz_shim_exit(void)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	if (t->depth++ > 0 || t->off)
		return;
	if (t->magic != PROG_MARK_MAGIC && iobufviz_shim_hello(t) != 0)
		return;
	t->cur.seq++;
	t->cur.id = PROG_MARK_EXIT_ID;
	t->cur.caller = 0;        /* called by exit(): the tracer walks the stack to its caller */
	t->cur.frame = 0;
	t->cur.up = 0;
	t->cur.file = 0;
	t->cur.fd = -1;
	iobufviz_shim_mark(PROG_MARK_EXIT, 0);
}

/* After fork, in the child: its log is its own, and its address is told again. */
void
iobufviz_shim_forked(void)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	t->magic = 0;
	t->written = t->read = 0;
	t->stop = 0;
	t->run.count = 0;
	memset(t->up, 0, sizeof t->up);
}
