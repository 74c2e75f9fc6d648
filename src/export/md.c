/* SPDX-License-Identifier: MIT */
/* export/md.c: a sweep as Markdown for a course page: a title, the header, a table per
 * variant with one unit (seconds for file_size) and no empty column, the notes. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/sweep.h"
#include "table/print.h"
#include "base/units.h"

/* Cells of one table kept to drop its empty columns: cells[row * n_cols + col]. */
struct sweep_md_table {
	const struct sweep_print_col *col[64];
	struct sweep_print_at at[64];     /* per column: what its cells are drawn from */
	size_t n_cols, n_rows;            /* rows: the header line, then one per buffer size */
	char (*cells)[160];
};

/* True if c is a letter or a digit (ASCII): an underscore between two is not emphasis. */
static bool
sweep_md_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* True if c is a space or a tab. */
static bool
sweep_md_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Where text (its first character that is not blank, at p) would start a block if a line
 * started there: "#", ">", "-", "+" or "=" before a blank, the end or itself ("---" a rule,
 * "===" a heading's underline), or the "." or ")" after digits before a blank or the end. Every
 * text here follows our own "- ", "> ", "| " or "**", and after "- " or "> " a heading, a
 * quote or a list would start. The character to escape there, or NULL. */
static const char *
sweep_md_block(const char *p)
{
	const char *d = p;

	if (*p == '#' || *p == '>')
		return p;
	if (*p != '\0' && strchr("-+=", *p) != NULL)
		return sweep_md_blank(p[1]) || p[1] == '\0' || p[1] == *p ? p : NULL;
	while (*d >= '0' && *d <= '9')
		d++;
	return d > p && (*d == '.' || *d == ')') && (sweep_md_blank(d[1]) || d[1] == '\0') ? d :
	    NULL;
}

/* True if the three characters before p (from text on) are "www", in any case. */
static bool
sweep_md_www(const char *text, const char *p)
{
	if (p - text < 3)
		return false;
	for (int i = 1; i <= 3; i++)
		if (p[-i] != 'w' && p[-i] != 'W')
			return false;
	return true;
}

/*
 * Text (already made safe by base/text.c) for Markdown: whatever could make Markdown or HTML of
 * it escaped, so that a scenario's string stays text on the page: "\", "`", "*", "~", "|" and
 * "[" always, "_" where it could start or end emphasis, "<" that could start a tag ("&lt;"),
 * "&" that could start an entity ("&amp;"), the first character that is not blank if it would
 * start a block (a heading, a quote, a list). And no autolink of GitHub-flavoured Markdown
 * (cmark-gfm's autolink extension, which links bare text): the ":" of "://" ("http\://") and
 * the "." of "www." ("www\.") are escaped, which the text shows as they were; an "@" is
 * followed by U+2060 WORD JOINER ("&#8288;", invisible), as the extension finds e-mail addresses
 * (and mailto:, xmpp:) in the text after escapes and entities are read, where only a character
 * between "@" and the domain breaks them. A table's cell (cell true) starts no block: its
 * first character is left as it is ("-" stays "-"). Into buf; return buf.
 */
static char *
sweep_md_escape_in(const char *text, char *buf, size_t len, bool cell)
{
	size_t o = 0;
	const char *lead = text;

	while (sweep_md_blank(*lead))
		lead++;
	lead = cell ? NULL : sweep_md_block(lead);
	for (const char *p = text; *p != '\0' && o + 10 < len; p++) {
		bool tag = *p == '<' && p[1] != '\0' &&
		    (sweep_md_alnum(p[1]) || strchr("/!?", p[1]) != NULL);
		bool ent = *p == '&' && (sweep_md_alnum(p[1]) || p[1] == '#');
		bool under = *p == '_' && !(p > text && sweep_md_alnum(p[-1]) && sweep_md_alnum(p[1]));
		if (tag || ent) {
			o += (size_t)snprintf(buf + o, len - o, "%s", tag ? "&lt;" : "&amp;");
			continue;
		}
		bool block = p == lead;
		bool url = (*p == ':' && p[1] == '/' && p[2] == '/') ||
		    (*p == '.' && sweep_md_www(text, p));
		if (under || block || url || (*p != '\0' && strchr("\\`*~|[", *p) != NULL))
			buf[o++] = '\\';
		buf[o++] = *p;
		if (*p == '@' && p[1] != '\0')
			o += (size_t)snprintf(buf + o, len - o, "%s", "&#8288;");
	}
	buf[o] = '\0';
	return buf;
}

/* Text for Markdown where a line could start (after "- ", "> ", "## " or "**"). */
static char *
sweep_md_escape(const char *text, char *buf, size_t len)
{
	return sweep_md_escape_in(text, buf, len, false);
}

/* True if a cell says nothing ("", "-"): a column of only such cells is left out. */
static bool
sweep_md_empty(const char *cell)
{
	return cell[0] == '\0' || strcmp(cell, "-") == 0;
}

/* Add the columns of cols shown for at to t. */
static void
sweep_md_add(struct sweep_md_table *t, const struct sweep_print_col *cols, size_t n,
    const struct sweep_print_at *at)
{
	for (size_t i = 0; i < n && t->n_cols < sizeof t->col / sizeof t->col[0]; i++) {
		if (cols[i].shown != NULL && !cols[i].shown(at))
			continue;
		t->col[t->n_cols] = &cols[i];
		t->at[t->n_cols++] = *at;
	}
}

/* Variant v's table: its columns and those of the references beside it, without the empty. */
static int
sweep_md_variant(FILE *f, const struct sweep_result *r, size_t v)
{
	const struct scn_sweep *sw = r->sw;
	const struct sweep_variant *bv = &r->variants[v];
	struct sweep_print_at at = { .r = r, .seconds = true };
	struct sweep_md_table t = { .n_rows = bv->n_rows + 1 };
	bool keep[64];
	char md[400];

	sweep_md_add(&t, sweep_cols_md, sweep_cols_md_n, &at);
	for (size_t q = 0; q < sw->n_references; q++) {
		if (!sweep_ref_matches(r, &sw->references[q], v))
			continue;
		at.ref = &sw->references[q];
		sweep_md_add(&t, sweep_cols_md_ref, sweep_cols_md_ref_n, &at);
	}
	if ((t.cells = calloc(t.n_rows * t.n_cols, sizeof *t.cells)) == NULL)
		return -1;
	for (size_t c = 0; c < t.n_cols; c++) {
		keep[c] = c == 0;   /* BUF_SIZE always: it names the rows */
		for (size_t i = 0; i < t.n_rows; i++) {
			char *cell = t.cells[i * t.n_cols + c];
			t.at[c].row = i > 0 ? &bv->rows[i - 1] : NULL;
			sweep_print_col_text(t.col[c], &t.at[c], cell, sizeof t.cells[0]);
			if (i > 0 && !sweep_md_empty(cell))
				keep[c] = true;
		}
	}
	for (size_t i = 0; i < t.n_rows; i++) {
		fputc('|', f);
		for (size_t c = 0; c < t.n_cols; c++)
			if (keep[c])
				fprintf(f, " %s |", sweep_md_escape_in(t.cells[i * t.n_cols + c], md,
				    sizeof md, true));
		fputc('\n', f);
		if (i > 0)
			continue;
		fputc('|', f);
		for (size_t c = 0; c < t.n_cols; c++)
			if (keep[c])
				fputs(t.col[c]->flags & SWEEP_COL_FIGURE ? "---:|" : "---|", f);
		fputc('\n', f);
	}
	free(t.cells);
	return 0;
}

/* Print the lines of text (made safe already), each after lead and escaped for Markdown. */
static void
sweep_md_lines(FILE *f, const char *text, const char *lead)
{
	char line[1200], md[4800];

	while (*text != '\0') {
		size_t n = strcspn(text, "\n");
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), text);
		fprintf(f, "%s%s\n", lead, sweep_md_escape(line, md, sizeof md));
		text += n + (text[n] == '\n');
	}
}

