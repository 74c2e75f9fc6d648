/* SPDX-License-Identifier: MIT */
/* view-disk.c: the disk pane: the file's extents as FIEMAP reports them, and bytes on disk. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "view.h"

/* What covers bytes [a, b) of the file: the most advanced state of any extent there. */
static enum view_glyph
view_disk_kind(const struct snapshot *s, uint64_t a, uint64_t b, int *style)
{
	enum view_glyph k = VG_ABSENT;

	*style = GS_DIM;
	for (size_t i = 0; i < s->disk.n_extents; i++) {
		const struct snap_extent *e = &s->disk.extents[i];
		if (e->logical >= b || e->logical + e->length <= a)
			continue;
		if (e->flags & SNAP_EXT_DELALLOC) {
			if (k == VG_ABSENT) {
				k = VG_DELALLOC;
				*style = GS_DIRTY;
			}
		} else if (e->flags & SNAP_EXT_UNWRITTEN) {
			if (k != VG_ONDISK) {
				k = VG_UNWRITTEN;
				*style = GS_DISK;
			}
		} else {
			k = VG_ONDISK;
			*style = GS_DISK;
		}
	}
	return k;
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

/* Draw the strip of n cells over the file at x, y; flash cells that changed since prev. */
static void
view_disk_strip(struct grid *g, int x, int y, int n, const struct snapshot *now,
                const struct snapshot *prev, bool ascii)
{
	uint64_t size = now->cache.file_size;

	for (int i = 0; i < n; i++) {
		uint64_t a = size * (uint64_t)i / (uint64_t)n, b = size * (uint64_t)(i + 1) / (uint64_t)n;
		int style, pstyle;
		enum view_glyph k;

		if (b == a)
			b = a + 1;
		k = view_disk_kind(now, a, b, &style);
		grid_put(g, x + i, y, view_glyph(k, ascii), style);
		if (prev != NULL && view_disk_kind(prev, a, b, &pstyle) != k)
			grid_attr(g, (struct grid_rect){ x + i, y, 1, 1 }, GRID_A_REVERSE);
	}
}

/* Draw the legend. */
static void
view_disk_legend(struct grid *g, int x, int y, int w, bool ascii)
{
	static const struct { enum view_glyph v; int style; const char *name; } l[] = {
		{ VG_ONDISK, GS_DISK, "on disk" }, { VG_DELALLOC, GS_DIRTY, "no block yet" },
		{ VG_UNWRITTEN, GS_DISK, "unwritten" }, { VG_ABSENT, GS_DIM, "hole" },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof l / sizeof l[0]; i++) {
		int len = 2 + grid_text_width(l[i].name);
		if (n + len > w)
			break;
		grid_put(g, x + n, y, view_glyph(l[i].v, ascii), l[i].style);
		grid_print(g, x + n + 2, y, w - n - 2, GS_DIM, l[i].name);
		n += len + 1;
	}
}

/* Draw the disk pane. */
void
view_disk_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
               const struct snapshot *prev, bool ascii)
{
	const struct snap_disk *d = &now->disk;
	char a[32], b[32], c[32], line[200];
	int y = r.y, end = r.y + r.h, cells;
	bool tall = r.h >= 6;
	uint64_t pages = now->cache.pages;

	if (r.w < 8 || r.h < 1)
		return;
	if (d->source == SNAP_SRC_NONE) {
		y += grid_wrap(g, (struct grid_rect){ r.x, y, r.w, end - y }, GS_BOLD,
		               d->note[0] != '\0' ? d->note : "extents not observable here");
		if (d->io_ok && y < end) {
			units_format_size(d->write_bytes, a, sizeof a);
			grid_printf(g, r.x, y, r.w, GS_DIM, "io write_bytes %s", a);
		}
		return;
	}
	/* Extent list first when there is room: it is the precise answer. */
	if (tall) {
		int room = end - y - 4;
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
	if (y < end && now->cache.file_size > 0) {
		cells = pages > 0 && pages < (uint64_t)r.w ? (int)pages : r.w;
		view_disk_strip(g, r.x, y++, cells, now, prev, ascii);
	}
	if (y < end) {
		units_format_size(d->allocated_bytes, a, sizeof a);
		units_format_size(d->delalloc_bytes, b, sizeof b);
		if (d->unwritten_bytes > 0) {
			units_format_size(d->unwritten_bytes, c, sizeof c);
			snprintf(line, sizeof line, "allocated %s  delalloc %s  unwritten %s", a, b, c);
		} else {
			snprintf(line, sizeof line, "allocated %s  delalloc %s", a, b);
		}
		grid_print(g, r.x, y, r.w, GS_NORMAL, line);
		if (prev != NULL && (prev->disk.allocated_bytes != d->allocated_bytes ||
		                     prev->disk.delalloc_bytes != d->delalloc_bytes))
			grid_attr(g, (struct grid_rect){ r.x, y, grid_text_width(line) < r.w ?
			                                 grid_text_width(line) : r.w, 1 }, GRID_A_BOLD);
		y++;
	}
	if (y < end && tall)
		view_disk_legend(g, r.x, y++, r.w, ascii);
	if (y < end && d->note[0] != '\0')
		grid_print(g, r.x, y++, r.w, GS_DIM, d->note);
}
