/* SPDX-License-Identifier: MIT */
/* step/snapshot-diff.h: what changed between two observations, as data and as a sentence each. */
#ifndef IOBUFVIZ_SNAPSHOT_DIFF_H
#define IOBUFVIZ_SNAPSHOT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "probe/snapshot.h"
#include "scenario/scenario.h"

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

/*
 * Where the pages cached after a step came from, for a step whose calls asked for pages of
 * the file: a read (the bytes it read) or posix_fadvise(WILLNEED) (its range).
 */
enum snapshot_from {
	SNAPSHOT_FROM_ASKED,   /* new, among the pages this step's calls asked for */
	SNAPSHOT_FROM_AHEAD,   /* new, beyond them: read ahead by this step's calls */
	SNAPSHOT_FROM_EARLIER, /* new, asked for by an earlier step's WILLNEED and seen only now
	                        * (a probe that sees a page once its read has completed) */
	SNAPSHOT_FROM_BEFORE,  /* already cached before this step */
	SNAPSHOT_FROM__COUNT
};

/* At most this many steps are named as having brought in the pages cached before a step. */
#define SNAPSHOT_BY_MAX 4

/* The pages a step found and brought into the cache, by where they came from. */
struct snapshot_origins {
	bool valid;                    /* the step asked for pages, and the cache was seen
	                                * before and after it in the same cells */
	bool prefetch;                 /* it asked by WILLNEED only: the kernel reads in the
	                                * background, after the call returns */
	bool completed_only;           /* the probe counts a page once its read has completed
	                                * (mincore, kpageflags), not when it is added */
	uint64_t asked_first, asked_end;     /* bytes asked for (from the first to the last) */
	uint64_t earlier_first, earlier_end; /* bytes an earlier WILLNEED asked for and that were
	                                      * not all seen after it (empty: none) */
	size_t earlier_step;           /* that step, 1-based */
	uint64_t pages[SNAPSHOT_FROM__COUNT];
	uint64_t asked_cached;         /* pages asked for that were cached before (hits) */
	uint64_t asked_unseen;         /* pages asked for that are not cached after it */
	size_t by[SNAPSHOT_BY_MAX];    /* the steps (1-based; 0: the file as the run found it)
	                                * that brought in the pages cached before, newest first */
	enum scn_op by_op[SNAPSHOT_BY_MAX];
	bool by_willneed[SNAPSHOT_BY_MAX]; /* that step asked by posix_fadvise(WILLNEED) */
	size_t n_by;
	bool by_more;                  /* more steps than SNAPSHOT_BY_MAX did */
};

/* Start o for a step: the bytes its calls asked for, and whether before and after can tell
 * where its pages came from (o->valid). */
void snapshot_origins_begin(const struct snapshot *before, const struct snapshot *after,
                            const struct event_list *calls, struct snapshot_origins *o);

/* The pages of cell i of after by where they came from (out[SNAPSHOT_FROM__COUNT]), and how
 * many of them were asked for and cached before (*hits, may be NULL). Where a cell holds more
 * than one page, new pages are counted as an earlier step's first, then as asked. */
void snapshot_origins_cell(const struct snap_cache *before, const struct snap_cache *after,
                           const struct snapshot_origins *o, size_t i, uint64_t *out,
                           uint64_t *hits);

/* Count o->pages, o->asked_cached and o->asked_unseen over every cell. */
void snapshot_origins_count(const struct snapshot *before, const struct snapshot *after,
                            struct snapshot_origins *o);

/* The name of a kind of origin, as JSON gives it ("read_ahead"). */
const char *snapshot_from_name(enum snapshot_from f);

/* o as one sentence for people ("1 asked for by this call, 3 read ahead by this call, 0
 * already cached before it"), into buf; probe names the cache's source. */
char *snapshot_origins_text(const struct snapshot_origins *o, const char *probe, char *buf,
                            size_t len);

#endif