/* Run fn's lines through a memory stream, then print them for Markdown after lead. */
#define SWEEP_MD_LINES(f, lead, call) do { \
	char *text_ = NULL; \
	size_t len_ = 0; \
	FILE *m = open_memstream(&text_, &len_); \
	if (m != NULL) { \
		call; \
		fclose(m); \
		sweep_md_lines((f), text_ != NULL ? text_ : "", (lead)); \
	} \
	free(text_); \
} while (0)

/* Markdown: a title line, the header, then per variant its table and notes. */
int
sweep_md_print(FILE *f, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;
	char t[256], md[1200], busy[512], name[512], sz[32], sz2[32], l[96];

	fprintf(f, "## %s\n\n", sweep_md_escape(sweep_cols_safe(sw->title != NULL ? sw->title :
	    "Sweep", t, sizeof t), md, sizeof md));
	SWEEP_MD_LINES(f, "- ", sweep_print_header(m, r, "", false));
	if (r->note[0])
		SWEEP_MD_LINES(f, "- Note: ", fputs(r->note, m));
	if (r->busy.busy)
		fprintf(f, "\n> **%s**\n", sweep_md_escape(sweep_print_busy(r, busy, sizeof busy), md,
		    sizeof md));
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];

		fprintf(f, "\n**%s** (times in seconds, for %s)\n\n", sweep_md_escape(
		    sweep_print_variant_name(bv, name, sizeof name), md, sizeof md),
		    units_format_size_round(sw->file_size, sz, sizeof sz));
		if (sweep_md_variant(f, r, v) != 0)
			return -1;
		fputc('\n', f);
		SWEEP_MD_LINES(f, "> ", sweep_print_warnings(m, r, bv, ""));
		for (size_t q = 0; q < sw->n_references; q++) {
			const struct scn_reference *ref = &sw->references[q];
			if (!sweep_ref_matches(r, ref, v) || !sweep_cols_resized(r, ref))
				continue;
			fprintf(f, "> \"%s\" moved %s: its times are scaled ×%.3g to %s.\n",
			    sweep_md_escape(sweep_cols_label(ref, l, sizeof l), md, sizeof md),
			    units_format_size_round(ref->total_bytes, sz, sizeof sz),
			    sweep_cols_ref_scale(r, ref), units_format_size_round(sw->file_size, sz2,
			    sizeof sz2));
		}
	}
	if (sweep_print_scaled(r))
		fputs("\n> Scaled rows ran on fewer bytes than file_size: their times, user, sys and "
		    "syscalls are extrapolated (fixed + (measured - fixed) x scale, the fixed part "
		    "counted once).\n", f);
	return ferror(f) ? -1 : 0;
}
