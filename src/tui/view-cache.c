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

/* Whether the cells are marked by where the step's pages came from. */
static bool
view_cache_marked(const struct view_cache_look *look)
{
	return look != NULL && look->before != NULL && look->origins != NULL &&
	       look->origins->valid;
}

/* Pages [first, first + n) of s by where they came from (all 0 when not marked). */
static void
view_cache_from(const struct snapshot *s, const struct view_cache_look *look, uint64_t first,
                uint64_t n, uint64_t *out)
{
	const struct snap_cache *c = &s->cache;
	uint64_t ppc = c->pages_per_cell ? c->pages_per_cell : 1;

	memset(out, 0, SNAPSHOT_FROM__COUNT * sizeof *out);
	if (!view_cache_marked(look))
		return;
	for (size_t i = first / ppc; i < c->n_cells && i * ppc < first + n; i++) {
		uint64_t v[SNAPSHOT_FROM__COUNT];
		snapshot_origins_cell(&look->before->cache, c, look->origins, i, v, NULL);
		for (int f = 0; f < SNAPSHOT_FROM__COUNT; f++)
			out[f] += v[f];
	}
}

/* Draw the shown cell of pages [first, first + n) at x, y (cw x rh): its state's glyph, the
 * flash where it changed since prev, and where its pages came from: asked for (underlined),
 * read ahead (bold), only cached before the step (dim). */
static void
view_cache_put(struct grid *g, int x, int y, int cw, int rh, const struct snapshot *now,
               const struct snapshot *prev, const struct view_cache_look *look, uint64_t first,
               uint64_t n, bool ascii)
{
	struct view_cell_state st = view_cache_range(now, first, n);
	uint64_t from[SNAPSHOT_FROM__COUNT];
	int style;
	enum view_glyph k = view_cache_kind(&st, &style);

	view_cache_from(now, look, first, n, from);
	if (from[SNAPSHOT_FROM_ASKED] == 0 && from[SNAPSHOT_FROM_AHEAD] == 0 &&
	    from[SNAPSHOT_FROM_BEFORE] + from[SNAPSHOT_FROM_EARLIER] > 0)
		style = GS_DIM;
	for (int dy = 0; dy < rh; dy++)
		for (int dx = 0; dx < cw; dx++)
			grid_put(g, x + dx, y + dy, view_glyph(k, ascii), style);
	if (prev != NULL) {
		struct view_cell_state ps = view_cache_range(prev, first, n);
		int pstyle;
		if (view_cache_kind(&ps, &pstyle) != k)
			grid_attr(g, (struct grid_rect){ x, y, cw, rh }, GRID_A_REVERSE);
	}
	if (from[SNAPSHOT_FROM_ASKED] > 0)
		grid_attr(g, (struct grid_rect){ x, y + rh - 1, cw, 1 },
		          GRID_A_UNDERLINE | GRID_A_BOLD);
	else if (from[SNAPSHOT_FROM_AHEAD] > 0)
		grid_attr(g, (struct grid_rect){ x, y, cw, rh }, GRID_A_BOLD);
}

/* The legend of the marks: each origin with its count, as the cells show it, into l (names
 * in names; brief: the short words, for a narrow pane), the origins that have pages first (a
 * narrow pane may cut the rest); return the entries. */
static size_t
view_cache_origins_legend(const struct snapshot_origins *o, bool resident, bool brief,
                          struct view_legend *l, char (*names)[80])
{
	enum view_glyph v = resident ? VG_RESIDENT : VG_CLEAN;
	const uint64_t *pg = o->pages;
	struct view_legend e[4];
	int rank[4];
	size_t n = 0, out = 0;

