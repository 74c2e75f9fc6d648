/* SPDX-License-Identifier: MIT */
/* tui/view.c: what every view shares: the glyph of each state (Unicode or ASCII) and legends. */
#include <config.h>

#include <unistd.h>

#include "tui/view.h"

/* Unicode and ASCII forms of every glyph. */
static const uint32_t view_glyphs[VG__COUNT][2] = {
	[VG_ABSENT]    = { 0x00b7, '.' },   /* · */
	[VG_CLEAN]     = { 0x2591, '-' },   /* ░ */
	[VG_DIRTY]     = { 0x2593, '#' },   /* ▓ */
	[VG_WRITEBACK] = { 0x224b, '~' },   /* ≋ */
	[VG_ONDISK]    = { 0x2588, '@' },   /* █ */
	[VG_DELALLOC]  = { 0x2504, ':' },   /* ┄ */
	[VG_UNWRITTEN] = { 0x2581, '_' },   /* ▁ */
	[VG_STALE]     = { 0x259e, '!' },   /* ▞ */
	[VG_UNKNOWN]   = { '?', '?' },
	[VG_STDIO]     = { 0x2592, '=' },   /* ▒ */
	[VG_OK]        = { 0x2713, '+' },   /* ✓ */
	[VG_FAIL]      = { 0x2717, 'x' },   /* ✗ */
	[VG_ARROW]     = { 0x25b6, '>' },   /* ▶ */
	[VG_DOTS]      = { 0x2026, '.' },   /* … */
	[VG_RESIDENT]  = { 0x259a, '%' },   /* ▚ */
	[VG_INLINE]    = { 0x25a3, 'i' },   /* ▣ */
};

/* The code point of a glyph. */
uint32_t
view_glyph(enum view_glyph v, bool ascii)
{
	return view_glyphs[v][ascii ? 1 : 0];
}

/* The page size the probes counted in (they ask sysconf too; snapshots do not carry it). */
uint64_t
view_page_size(void)
{
	long psz = sysconf(_SC_PAGESIZE);

	return psz > 0 ? (uint64_t)psz : 4096;
}

/* Draw a legend, wrapping to the next row when an entry does not fit. */
int
view_legend_draw(struct grid *g, int x, int y, int w, int rows, const struct view_legend *l,
                 size_t n, bool ascii)
{
	int col = 0, row = 0;

	for (size_t i = 0; i < n; i++) {
		int len = 2 + text_width(l[i].name);
		if (col > 0 && col + len > w) {
			if (row + 1 >= rows)
				break;
			row++;
			col = 0;
		}
		if (g != NULL) {
			grid_put(g, x + col, y + row, view_glyph(l[i].v, ascii), l[i].style);
			if (l[i].attr != 0)
				grid_attr(g, (struct grid_rect){ x + col, y + row, 1, 1 }, l[i].attr);
			grid_print(g, x + col + 2, y + row, w - col - 2, GS_DIM, l[i].name);
		}
		col += len + 1;
	}
	return row + 1;
}
