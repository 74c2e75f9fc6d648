/* SPDX-License-Identifier: MIT */
/* run-step.c: a step of a traced program observed: the files it touches (our own fd of each,
 * probed), its streams read from outside, what changed, its text; queued for prog_run_next.
 * Below run.c and fold.c: it calls neither. */
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
#include "base/grow.h"
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

/* The table entry of the file open as our fd (fstat'ed as st), added if new; -1 if full. */
static long
prog_run_file_add(struct prog_run *r, int fd, const struct stat *st, const char *path)
{
	struct prog_run_file *f;
	size_t dl = strlen(r->dir);

	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].dev == st->st_dev && r->files[i].ino == st->st_ino) {
			close(fd);
			return (long)i;
		}
	if (r->n_files == r->cap_files) {
		struct prog_run_file *v = grow(r->files, &r->cap_files, r->n_files, sizeof *v, 8);
		if (v == NULL) {
			close(fd);
			return -1;
		}
		r->files = v;
	}
	f = &r->files[r->n_files];
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	/* The student's name for it: relative to the directory the program runs in. */
	if (strncmp(path, r->dir, dl) == 0 && path[dl] == '/' && path[dl + 1] != '\0')
		snprintf(f->name, sizeof f->name, "%s", path + dl + 1);
	else
		snprintf(f->name, sizeof f->name, "%s", path);
	f->fd = fd;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	/* The kernel's writebacks of it from now on: a few files only (each is a perf counter
	 * per CPU and event), and none where they cannot be counted (not root, no tracefs). */
	if (r->n_files < PROG_RUN_WBWATCH_MAX) {
		struct prog_stats ps;
		char why[128];
		f->wb = wbwatch_open(st->st_ino, st->st_dev, scratch_dir(r->scratch), why, sizeof why);
		prog_trace_stats(r->t, &ps);
		f->syncs_last = ps.syncs;
	}
	prog_lab_file(r, f);
	for (int k = 0; k < 2; k++) {
		struct stat o;
		if (stat(r->out_path[k], &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino) {
			f->label = k == 0 ? "stdout" : "stderr";
			snprintf(f->name, sizeof f->name, "(%s)", f->label);
		}
	}
	return (long)r->n_files++;
}

/*
 * The file behind the tracee's fd (opened again read-only through /proc/PID/fd/N: never
 * for writing, never truncated), or the one named path when the fd is gone (a close). A
 * file already known by its dev:ino (the tracer's) is found without opening anything.
 */
