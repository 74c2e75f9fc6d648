/* SPDX-License-Identifier: MIT */
/* run.c: a student's own program shown step by step: its calls, streams and the files it touches. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fdio.h"
#include "base/text.h"
#include "probe/probe.h"
#include "probe/wbwatch.h"
#include "prog/format.h"
#include "prog/run.h"
#include "prog/run-int.h"
#include "scratch/scratch.h"
#include "step/snapshot-diff.h"
#include "shim/protocol.h"
#include "trace/calls.h"

#ifndef IOBUFVIZ_PKGLIBDIR
#define IOBUFVIZ_PKGLIBDIR "/usr/local/lib/iobufviz"
#endif

/* The shim next to the binary, else the installed one. */
char *
prog_run_shim(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if ((size_t)snprintf(buf, len, "%s/shim/iobufviz-shim.so", exe) < len &&
			    access(buf, R_OK) == 0)
				return buf;
		}
	}
	if ((size_t)snprintf(buf, len, "%s/iobufviz-shim.so", IOBUFVIZ_PKGLIBDIR) < len &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

/* Put "msg: strerror" into *err. */
static void
prog_run_err(char **err, const char *what, int e)
{
	if (err != NULL && asprintf(err, "%s: %s", what, strerror(e)) < 0)
		*err = NULL;
}


/* Start the program. */
int
prog_run_new(char *const argv[], const struct prog_run_opts *o, struct prog_run **out,
             char **err)
{
	static const struct prog_run_opts none;
	struct prog_opts po = { 0 };
	char shim[PATH_MAX];
	struct prog_run *r;
	bool lab;
	int rc;

	*out = NULL;
	if (err != NULL)
		*err = NULL;
	if (o == NULL)
		o = &none;
	r = calloc(1, sizeof *r);
	if (r == NULL) {
		prog_run_err(err, "iobufviz", errno);
		return -1;
	}
	r->probe = o->probe;
	r->shown_file = -1;
	r->stdio_note = "";
	r->unseen_note = "";
	r->lab_file = -1;
	lab = o->crash_fs != CRASH_FS_NONE && !prog_lab_refused(r, o->crash_fs);
	/* With a lab, --dir is where its image goes (as a lesson's); the program runs in it. */
	r->scratch = scratch_mkdir(lab ? o->dir : NULL);
	if (r->scratch < 0 ||
	    scratch_path(r->scratch, "stdout", r->out_path[0], sizeof r->out_path[0]) == NULL ||
	    scratch_path(r->scratch, "stderr", r->out_path[1], sizeof r->out_path[1]) == NULL) {
		prog_run_err(err, "scratch directory", errno);
		prog_run_free(r);
		return -1;
	}
	if (lab) {
		if (prog_lab_new(r, o->crash_fs, &po, err) != 0) {
			int e = errno;
			prog_run_free(r);
			errno = e;
			return -1;
		}
	} else if (o->dir_fd > 2) {
		snprintf(r->dir, sizeof r->dir, "%s", o->dir != NULL ? o->dir : "");
		po.cwd_fd = o->dir_fd;
	} else if (o->dir != NULL) {
		if (realpath(o->dir, r->dir) == NULL) {
			prog_run_err(err, o->dir, errno);
			prog_run_free(r);
			return -1;
		}
	} else {
		snprintf(r->dir, sizeof r->dir, "%s", scratch_dir(r->scratch));
	}
	if (r->lab == NULL && !(o->dir_fd > 2))
		po.cwd = r->dir;
	po.stdin_path = o->stdin_path != NULL ? o->stdin_path : "/dev/null";
	po.stdout_path = r->out_path[0];
	po.stderr_path = r->out_path[1];
	po.timeout_ms = o->timeout_ms;
	po.timeout_wall = o->timeout_wall;
	po.poll = o->poll;
	po.poll_arg = o->poll_arg;
	po.preload = o->shim != NULL ? (o->shim[0] != '\0' ? o->shim : NULL) :
	             prog_run_shim(shim, sizeof shim);
	/* "./prog" names a file where we are, not in its working directory. */
	char abs[PATH_MAX];
	size_t argc = 0;
	while (argv[argc] != NULL)
		argc++;
	char **av = calloc(argc + 1, sizeof *av);
	if (av == NULL) {
		prog_run_err(err, "iobufviz", errno);
		prog_run_free(r);
		return -1;
	}
	memcpy(av, argv, argc * sizeof *av);
	if (strchr(argv[0], '/') != NULL && argv[0][0] != '/' && realpath(argv[0], abs) != NULL)
		av[0] = abs;
	rc = prog_trace_start(av, &po, &r->t, err);
	free(av);
	if (rc != 0) {
		prog_run_free(r);
		return -1;
	}
	prog_trace_set_hook(r->t, prog_fold_hook, r);
	prog_trace_set_batch(r->t, true);
	*out = r;
	return 0;
}

/* The next step. */
int
prog_run_next(struct prog_run *r, struct prog_run_step *out)
{
	struct prog_step ps;
	int rc;

	for (;;) {
		if (r->failed) {
			errno = ENOMEM;
			return -1;
		}
		if (r->qhead < r->qn) {
			struct prog_run_step *s = r->q[r->qhead++];
			*out = *s;
			free(s);
			/* What pointed into the step moves with it. */
			out->sr.step = &out->scn;
			out->scn.args.text = out->text.s;
			out->sr.label = prog_run_label(out);
			return 1;
		}
		if (r->ended)
			return 0;
		rc = prog_trace_next(r->t, &ps);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			prog_fold_close(r, true, NULL, false);
			r->ended = true;
			continue;
		}
		prog_fold_take(r, &ps);
	}
}

