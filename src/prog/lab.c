/* SPDX-License-Identifier: MIT */
/* prog/lab.c: a traced program run in a crash lab (--crash-fs): its working directory is the
 * lab's filesystem, and after each step both crashes of the lab's file it last touched. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "crash/file.h"
#include "crash/lab.h"
#include "crash/power.h"
#include "probe/probe.h"
#include "prog/run-int.h"

/* Whether the lab cannot be made (see prog/run-int.h). As a lesson does without root: the
 * program still runs, where it would without --crash-fs, and the run says once why no crash
 * is shown (a student's own program is worth seeing run even without its power cut). */
bool
prog_lab_refused(struct prog_run *r, enum crash_fs fs)
{
	if (geteuid() == 0)
		return false;
	text_setf(&r->lab_note, "--crash-fs=%s: not observable here: the crash lab needs root to "
	          "mount a filesystem image; the program runs without it, where it would without "
	          "--crash-fs, and no crash is shown after its steps", crash_fs_table[fs].name);
	return true;
}

/* Make the lab and run the program in it (see prog/run-int.h). */
int
prog_lab_new(struct prog_run *r, enum crash_fs fs, struct prog_opts *po, char **err)
{
	const char *name = crash_fs_table[fs].name;
	char msg[PATH_MAX + 128];
	struct stat st;
	int e;
	/* No size is known ahead of a program: the lab's least (crash/lab.h). */
	r->lab = crash_lab_new(fs, r->scratch, 0, msg, sizeof msg);
	if (r->lab == NULL) {
		e = errno;
		errmsg_set(err, "cannot make the crash lab (--crash-fs=%s): %s", name, msg);
		errno = e;
		return -1;
	}
	if (fstat(crash_lab_dirfd(r->lab), &st) != 0) {
		e = errno;
		errmsg_set(err, "the crash lab: %s", strerror(e));
		errno = e;
		return -1;
	}
	r->lab_dev = st.st_dev;
	/* Ours to open; the program gets the directory itself (fchdir before its execve), never
	 * this path: a /proc/<iobufviz>/fd link is not the program's to follow. */
	snprintf(r->dir, sizeof r->dir, "%s", crash_lab_path(r->lab));
	po->cwd = NULL;
	po->cwd_fd = crash_lab_dirfd(r->lab);
	/* The device's counters from the lab's birth: all of them 0. */
	r->lab_last = (struct snap_device){ .source = SNAP_SRC_BLOCKSTAT };
	snprintf(r->lab_last.name, sizeof r->lab_last.name, "%s", crash_lab_device(r->lab));
	/* Its fs, its device and the image's size, for the run's head. */
	text_setf(&r->lab_note, "the program runs in a crash lab: an image of its own (%s, %llu MiB "
	          "sparse) on /dev/%s, mounted where only this run reaches it (%s)", name,
	          (unsigned long long)(crash_lab_bytes(r->lab) >> 20), crash_lab_device(r->lab),
	          r->dir);
	return 0;
}

/* The lab, or why there is none (see prog/run.h). */
const char *
prog_run_lab(const struct prog_run *r)
{
	return r->lab_note.len > 0 ? text_str(&r->lab_note) : NULL;
}

/* Whether the program runs in a lab. */
bool
prog_run_in_lab(const struct prog_run *r)
{
	return r->lab != NULL;
}

/*
 * f was just added. A file on the lab's filesystem reads, through /proc, as a path from the
 * lab's root ("/out.txt": it is mounted nowhere); it becomes one we can open (the lab's
 * /proc path before it), and its name there.
 */
void
prog_lab_file(struct prog_run *r, struct prog_run_file *f)
{
	size_t dl = strlen(r->dir);
	char path[PATH_MAX];

	if (r->lab == NULL || f->dev != r->lab_dev || f->path[0] != '/')
		return;
	f->in_lab = true;
	if (strncmp(f->path, r->dir, dl) != 0 || f->path[dl] != '/') {
		if ((size_t)snprintf(path, sizeof path, "%s%s", r->dir, f->path) >= sizeof path)
			return;
		memcpy(f->path, path, strlen(path) + 1);
	}
	memmove(f->name, f->path + dl + 1, strlen(f->path + dl + 1) + 1);
	memcpy(f->lab_name, f->name, strlen(f->name) + 1);
}

