/* SPDX-License-Identifier: MIT */
/* check-views.c: each pane drawn for known snapshots into a grid, compared with pictures. */
#include <config.h>

#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "table/print.h"
#include "tui/cast.h"
#include "fixture-views.h"
#include "tui/grid.h"
#include "lesson/history.h"
#include "lesson/lesson.h"
#include "scratch/scratch.h"
#include "crash/crash.h"
#include "tui/view.h"
#include "base/text.h"
#include "scenario/glossary.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "test-util.h"

/* Build the fixture. */
static void
setup(void)
{
	fixture_build();
}

/* Free the fixture. */
static void
teardown(void)
{
	fixture_free();
}

/* Render a frame at w x h into a heap string. */
static char *
screen(int w, int h, long cur, bool ascii, enum view_anim anim, struct view_layout *lay)
{
	struct grid *g = grid_new(w, h);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS, .cur = cur,
	                        .initial = &fix_initial, .fs = "ext4", .speed = 1, .ascii = ascii,
	                        .anim = anim, .focus = VIEW_PANE_NONE };
	char *t;

	ck_assert_ptr_nonnull(g);
	view_screen_draw(g, &f, lay);
	t = grid_text(g);
	grid_free(g);
	return t;
}

/* Draw one pane function into a w x h grid and return its text. */
#define PANE(w, h, call) ({                                   \
	struct grid *g_ = grid_new(w, h);                     \
	struct grid *g = g_;                                  \
	struct grid_rect r = { 0, 0, w, h };                  \
	char *t_;                                             \
	(void)r; call;                                        \
	t_ = grid_text(g_);                                   \
	grid_free(g_);                                        \
	t_; })

/* Compare a rendered picture with the expected one, showing both on failure. */
#define ck_picture(got, want) do {                                                \
	char *g__ = (got);                                                        \
	if (strcmp(g__, (want)) != 0)                                             \
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", g__, (want));            \
	ck_assert_str_eq(g__, (want));                                            \
	free(g__);                                                                \
} while (0)

START_TEST(test_print_panes)
{
	/* Not an assertion: print the panes (to write the pictures below). */
	for (size_t i = 0; i < FIX_STEPS; i++) {
		char *a = PANE(31, 8, view_stdio_draw(g, r, &fix_res[i].after, NULL,
		                                      i ? &fix_res[i == 3 ? 2 : i].events.v[0] : NULL, false));
		char *b = PANE(31, 9, view_cache_draw(g, r, &fix_res[i].after, NULL, NULL, false, NULL,
		                                      NULL));
		char *c = PANE(31, 8, view_disk_draw(g, r, &fix_res[i].after, NULL, NULL, false));
		printf("--- step %zu\n%s%s%s", i, a, b, c);
		free(a); free(b); free(c);
	}
}
END_TEST

START_TEST(test_dump)
{
	/* Not an assertion: print the screens for a person to look at. */
	static const int sz[][2] = { { 80, 24 }, { 100, 30 }, { 160, 45 } };

	for (size_t i = 0; i < 3; i++)
		for (long cur = -1; cur < 4; cur++) {
			char *t = screen(sz[i][0], sz[i][1], cur, getenv("VIEWS_ASCII") != NULL,
			                 VIEW_ANIM_NONE, NULL);
			printf("==== %dx%d step %ld\n%s", sz[i][0], sz[i][1], cur, t);
			free(t);
		}
}
END_TEST

START_TEST(test_stdio_pane)
{
	ck_picture(PANE(31, 8, view_stdio_draw(g, r, &fix_res[1].after, NULL,
	                                       &fix_res[1].events.v[0], false)),
	           "FILE* fd 3   fully buffered\n"
	           "size 4096   pending 904\n"
	           "[▒▒▒▒▒▒                       ]\n"
	           " 0                        4096\n"
	           "data \"AAAAAAAAAAAAAAAAAAAAAA\"…\n"
	           "last flush: write(3, 4096)\n"
	           "fd offset 4096\n"
	           "\n");
}
END_TEST

START_TEST(test_stdio_not_allocated)
{
	/* After fopen glibc has no buffer yet: size 0 is shown as such, not as an empty bar. */
	ck_picture(PANE(31, 4, view_stdio_draw(g, r, &fix_res[0].after, NULL, NULL, false)),
	           "FILE* fully buffered   size 0…\n"
	           "[not allocated yet            ]\n"
	           "stdio: no write()/read() yet\n"
	           "\n");
}
END_TEST

START_TEST(test_cache_pane)
{
	struct view_cache_geom gm;
	char line[256];

	ck_picture(PANE(31, 9, view_cache_draw(g, r, &fix_res[2].after, NULL, NULL, false, NULL, &gm)),
	           "file: 4.9 KiB = 2 pages\n"
	           "1 cell = 1 page (4 KiB)\n"
	           "\n"
	           "▓▓\n"
	           "\n"
	           "cached 2 dirty 2 writeback 0\n"
	           "▓ dirty ░ clean ≋ writeback\n"
	           "· absent\n"
	           "\n");
	ck_assert_int_eq(gm.y, 3);
	ck_assert_uint_eq(gm.n, 2);
	ck_assert_int_eq(view_cache_hit(&gm, 1, 3), 1);
	ck_assert_int_eq(view_cache_hit(&gm, 2, 3), -1);
	view_cache_cell_text(&fix_res[2].after, &gm, 1, line, sizeof line);
	ck_assert_str_eq(line, "cell 1: pages 1-1 [4 KiB, 8 KiB): dirty; cached 1, dirty 1, writeback 0");
}
END_TEST

/* mincore: a cached page whose dirtiness is unknown is not drawn as clean, and the pane says
 * why; the cell's details say "dirty ?", not 0. */
START_TEST(test_cache_dirty_unknown)
{
	struct snapshot s = fix_res[2].after;
	struct view_cache_geom gm;
	char line[256];

	s.cache.source = SNAP_SRC_MINCORE;
	s.cache.has_dirty = false;
	s.cache.dirty = 0;
	for (size_t i = 0; i < s.cache.n_cells; i++)
		s.cache.cells[i].dirty = 0;
	snprintf(s.cache.note, sizeof s.cache.note, "dirty pages: unknown (mincore)");
	ck_picture(PANE(31, 9, view_cache_draw(g, r, &s, NULL, NULL, false, NULL, &gm)),
	           "file: 4.9 KiB = 2 pages\n"
	           "1 cell = 1 page (4 KiB)\n"
	           "\n"
	           "▚▚\n"
	           "\n"
	           "cached 2 of 2 dirty ?\n"
	           "▚ cached, dirty ? · absent\n"
	           "dirty pages: unknown (mincore)\n"
	           "\n");
	view_cache_cell_text(&s, &gm, 1, line, sizeof line);
	ck_assert_str_eq(line, "cell 1: pages 1-1 [4 KiB, 8 KiB): cached, dirty unknown; cached 1, "
	                 "dirty ?, writeback 0");
	ck_assert_uint_eq(view_glyph(VG_RESIDENT, true), '%');
}
END_TEST

START_TEST(test_cache_merge)
{
	/* 300 one-page cells in 10 columns x 1 row: 30 pages per shown cell, dirty wins. */
	struct snapshot s = fix_res[3].after;
	struct view_cache_geom gm;
	char *t;

	s.cache.file_size = 300 * 4096;
	s.cache.pages = s.cache.n_cells = 300;
	s.cache.cached = 300;
	s.cache.dirty = 1;
	for (size_t i = 0; i < 300; i++)
		s.cache.cells[i] = (struct snap_cell){ 1, i == 299, 0 };
	t = PANE(10, 2, view_cache_draw(g, r, &s, NULL, NULL, false, NULL, &gm));
	ck_assert_uint_eq(gm.per, 30);
	ck_assert_uint_eq(gm.n, 10);
	ck_picture(t, "░░░░░░░░░▓\ncached…\n");
}
END_TEST

START_TEST(test_cache_every_cell)
{
	/* 257 dirty pages in the 100x30 layout's pane (29x10): every shown cell has its own
	 * place, none under the counts line, and together they cover every page. */
	struct snapshot s = fix_res[3].after;
	struct view_cache_geom gm;
	size_t dirty = 0;
	char *t;

	s.cache.file_size = 257 * 4096 - 4093;
	s.cache.pages = s.cache.n_cells = 257;
	s.cache.pages_per_cell = 1;
	s.cache.cached = s.cache.dirty = 257;
	for (size_t i = 0; i < 257; i++)
		s.cache.cells[i] = (struct snap_cell){ 1, 1, 0 };
	t = PANE(29, 10, view_cache_draw(g, r, &s, NULL, NULL, false, NULL, &gm));
	for (const char *p = t; (p = strstr(p, "▓")) != NULL; p++)
		dirty++;
	dirty--;                                   /* the legend's */
	ck_assert_uint_eq(dirty, gm.n);
	ck_assert_uint_ge(gm.n * gm.per, 257);
	ck_assert_int_le(gm.y + gm.rows, 10 - 3);  /* counts and a 2-row legend below */
	ck_assert_ptr_nonnull(strstr(t, "\ncached 257 dirty 257 wb 0\n"));
	free(t);
}
END_TEST

/* A snapshot of a file of pages pages, all cached and clean. */
static void
cache_file(struct snapshot *s, size_t pages)
{
	*s = fix_res[3].after;
	s->cache.file_size = pages * 4096;
	s->cache.pages = s->cache.n_cells = pages;
	s->cache.pages_per_cell = 1;
	s->cache.cached = pages;
	s->cache.dirty = 0;
	s->cache.note[0] = '\0';
	for (size_t i = 0; i < pages; i++)
		s->cache.cells[i] = (struct snap_cell){ 1, 0, 0 };
}

