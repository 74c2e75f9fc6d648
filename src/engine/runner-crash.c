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

/* After step sr: the file each handle names, and the strays when a file was made durable. */
void
runner_crash_synced(struct runner *r, const struct step_result *sr)
{
	const struct scn_step *st = sr->step;
	const char *name;
	size_t i;

	if (st == NULL || st->handle > SCN_MAX_NAMES)
		return;
	if ((st->op == SCN_OP_OPEN || st->op == SCN_OP_FOPEN) && (st->made || st->name == NULL))
		r->handle_file[st->handle] = st->args.file;
	if (sr->ret < 0)
		return;
	if (st->op == SCN_OP_OPEN)
		r->handle_dir[st->handle] = (st->args.flags & O_DIRECTORY) != 0;
	if ((st->op == SCN_OP_FSYNC || st->op == SCN_OP_FDATASYNC) && r->handle_dir[st->handle])
		r->strays_at_dirsync = r->stray_writes;
	if (st->op == SCN_OP_SYNC) {
		r->strays_at_sync = r->stray_writes;
		return;
	}
	if (st->op != SCN_OP_FSYNC && st->op != SCN_OP_FDATASYNC)
		return;
	name = r->handle_file[st->handle] != NULL ? r->handle_file[st->handle] : RUNNER_FILE_NAME;
	for (i = 0; i < r->n_synced && strcmp(r->synced[i].name, name) != 0; i++)
		;
	if (i == r->n_synced) {
		if (i == sizeof r->synced / sizeof r->synced[0])
			return;
		r->synced[r->n_synced++].name = name;
	}
	r->synced[i].strays = r->stray_writes;
}

/*
 * The power cut's stray writes on file NAME: those counted up to the last step's end, and
 * those between its end and the copy (both count from the lab's birth), less those before the
 * lesson last made the file durable; and those the lesson's steps made.
 */
static void
runner_crash_stray(const struct runner *r, const char *name, struct crash_half *p)
{
	uint64_t before = r->strays_at_sync;

	for (size_t i = 0; i < r->n_synced; i++)
		if (strcmp(r->synced[i].name, name) == 0 && r->synced[i].strays > before)
			before = r->synced[i].strays;
	p->stray_writes = r->stray_writes - before;
	p->own_writes = r->own_writes;
	if (r->dev_last.source == SNAP_SRC_NONE)
		p->stray_writes = p->device_writes;
	else if (p->device_writes > r->dev_last.writes &&
	         p->device_write_bytes > r->dev_last.write_bytes)
		p->stray_writes += p->device_writes - r->dev_last.writes;
	/* Those before a directory's fsync() left its names durable (ext4, xfs and btrfs
	 * commit the new name and its inode there). */
	uint64_t dir = r->strays_at_dirsync > before ? r->strays_at_dirsync - before : 0;
	p->name_strays = p->stray_writes > dir ? p->stray_writes - dir : 0;
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
