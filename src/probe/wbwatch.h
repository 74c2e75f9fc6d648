/* SPDX-License-Identifier: MIT */
/* probe/wbwatch.h: the kernel's own writeback of one inode (its flusher threads, a sync() or
 * syncfs() from anyone), counted by the tracepoint writeback:writeback_single_inode_start. */
#ifndef IOBUFVIZ_WBWATCH_H
#define IOBUFVIZ_WBWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct wbwatch;

/*
 * Count the writebacks of inode ino (of device dev, where dev is a bdi of its own) from now
 * on: their starts and their ends (the tracepoint
 * writeback:writeback_single_inode), a perf counter of each per online CPU (root; tracefs
 * where it is mounted, else mounted for a moment on dir in a mount namespace of a child's own,
 * never seen by the host). NULL, with why, where that cannot be had: nothing is counted.
 */
struct wbwatch *wbwatch_open(ino_t ino, dev_t dev, const char *dir, char *why, size_t len);

/* How many writebacks of the inode began since wbwatch_open (0 on a failed read or a NULL w),
 * and in running whether one of them has not ended yet. */
uint64_t wbwatch_count(const struct wbwatch *w, bool *running);

/* Close its counters. NULL is fine. */
void wbwatch_close(struct wbwatch *w);

#endif
