/* SPDX-License-Identifier: MIT */
/* prog/format.c: a traced program's step as a line, as the program wrote it. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "prog/trace.h"
#include "trace/calls.h"

/* One line for a step. */
char *
prog_trace_format(const struct prog_step *s, char *buf, size_t len)
{
	const struct call_row *c = s->kind == PROG_STEP_CALL ? calls_find((uint64_t)s->ev.nr) : NULL;
	char ev[256];

	switch (s->kind) {
	case PROG_STEP_CALL:
		/* A rename: the name it moved (when a plain one), and the path it moved it to. */
		if (c != NULL && (c->flags & CALL_NAMES) && s->ev.result == 0) {
			snprintf(buf, len, "[%d] %s(%s -> \"%s\") = 0", (int)s->pid, s->ev.call,
			         s->ev.name[0] ? s->ev.name : "...", s->path);
			break;
		}
		/* The open family and execve by the path they were given. */
		if (c != NULL && (c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
			if (s->ev.result < 0)
				snprintf(buf, len, "[%d] %s(\"%s\"%s%s) = -1 %s", (int)s->pid, s->ev.call,
				         s->path, s->ev.detail[0] ? ", " : "", s->ev.detail,
				         strerrorname_np(s->ev.err) ? strerrorname_np(s->ev.err) : "?");
			else
				snprintf(buf, len, "[%d] %s(\"%s\"%s%s) = %" PRId64, (int)s->pid,
				         s->ev.call, s->path, s->ev.detail[0] ? ", " : "", s->ev.detail,
				         s->ev.result);
		} else {
			snprintf(buf, len, "[%d] %s", (int)s->pid, event_format(&s->ev, ev, sizeof ev));
		}
		break;
	case PROG_STEP_STDIO:
		snprintf(buf, len, "[%d] %s(fd %d, %" PRIu64 ") = %" PRId64, (int)s->pid, s->func,
		         s->stdio_fd, s->size, s->ret);
		break;
	case PROG_STEP_EXIT:
		if (s->signal != 0)
			snprintf(buf, len, "[%d] killed by SIG%s%s", (int)s->pid,
			         sigabbrev_np(s->signal) ? sigabbrev_np(s->signal) : "?",
			         s->timed_out ? " (timeout)" : "");
		else
			snprintf(buf, len, "[%d] exited %d", (int)s->pid, s->exit_code);
		break;
	}
	return buf;
}