START_TEST(test_cache_scale_stable)
{
	/* One scale for the run: a growing file, a note that comes and goes, the same pages
	 * per cell (it used to go 5, 6, 5). */
	static struct snapshot s;
	struct view_cache_look look = { .scale_pages = 300 };
	struct view_cache_geom gm;
	size_t per = 0;
	const char *notes[] = { NULL, "16 pages dirtied by 1 byte: a large folio", NULL };
	size_t sizes[] = { 100, 300, 250 };
	char *t;

	for (int i = 0; i < 3; i++) {
		cache_file(&s, sizes[i]);
		if (i == 1)
			snprintf(s.cache.note, sizeof s.cache.note, "dirty state unknown");
		t = PANE(29, 10, view_cache_draw(g, r, &s, NULL, notes[i], false, &look, &gm));
		free(t);
		if (i == 0)
			per = gm.per;
		ck_assert_uint_eq(gm.per, per);
		ck_assert_uint_le(gm.n, (size_t)gm.cols * (size_t)gm.rows);
	}
	ck_assert_uint_gt(per, 1);
}
END_TEST

/* A read's step on cache_file(pages) snapshots: pages [c0, c1) cached before, [0, a1) after
 * (the rest absent), one pread of n bytes at off; its origins as lesson_origins makes them. */
static void
read_step(struct step_result *sr, size_t pages, size_t c0, size_t c1, size_t a1, int64_t off,
          int64_t n)
{
	struct event e = { .fd = 3, .bytes = (uint64_t)n, .offset = off, .length = -1,
	                   .result = n };

	memset(sr, 0, sizeof *sr);
	cache_file(&sr->before, pages);
	cache_file(&sr->after, pages);
	sr->before.cache.cached = c1 - c0;
	sr->after.cache.cached = a1;
	for (size_t i = 0; i < pages; i++) {
		sr->before.cache.cells[i].cached = i >= c0 && i < c1;
		sr->after.cache.cells[i].cached = i < a1;
	}
	snprintf(e.call, sizeof e.call, "pread64");
	ck_assert_int_eq(event_list_add(&sr->events, &e), 0);
	lesson_origins(NULL, 0, sr);
	ck_assert(sr->origins.valid);
}

START_TEST(test_cache_big_and_asked)
{
	/* Projector mode: cells 2 columns wide (and 2 rows where 4 rows fit); a click finds
	 * the cell under it. A read of page 1 with page 0 cached and 2-3 read ahead: page 1
	 * underlined (asked for), 2-3 bold (read ahead), page 0 dim (cached before it). */
	static struct step_result sr;
	struct view_cache_look look = { .big = true };
	struct view_cache_geom gm;
	struct grid *g = grid_new(40, 20);
	char *t;

	read_step(&sr, 8, 0, 1, 4, 4096, 4096);
	look.before = &sr.before;
	look.origins = &sr.origins;
	view_cache_draw(g, (struct grid_rect){ 0, 0, 40, 20 }, &sr.after, NULL, NULL, false, &look,
	                &gm);
	ck_assert_int_eq(gm.cw, 2);
	ck_assert_int_eq(gm.rh, 2);
	ck_assert_uint_eq(gm.per, 1);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "\n░░░░░░░░········\n░░░░░░░░········\n"));
	ck_assert_ptr_nonnull(strstr(t, "\n░ 1 asked for ░ 2 read ahead\n░ 1 cached before\n"));
	free(t);
	/* Page 1 asked for: its cell underlined on its bottom row; page 0 and 2 not. */
	ck_assert(grid_at(g, gm.x + 2, gm.y + 1)->attr & GRID_A_UNDERLINE);
	ck_assert(grid_at(g, gm.x + 3, gm.y + 1)->attr & GRID_A_UNDERLINE);
	ck_assert(!(grid_at(g, gm.x, gm.y + 1)->attr & GRID_A_UNDERLINE));
	ck_assert(!(grid_at(g, gm.x + 4, gm.y + 1)->attr & GRID_A_UNDERLINE));
	/* Read ahead: bold, not underlined; cached before: dim; absent: as ever. */
	ck_assert(grid_at(g, gm.x + 4, gm.y)->attr & GRID_A_BOLD);
	ck_assert(grid_at(g, gm.x + 7, gm.y + 1)->attr & GRID_A_BOLD);
	ck_assert_int_eq(grid_at(g, gm.x + 4, gm.y)->style, GS_CLEAN);
	ck_assert_int_eq(grid_at(g, gm.x, gm.y)->style, GS_DIM);
	ck_assert(!(grid_at(g, gm.x, gm.y)->attr & (GRID_A_BOLD | GRID_A_UNDERLINE)));
	ck_assert(!(grid_at(g, gm.x + 8, gm.y)->attr & GRID_A_BOLD));
	ck_assert_int_eq(view_cache_hit(&gm, gm.x + 3, gm.y + 1), 1);
	ck_assert_int_eq(view_cache_hit(&gm, gm.x + 15, gm.y), 7);
	ck_assert_int_eq(view_cache_hit(&gm, gm.x + 16, gm.y), -1);
	grid_free(g);
	event_list_clear(&sr.events);
}
END_TEST

/* The 76x3 cache pane of sr's after, in projector mode at the scale of 256 pages, marked by
 * where its pages came from (or not); its text (free it). */
static char *
zoom_text(struct grid *g, const struct step_result *sr, bool marked, struct view_cache_geom *gm)
{
	struct view_cache_look look = { .big = true, .scale_pages = 256 };

	if (marked) {
		look.before = &sr->before;
		look.origins = &sr->origins;
	}
	grid_clear(g);
	view_cache_draw(g, (struct grid_rect){ 0, 0, 76, 3 }, &sr->after, NULL, NULL, false, &look,
	                gm);
	return grid_text(g);
}

START_TEST(test_cache_zoom)
{
	/* 13.5 on a projector seen from the back row: 256 pages in one row of 2-column cells
	 * merge 7 pages a cell, so a read of one page and a read that brought in four looked
	 * alike. Where the step acts, the pane shows one page a cell: one lit cell, then four. */
	static struct step_result one, four;
	struct view_cache_geom gm;
	struct grid *g = grid_new(76, 3);
	char *t1, *t4, *whole;

	read_step(&one, 256, 0, 0, 1, 0, 4096);
	read_step(&four, 256, 0, 0, 4, 0, 4096);
	t1 = zoom_text(g, &one, true, &gm);
	t4 = zoom_text(g, &four, true, &gm);
	ck_assert_ptr_nonnull(strstr(t1, "░░····"));
	ck_assert_ptr_null(strstr(t1, "░░░"));
	ck_assert_ptr_nonnull(strstr(t4, "░░░░░░░░····"));
	ck_assert_ptr_nonnull(strstr(t1, "pages 0-37 shown"));
	ck_assert_ptr_nonnull(strstr(t4, "1 asked for ░ 3 read ahead"));
	/* Without a read to show, the whole file, as many pages a cell as it takes. */
	whole = zoom_text(g, &four, false, &gm);
	ck_assert_ptr_nonnull(strstr(whole, "cell="));
	ck_assert_ptr_null(strstr(whole, "░░░░░░░░····"));
	ck_assert_uint_gt(gm.per, 1);
	free(t1);
	free(t4);
	free(whole);
	grid_free(g);
	event_list_clear(&one.events);
	event_list_clear(&four.events);
}
END_TEST

START_TEST(test_screen_projector)
{
	/* 160 columns: projector cells without asking; --big asks for them at 100. */
	struct grid *g = grid_new(160, 45);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS,
	                        .cur = 2, .initial = &fix_initial, .fs = "ext4", .speed = 1,
	                        .focus = VIEW_PANE_NONE };
	struct view_layout lay;

	view_screen_draw(g, &f, &lay);
	ck_assert_int_eq(lay.cache.cw, 2);
	grid_resize(g, 100, 30);
	view_screen_draw(g, &f, &lay);
	ck_assert_int_eq(lay.cache.cw, 1);
	f.big = true;
	view_screen_draw(g, &f, &lay);
	ck_assert_int_eq(lay.cache.cw, 2);
	grid_free(g);
}
END_TEST

START_TEST(test_cache_notes)
{
	/* Without cachestat only residency is known: say so, never show a guessed dirty count. */
	struct snapshot s = fix_res[2].after;
	char *t;

	s.cache.source = SNAP_SRC_MINCORE;
	s.cache.has_dirty = false;
	snprintf(s.cache.note, sizeof s.cache.note, "dirty state unknown (no cachestat)");
	t = PANE(40, 9, view_cache_draw(g, r, &s, NULL, "16 pages dirtied: a large folio", false,
	                                NULL, NULL));
	ck_assert_ptr_nonnull(strstr(t, "cached 2 of 2 dirty ?"));
	ck_assert_ptr_nonnull(strstr(t, "dirty state unknown (no cachestat)\n"));
	ck_assert_ptr_nonnull(strstr(t, "16 pages dirtied: a large folio\n"));
	free(t);
}
END_TEST

START_TEST(test_disk_pane)
{
	char title[64];

	ck_picture(PANE(31, 8, view_disk_draw(g, r, &fix_res[3].after, NULL, NULL, false)),
	           "[0 B, 8 KiB) allocated\n"
	           "\n"
	           "██\n"
	           "allocated 8 KiB  delalloc 0 B\n"
	           "█ on disk ┄ no block yet\n"
	           "▞ stale ▁ unwritten · hole\n"
	           "\n"
	           "\n");
	ck_assert_str_eq(view_disk_title(&fix_res[3].after, "ext4", title, sizeof title),
	                 "disk (ext4, /dev/vda)");
	/* Short (80x24): the strip's glyphs are explained on the totals line. */
	ck_picture(PANE(60, 2, view_disk_draw(g, r, &fix_res[3].after, NULL, NULL, false)),
	           "██\n"
	           "allocated 8 KiB  delalloc 0 B  █ on disk ┄ no block yet\n");
}
END_TEST

