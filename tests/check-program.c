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
#include "export/ctext.h"
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
		ck_assert_msg(scn_op_table[op].emit != NULL, "%s has no emit",
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

/* s as ctext_literal writes it (indent 1). */
static void
literal_is(const char *s, const char *want)
{
	struct ctext t = { 0 };

	ctext_literal(&t, s, 1);
	ck_assert_str_eq(ctext_str(&t), want);
	ctext_clear(&t);
}

/* s as ctext_comment writes it. */
static void
comment_is(const char *s, const char *want)
{
	struct ctext t = { 0 };

	ctext_comment(&t, s);
	ck_assert_str_eq(ctext_str(&t), want);
	ctext_clear(&t);
}

/* A literal holds exactly the text's bytes and nothing can leave it or join an escape; a
 * long one is split, never cut; a comment cannot close, open or splice. */
START_TEST(test_ctext)
{
	struct ctext t = { 0 };
	char longer[301], *joined;
	size_t n = 0;

	literal_is("a\"b\\c", "\"a\\\"b\\\\c\"");
	literal_is("Why?\?!\n", "\"Why?\\?!\\n\"");
	literal_is("?\?\?/", "\"?\\?\\?/\"");
	literal_is("\x01" "1\x7f" "7", "\"\\0011\\1777\"");
	literal_is("\xc3\xa9\xe2\x80\xae\t", "\"\\303\\251\\342\\200\\256\\t\"");
	literal_is("", "\"\"");
	literal_is(NULL, "\"\"");
	memset(longer, 'a', 300);
	longer[300] = '\0';
	longer[150] = '"';
	ctext_literal(&t, longer, 2);
	/* Pieces of at most 64 bytes of text each, joined again by the compiler: the text. */
	ck_assert_ptr_nonnull(strstr(ctext_str(&t), "\"\n\t\t\""));
	joined = calloc(1, t.len + 1);
	for (const char *p = ctext_str(&t); *p != '\0'; p++) {
		if (strncmp(p, "\"\n\t\t\"", 5) == 0)
			p += 4;
		else if (*p == '\\')
			joined[n++] = *++p;
		else if (*p != '"')
			joined[n++] = *p;
	}
	ck_assert_str_eq(joined, longer);
	for (const char *p = ctext_str(&t), *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
		ck_assert_int_le(nl - p, 2 + 64 + 2);
	free(joined);
	ctext_clear(&t);

	comment_is("a */ b /* c ?\?/ d", "a * / b / * c ?\\?/ d");
	comment_is("**/", "** /");
	comment_is("/*/", "/ * /");
	comment_is("end\\", "end\\\\");
	comment_is("\x1b[31m\xe2\x80\xae\xc2\x9b\xff \xc3\xa9", "\\x1b[31m\\u202e\\u009b\\xff \xc3\xa9");
	ctext_printf(&t, "%d%s", 1, "x");
	ck_assert_str_eq(ctext_str(&t), "1x");
	ck_assert(!t.nomem);
	ctext_clear(&t);
	ck_assert_str_eq(ctext_str(&t), "");
}
END_TEST

/* A hostile lesson's program, as the pane shows it: no control or bidi character on any line
 * (every text of the scenario went through export/ctext.c), drawn as it is. */
START_TEST(test_pane_hostile)
{
	char path[4096], *err = NULL;
	struct scenario *s = NULL;
	struct program *p;
	struct grid *g = grid_new(100, 40);

	test_util_src_path("tests/inject.yaml", path, sizeof path);
	ck_assert_msg(scenario_load(path, &s, &err) == 0, "%s", err != NULL ? err : "?");
	p = program_new(s);
	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < p->n_lines; i++)
		for (const unsigned char *c = (const unsigned char *)p->lines[i]; *c != '\0'; c++)
			ck_assert_msg((*c >= 0x20 && *c < 0x7f) || *c == '\t',
			              "line %zu: byte %#x: %s", i + 1, *c, p->lines[i]);
	ck_assert_str_eq(p->lines[1], " * T\\x1b]0;PWNED\\x07\\x1b[?1049h\\x1b[31mred\\u009b31m");
	view_program_draw(g, (struct grid_rect){ 0, 0, 100, 40 }, p, 1, true);
	grid_free(g);
	program_free(p);
	scenario_free(s);
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
	tcase_add_test(tc, test_ctext);
	tcase_add_test(tc, test_pane_hostile);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(program_suite());
}
