/* SPDX-License-Identifier: MIT */
/* engine/runner-file.c: the run's scratch file: where it goes (a scratch dir, or a crash lab),
 * what is said about that place, and its prefill. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "base/fdio.h"
#include "crash/lab.h"
#include "base/text.h"
#include "engine/runner-int.h"
#include "probe/probe.h"
#include "probe/wbwatch.h"
#include "scratch/scratch.h"

/*
 * Prefill size bytes: numbered lines "line 000001\n" (the last one cut to fit, still
 * ending in '\n') or zeros. Then fsync and drop the cache: a clean, cold start.
 */
static int
runner_prefill(int fd, uint64_t size, enum scn_fill fill)
{
	const size_t cap = 1 << 20;
	char *buf = malloc(cap);
	uint64_t left = size, lineno = 1;
	size_t n = 0;
	int rc = 0;

	if (buf == NULL)
		return -1;
	if (fill == SCN_FILL_ZERO)
		memset(buf, 0, cap);
	while (left > 0 && rc == 0) {
		if (fill == SCN_FILL_ZERO) {
			n = left < cap ? (size_t)left : cap;
		} else {
			n = 0;
			while (n < cap && left - n > 0) {
				char line[32];
				int len = snprintf(line, sizeof line, "line %06" PRIu64 "\n", lineno++);
				size_t room = cap - n;
				if ((uint64_t)len > left - n) {
					/* The last line: as much as fits, ending in a newline. */
					size_t k = (size_t)(left - n);
					memcpy(buf + n, line, k - 1);
					buf[n + k - 1] = '\n';
					n += k;
					break;
				}
				if ((size_t)len > room)
					break;
				memcpy(buf + n, line, (size_t)len);
				n += (size_t)len;
			}
		}
		rc = fdio_write_all(fd, buf, n);
		left -= n;
	}
	free(buf);
	if (rc == 0 && size > 0 && fsync(fd) != 0)
		rc = -1;
	if (rc == 0)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return rc;
}

/* True if the lesson expects anything of the disk. */
static bool
runner_about_disk(const struct scenario *s)
{
	for (size_t i = 0; i < s->n_steps; i++)
		for (size_t k = 0; k < s->steps[i].n_expects; k++) {
			enum scn_key key = s->steps[i].expects[k].key;
			if (key == SCN_KEY_DISK_ALLOCATED_BYTES || key == SCN_KEY_DISK_DELALLOC_BYTES ||
			    key == SCN_KEY_DISK_UNWRITTEN_BYTES || key == SCN_KEY_DISK_INLINE_BYTES)
				return true;
		}
	return false;
}

/* Append a sentence to the place note. */
static void __attribute__((format(printf, 2, 3)))
runner_place_say(struct runner *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_buf_vsentence(&r->place_note, fmt, ap);
	va_end(ap);
}

/* A lesson about the disk, run where there is none (the user's --dir or $TMPDIR on tmpfs):
 * run it, and say once what cannot be shown there. */
static void
runner_place_check(struct runner *r)
{
	if (r->s->file.on == SCN_FS_TMPFS || !runner_about_disk(r->s) ||
	    (strcmp(r->fs, "tmpfs") != 0 && strcmp(r->fs, "ramfs") != 0))
		return;
	runner_place_say(r, "the scratch file is on %s, which keeps data in memory; there is no "
	                 "disk: this lesson's disk facts cannot be shown here (give --dir a "
	                 "disk-backed directory)", r->fs);
}

/* True if the scenario has a crash step. */
static bool
runner_crashes(const struct scenario *s)
{
	for (size_t i = 0; i < s->n_steps; i++)
		if (scn_op_table[s->steps[i].op].runs == SCN_RUNS_RUNNER_CRASH)
			return true;
	return false;
}

/*
 * The crash lab's filesystem: --crash-fs's, else ext4 for a lesson with a crash step (its
 * power cut needs one), else none.
 */
static enum crash_fs
runner_lab_fs(const struct runner *r)
{
	if (r->o.crash_fs > CRASH_FS_NONE && r->o.crash_fs < CRASH_FS__COUNT)
		return r->o.crash_fs;
	return runner_crashes(r->s) ? CRASH_FS_EXT4 : CRASH_FS_NONE;
}