static long
prog_run_file_of(struct prog_run *r, pid_t pid, int tfd, const char *path, dev_t dev, ino_t ino)
{
	char proc[64], link[PATH_MAX];
	struct stat st;
	int fd = -1;

	if (ino != 0)
		for (size_t i = 0; i < r->n_files; i++)
			if (r->files[i].dev == dev && r->files[i].ino == ino)
				return (long)i;
	/* Every path here is the program's to choose: only a regular file is ever opened. */
	if (tfd >= 0) {
		snprintf(proc, sizeof proc, "/proc/%ld/fd/%d", (long)pid, tfd);
		fd = fdio_open_regular(proc, 1);
		if (fd < 0 && errno == EINVAL)
			return -1;         /* open, on something that is not a regular file */
		if (fd >= 0) {
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
		if (path[0] == '/' && (fd = fdio_open_regular(path, 0)) >= 0 && ino != 0 &&
		    (fstat(fd, &st) != 0 || st.st_dev != dev || st.st_ino != ino)) {
			/* Not the file the tracer saw by that name (made absolute from a directory
			 * whose path does not reach it: a crash lab's reads as "/"). */
			close(fd);
			return -1;
		}
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	return prog_run_file_add(r, fd, &st, path != NULL ? path : proc);
}

/*
 * The kernel's writebacks of file f begun since it was last observed that the program did not
 * ask for (it made no sync call since: a sync() elsewhere, the flusher's), or 0; f's counts
 * move on to now.
 */
static uint64_t
prog_run_foreign_wb(struct prog_run *r, struct prog_run_file *f)
{
	struct prog_stats ps;
	uint64_t wb, n;
	bool running;

	if (f->wb == NULL)
		return 0;
	wb = wbwatch_count(f->wb, &running);
	prog_trace_stats(r->t, &ps);
	n = wb > f->wb_last && ps.syncs == f->syncs_last ? wb - f->wb_last : 0;
	f->wb_last = wb;
	f->syncs_last = ps.syncs;
	return n;
}

/*
 * Step s was observed after the kernel wrote its file back n times on its own: what reached
 * the disk then (blocks allocated or moved) is no call's of the program, so the step is not
 * credited with it (unless its own calls wait for the disk: then whose it was is not known),
 * and its note says who did it.
 */
static void
prog_run_not_ours(struct prog_run_step *s, uint64_t n)
{
	struct step_result *sr = &s->sr;
	struct snapshot_diff *d = &sr->changes;
	size_t kept = 0;

	sr->kernel_writeback = n;
	for (size_t i = 0; i < d->n; i++)
		if (s->disk || d->v[i].between || (d->v[i].kind != SNAPSHOT_CHANGE_ALLOCATED &&
		                                  d->v[i].kind != SNAPSHOT_CHANGE_RELOCATED))
			d->v[kept++] = d->v[i];
	d->n = kept;
	text_buf_sentence(&sr->note, "the kernel / another process wrote back this file (%" PRIu64
	                  " writeback%s the program did not ask for: a sync() elsewhere, or the "
	                  "flusher)%s", n, n == 1 ? "" : "s",
	                  s->disk ? ": whose what reached the disk then was is not known" :
	                  ": what reached the disk then is not this step's");
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

/* Read every stream of pid, with the first bytes each holds, into *out (malloc'd). */
void
prog_run_read_streams(struct prog_run *r, pid_t pid, struct prog_run_pstreams *out)
{
	struct prog_stream few[PROG_RUN_STREAMS], *v = few;
	const char *why = NULL;
	size_t n = 0, room = PROG_RUN_STREAMS;
	int rc = prog_trace_stdio(r->t, pid, v, room, &n, &why);

	/* More than a few: every one (up to PROG_STREAMS_CHAIN_MAX), read again. */
	if (rc == PROG_STREAMS_OK && n > room && (v = calloc(n, sizeof *v)) != NULL) {
		room = n;
		rc = prog_trace_stdio(r->t, pid, v, room, &n, &why);
	}
	if (v == NULL)
		v = few;
	free(out->v);
	memset(out, 0, sizeof *out);
	out->pid = pid;
	if (rc == PROG_STREAMS_HIDDEN && why != NULL)
		r->stdio_note = why;
	if (n > room)
		n = room;
	if (rc == PROG_STREAMS_OK)
		out->known = true;
	if (rc == PROG_STREAMS_OK && n > 0 && (out->v = calloc(n, sizeof *out->v)) != NULL) {
		out->n = n;
		for (size_t i = 0; i < n; i++) {
			out->v[i].st = v[i];
			out->v[i].name = prog_trace_stream_name(r->t, pid, v[i].addr, v[i].fd);
			out->v[i].head_len = prog_streams_head(pid, &v[i], out->v[i].head,
			                                       sizeof out->v[i].head);
		}
	}
	if (v != few)
		free(v);
}

static void prog_run_set_streams(struct prog_run_step *s, const struct prog_run_pstreams *ps);

/* The live streams of pid (added empty if new; NULL on ENOMEM). */
struct prog_run_pstreams *
prog_run_live(struct prog_run *r, pid_t pid)
{
	for (size_t i = 0; i < r->n_live; i++)
		if (r->live[i].pid == pid)
			return &r->live[i];
	if (r->n_live == r->cap_live) {
		struct prog_run_pstreams *v = grow(r->live, &r->cap_live, r->n_live, sizeof *v, 4);
		if (v == NULL)
			return NULL;
		r->live = v;
	}
	memset(&r->live[r->n_live], 0, sizeof r->live[0]);
	r->live[r->n_live].pid = pid;
	return &r->live[r->n_live++];
}

/* Forget pid's live streams (it ended; its pid may come again). */
static void
prog_run_live_drop(struct prog_run *r, pid_t pid)
{
	for (size_t i = 0; i < r->n_live; i++)
		if (r->live[i].pid == pid) {
			free(r->live[i].v);
			r->live[i] = r->live[--r->n_live];
			return;
		}
}

/* Before pid's live streams change: each open fold of pid whose state they are (but keep)
 * keeps a copy of them. */
static void
prog_run_freeze(struct prog_run *r, pid_t pid, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l = NULL;

	for (long i = -2; i < PROG_RUN_SFOLDS; i++) {
		struct prog_run_step *f = i == -2 ? r->chain : i < 0 ? r->fold : r->sfold[i];
		if (f == NULL || !f->live || f == keep || f->ps.pid != pid)
			continue;
		if (l == NULL && (l = prog_run_live(r, pid)) == NULL)
			return;
		prog_run_set_streams(f, l);
		f->live = false;
	}
}

/* pid is stopped right after a call: its streams read now. */
void
prog_run_scan(struct prog_run *r, pid_t pid, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l;

	prog_run_freeze(r, pid, keep);
	if ((l = prog_run_live(r, pid)) != NULL)
		prog_run_read_streams(r, pid, l);
}

/* A flush or refill stdio made from a call the shim cannot see (ps, stopped at its end): its
 * stream as the call leaves it, not as read now, before glibc moved its pointers. */
void
prog_run_unseen_io(struct prog_run *r, const struct prog_step *ps)
{
	struct prog_run_pstreams *l;

	if (ps->unseen_of.file == 0 || ps->ev.result <= 0 ||
	    (l = prog_run_live(r, ps->pid)) == NULL)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].st.addr == ps->unseen_of.file) {
			struct prog_run_stream *x = &l->v[i];
			prog_streams_after_io(&x->st, event_is_write(&ps->ev), ps->unseen_buf,
			                      (uint64_t)ps->ev.result);
			x->head_len = prog_streams_head(ps->pid, &x->st, x->head, sizeof x->head);
		}
}

/* A logged call changed its stream. */
void
prog_run_apply(struct prog_run *r, const struct prog_step *ps, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l;
	struct prog_run_stream *x = NULL;

	prog_run_freeze(r, ps->pid, keep);
	if ((l = prog_run_live(r, ps->pid)) == NULL)
		return;
	/* Never read yet (its first calls made no system call): the streams are read now,
	 * later than the call; its own stream is then set as the call left it. */
	if (!l->known)
		prog_run_read_streams(r, ps->pid, l);
	for (size_t i = 0; i < l->n && x == NULL; i++)
		if (l->v[i].st.addr == ps->file)
			x = &l->v[i];
	if (ps->func_base == PROG_MARK_FUNC_fclose) {
		if (x != NULL)
			*x = l->v[--l->n];
		return;
	}
	if (!ps->stream_known || ps->file == 0)
		return;
	if (x == NULL) {
		/* A new stream: glibc puts it first in its list. */
		struct prog_run_stream *v = realloc(l->v, (l->n + 1) * sizeof *v);
		if (v == NULL)
			return;
		memmove(v + 1, v, l->n * sizeof *v);
		l->v = v;
		l->n++;
		x = &v[0];
	}
	x->st = ps->stream;
	x->name = ps->stream_name;   /* named when its call was logged (prog_marks_logged_step) */
	x->head_len = ps->head_len < sizeof x->head ? ps->head_len : sizeof x->head;
	memcpy(x->head, ps->head, x->head_len);
}

/* A copy of the streams ps into the step. */
static void
prog_run_set_streams(struct prog_run_step *s, const struct prog_run_pstreams *ps)
{
	free(s->streams);
	s->streams = NULL;
	s->n_streams = 0;
	s->streams_known = ps->known;
	if (ps->n > 0 && (s->streams = malloc(ps->n * sizeof *s->streams)) != NULL) {
		memcpy(s->streams, ps->v, ps->n * sizeof *s->streams);
		s->n_streams = ps->n;
	}
}

/* The stream the step used (the one on fd) into its state's stdio part (open false when
 * none). */
static void
prog_run_stdio_state(struct prog_run_step *s, int fd)
{
	struct snap_stdio *x = &s->sr.after.stdio;
	const struct prog_run_stream *use = NULL;

	memset(x, 0, sizeof *x);
	x->fd = -1;
	for (size_t i = 0; i < s->n_streams && use == NULL; i++)
		if (s->ps.kind == PROG_STEP_STDIO && s->ps.file != 0 && s->streams[i].st.addr == s->ps.file)
			use = &s->streams[i];
	for (size_t i = 0; i < s->n_streams && use == NULL; i++)
		if (fd >= 0 && s->streams[i].st.fd == fd)
			use = &s->streams[i];
	if (use == NULL)
		return;
	x->open = true;
	x->fd = use->st.fd;
	x->size = use->st.buf_size;
	x->pending = use->st.pending;
	x->read_avail = use->st.read_ahead;
	x->mode = use->st.mode == PROG_STREAM_UNBUFFERED ? SCN_BUF_NONE :
	          use->st.mode == PROG_STREAM_LINE ? SCN_BUF_LINE : SCN_BUF_FULL;
	x->writing = use->st.putting;
	x->reading = use->st.can_read && !use->st.putting;
	memcpy(x->head, use->head, use->head_len);
	x->head_len = use->head_len;
}

/* True if the call asks for data to reach the disk before it returns. */
static bool
prog_run_is_disk(const struct event *e, const struct snap_fd *fd)
{
	return event_is_sync(e) ||
	       (event_is_write(e) && fd->open && (fd->flags & (O_SYNC | O_DSYNC)) != 0);
}

/* What an io_uring's program is told. */
#define PROG_RUN_URING "this program submits I/O through io_uring: calls not observable"

/* What a program with more streams than are looked through is told (prog_streams_holds). */
#define PROG_RUN_MANY "this program has more than 4096 FILEs open at once: its reads and " \
	"writes are not looked through for stdio's (a flush from putc_unlocked is shown as its own)"
_Static_assert(PROG_STREAMS_CHAIN_MAX == 4096, "PROG_RUN_MANY names PROG_STREAMS_CHAIN_MAX");

/* What a stores step says when no store was observed (prog_step.stored). */
#define PROG_RUN_MAYBE_STORED "no store observed: the file's dirty pages did not rise since " \
	"the program's last call on it (a store on a page dirty already, a writeback in between, " \
	"or a filesystem that keeps no dirty count would hide one)"

/* True if the call step made a way to do I/O that no tracer sees (io_uring_setup). */
static bool
prog_run_unseen(const struct prog_step *p)
{
	const struct call_row *c = calls_find((uint64_t)p->ev.nr);

	return c != NULL && (c->flags & CALL_ASYNC) && (c->flags & CALL_NEWFD) && p->ev.result >= 0;
}

/* True for the program's execve (a step of no file: the program is not its data). */
static bool
prog_run_is_exec(const struct prog_step *p)
{
	const struct call_row *c = calls_find((uint64_t)p->ev.nr);

	return c != NULL && (c->flags & CALL_EXEC);
}

/* The log's name for the step: the call's or the function's. */
const char *
prog_run_label(const struct prog_run_step *s)
{
	switch (s->ps.kind) {
	case PROG_STEP_CALL: return s->ps.ev.call;
	case PROG_STEP_STDIO: return s->ps.func;
	case PROG_STEP_EXIT: return "exit";
	case PROG_STEP_STORES: return s->ps.stored ? "stores" : "may store";
	}
	return "?";
}

/*
 * A run of the program's own calls, one, as a folded stdio run is ("CALL x N: what they
 * did"): "write(4, 4096) x 4096: 16777216 B, each = 4096" when they are alike, else the bytes
 * they moved summed for each pair of fds: "copy_file_range(3, 4, ...) x 2: 1288895 B",
 * "splice(3, 6, ...) x 21: 1288895 B; splice(5, 4, ...) x 20: 1288895 B".
 */
static void
prog_run_fold_text(struct prog_run_step *s, const char *one)
{
	const struct event_list *l = &s->sr.events;
	const struct event *a = &l->v[0], *b = NULL;
	uint64_t n[2] = { 0, 0 }, moved[2] = { 0, 0 };
	bool same = true;

	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		int k = e->fd == a->fd && e->fd2 == a->fd2 ? 0 : 1;
		if (k == 1 && b == NULL)
			b = e;
		same = same && k == 0 && e->bytes == a->bytes && e->result == a->result &&
		       e->offset == a->offset && strcmp(e->detail, a->detail) == 0;
		n[k]++;
		moved[k] += e->result > 0 ? (uint64_t)e->result : 0;
	}
	if (same) {
		/* "write(4, 4096) x 4096: 16777216 B, each = 4096" */
		const char *eq = NULL;
		for (const char *q = strstr(one, " = "); q != NULL; q = strstr(q + 1, " = "))
			eq = q;
		text_addn(&s->text, one, eq != NULL ? (size_t)(eq - one) : strlen(one));
		text_addf(&s->text, " x %" PRIu64 ": %" PRIu64 " B", s->count, moved[0]);
		if (eq != NULL)
			text_addf(&s->text, ", each%s", eq);
		return;
	}
	text_addf(&s->text, "[%d] ", (int)s->ps.pid);
	for (int k = 0; k < 2; k++) {
		const struct event *e = k == 0 ? a : b;
		if (e == NULL)
			continue;
		text_addf(&s->text, "%s%s(%d, ", k ? "; " : "", e->call, e->fd);
		if (e->fd2 >= 0)
			text_addf(&s->text, "%d, ", e->fd2);
		text_addf(&s->text, "...) x %" PRIu64 ": %" PRIu64 " B", n[k], moved[k]);
	}
}