/* The name f has in the lab now (a rename moves it: so do its name and path in the steps),
 * from our own fd of it; the last known one when it has none (unlinked). */
static const char *
prog_lab_name(const struct prog_run *r, struct prog_run_file *f)
{
	char link[64], now[PATH_MAX];
	size_t dl = strlen(r->dir);
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", f->fd);
	if (f->fd >= 0 && (n = readlink(link, now, sizeof now - 1)) > 1 && now[0] == '/') {
		now[n] = '\0';
		if (strstr(now, " (deleted)") == NULL && strcmp(now + 1, f->lab_name) != 0 &&
		    dl + (size_t)n < sizeof f->path) {
			memcpy(f->lab_name, now + 1, (size_t)n);
			memcpy(f->name, now + 1, (size_t)n);
			memcpy(f->path + dl, now, (size_t)n + 1);
		}
	}
	return f->lab_name;
}

/* Milliseconds since t0. */
static double
prog_lab_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/*
 * The process crash of f: the program killed by SIGKILL now. A SIGKILL runs none of its code
 * (no flush, no atexit): its stdio buffers go with it, and what another process then reads
 * is the file as the kernel holds it now. So it is read now, while the program is stopped
 * after the step, through our own fd of it (no open file of it made and closed), leaving its
 * page cache as it was. The first process gone, there is nothing left to kill.
 */
static void
prog_lab_process(struct prog_run *r, const struct prog_run_step *s, struct prog_run_file *f,
                 const char *name, struct crash_half *out)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (r->exited) {
		crash_half_unobserved(out, "not observable: the program had already ended (%s)",
		                      s->ps.kind == PROG_STEP_EXIT ? "this step" : "an earlier step");
		return;
	}
	if (crash_file_read(crash_lab_dirfd(r->lab), name, f->fd, true, &out->file) != 0) {
		crash_half_unobserved(out, "cannot read %s: %s", name, strerror(errno));
		return;
	}
	out->observed = true;
	out->ms = prog_lab_ms(&t0);
}

/* What reached the lab's device since it was made, into out. */
static void
prog_lab_device(const struct prog_run *r, struct snap_device *out)
{
	crash_lab_since_birth(r->lab, out);
}

/*
 * s is observed (the program stopped after its last call): what reached the device in it,
 * and both crashes of the lab's file it touched, else of the one a step touched last (none
 * before the program made or opened one there).
 */
void
prog_lab_observe(struct prog_run *r, struct prog_run_step *s)
{
	struct crash_view *v;
	struct prog_run_file *f;
	const char *name;

	if (r->lab == NULL)
		return;
	s->sr.before.device = r->lab_last;
	prog_lab_device(r, &s->sr.after.device);
	r->lab_last = s->sr.after.device;
	if (s->file >= 0 && r->files[s->file].in_lab)
		r->lab_file = s->file;
	if (r->lab_file < 0 || (v = calloc(1, sizeof *v)) == NULL)
		return;
	f = &r->files[r->lab_file];
	name = prog_lab_name(r, f);
	snprintf(v->file, sizeof v->file, "%s", name);
	if (strchr(name, '/') != NULL) {
		/* crash/file.c looks in one directory, never through another's name. */
		crash_half_unobserved(&v->process, "not observable: %s is not in the lab's top "
		                      "directory", name);
		v->power = v->process;
	} else {
		/* The power cut first: the device's state is the one instant that time changes. */
		crash_power_cut(r->lab, name, &v->power);
		prog_lab_process(r, s, f, name, &v->process);
	}
	free(s->sr.crash);
	s->sr.crash = v;
	s->crash_file = r->lab_file;
}

/* The lab goes once nothing of ours is under it (the program, killed, is not either). */
void
prog_lab_free(struct prog_run *r)
{
	crash_lab_free(r->lab);
	r->lab = NULL;
}
