/* SPDX-License-Identifier: MIT */
/* check-program.c: the scenario as one C program: every op emits, steps map to lines, the pane. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture-views.h"
#include "base/text.h"
#include "tui/grid.h"
#include "export/ctext.h"
#include "export/emit.h"
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
	if (load_scenario(path, &s, &err) != 0)
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
		ck_assert_msg(emit_step_has((enum scn_op)op), "%s has no emit",
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
	load_scenario_free(s);
}
END_TEST

/* Call check on the program of every bundled scenario; return how many there were. */
static int
each_bundled(void (*check)(const char *name, const struct program *p))
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
		check(e->d_name, p);
		program_free(p);
		load_scenario_free(s);
		n++;
	}
	closedir(d);
	return n;
}

/* A program's steps are non-empty, in order, inside main(). */
static void
steps_in_order(const char *name, const struct program *p)
{
	for (size_t i = 0; i < p->n_steps; i++) {
		ck_assert_msg(p->first[i] < p->last[i], "%s step %zu: no line", name, i);
		ck_assert(i == 0 || p->first[i] == p->last[i - 1]);
	}
}

/* Every bundled scenario: a program whose steps are non-empty, in order, inside main(). */
START_TEST(test_program_bundled)
{
	ck_assert_int_gt(each_bundled(steps_in_order), 10);
}
END_TEST

/*
 * A scenario near the loader's 1 MiB whose texts are full of the names the program looks for
 * (fd renamed for a named pair, tail, check) and whose title is 100000 words: exported in
 * well under 10 s of CPU (each name looked up from the text's start took minutes: 183 s for
 * 450 KB), and the text is all in one literal.
 */
START_TEST(test_program_long)
{
	struct ctext y = { 0 };
	struct scenario *s = NULL;
	struct program *p;
	char *err = NULL;
	clock_t t0 = clock();

	ctext_printf(&y, "title: \"");
	for (int i = 0; i < 100000; i++)
		ctext_printf(&y, "x ");
	ctext_printf(&y, "\"\nsteps:\n  - open: {flags: [O_RDWR]}\n    as: a\n  - write: {text: \"");
	for (int i = 0; i < 60000; i++)
		ctext_printf(&y, "fd tail check ");
	ctext_printf(&y, "\"}\n    on: a\n");
	ck_assert(!y.b.nomem);
	ck_assert_msg(load_scenario_text("long.yaml", ctext_str(&y), y.b.len, &s, &err) == 0, "%s",
	              err != NULL ? err : "?");
	p = program_new(s);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_lt((double)(clock() - t0) / CLOCKS_PER_SEC, 10.0);
	ck_assert(!step_has(p, 1, "fd_a tail"));
	ck_assert(step_has(p, 1, "write(fd_a, \"fd tail check fd tail"));
	program_free(p);
	load_scenario_free(s);
	ctext_clear(&y);
}
END_TEST

/* The program of the scenario fmt (printf-style; *s: the scenario), every line of it within
 * 120 columns (a tab to the next multiple of 8), as fuzz-export wants. */
static struct program * __attribute__((format(printf, 2, 3)))
program_narrow(struct scenario **s, const char *fmt, ...)
{
	struct program *p;
	char *y = NULL, *err = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&y, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	ck_assert_msg(load_scenario_text("names.yaml", y, (size_t)n, s, &err) == 0, "%s",
	              err != NULL ? err : "?");
	free(y);
	p = program_new(*s);
	ck_assert_ptr_nonnull(p);
	for (size_t k = 0; k < p->n_lines; k++) {
		size_t col = 0;
		for (const char *c = p->lines[k]; *c != '\0'; c++)
			col = *c == '\t' ? (col / 8 + 1) * 8 : col + 1;
		ck_assert_msg(col <= 120, "line %zu is %zu columns: %s", k + 1, col, p->lines[k]);
	}
	return p;
}

/* Names of the longest kind a lesson may give (64 characters): every line of the program stays
 * within 120 columns (tabs to 8), as the fuzz target requires (it found a 128-column open). */
