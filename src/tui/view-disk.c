/* SPDX-License-Identifier: MIT */
/* tui/view-disk.c: the disk pane: the file's extents as FIEMAP reports them, and bytes on disk. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "tui/view.h"

/* Glyph, style and rank of a disk state; the higher rank wins when cells are merged (data
 * that exists only in memory is the fact to show first). */
static const struct { enum view_glyph v; int style; int rank; } view_disk_states[] = {
	[SNAP_DISK_UNKNOWN] = { VG_UNKNOWN, GS_DIM, 1 },
	[SNAP_DISK_HOLE] = { VG_ABSENT, GS_DIM, 0 },
	[SNAP_DISK_NOT_ALLOCATED] = { VG_DELALLOC, GS_DIRTY, 6 },
	[SNAP_DISK_UNWRITTEN] = { VG_UNWRITTEN, GS_DISK, 3 },
	[SNAP_DISK_ON_DISK] = { VG_ONDISK, GS_DISK, 2 },
	[SNAP_DISK_STALE] = { VG_STALE, GS_DIRTY, 5 },
	[SNAP_DISK_ALLOCATED] = { VG_ONDISK, GS_DISK, 4 },
	[SNAP_DISK_INLINE] = { VG_INLINE, GS_DISK, 2 },
};

/* Disk state of cells [i * per, (i + 1) * per) of the snapshot, merged. */
static enum snap_cell_disk
view_disk_cell(const struct snapshot *s, size_t i, size_t per)
{
	enum snap_cell_disk best = SNAP_DISK_HOLE;

	for (size_t k = i * per; k < (i + 1) * per && k < s->cache.n_cells; k++) {
		enum snap_cell_disk d = snapshot_cell_disk(&s->cache, &s->disk, k);
		if (view_disk_states[d].rank > view_disk_states[best].rank)
			best = d;
	}
	return best;
}

/* Name of an extent's state. */
static const char *
view_disk_state(uint32_t flags)
{
	if (flags & SNAP_EXT_DELALLOC)
		return "delalloc";
	if (flags & SNAP_EXT_UNWRITTEN)
		return "unwritten";
	if (flags & SNAP_EXT_INLINE)
		return "inline";
	return "allocated";
}

/* The pane's title. */
char *
view_disk_title(const struct snapshot *s, const char *fs, char *buf, size_t len)
{
	const char *name = s->disk.fs[0] != '\0' ? s->disk.fs : fs;

	if (name != NULL && *name != '\0' && s->disk.device[0] != '\0')
		snprintf(buf, len, "disk (%s, %s)", name, s->disk.device);
	else if (name != NULL && *name != '\0')
		snprintf(buf, len, "disk (%s)", name);
	else
		snprintf(buf, len, "disk");
	return buf;
}

/* Draw the strip at x, y in up to w columns, one glyph per (merged) cache cell; flash the
 * ones that changed since prev. */
static void
view_disk_strip(struct grid *g, int x, int y, int w, const struct snapshot *now,
                const struct snapshot *prev, bool ascii)
{
	size_t n = now->cache.n_cells, per = (n + (size_t)w - 1) / (size_t)w;

	if (per == 0)
		return;
	for (size_t i = 0; i * per < n; i++) {
		enum snap_cell_disk d = view_disk_cell(now, i, per);
		grid_put(g, x + (int)i, y, view_glyph(view_disk_states[d].v, ascii),
		         view_disk_states[d].style);
		if (prev != NULL && view_disk_cell(prev, i, per) != d)
			grid_attr(g, (struct grid_rect){ x + (int)i, y, 1, 1 }, GRID_A_REVERSE);
	}
}

/* The disk legend. */
static const struct view_legend view_disk_legend[] = {
	{ .v = VG_ONDISK, .style = GS_DISK, .name = "on disk" },
	{ .v = VG_DELALLOC, .style = GS_DIRTY, .name = "no block yet" },
	{ .v = VG_STALE, .style = GS_DIRTY, .name = "stale" },
	{ .v = VG_UNWRITTEN, .style = GS_DISK, .name = "unwritten" },
	{ .v = VG_ABSENT, .style = GS_DIM, .name = "hole" },
};

/* The legend when a file has data inline (btrfs): the same, and what ▣ means. */
static const struct view_legend view_disk_legend_inline[] = {
	{ .v = VG_INLINE, .style = GS_DISK, .name = "inline" },
	{ .v = VG_ONDISK, .style = GS_DISK, .name = "on disk" },
	{ .v = VG_DELALLOC, .style = GS_DIRTY, .name = "no block yet" },
	{ .v = VG_STALE, .style = GS_DIRTY, .name = "stale" },
	{ .v = VG_UNWRITTEN, .style = GS_DISK, .name = "unwritten" },
	{ .v = VG_ABSENT, .style = GS_DIM, .name = "hole" },
};

/* The pane's legend, with inline data's entry or without. */
const struct view_legend *
view_disk_legend_of(bool with_inline, size_t *n)
{
	*n = with_inline ? sizeof view_disk_legend_inline / sizeof view_disk_legend_inline[0] :
	     sizeof view_disk_legend / sizeof view_disk_legend[0];
	return with_inline ? view_disk_legend_inline : view_disk_legend;
}

/* The device line (what reached the crash lab's device from was to now) at y, on two rows
 * when one is too narrow and rows allows; the rows it took. */
