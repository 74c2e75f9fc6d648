/* SPDX-License-Identifier: MIT */
/* op.c: the run op: a student's program run to its end as one step, traced in a helper process. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fdio.h"
#include "base/text.h"
#include "engine/runner.h"
#include "prog/consent.h"
#include "prog/op.h"
#include "prog/run.h"
#include "scratch/scratch.h"

/* A run step's default time limit (s): a grader's program must not hang the course. */
#define PROG_OP_TIMEOUT 60.0
/* While the program runs, the caller's poll is asked this often (ms). */
#define PROG_OP_POLL_MS 100
/* A stopped helper has this long to clean up after SIGTERM before SIGKILL (ms). */
#define PROG_OP_TERM_MS 2000

/* What the helper sends back, a record at a time. */
enum prog_op_kind { PROG_OP_EVENT = 1, PROG_OP_END, PROG_OP_FAIL };

struct prog_op_rec {
	enum prog_op_kind kind;
	struct event ev;          /* EVENT: a call on one of the program's files */
	int code, signal;         /* END: how the program ended */
	bool timed_out;
	uint64_t steps, stdio, out_len;   /* END: then out_len bytes of its stdout; FAIL: then
	                                     out_len bytes of why it could not run (whole: it
	                                     names the program, a path of any length) */
	char msg[256];            /* END: stderr's last line, if it failed */
};

/* Read one whole record of n bytes from fd. 1, 0 at its end, -1 on a cut record. */
static int
prog_op_read(int fd, void *buf, size_t n)
{
	ssize_t got = fdio_read_all(fd, buf, n);

	return got == (ssize_t)n ? 1 : got == 0 ? 0 : -1;
}

/* The helper: run the program to its end, send its calls and how it ended on fd; never returns. */
static void
prog_op_helper(const struct scn_args *a, const char *dir, int dir_fd, const char *file,
               const char *in, double limit, int fd)
{
	struct prog_run_opts o = { .dir = dir, .dir_fd = dir_fd, .stdin_path = in };
	struct prog_op_rec rec = { 0 };
	struct prog_run_step *s = malloc(sizeof *s);
	char **argv = calloc(a->n_argv + 2, sizeof *argv);
	struct prog_run *r;
	char *err = NULL, *out;
	uint64_t total;
	int rc;

	if (limit > a->timeout && a->timeout > 0)
		limit = a->timeout;
	if (limit > PROG_OP_TIMEOUT && !(a->timeout > 0))
		limit = PROG_OP_TIMEOUT;
	o.timeout_ms = limit * 1000 >= 1 ? (unsigned)(limit * 1000) : 1;
	o.timeout_wall = true;        /* one step: nobody reads between its calls */
	if (s == NULL || argv == NULL)
		_exit(1);
	argv[0] = a->program;
	for (size_t i = 0; i < a->n_argv; i++)
		argv[i + 1] = strcmp(a->argv[i], "{file}") == 0 ? (char *)file : a->argv[i];
	if (prog_run_new(argv, &o, &r, &err) != 0) {
		const char *why = err != NULL ? err : strerror(errno);
		rec.kind = PROG_OP_FAIL;
		rec.code = errno;
		rec.out_len = strlen(why);
		fdio_write_all(fd, &rec, sizeof rec);
		fdio_write_all(fd, why, rec.out_len);
		_exit(0);
	}
	while ((rc = prog_run_next(r, s)) == 1) {
		size_t n;
		const struct prog_run_file *f = prog_run_files(r, &n);

		rec.steps++;
		rec.stdio += prog_run_stdio_calls(s);
		/* The program's calls on its files; not those on the stdout and stderr iobufviz
		 * keeps for it (a terminal's or a pipe's, were it not traced). */
		/* Each call of the step: its own, a stdio call's (origin stdio, exit()'s flush
		 * too), a folded run's. */
		for (size_t i = 0; s->file >= 0 && (size_t)s->file < n && f[s->file].label == NULL &&
		     i < s->sr.events.n; i++) {
			struct prog_op_rec e = { .kind = PROG_OP_EVENT, .ev = s->sr.events.v[i] };
			if (fdio_write_all(fd, &e, sizeof e) != 0)
				_exit(1);
		}
		prog_run_step_clear(s);
	}
	const struct prog_step *x = prog_run_exit(r);
	rec.kind = PROG_OP_END;
	rec.code = x != NULL ? x->exit_code : -1;
	rec.signal = x != NULL ? x->signal : SIGKILL;
	rec.timed_out = x != NULL && x->timed_out;
	if ((rec.code != 0 || rec.signal != 0) && (out = prog_run_output(r, 2, true, &total)) != NULL) {
		/* Why it failed, in its own words: the last line it wrote there (a traceback's). */
		char *end = out + strlen(out), *line;
		while (end > out && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
			*--end = '\0';
		line = strrchr(out, '\n');
		size_t at = 0;
		/* A longer line is cut with "…" (the record is of fixed size). */
		text_cat(rec.msg, sizeof rec.msg, &at, "%s", line != NULL ? line + 1 : out);
		free(out);
	}
	out = prog_run_output(r, 1, false, &total);
	rec.out_len = out != NULL ? strlen(out) : 0;
	if (fdio_write_all(fd, &rec, sizeof rec) != 0 ||
	    (rec.out_len > 0 && fdio_write_all(fd, out, rec.out_len) != 0))
		_exit(1);
	free(out);
	prog_run_free(r);
	/* _exit: the atexit cleanup we inherited is our parent's to run, not ours. */
	_exit(0);
}

/* Wait until fd can be read, asking b->poll every PROG_OP_POLL_MS. 0, or -1 if it said stop. */
static int
prog_op_wait(int fd, const struct prog_op_bounds *b)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	for (;;) {
		int rc = poll(&pf, 1, b->poll != NULL ? PROG_OP_POLL_MS : -1);
		if (rc > 0 || (rc < 0 && errno != EINTR))
			return 0;
		if (b->poll != NULL && b->poll(b->poll_arg) != 0)
			return -1;
	}
}

