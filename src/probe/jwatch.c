/* SPDX-License-Identifier: MIT */
/*
 * probe/jwatch.c: a jbd2 journal counted. ext4 starts a handle (jbd2:jbd2_handle_start) for
 * each change of its metadata; the first one makes a running transaction whose commit the
 * journal thread starts when its timer fires (commit= seconds after, rounded up to a whole
 * second by round_jiffies_up, and late by up to the timer wheel's granularity: 0.5 s for 5 s at
 * HZ=1000) or when someone asks (fsync, sync). jbd2:jbd2_start_commit and jbd2:jbd2_end_commit
 * bracket each commit, whose writes (the journal's blocks, its commit block and the flush)
 * have reached the device when it ends. The tracepoints' dev is the kernel's dev_t
 * (major << 20 | minor), not userspace's.
 */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "base/fdio.h"
#include "probe/jwatch.h"
#include "probe/tpcount.h"

/* The tracepoints, in struct jwatch_counts's order. */
static const char *const jwatch_events[] = {
	"jbd2/jbd2_handle_start",
	"jbd2/jbd2_start_commit",
	"jbd2/jbd2_end_commit",
};
enum { JWATCH_HANDLE, JWATCH_START, JWATCH_END, JWATCH_EVENTS };
/* jbd2's own commit interval (JBD2_DEFAULT_MAX_COMMIT_AGE). */
#define JWATCH_DEFAULT_INTERVAL 5.0

struct jwatch {
	struct tpcount *c;
};

/* Count the journal of dev's filesystem from now on. */
struct jwatch *
jwatch_open(dev_t dev, const char *dir, char *why, size_t len)
{
	char filter[64];
	struct jwatch *j;

	_Static_assert(sizeof jwatch_events / sizeof jwatch_events[0] == JWATCH_EVENTS,
	               "one name per event");
	if ((j = calloc(1, sizeof *j)) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	snprintf(filter, sizeof filter, "dev == %lu",
	         ((unsigned long)major(dev) << 20) | (unsigned long)minor(dev));
	j->c = tpcount_open(jwatch_events, JWATCH_EVENTS, filter, dir, why, len);
	if (j->c == NULL) {
		free(j);
		return NULL;
	}
	return j;
}

/* The counts now (see probe/jwatch.h). */
void
jwatch_read(const struct jwatch *j, struct jwatch_counts *out)
{
	const struct tpcount *c = j != NULL ? j->c : NULL;

	/* Ends before starts, and starts before handles: a commit that ends between two reads
	 * is seen running; a handle seen is never one a commit counted later has taken. */
	out->committed = tpcount_read(c, JWATCH_END);
	out->commits = tpcount_read(c, JWATCH_START);
	out->handles = tpcount_read(c, JWATCH_HANDLE);
}

/* The commit interval of ext4 on block device name. */
double
jwatch_interval(const char *name)
{
	char path[PATH_MAX], buf[4096], *p;
	double v;

	if (name == NULL || strchr(name, '/') != NULL ||
	    (size_t)snprintf(path, sizeof path, "/proc/fs/ext4/%s/options", name) >= sizeof path ||
	    fdio_read_text(path, buf, sizeof buf) < 0)
		return JWATCH_DEFAULT_INTERVAL;
	for (p = buf; (p = strstr(p, "commit=")) != NULL; p++)
		if ((p == buf || p[-1] == '\n') && (v = strtod(p + 7, NULL)) > 0)
			return v;
	return JWATCH_DEFAULT_INTERVAL;
}

/* Close its counters. */
void
jwatch_close(struct jwatch *j)
{
	if (j == NULL)
		return;
	tpcount_close(j->c);
	free(j);
}