static int
view_disk_device(struct grid *g, int x, int y, int w, int rows, const struct snap_device *now,
                 const struct snap_device *was)
{
	uint64_t writes = now->writes - was->writes, flushes = now->flushes - was->flushes;
	int style = writes > 0 || flushes > 0 ? GS_BOLD : GS_DIM;
	char a[32], first[96], second[64];

	units_format_size(now->write_bytes - was->write_bytes, a, sizeof a);
	snprintf(first, sizeof first, "%s: +%" PRIu64 " write%s (%s)", now->name, writes,
	         writes == 1 ? "" : "s", a);
	snprintf(second, sizeof second, "+%" PRIu64 " flush%s this step", flushes,
	         flushes == 1 ? "" : "es");
	if (text_width(first) + 2 + text_width(second) <= w || rows < 2) {
		grid_printf(g, x, y, w, style, "%s, %s", first, second);
		return 1;
	}
	grid_print(g, x, y, w, style, first);
	grid_print(g, x, y + 1, w, style, second);
	return 2;
}

/* Draw the disk pane. */
void
view_disk_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
               const struct snapshot *prev, const struct snapshot *before, bool ascii)
{
	const struct snap_disk *d = &now->disk;
	char a[32], b[32], c[32], line[200];
	int y = r.y, end = r.y + r.h;
	bool tall = r.h >= 6;
	size_t n_legend;
	const struct view_legend *legend = view_disk_legend_of(d->inline_bytes > 0, &n_legend);

	if (r.w < 8 || r.h < 1)
		return;
	if (d->source == SNAP_SRC_NONE) {
		y += grid_wrap(g, (struct grid_rect){ r.x, y, r.w, end - y }, GS_BOLD,
		               d->note[0] != '\0' ? d->note : "extents not observable here");
		if (d->io_ok && y < end) {
			units_format_size(d->write_bytes, a, sizeof a);
			grid_printf(g, r.x, y, r.w, GS_DIM, "procio write_bytes %s", a);
		}
		return;
	}
	/* Extent list first when there is room: it is the precise answer. */
	if (tall) {
		int room = end - y - 5;
		size_t i;
		if (d->n_extents == 0)
			grid_print(g, r.x, y++, r.w, GS_DIM, "no extents: nothing on disk");
		for (i = 0; i < d->n_extents && room > 0; i++, room--) {
			const struct snap_extent *e = &d->extents[i];
			if (room == 1 && i + 1 < d->n_extents) {
				grid_printf(g, r.x, y++, r.w, GS_DIM, "%zu more extents (Tab)",
				            d->n_extents - i);
				break;
			}
			units_format_size(e->logical, a, sizeof a);
			units_format_size(e->logical + e->length, b, sizeof b);
			grid_printf(g, r.x, y++, r.w, e->flags & SNAP_EXT_DELALLOC ? GS_DIRTY : GS_DISK,
			            "[%s, %s) %s", a, b, view_disk_state(e->flags));
		}
	}
	if (tall && y < end - 3)
		y++;
	if (y < end && now->cache.n_cells > 0)
		view_disk_strip(g, r.x, y++, r.w, now, prev, ascii);
	if (y < end) {
		units_format_size(d->allocated_bytes, a, sizeof a);
		units_format_size(d->delalloc_bytes, b, sizeof b);
		if (d->unwritten_bytes > 0) {
			units_format_size(d->unwritten_bytes, c, sizeof c);
			snprintf(line, sizeof line, "allocated %s  delalloc %s  unwritten %s", a, b, c);
		} else {
			snprintf(line, sizeof line, "allocated %s  delalloc %s", a, b);
		}
		/* Too wide for the pane: one figure per line, if there is room. */
		if (text_width(line) > r.w && y + 1 < end && d->unwritten_bytes == 0) {
			grid_printf(g, r.x, y++, r.w, GS_NORMAL, "allocated %s", a);
			snprintf(line, sizeof line, "delalloc %s", b);
		}
		if (d->inline_bytes > 0) {
			units_format_size(d->inline_bytes, c, sizeof c);
			snprintf(line + strlen(line), sizeof line - strlen(line), "  inline %s", c);
		}
		grid_print(g, r.x, y, r.w, GS_NORMAL, line);
		if (prev != NULL && (prev->disk.allocated_bytes != d->allocated_bytes ||
		                     prev->disk.delalloc_bytes != d->delalloc_bytes))
			grid_attr(g, (struct grid_rect){ r.x, y, text_width(line) < r.w ?
			                                 text_width(line) : r.w, 1 }, GRID_A_BOLD);
		/* Short pane (80x24): the legend on the same line, as the cache pane does, so
		 * that the strip's glyphs are never unexplained. */
		if (!tall && r.w - text_width(line) - 2 > 20)
			view_legend_draw(g, r.x + text_width(line) + 2, y,
			                 r.w - text_width(line) - 2, 1, legend, n_legend, ascii);
		y++;
	}
	/* The crash lab's device: what left the machine's memory in this step. */
	if (y < end && now->device.source != SNAP_SRC_NONE && before != NULL &&
	    before->device.source != SNAP_SRC_NONE)
		y += view_disk_device(g, r.x, y, r.w, tall ? end - y - 2 : 1, &now->device,
		                      &before->device);
	if (y < end && tall)
		y += view_legend_draw(g, r.x, y, r.w, end - y > 2 ? 2 : 1, legend, n_legend, ascii);
	if (y < end && d->note[0] != '\0')
		grid_print(g, r.x, y++, r.w, GS_DIM, d->note);
}
