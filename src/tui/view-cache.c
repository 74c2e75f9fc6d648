/* SPDX-License-Identifier: MIT */
/* tui/view-cache.c: the page-cache pane: one glyph per range of pages, as the kernel reports it. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "tui/view.h"

/* Sum the snapshot cells that overlap pages [first, first + n). */
static struct view_cell_state
view_cache_range(const struct snapshot *s, uint64_t first, uint64_t n)
{
	const struct snap_cache *c = &s->cache;
	/* On tmpfs a page is cached or not: there is no disk for it to be dirty against. */
	bool states = c->has_dirty && !snapshot_in_memory(s);
	struct view_cell_state st = { .first_page = first, .pages = n, .dirty_unknown = !states };
	uint64_t ppc = c->pages_per_cell ? c->pages_per_cell : 1;

	for (size_t i = first / ppc; i < c->n_cells && i * ppc < first + n; i++) {
		st.cached += c->cells[i].cached;
		st.dirty += states ? c->cells[i].dirty : 0;
		st.writeback += states ? c->cells[i].writeback : 0;
	}
	return st;
}

/* Glyph and style of a cell state. */
static enum view_glyph
view_cache_kind(const struct view_cell_state *st, int *style)
{
	if (st->writeback > 0) {
		*style = GS_WRITEBACK;
		return VG_WRITEBACK;
	}
	if (st->dirty > 0) {
		*style = GS_DIRTY;
		return VG_DIRTY;
	}
	if (st->cached > 0) {
		*style = GS_CLEAN;
		return st->dirty_unknown ? VG_RESIDENT : VG_CLEAN;
	}
	*style = GS_DIM;
	return VG_ABSENT;
}

/* Merged state of shown cell i. */
struct view_cell_state
view_cache_cell(const struct snapshot *s, const struct view_cache_geom *geom, size_t i)
{
	uint64_t ppc = s->cache.pages_per_cell ? s->cache.pages_per_cell : 1;
	uint64_t span = ppc * (geom->per ? geom->per : 1), first = (uint64_t)i * span;
	uint64_t n = first < s->cache.pages ? s->cache.pages - first : 0;

	return view_cache_range(s, first, n < span ? n : span);
}

/* Describe shown cell i. */
char *
view_cache_cell_text(const struct snapshot *s, const struct view_cache_geom *geom, size_t i,
                     char *buf, size_t len)
{
	static const char *names[] = { [VG_ABSENT] = "absent", [VG_CLEAN] = "clean",
	                               [VG_DIRTY] = "dirty", [VG_WRITEBACK] = "writeback",
	                               [VG_RESIDENT] = "cached, dirty unknown" };
	struct view_cell_state st = view_cache_cell(s, geom, i);
	char a[32], b[32], d[32];
	int style;
	enum view_glyph k = view_cache_kind(&st, &style);

	units_format_size(st.first_page * view_page_size(), a, sizeof a);
	units_format_size((st.first_page + st.pages) * view_page_size(), b, sizeof b);
	if (snapshot_in_memory(s))
		snprintf(d, sizeof d, "none (no disk)");
	else if (s->cache.has_dirty)
		snprintf(d, sizeof d, "%" PRIu64, st.dirty);
	else
		snprintf(d, sizeof d, "?");
	snprintf(buf, len, "cell %zu: pages %" PRIu64 "-%" PRIu64 " [%s, %s): %s; cached %" PRIu64
	         ", dirty %s, writeback %" PRIu64,
	         i, st.first_page, st.first_page + (st.pages ? st.pages - 1 : 0), a, b,
	         k == VG_RESIDENT && snapshot_in_memory(s) ? "cached" : names[k],
	         st.cached, d, st.writeback);
	return buf;
}