/*
 * What a student reads of a system call stdio made from a call the shim cannot see (the
 * tracer found its bytes in a stream's buffer), after the call: "write(3, 4096) x 2: 8192 B,
 * each = 4096; stdio flushing fp's buffer, from code iobufviz cannot see (...)". The stream
 * is the FILE whose buffer held the bytes: stdin, stdout, stderr when it is the one libc
 * made for it, else fp, with its address when another FILE shares its fd ("fp's
 * buffer (FILE* 0x5612..., one of 2 on fd 1)": an fdopen(1) beside stdout). Its fstat, before
 * there is a buffer, is for the one stream on its fd with none yet ("a new buffer, for one of
 * the 2 FILEs on fd 1 that have none" when several have none). The one place it is worded.
 */
static void
prog_run_unseen_text(struct prog_run_step *s)
{
	const struct event *e = &s->ps.ev;
	const struct prog_streams_owner *o = &s->ps.unseen_of;
	const char *fp = o->file != 0 ? o->name : prog_streams_name(NULL, 0, e->fd);
	bool rd = event_is_read(e), wr = event_is_write(e);
	char whose[120];

	if (s->ps.kind != PROG_STEP_CALL || e->origin != EV_STDIO)
		return;
	if (o->file == 0 && o->others > 0)
		snprintf(whose, sizeof whose, "a new buffer, for one of the %u FILEs on fd %d that "
		         "have none", o->others + 1, e->fd);
	else if (o->file != 0 && strcmp(fp, "fp") == 0 && o->others > 0)
		snprintf(whose, sizeof whose, "fp's %sbuffer (FILE* %#" PRIx64 ", one of %u on fd %d)",
		         rd || wr ? "" : "new ", o->file, o->others + 1, e->fd);
	else
		snprintf(whose, sizeof whose, "%s's %sbuffer", fp, rd || wr ? "" : "new ");
	/* After a fold's own colon ("x 2: 8192 B, each = 4096"), a semicolon. */
	text_addf(&s->text, "%s stdio %s %s, from code iobufviz cannot see (a macro such as %s, "
	          "an inlined call, or the C library's own use of stdio)",
	          strchr(text_str(&s->text), ':') != NULL ? ";" : ":",
	          rd ? "refilling" : wr ? "flushing" : "asking the block size to size", whose,
	          rd ? "getc_unlocked" : wr ? "putc_unlocked" : "putc_unlocked or getc_unlocked");
}