/*
 * Why this run gets no crash lab, into r->lab_why and returned: --crash-fs not given, a file
 * on tmpfs, not root. NULL when it gets one.
 */
static const char *
runner_no_lab(struct runner *r)
{
	if (runner_lab_fs(r) == CRASH_FS_NONE)
		snprintf(r->lab_why, sizeof r->lab_why, "not observable here: no crash lab "
		         "(--crash-fs, as root)");
	else if (r->s->file.on == SCN_FS_TMPFS)
		snprintf(r->lab_why, sizeof r->lab_why, "not observable here: this lesson's file "
		         "is on tmpfs, which has no disk");
	else if (geteuid() != 0)
		snprintf(r->lab_why, sizeof r->lab_why, "not observable here: needs root to mount "
		         "a filesystem image");
	else
		return NULL;
	return r->lab_why;
}

/*
 * Put the run on a crash lab when --crash-fs asks for one (or a crash step needs one) and it
 * can be made; when it cannot, say why once in the place note. 0, or -1 + *err (root asked
 * for a lab by --crash-fs that cannot be made here).
 */
static int
runner_make_lab(struct runner *r, char **err)
{
	enum crash_fs lab_fs = runner_lab_fs(r);
	const char *fs = crash_fs_table[lab_fs].name;
	bool asked = r->o.crash_fs != CRASH_FS_NONE;
	char msg[PATH_MAX + 128];

	if (runner_no_lab(r) != NULL) {
		if (lab_fs != CRASH_FS_NONE)
			runner_place_say(r, "%s%s: the power cut is %s; the process crash is observed "
			                 "where the file is", asked ? "--crash-fs=" : "a crash step on ",
			                 fs, r->lab_why);
		return 0;
	}
	r->lab = crash_lab_new(lab_fs, r->scratch, r->s->file.size, msg, sizeof msg);
	if (r->lab == NULL && asked) {
		errmsg_set(err, "cannot make the crash lab (--crash-fs=%s): %s", fs, msg);
		return -1;
	}
	if (r->lab == NULL) {
		/* Why, whole, once in the place note; each step's power cut says the part of it
		 * that fits (the place note holds it: not said again). */
		snprintf(r->lab_why, sizeof r->lab_why, "not observable here: no crash lab could be "
		         "made");
		runner_place_say(r, "the power cut is %s (%s); the process crash is observed where "
		                 "the file is", r->lab_why, msg);
		return 0;
	}
	/* The device's counters from the lab's birth: all of them 0. */
	r->dev_last = (struct snap_device){ .source = SNAP_SRC_BLOCKSTAT };
	runner_place_say(r, "the scratch file is in a crash lab: an image of its own (%s, %" PRIu64
	                 " MiB sparse) on /dev/%s, mounted where only this run reaches it (%s)",
	                 fs, crash_lab_bytes(r->lab) >> 20, crash_lab_device(r->lab),
	                 crash_lab_path(r->lab));
	return 0;
}

/*
 * True if the lesson makes its file itself: nothing to prefill, and the first step that names
 * the file creates it (open with O_CREAT, fopen "w" or "a", a pty's file run, a run: step's
 * program). Then the file does not exist before that step: a crash first finds no file, and
 * O_EXCL succeeds. A lesson whose first use needs the file (O_RDWR alone, fopen "r", a rename
 * of it, a sweep) gets an empty one, as its "file:" says.
 */
static bool
runner_lesson_creates(const struct scenario *s)
{
	if (s->file.size > 0)
		return false;
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		switch (st->op) {
		case SCN_OP_OPEN:
			if (st->args.file == NULL)
				return (st->args.flags & O_CREAT) != 0;
			break;
		case SCN_OP_FOPEN:
			if (st->args.file == NULL)
				return st->args.mode[0] == 'w' || st->args.mode[0] == 'a';
			break;
		case SCN_OP_PTY:
		case SCN_OP_RUN:
			return true;
		case SCN_OP_CRASH:
		case SCN_OP_WAIT:
		case SCN_OP_NOTE:
			break;
		default:
			return false;
		}
	}
	return false;
}