/* btrfs keeps a small file inline: no block (allocated 0), its bytes named as inline. */
START_TEST(test_disk_inline)
{
	struct snapshot s = fix_res[3].after;

	snprintf(s.disk.fs, sizeof s.disk.fs, "btrfs");
	s.cache.file_size = 100;
	s.cache.pages = s.cache.n_cells = 1;
	s.disk.n_extents = 1;
	s.disk.extents[0] = (struct snap_extent){ 0, 0, 4096, SNAP_EXT_INLINE | SNAP_EXT_LAST };
	s.disk.allocated_bytes = 0;
	s.disk.inline_bytes = 100;
	snprintf(s.disk.note, sizeof s.disk.note, "btrfs keeps this file's 100 bytes inline");
	ck_picture(PANE(44, 8, view_disk_draw(g, r, &s, NULL, NULL, false)),
	           "[0 B, 4 KiB) inline\n"
	           "\n"
	           "▣\n"
	           "allocated 0 B  delalloc 0 B  inline 100 B\n"
	           "▣ inline █ on disk ┄ no block yet ▞ stale\n"
	           "▁ unwritten · hole\n"
	           "btrfs keeps this file's 100 bytes inline\n"
	           "\n");
	ck_assert_int_eq(snapshot_cell_disk(&s.cache, &s.disk, 0), SNAP_DISK_INLINE);
}
END_TEST

START_TEST(test_disk_tmpfs)
{
	struct snapshot s = fix_res[2].after;

	s.disk.source = SNAP_SRC_NONE;
	s.disk.n_extents = 0;
	snprintf(s.disk.fs, sizeof s.disk.fs, "tmpfs");
	snprintf(s.disk.note, sizeof s.disk.note, "no disk behind this filesystem (tmpfs)");
	ck_picture(PANE(31, 4, view_disk_draw(g, r, &s, NULL, NULL, false)),
	           "no disk behind this filesystem\n(tmpfs)\n\n\n");
}
END_TEST

START_TEST(test_disk_stale)
{
	/* Allocated blocks under dirty pages: the disk copy is stale, not "on disk". */
	struct snapshot s = fix_res[3].after;
	char *t;

	s.cache.cells[1].dirty = 1;
	s.cache.dirty = 1;
	t = PANE(31, 1, view_disk_draw(g, r, &s, NULL, NULL, true));
	ck_picture(t, "@!\n");
}
END_TEST

START_TEST(test_disk_device)
{
	/* With a crash lab: what reached its device in the step, from the step's before. */
	struct snapshot a = fix_res[3].before, b = fix_res[3].after;
	char *t;

	a.device = (struct snap_device){ .source = SNAP_SRC_BLOCKSTAT, .name = "loop7", .writes = 1,
	                                 .write_bytes = 4096, .flushes = 1 };
	b.device = a.device;
	b.device.writes = 5;
	b.device.write_bytes = 4096 + 45056;
	b.device.flushes = 3;
	t = PANE(60, 8, view_disk_draw(g, r, &b, NULL, &a, false));
	ck_assert_msg(strstr(t, "loop7: +4 writes (44 KiB), +2 flushes this step") != NULL, "%s", t);
	free(t);
	/* Without a lab (or the step's before): no line. */
	t = PANE(60, 8, view_disk_draw(g, r, &b, NULL, NULL, false));
	ck_assert_ptr_null(strstr(t, "this step"));
	free(t);
}
END_TEST

START_TEST(test_crash_popup)
{
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS,
	                        .cur = FIX_STEPS - 1, .initial = &fix_initial, .crash = true };
	struct crash_view v = { .file = "scratch", .after_s = 2.5 };
	struct step_result *sr = &fix_res[FIX_STEPS - 1];
	char buf[4096];

	/* A replayed step without a view: only the present can be crashed. */
	f.replay = true;
	ck_assert_ptr_nonnull(view_crash_text(&f, buf, sizeof buf));
	ck_assert_msg(strstr(buf, "a crash shows the present only") != NULL, "%s", buf);
	/* A view: both halves, what reached the device, what recovery did; the file's bytes
	 * and the kernel's words escaped. */
	v.process.observed = true;
	v.process.file = (struct crash_file){ .exists = true, .size = 5000, .head_len = 4 };
	memcpy(v.process.file.head, "ab\x1b[", 4);
	v.power.observed = true;
	v.power.tries = 1;
	v.power.recovery_known = true;
	v.power.n_recovery = 2;
	snprintf(v.power.recovery[0], CRASH_KMSG_LEN, "EXT4-fs (loop8): mounted filesystem");
	snprintf(v.power.recovery[1], CRASH_KMSG_LEN, "EXT4-fs (loop8): recovery complete\x1b]2;x");
	sr->crash = &v;
	f.replay = false;
	ck_assert_ptr_nonnull(view_crash_text(&f, buf, sizeof buf));
	sr->crash = NULL;
	ck_assert_msg(strstr(buf, ", 2.5 s later") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "scratch: 5000 B \"ab.[...\"") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "scratch: no file") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "no write had reached the device") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "kernel: EXT4-fs (loop8): recovery complete") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "mounted filesystem") == NULL, "%s", buf);
	ck_assert_ptr_null(strchr(buf, 0x1b));
	/* Not asked: nothing. */
	f.crash = false;
	ck_assert_ptr_null(view_crash_text(&f, buf, sizeof buf));
}
END_TEST

START_TEST(test_log_lines)
{
	char buf[256];

	view_log_line(&fix_res[1].events.v[0], 1, SCN_OP_FWRITE, buf, sizeof buf);
	ck_assert_str_eq(buf, "#2  fwrite    write(3, 4096) = 4096                  [by stdio]     3.1 µs*");
	/* A call longer than the column moves the origin and time columns of every line, so
	 * that they stay aligned. */
	ck_picture(PANE(84, 4, view_log_draw(g, r, fix_res, 3, false)),
	           "#1  fopen     openat(scratch, O_WRONLY|O_CREAT|O_TRUNC) = 3 [your call]   12.0 µs*\n"
	           "#2  fwrite    write(3, 4096) = 4096                         [by stdio]     3.1 µs*\n"
	           "#3  fflush    write(3, 904) = 904                           [by stdio]     1.2 µs*\n"
	           "\n");
	/* Narrower: the long call is cut in its arguments (its result kept), the times stay in
	 * their column inside the pane. */
	ck_picture(PANE(66, 4, view_log_draw(g, r, fix_res, 3, false)),
	           "#1  fopen     openat(scratch, O_WRONLY… = 3 [your call]   12.0 µs*\n"
	           "#2  fwrite    write(3, 4096) = 4096         [by stdio]     3.1 µs*\n"
	           "#3  fflush    write(3, 904) = 904           [by stdio]     1.2 µs*\n"
	           "\n");
	/* A call whose arguments decode its result is cut at its end instead. */
	{
		struct step_result sr = fix_res[0];
		struct event e = fix_res[0].events.v[0];
		snprintf(e.call, sizeof e.call, "fcntl");
		e.fd = 3;
		e.result = 1085441;
		snprintf(e.detail, sizeof e.detail, "F_GETFL -> O_WRONLY|O_SYNC|O_LARGEFILE");
		sr.events.v = &e;
		sr.events.n = 1;
		ck_picture(PANE(66, 1, view_log_draw(g, r, &sr, 1, false)),
		           "#1  fopen     fcntl(3, F_GETFL -> O_WRONLY… [your call]   12.0 µs*\n");
	}
	/* Only the newest lines when the pane is short. */
	ck_picture(PANE(30, 1, view_log_draw(g, r, fix_res, 4, false)),
	           "#4  fsync     fsync(3) = 0…\n");
}
END_TEST

START_TEST(test_log_errors_red)
{
	struct grid *g = grid_new(80, 1);
	struct event *e = &fix_res[3].events.v[0];

	e->result = -1;
	e->err = EIO;
	view_log_draw(g, (struct grid_rect){ 0, 0, 80, 1 }, fix_res, 4, false);
	ck_assert_int_eq(grid_at(g, 0, 0)->style, GS_ERROR);
	grid_free(g);
}
END_TEST

START_TEST(test_log_procio)
{
	/* In the fallback only counts are known: the log says so instead of inventing calls. */
	struct step_result sr = fix_res[1];
	char buf[200];

	memset(&sr.events, 0, sizeof sr.events);
	sr.events.source = EV_SRC_PROCIO;
	sr.events.n_write = 1;
	sr.events.bytes_written = 4096;
	ck_assert_str_eq(view_log_counts(&sr, buf, sizeof buf),
	                 "#2  fwrite    1 call, 4096 bytes (counts only)");
	ck_picture(PANE(60, 1, view_log_draw(g, r, &sr, 1, false)),
	           "#2  fwrite    1 call, 4096 bytes (counts only)\n");
}
END_TEST

START_TEST(test_glyphs_distinct)
{
	/* Without colour every state must still be told apart by its glyph. */
	static const enum view_glyph cache[] = { VG_ABSENT, VG_CLEAN, VG_DIRTY, VG_WRITEBACK,
	                                         VG_RESIDENT };
	static const enum view_glyph disk[] = { VG_ABSENT, VG_ONDISK, VG_DELALLOC, VG_UNWRITTEN,
	                                        VG_STALE, VG_UNKNOWN, VG_INLINE };

	for (int a = 0; a < 2; a++) {
		for (size_t i = 0; i < 5; i++)
			for (size_t j = i + 1; j < 5; j++)
				ck_assert_uint_ne(view_glyph(cache[i], a), view_glyph(cache[j], a));
		for (size_t i = 0; i < 7; i++)
			for (size_t j = i + 1; j < 7; j++)
				ck_assert_uint_ne(view_glyph(disk[i], a), view_glyph(disk[j], a));
		for (int v = 0; v < VG__COUNT; v++)
			if (a)
				ck_assert_uint_lt(view_glyph((enum view_glyph)v, true), 0x80);
	}
	/* A reader who cannot tell red from green tells clean, dirty and writeback apart: no two
	 * of their colours are both red, green or yellow (the colours that reader confuses). */
	{
		static const int st[] = { GS_CLEAN, GS_DIRTY, GS_WRITEBACK };
		for (size_t i = 0; i < 3; i++)
			for (size_t j = i + 1; j < 3; j++) {
				int a = grid_styles[st[i]].fg, b = grid_styles[st[j]].fg;
				ck_assert_msg(!(a >= 1 && a <= 3 && b >= 1 && b <= 3),
				              "styles %d and %d: colours %d and %d", st[i], st[j], a, b);
			}
	}
	ck_assert_uint_eq(view_glyph(VG_ABSENT, false), 0x00b7);    /* · */
	ck_assert_uint_eq(view_glyph(VG_CLEAN, false), 0x2591);     /* ░ */
	ck_assert_uint_eq(view_glyph(VG_DIRTY, false), 0x2593);     /* ▓ */
	ck_assert_uint_eq(view_glyph(VG_WRITEBACK, false), 0x224b); /* ≋ */
	ck_assert_uint_eq(view_glyph(VG_ONDISK, false), 0x2588);    /* █ */
}
END_TEST

