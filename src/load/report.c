/* SPDX-License-Identifier: MIT */
/* report.c: the loader's error lines ("PATH:LINE:COL: message") and their hints. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"
#include "base/text.h"

/* Append one "PATH:LINE:COL: message" line. */
void
scenario_report_error(struct scn_load *ld, int line, int col, const char *fmt, ...)
{
	/* Room for a whole message with every byte escaped ("\xNN" is 4 bytes for 1). */
	char msg[1024], safe[4 * sizeof msg], where[1024];
	va_list ap;
	int n;

	ld->n_err++;
	if (ld->n_err > SCN_MAX_ERRORS || ld->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* A message is one line: a newline in quoted user text would break the format. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	/*
	 * The one place a loader message is finished: it quotes the scenario's own bytes (an
	 * unknown key, a value, the file's name), and none of them may act on the terminal
	 * that --check or a failed load prints to.
	 */
	text_safe(msg, TEXT_LINE, safe, sizeof safe);
	text_safe(ld->path, TEXT_LINE, where, sizeof where);
	n = snprintf(NULL, 0, "%s:%d:%d: %s\n", where, line < 1 ? 1 : line,
		     col < 1 ? 1 : col, safe);
	if (n < 0)
		return;
	if (ld->err_len + (size_t)n + 1 > ld->err_cap) {
		size_t cap = (ld->err_cap + (size_t)n + 1) * 2;
		char *p = realloc(ld->err, cap);
		if (p == NULL) {
			ld->oom = true;
			return;
		}
		ld->err = p;
		ld->err_cap = cap;
	}
	snprintf(ld->err + ld->err_len, ld->err_cap - ld->err_len, "%s:%d:%d: %s\n", where,
		 line < 1 ? 1 : line, col < 1 ? 1 : col, safe);
	ld->err_len += (size_t)n;
}

/* Edit distance of two short words (for "did you mean"). */
static size_t
scenario_report_distance(const char *a, const char *b)
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
scenario_report_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bd = 3 + strlen(word) / 8; /* longer words may be further off */

	for (size_t i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		size_t d = scenario_report_distance(word, names[i]);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

/* Append WORD to the text in buf, after SEP unless buf is empty. */
void
scenario_report_append(char *buf, size_t len, const char *sep, const char *word)
{
	size_t off = strlen(buf);

	if (off < len)
		snprintf(buf + off, len - off, "%s%s", off ? sep : "", word);
}

/* Write "a, b, c" (the names of a table) into buf. */
const char *
scenario_report_names(const struct scn_name *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; t[i].name != NULL; i++)
		scenario_report_append(buf, len, ", ", t[i].name);
	return buf;
}
