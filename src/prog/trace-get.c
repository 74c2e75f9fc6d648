/* SPDX-License-Identifier: MIT */
/* trace-get.c: what a traced run's owner may ask of it between steps (its streams, its
 * counters, whether its deadline passed) and the one hook it may set. */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "prog/streams.h"
#include "prog/trace.h"
#include "prog/trace-int.h"

/* The stdio streams of a traced process. */
int
prog_trace_stdio(struct prog_trace *t, pid_t pid, struct prog_stream *v, size_t max, size_t *n,
                 const char **why)
{
	struct pt_proc *p = prog_procs_find(t, pid);

	*n = 0;
	*why = NULL;
	if (p == NULL) {
		errno = ESRCH;
		return PROG_STREAMS_ERROR;
	}
	return prog_streams_scan(p->stdio, v, max, n, why);
}

/* A stream's name, by its process's reader. */
const char *
prog_trace_stream_name(struct prog_trace *t, pid_t pid, uint64_t file, int fd)
{
	struct pt_proc *p = prog_procs_find(t, pid);

	return prog_streams_name(p != NULL ? p->stdio : NULL, file, fd);
}

/* The program's pid. */
pid_t
prog_trace_pid(const struct prog_trace *t)
{
	return t->leader;
}

/* The counters. */
void
prog_trace_stats(const struct prog_trace *t, struct prog_stats *out)
{
	struct prog_srcloc_stats ss;

	*out = t->st;
	prog_srcloc_stats(t->src, &ss);
	out->walks = ss.walks;
	out->walks_saved = ss.remembered;
}

/* Whether the deadline passed. */
bool
prog_trace_timed_out(const struct prog_trace *t)
{
	return t->w.timed_out;
}

/* Call the hook at each entry. */
void
prog_trace_set_hook(struct prog_trace *t, prog_trace_hook *fn, void *ctx)
{
	t->hook = fn;
	t->hook_ctx = ctx;
}