/*
 * A setvbuf step's line, after the call as the program passed it: the buffer glibc then uses,
 * where that is not the size passed. With a NULL buffer glibc ignores the size: _IOFBF
 * allocates st_blksize bytes at once, _IOLBF at the first I/O. An own buffer is
 * used as given, and an unbuffered stream's one byte is no size anyone passes.
 */
static void
prog_run_setvbuf_text(struct prog_run_step *s)
{
	const struct prog_stream *st = s->ps.stream_known ? &s->ps.stream : NULL;
	uint64_t asked = (uint64_t)s->ps.arg[1];

	if (s->ps.kind != PROG_STEP_STDIO || s->ps.func_base != PROG_MARK_FUNC_setvbuf ||
	    s->count != 1 || s->ps.ret != 0 || (s->ps.arg[0] & 0xff) == _IONBF)
		return;
	for (size_t i = 0; st == NULL && i < s->n_streams; i++)
		if (s->streams[i].st.addr == s->ps.file)
			st = &s->streams[i].st;
	if (st == NULL || st->buf_size == asked)
		return;
	if (st->buf_size == 0)
		text_addf(&s->text, "; glibc's buffer: none yet (%" PRIu64 " B passed, ignored with "
		          "a NULL buffer: glibc allocates st_blksize bytes at the first I/O)", asked);
	else
		text_addf(&s->text, "; glibc's buffer: %" PRIu64 " B, not the %" PRIu64 " passed%s",
		          st->buf_size, asked, s->ps.arg[0] & 0x100 ? "" :
		          " (ignored with a NULL buffer: st_blksize bytes)");
}