/* Take in what the tracer has without waiting (prog/run.h). */
void
prog_run_pump(struct prog_run *r)
{
	struct prog_step ps;

	while (!r->ended && !r->failed && prog_trace_poll(r->t, &ps) == 1)
		prog_fold_take(r, &ps);
}

/* The files so far. */
const struct prog_run_file *
prog_run_files(const struct prog_run *r, size_t *n)
{
	*n = r->n_files;
	return r->files;
}

/* What no tracer sees. */
const char *
prog_run_unseen_note(const struct prog_run *r)
{
	return r->unseen_note;
}

/* Why stdio is not visible. */
const char *
prog_run_stdio_note(const struct prog_run *r)
{
	return r->stdio_note;
}

/* The program's working directory. */
const char *
prog_run_dir(const struct prog_run *r)
{
	return r->dir;
}

/* The first (last: the last) PROG_RUN_OUTPUT_MAX bytes of the program's stdout (which 1) or
 * stderr (2). */
char *
prog_run_output(const struct prog_run *r, int which, bool last, uint64_t *total)
{
	/* In the program's working directory by default: it may have put a FIFO there. */
	int fd = fdio_open_regular(r->out_path[which == 2], 0);
	struct stat st;
	char *buf;
	ssize_t n;

	*total = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || st.st_size == 0 ||
	    (buf = malloc(PROG_RUN_OUTPUT_MAX + 1)) == NULL) {
		close(fd);
		return NULL;
	}
	n = pread(fd, buf, PROG_RUN_OUTPUT_MAX, last && st.st_size > PROG_RUN_OUTPUT_MAX ?
	          st.st_size - PROG_RUN_OUTPUT_MAX : 0);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	*total = (uint64_t)st.st_size;
	return buf;
}

/* How the first process ended. */
const struct prog_step *
prog_run_exit(const struct prog_run *r)
{
	return r->exited ? &r->exit : NULL;
}

/* The tracer's counters. */
void
prog_run_stats(const struct prog_run *r, struct prog_stats *out)
{
	prog_trace_stats(r->t, out);
}

/* The dynamic loader's calls passed over. */
uint64_t
prog_run_loader_calls(const struct prog_run *r)
{
	struct prog_stats st;

	prog_trace_stats(r->t, &st);
	return st.loader;
}

/* Whether the run's --timeout passed. */
bool
prog_run_timed_out(const struct prog_run *r)
{
	return prog_trace_timed_out(r->t);
}

/* Kill, close, remove. */
void
prog_run_free(struct prog_run *r)
{
	if (r == NULL)
		return;
	prog_trace_free(r->t);
	while (r->qhead < r->qn) {
		prog_run_step_clear(r->q[r->qhead]);
		free(r->q[r->qhead++]);
	}
	free(r->q);
	for (size_t i = 0; i < PROG_RUN_SFOLDS; i++)
		if (r->sfold[i] != NULL) {
			prog_run_step_clear(r->sfold[i]);
			free(r->sfold[i]);
		}
	if (r->fold != NULL) {
		prog_run_step_clear(r->fold);
		free(r->fold);
	}
	if (r->chain != NULL) {
		prog_run_step_clear(r->chain);
		free(r->chain);
	}
	for (size_t i = 0; i < sizeof r->at_exit / sizeof r->at_exit[0]; i++)
		free(r->at_exit[i].v);
	free(r->before_flush.v);
	for (size_t i = 0; i < r->n_live; i++)
		free(r->live[i].v);
	free(r->live);
	for (size_t i = 0; i < r->n_files; i++) {
		if (r->files[i].fd >= 0)
			close(r->files[i].fd);
		wbwatch_close(r->files[i].wb);
	}
	free(r->files);
	prog_lab_free(r);
	text_buf_free(&r->lab_note);
	if (r->scratch >= 0)
		scratch_remove(r->scratch);
	free(r);
}
