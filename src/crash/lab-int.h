/* SPDX-License-Identifier: MIT */
/* crash/lab-int.h: a crash lab's parts, for the files that act on it (crash/lab.c makes it,
 * crash/power.c cuts its power). */
#ifndef IOBUFVIZ_CRASH_LAB_INT_H
#define IOBUFVIZ_CRASH_LAB_INT_H

#include <stdint.h>

#include "crash/lab.h"
#include "probe/snapshot.h"

struct crash_lab {
	enum crash_fs fs;
	int scratch;            /* the scratch dir (index) its image and copies are made in */
	int image_fd;           /* the image: a file of that dir with no name */
	uint64_t bytes;         /* its size */
	char device[32];        /* its loop device: "loop5" */
	int mnt_fd;             /* the mount (O_PATH, from fsmount) */
	int dir_fd;             /* its root, opened as a directory */
	char path[48];          /* "/proc/PID/fd/N" of dir_fd */
	struct snap_device birth; /* the device's counters once mounted (they outlive a detach) */
};

/*
 * A new file of bytes bytes (sparse) in scratch dir scratch with no name: O_TMPFILE, else
 * NAME created and unlinked at once. Read-write, O_CLOEXEC. The fd, or -1 with errno.
 */
int crash_lab_tmpfile(int scratch, const char *name, uint64_t bytes);

#endif
