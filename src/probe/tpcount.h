/* SPDX-License-Identifier: MIT */
/* probe/tpcount.h: kernel tracepoints counted, with a filter, by a perf counter of each on
 * every online CPU (root): how often each fired since they were opened. */
#ifndef IOBUFVIZ_TPCOUNT_H
#define IOBUFVIZ_TPCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct tpcount;

/*
 * Count the n tracepoints in events ("writeback/writeback_single_inode_start": a directory under
 * tracefs's events/) from now on, each only where filter holds (the tracepoint's own filter
 * syntax: "ino == 12"). Their ids come from a tracefs where the host mounted one, else from
 * one mounted for a moment on dir in a mount namespace of a child's own, never seen by the
 * host. NULL, with why, where that cannot be had.
 */
struct tpcount *tpcount_open(const char *const *events, size_t n, const char *filter,
                             const char *dir, char *why, size_t len);

/* How often event e (an index into tpcount_open's events) fired since then, on every CPU; 0
 * on a failed read or a NULL c. */
uint64_t tpcount_read(const struct tpcount *c, size_t e);

/* Close its counters. NULL is fine. */
void tpcount_close(struct tpcount *c);

#endif