/* Run the step's program as one step. */
int
prog_op_run(const struct scn_args *a, const char *dir, int dir_fd, const char *file,
            const char *in, const struct prog_op_bounds *b, struct step_result *out)
{
	struct prog_op_rec rec;
	bool ended = false, stopped;
	int p[2], st;
	pid_t pid;

	out->events.source = EV_SRC_PTRACE;
	out->ret = -1;
	if (!(b->seconds > 0)) {
		text_setf(&out->note, "not run: no time is left of the run");
		out->err = ETIMEDOUT;
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	/* The program may not read or write us either (not only its tracer, prog/trace.c). */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	pid = scratch_fork();
	if (pid == 0) {
		close(p[0]);
		prog_op_helper(a, dir, dir_fd, file, in, b->seconds, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	while (!(stopped = prog_op_wait(p[0], b) != 0) &&
	       prog_op_read(p[0], &rec, sizeof rec) == 1) {
		if (rec.kind == PROG_OP_EVENT) {
			if (event_list_add(&out->events, &rec.ev) != 0)
				break;
		} else if (rec.kind == PROG_OP_FAIL) {
			char *why = malloc(rec.out_len + 1);
			out->err = rec.code;
			if (why != NULL && prog_op_read(p[0], why, rec.out_len) == 1) {
				why[rec.out_len] = '\0';
				text_setf(&out->note, "%s", why);
			}
			free(why);
			break;
		} else if (rec.kind == PROG_OP_END) {
			ended = true;
			out->ret = rec.signal != 0 ? 128 + rec.signal : rec.code;
			if (rec.out_len > 0 && (out->output = malloc(rec.out_len + 1)) != NULL) {
				if (prog_op_read(p[0], out->output, rec.out_len) != 1)
					rec.out_len = 0;
				out->output[rec.out_len] = '\0';
			}
			if (rec.signal != 0)
				text_setf(&out->note, "the program was killed by SIG%s%s",
				          sigabbrev_np(rec.signal) ? sigabbrev_np(rec.signal) : "?",
				          rec.timed_out ? " (timeout)" : "");
			else
				text_setf(&out->note, "the program exited %d after %" PRIu64
				          " steps (%" PRIu64 " stdio calls)", rec.code, rec.steps, rec.stdio);
			rec.msg[sizeof rec.msg - 1] = '\0';
			if (rec.msg[0] != '\0') {
				/* Raw: whoever shows the note escapes it, as every note. */
				text_buf_sentence(&out->note, "its stderr ended \"%s\"", rec.msg);
			}
			break;
		}
	}
	if (stopped) {
		/* Stopped: SIGTERM makes the helper kill the program and remove its own scratch
		 * dir (scratch/scratch.c); every other process it traced dies with it
		 * (PTRACE_O_EXITKILL). One that does not go at once is killed. */
		kill(pid, SIGTERM);
		for (int i = 0; i < PROG_OP_TERM_MS / 10 && waitpid(pid, &st, WNOHANG) == 0; i++)
			usleep(10000);
		kill(pid, SIGKILL);
		text_setf(&out->note, "stopped before the program ended");
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	scratch_forget(pid);
	if (!ended && out->note.len == 0)
		text_setf(&out->note, "the run ended before the program did");
	return ended ? 0 : -1;
}

/* The run op as the runner binds it: consent, stdin, then the run. */
int
prog_op_step(const struct scn_args *a, const struct runner_program_ctx *c, struct step_result *out)
{
	struct prog_op_bounds b = { .seconds = c->seconds, .poll = c->poll, .poll_arg = c->poll_arg };
	char in[PATH_MAX];

	/* Only what the user allowed runs (prog/consent.h); its stdin is never a file of theirs
	 * but one in the scratch dir or the lesson's directory. */
	if (!prog_consent_allows(c->consent, a->program)) {
		text_buf_sentence(&out->note, "not run: %s was not allowed (--allow-run)",
		                  a->program);
		out->err = EPERM;
		out->declined = true;
		return -2;
	}
	if (prog_consent_stdin(a->stdin_path, c->dir, c->file, c->lesson_dir, in, sizeof in) != 0) {
		text_buf_sentence(&out->note, "%s", in);
		out->err = EPERM;
		return -2;
	}
	return prog_op_run(a, c->dir, c->dir_fd, c->file_arg, in, &b, out);
}