START_TEST(test_screen_ascii)
{
	/* --ascii: not one byte outside ASCII on the whole screen. */
	char *t = screen(100, 30, 2, true, VIEW_ANIM_NONE, NULL);

	for (const unsigned char *p = (const unsigned char *)t; *p != '\0'; p++)
		ck_assert_uint_lt(*p, 0x80);
	ck_assert_ptr_nonnull(strstr(t, "| ##"));
	free(t);
}
END_TEST

START_TEST(test_screen_layouts)
{
	static const char *titles[] = { "stdio buffer (user space)", "page cache (kernel)",
	                                "disk (ext4, /dev/vda)", "what happened", "syscalls",
	                                "expected" };
	static const int sz[][2] = { { 80, 24 }, { 99, 30 }, { 100, 30 }, { 160, 45 } };
	struct view_layout lay;

	for (size_t i = 0; i < 4; i++) {
		char *t = screen(sz[i][0], sz[i][1], 1, false, VIEW_ANIM_NONE, &lay);
		char *row1 = strchr(t, '\n') + 1;
		ck_assert(!lay.too_small);
		ck_assert_int_eq(lay.wide, sz[i][0] >= 100);
		for (size_t k = 0; k < 6; k++)
			ck_assert_msg(strstr(t, titles[k]) != NULL, "%dx%d: no %s", sz[i][0], sz[i][1],
			              titles[k]);
		/* Wide: the three titles share the first row of panes. */
		if (lay.wide)
			ck_assert(strstr(row1, "disk (ext4") != NULL && strstr(row1, "disk (ext4") < strchr(row1, '\n'));
		ck_assert_ptr_nonnull(strstr(t, "step 2/4"));
		ck_assert_ptr_nonnull(strstr(t, "write(3, 4096) = 4096"));
		ck_assert_ptr_nonnull(strstr(t, "cache.dirty_pages = 2 (got 1)"));
		/* Even at 80x24 the held ones are in full: a short step's log leaves the room. */
		ck_assert_ptr_nonnull(strstr(t, "✓ stdio.pending = 904"));
		/* Every pane lies inside the screen. */
		for (int p = 0; p < VIEW_PANE__COUNT; p++) {
			ck_assert_int_le(lay.pane[p].x + lay.pane[p].w, sz[i][0]);
			ck_assert_int_le(lay.pane[p].y + lay.pane[p].h, sz[i][1] - 1);
		}
		free(t);
	}
	{
		char *t = screen(79, 24, 1, false, VIEW_ANIM_NONE, &lay);
		ck_assert(lay.too_small);
		ck_assert_ptr_nonnull(strstr(t, "terminal too small (need 80x24, have 79x24)"));
		free(t);
		t = screen(80, 23, 1, false, VIEW_ANIM_NONE, &lay);
		ck_assert(lay.too_small);
		free(t);
	}
}
END_TEST

START_TEST(test_screen_replay_help)
{
	struct grid *g = grid_new(100, 30);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS,
	                        .cur = 1, .initial = &fix_initial, .speed = 0.5, .replay = true,
	                        .help = true, .focus = VIEW_PANE_NONE };
	char *t;

	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "┌ help"));
	ck_assert_ptr_nonnull(strstr(t, "q F10"));
	free(t);
	f.help = false;
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "REPLAY"));
	ck_assert_ptr_nonnull(strstr(t, "speed 0.5×"));
	ck_assert_ptr_nonnull(strstr(t, "replay of recorded steps"));
	/* Replay of step 2 shows its recorded state, not the newest one. */
	ck_assert_ptr_nonnull(strstr(t, "pending 904"));
	ck_assert_ptr_null(strstr(t, "#3 "));
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(test_screen_live)
{
	/* A long step running (wait): title, narration and expectations are the running
	 * step's, not the previous step's left on the screen. */
	struct grid *g = grid_new(100, 30);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = 2, .cur = 1,
	                        .initial = &fix_initial, .live = &fix_res[2].after, .speed = 1,
	                        .focus = VIEW_PANE_NONE };
	char *t;

	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "step 3/4"));
	ck_assert_ptr_nonnull(strstr(t, "step 3: fflush(fp) … (running)"));
	ck_assert_ptr_null(strstr(t, "cache.dirty_pages = 2"));   /* step 2's expectation */
	free(t);
	/* A sweep running: no snapshot to show, the same words. */
	f.live = NULL;
	f.running = true;
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "step 3/4"));
	ck_assert_ptr_nonnull(strstr(t, "step 3: fflush(fp) … (running)"));
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(test_screen_sweep_scroll)
{
	/* A sweep longer than its box: the lines from sweep_top, the border says where; past
	 * the end it is clamped so that the box stays full. */
	static char text[40][16];
	const char *lines[40];
	struct grid *g = grid_new(100, 30);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = 1, .cur = 0,
	                        .initial = &fix_initial, .speed = 1, .focus = VIEW_PANE_NONE,
	                        .sweep = lines, .n_sweep = 40, .sweep_top = 10 };
	struct view_layout lay;
	char *t;

	for (int i = 0; i < 40; i++) {
		snprintf(text[i], sizeof text[i], "line %02d", i + 1);
		lines[i] = text[i];
	}
	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_int_eq(lay.sweep_rows, 16);
	ck_assert_uint_eq(lay.sweep_top, 10);
	ck_assert_ptr_nonnull(strstr(t, "│ line 11 "));
	ck_assert_ptr_null(strstr(t, "line 10"));
	ck_assert_ptr_nonnull(strstr(t, " lines 11-26 of 40  ↑↓ PgUp PgDn ─┘"));
	free(t);
	f.sweep_top = 1000;
	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_uint_eq(lay.sweep_top, 24);
	ck_assert_ptr_nonnull(strstr(t, "│ line 40 "));
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(test_screen_new_stream)
{
	/* A stream opened after another one's write: its pane does not show that write as its
	 * "last flush". */
	struct step_result res[2] = { fix_res[1], fix_res[0] };
	struct scn_step st = { .op = SCN_OP_FOPEN };
	struct grid *g = grid_new(100, 30);
	struct view_frame f = { .scn = &fix_scn, .results = res, .n_results = 2, .cur = 1,
	                        .initial = &fix_initial, .speed = 1, .focus = VIEW_PANE_NONE };
	char *t;

	res[1].index = 1;
	res[1].step = &st;
	res[1].before.stdio.open = false;
	res[1].events.n = 0;
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_null(strstr(t, "last flush"));
	ck_assert_ptr_nonnull(strstr(t, "│ stdio: no write()/read() yet "));
	free(t);
	/* The same stream: its earlier write is its last flush. */
	res[1].before.stdio.open = true;
	res[1].after = res[0].after;
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "last flush: write(3, 4096)"));
	free(t);
	grid_free(g);
}
END_TEST

/* The second of the two results res, as the lesson would keep it (its changes worked out),
 * on a w x h screen, into a heap string. */
static char *
screen_second(struct step_result res[2], int w, int h)
{
	struct grid *g = grid_new(w, h);
	struct view_frame f = { .scn = &fix_scn, .results = res, .n_results = 2, .cur = 1,
	                        .initial = &fix_initial, .speed = 1, .focus = VIEW_PANE_NONE };
	char *t;

	ck_assert_ptr_nonnull(g);
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	grid_free(g);
	return t;
}

START_TEST(test_narration_writeback_between)
{
	/* A page cleaned between two steps (no call of ours): the narration says so first. */
	struct step_result res[2] = { fix_res[2], fix_res[3] };
	char *t;

	res[1].before.cache.dirty = 1;             /* step 3 left 2 */
	lesson_diff(&res[0].after, &res[1]);
	t = screen_second(res, 100, 30);
	ck_assert_ptr_nonnull(strstr(t, "│ Before this step the kernel wrote 1 dirty page back on its own"));
	free(t);
	res[1].before.cache.dirty = 2;
	lesson_diff(&res[0].after, &res[1]);
	t = screen_second(res, 100, 30);
	ck_assert_ptr_null(strstr(t, "on its own"));
	ck_assert_ptr_null(strstr(t, "dropped"));
	free(t);
	/* Evicted between the steps. */
	res[1].before.cache.cached = 1;
	lesson_diff(&res[0].after, &res[1]);
	t = screen_second(res, 100, 30);
	ck_assert_ptr_nonnull(strstr(t, "│ Before this step the kernel dropped 1 page of this file from the cache"));
	free(t);
}
END_TEST

