/* SPDX-License-Identifier: MIT */
/* crash/hazard.h: the durability hazards a traced program's calls show: a rename() over a file
 * of data never fsynced, a new file whose directory was never fsynced; each names the lesson
 * that shows what a power cut does then. */
#ifndef IOBUFVIZ_CRASH_HAZARD_H
#define IOBUFVIZ_CRASH_HAZARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "trace/event.h"

/* Notes kept at most (one per file and kind). */
#define CRASH_HAZARD_MAX 8

/* One hazard. */
struct crash_hazard {
	const char *kind;          /* "rename-unsynced" or "directory-unsynced" */
	const char *lesson;        /* the bundled lesson that shows it: "crash-rename", ... */
	char file[PATH_MAX];       /* the file, as the steps name it */
	char text[512];            /* what the run showed and why it matters, for people */
};

/* What the calls so far did to each file, and the hazards found. */
struct crash_hazards {
	struct crash_hazard_file *files;
	size_t n_files, cap_files;
	bool dir_synced;           /* a directory was fsynced (or everything, by sync()) */
	struct crash_hazard v[CRASH_HAZARD_MAX];
	size_t n;
};

/*
 * Feed one call of the program: ev (its event), file (the steps' id of the regular file it
 * touched, -1 if none), path (that file's path, or the fd's file: a directory), waits (the
 * call asks for its data to reach the disk: fsync, a write on an O_SYNC fd). A rename()
 * whose file was written since its last sync adds a hazard.
 */
void crash_hazards_call(struct crash_hazards *h, const struct event *ev, long file,
                        const char *path, bool waits);

/* At the program's end: add a hazard for each file made with O_CREAT and fsynced while no
 * directory was. How many hazards in all (h->v). */
size_t crash_hazards_end(struct crash_hazards *h);

/* Free what h holds (h itself is the caller's; zeroed, it is empty). */
void crash_hazards_free(struct crash_hazards *h);

#endif