	if (pg[SNAPSHOT_FROM_ASKED] == 0 && o->asked_cached > 0)
		snprintf(names[n], sizeof names[n], "%s", brief ? "asked: cached" :
		         "asked for: cached already");
	else
		snprintf(names[n], sizeof names[n], "%" PRIu64 " %s", pg[SNAPSHOT_FROM_ASKED],
		         brief ? "asked" : "asked for");
	rank[n] = pg[SNAPSHOT_FROM_ASKED] > 0 ? 0 : o->asked_cached > 0 ? 1 : 2;
	e[n] = (struct view_legend){ v, GS_CLEAN, names[n], GRID_A_UNDERLINE | GRID_A_BOLD };
	n++;
	snprintf(names[n], sizeof names[n], "%" PRIu64 " %s", pg[SNAPSHOT_FROM_AHEAD],
	         brief ? "ahead" : "read ahead");
	rank[n] = pg[SNAPSHOT_FROM_AHEAD] > 0 ? 0 : 2;
	e[n] = (struct view_legend){ v, GS_CLEAN, names[n], GRID_A_BOLD };
	n++;
	if (pg[SNAPSHOT_FROM_EARLIER] > 0) {
		snprintf(names[n], sizeof names[n], "%" PRIu64 " asked at step %zu%s",
		         pg[SNAPSHOT_FROM_EARLIER], o->earlier_step, brief ? "" : ", seen now");
		rank[n] = 0;
		e[n] = (struct view_legend){ v, GS_DIM, names[n], 0 };
		n++;
	}
	if (o->n_by > 0 && o->by[0] > 0 && pg[SNAPSHOT_FROM_BEFORE] > 0 && brief && o->by_willneed[0])
		/* The short form still names the advice: "before (step 12:..." hid it at 30 columns. */
		snprintf(names[n], sizeof names[n], "%" PRIu64 " from WILLNEED (step %zu%s)",
		         pg[SNAPSHOT_FROM_BEFORE], o->by[0], o->n_by > 1 ? ", ..." : "");
	else if (o->n_by > 0 && o->by[0] > 0 && pg[SNAPSHOT_FROM_BEFORE] > 0)
		snprintf(names[n], sizeof names[n], "%" PRIu64 " %s (step %zu%s%s)",
		         pg[SNAPSHOT_FROM_BEFORE], brief ? "before" : "cached before", o->by[0],
		         o->by_willneed[0] ? ": WILLNEED" : "", o->n_by > 1 ? ", ..." : "");
	else
		snprintf(names[n], sizeof names[n], "%" PRIu64 " %s", pg[SNAPSHOT_FROM_BEFORE],
		         brief ? "before" : "cached before");
	rank[n] = pg[SNAPSHOT_FROM_BEFORE] > 0 ? 0 : 2;
	e[n] = (struct view_legend){ v, GS_DIM, names[n], 0 };
	n++;
	for (int r = 0; r <= 2; r++)
		for (size_t i = 0; i < n; i++)
			if (rank[i] == r)
				l[out++] = e[i];
	return out;
}

/* Draw the marks' legend at x, y in w columns and up to rows rows, in the long words when
 * they fit, else the short ones; return the rows used (g NULL: only count them). */
static int
view_cache_origins_draw(struct grid *g, int x, int y, int w, int rows,
                        const struct snapshot_origins *o, bool resident, bool ascii)
{
	struct view_legend l[4];
	char names[4][80];
	size_t n = view_cache_origins_legend(o, resident, false, l, names);

	if (view_legend_draw(NULL, 0, 0, w, 8, l, n, ascii) > rows)
		n = view_cache_origins_legend(o, resident, true, l, names);
	return view_legend_draw(g, x, y, w, rows, l, n, ascii);
}

/* The first snapshot cell of a strip of n cells where the step acts: its first page asked
 * for (or arriving from an earlier WILLNEED), a little before it when there is room. */
static size_t
view_cache_zoom_first(const struct snap_cache *c, const struct snapshot_origins *o, size_t n)
{
	uint64_t ppc = c->pages_per_cell ? c->pages_per_cell : 1;
	uint64_t at = o->asked_first;
	size_t first;

	if (o->pages[SNAPSHOT_FROM_EARLIER] > 0 && o->earlier_first < at)
		at = o->earlier_first;
	first = (size_t)(at / view_page_size() / ppc);
	if (n >= 16)
		first -= first % 8;
	if (first + n > c->n_cells)
		first = c->n_cells > n ? c->n_cells - n : 0;
	return first;
}

/* The cache legend. */
static const struct view_legend view_cache_legend[] = {
	{ .v = VG_DIRTY, .style = GS_DIRTY, .name = "dirty" },
	{ .v = VG_CLEAN, .style = GS_CLEAN, .name = "clean" },
	{ .v = VG_WRITEBACK, .style = GS_WRITEBACK, .name = "writeback" },
	{ .v = VG_ABSENT, .style = GS_DIM, .name = "absent" },
};
#define VIEW_CACHE_LEGEND (sizeof view_cache_legend / sizeof view_cache_legend[0])

/* The legend when only residency is known: no cell claims to be clean. */
static const struct view_legend view_cache_legend_resident[] = {
	{ .v = VG_RESIDENT, .style = GS_CLEAN, .name = "cached, dirty ?" },
	{ .v = VG_ABSENT, .style = GS_DIM, .name = "absent" },
};

/* The legend of a file in memory (tmpfs): cached, or not; nothing is ever dirty there. */
static const struct view_legend view_cache_legend_memory[] = {
	{ .v = VG_RESIDENT, .style = GS_CLEAN, .name = "cached" },
	{ .v = VG_ABSENT, .style = GS_DIM, .name = "absent" },
};

/* The pane's legend for a source with dirty counts or without. */
const struct view_legend *
view_cache_legend_of(bool has_dirty, size_t *n)
{
	*n = has_dirty ? VIEW_CACHE_LEGEND :
	     sizeof view_cache_legend_resident / sizeof view_cache_legend_resident[0];
	return has_dirty ? view_cache_legend : view_cache_legend_resident;
}