START_TEST(test_program_long_names)
{
	static const char *const a64 =
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char *const b64 =
		"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	struct scenario *s = NULL;
	struct program *p;

	/* The run step's stdin: fuzz-export found its freopen() line at 123 columns (a piece of
	 * 64 bytes of literal starting at column 37, then ", \"r\", stdin) == NULL)"). */
	p = program_narrow(&s, "title: t\nsteps:\n"
	                   "  - open: {file: %s, flags: [O_WRONLY, O_CREAT, O_EXCL, O_DSYNC]}\n"
	                   "    as: dd\n  - close: {}\n    on: dd\n  - rename: {file: %s, to: %s}\n"
	                   "  - run: {program: %s, args: [%s, '{file}', %s], stdin: %s}\n",
	                   a64, a64, b64, a64, b64, a64, a64);
	ck_assert(step_has(p, 0, b64) || step_has(p, 2, b64));
	program_free(p);
	load_scenario_free(s);
}
END_TEST

/*
 * A named pair's names (15 letters, the most) come into a step's code after it is laid out:
 * a text or a file name that ends a line's literal at any column keeps every line within 120
 * columns (a write() of 64 bytes on the pair took 122, a pwrite() 136, an fopen() of a name
 * of 62 letters 122).
 */
START_TEST(test_program_pair_names)
{
	for (int n = 1; n <= 70; n++) {
		struct scenario *s = NULL;
		struct program *p = program_narrow(&s, "title: t\nsteps:\n"
			"  - open: {flags: [O_RDWR, O_CREAT]}\n    as: abcdefghijklmno\n"
			"  - write: {text: %1$.*2$s}\n    on: abcdefghijklmno\n"
			"  - pwrite: {text: %1$.*2$s, offset: 1GiB}\n    on: abcdefghijklmno\n"
			"  - fdopen: {mode: r+}\n    on: abcdefghijklmno\n"
			"  - fputs: {text: %1$.*2$s}\n    on: abcdefghijklmno\n"
			"  - printf: {text: %1$.*2$s}\n    on: abcdefghijklmno\n"
			"  - fopen: {mode: r+, file: %1$.*3$s}\n    as: zbcdefghijklmno\n"
			"  - fileno: {}\n    on: zbcdefghijklmno\n"
			"  - write: {text: %1$.*2$s}\n    on: zbcdefghijklmno\n",
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", n,
			n < 64 ? n : 64);

		ck_assert(step_has(p, 1, "fd_abcdefghijklmno"));
		program_free(p);
		load_scenario_free(s);
	}
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

/* The pane: the current step's lines marked and reversed; a long line wraps, never cut. */
START_TEST(test_pane_draw)
{
	struct scenario *s = load("13-3-fflush-fsync.yaml");
	struct program *p = program_new(s);
	struct grid *g = grid_new(40, 14);
	char row[512];
	int y;

	view_program_draw(g, (struct grid_rect){ 0, 0, 40, 14 }, p, 4, true);
	ck_assert_int_ge(row_with(g, "program: step 5", row, sizeof row), 0);
	y = row_with(g, "fsync(fd)", row, sizeof row);
	ck_assert_int_gt(y, 0);
	ck_assert_msg(strstr(row, ">") != NULL, "not marked: %s", row);
	ck_assert(grid_at(g, 8, y)->attr & GRID_A_REVERSE);
	/* fsync() in the disk's colour; the string before it in the strings' */
	ck_assert_int_eq(grid_at(g, (int)(strstr(row, "fsync(fd") - row), y)->style, GS_DISK);
	ck_assert_int_eq(grid_at(g, (int)(strstr(row, "\"fsync\"") - row), y)->style, GS_OK);
	/* At step 2, fwrite()'s line, 39 columns, in a pane of 34. */
	view_program_draw(g, (struct grid_rect){ 0, 0, 40, 12 }, p, 1, true);
	y = row_with(g, "fwrite(wbuf, 1, 5000, fp)", row, sizeof row);
	ck_assert_int_gt(y, 0);
	ck_assert(grid_at(g, 8, y)->attr & GRID_A_REVERSE);
	/* Its end on the next row, indented past the line's own indentation, no line number. */
	grid_row_text(g, y + 1, row, sizeof row);
	ck_assert_msg(strstr(row, "< 5000 && ferror(fp))") != NULL, "not wrapped: %s", row);
	ck_assert_msg(strncmp(row, "|    ", 5) == 0, "a number on a continuation: %s", row);
	ck_assert_int_lt(row_with(g, "...", row, sizeof row), 0);
	grid_free(g);
	program_free(p);
	load_scenario_free(s);
}
END_TEST

/* The text of one row of an --ascii pane's grid (a byte a column), columns [x, w - 1): inside
 * the box's right edge, without trailing spaces. */
static void
pane_row(const struct grid *g, int y, int x, int w, char *buf, size_t len)
{
	char row[2048];
	const char *p = grid_row_text(g, y, row, sizeof row);
	size_t n;

	snprintf(buf, len, "%.*s", w - 1 - x, (int)strlen(p) > x ? p + x : "");
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

/* s without its spaces and tabs. */
static void
squeeze(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s != '\0' && n + 1 < len; s++)
		if (*s != ' ' && *s != '\t')
			buf[n++] = *s;
	buf[n] = '\0';
}

/* Every line of p is in the pane whole at three widths (its rows joined). */
static void
lines_whole(const char *name, const struct program *p)
{
	static const int widths[] = { 30, 40, 72 };

	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
		int w = widths[k], h = (int)p->n_lines * 12 + 2, y = 1;
		struct grid *g = grid_new(w, h);
		ck_assert_ptr_nonnull(g);
		view_program_draw(g, (struct grid_rect){ 0, 0, w, h }, p, -1, true);
		for (size_t i = 0; i < p->n_lines; i++) {
			char want[4096], got[8192] = "", part[2048], sq[8192];
			squeeze(p->lines[i], want, sizeof want);
			/* The line's first row, then rows with no number (continuations). */
			do {
				pane_row(g, y, 5, w, part, sizeof part);
				strncat(got, part, sizeof got - strlen(got) - 1);
				y++;
				pane_row(g, y, 1, w, part, sizeof part);
			} while (y < h - 1 && strncmp(part, "    ", 4) == 0 && part[4] != '\0');
			squeeze(got, sq, sizeof sq);
			ck_assert_msg(strcmp(sq, want) == 0, "%s at %d columns, line %zu:\n"
			              "  want %s\n  got  %s", name, w, i + 1, p->lines[i], got);
		}
		grid_free(g);
	}
}

