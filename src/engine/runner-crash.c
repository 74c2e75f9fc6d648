/* SPDX-License-Identifier: MIT */
/* engine/runner-crash.c: both crashes at one point of a run: the process's, played by a copy of
 * the worker, and the power cut's, from the crash lab's device (crash/power.c); the crash step.
 * What reached the device between the lesson's steps is engine/runner-device.c's. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "crash/file.h"
#include "crash/lab.h"
#include "crash/power.h"
#include "engine/runner-int.h"
#include "probe/probe.h"

/* Milliseconds since t0. */
static double
runner_crash_ms(const struct timespec *t0)
{
	return runner_since(t0) * 1e3;
}

/*
 * The process crashes now: the worker's copy dies by SIGKILL (worker.c, WORKER_CRASH), the
 * tracer following it as it follows an op's child; then NAME is read here, by another process,
 * leaving its page cache as it was.
 */
static void
runner_crash_process(struct runner *r, const char *name, struct crash_half *out)
{
	struct event_list seen = { 0 };
	struct worker_reply rep;
	struct timespec t0;
	int st = 0, rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(out, 0, sizeof *out);
	if (r->dead) {
		crash_half_unobserved(out, "not observable: the process had already ended (%s)",
		                      r->dead_note);
		return;
	}
	/* If this fails the worker is gone: the tracer or the reply's EOF says how. */
	(void)worker_send(&r->w, WORKER_CRASH);
	if (r->tracer != NULL) {
		rc = tracer_step(r->tracer, EV_DIRECT, r->cur_fd, &seen, &st);
		event_list_clear(&seen);
		if (rc == 1) {
			runner_mark_dead(r, st);
		} else if (rc < 0 && errno != ENOMEM) {
			int e = errno;
			runner_kill_worker(r);
			r->dead = true;
			snprintf(r->dead_note, sizeof r->dead_note, "tracer error (%s): worker stopped",
			         strerror(e));
		}
	}
	rc = r->dead ? 0 : worker_recv(&r->w, &rep);
	if (rc != 1) {
		if (!r->dead && r->w.pid > 0 && waitpid(r->w.pid, &st, 0) == r->w.pid)
			runner_mark_dead(r, st);
		crash_half_unobserved(out, "not observable: the worker was lost (%s)",
		                      r->dead ? r->dead_note : "no reply");
		return;
	}
	if (rep.ret != 0) {
		crash_half_unobserved(out, "not observable: the copy of the process did not die by "
		                      "SIGKILL (%s)", rep.err != 0 ? strerror(rep.err) : "it ended "
		                      "otherwise");
		return;
	}
	/* Through our own fd when it is the scratch file: no open file of it made and closed. */
	if (crash_file_read(r->dirfd, name, r->probe_fd, true, &out->file) != 0) {
		crash_half_unobserved(out, "cannot read %s: %s", name, strerror(errno));
		return;
	}
	out->observed = true;
	out->ms = runner_crash_ms(&t0);
}

/* The entry of file NAME in r->synced (added, dirty since the lab's birth, when ADD; NULL
 * when not there, or full). */
static struct runner_synced *
runner_crash_file(struct runner *r, const char *name, bool add)
{
	size_t i;

	for (i = 0; i < r->n_synced && strcmp(r->synced[i].name, name) != 0; i++)
		;
	if (i < r->n_synced)
		return &r->synced[i];
	if (!add || i == sizeof r->synced / sizeof r->synced[0])
		return NULL;
	r->synced[r->n_synced++] = (struct runner_synced){ .name = name };
	return &r->synced[i];
}

/* File f (NULL: every file) changed: its data, its name. */
static void
runner_crash_dirty(struct runner *r, struct runner_synced *f, bool data, bool name)
{
	for (size_t i = 0; i < r->n_synced; i++) {
		struct runner_synced *e = &r->synced[i];
		if (f != NULL && e != f)
			continue;
		if (data && e->data_clean) {
			e->data_clean = false;
			e->data_dirty_at = r->stray_writes;
		}
		if (name && e->name_clean) {
			e->name_clean = false;
			e->name_dirty_at = r->stray_writes;
		}
	}
}

/* After step sr: the file each handle names, what the step changed of which file, and the
 * strays when a file was made durable. */
