/* SPDX-License-Identifier: MIT */
/* run.c: a student's own program shown step by step: its calls, streams and the files it touches. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fdio.h"
#include "probe/probe.h"
#include "prog/run.h"
#include "scratch/scratch.h"
#include "lesson/snapshot-diff.h"

#ifndef IOBUFVIZ_PKGLIBDIR
#define IOBUFVIZ_PKGLIBDIR "/usr/local/lib/iobufviz"
#endif

/* The program's output is kept in files of the scratch dir; this much of each is shown. */
#define PROG_RUN_OUTPUT_MAX 65536

/* Streams read per step. */
#define PROG_RUN_STREAMS 32

struct prog_run {
	struct prog_trace *t;
	int scratch;              /* our private dir: the program's output (and cwd by default) */
	char dir[PATH_MAX];       /* the program's working directory */
	char out_path[2][PATH_MAX];   /* its stdout, stderr */
	struct prog_run_file *files;
	size_t n_files, cap_files;
	size_t n_steps;
	pid_t last_pid;           /* the process of the newest step */
	bool last_alive;
	const char *stdio_note;   /* static storage, "" while stdio is visible */
	struct prog_step exit;    /* how the first process ended */
	bool exited;
	uint64_t loader_calls;    /* steps of the dynamic loader, not shown */
	enum snap_source probe;
};

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
	r->stdio_note = "";
	r->scratch = scratch_mkdir(NULL);
	if (r->scratch < 0 ||
	    scratch_path(r->scratch, "stdout", r->out_path[0], sizeof r->out_path[0]) == NULL ||
	    scratch_path(r->scratch, "stderr", r->out_path[1], sizeof r->out_path[1]) == NULL) {
		prog_run_err(err, "scratch directory", errno);
		prog_run_free(r);
		return -1;
	}
	if (o->dir != NULL) {
		if (realpath(o->dir, r->dir) == NULL) {
			prog_run_err(err, o->dir, errno);
			prog_run_free(r);
			return -1;
		}
	} else {
		snprintf(r->dir, sizeof r->dir, "%s", scratch_dir(r->scratch));
	}
	po.cwd = r->dir;
	po.stdin_path = o->stdin_path != NULL ? o->stdin_path : "/dev/null";
	po.stdout_path = r->out_path[0];
	po.stderr_path = r->out_path[1];
	po.timeout_ms = o->timeout_ms;
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
	*out = r;
	return 0;
}