/* Every bundled scenario's program, at three widths: every line is in the pane whole, so
 * that two lines that differ never look the same (13-4's three ex13_4() calls differ only
 * past 38 columns). */
START_TEST(test_pane_wraps_every_line)
{
	ck_assert_int_gt(each_bundled(lines_whole), 10);
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

/* s as ctext_comment writes it after "/" "*": every line at most 76 columns, and the lines
 * joined again (spaces for line breaks, none in a cut word) are want (NULL: s escaped, one
 * word, its "?" parted). */
static void
comment_wraps(const char *s, const char *want)
{
	struct ctext t = { 0 };
	char *safe = text_safe_dup(s, TEXT_LINE), *joined, *j;
	const char *c;

	ctext_printf(&t, "/*");
	ctext_comment(&t, s);
	c = ctext_str(&t) + 2;
	ck_assert_ptr_null(strstr(c, "??"));
	ck_assert_ptr_null(strstr(c, "*/"));
	joined = j = calloc(1, strlen(c) + 1);
	for (const char *nl; (nl = strchr(c, '\n')) != NULL; c = nl + 4) {
		ck_assert_uint_le(nl - c, 76);
		ck_assert(strncmp(nl, "\n * ", 4) == 0);
		memcpy(j, c, (size_t)(nl - c));
		j += nl - c;
		if (want != NULL)
			*j++ = ' ';
	}
	ck_assert_uint_le(strlen(c), 76);
	strcpy(j, c);
	if (want == NULL) {   /* one word: "??" parted by a backslash, "*" "/" by a space */
		for (j = joined; (j = strstr(j, "?\\?")) != NULL; j++)
			memmove(j + 1, j + 2, strlen(j + 2) + 1);
		if ((j = strstr(joined, "* /")) != NULL)
			memmove(j + 1, j + 2, strlen(j + 2) + 1);
	}
	ck_assert_str_eq(joined, want != NULL ? want : safe);
	free(joined);
	free(safe);
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
	joined = calloc(1, t.b.len + 1);
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
	comment_is(" a \t\n b  ", "a b");
	/* Wrapped at 76 columns: words on the next line " * ", a wider word cut between two
	 * escapes or characters; nothing lost: the lines joined again are the text escaped. */
	comment_wraps("Forty words, each one of them short enough for a line of its own, make a "
	              "comment wrapped over several lines; every one of the lines ends before "
	              "column seventy-seven, and no word is cut in two anywhere at all in it.",
	              "Forty words, each one of them short enough for a line of its own, make a "
	              "comment wrapped over several lines; every one of the lines ends before "
	              "column seventy-seven, and no word is cut in two anywhere at all in it.");
	memset(longer, 0x1b, 300);
	longer[150] = '*';
	longer[151] = '/';
	comment_wraps(longer, NULL);
	memset(longer, '?', 300);
	comment_wraps(longer, NULL);
	ctext_printf(&t, "%d%s", 1, "x");
	ck_assert_str_eq(ctext_str(&t), "1x");
	ck_assert(!t.b.nomem);
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
	ck_assert_msg(load_scenario(path, &s, &err) == 0, "%s", err != NULL ? err : "?");
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
	load_scenario_free(s);
}
END_TEST

/* A lesson with a run step: the program's opening comment names the command line it runs,
 * before anything else; the pane marks the step's lines with "!" (lit or not) and says so in
 * its title. A lesson without one says nothing of it. */
START_TEST(test_program_runs)
{
	char path[4096], row[512], *err = NULL;
	struct scenario *s = NULL, *plain = load("13-3-fflush-fsync.yaml");
	struct program *p, *q = program_new(plain);
	struct grid *g = grid_new(100, 60);
	size_t run = 0, head, marked = 0;

	test_util_src_path("tests/fixtures/good/all-ops.yaml", path, sizeof path);
	ck_assert_msg(load_scenario(path, &s, &err) == 0, "%s", err != NULL ? err : "?");
	p = program_new(s);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	while (run < s->n_steps && s->steps[run].op != SCN_OP_RUN)
		run++;
	ck_assert_uint_lt(run, s->n_steps);
	ck_assert(step_has(p, run, "execvp("));
	for (head = 0; head < p->n_lines && strstr(p->lines[head], "*/") == NULL; head++)
		continue;
	ck_assert_uint_lt(head, p->n_lines);
	{
		char want[128];
		bool warned = false, named = false;
		snprintf(want, sizeof want, " *   step %zu (line %d): ./mytail -n 3 {file} < /dev/null",
		         run + 1, s->steps[run].line);
		for (size_t i = 0; i < head; i++) {
			warned |= strstr(p->lines[i], "this program runs other programs, with your "
			                 "rights") != NULL;
			named |= strcmp(p->lines[i], want) == 0;
		}
		ck_assert_msg(warned && named, "the opening comment does not name %s", want);
	}
	for (size_t i = 0; i < q->n_lines; i++)
		ck_assert_ptr_null(strstr(q->lines[i], "runs other programs"));

	/* The run step lit, then another: its lines are marked either way, no other line is. */
	for (long lit = (long)run; lit >= (long)run - 1; lit--) {
		view_program_draw(g, (struct grid_rect){ 0, 0, 100, 60 }, p, lit, true);
		ck_assert_int_ge(row_with(g, "! runs a program", row, sizeof row), 0);
		for (int y = 1; y < 59; y++) {
			long line;
			grid_row_text(g, y, row, sizeof row);
			if (sscanf(row + 1, "%ld", &line) != 1)
				continue;
			bool in_run = (size_t)line > p->first[run] && (size_t)line <= p->last[run];
			ck_assert_msg((row[4] == '!') == in_run, "line %ld: %s", line, row);
			if (in_run) {
				ck_assert_int_eq(grid_at(g, 4, y)->style, GS_ERROR);
				marked++;
			}
		}
	}
	ck_assert_uint_eq(marked, 2 * (p->last[run] - p->first[run]));
	view_program_draw(g, (struct grid_rect){ 0, 0, 100, 60 }, q, 1, true);
	ck_assert_int_lt(row_with(g, "! runs a program", row, sizeof row), 0);
	grid_free(g);
	program_free(p);
	program_free(q);
	load_scenario_free(s);
	load_scenario_free(plain);
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
	tcase_add_test(tc, test_pane_wraps_every_line);
	tcase_add_test(tc, test_program_long);
	tcase_add_test(tc, test_program_long_names);
	tcase_add_test(tc, test_program_pair_names);
	tcase_add_test(tc, test_pane_draw);
	tcase_add_test(tc, test_pane_layout);
	tcase_add_test(tc, test_ctext);
	tcase_add_test(tc, test_pane_hostile);
	tcase_add_test(tc, test_program_runs);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(program_suite());
}