/* Runs of shown cells in the same state, one line each. */
char *
view_cache_runs_text(const struct snapshot *s, const struct view_cache_geom *geom, size_t max,
                     char *buf, size_t len)
{
	static const char *names[] = { [VG_ABSENT] = "absent", [VG_CLEAN] = "clean",
	                               [VG_DIRTY] = "dirty", [VG_WRITEBACK] = "writeback",
	                               [VG_RESIDENT] = "cached, dirty unknown" };
	size_t n = 0, lines = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < geom->n && n < len; ) {
		struct view_cell_state st = view_cache_cell(s, geom, i), run;
		int style;
		enum view_glyph k = view_cache_kind(&st, &style);
		size_t j = i + 1;
		char a[32], b[32], d[32];

		for (; j < geom->n; j++) {
			struct view_cell_state nx = view_cache_cell(s, geom, j);
			if (view_cache_kind(&nx, &style) != k)
				break;
		}
		if (lines++ == max) {
			snprintf(buf + n, len - n, "...\n");
			break;
		}
		st = view_cache_cell(s, geom, j - 1);
		run = view_cache_range(s, view_cache_cell(s, geom, i).first_page,
		                       st.first_page + st.pages - view_cache_cell(s, geom, i).first_page);
		units_format_size(run.first_page * view_page_size(), a, sizeof a);
		units_format_size((run.first_page + run.pages) * view_page_size(), b,
		                  sizeof b);
		if (snapshot_in_memory(s))
			snprintf(d, sizeof d, "none (no disk)");
		else if (s->cache.has_dirty)
			snprintf(d, sizeof d, "%" PRIu64, run.dirty);
		else
			snprintf(d, sizeof d, "?");
		n += (size_t)snprintf(buf + n, len - n, "pages %" PRIu64 "-%" PRIu64 " [%s, %s) %s: "
		                      "cached %" PRIu64 ", dirty %s, writeback %" PRIu64 "\n",
		                      run.first_page, run.first_page + (run.pages ? run.pages - 1 : 0),
		                      a, b, k == VG_RESIDENT && snapshot_in_memory(s) ? "cached" :
		                      names[k], run.cached, d, run.writeback);
		i = j;
	}
	return buf;
}

/* Which shown cell is at x, y. */
long
view_cache_hit(const struct view_cache_geom *geom, int x, int y)
{
	long i;

	int cw = geom->cw > 0 ? geom->cw : 1, rh = geom->rh > 0 ? geom->rh : 1;

	if (geom->cols <= 0 || x < geom->x || y < geom->y || x >= geom->x + geom->cols * cw ||
	    y >= geom->y + geom->rows * rh)
		return -1;
	i = (long)((y - geom->y) / rh) * geom->cols + (x - geom->x) / cw;
	return i < (long)geom->n ? i : -1;
}

/* Snapshot cells per shown cell for a run whose largest file has scale pages, in cap shown
 * cells: one span of pages for every step, a multiple of the probe's pages per cell for that
 * file (a power of two, the largest any step has), so that it never changes. fit: what this
 * snapshot alone needs, kept if the scale would not fit it. */
static size_t
view_cache_scale(uint64_t scale, uint64_t ppc, size_t cap, size_t fit)
{
	uint64_t top = 1, span;

	while ((scale + top - 1) / top > SNAP_MAX_CELLS)
		top <<= 1;
	if (top < ppc)
		top = ppc;
	span = (scale + cap - 1) / (cap ? cap : 1);
	span = (span + top - 1) / top * top;
	return span / ppc > fit ? (size_t)(span / ppc) : fit;
}

/* Whether a shown cell holds a page of the bytes the step's reads asked for. */
static bool
view_cache_asked(const struct view_cache_look *look, const struct view_cell_state *st)
{
	uint64_t psz = view_page_size();

	return look->asked_end > look->asked_first && st->pages > 0 &&
	       st->first_page * psz < look->asked_end &&
	       (st->first_page + st->pages) * psz > look->asked_first;
}

/* The cache legend. */
static const struct view_legend view_cache_legend[] = {
	{ VG_DIRTY, GS_DIRTY, "dirty" }, { VG_CLEAN, GS_CLEAN, "clean" },
	{ VG_WRITEBACK, GS_WRITEBACK, "writeback" }, { VG_ABSENT, GS_DIM, "absent" },
};
#define VIEW_CACHE_LEGEND (sizeof view_cache_legend / sizeof view_cache_legend[0])

