/* SPDX-License-Identifier: MIT */
/* trace/event.c: the one decoder from a system call stop to an event, and lists of events. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "base/grow.h"
#include "base/text.h"
#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/event.h"
#include "trace/peek.h"

/* Read the offsets a copy takes by pointer while they are still the caller's. */
void
event_decode_entry(const struct call_row *c, struct decode_stop *s, const struct peek *m)
{
	s->ptr_off[0] = s->ptr_off[1] = -1;
	if (!(c->flags & CALL_OFF_PTR))
		return;
	for (int i = 0; i < 2; i++) {
		int arg = i == 0 ? c->off : c->off2;
		int64_t v;

		if (arg >= 0 && peek_read(m, s->args[arg], &v, sizeof v))
			s->ptr_off[i] = v;
	}
}

/* The argument of column col as a signed number, or none. */
static int64_t
event_arg(const struct decode_stop *s, int col, int64_t none)
{
	return col >= 0 ? (int64_t)s->args[col] : none;
}

/* Every field of the call from the table's columns, the detail from its decoder. */
void
event_decode(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
             struct event *e)
{
	memset(e, 0, sizeof *e);
	snprintf(e->call, sizeof e->call, "%s", c->name);
	e->nr = c->nr;
	e->fd = (int)event_arg(s, c->fd, -1);
	e->fd2 = (int)event_arg(s, c->fd2, -1);
	if (c->bytes == CALLS_RESULT)
		e->bytes = !s->is_error && s->rval > 0 ? (uint64_t)s->rval : 0;
	else
		e->bytes = (uint64_t)event_arg(s, c->bytes, 0);
	if (c->flags & CALL_OFF_PTR) {
		e->offset = c->off >= 0 ? s->ptr_off[0] : -1;
		e->offset2 = c->off2 >= 0 ? s->ptr_off[1] : -1;
	} else {
		e->offset = event_arg(s, c->off, -1);
		e->offset2 = event_arg(s, c->off2, -1);
	}
	e->length = event_arg(s, c->len, -1);
	e->addr = (uint64_t)event_arg(s, c->addr, 0);
	e->sync = (c->flags & CALL_SYNC) ||
	          ((c->flags & CALL_RWF) && (s->args[(int)c->flg] & (RWF_DSYNC | RWF_SYNC)));
	e->result = s->is_error ? -1 : s->rval;
	e->err = s->is_error ? (int)-s->rval : 0;
	if (c->path >= 0)
		decode_name(m, s->args[c->path], e->name, sizeof e->name);
	if (c->dec != NULL)
		c->dec(s, c->flg, m, e->detail, sizeof e->detail);
}

/* The flags of e's row (0 for a call not in the table). */
static unsigned
event_flags(const struct event *e)
{
	const struct call_row *c = calls_named(e->call);

	return c != NULL ? c->flags : 0;
}

/* True for calls that move file data out of a file. */
bool
event_is_read(const struct event *e)
{
	return (event_flags(e) & (CALL_READ | CALL_READ2)) != 0;
}

/* True for calls that move data into a file. */
bool
event_is_write(const struct event *e)
{
	return (event_flags(e) & (CALL_WRITE | CALL_WRITE2)) != 0;
}

/* True for calls that set the file offset. */
bool
event_is_seek(const struct event *e)
{
	return (event_flags(e) & CALL_SEEK) != 0;
}

/* True for calls that open a file by name (a new fd, not a copy of one: dup's shares an
 * offset). */
bool
event_is_open(const struct event *e)
{
	unsigned f = event_flags(e);

	return (f & CALL_PATH) && (f & CALL_NEWFD);
}

/* True for calls that ask for data to reach the disk. */
bool
event_is_sync(const struct event *e)
{
	return e->sync || (event_flags(e) & CALL_SYNC) != 0;
}

/* True for posix_fadvise(WILLNEED): it asks the kernel to read its range into the cache. The
 * advice is kept only as the decoder's name for it. */
bool
event_is_willneed(const struct event *e)
{
	return (event_flags(e) & CALL_ADVISE) != 0 &&
	       strcmp(e->detail, decode_advice(POSIX_FADV_WILLNEED)) == 0;
}

/* Append a copy of e, or only count it past EV_MAX. A copy from one file to another counts
 * as a read and as a write. */
int
event_list_add(struct event_list *l, const struct event *e)
{
	if (event_is_read(e)) {
		l->n_read++;
		if (e->result > 0)
			l->bytes_read += (uint64_t)e->result;
	}
	if (event_is_write(e)) {
		l->n_write++;
		if (e->result > 0)
			l->bytes_written += (uint64_t)e->result;
	}
	if (l->n >= EV_MAX) {
		l->dropped++;
		return 0;
	}
	if (l->n == l->cap) {
		struct event *v = grow(l->v, &l->cap, l->n, sizeof *v, 16);
		if (v == NULL)
			return -1;
		l->v = v;
	}
	l->v[l->n++] = *e;
	return 0;
}

