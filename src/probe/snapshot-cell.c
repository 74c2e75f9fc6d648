/* SPDX-License-Identifier: MIT */
/* probe/snapshot-cell.c: what one cell of the page-cache grid shows, from a snapshot's facts. */
#include <config.h>

#include <string.h>
#include <unistd.h>

#include "probe/snapshot.h"

/* Cache state of cell i of c. */
enum snap_cell_state
snapshot_cell_state(const struct snap_cache *c, size_t i)
{
	const struct snap_cell *cell;

	if (i >= c->n_cells)
		return SNAP_CELL_ABSENT;
	cell = &c->cells[i];
	if (cell->writeback > 0)
		return SNAP_CELL_WRITEBACK;
	if (cell->dirty > 0)
		return SNAP_CELL_DIRTY;
	if (cell->cached > 0)
		return SNAP_CELL_CLEAN;
	return SNAP_CELL_ABSENT;
}

/* Byte range [*start, *end) of cell i of c (end clipped to the page span of the file). */
void
snapshot_cell_range(const struct snap_cache *c, size_t i, uint64_t *start, uint64_t *end)
{
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t cell = (uint64_t)c->pages_per_cell * psz;
	uint64_t span = c->pages * psz;

	*start = (uint64_t)i * cell;
	*end = *start + cell;
	if (*start > span)
		*start = span;
	if (*end > span)
		*end = span;
}

/* Disk state of cell i of c, given the extents in d. */
enum snap_cell_disk
snapshot_cell_disk(const struct snap_cache *c, const struct snap_disk *d, size_t i)
{
	uint64_t a, b, kept_end = 0;
	int delalloc = 0, allocated = 0, written = 0, unknown = 0, inl = 0;
	enum snap_cell_state cs;

	if (d->source != SNAP_SRC_FIEMAP || i >= c->n_cells)
		return SNAP_DISK_UNKNOWN;
	snapshot_cell_range(c, i, &a, &b);
	for (size_t k = 0; k < d->n_extents; k++) {
		const struct snap_extent *e = &d->extents[k];
		uint64_t ea = e->logical, eb = e->logical + e->length;

		if (eb > kept_end)
			kept_end = eb;
		if (eb <= a || ea >= b)
			continue;
		if (e->flags & SNAP_EXT_DELALLOC) {
			delalloc = 1;
		} else if (e->flags & SNAP_EXT_UNKNOWN) {
			unknown = 1;
		} else if (e->flags & SNAP_EXT_INLINE) {
			inl = 1;
		} else {
			allocated = 1;
			if (!(e->flags & SNAP_EXT_UNWRITTEN))
				written = 1;
		}
	}
	/* Data without a block is the most important fact: it exists only in memory. */
	if (delalloc)
		return SNAP_DISK_NOT_ALLOCATED;
	if (inl)
		return SNAP_DISK_INLINE;
	if (allocated) {
		if (!c->has_dirty)
			return SNAP_DISK_ALLOCATED;
		cs = snapshot_cell_state(c, i);
		if (cs == SNAP_CELL_DIRTY || cs == SNAP_CELL_WRITEBACK)
			return SNAP_DISK_STALE;
		return written ? SNAP_DISK_ON_DISK : SNAP_DISK_UNWRITTEN;
	}
	if (unknown)
		return SNAP_DISK_UNKNOWN;
	/* Past the last extent we kept, a truncated list cannot tell a hole from data. */
	if (d->extents_truncated && b > kept_end)
		return SNAP_DISK_UNKNOWN;
	return SNAP_DISK_HOLE;
}