/* The table entry of the file open as our fd (fstat'ed as st), added if new; -1 if full. */
static long
prog_run_file_add(struct prog_run *r, int fd, const struct stat *st, const char *path)
{
	struct prog_run_file *f;

	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].dev == st->st_dev && r->files[i].ino == st->st_ino) {
			close(fd);
			return (long)i;
		}
	if (r->n_files == r->cap_files) {
		size_t cap = r->cap_files ? r->cap_files * 2 : 8;
		struct prog_run_file *v = realloc(r->files, cap * sizeof *v);
		if (v == NULL) {
			close(fd);
			return -1;
		}
		r->files = v;
		r->cap_files = cap;
	}
	f = &r->files[r->n_files];
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	f->fd = fd;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	for (int k = 0; k < 2; k++) {
		struct stat o;
		if (stat(r->out_path[k], &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
			f->label = k == 0 ? "stdout" : "stderr";
	}
	return (long)r->n_files++;
}

/*
 * The file behind the tracee's fd (opened again read-only through /proc/PID/fd/N: never
 * for writing, never truncated), or the one named path when the fd is gone (a close).
 */
static long
prog_run_file_of(struct prog_run *r, pid_t pid, int tfd, const char *path)
{
	char proc[64], link[PATH_MAX];
	struct stat st;
	int fd = -1;

	/* Every path here is the program's to choose: only a regular file is ever opened. */
	if (tfd >= 0) {
		snprintf(proc, sizeof proc, "/proc/%ld/fd/%d", (long)pid, tfd);
		fd = fdio_open_regular(proc, 1);
		if (fd < 0 && errno == EINVAL)
			return -1;         /* open, on something that is not a regular file */
		if (fd >= 0 && (path == NULL || path[0] == '\0' || path[0] != '/')) {
			ssize_t n = readlink(proc, link, sizeof link - 1);
			if (n > 0) {
				link[n] = '\0';
				path = link;
			}
		}
	}
	if (fd < 0 && path != NULL && path[0] != '\0') {
		for (size_t i = 0; i < r->n_files; i++)
			if (strcmp(r->files[i].path, path) == 0)
				return (long)i;
		if (path[0] == '/')
			fd = fdio_open_regular(path, 0);
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	return prog_run_file_add(r, fd, &st, path != NULL ? path : proc);
}

/* Fill the cache and disk parts of s from file f (ours, read-only). */
static void
prog_run_probe(struct prog_run *r, struct prog_run_file *f, pid_t pid, struct snapshot *s)
{
	struct stat st;

	if (fstat(f->fd, &st) != 0)
		st.st_size = 0;
	probe_cache_as(f->fd, (uint64_t)st.st_size, r->probe, &s->cache);
	probe_disk(f->fd, &s->disk);
	if (pid > 0)
		probe_io(pid, &s->disk);
}

/* The tracee's stream a step used into s->stdio (open false when none). */
static void
prog_run_stream(struct prog_run *r, const struct prog_step *ps, struct snapshot *s)
{
	struct prog_stream v[PROG_RUN_STREAMS];
	const struct prog_stream *use = NULL;
	const char *why = NULL;
	size_t n = 0;
	int fd = ps->kind == PROG_STEP_STDIO ? ps->stdio_fd : ps->ev.fd;
	int rc = prog_trace_stdio(r->t, ps->pid, v, PROG_RUN_STREAMS, &n, &why);

	memset(&s->stdio, 0, sizeof s->stdio);
	s->stdio.fd = -1;
	if (rc == PROG_STDIO_HIDDEN && why != NULL)
		r->stdio_note = why;
	if (rc != PROG_STDIO_OK)
		return;
	for (size_t i = 0; i < n && use == NULL; i++)
		if (ps->kind == PROG_STEP_STDIO && ps->file != 0 && v[i].addr == ps->file)
			use = &v[i];
	for (size_t i = 0; i < n && use == NULL; i++)
		if (fd >= 0 && v[i].fd == fd)
			use = &v[i];
	if (use == NULL)
		return;
	s->stdio.open = true;
	s->stdio.fd = use->fd;
	s->stdio.size = use->buf_size;
	s->stdio.pending = use->pending;
	s->stdio.read_avail = use->read_ahead;
	s->stdio.mode = use->mode == PROG_STREAM_UNBUFFERED ? SCN_BUF_NONE :
	                use->mode == PROG_STREAM_LINE ? SCN_BUF_LINE : SCN_BUF_FULL;
	s->stdio.writing = use->putting;
	s->stdio.reading = use->can_read && !use->putting;
}

/* True if the call asks for data to reach the disk before it returns. */
static bool
prog_run_is_disk(const struct prog_step *ps, const struct snap_fd *fd)
{
	if (ps->kind != PROG_STEP_CALL)
		return false;
	return event_is_sync(&ps->ev) ||
	       (event_is_write(&ps->ev) && fd->open && (fd->flags & (O_SYNC | O_DSYNC)) != 0);
}

/* Turn the tracer's step into a prog_run_step. */
static int
prog_run_fill(struct prog_run *r, const struct prog_step *ps, struct prog_run_step *out)
{
	struct step_result *sr = &out->sr;
	int tfd = -1;

	memset(out, 0, sizeof *out);
	out->ps = *ps;
	out->file = -1;
	prog_trace_format(ps, out->text, sizeof out->text);
	out->scn.op = SCN_OP_NOTE;
	out->scn.args.text = out->text;
	out->scn.line = out->scn.col = 1;
	sr->step = &out->scn;
	sr->index = r->n_steps++;
	sr->events.source = EV_SRC_PTRACE;
	sr->ok = true;
	/* The log's op column: the scenario op of the same name (read, fwrite, ...), if any. A
	 * failed step stays a note: its narration names the real call, not an op's args. */
	if (ps->kind != PROG_STEP_EXIT && !(ps->kind == PROG_STEP_CALL && ps->ev.err != 0)) {
		int op = scenario_op_find(ps->kind == PROG_STEP_STDIO ? ps->func : ps->ev.call);
		if (op >= 0 && scenario_op_has((enum scn_op)op, SCN_OPF_CALL))
			out->scn.op = (enum scn_op)op;
	}
	switch (ps->kind) {
	case PROG_STEP_CALL: {
		/* A call of any process but the first is a child's, as the lesson's tracer marks
		 * it (the transcript's "child"); the step's text, made above, names its pid. */
		struct event ev = ps->ev;
		ev.child = ps->pid != prog_trace_pid(r->t);
		if (event_list_add(&sr->events, &ev) != 0)
			return -1;
		sr->ret = ps->ev.result;
		sr->err = ps->ev.err;
		sr->op_ns = ps->ev.ns;
		tfd = ps->ev.fd >= 0 ? ps->ev.fd : ps->ev.result >= 0 && ps->regular ?
		      (int)ps->ev.result : -1;
		if (ps->regular || ps->ev.fd >= 0)
			out->file = prog_run_file_of(r, ps->pid, tfd, ps->path);
		break;
	}
	case PROG_STEP_STDIO:
		sr->ret = ps->ret;
		tfd = ps->stdio_fd;
		if (tfd >= 0)
			out->file = prog_run_file_of(r, ps->pid, tfd, NULL);
		break;
	case PROG_STEP_EXIT:
		sr->ret = ps->signal != 0 ? 128 + ps->signal : ps->exit_code;
		if (ps->signal != 0)
			snprintf(sr->note, sizeof sr->note, "%.200s", out->text);
		if (ps->pid == prog_trace_pid(r->t)) {
			r->exit = *ps;
			r->exited = true;
		}
		break;
	}
	r->last_pid = ps->pid;
	r->last_alive = ps->kind != PROG_STEP_EXIT;
	if (out->file < 0 && ps->kind != PROG_STEP_EXIT) {
		/* A call on no file we can watch (a failed open): its stream only. */
		memset(&sr->after, 0, sizeof sr->after);
		sr->after.cache.source = SNAP_SRC_NONE;
		snprintf(sr->after.cache.note, sizeof sr->after.cache.note, "no regular file");
		snprintf(sr->after.disk.note, sizeof sr->after.disk.note, "no regular file");
		prog_run_stream(r, ps, &sr->after);
		sr->before = sr->after;
		return 0;
	}
	if (out->file < 0) {
		/* An exit: the state of the newest file, as the exit left it. */
		if (r->n_files == 0) {
			memset(&sr->after, 0, sizeof sr->after);
			snprintf(sr->after.cache.note, sizeof sr->after.cache.note, "no regular file");
			snprintf(sr->after.disk.note, sizeof sr->after.disk.note, "no regular file");
			sr->before = sr->after;
			return 0;
		}
		out->file = (long)r->n_files - 1;
	}
	struct prog_run_file *f = &r->files[out->file];
	if (f->seen)
		sr->before = f->last;
	if (ps->kind == PROG_STEP_EXIT) {
		sr->after = f->seen ? f->last : sr->before;
		prog_run_probe(r, f, 0, &sr->after);
	} else {
		prog_run_probe(r, f, ps->pid, &sr->after);
		if (tfd >= 0)
			probe_fd(ps->pid, tfd, &sr->after.fd);
		prog_run_stream(r, ps, &sr->after);
	}
	if (!f->seen)
		sr->before = sr->after;
	snapshot_diff(&sr->before, &sr->after, &sr->events, &sr->changes);
	f->last = sr->after;
	f->seen = true;
	out->disk = prog_run_is_disk(ps, &sr->after.fd);
	return 0;
}

/*
 * True if the step is the dynamic loader mapping a library (ld.so.cache, a .so file, the
 * shim): real calls on regular files, but not the student's; they are counted, not shown.
 */
static bool
prog_run_is_loader(const struct prog_run *r, const struct prog_step *ps)
{
	const char *p = ps->path, *base;

	if (ps->kind != PROG_STEP_CALL || p[0] == '\0' || r->exited)
		return false;
	base = strrchr(p, '/') != NULL ? strrchr(p, '/') + 1 : p;
	if (strcmp(p, "/etc/ld.so.cache") == 0 || strcmp(p, "/etc/ld.so.preload") == 0)
		return true;
	if (strncmp(base, "lib", 3) != 0 && strcmp(base, "iobufviz-shim.so") != 0)
		return false;
	return strstr(base, ".so") != NULL &&
	       (strcmp(strstr(base, ".so"), ".so") == 0 || strncmp(strstr(base, ".so"), ".so.", 4) == 0);
}

/* The next step. */
int
prog_run_next(struct prog_run *r, struct prog_run_step *out)
{
	struct prog_step ps;
	int rc;

	while ((rc = prog_trace_next(r->t, &ps)) == 1 && prog_run_is_loader(r, &ps))
		r->loader_calls++;
	if (rc != 1)
		return rc;
	if (prog_run_fill(r, &ps, out) != 0) {
		prog_run_step_clear(out);
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

/* Free a step's events. */
void
prog_run_step_clear(struct prog_run_step *s)
{
	if (s != NULL)
		step_result_clear(&s->sr);
}

/* The files so far. */
const struct prog_run_file *
prog_run_files(const struct prog_run *r, size_t *n)
{
	*n = r->n_files;
	return r->files;
}

/* The streams of the newest step's process. */
size_t
prog_run_streams(struct prog_run *r, struct prog_stream *v, size_t max, const char **why)
{
	size_t n = 0;

	*why = NULL;
	if (r->last_pid <= 0 || !r->last_alive) {
		*why = "the process has ended";
		return 0;
	}
	if (prog_trace_stdio(r->t, r->last_pid, v, max, &n, why) != PROG_STDIO_OK)
		return 0;
	return n;
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

/* The first PROG_RUN_OUTPUT_MAX bytes of the program's stdout (which 1) or stderr (2). */
char *
prog_run_output(const struct prog_run *r, int which, uint64_t *total)
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
	n = pread(fd, buf, PROG_RUN_OUTPUT_MAX, 0);
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
	return r->loader_calls;
}

/* Kill, close, remove. */
void
prog_run_free(struct prog_run *r)
{
	if (r == NULL)
		return;
	prog_trace_free(r->t);
	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].fd >= 0)
			close(r->files[i].fd);
	free(r->files);
	if (r->scratch >= 0)
		scratch_remove(r->scratch);
	free(r);
}
