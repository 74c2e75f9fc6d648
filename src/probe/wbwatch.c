/* SPDX-License-Identifier: MIT */
/*
 * probe/wbwatch.c: the kernel's own writeback of one inode, counted. The tracepoint
 * writeback:writeback_single_inode_start fires in __writeback_single_inode, which runs for
 * the flusher threads' writeback and for sync()'s and syncfs()'s, and not for fsync,
 * fdatasync, O_SYNC, sync_file_range or close() after O_TRUNC, which write the pages with
 * filemap_* directly (measured on Linux 6.18 with perf on ext4, xfs and btrfs: 0 for each of
 * those, 1 for syncfs and sync). So a count that rose during a step that called neither sync
 * nor syncfs says that someone else's writeback took the file's dirty pages.
 */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "probe/tpcount.h"
#include "probe/wbwatch.h"

/* The tracepoints: a writeback of an inode begins, and ends. */
static const char *const wbwatch_events[] = {
	"writeback/writeback_single_inode_start",
	"writeback/writeback_single_inode",
};
enum { WBWATCH_START, WBWATCH_END, WBWATCH_EVENTS };

struct wbwatch {
	struct tpcount *c;
};

/* Count the writebacks of inode ino of device dev from now on. */
struct wbwatch *
wbwatch_open(ino_t ino, dev_t dev, const char *dir, char *why, size_t len)
{
	char filter[96], bdi[64];
	struct wbwatch *w;

	_Static_assert(sizeof wbwatch_events / sizeof wbwatch_events[0] == WBWATCH_EVENTS,
	               "one name per event");
	if ((w = calloc(1, sizeof *w)) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	/* The inode's number alone is not the file's: another filesystem (a crash lab beside
	 * this one, made the same way) has the same numbers. Where dev is a bdi of its own (a
	 * block device's filesystem: the bdi is named MAJOR:MINOR), its name too. */
	snprintf(bdi, sizeof bdi, "/sys/class/bdi/%u:%u", major(dev), minor(dev));
	if (access(bdi, F_OK) == 0)
		snprintf(filter, sizeof filter, "ino == %ju && name == \"%u:%u\"", (uintmax_t)ino,
		         major(dev), minor(dev));
	else
		snprintf(filter, sizeof filter, "ino == %ju", (uintmax_t)ino);
	w->c = tpcount_open(wbwatch_events, WBWATCH_EVENTS, filter, dir, why, len);
	if (w->c == NULL) {
		free(w);
		return NULL;
	}
	return w;
}

/* How many writebacks of the inode began since wbwatch_open, and whether one is running. */
uint64_t
wbwatch_count(const struct wbwatch *w, bool *running)
{
	/* The ends first: a writeback that ends between the two reads is not counted as
	 * ended, so "none running" is never said while one is. */
	uint64_t ended = tpcount_read(w != NULL ? w->c : NULL, WBWATCH_END);
	uint64_t began = tpcount_read(w != NULL ? w->c : NULL, WBWATCH_START);

	*running = began > ended;
	return began;
}

/* Close its counters. */
void
wbwatch_close(struct wbwatch *w)
{
	if (w == NULL)
		return;
	tpcount_close(w->c);
	free(w);
}