START_TEST(test_details_panes)
{
	/* Tab on a pane: its shown state in full, in a popup drawn into the grid. */
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS, .cur = 3,
	                        .initial = &fix_initial, .fs = "ext4", .speed = 1, .ascii = true,
	                        .focus = VIEW_PANE_DISK, .details = true, .detail_cell = -1 };
	struct text_buf tb = { 0 };
	char *t;

	t = PANE(80, 8, view_details_draw(g, &f, NULL));
	ck_picture(t, "\n\n"
	              "                   + details -------------------------------+\n"
	              "                   | ext4 on /dev/vda; extents from FIEMAP  |\n"
	              "                   | [0 B, 8 KiB): at device byte 123456789 |\n"
	              "                   +----------------------------------------+\n"
	              "\n\n");
	/* The stdio pane after fwrite: glibc's view of the FILE*, then the fd. */
	f.cur = 1;
	f.focus = VIEW_PANE_STDIO;
	ck_assert_str_eq(view_details_text(&f, NULL, &tb),
	                 "FILE*: open, fd 3, fully buffered\n"
	                 "__fbufsize 4096   __fpending 904   read ahead 0\n"
	                 "__fwriting yes   __freading no\n"
	                 "first bytes: 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 "
	                 "41 41 41 41\n"
	                 "fd 3: open, offset 4096, flags 0");
	/* No stream yet (or a closed one): said so, not a FILE* of fd -1 "unbuffered". */
	f.cur = -1;
	ck_assert_str_eq(view_details_text(&f, NULL, &tb),
	                 "no FILE* open\nno file descriptor open");
	f.cur = 1;
	/* The log: the step's whole narration, each expectation that did not hold in full (the
	 * expected pane may cut its reason), and its calls. */
	f.focus = VIEW_PANE_LOG;
	ck_assert_str_eq(view_details_text(&f, NULL, &tb),
	                 "5000 bytes: one write(4096) happened, 904 wait in the stdio buffer.\n"
	                 "FAILED: cache.dirty_pages = 2 (got 1)\n"
	                 "\nstep 2 (fwrite), seen by the tracer; op took 0 ns inside the worker, "
	                 "incl. tracing (two ptrace stops per system call)\n"
	                 "write(3, 4096) = 4096  [by stdio]\n");
	/* Before the first step the log's details are the intro. */
	f.cur = -1;
	ck_assert_str_eq(view_details_text(&f, NULL, &tb),
	                 "What does each call flush, and to where?\n\n"
	                 "no step has run yet: n runs the first");
	/* No focus, or details not asked for: nothing, and nothing drawn. */
	f.focus = VIEW_PANE_NONE;
	ck_assert_ptr_null(view_details_text(&f, NULL, &tb));
	f.focus = VIEW_PANE_STDIO;
	f.details = false;
	ck_assert_ptr_null(view_details_text(&f, NULL, &tb));
	t = PANE(80, 8, view_details_draw(g, &f, NULL));
	ck_picture(t, "\n\n\n\n\n\n\n\n");
	/* An intro of 10,000 characters is there whole (a fixed buffer of 4096 cut it silently). */
	char *intro = malloc(10001), *was = fix_scn.intro;
	ck_assert_ptr_nonnull(intro);
	memset(intro, 'i', 10000);
	intro[10000] = '\0';
	fix_scn.intro = intro;
	f.details = true;
	f.focus = VIEW_PANE_LOG;
	f.cur = -1;
	ck_assert_ptr_nonnull(strstr(view_details_text(&f, NULL, &tb), intro));
	ck_assert(!tb.cut);
	fix_scn.intro = was;
	free(intro);
	text_buf_free(&tb);
}
END_TEST

START_TEST(test_details_on_screen)
{
	/* The screen draws the details of the focused pane, or of a clicked cache cell. */
	struct grid *g = grid_new(100, 30);
	struct view_layout lay;
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS, .cur = 2,
	                        .initial = &fix_initial, .fs = "ext4", .speed = 1,
	                        .focus = VIEW_PANE_CACHE, .details = true, .detail_cell = -1 };
	char *t;

	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "source: cachestat(2)"));
	ck_assert_ptr_nonnull(strstr(t, "file 4.9 KiB, 2 pages; cached 2, dirty 2, writeback 0"));
	ck_assert_ptr_nonnull(strstr(t, "(click a cell for its own counts)"));
	free(t);
	f.detail_cell = 1;
	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "cell 1"));
	ck_assert_ptr_null(strstr(t, "source: cachestat(2)"));
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(test_folio_from_diff)
{
	/* The cache pane's large-folio remark is the one the diff made, drawn as it says. */
	struct step_result res[2] = { fix_res[0], fix_res[1] };
	struct snapshot_change *c = &res[1].changes.v[res[1].changes.n++];
	char *t;

	*c = (struct snapshot_change){ .kind = SNAPSHOT_CHANGE_LARGE_FOLIO, .count = 16 };
	snprintf(c->text, sizeof c->text, "16 pages dirtied by 1 byte: a large folio");
	t = screen_second(res, 160, 45);
	ck_assert_ptr_nonnull(strstr(t, "16 pages dirtied by 1 byte: a large folio"));
	/* Once: not a between-steps change, so the narration does not say it too. */
	ck_assert_ptr_null(strstr(strstr(t, "16 pages dirtied") + 1, "16 pages dirtied"));
	free(t);
}
END_TEST

START_TEST(test_hops)
{
	struct view_hop h[VIEW_MAX_HOPS];

	/* fwrite: 4096 bytes went from user space to the page cache, nothing further. */
	ck_assert_uint_eq(view_screen_hops(&fix_res[1], h, VIEW_MAX_HOPS), 1);
	ck_assert_int_eq(h[0].from, VIEW_PANE_STDIO);
	ck_assert_int_eq(h[0].to, VIEW_PANE_CACHE);
	ck_assert_str_eq(h[0].label, "4 KiB");
	/* fsync: two dirty pages left for the disk. */
	ck_assert_uint_eq(view_screen_hops(&fix_res[3], h, VIEW_MAX_HOPS), 1);
	ck_assert_int_eq(h[0].from, VIEW_PANE_CACHE);
	ck_assert_int_eq(h[0].to, VIEW_PANE_DISK);
	ck_assert_str_eq(h[0].label, "2 pages");
	/* fopen moved no data. */
	ck_assert_uint_eq(view_screen_hops(&fix_res[0], h, VIEW_MAX_HOPS), 0);
}
END_TEST

START_TEST(test_animation_frames)
{
	/* Travelling: the panes still show the state before, a packet is on its way. */
	struct grid *g = grid_new(100, 30);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS,
	                        .cur = 3, .initial = &fix_initial, .speed = 1,
	                        .anim = VIEW_ANIM_TRAVEL, .t = 0.5, .focus = VIEW_PANE_NONE };
	struct view_layout lay;
	char *t;
	int flashed = 0;

	view_screen_hops(&fix_res[3], &f.hop, 1);
	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "2 pages ▶"));
	ck_assert_ptr_nonnull(strstr(t, "▓▓"));          /* still dirty */
	ck_assert_ptr_null(strstr(t, "#4 "));            /* its calls land with it */
	free(t);
	/* Flash: the state after, the changed cells reversed. */
	f.anim = VIEW_ANIM_FLASH;
	view_screen_draw(g, &f, &lay);
	t = grid_text(g);
	ck_assert_ptr_nonnull(strstr(t, "░░"));
	ck_assert_ptr_nonnull(strstr(t, "#4  fsync"));
	free(t);
	for (int i = 0; i < 2; i++)
		flashed += (grid_at(g, lay.cache.x + i, lay.cache.y)->attr & GRID_A_REVERSE) != 0;
	ck_assert_int_eq(flashed, 2);
	/* Settled: no reverse left in the grid. */
	f.anim = VIEW_ANIM_NONE;
	view_screen_draw(g, &f, &lay);
	ck_assert_int_eq(grid_at(g, lay.cache.x, lay.cache.y)->attr & GRID_A_REVERSE, 0);
	grid_free(g);
}
END_TEST

/* Print s in w columns of a fresh grid (ascii: the --ascii ellipsis); return row 0. */
static char *
fit_row(const char *s, int w, bool ascii, enum grid_fit fit)
{
	struct grid *g = grid_new(w + 2, 1);
	char buf[256];

	ck_assert_ptr_nonnull(g);
	g->ascii = ascii;
	grid_print_fit(g, 0, 0, w, GS_NORMAL, fit, s);
	grid_row_text(g, 0, buf, sizeof buf);
	grid_free(g);
	return strdup(buf);
}

START_TEST(test_grid_fit)
{
	/* Never inside a number: "write(3, 100" would read as a smaller write. */
	ck_picture(fit_row("last stdio call: write(3, 1004)", 29, false, GRID_FIT_ELLIPSIS),
	           "last stdio call: write(3,…");
	ck_picture(fit_row("16 pages dirtied by 4096 bytes", 29, false, GRID_FIT_ELLIPSIS),
	           "16 pages dirtied by 4096…");
	ck_picture(fit_row("speed 1.5 MiB/s", 8, false, GRID_FIT_ELLIPSIS), "speed…");
	/* --ascii: three dots. */
	ck_picture(fit_row("I would have written you a shorter letter", 30, true,
	                   GRID_FIT_ELLIPSIS), "I would have written you a...");
	/* A long word (a path) is cut inside rather than lost. */
	ck_picture(fit_row("/tmp/iobufviz.abcdefgh/scratch", 12, false, GRID_FIT_ELLIPSIS),
	           "/tmp/iobufv…");
	/* What fits is untouched; a clip is a clip. */
	ck_picture(fit_row("cached 2", 8, false, GRID_FIT_ELLIPSIS), "cached 2");
	ck_picture(fit_row("abcdef", 3, false, GRID_FIT_CLIP), "abc");
	ck_assert_int_eq(grid_fit_keep("write(3, 1004)", 12), 8);
}
END_TEST

/* What the cut recorder found on one screen. */
struct cuts {
	const char *where;      /* scenario, step and size, for the message */
	int bad;
};

/* Whether keeping kept code points of full cuts a number: a digit on both sides of the cut,
 * or a digit, a point and a digit. */
