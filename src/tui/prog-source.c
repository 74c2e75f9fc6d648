/* SPDX-License-Identifier: MIT */
/* tui/prog-source.c: a traced program's own source file in the program pane, read once
 * (read-only, bounded), the shown step's line lit: the line its DWARF says made the step. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/prog-source.h"

/* Forget the file read. */
static void
prog_source_drop(struct prog_source *s)
{
	free(s->text);
	free(s->p.lines);
	s->text = NULL;
	s->p.lines = NULL;
	s->p.n_lines = 0;
}

/* Read path into s, a line each (control bytes but tabs shown as '?'). 0, or -1. */
static int
prog_source_read(struct prog_source *s, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, lines = 1, k = 0;
	char *t;

	prog_source_drop(s);
	snprintf(s->path, sizeof s->path, "%s", path);
	s->failed = true;
	if (f == NULL)
		return -1;
	t = malloc(PROG_SOURCE_MAX + 1);
	if (t != NULL)
		n = fread(t, 1, PROG_SOURCE_MAX, f);
	fclose(f);
	if (t == NULL)
		return -1;
	t[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (t[i] == '\n')
			lines++;
	s->p.lines = calloc(lines, sizeof *s->p.lines);
	if (s->p.lines == NULL) {
		free(t);
		return -1;
	}
	s->text = t;
	s->p.lines[k++] = t;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '\n') {
			t[i] = '\0';
			if (i + 1 < n)
				s->p.lines[k++] = t + i + 1;
		} else if ((unsigned char)t[i] < 0x20 && t[i] != '\t') {
			t[i] = '?';
		}
	}
	s->p.n_lines = k;
	s->failed = false;
	return 0;
}

/* Room for n steps' marks. 0, or -1. */
static int
prog_source_room(struct prog_source *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	size_t *a = realloc(s->p.first, n * sizeof *a), *b;
	if (a == NULL)
		return -1;
	s->p.first = a;
	b = realloc(s->p.last, n * sizeof *b);
	if (b == NULL)
		return -1;
	s->p.last = b;
	bool *r = realloc(s->p.runs, n * sizeof *r);
	if (r == NULL)
		return -1;
	s->p.runs = r;
	s->cap = n;
	return 0;
}

const struct program *
prog_source_update(struct prog_source *s, struct prog_run_step *const *steps, size_t n,
                   long cur)
{
	const struct prog_src *src = cur >= 0 && (size_t)cur < n ? &steps[cur]->ps.src : NULL;

	if (src != NULL && src->line > 0 && src->file[0] != '\0' && strcmp(src->file, s->path) != 0)
		prog_source_read(s, src->file);
	if (s->failed || s->p.n_lines == 0 || prog_source_room(s, n > 0 ? n : 1) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct prog_src *x = &steps[i]->ps.src;
		bool here = x->line > 0 && x->line <= s->p.n_lines && strcmp(x->file, s->path) == 0;
		s->p.first[i] = here ? x->line - 1 : s->p.n_lines;
		s->p.last[i] = here ? x->line : s->p.n_lines;
		s->p.runs[i] = false;
	}
	s->p.n_steps = n;
	return &s->p;
}

void
prog_source_free(struct prog_source *s)
{
	prog_source_drop(s);
	free(s->p.first);
	free(s->p.last);
	free(s->p.runs);
	memset(s, 0, sizeof *s);
}