/* The legend when only residency is known: no cell claims to be clean. */
static const struct view_legend view_cache_legend_resident[] = {
	{ VG_RESIDENT, GS_CLEAN, "cached, dirty ?" }, { VG_ABSENT, GS_DIM, "absent" },
};

/* The legend of a file in memory (tmpfs): cached, or not; nothing is ever dirty there. */
static const struct view_legend view_cache_legend_memory[] = {
	{ VG_RESIDENT, GS_CLEAN, "cached" }, { VG_ABSENT, GS_DIM, "absent" },
};

/* Draw the page-cache pane. */
void
view_cache_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                const struct snapshot *prev, const char *note, bool ascii,
                const struct view_cache_look *look, struct view_cache_geom *geom)
{
	const struct snap_cache *c = &now->cache;
	struct view_cache_geom gm = { 0 };
	char a[32], b[64], line[256];
	bool tall = r.h >= 7;
	int notes = (c->note[0] != '\0') + (note != NULL && *note != '\0');
	int y = r.y, rows, srows;
	uint64_t ppc = c->pages_per_cell ? c->pages_per_cell : 1;
	int cw = look != NULL && look->big && r.w >= 16 ? 2 : 1, rh = 1;
	bool mem = snapshot_in_memory(now);
	const struct view_legend *legend = mem ? view_cache_legend_memory :
	                                   c->has_dirty ? view_cache_legend :
	                                   view_cache_legend_resident;
	size_t n_legend = mem ? sizeof view_cache_legend_memory / sizeof view_cache_legend_memory[0] :
	                  c->has_dirty ? VIEW_CACHE_LEGEND :
	                  sizeof view_cache_legend_resident / sizeof view_cache_legend_resident[0];

	if (geom != NULL)
		*geom = gm;
	if (r.w < 8 || r.h < 2)
		return;
	if (tall) {
		units_format_size(c->file_size, a, sizeof a);
		grid_printf(g, r.x, y++, r.w, GS_NORMAL, "file: %s = %" PRIu64 " page%s", a, c->pages,
		            c->pages == 1 ? "" : "s");
	}
	/* Rows left for the grid after the header ("1 cell =" and a blank line), the counts,
	 * the legend and the notes: every cell must get a place of its own. */
	rows = r.y + r.h - y - notes - 1 -
	       (tall ? 2 + view_legend_draw(NULL, 0, 0, r.w, 2, legend, n_legend, ascii) : 0);
	if (rows < 1)
		rows = 1;
	/* The rows the scale is made for: as if both notes were shown, so that a note coming
	 * or going never changes it. Projector cells are two rows tall when 4 rows of them fit. */
	srows = rows + notes - 2 >= 1 ? rows + notes - 2 : 1;
	if (cw == 2 && srows >= 8) {
		rh = 2;
		rows /= 2;
		srows /= 2;
	}
	gm.x = r.x;
	gm.cw = cw;
	gm.rh = rh;
	gm.cols = r.w / cw;
	gm.per = 1;
	if (c->n_cells > 0) {
		size_t cap = (size_t)rows * (size_t)gm.cols;
		gm.per = (c->n_cells + cap - 1) / cap;
		if (look != NULL && look->scale_pages > 0)
			gm.per = view_cache_scale(look->scale_pages, ppc,
			                          (size_t)srows * (size_t)gm.cols, gm.per);
		gm.n = (c->n_cells + gm.per - 1) / gm.per;
		/* Fewer cells than a row: use the width they need. */
		gm.rows = (int)((gm.n + (size_t)gm.cols - 1) / (size_t)gm.cols);
	}
	if (tall) {
		units_format_size(ppc * gm.per * view_page_size(), a, sizeof a);
		grid_printf(g, r.x, y++, r.w, GS_DIM, "1 cell = %" PRIu64 " page%s (%s)",
		            ppc * (gm.per ? gm.per : 1), ppc * gm.per > 1 ? "s" : "", a);
		y++;
	}
	gm.y = y;
	if (c->source == SNAP_SRC_NONE) {
		grid_print(g, r.x, y, r.w, GS_DIM, "page cache not observable here");
	} else if (c->n_cells == 0) {
		grid_print(g, r.x, y, r.w, GS_DIM, "empty file: no pages");
	} else {
		for (size_t i = 0; i < gm.n; i++) {
			struct view_cell_state st = view_cache_cell(now, &gm, i);
			int style, x = gm.x + (int)(i % (size_t)gm.cols) * cw;
			int yy = gm.y + (int)(i / (size_t)gm.cols) * rh;
			enum view_glyph k = view_cache_kind(&st, &style);

			for (int dy = 0; dy < rh; dy++)
				for (int dx = 0; dx < cw; dx++)
					grid_put(g, x + dx, yy + dy, view_glyph(k, ascii), style);
			if (prev != NULL) {
				struct view_cell_state ps = view_cache_range(prev, st.first_page, st.pages);
				int pstyle;
				if (view_cache_kind(&ps, &pstyle) != k)
					grid_attr(g, (struct grid_rect){ x, yy, cw, rh },
					          GRID_A_REVERSE);
			}
			if (look != NULL && view_cache_asked(look, &st))
				grid_attr(g, (struct grid_rect){ x, yy + rh - 1, cw, 1 },
				          GRID_A_UNDERLINE | GRID_A_BOLD);
		}
	}
	y = gm.y + (gm.rows > 0 ? gm.rows * rh : 1) + (tall ? 1 : 0);
	if (y > r.y + r.h - (tall ? 3 : 1) - notes)
		y = r.y + r.h - (tall ? 3 : 1) - notes;
	if (y < gm.y + 1)
		y = gm.y + 1;
	if (mem) {
		/* Not "dirty 0": a count of what cannot happen here would read as a measurement. */
		snprintf(line, sizeof line, "cached %" PRIu64 "; %s has no disk: nothing to write back",
		         c->cached, now->disk.fs);
		if (grid_text_width(line) > r.w)
			snprintf(line, sizeof line, "cached %" PRIu64 "; nothing to write back",
			         c->cached);
		if (grid_text_width(line) > r.w)
			snprintf(line, sizeof line, "cached %" PRIu64 ", no disk", c->cached);
	} else if (c->has_dirty) {
		snprintf(line, sizeof line, "cached %" PRIu64 " dirty %" PRIu64 " writeback %" PRIu64,
		         c->cached, c->dirty, c->writeback);
		if (grid_text_width(line) > r.w)
			snprintf(line, sizeof line, "cached %" PRIu64 " dirty %" PRIu64 " wb %" PRIu64,
			         c->cached, c->dirty, c->writeback);
	}
	else
		snprintf(line, sizeof line, "cached %" PRIu64 " of %" PRIu64 " dirty ?", c->cached,
		         c->pages);
	if (tall) {
		grid_print(g, r.x, y++, r.w, GS_NORMAL, line);
		y += view_legend_draw(g, r.x, y, r.w, 2, legend, n_legend, ascii);
	} else {
		int n = grid_print(g, r.x, y, r.w, GS_NORMAL, line);
		if (!tall && c->n_cells > 0 && gm.per > 1) {
			units_format_size(ppc * gm.per * view_page_size(), a, sizeof a);
			snprintf(b, sizeof b, "  cell=%s", a);
			if (grid_text_width(b) <= r.w - n)   /* whole or not at all */
				n += grid_print(g, r.x + n, y, r.w - n, GS_DIM, b);
		}
		if (r.w - n > 20)
			view_legend_draw(g, r.x + n + 2, y, r.w - n - 2, 1, legend, n_legend, ascii);
		y++;
	}
	if (c->note[0] != '\0' && y < r.y + r.h)
		grid_print(g, r.x, y++, r.w, GS_DIM, c->note);
	if (note != NULL && *note != '\0' && y < r.y + r.h)
		grid_print(g, r.x, y++, r.w, GS_DIRTY, note);
	if (geom != NULL)
		*geom = gm;
}
