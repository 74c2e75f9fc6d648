/* SPDX-License-Identifier: MIT */
/* trace-event.c: a traced call, finished, as a step (its event, its file), and the fd table
 * kept in step with it. */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "base/units.h"
#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/event.h"
#include "trace/peek.h"
#include "prog/fds.h"
#include "prog/trace.h"
#include "prog/trace-int.h"

/* The step of a finished call (see prog/trace.h). */
void
prog_trace_event(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
                 struct prog_step *out)
{
	memset(out, 0, sizeof *out);
	out->kind = PROG_STEP_CALL;
	out->stdio_fd = -1;
	event_decode(c, s, m, &out->ev);
}

/* Fill out from the finished call of p (leader: the program's first process). */
void
pt_fill_event(struct pt_proc *p, pid_t leader, const struct timespec *now, struct prog_step *out)
{
	const struct call_row *c = p->call;
	struct peek m = peek_pid(p->pid);

	prog_trace_event(c, &p->stop, &m, out);
	out->pid = p->pid;
	out->ev.ns = units_ns_between(&p->t0, now);
	out->ev.ns_traced = true;
	out->ev.origin = p->in_stdio || p->unseen ? EV_STDIO : EV_DIRECT;
	out->unseen_of = p->unseen_of;
	if (!p->unseen)
		out->unseen_of.file = 0;
	out->unseen_buf = p->unseen_buf;
	out->unchecked = p->unchecked;
	/* A call of any process but the first is a child's, as the lesson's tracer marks it (a
	 * thread's is the program's own). */
	out->ev.child = p->tgid != leader;
	if ((c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
		/* The path first, as strace shows it: the program's opens name their files. */
		char q[48], fl[sizeof out->ev.detail];
		snprintf(fl, sizeof fl, "%s", out->ev.detail);
		snprintf(out->ev.detail, sizeof out->ev.detail, "%s%s%.45s",
		         text_quote_cut(p->path, strlen(p->path) == PATH_MAX - 1, q, sizeof q), fl[0] ? ", " : "", fl);
	}
	snprintf(out->path, sizeof out->path, "%s", p->path);
	out->regular = p->regular;
	out->file_fd = p->file_fd;
	out->dev = p->dev;
	out->ino = p->ino;
}

/* Keep the fd table in step with the finished call of p. */
void
pt_track(struct pt_proc *p)
{
	const struct call_row *c = p->call;
	const uint64_t *a = p->stop.args;
	int64_t rval = p->stop.rval;
	struct prog_fd *fd;

	if (p->stop.is_error)
		return;
	if ((c->flags & CALL_CLOSE) && c->fd2 >= 0) {
		/* close_range(first, last, flags): closes them, or marks them O_CLOEXEC. */
		prog_fds_close_range(p->tab, (unsigned)a[(int)c->fd], (unsigned)a[(int)c->fd2],
		                     (a[(int)c->flg] & CLOSE_RANGE_CLOEXEC) != 0);
	} else if (c->flags & CALL_CLOSE) {
		prog_fds_del(p->tab, (int)a[(int)c->fd]);
	} else if ((c->flags & CALL_CMD) && (int)a[(int)c->flg] == F_SETFD) {
		if ((fd = prog_fds_get(p->tab, p->pid, (int)a[(int)c->fd])) != NULL)
			fd->cloexec = (a[(int)c->flg + 1] & FD_CLOEXEC) != 0;
	} else if (calls_made_fd(c, a, rval, false)) {
		/* The new fd is read afresh from /proc: its file, its own O_CLOEXEC. */
		prog_fds_del(p->tab, (int)rval);
		fd = prog_fds_resolve(p->tab, p->pid, (int)rval);
		if ((c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
			p->regular = fd != NULL && fd->regular;
			p->file_fd = (int)rval;
			if (fd != NULL) {
				p->dev = fd->dev;
				p->ino = fd->ino;
			}
		}
	}
}