/* The lesson's file, once it exists: our probes' read-only fd on it (see runner-int.h). */
bool
runner_file_find(struct runner *r)
{
	struct stat sb;
	char why[128];
	int fd;

	if (r->probe_fd >= 0)
		return true;
	if (r->dirfd < 0)
		return false;
	/* Kept open to the end: a close of ours would be one the filesystem sees (ext4 starts
	 * writing back a truncated file when any open file of it is closed). */
	fd = openat(r->dirfd, RUNNER_FILE_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return false;
	}
	r->probe_fd = fd;
	r->dev = sb.st_dev;
	r->ino = sb.st_ino;
	/* Its writebacks counted from now: none could have been before it existed. */
	if (r->wb == NULL && r->wb_open)
		r->wb = wbwatch_open(r->ino, r->dev, r->scratch >= 0 ? scratch_dir(r->scratch) :
		                     crash_lab_path(r->lab), why, sizeof why);
	return true;
}

/* Make the scratch file (prefilled, clean, cold) and open our probe fd on it; or, for a
 * lesson that makes it itself, only the place it will be in. */
int
runner_make_file(struct runner *r, char **err)
{
	const struct scn_file *f = &r->s->file;
	char msg[PATH_MAX + 128];
	bool lab = runner_no_lab(r) == NULL;
	struct stat sb;
	int fd;

	if (f->size > SCN_MAX_SIZE) {
		errmsg_set(err, "the scratch file would be %" PRIu64 " bytes; the limit is %"
		             PRIu64, f->size, (uint64_t)SCN_MAX_SIZE);
		return -1;
	}
	/* The file, and a MiB to spare for everyone else; a lab's image and a copy of it, with
	 * their filesystems' own (an xfs log is 64 MiB). Nothing asked: a place with a disk. */
	r->scratch = scratch_place(f->on == SCN_FS_TMPFS, f->on != SCN_FS_TMPFS && r->o.dir == NULL ?
	                           scratch_default_parent(&r->place_note) :
	                           r->o.dir, lab ? 2 * (f->size + (96u << 20)) : f->size + (1u << 20),
	                           msg, sizeof msg);
	if (r->scratch < 0) {
		errmsg_set(err, "%s", msg);
		return -1;
	}
	if (runner_make_lab(r, err) != 0)
		return -1;
	r->dirfd = r->lab != NULL ? crash_lab_dirfd(r->lab) : scratch_dirfd(r->scratch);
	if ((size_t)snprintf(r->path, sizeof r->path, "%s/%s", r->lab != NULL ?
	                     crash_lab_path(r->lab) : scratch_dir(r->scratch), RUNNER_FILE_NAME) >=
	    sizeof r->path) {
		errmsg_set(err, "scratch path too long");
		return -1;
	}
	if (runner_lesson_creates(r->s)) {
		/* Nothing of the lesson's file yet: its directory says where it will be. */
		if (r->lab != NULL) {
			struct snap_device d;
			runner_crash_device(r, &d);
			runner_crash_account(r, &d, false);
		}
		if (fstat(r->dirfd, &sb) != 0) {
			errmsg_set(err, "cannot stat the directory of %s: %s", r->path, strerror(errno));
			return -1;
		}
		r->dev = sb.st_dev;
		r->ino = 0;
		probe_fs(r->dirfd, r->fs, sizeof r->fs, NULL, 0);
		runner_place_check(r);
		return 0;
	}
	fd = openat(r->dirfd, RUNNER_FILE_NAME, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	            0600);
	if (fd < 0) {
		errmsg_set(err, "cannot create %s: %s", r->path, strerror(errno));
		return -1;
	}
	if (runner_prefill(fd, f->size, f->fill) != 0) {
		errmsg_set(err, "cannot prefill %s: %s", r->path, strerror(errno));
		close(fd);
		return -1;
	}
	/* The prefill's writes were waited for (its fsync); what comes after is no step's. */
	if (r->lab != NULL) {
		struct snap_device d;
		runner_crash_device(r, &d);
		runner_crash_account(r, &d, f->size > 0);
	}
	close(fd);
	r->probe_fd = openat(r->dirfd, RUNNER_FILE_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (r->probe_fd < 0 || fstat(r->probe_fd, &sb) != 0) {
		errmsg_set(err, "cannot open %s: %s", r->path, strerror(errno));
		return -1;
	}
	r->dev = sb.st_dev;
	r->ino = sb.st_ino;
	probe_fs(r->probe_fd, r->fs, sizeof r->fs, NULL, 0);
	runner_place_check(r);
	return 0;
}