static bool
cut_in_number(const char *full, int kept)
{
	uint32_t cp[4] = { 0, 0, 0, 0 };       /* kept-2, kept-1, kept, kept+1 */
	int i = 0, len;

	for (const char *p = full; *p != '\0' && i <= kept + 1; p += len, i++) {
		uint32_t ch = text_decode(p, &len);
		if (i >= kept - 2)
			cp[i - (kept - 2)] = ch;
	}
#define DIG(c) ((c) >= '0' && (c) <= '9')
	return (DIG(cp[1]) && DIG(cp[2])) ||
	       (DIG(cp[0]) && (cp[1] == '.' || cp[1] == ',') && DIG(cp[2])) ||
	       (DIG(cp[1]) && (cp[2] == '.' || cp[2] == ',') && DIG(cp[3]));
#undef DIG
}

/* Cut recorder: a cut without an ellipsis, or inside a number, is a failure. */
static void
cuts_record(const struct grid *g, const char *full, int kept, bool ellipsis, void *arg)
{
	struct cuts *c = arg;

	(void)g;
	if (!ellipsis || cut_in_number(full, kept)) {
		fprintf(stderr, "%s: \"%s\" cut after %d%s\n", c->where, full, kept,
		        ellipsis ? " inside a number" : " without an ellipsis");
		c->bad++;
	}
}

/* Render result cur (-1: before the first) of l at w x h, ascii or not, settled and with a
 * packet half way; count bad cuts into c and packets over a border or a count. */
static void
render_checked(struct lesson *l, const struct scenario *sc, long cur, int w, int h, bool ascii,
               struct cuts *c)
{
	struct grid *g = grid_new(w, h);
	const struct step_result *res = lesson_results(l);
	struct view_frame f = { .scn = sc, .results = res, .n_results = lesson_count(l), .cur = cur,
	                        .initial = lesson_initial(l), .fs = lesson_fs_name(l), .speed = 1,
	                        .ascii = ascii, .focus = VIEW_PANE_NONE };
	struct view_layout lay;
	const char *sweep[256];
	char *text = NULL;
	size_t len = 0;

	ck_assert_ptr_nonnull(g);
	g->on_cut = cuts_record;
	g->cut_arg = c;
	if (cur >= 0 && res[cur].sweep != NULL) {
		FILE *mf = open_memstream(&text, &len);
		ck_assert_ptr_nonnull(mf);
		sweep_print_compact(mf, res[cur].sweep, w - 4, ascii ? SWEEP_PRINT_ASCII : 0);
		fclose(mf);
		for (char *p = text; p != NULL && *p != '\0' && f.n_sweep < 256;) {
			char *nl = strchr(p, '\n');
			sweep[f.n_sweep++] = p;
			if (nl == NULL)
				break;
			*nl = '\0';
			p = nl + 1;
		}
		f.sweep = sweep;
	}
	view_screen_draw(g, &f, &lay);
	if (cur >= 0 && f.sweep == NULL && view_screen_hops(&res[cur], &f.hop, 1) == 1) {
		/* The packet (reverse and bold) never lands on a pane's border. */
		f.anim = VIEW_ANIM_TRAVEL;
		for (f.t = 0; f.t <= 1; f.t += 0.25) {
			view_screen_draw(g, &f, &lay);
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					if (grid_at(g, x, y)->attr != (GRID_A_REVERSE | GRID_A_BOLD))
						continue;
					for (int p = 0; p < 3; p++) {
						struct grid_rect r = lay.pane[p];
						bool in = x >= r.x && x < r.x + r.w && y >= r.y &&
						          y < r.y + r.h;
						if (in && (x == r.x || x == r.x + r.w - 1 || y == r.y ||
						           (lay.wide && y == r.y + r.h - 1))) {
							fprintf(stderr, "%s: packet on a border at %d,%d\n",
							        c->where, x, y);
							c->bad++;
						}
					}
				}
		}
	}
	grid_free(g);
	free(text);
}

/*
 * Words the panes print that need no explaining: plain English, and the units. Every other
 * word a pane prints must be (part of) a term of the glossary (scenario/glossary.c), which
 * the help, the man page and the web page explain.
 */
static const char *const plain_words[] = {
	"a", "and", "at", "B", "buffer", "bytes", "data", "empty", "extents", "fd", "file",
	"GiB", "here", "KiB", "MiB", "more", "no", "not", "nothing", "of", "on", "open",
	"pages", "read", "size", "TiB", "write", "yet", "s",
};

/* Whether word (n bytes) is a word of a glossary term or a plain word. */
static bool
word_known(const char *word, size_t n)
{
	const struct glossary_entry *e;

	for (size_t i = 0; i < sizeof plain_words / sizeof plain_words[0]; i++)
		if (strlen(plain_words[i]) == n && strncmp(plain_words[i], word, n) == 0)
			return true;
	for (size_t i = 0; (e = glossary_at(i)) != NULL; i++)
		for (const char *p = e->term; *p != '\0';) {
			/* A term's word without the marks around it: FILE*, [stdio], (stdio). */
			size_t len = strcspn(p, " ,"), skip = strspn(p, "[(");
			size_t core = len - skip;
			while (core > 0 && strchr("*])", p[skip + core - 1]) != NULL)
				core--;
			if (core == n && strncasecmp(p + skip, word, n) == 0)
				return true;
			p += len;
			p += strspn(p, " ,");
		}
	return false;
}

/* The words of text that are neither (a letter and letters, digits, '-', '_', '*' or '?'),
 * each once, appended to unknown (len bytes). */
static void
words_unknown(const char *text, char *unknown, size_t len)
{
	for (const char *p = text; *p != '\0';) {
		size_t n = 0;
		char w[64];

		if (!isalpha((unsigned char)*p)) {
			p++;
			continue;
		}
		while (isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_')
			n++;
		snprintf(w, sizeof w, " %.*s ", (int)(n < 60 ? n : 60), p);
		if (!word_known(p, n) && strstr(unknown, w) == NULL &&
		    strlen(unknown) + strlen(w) < len)
			strcat(unknown, w);
		p += n;
	}
}

/* The words the stdio, cache and disk panes print for s (its notes and the buffer's bytes
 * left out: the engine's prose and the program's data), at two sizes, into unknown. */
static void
words_check(const struct snapshot *s, char *unknown, size_t len)
{
	static const int sizes[][2] = { { 38, 8 }, { 76, 14 } };
	struct snapshot *c = malloc(sizeof *c);

	ck_assert_ptr_nonnull(c);
	*c = *s;
	c->cache.note[0] = c->disk.note[0] = '\0';
	c->stdio.head_len = 0;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int w = sizes[k][0], h = sizes[k][1];
		char *t[3] = {
			PANE(w, h, view_stdio_draw(g, r, c, NULL, NULL, false)),
			PANE(w, h, view_cache_draw(g, r, c, NULL, NULL, false, NULL, NULL)),
			PANE(w, h, view_disk_draw(g, r, c, NULL, NULL, false)),
		};
		for (int i = 0; i < 3; i++) {
			words_unknown(t[i], unknown, len);
			free(t[i]);
		}
	}
	free(c);
}

START_TEST(test_every_scenario_fits)
{
	/* Every bundled scenario, every step, at the classroom sizes: nothing cut silently,
	 * no number cut. Sweeps run with a tiny budget (the rows are scaled down). */
	static const int sizes[][2] = { { 80, 24 }, { 100, 30 }, { 160, 45 } };
	char dir[4096], path[4400], where[512], unknown[4096] = "";
	DIR *d = opendir(test_util_src_path("scenarios", dir, sizeof dir));
	struct dirent *de;
	int bad = 0, screens = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		struct scenario *sc = NULL;
		struct runner_opts o = { .trace = RUNNER_TRACE_AUTO, .budget = 0.01 };
		struct lesson *l;
		char *err = NULL;
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ck_assert_msg(load_scenario(path, &sc, &err) == 0, "%s: %s", path, err ? err : "?");
		l = lesson_new(sc, &o, &err);
		ck_assert_msg(l != NULL, "%s: %s", path, err ? err : "?");
		for (long cur = -1;; cur++) {
			for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
				for (int ascii = 0; ascii < 2; ascii++) {
					struct cuts c = { where, 0 };
					snprintf(where, sizeof where, "%s step %ld at %dx%d%s", de->d_name,
					         cur + 1, sizes[k][0], sizes[k][1], ascii ? " ascii" : "");
					render_checked(l, sc, cur, sizes[k][0], sizes[k][1], ascii, &c);
					bad += c.bad;
					screens++;
				}
			/* Every word the panes print is explained (or plain English). */
			words_check(cur < 0 ? lesson_initial(l) : &lesson_results(l)[cur].after,
			            unknown, sizeof unknown);
			if (lesson_step(l) != 1)
				break;
		}
		lesson_free(l);
		load_scenario_free(sc);
	}
	closedir(d);
	ck_assert_int_gt(screens, 100);
	ck_assert_msg(bad == 0, "%d texts cut without an ellipsis or inside a number", bad);
	ck_assert_msg(unknown[0] == '\0', "words the panes print that the glossary does not "
	              "explain:%s", unknown);
}
END_TEST

/* s with roff's escapes undone (\- \\ \fB \fR) and every run of white space one space, into a
 * new string. */
