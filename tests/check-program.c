/* SPDX-License-Identifier: MIT */
/* check-program.c: the scenario as one C program: every op emits, steps map to lines, the pane. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-views.h"
#include "tui/grid.h"
#include "export/program.h"
#include "scenario/scenario.h"
#include "tui/view.h"
#include "test-util.h"

/* Load a bundled scenario by file name. */
static struct scenario *
load(const char *name)
{
	char rel[256], path[4096], *err = NULL;
	struct scenario *s = NULL;

	snprintf(rel, sizeof rel, "scenarios/%s", name);
	test_util_src_path(rel, path, sizeof path);
	if (scenario_load(path, &s, &err) != 0)
		ck_abort_msg("%s: %s", path, err != NULL ? err : "?");
	return s;
}

/* True if one of step i's lines holds text. */
static bool
step_has(const struct program *p, size_t i, const char *text)
{
	for (size_t k = p->first[i]; k < p->last[i]; k++)
		if (strstr(p->lines[k], text) != NULL)
			return true;
	return false;
}

/* Every op of the table has an emit function: the program never falls back to a stub. */
START_TEST(test_every_op_emits)
{
	for (int op = 0; op < SCN_OP__COUNT; op++)
		ck_assert_msg(program_emits((enum scn_op)op), "%s has no emit",
		              scn_op_table[op].name);
}
END_TEST

/* 13-3: each step's lines are its call with its real arguments, in order. */
START_TEST(test_program_13_3)
{
	struct scenario *s = load("13-3-fflush-fsync.yaml");
	struct program *p = program_new(s);
	static const char *const want[] = {
		"fp = fopen(path, \"w\");", "fwrite(wbuf, 1, 5000, fp)", "fflush(fp)",
		"fd = fileno(fp);", "fsync(fd)", "fclose(fp)",
	};

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n_steps, 6);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_msg(step_has(p, i, want[i]), "step %zu lacks %s", i + 1, want[i]);
		if (i > 0)
			ck_assert_uint_eq(p->first[i], p->last[i - 1]);
	}
	ck_assert_str_eq(p->lines[0], "/*");
	ck_assert_str_eq(p->lines[p->n_lines - 1], "}");
	program_free(p);
	scenario_free(s);
}
END_TEST

/* Every bundled scenario: a program whose steps are non-empty, in order, inside main(). */
START_TEST(test_program_bundled)
{
	char dir[4096];
	DIR *d = opendir(test_util_src_path("scenarios", dir, sizeof dir));
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		struct scenario *s;
		struct program *p;
		if (strstr(e->d_name, ".yaml") == NULL)
			continue;
		s = load(e->d_name);
		p = program_new(s);
		ck_assert_ptr_nonnull(p);
		for (size_t i = 0; i < p->n_steps; i++) {
			ck_assert_msg(p->first[i] < p->last[i], "%s step %zu: no line", e->d_name, i);
			ck_assert(i == 0 || p->first[i] == p->last[i - 1]);
		}
		program_free(p);
		scenario_free(s);
		n++;
	}
	closedir(d);
	ck_assert_int_gt(n, 10);
}
END_TEST

/* A row of g that holds text, or -1. */
static int
row_with(const struct grid *g, const char *text, char *buf, size_t len)
{
	for (int y = 0; y < g->h; y++)
		if (strstr(grid_row_text(g, y, buf, len), text) != NULL)
			return y;
	return -1;
}

/* The pane: the current step's lines marked and reversed, cut lines end in an ellipsis. */
START_TEST(test_pane_draw)
{
	struct scenario *s = load("13-3-fflush-fsync.yaml");
	struct program *p = program_new(s);
	struct grid *g = grid_new(40, 12);
	char row[512];
	int y;

	view_program_draw(g, (struct grid_rect){ 0, 0, 40, 12 }, p, 4, true);
	ck_assert_int_ge(row_with(g, "program: step 5", row, sizeof row), 0);
	y = row_with(g, "fsync(fd)", row, sizeof row);
	ck_assert_int_gt(y, 0);
	ck_assert_msg(strstr(row, ">") != NULL, "not marked: %s", row);
	ck_assert(grid_at(g, 8, y)->attr & GRID_A_REVERSE);
	/* fsync() in the disk's colour; the string before it in the strings' */
	ck_assert_int_eq(grid_at(g, (int)(strstr(row, "fsync(fd") - row), y)->style, GS_DISK);
	ck_assert_int_eq(grid_at(g, (int)(strstr(row, "\"fsync\"") - row), y)->style, GS_OK);
	y = row_with(g, "fwrite(wbuf, 1, 5000, fp)", row, sizeof row);
	ck_assert_int_gt(y, 0);
	ck_assert_msg(row[strlen(row) - 2] == '.' || strstr(row, "...") != NULL ||
	              strstr(row, "\xe2\x80\xa6") != NULL, "cut silently: %s", row);
	ck_assert(!(grid_at(g, 8, y)->attr & GRID_A_REVERSE));
	grid_free(g);
	program_free(p);
	scenario_free(s);
}
END_TEST

/* Render the fixture with its program at w x h, c pressed or not. */
static char *
screen(int w, int h, bool toggled)
{
	struct grid *g = grid_new(w, h);
	struct program *p = program_new(&fix_scn);
	struct view_frame f = { .scn = &fix_scn, .results = fix_res, .n_results = FIX_STEPS,
	                        .cur = 1, .initial = &fix_initial, .fs = "ext4", .speed = 1,
	                        .focus = VIEW_PANE_NONE, .program = p,
	                        .program_toggled = toggled };
	char *t;

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(p);
	view_screen_draw(g, &f, NULL);
	t = grid_text(g);
	grid_free(g);
	program_free(p);
	return t;
}

/* From 120 columns the pane is beside the others; at 80 only when c asks; c flips both. */
START_TEST(test_pane_layout)
{
	char *t;

	fixture_build();
	t = screen(120, 40, false);
	ck_assert_ptr_nonnull(strstr(t, "program: step 2"));
	ck_assert_ptr_nonnull(strstr(t, "stdio buffer"));
	ck_assert_ptr_nonnull(strstr(t, "c program"));
	free(t);
	t = screen(120, 40, true);
	ck_assert_ptr_null(strstr(t, "program: step"));
	free(t);
	t = screen(80, 24, false);
	ck_assert_ptr_null(strstr(t, "program: step"));
	ck_assert_ptr_nonnull(strstr(t, "c program"));
	free(t);
	t = screen(80, 24, true);
	ck_assert_ptr_nonnull(strstr(t, "program: step 2"));
	ck_assert_ptr_nonnull(strstr(t, "fwrite(wbuf, 1, "));
	free(t);
	fixture_free();
}
END_TEST

/* The suite. */
static Suite *
program_suite(void)
{
	Suite *s = suite_create("program");
	TCase *tc = tcase_create("program");

	tcase_add_test(tc, test_every_op_emits);
	tcase_add_test(tc, test_program_13_3);
	tcase_add_test(tc, test_program_bundled);
	tcase_add_test(tc, test_pane_draw);
	tcase_add_test(tc, test_pane_layout);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(program_suite());
}
