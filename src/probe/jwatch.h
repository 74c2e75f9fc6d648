/* SPDX-License-Identifier: MIT */
/* probe/jwatch.h: one filesystem's jbd2 journal (ext4's), counted by its tracepoints: the
 * handles started (a transaction is running), the commits started and those ended; and its
 * commit interval (the timer that commits a running transaction). */
#ifndef IOBUFVIZ_JWATCH_H
#define IOBUFVIZ_JWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct jwatch;

/* The counts since jwatch_open. A commit is running while commits > committed; a handle
 * counted after the last commit began is in a transaction no commit has taken yet. */
struct jwatch_counts {
	uint64_t handles;    /* jbd2:jbd2_handle_start */
	uint64_t commits;    /* jbd2:jbd2_start_commit */
	uint64_t committed;  /* jbd2:jbd2_end_commit */
};

/*
 * Count the journal of the filesystem on device dev (its st_dev) from now on (root; tracefs
 * as probe/tpcount.h says, dir its private mount point). NULL, with why, where that cannot be
 * had. A filesystem without a jbd2 journal (xfs, btrfs) counts 0 forever.
 */
struct jwatch *jwatch_open(dev_t dev, const char *dir, char *why, size_t len);

/* The counts now, read so that a commit that ends between two reads is seen running, never
 * ended before it began. All 0 for a NULL j. */
void jwatch_read(const struct jwatch *j, struct jwatch_counts *out);

/* Seconds between a transaction's start and the timer that commits it: ext4's "commit=" of
 * block device NAME ("loop5", from /proc/fs/ext4/NAME/options); 5 (jbd2's default) if it does
 * not say. */
double jwatch_interval(const char *name);

/* Close its counters. NULL is fine. */
void jwatch_close(struct jwatch *j);

#endif
