/* SPDX-License-Identifier: MIT */
/* report.c: the loader's error lines ("PATH:LINE:COL: message") and their hints. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "load/load-int.h"
#include "base/text.h"

/* Keep the line "PATH:LINE:COL: message" of an error at LINE:COL (sorted when finished). */
static void
load_report_keep(struct scn_load *ld, int line, int col, const char *msg)
{
	char *safe, *where;
	struct scn_report_line *l;
	int n;

	if (ld->n_lines == ld->lines_cap) {
		struct scn_report_line *p = grow(ld->lines, &ld->lines_cap, ld->n_lines, sizeof *p, 16);
		if (p == NULL) {
			ld->oom = true;
			return;
		}
		ld->lines = p;
	}
	/*
	 * The one place a loader message is finished: it quotes the scenario's own bytes (an
	 * unknown key, a value, the file's name), and none of them may act on the terminal
	 * that --check or a failed load prints to.
	 */
	safe = text_safe_dup(msg, TEXT_LINE);
	where = text_safe_dup(ld->path, TEXT_LINE);
	l = &ld->lines[ld->n_lines];
	l->line = line < 1 ? 1 : line;
	l->col = col < 1 ? 1 : col;
	l->seq = ld->n_lines;
	n = safe != NULL && where != NULL ?
	    asprintf(&l->text, "%s:%d:%d: %s\n", where, l->line, l->col, safe) : -1;
	free(safe);
	free(where);
	if (n < 0) {
		ld->oom = true;
		return;
	}
	ld->n_lines++;
}

/* Count an error at LINE:COL and keep it, unless SCN_KEPT_ERRORS are kept already. */
static void
load_report_v(struct scn_load *ld, int line, int col, const char *fmt, va_list ap)
{
	struct text_buf msg = { 0 };

	ld->n_err++;
	if (ld->n_lines >= SCN_KEPT_ERRORS || ld->oom)
		return;
	text_vaddf(&msg, fmt, ap);
	if (msg.nomem) {
		ld->oom = true;
		text_buf_free(&msg);
		return;
	}
	/* A message is one line: a newline in quoted user text would break the format. */
	for (size_t i = 0; i < msg.len; i++)
		if (msg.s[i] == '\n' || msg.s[i] == '\r')
			msg.s[i] = ' ';
	load_report_keep(ld, line, col, text_str(&msg));
	text_buf_free(&msg);
}

/* qsort: by line, then column, then the order reported. */
static int
load_report_cmp(const void *a, const void *b)
{
	const struct scn_report_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The errors to show, in the order they are written in the file. */
void
load_report_finish(struct scn_load *ld)
{
	size_t shown = ld->n_lines < SCN_MAX_ERRORS ? ld->n_lines : SCN_MAX_ERRORS, len = 0;
	int more = ld->n_err - (int)shown;
	FILE *m;

	free(ld->err);
	ld->err = NULL;
	if (ld->n_lines > 0)
		qsort(ld->lines, ld->n_lines, sizeof *ld->lines, load_report_cmp);
	if (!ld->oom && shown > 0 && (m = open_memstream(&ld->err, &len)) != NULL) {
		for (size_t i = 0; i < shown; i++)
			fputs(ld->lines[i].text, m);
		/* Said at the first one not shown: where to look after fixing those above. */
		if (more > 0) {
			const struct scn_report_line *next =
				&ld->lines[shown < ld->n_lines ? shown : shown - 1];
			text_fput(ld->path, TEXT_LINE, m);
			fprintf(m, ":%d:%d: %d more error%s from here on (the first %d are shown)\n",
				next->line, next->col, more, more == 1 ? "" : "s", SCN_MAX_ERRORS);
		}
		if (fclose(m) != 0) {
			free(ld->err);
			ld->err = NULL;
		}
	}
	for (size_t i = 0; i < ld->n_lines; i++)
		free(ld->lines[i].text);
	free(ld->lines);
	ld->lines = NULL;
	ld->n_lines = ld->lines_cap = 0;
}

/* Append one "PATH:LINE:COL: message" line. */
void
load_report_error(struct scn_load *ld, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	load_report_v(ld, line, col, fmt, ap);
	va_end(ap);
}

/* Index of node N in the load's tree, or -1 (NULL, or not of it). */
static long
load_report_index(const struct scn_load *ld, const struct yamlpos_node *n)
{
	if (n == NULL || ld->ix == NULL || ld->marks == NULL || n < ld->ix->nodes ||
	    n >= ld->ix->nodes + ld->ix->n)
		return -1;
	return (long)(n - ld->ix->nodes);
}

/* An error at node N's value or key. */
void
load_report_at(struct scn_load *ld, const struct yamlpos_node *n, bool key,
		   const char *fmt, ...)
{
	long i = load_report_index(ld, n);
	va_list ap;

	if (i >= 0 && ld->shaping) {
		ld->marks[i] |= SCN_MARK_BAD;
	} else if (i >= 0 && ld->marks[i] != 0) {
		ld->n_quiet++;
		return;
	}
	va_start(ap, fmt);
	load_report_v(ld, n == NULL ? 1 : key ? n->key_line : n->line,
			  n == NULL ? 1 : key ? n->key_col : n->col, fmt, ap);
	va_end(ap);
}

/* Take out of the tree what the shape check reported. */
void
load_report_prune(struct scn_load *ld, struct yamlpos *ix, const struct yamlpos_node *steps)
{
	long s = load_report_index(ld, steps);

	for (size_t i = 0; ld->marks != NULL && i < ix->n; i++) {
		long p = ix->nodes[i].parent;
		if (!(ld->marks[i] & SCN_MARK_BAD) || p < 0)
			continue;
		if (p == s) {
			/* A step stays, empty: "step N has no op" is then not said. */
			yamlpos_empty(ix, (long)i);
			ld->marks[i] |= SCN_MARK_INCOMPLETE;
			continue;
		}
		/* A list's entries that are left stay in step with what libcyaml maps. */
		yamlpos_unlink(ix, (long)i);
		ld->marks[p] |= SCN_MARK_INCOMPLETE;
	}
}

/* Edit distance of two short words (for "did you mean"). */
static size_t
load_report_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest of N names to WORD if it is close enough, else NULL. */
const char *
load_report_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bd = 3 + strlen(word) / 8; /* longer words may be further off */

	for (size_t i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		size_t d = load_report_distance(word, names[i]);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

/* Append WORD to the text in buf, after SEP unless buf is empty. */
void
load_report_append(char *buf, size_t len, const char *sep, const char *word)
{
	size_t off = strlen(buf);

	if (off < len)
		snprintf(buf + off, len - off, "%s%s", off ? sep : "", word);
}

/* Write "a, b, c" (the names of a table) into buf. */
const char *
load_report_names(const struct scn_name *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; t[i].name != NULL; i++)
		load_report_append(buf, len, ", ", t[i].name);
	return buf;
}
