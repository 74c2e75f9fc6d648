/* SPDX-License-Identifier: MIT */
/* lesson/snapshot-diff.c: the conclusions two observations allow about the kernel, said once for
 * every front end (the TUI draws them, the transcripts print them). */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lesson/snapshot-diff.h"
#include "base/units.h"

/* Names of the kinds, for JSON. */
static const char *const snapshot_diff_names[SNAPSHOT_CHANGE__COUNT] = {
	[SNAPSHOT_CHANGE_WRITTEN_BACK] = "written_back",
	[SNAPSHOT_CHANGE_EVICTED] = "evicted",
	[SNAPSHOT_CHANGE_LARGE_FOLIO] = "large_folio",
	[SNAPSHOT_CHANGE_ALLOCATED] = "allocated",
	[SNAPSHOT_CHANGE_RELOCATED] = "relocated",
};

/* The name of kind k. */
const char *
snapshot_diff_kind_name(enum snapshot_change_kind k)
{
	return (unsigned)k < SNAPSHOT_CHANGE__COUNT ? snapshot_diff_names[k] : "?";
}

/* Append one change to d, its sentence made from fmt. */
static void __attribute__((format(printf, 5, 6)))
snapshot_diff_add(struct snapshot_diff *d, enum snapshot_change_kind kind, bool between,
                  uint64_t count, const char *fmt, ...)
{
	struct snapshot_change *c;
	va_list ap;

	if (d->n >= SNAPSHOT_DIFF_MAX)
		return;
	c = &d->v[d->n++];
	c->kind = kind;
	c->between = between;
	c->count = count;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof c->text, fmt, ap);
	va_end(ap);
}

/* Pages the successful writes of calls touched, each counted one more (it may straddle). */
static uint64_t
snapshot_diff_touched(const struct event_list *calls)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t touched = 0, p = psz > 0 ? (uint64_t)psz : 4096;

	for (size_t i = 0; i < calls->n; i++) {
		const struct event *e = &calls->v[i];
		if (event_is_write(e) && e->result > 0)
			touched += ((uint64_t)e->result + p - 1) / p + 1;
	}
	return touched;
}

/* True if extent e has blocks of its own (not delalloc, inline or unknown). */
static bool
snapshot_diff_placed(const struct snap_extent *e)
{
	return !(e->flags & (SNAP_EXT_DELALLOC | SNAP_EXT_INLINE | SNAP_EXT_UNKNOWN));
}

/*
 * Bytes of the file that had blocks in a and have other blocks in b: an overwrite that a
 * copy-on-write filesystem put in a new place (measured on btrfs, Linux 6.18: rewriting
 * block 1 of a 4-block file moved it from physical block 32085 to 32003; xfs and ext4
 * overwrite in place).
 */
static uint64_t
snapshot_diff_moved(const struct snap_disk *a, const struct snap_disk *b)
{
	uint64_t moved = 0;

	for (size_t i = 0; i < b->n_extents; i++) {
		const struct snap_extent *eb = &b->extents[i];
		if (!snapshot_diff_placed(eb))
			continue;
		for (size_t j = 0; j < a->n_extents; j++) {
			const struct snap_extent *ea = &a->extents[j];
			uint64_t lo = ea->logical > eb->logical ? ea->logical : eb->logical;
			uint64_t hi = ea->logical + ea->length < eb->logical + eb->length ?
			              ea->logical + ea->length : eb->logical + eb->length;
			if (!snapshot_diff_placed(ea) || lo >= hi)
				continue;
			if (ea->physical - ea->logical != eb->physical - eb->logical)
				moved += hi - lo;
		}
	}
	return moved;
}

/* What changed from a to b. */
void
snapshot_diff(const struct snapshot *a, const struct snapshot *b, const struct event_list *calls,
              struct snapshot_diff *d)
{
	const struct snap_cache *ca = &a->cache, *cb = &b->cache;
	bool between = calls == NULL;
	char s[32];

	/* Pages cleaned with no call of ours: the kernel's writeback (its 30 s expiry at a
	 * classroom's pace, or a sync() elsewhere). It is why an expectation about dirty pages
	 * may fail. During a step, a clean is the step's doing: the step's hops show it. */
	if (between && ca->has_dirty && cb->has_dirty && cb->dirty < ca->dirty) {
		uint64_t gone = ca->dirty - cb->dirty;
		snapshot_diff_add(d, SNAPSHOT_CHANGE_WRITTEN_BACK, true, gone,
		                  "Before this step the kernel wrote %" PRIu64 " dirty page%s back on "
		                  "its own (writeback of pages older than dirty_expire_centisecs, or a "
		                  "sync() elsewhere).", gone, gone == 1 ? "" : "s");
	}
	/* Pages gone from the cache while the file did not shrink: evicted (memory pressure,
	 * other programs' files). */
	if (between && ca->source != SNAP_SRC_NONE && cb->source != SNAP_SRC_NONE &&
	    cb->cached < ca->cached && cb->file_size >= ca->file_size) {
		uint64_t gone = ca->cached - cb->cached;
		snapshot_diff_add(d, SNAPSHOT_CHANGE_EVICTED, true, gone,
		                  "Before this step the kernel dropped %" PRIu64 " page%s of this file "
		                  "from the cache (memory pressure).", gone, gone == 1 ? "" : "s");
	}
	/* More pages dirtied than the writes touched: the page cache keeps this file in folios
	 * larger than a page. */
	if (!between && cb->has_dirty && cb->dirty > ca->dirty) {
		uint64_t touched = snapshot_diff_touched(calls), grew = cb->dirty - ca->dirty;
		if (touched > 0 && grew > touched)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_LARGE_FOLIO, false, grew,
			                  "%" PRIu64 " pages dirtied by %" PRIu64 " byte%s: a large folio",
			                  grew, calls->bytes_written,
			                  calls->bytes_written == 1 ? "" : "s");
	}
	/* Blocks that appeared on disk: the filesystem allocated them (at writeback, for a
	 * delayed allocation; at once, for fallocate). */
	if (a->disk.source != SNAP_SRC_NONE && b->disk.source != SNAP_SRC_NONE &&
	    b->disk.allocated_bytes > a->disk.allocated_bytes) {
		uint64_t more = b->disk.allocated_bytes - a->disk.allocated_bytes;
		units_format_size(more, s, sizeof s);
		snapshot_diff_add(d, SNAPSHOT_CHANGE_ALLOCATED, between, more,
		                  "%s %s allocated %s of disk blocks for this file%s.",
		                  between ? "Before this step" : "In this step",
		                  b->disk.fs[0] != '\0' ? b->disk.fs : "the filesystem", s,
		                  between ? " on its own" :
		                  b->disk.delalloc_bytes < a->disk.delalloc_bytes ?
		                  " (delayed allocation resolved)" : "");
	}
	if (a->disk.source != SNAP_SRC_NONE && b->disk.source != SNAP_SRC_NONE) {
		uint64_t moved = snapshot_diff_moved(&a->disk, &b->disk);
		units_format_size(moved, s, sizeof s);
		if (moved > 0 && strcmp(b->disk.fs, "btrfs") == 0)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_RELOCATED, between, moved,
			                  "%s btrfs wrote %s of this file to new blocks instead of over the "
			                  "old ones (copy-on-write: the extent moved on disk).",
			                  between ? "Before this step" : "In this step", s);
		else if (moved > 0)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_RELOCATED, between, moved,
			                  "%s %s put %s of this file on other blocks than before.",
			                  between ? "Before this step" : "In this step",
			                  b->disk.fs[0] != '\0' ? b->disk.fs : "the filesystem", s);
	}
}
