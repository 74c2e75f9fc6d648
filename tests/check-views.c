/* SPDX-License-Identifier: MIT */
/* check-views.c: each pane drawn for known snapshots into a grid, compared with pictures. */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-views.h"
#include "grid.h"
#include "view.h"

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

START_TEST(test_dump)
{
	/* Not an assertion: with VIEWS_DUMP=1 print the screens for a person to look at. */
	static const int sz[][2] = { { 80, 24 }, { 100, 30 }, { 160, 45 } };
	if (getenv("VIEWS_DUMP") == NULL)
		return;
	for (size_t i = 0; i < 3; i++)
		for (long cur = -1; cur < 4; cur++) {
			char *t = screen(sz[i][0], sz[i][1], cur, getenv("VIEWS_ASCII") != NULL,
			                 VIEW_ANIM_NONE, NULL);
			printf("==== %dx%d step %ld\n%s", sz[i][0], sz[i][1], cur, t);
			free(t);
		}
}
END_TEST

/* The suite. */
static Suite *
views_suite(void)
{
	Suite *s = suite_create("views");
	TCase *tc = tcase_create("views");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dump);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	SRunner *sr = srunner_create(views_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