/* The step's line: the call as the program wrote it, a fold's count, the calls it made. */
static void
prog_run_text(struct prog_run_step *s)
{
	const struct event_list *l = &s->sr.events;
	const struct event *last = l->n > 0 ? &l->v[l->n - 1] : NULL;
	char one[PROG_FORMAT_STEP_MAX], ev[256];
	const char *sep;
	size_t same = 0;
	uint64_t moved = 0;

	text_reset(&s->text);
	prog_format_step(&s->ps, one, sizeof one);
	if (s->ps.kind == PROG_STEP_CALL && s->count > 1) {
		prog_run_fold_text(s, one);
		return;
	}
	if (s->ps.kind == PROG_STEP_STDIO && s->ps.func_id == PROG_MARK_EXIT_ID)
		text_addf(&s->text, "[%d] exit() flushes %s: ", (int)s->ps.pid,
		          prog_format_stream(&s->ps));
	else if (s->count > 1)
		/* What the run did: "fputc(c, fp) x 4097: 4097 B". */
		prog_format_fold(s, &s->text);
	else
		text_add(&s->text, one);
	if (s->ps.kind != PROG_STEP_STDIO || l->n == 0)
		return;
	sep = s->ps.func_id == PROG_MARK_EXIT_ID ? "" :
	      s->ps.func_base == PROG_MARK_FUNC_fopen || s->ps.func_base == PROG_MARK_FUNC_fdopen ||
	      s->ps.func_base == PROG_MARK_FUNC_freopen || s->ps.func_base == PROG_MARK_FUNC_tmpfile ?
	      ": " : " -> ";
	/* Several calls like its last (a run of buffer flushes): "-> write(1, ...) x 4095:
	 * 16773120 B"; else its first. */
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].fd == last->fd && strcmp(l->v[i].call, last->call) == 0) {
			same++;
			moved += l->v[i].result > 0 ? (uint64_t)l->v[i].result : 0;
		}
	if (same > 1) {
		text_addf(&s->text, "%s%s(%d, ...) x %zu: %" PRIu64 " B", sep, last->call, last->fd,
		          same, moved);
	} else {
		same = 1;
		text_addf(&s->text, "%s%s", sep, event_format(&l->v[0], ev, sizeof ev));
	}
	if (l->n + l->dropped > same)
		text_addf(&s->text, " + %zu more call%s", l->n + l->dropped - same,
		          l->n + l->dropped - same == 1 ? "" : "s");
}