static char *
man_plain(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	ck_assert_ptr_nonnull(out);
	for (; *s != '\0'; s++) {
		if (*s == '\\' && (s[1] == '-' || s[1] == '\\')) {
			*o++ = *++s;
		} else if (*s == '\\' && s[1] == 'f' && s[2] != '\0') {
			s += 2;
		} else if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

/* The man page's GLOSSARY has every term of the table with its meaning, word for word. */
START_TEST(test_glossary_in_man)
{
	char path[4096], *text = NULL, *sec, *end, *plain;
	size_t n = 0;
	FILE *f = fopen(test_util_src_path("doc/iobufviz.1", path, sizeof path), "r");
	const struct glossary_entry *e;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(getdelim(&text, &n, '\0', f) > 0, 1);
	fclose(f);
	sec = strstr(text, "\n.SH GLOSSARY\n");
	ck_assert_msg(sec != NULL, "doc/iobufviz.1 has no GLOSSARY section");
	end = strstr(sec + 1, "\n.SH ");
	if (end != NULL)
		*end = '\0';
	plain = man_plain(sec);
	for (size_t i = 0; (e = glossary_at(i)) != NULL; i++) {
		char *term = man_plain(e->term), *meaning = man_plain(e->meaning);
		ck_assert_msg(strstr(plain, term) != NULL, "GLOSSARY lacks the term %s", e->term);
		ck_assert_msg(strstr(plain, meaning) != NULL, "GLOSSARY's %s is not: %s", e->term,
		              e->meaning);
		free(term);
		free(meaning);
	}
	free(plain);
	free(text);
}
END_TEST

/* The help's pages: the keys and every legend entry whole on the first, every term of the
 * glossary on one of the next, at 80x24 and on a projector. */
START_TEST(test_help_pages)
{
	static const int sizes[][2] = { { 80, 24 }, { 160, 45 } };
	const struct glossary_entry *e;

	for (size_t k = 0; k < 2; k++) {
		struct grid *g = grid_new(sizes[k][0], sizes[k][1]);
		int pages = view_frame_help_pages(g);
		char *all = calloc(1, 1), *t;
		size_t n;

		ck_assert_int_gt(pages, 0);
		view_frame_help(g, 0, false);
		t = grid_text(g);
		ck_assert_ptr_nonnull(strstr(t, "Tab"));
		ck_assert_ptr_nonnull(strstr(t, "\xe2\x96\xa3 inline"));        /* ▣ inline */
		ck_assert_ptr_nonnull(strstr(t, "\xe2\x96\x92 a buffered byte"));
		ck_assert_ptr_nonnull(strstr(t, "other keys close"));
		free(t);
		for (int p = 1; p <= pages; p++) {
			grid_clear(g);
			view_frame_help(g, p, false);
			t = grid_text(g);
			n = strlen(all);
			all = realloc(all, n + strlen(t) + 1);
			strcpy(all + n, t);
			free(t);
		}
		for (size_t i = 0; (e = glossary_at(i)) != NULL; i++)
			ck_assert_msg(strstr(all, e->term) != NULL, "%dx%d: %s on no page",
			              sizes[k][0], sizes[k][1], e->term);
		free(all);
		grid_free(g);
	}
}
END_TEST

/* The call tags, the probes and the legends' words are in the glossary too. */
START_TEST(test_glossary_terms)
{
	static const char *const terms[] = { "[by stdio]", "[your call]", "cachestat", "mincore",
	                                     "kpageflags", "FIEMAP", "ptrace", "procio",
	                                     "delalloc", "writeback", "dirty", "clean", "stale",
	                                     "unwritten", "inline", "read-ahead", "large folio",
	                                     "not observable here", "REPLAY" };
	char unknown[1024] = "", tag[32];
	size_t n;

	for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
		ck_assert_msg(glossary_find(terms[i]) != NULL, "%s is not in the glossary", terms[i]);
	for (int k = 0; k < 2; k++) {
		snprintf(tag, sizeof tag, "[%s]", scenario_names_of(scn_origin_words, k));
		ck_assert_msg(glossary_find(tag) != NULL, "the tag %s is not in the glossary", tag);
		ck_assert_msg(glossary_find(scenario_names_of(scn_origins, k)) != NULL,
		              "JSON's origin %s is not in the glossary", scenario_names_of(scn_origins, k));
	}
	for (int dirty = 0; dirty < 2; dirty++) {
		const struct view_legend *l = view_cache_legend_of(dirty, &n);
		for (size_t i = 0; i < n; i++)
			words_unknown(l[i].name, unknown, sizeof unknown);
		l = view_disk_legend_of(dirty, &n);
		for (size_t i = 0; i < n; i++)
			words_unknown(l[i].name, unknown, sizeof unknown);
	}
	ck_assert_msg(unknown[0] == '\0', "legend words not explained:%s", unknown);
}
END_TEST

START_TEST(test_grid_text)
{
	struct grid *g = grid_new(10, 3);
	char *t, *a;

	grid_wrap(g, (struct grid_rect){ 0, 0, 10, 3 }, GS_NORMAL, "one two three four five");
	t = grid_text(g);
	ck_assert_str_eq(t, "one two\nthree four\nfive\n");
	free(t);
	grid_put(g, 0, 0, '\033', GS_NORMAL);      /* no control character reaches a terminal */
	ck_assert_uint_eq(grid_at(g, 0, 0)->ch, '?');
	a = grid_ansi(g, true);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "\033[1;1H"));
	free(a);
	grid_free(g);
}
END_TEST

START_TEST(test_cast_file)
{
	/* A recording is one JSON header, then [time, "o", text] lines (python3 checks the JSON
	 * in tui-smoke.sh; here the shape). */
	int d = scratch_mkdir(NULL);
	char path[4096], line[65536];
	struct grid *g = grid_new(20, 3);
	struct cast *c;
	FILE *f;
	int n = 0;

	ck_assert_int_ge(d, 0);
	scratch_path(d, "rec.cast", path, sizeof path);
	c = cast_open(path, 20, 3, "t\"itle");
	ck_assert_ptr_nonnull(c);
	grid_print(g, 0, 0, 20, GS_DIRTY, "▓ dirty");
	ck_assert_int_eq(cast_frame(c, g, true), 0);
	ck_assert_int_eq(cast_frame(c, g, true), 0);    /* unchanged: not written again */
	grid_print(g, 0, 1, 20, GS_NORMAL, "x");
	ck_assert_int_eq(cast_frame(c, g, false), 0);
	ck_assert_int_eq(cast_close(c), 0);
	ck_assert_ptr_null(cast_open(path, 20, 3, "x"));  /* never overwrites */
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		if (n++ == 0) {
			ck_assert_ptr_nonnull(strstr(line, "{\"version\": 2, \"width\": 20, \"height\": 3"));
			ck_assert_ptr_nonnull(strstr(line, "\"title\": \"t\\\"itle\""));
		} else {
			ck_assert_int_eq(line[0], '[');
			ck_assert_ptr_nonnull(strstr(line, ", \"o\", \""));
			/* The frame's escape sequences, escaped as JSON (base/json.c). */
			ck_assert_ptr_nonnull(strstr(line, "\\u001b["));
			ck_assert_str_eq(line + strlen(line) - 3, "\"]\n");
		}
	}
	fclose(f);
	ck_assert_int_eq(n, 3);
	grid_free(g);
	scratch_remove(d);
}
END_TEST

START_TEST(test_history)
{
	/* Results move in (the caller's copy no longer owns the events) and come back by index. */
	struct history h = { 0 };

	for (size_t i = 0; i < 40; i++) {
		struct step_result sr = { .index = i };
		struct event e = { .call = "write", .fd = 3, .bytes = i, .result = (int64_t)i };
		ck_assert_int_eq(event_list_add(&sr.events, &e), 0);
		sr.output = strdup("out");
		ck_assert_int_eq(history_push(&h, &sr), 0);
		ck_assert_ptr_null(sr.events.v);
		ck_assert_ptr_null(sr.output);
	}
	ck_assert_uint_eq(h.n, 40);
	ck_assert_uint_eq(history_get(&h, 17)->index, 17);
	ck_assert_uint_eq(history_get(&h, 17)->events.v[0].bytes, 17);
	ck_assert_ptr_null(history_get(&h, 40));
	history_clear(&h);           /* frees everything (ASan checks) */
	ck_assert_uint_eq(h.n, 0);
	history_clear(&h);
}
END_TEST

START_TEST(test_narration_output)
{
	/* A pty step: what reached the terminal and the file, in their order, in the stdio
	 * pane: a row a line when there is room, a row a stream when not; the narration keeps
	 * its rows for the text. */
	struct step_result sr = fix_res[3];
	struct grid *g = grid_new(60, 4);
	struct view_frame f = { .scn = &fix_scn, .results = &sr, .n_results = 1, .cur = 0,
	                        .initial = &fix_initial, .speed = 1, .focus = VIEW_PANE_NONE };
	char *t;

	sr.index = 0;
	sr.output = "B\nA\n";
	sr.output_file = "A\nB\n";
	view_frame_narration(g, (struct grid_rect){ 0, 0, 60, 4 }, &f);
	t = grid_text(g);
	ck_assert_str_eq(t, "step 1: fsync(fd) returned 0\n\n\n\n");
	free(t);
	grid_free(g);
	ck_assert_int_eq(view_stdio_output_rows(sr.output, sr.output_file, 0, 0), 6);
	ck_picture(PANE(24, 6, view_stdio_output(g, r, sr.output, sr.output_file, 0, false)),
	           "on the terminal (pty):\n B⏎\n A⏎\nin the file:\n A⏎\n B⏎\n");
	ck_picture(PANE(24, 2, view_stdio_output(g, r, sr.output, sr.output_file, 0, true)),
	           "terminal: B|A|\nfile:     A|B|\n");
	/* Lines too long for the pane are cut, visibly. */
	ck_picture(PANE(12, 6, view_stdio_output(g, r, "If I had more time\nI\n", "x\n", 0, false)),
	           "on the…\n If I had\n more time⏎\n I⏎\nin the file:\n x⏎\n");
	/* With the rows for it, a long line is wrapped at its spaces rather than cut. */
	ck_assert_int_eq(view_stdio_output_rows("If I had more time\nI would have\n", "x\n", 0, 12),
	                 7);
	ck_picture(PANE(12, 7, view_stdio_output(g, r, "If I had more time\nI would have\n", "x\n",
	                                         0, false)),
	           "on the…\n If I had\n more time⏎\n I would\n have⏎\nin the file:\n x⏎\n");
	/* One row short of that: a row a line, cut visibly. */
	ck_picture(PANE(12, 6, view_stdio_output(g, r, "If I had more time\nI would have\n", "x\n",
	                                         0, false)),
	           "on the…\n If I had…\n I would…\nin the file:\n x⏎\n\n");
	/* tail: one stream; what does not fit is counted. */
	ck_picture(PANE(20, 3, view_stdio_output(g, r, "l1\nl2\nl3\n", NULL, 0, false)),
	           "printed:\n l1⏎\n … 2 more lines\n");
	/* tail's output cut by the engine: the pane says how much there was, not how many
	 * lines happen to be kept. */
	ck_picture(PANE(30, 4, view_stdio_output(g, r, "l1\nl2\nl3\nl", NULL, 11992, false)),
	           "printed:\n l1⏎\n l2⏎\n … only 10 B of 11.7 KiB\n");
	/* On the 80x24 and 100x30 screens both streams are there, in order. */
	for (int big = 0; big < 2; big++) {
		struct grid *s = grid_new(big ? 100 : 80, big ? 30 : 24);
		view_screen_draw(s, &f, NULL);
		t = grid_text(s);
		if (big)
			ck_assert_ptr_nonnull(strstr(t, "│ on the terminal (pty):"));
		else
			ck_assert_ptr_nonnull(strstr(t, "│ terminal: B⏎A⏎ "));
		ck_assert_ptr_nonnull(strstr(t, big ? "│  A⏎" : "│ file:     A⏎B⏎ "));
		free(t);
		grid_free(s);
	}
}
END_TEST

