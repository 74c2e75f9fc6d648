/* SPDX-License-Identifier: MIT */
/* trace/event.c: lists of system calls seen for the scratch file. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/event.h"

/* True for calls that move file data to the user. */
bool
event_is_read(const struct event *e)
{
	return strcmp(e->call, "read") == 0 || strcmp(e->call, "pread64") == 0 ||
	       strcmp(e->call, "readv") == 0 || strcmp(e->call, "preadv") == 0 ||
	       strcmp(e->call, "preadv2") == 0;
}

/* True for calls that move user data to the file. */
bool
event_is_write(const struct event *e)
{
	return strcmp(e->call, "write") == 0 || strcmp(e->call, "pwrite64") == 0 ||
	       strcmp(e->call, "writev") == 0 || strcmp(e->call, "pwritev") == 0 ||
	       strcmp(e->call, "pwritev2") == 0;
}

/* Append a copy of e, or only count it past EV_MAX. */
int
event_list_add(struct event_list *l, const struct event *e)
{
	if (event_is_read(e)) {
		l->n_read++;
		if (e->result > 0)
			l->bytes_read += (uint64_t)e->result;
	} else if (event_is_write(e)) {
		l->n_write++;
		if (e->result > 0)
			l->bytes_written += (uint64_t)e->result;
	}
	if (l->n >= EV_MAX) {
		l->dropped++;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct event *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			return -1;
		l->v = v;
		l->cap = cap;
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

/* "write(3, 4096) = 4096", "fsync(3) = 0", "read(3, 100) = -1 EINVAL". */
char *
event_format(const struct event *e, char *buf, size_t len)
{
	char args[160];
	size_t n = 0;

	args[0] = '\0';
	/* open/openat name no fd: they act on the scratch file by path (a traced program's
	 * name their path in detail). */
	if (e->fd < 0 && e->detail[0] != '"' &&
	    (strcmp(e->call, "openat") == 0 || strcmp(e->call, "open") == 0))
		n += snprintf(args + n, sizeof args - n, "scratch");
	if (e->fd >= 0)
		n += snprintf(args + n, sizeof args - n, "%d", e->fd);
	if (e->bytes > 0 || event_is_read(e) || event_is_write(e))
		n += snprintf(args + n, sizeof args - n, "%s%" PRIu64, n ? ", " : "", e->bytes);
	if (e->offset >= 0 && n < sizeof args)
		n += snprintf(args + n, sizeof args - n, "%s@%" PRId64, n ? ", " : "", e->offset);
	if (e->detail[0] != '\0' && n < sizeof args)
		snprintf(args + n, sizeof args - n, "%s%s", n ? ", " : "", e->detail);
	if (e->result < 0 && e->err != 0)
		snprintf(buf, len, "%s%s(%s) = -1 %s", e->child ? "child: " : "", e->call, args,
		         strerrorname_np(e->err) ? strerrorname_np(e->err) : "?");
	else
		snprintf(buf, len, "%s%s(%s) = %" PRId64, e->child ? "child: " : "", e->call, args,
		         e->result);
	return buf;
}