void
runner_crash_synced(struct runner *r, const struct step_result *sr)
{
	const struct scn_step *st = sr->step;
	struct runner_synced *f;
	const char *name;

	if (st == NULL || st->handle > SCN_MAX_NAMES)
		return;
	if ((st->op == SCN_OP_OPEN || st->op == SCN_OP_FOPEN) && (st->made || st->name == NULL))
		r->handle_file[st->handle] = st->args.file;
	if (st->op == SCN_OP_OPEN && sr->ret >= 0) {
		r->handle_dir[st->handle] = (st->args.flags & O_DIRECTORY) != 0;
		r->handle_sync[st->handle] = (st->args.flags & O_DSYNC) != 0;
	}
	name = r->handle_file[st->handle] != NULL ? r->handle_file[st->handle] : RUNNER_FILE_NAME;
	f = r->handle_dir[st->handle] ? NULL : runner_crash_file(r, name, true);
	/* What the step changed: its file's data (a write, a truncation), its name (made,
	 * renamed); a write of a step that is no call on its handle (exit()'s flush, a child's,
	 * a run: step's program) may be any file's. */
	switch (st->op) {
	case SCN_OP_FWRITE: case SCN_OP_FPUTS: case SCN_OP_PRINTF: case SCN_OP_FFLUSH:
	case SCN_OP_FCLOSE: case SCN_OP_WRITE: case SCN_OP_PWRITE:
		if (sr->events.n_write > 0 && f != NULL)
			runner_crash_dirty(r, f, true, false);
		break;
	case SCN_OP_FTRUNCATE: case SCN_OP_FALLOCATE:
		if (f != NULL)
			runner_crash_dirty(r, f, true, false);
		break;
	case SCN_OP_FOPEN:
		if (f != NULL)
			runner_crash_dirty(r, f, true, true);
		break;
	case SCN_OP_OPEN:
		if (f != NULL && (st->args.flags & (O_CREAT | O_TRUNC)))
			runner_crash_dirty(r, f, true, true);
		break;
	case SCN_OP_RENAME: {
		/* The new name holds the old name's file: its data as durable as it was. */
		struct runner_synced *from = st->args.file != NULL ?
		                             runner_crash_file(r, st->args.file, true) : NULL;
		struct runner_synced *to = st->args.to != NULL ?
		                           runner_crash_file(r, st->args.to, true) : NULL;
		if (from != NULL && to != NULL && sr->ret >= 0) {
			to->strays = from->strays;
			to->data_clean = from->data_clean;
			to->data_dirty_at = from->data_dirty_at;
		}
		runner_crash_dirty(r, from, false, true);
		runner_crash_dirty(r, to, to == NULL || from == NULL || sr->ret < 0, true);
		break;
	}
	case SCN_OP_FSYNC: case SCN_OP_FDATASYNC: case SCN_OP_SYNC: case SCN_OP_CRASH:
		break;
	default:
		if (sr->events.n_write > 0 || st->op == SCN_OP_RUN)
			runner_crash_dirty(r, NULL, true, true);
		break;
	}
	if (sr->ret < 0)
		return;
	/* A write on a descriptor opened O_SYNC or O_DSYNC returns once it is durable, as if
	 * fsync() (fdatasync()) followed it. */
	if (f != NULL && r->handle_sync[st->handle] &&
	    (st->op == SCN_OP_WRITE || st->op == SCN_OP_PWRITE)) {
		f->strays = r->stray_writes;
		f->data_clean = f->name_clean = true;
		return;
	}
	if (st->op == SCN_OP_SYNC) {
		r->strays_at_sync = r->stray_writes;
		for (size_t i = 0; i < r->n_synced; i++)
			r->synced[i].data_clean = r->synced[i].name_clean = true;
		return;
	}
	if (st->op != SCN_OP_FSYNC && st->op != SCN_OP_FDATASYNC)
		return;
	/* A directory's fsync() makes the names in it durable; a file's, the file: its data,
	 * and its name with it on ext4, xfs and btrfs (what their journals commit). */
	if (r->handle_dir[st->handle]) {
		for (size_t i = 0; i < r->n_synced; i++)
			r->synced[i].name_clean = true;
		return;
	}
	if (f == NULL)
		return;
	f->strays = r->stray_writes;
	f->data_clean = f->name_clean = true;
}

/* Of the total strays (counted from the lab's birth), those since AT, and none while CLEAN. */
static uint64_t
runner_crash_since(uint64_t total, bool clean, uint64_t at)
{
	return clean ? 0 : total > at ? total - at : 0;
}

/*
 * The power cut's stray writes on file NAME: those counted up to the last step's end, and
 * those between its end and the copy (both count from the lab's birth), less those before the
 * lesson last made the file durable; of them, those since its data and its name last changed;
 * and those the lesson's steps made.
 */
static void
runner_crash_stray(struct runner *r, const char *name, struct crash_half *p)
{
	struct runner_synced *f = runner_crash_file(r, name, false);
	uint64_t before = r->strays_at_sync;

	if (f != NULL && f->strays > before)
		before = f->strays;
	p->stray_writes = r->stray_writes - before;
	p->own_writes = r->own_writes;
	if (r->dev_last.source == SNAP_SRC_NONE)
		p->stray_writes = p->device_writes;
	else if (p->device_writes > r->dev_last.writes &&
	         p->device_write_bytes > r->dev_last.write_bytes)
		p->stray_writes += p->device_writes - r->dev_last.writes;
	p->kept_strays = p->name_strays = p->stray_writes;
	if (f == NULL || r->dev_last.source == SNAP_SRC_NONE)
		return;
	uint64_t total = p->stray_writes + before;
	p->kept_strays = runner_crash_since(total, f->data_clean,
	                                    f->data_dirty_at > before ? f->data_dirty_at : before);
	p->name_strays = runner_crash_since(total, f->name_clean,
	                                    f->name_dirty_at > before ? f->name_dirty_at : before);
}

/* Both crashes now (see engine/runner.h). */
int
runner_crash(struct runner *r, const char *name, struct crash_view *out)
{
	memset(out, 0, sizeof *out);
	if (name == NULL)
		name = RUNNER_FILE_NAME;
	snprintf(out->file, sizeof out->file, "%s", name);
	out->after_s = runner_since(&r->step_end);
	/* The power cut first: the device's state is the one instant that time changes. */
	if (r->lab != NULL) {
		crash_power_cut(r->lab, name, &out->power);
		if (out->power.tries > 0)
			runner_crash_stray(r, name, &out->power);
	} else {
		crash_half_unobserved(&out->power, "%s", r->lab_why);
	}
	runner_crash_process(r, name, &out->process);
	return out->process.observed || out->power.observed ? 0 : -1;
}

/* crash: both crashes now; the lesson goes on. */
void
runner_op_crash(struct runner *r, const struct scn_step *step, struct step_result *out)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	out->events.source = r->source;
	out->crash = malloc(sizeof *out->crash);
	if (out->crash == NULL) {
		out->ret = -1;
		out->err = ENOMEM;
		return;
	}
	runner_crash(r, step->args.file, out->crash);
	out->ret = 0;
	out->err = 0;
	out->op_ns = (uint64_t)(runner_crash_ms(&t0) * 1e6);
}