/*
 * Observe the step as its last call left it: the file's page cache and disk, the fd, every
 * stream of its process (or ps when given), what changed. The process is stopped (at the
 * step's call, or before the next one) or gone.
 */
void
prog_run_observe(struct prog_run *r, struct prog_run_step *s, const struct prog_run_pstreams *ps)
{
	struct step_result *sr = &s->sr;
	const struct prog_step *p = &s->ps;
	bool alive = p->kind != PROG_STEP_EXIT;
	uint64_t foreign;
	int tfd = -1;

	sr->index = r->n_steps++;
	sr->step = &s->scn;
	s->scn.op = SCN_OP_NOTE;
	s->scn.line = s->scn.col = 1;
	sr->label = prog_run_label(s);
	sr->folded = s->count > 1;
	sr->events.source = EV_SRC_PTRACE;
	sr->ok = true;
	/* The scenario op of the same name (read, fwrite, ...), for what keys on ops. A failed
	 * step stays a note: its narration names the real call, not an op's args. */
	if (p->kind != PROG_STEP_EXIT && !(p->kind == PROG_STEP_CALL && p->ev.err != 0)) {
		int op = scenario_op_find(p->kind == PROG_STEP_STDIO ? prog_marks_name(p->func_base) :
		                          p->ev.call);
		if (op >= 0 && scenario_op_has((enum scn_op)op, SCN_OPF_CALL))
			s->scn.op = (enum scn_op)op;
	}
	switch (p->kind) {
	case PROG_STEP_CALL:
		sr->ret = p->ev.result;
		sr->err = p->ev.err;
		if (prog_run_unseen(p) || p->unchecked) {
			const char *why = p->unchecked ? PROG_RUN_MANY : PROG_RUN_URING;
			text_setf(&sr->note, "%s", why);
			r->unseen_note = why;
		}
		/* The fd of its file (a copy's may be its second; an open's is its result). */
		tfd = p->file_fd >= 0 ? p->file_fd : p->ev.fd;
		if ((p->regular || p->ev.fd >= 0) && !prog_run_is_exec(p))
			s->file = prog_run_file_of(r, p->pid, tfd, p->path, p->dev, p->ino);
		break;
	case PROG_STEP_STORES:
		if (!p->stored)
			text_setf(&sr->note, "%s", PROG_RUN_MAYBE_STORED);
		/* The mapped file, by the dev:ino the tracer saw (its fd may be closed). */
		s->file = prog_run_file_of(r, p->pid, -1, p->path, p->dev, p->ino);
		break;
	case PROG_STEP_STDIO:
		sr->ret = p->ret;
		tfd = p->stdio_fd;
		/* fclose's fd is gone: its file is known by the dev:ino the tracer saw. */
		if (tfd >= 0)
			s->file = prog_run_file_of(r, p->pid, tfd, NULL, p->dev, p->ino);
		break;
	case PROG_STEP_EXIT:
		sr->ret = p->signal != 0 ? 128 + p->signal : p->exit_code;
		if (p->pid == prog_trace_pid(r->t)) {
			r->exit = *p;
			r->exited = true;
		}
		prog_run_live_drop(r, p->pid);
		break;
	}
	if (ps == NULL && s->live)
		ps = prog_run_live(r, p->pid);
	if (ps != NULL)
		prog_run_set_streams(s, ps);
	s->live = false;
	if (s->file < 0 && s->ps.kind == PROG_STEP_STDIO && s->ps.file != 0) {
		/* A stdio call that made no system call: the file of its stream's fd. */
		for (size_t i = 0; i < s->n_streams; i++)
			if (s->streams[i].st.addr == s->ps.file && s->streams[i].st.fd >= 0) {
				s->file = prog_run_file_of(r, p->pid, s->streams[i].st.fd, NULL, 0, 0);
				break;
			}
	}
	/* An exit: the file the panes were showing (not the one opened last, which may be one
	 * it only read), as the exit left it: its stream flushed or closed. */
	if (s->file < 0 && p->kind == PROG_STEP_EXIT)
		s->file = r->shown_file;
	if (s->file >= 0)
		r->shown_file = s->file;
	if (s->file < 0) {
		memset(&sr->after, 0, sizeof sr->after);
		sr->after.cache.source = SNAP_SRC_NONE;
		snprintf(sr->after.cache.note, sizeof sr->after.cache.note, "no regular file");
		snprintf(sr->after.disk.note, sizeof sr->after.disk.note, "no regular file");
		prog_run_stdio_state(s, p->kind == PROG_STEP_STDIO ? p->stdio_fd : tfd);
		sr->before = sr->after;
		prog_lab_observe(r, s);
		return;
	}
	struct prog_run_file *f = &r->files[s->file];
	if (f->seen)
		sr->before = f->last;
	sr->after = f->seen ? f->last : sr->before;
	prog_run_probe(r, f, alive ? p->pid : 0, &sr->after);
	foreign = prog_run_foreign_wb(r, f);
	if (alive && tfd >= 0 && p->kind == PROG_STEP_CALL)
		probe_fd(p->pid, tfd, &sr->after.fd);
	/* An exit: the stream of the fd its file was last used through. */
	prog_run_stdio_state(s, p->kind == PROG_STEP_STDIO ? p->stdio_fd :
	                     p->kind == PROG_STEP_CALL ? tfd :
	                     f->seen && f->last.stdio.open ? f->last.stdio.fd : -1);
	if (!f->seen)
		sr->before = sr->after;
	snapshot_diff(&sr->before, &sr->after, &sr->events, &sr->changes);
	f->last = sr->after;
	f->seen = true;
	for (size_t i = 0; i < sr->events.n && !s->disk; i++)
		s->disk = prog_run_is_disk(&sr->events.v[i], &sr->after.fd);
	if (foreign > 0)
		prog_run_not_ours(s, foreign);
	prog_lab_observe(r, s);
}