/* Free the events and reset the list. */
void
event_list_clear(struct event_list *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* An offset: "@4096" (at), or as given where it may be negative (lseek's "-10"). */
static void
event_cat_offset(char *buf, size_t len, size_t *n, int64_t off, unsigned flags)
{
	if (off >= 0)
		text_cat(buf, len, n, "%s@%" PRId64, *n ? ", " : "", off);
	else if (flags & CALL_SEEK)
		text_cat(buf, len, n, "%s%" PRId64, *n ? ", " : "", off);
}

/* mmap's arguments in strace's order (address, length, prot, flags, fd, offset) into args. */
static void
event_cat_mmap(const struct event *e, char *args, size_t len, size_t *n)
{
	if (e->addr != 0)
		text_cat(args, len, n, "%#" PRIx64, e->addr);
	else
		text_cat(args, len, n, "NULL");
	text_cat(args, len, n, ", len=%" PRId64, e->length);
	if (e->detail[0] != '\0')
		text_cat(args, len, n, ", %s", e->detail);
	text_cat(args, len, n, ", %d, @%" PRId64, e->fd, e->offset >= 0 ? e->offset : 0);
}

/* The arguments of e (c: its row, or NULL) in strace's order into args: the fds as numbers,
 * sizes as numbers, offsets as @N, lengths as len=N. */
static void
event_cat_args(const struct event *e, const struct call_row *c, char *args, size_t len, size_t *n)
{
	unsigned f = c != NULL ? c->flags : 0;
	/* A copy's offsets follow their own fds (strace's order); others' follow the size. */
	bool pairs = c != NULL && c->fd2 >= 0 && c->off >= 0;

	if (c != NULL && c->addr >= 0 && e->addr != 0)
		text_cat(args, len, n, "%#" PRIx64, e->addr);
	else if (c != NULL && c->addr >= 0)
		text_cat(args, len, n, "NULL");
	/* open/openat name no fd: the file they name (a lesson's by its name, the scratch file
	 * unless another was seen; a traced program's name their path in detail). */
	if (e->fd < 0 && (f & CALL_PATH) && !(f & CALL_FD) && e->detail[0] != '"')
		text_cat(args, len, n, "%s%s", *n ? ", " : "", e->name[0] != '\0' ? e->name : "scratch");
	if (e->fd >= 0)
		text_cat(args, len, n, "%s%d", *n ? ", " : "", e->fd);
	if (pairs)
		event_cat_offset(args, len, n, e->offset, f);
	if (c != NULL && c->fd2 >= 0 && e->fd2 >= 0)
		text_cat(args, len, n, "%s%d", *n ? ", " : "", e->fd2);
	if (c != NULL && c->off2 >= 0)
		event_cat_offset(args, len, n, e->offset2, f);
	if (c != NULL ? c->bytes != CALLS_NONE : e->bytes > 0)
		text_cat(args, len, n, "%s%" PRIu64, *n ? ", " : "", e->bytes);
	if (!pairs)
		event_cat_offset(args, len, n, e->offset, f);
	if (c != NULL && c->len >= 0)
		text_cat(args, len, n, "%slen=%" PRId64, *n ? ", " : "", e->length);
	if (e->detail[0] != '\0')
		text_cat(args, len, n, "%s%s", *n ? ", " : "", e->detail);
}

/* "write(3, 4096) = 4096", "fsync(3) = 0", "read(3, 100) = -1 EINVAL": the arguments in
 * strace's order (mmap's too). */
char *
event_format(const struct event *e, char *buf, size_t len)
{
	const struct call_row *c = calls_named(e->call);
	unsigned f = c != NULL ? c->flags : 0;
	char args[200], who[24] = "";
	size_t n = 0;

	args[0] = '\0';
	if (f & CALL_MAP)
		event_cat_mmap(e, args, sizeof args, &n);
	else
		event_cat_args(e, c, args, sizeof args, &n);
	if (e->child)
		snprintf(who, sizeof who, "child: ");
	else if (e->run[0] != '\0')
		snprintf(who, sizeof who, "%.*s: ", (int)sizeof e->run, e->run);
	if (e->result < 0 && e->err != 0)
		snprintf(buf, len, "%s%s(%s) = -1 %s", who, e->call, args,
		         strerrorname_np(e->err) ? strerrorname_np(e->err) : "?");
	else if (f & CALL_MAP)
		snprintf(buf, len, "%s%s(%s) = %#" PRIx64, who, e->call, args, (uint64_t)e->result);
	else
		snprintf(buf, len, "%s%s(%s) = %" PRId64, who, e->call, args, e->result);
	return buf;
}
