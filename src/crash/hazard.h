/* SPDX-License-Identifier: MIT */
/* crash/hazard.h: the durability hazards a traced program's calls show: a rename() over a file
 * of data never fsynced, a new file whose directory was never fsynced; each names the lesson
 * that shows what a power cut does then. */
#ifndef IOBUFVIZ_CRASH_HAZARD_H
#define IOBUFVIZ_CRASH_HAZARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "crash/crash.h"
#include "trace/event.h"

/* Notes kept at most (one per file and kind). */
#define CRASH_HAZARD_MAX 8

/* One hazard. */
struct crash_hazard {
	const char *kind;          /* "rename-unsynced" or "directory-unsynced" */
	const char *lesson;        /* the bundled lesson that shows it: "crash-rename", ... */
	char *file;                /* the file, as the steps name it (heap) */
	char *text;                /* what the run showed and why it matters, for people (heap:
	                            * it quotes paths, whose length the program decides) */
};

/* A power cut's changes of one file noted at most (the first ones). */
#define CRASH_HAZARD_CHANGES 4

/* What a power cut kept of one file after a step: exists, size, and the step ("line 19
 * (fsync)"). */
struct crash_hazard_kept {
	bool exists;
	uint64_t size;
	char where[96];
};

/* What the power cuts of a crash lab kept of one file, step by step. */
struct crash_hazard_cut {
	long id;                   /* the steps' id of the file */
	char file[72];             /* its name in the lab, the last view's */
	bool renamed;              /* the views saw it under another name before */
	struct crash_hazard_kept last;  /* the last power cut's */
	bool killed;               /* the last kill -9's: exists and size */
	uint64_t killed_size;
	/* Each change: the step after which a power cut kept other than after the one before
	 * (change[i]), and that one (prior[i]). */
	struct crash_hazard_kept change[CRASH_HAZARD_CHANGES], prior[CRASH_HAZARD_CHANGES];
	size_t n_changes;
};

/* What the calls so far did to each file, and the hazards found. */
struct crash_hazards {
	struct crash_hazard_file *files;
	size_t n_files, cap_files;
	struct crash_hazard_cut cuts[CRASH_HAZARD_MAX];
	size_t n_cuts;
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

/*
 * Feed the crash view v made after a step that where names for people ("line 19 (fsync)",
 * "step 7 (fsync)"): what its power cut and kill -9 kept of its file, file (the steps' id of
 * it: a rename gives it another name in the views). Views not observed are passed over.
 */
void crash_hazards_view(struct crash_hazards *h, const struct crash_view *v, long file,
                        const char *where);

/* At the program's end: add a hazard for each file made with O_CREAT and fsynced while no
 * directory was, and for each file the views saw, where a power cut began to keep what it
 * keeps at the end (kind "power-cut"), or that it never kept what a kill -9 does. How many
 * hazards in all (h->v). */
size_t crash_hazards_end(struct crash_hazards *h);

/* Free what h holds (h itself is the caller's; zeroed, it is empty). */
void crash_hazards_free(struct crash_hazards *h);

#endif