/* Put s, observed, at the end of the queue. 0, or -1 (ENOMEM: s is freed). */
int
prog_run_push(struct prog_run *r, struct prog_run_step *s)
{
	if (r->qhead > 0 && r->qhead == r->qn) {
		r->qhead = r->qn = 0;
	}
	if (r->qn == r->qcap) {
		struct prog_run_step **v = grow(r->q, &r->qcap, r->qn, sizeof *v, 16);
		if (v == NULL) {
			prog_run_step_clear(s);
			free(s);
			r->failed = true;
			return -1;
		}
		r->q = v;
	}
	prog_run_text(s);
	prog_run_setvbuf_text(s);
	prog_run_unseen_text(s);
	s->scn.args.text = s->text.s;
	r->q[r->qn++] = s;
	return 0;
}

/* The stdio functions step s called. */
uint64_t
prog_run_stdio_calls(const struct prog_run_step *s)
{
	return s->ps.kind == PROG_STEP_STDIO && s->ps.func_id != PROG_MARK_EXIT_ID ? s->count : 0;
}

/* Free what a step owns. */
void
prog_run_step_clear(struct prog_run_step *s)
{
	if (s == NULL)
		return;
	step_result_clear(&s->sr);
	text_buf_free(&s->text);
	free(s->calls);
	free(s->streams);
	s->calls = NULL;
	s->streams = NULL;
	s->n_streams = 0;
}