START_TEST(test_narration_reflow)
{
	/* Editor line breaks inside a paragraph reflow; blank lines and code lines stay. */
	struct scn_step st = { .op = SCN_OP_NOTE, .say = "One two\nthree.\n\n    code();\nfour\n" };
	struct step_result sr = fix_res[3];
	struct grid *g = grid_new(30, 6);
	struct view_frame f = { .scn = &fix_scn, .results = &sr, .n_results = 1, .cur = 0,
	                        .focus = VIEW_PANE_NONE };
	char *t;

	sr.step = &st;
	ck_assert_int_eq(view_frame_narration(g, (struct grid_rect){ 0, 0, 30, 6 }, &f), 4);
	t = grid_text(g);
	ck_assert_str_eq(t, "One two three.\n\n    code();\nfour\n\n\n");
	free(t);
	grid_free(g);
}
END_TEST

START_TEST(test_narration_marks)
{
	/* Sentences as told: an unchecked one marked [?1] with its reason below, dim; a false
	 * one not told, but named as a failure; a tmpfs cache pane says there is nothing to
	 * write back, not "dirty 0". */
	struct sentence_result v[3] = {
		{ .text = "One write() happened. ", .outcome = SENTENCE_HELD, .rests = true },
		{ .text = "2 dirty pages. ", .outcome = SENTENCE_UNCHECKED, .rests = true },
		{ .text = "3 pages cached.", .outcome = SENTENCE_FALSE, .rests = true },
	};
	struct step_result sr = fix_res[3];
	struct grid *g = grid_new(40, 8);
	struct view_frame f = { .scn = &fix_scn, .results = &sr, .n_results = 1, .cur = 0,
	                        .focus = VIEW_PANE_NONE };
	struct snapshot s = fix_initial;
	char *t;

	text_setf(&v[1].why, "dirty pages: unknown");
	text_setf(&v[2].why, "cache.pages = 3, here 2");
	sr.sentences = v;
	sr.n_sentences = 3;
	sr.n_unchecked = 1;
	sr.n_false = 1;
	view_frame_narration(g, (struct grid_rect){ 0, 0, 40, 8 }, &f);
	t = grid_text(g);
	ck_assert_str_eq(t, "One write() happened. 2 dirty pages.\n[?1]\n"
	                 "[?1] not observable here: dirty pages:\nunknown\n"
	                 "false here, not told: \"3 pages cached.\"\n(cache.pages = 3, here 2)\n\n\n");
	free(t);
	grid_free(g);

	/* Background (not about this run) is told inside one "[background: ...]", apart from
	 * the held sentence before it. */
	struct sentence_result b[3] = {
		{ .text = "It wrote. ", .outcome = SENTENCE_HELD, .rests = true },
		{ .text = "Books say so. ", .outcome = SENTENCE_HELD, .background = true },
		{ .text = "Always.", .outcome = SENTENCE_HELD, .background = true },
	};
	sr.sentences = b;
	sr.n_sentences = 3;
	sr.n_unchecked = sr.n_false = 0;
	g = grid_new(60, 8);
	view_frame_narration(g, (struct grid_rect){ 0, 0, 60, 8 }, &f);
	t = grid_text(g);
	ck_assert_msg(strncmp(t, "It wrote. [background: Books say so. Always.]\n", 46) == 0,
	              "%s", t);
	free(t);
	grid_free(g);
	sr.sentences = v;

	snprintf(s.disk.fs, sizeof s.disk.fs, "tmpfs");
	s.cache.has_dirty = true;
	g = grid_new(40, 8);
	view_cache_draw(g, (struct grid_rect){ 0, 0, 40, 8 }, &s, NULL, NULL, false, NULL, NULL);
	t = grid_text(g);
	ck_assert_msg(strstr(t, "nothing to write back") != NULL, "%s", t);
	ck_assert_msg(strstr(t, "dirty") == NULL, "%s", t);
	free(t);
	grid_free(g);
	text_buf_free(&v[1].why);
	text_buf_free(&v[2].why);
}
END_TEST

START_TEST(test_expect_overflow)
{
	/* Too many to fit: the failure is shown in full first, the rest counted, never dropped
	 * silently. */
	struct scn_expect w[5];
	struct expect_result x[5];
	struct step_result sr = fix_res[1];
	char *t;

	for (int i = 0; i < 5; i++) {
		w[i] = (struct scn_expect){ SCN_KEY_CALLS_WRITE, SCN_CMP_EQ, 1, NULL, "1", 1, 1 };
		x[i] = (struct expect_result){ .want = &w[i], .ok = i != 3, .got = 1,
		                                .outcome = i != 3 ? EXPECT_HELD : EXPECT_FAILED };
	}
	x[3].got = 2;
	sr.expects = x;
	sr.n_expects = 5;
	t = PANE(50, 1, view_frame_expect(g, r, &sr, false));
	ck_picture(t, "✗ calls.write = 1 (got 2)  ✓ calls.write   +3 more\n");
	/* Short forms that all fit need no room kept for a "+N more". */
	sr.n_expects = 3;
	t = PANE(43, 1, view_frame_expect(g, r, &sr, false));
	ck_picture(t, "✓ calls.write  ✓ calls.write  ✓ calls.write\n");
	ck_assert_int_eq(view_frame_expect_rows(&sr, 43), 2);
	ck_assert_int_eq(view_frame_expect_rows(&sr, 80), 1);
}
END_TEST

/* The suite. */
static Suite *
views_suite(void)
{
	Suite *s = suite_create("views");
	TCase *tc = tcase_create("views");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* The dumps assert nothing: they are not tests, so they run only when asked for. */
	if (getenv("VIEWS_DUMP") != NULL) {
		tcase_add_test(tc, test_dump);
		tcase_add_test(tc, test_print_panes);
	}
	tcase_add_test(tc, test_stdio_pane);
	tcase_add_test(tc, test_stdio_not_allocated);
	tcase_add_test(tc, test_cache_pane);
	tcase_add_test(tc, test_cache_dirty_unknown);
	tcase_add_test(tc, test_cache_merge);
	tcase_add_test(tc, test_cache_notes);
	tcase_add_test(tc, test_cache_every_cell);
	tcase_add_test(tc, test_cache_scale_stable);
	tcase_add_test(tc, test_cache_big_and_asked);
	tcase_add_test(tc, test_cache_zoom);
	tcase_add_test(tc, test_screen_projector);
	tcase_add_test(tc, test_disk_pane);
	tcase_add_test(tc, test_disk_inline);
	tcase_add_test(tc, test_disk_tmpfs);
	tcase_add_test(tc, test_disk_stale);
	tcase_add_test(tc, test_log_lines);
	tcase_add_test(tc, test_log_errors_red);
	tcase_add_test(tc, test_log_procio);
	tcase_add_test(tc, test_glyphs_distinct);
	tcase_add_test(tc, test_glossary_terms);
	tcase_add_test(tc, test_glossary_in_man);
	tcase_add_test(tc, test_help_pages);
	tcase_add_test(tc, test_screen_ascii);
	tcase_add_test(tc, test_screen_layouts);
	tcase_add_test(tc, test_screen_replay_help);
	tcase_add_test(tc, test_screen_live);
	tcase_add_test(tc, test_narration_writeback_between);
	tcase_add_test(tc, test_screen_new_stream);
	tcase_add_test(tc, test_screen_sweep_scroll);
	tcase_add_test(tc, test_hops);
	tcase_add_test(tc, test_details_panes);
	tcase_add_test(tc, test_details_on_screen);
	tcase_add_test(tc, test_disk_device);
	tcase_add_test(tc, test_crash_popup);
	tcase_add_test(tc, test_folio_from_diff);
	tcase_add_test(tc, test_animation_frames);
	tcase_add_test(tc, test_grid_text);
	tcase_add_test(tc, test_grid_fit);
	tcase_add_test(tc, test_cast_file);
	tcase_add_test(tc, test_history);
	tcase_add_test(tc, test_narration_output);
	tcase_add_test(tc, test_narration_reflow);
	tcase_add_test(tc, test_narration_marks);
	tcase_add_test(tc, test_expect_overflow);
	suite_add_tcase(s, tc);
	/* Real runs of every bundled scenario: slow (the writeback lesson waits), so on its own. */
	tc = tcase_create("scenarios");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_every_scenario_fits);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(views_suite());
}