/* Draw the page-cache pane. */
void
view_cache_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                const struct snapshot *prev, const char *note, bool ascii,
                const struct view_cache_look *look, struct view_cache_geom *geom)
{
	const struct snap_cache *c = &now->cache;
	struct view_cache_geom gm = { 0 };
	char a[32], b[64], line[256];
	bool tall = r.h >= 7, marked = view_cache_marked(look), alone = false;
	/* The marks' legend takes the remark's row: a read (marks) and a large folio (a write's
	 * remark) do not come together. */
	int notes = (c->note[0] != '\0') + ((note != NULL && *note != '\0') || marked);
	/* Two rows for the marks' legend where the notes keep one free (the scale is made as if
	 * two notes were shown). */
	int marks_rows = marked && tall && notes < 2 ?
	                 view_cache_origins_draw(NULL, 0, 0, r.w, 2, look->origins, !c->has_dirty,
	                                         ascii) : 1;

	notes += marks_rows - 1;
	int y = r.y, rows, srows, zoom_y = -1, counts_y;
	uint64_t ppc = c->pages_per_cell ? c->pages_per_cell : 1;
	int cw = look != NULL && look->big && r.w >= 16 ? 2 : 1, rh = 1;
	bool mem = snapshot_in_memory(now);
	size_t n_legend = sizeof view_cache_legend_memory / sizeof view_cache_legend_memory[0];
	const struct view_legend *legend = mem ? view_cache_legend_memory :
	                                   view_cache_legend_of(c->has_dirty, &n_legend);
	size_t zfirst = 0, zn = 0;
	int legend_rows = tall ? view_legend_draw(NULL, 0, 0, r.w, 2, legend, n_legend, ascii) : 0;

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
	rows = r.y + r.h - y - notes - 1 - (tall ? 2 + legend_rows : 0);
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
	/* Where a shown cell merges pages, the step's pages one snapshot cell each: under the
	 * grid when they fit there, else (projector mode) in its place. */
	counts_y = r.y + r.h - notes - 1 - legend_rows;
	if (marked && gm.per > 1 && c->source != SNAP_SRC_NONE) {
		int grid_end = y + (tall ? 2 : 0) + gm.rows * rh;
		zn = (size_t)gm.cols < c->n_cells ? (size_t)gm.cols : c->n_cells;
		zfirst = view_cache_zoom_first(c, look->origins, zn);
		if (grid_end + (tall ? 1 : 0) + 1 + rh + (tall ? 1 : 0) <= counts_y) {
			/* Under the grid, on as many rows as are free, and only if no cached page is
			 * left out of it (a strip of 18 of 20 cached pages tells a wrong story). */
			int zrows = (counts_y - (tall ? 1 : 0) - (grid_end + (tall ? 1 : 0) + 1)) / rh;
			size_t cap = (size_t)(zrows > 0 ? zrows : 1) * (size_t)gm.cols;
			zn = cap < c->n_cells ? cap : c->n_cells;
			zfirst = view_cache_zoom_first(c, look->origins, zn);
			zoom_y = grid_end + (tall ? 1 : 0);
			for (size_t i = 0; i < c->n_cells && zoom_y >= 0; i++)
				if ((i < zfirst || i >= zfirst + zn) && c->cells[i].cached > 0)
					zoom_y = -1;
			if (zoom_y < 0)
				zn = 0;
		} else if (look->big) {
			/* In the grid's place, on all its rows: only if no cached page is left out
			 * (a zoom that hid 2 of 20 cached pages would tell a wrong story). */
			size_t cap = (size_t)rows * (size_t)gm.cols;
			zn = cap < c->n_cells ? cap : c->n_cells;
			zfirst = view_cache_zoom_first(c, look->origins, zn);
			alone = true;
			for (size_t i = 0; i < c->n_cells && alone; i++)
				if ((i < zfirst || i >= zfirst + zn) && c->cells[i].cached > 0)
					alone = false;
			if (!alone)
				zn = 0;
		} else {
			zn = 0;
		}
	}
	units_format_size(ppc * view_page_size(), b, sizeof b);
	if (tall && alone) {
		grid_printf(g, r.x, y++, r.w, GS_DIM, "1 cell = %" PRIu64 " page%s (%s): pages %" PRIu64 "-%" PRIu64 ", "
		            "where this step reads", ppc, ppc > 1 ? "s" : "", b, zfirst * ppc,
		            (zfirst + zn) * ppc - 1);
		y++;
	} else if (tall) {
		units_format_size(ppc * gm.per * view_page_size(), a, sizeof a);
		grid_printf(g, r.x, y++, r.w, GS_DIM, "1 cell = %" PRIu64 " page%s (%s)",
		            ppc * (gm.per ? gm.per : 1), ppc * gm.per > 1 ? "s" : "", a);
		y++;
	}
	gm.y = y;
	if (c->source == SNAP_SRC_NONE) {
		/* Its note says why when there is one (a traced program before its first file:
		 * "no file yet"), as the disk pane's does. */
		grid_print(g, r.x, y, r.w, GS_DIM, c->note[0] != '\0' ? c->note :
		           "page cache not observable here");
	} else if (c->n_cells == 0) {
		grid_print(g, r.x, y, r.w, GS_DIM, "empty file: no pages");
	} else if (alone) {
		for (size_t i = 0; i < zn; i++)
			view_cache_put(g, gm.x + (int)(i % (size_t)gm.cols) * cw,
			               y + (int)(i / (size_t)gm.cols) * rh, cw, rh, now, prev, look,
			               (zfirst + i) * ppc, ppc, ascii);
		gm.rows = (int)((zn + (size_t)gm.cols - 1) / (size_t)gm.cols);
	} else {
		for (size_t i = 0; i < gm.n; i++) {
			struct view_cell_state st = view_cache_cell(now, &gm, i);
			view_cache_put(g, gm.x + (int)(i % (size_t)gm.cols) * cw,
			               gm.y + (int)(i / (size_t)gm.cols) * rh, cw, rh, now, prev, look,
			               st.first_page, st.pages, ascii);
		}
	}
	y = gm.y + (gm.rows > 0 ? gm.rows * rh : 1) + (tall ? 1 : 0);
	if (zoom_y >= 0) {
		grid_printf(g, r.x, zoom_y, r.w, GS_DIM, "pages %" PRIu64 "-%" PRIu64 ", %" PRIu64 " a cell (%s):",
		            zfirst * ppc, (zfirst + zn) * ppc - 1, ppc, b);
		for (size_t i = 0; i < zn; i++)
			view_cache_put(g, gm.x + (int)(i % (size_t)gm.cols) * cw,
			               zoom_y + 1 + (int)(i / (size_t)gm.cols) * rh, cw, rh, now, prev,
			               look, (zfirst + i) * ppc, ppc, ascii);
		y = zoom_y + 1 + (int)((zn + (size_t)gm.cols - 1) / (size_t)gm.cols) * rh +
		    (tall ? 1 : 0);
	}
	if (y > r.y + r.h - (tall ? 1 + legend_rows : 1) - notes)
		y = r.y + r.h - (tall ? 1 + legend_rows : 1) - notes;
	if (y < gm.y + 1)
		y = gm.y + 1;
	if (mem) {
		/* Not "dirty 0": a count of what cannot happen here would read as a measurement. */
		snprintf(line, sizeof line, "cached %" PRIu64 "; %s has no disk: nothing to write back",
		         c->cached, now->disk.fs);
		if (text_width(line) > r.w)
			snprintf(line, sizeof line, "cached %" PRIu64 "; nothing to write back",
			         c->cached);
		if (text_width(line) > r.w)
			snprintf(line, sizeof line, "cached %" PRIu64 ", no disk", c->cached);
	} else if (c->has_dirty) {
		snprintf(line, sizeof line, "cached %" PRIu64 " dirty %" PRIu64 " writeback %" PRIu64,
		         c->cached, c->dirty, c->writeback);
		if (text_width(line) > r.w)
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
		if (alone)
			snprintf(b, sizeof b, "  pages %" PRIu64 "-%" PRIu64 " shown", zfirst * ppc,
			         (zfirst + zn) * ppc - 1);
		else if (c->n_cells > 0 && gm.per > 1) {
			units_format_size(ppc * gm.per * view_page_size(), a, sizeof a);
			snprintf(b, sizeof b, "  cell=%s", a);
		} else
			b[0] = '\0';
		if (b[0] != '\0' && text_width(b) <= r.w - n)   /* whole or not at all */
			n += grid_print(g, r.x + n, y, r.w - n, GS_DIM, b);
		if (r.w - n > 20)
			view_legend_draw(g, r.x + n + 2, y, r.w - n - 2, 1, legend, n_legend, ascii);
		y++;
	}
	if (c->note[0] != '\0' && c->source != SNAP_SRC_NONE && y < r.y + r.h)
		grid_print(g, r.x, y++, r.w, GS_DIM, c->note);
	if (marked && y < r.y + r.h)
		y += view_cache_origins_draw(g, r.x, y, r.w, marks_rows, look->origins,
		                             !c->has_dirty, ascii);
	else if (note != NULL && *note != '\0' && y < r.y + r.h) {
		grid_print(g, r.x, y++, r.w, GS_DIRTY, note);
	}
	if (alone)
		gm.n = 0, gm.cols = 0;
	if (geom != NULL)
		*geom = gm;
}
