/* SPDX-License-Identifier: MIT */
/* lesson/snapshot-diff.h: what changed between two observations, as data and as a sentence each. */
#ifndef IOBUFVIZ_SNAPSHOT_DIFF_H
#define IOBUFVIZ_SNAPSHOT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "probe/snapshot.h"

/* Kinds of change, in the order they are reported. */
enum snapshot_change_kind {
	SNAPSHOT_CHANGE_WRITTEN_BACK, /* dirty pages cleaned with no call of ours (count: pages) */
	SNAPSHOT_CHANGE_EVICTED,      /* pages dropped from the cache (count: pages) */
	SNAPSHOT_CHANGE_LARGE_FOLIO,  /* more pages dirtied than the writes touched (count: pages) */
	SNAPSHOT_CHANGE_ALLOCATED,    /* blocks allocated on disk (count: bytes) */
	SNAPSHOT_CHANGE_RELOCATED,    /* file bytes now on other blocks: copy-on-write (bytes) */
	SNAPSHOT_CHANGE__COUNT
};

/* One change. */
struct snapshot_change {
	enum snapshot_change_kind kind;
	bool between;                 /* seen between two steps, not during one */
	uint64_t count;               /* pages or bytes, as the kind says */
	char text[256];               /* the sentence that says it */
};

/* Everything that changed (at most one change of each kind a span, two spans a step). */
#define SNAPSHOT_DIFF_MAX (2 * SNAPSHOT_CHANGE__COUNT)

struct snapshot_diff {
	size_t n;
	struct snapshot_change v[SNAPSHOT_DIFF_MAX];
};

/*
 * Append to d what changed from observation a to observation b. calls: what our program did
 * in between (a step's events); NULL when nothing of ours ran (the time between two steps),
 * so that whatever changed was the kernel's own doing.
 */
void snapshot_diff(const struct snapshot *a, const struct snapshot *b,
                   const struct event_list *calls, struct snapshot_diff *d);

/* The name of a kind of change, as JSON gives it ("written_back"). */
const char *snapshot_diff_kind_name(enum snapshot_change_kind k);

#endif
