/* SPDX-License-Identifier: MIT */
/* print.c: a sweep's results for people: its table (text, Markdown, compact), progress. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/print.h"
#include "trace/decode.h"
#include "scenario/names.h"
#include "base/text.h"
#include "base/units.h"

/* The text of column c: its title on the header line (at->row NULL), else its cell. */
static void
sweep_print_col_text(const struct sweep_print_col *c, const struct sweep_print_at *at,
    char *buf, size_t len)
{
	if (at->row == NULL && c->title != NULL)
		snprintf(buf, len, "%s", at->ascii && c->ascii_title ? c->ascii_title : c->title);
	else if (at->row != NULL && at->row->n_runs == 0 && (c->flags & SWEEP_COL_RUNS))
		snprintf(buf, len, "%s", "");
	else
		c->cell(at, buf, len);
}

/* How sweep_print_cols writes a line. */
enum sweep_print_form {
	SWEEP_PRINT_FORM_TEXT,             /* padded to the columns' widths */
	SWEEP_PRINT_FORM_MD,               /* Markdown cells */
	SWEEP_PRINT_FORM_MD_ALIGN,         /* the Markdown alignment row */
	SWEEP_PRINT_FORM_MEASURE,          /* no output: widen widths[] to the cells' widths */
};

/* Display widths of a text table's columns, measured over its lines. */
struct sweep_print_widths {
	int w[64];
};

/* Markdown: a cell's text with | escaped (text_safe has escaped the rest). */
static void
sweep_print_md_cell(const char *text, char *buf, size_t len)
{
	size_t o = 0;

	for (; *text != '\0' && o + 3 < len; text++) {
		if (*text == '|')
			buf[o++] = '\\';
		buf[o++] = *text;
	}
	buf[o] = '\0';
}

/*
 * Append to line (len bytes, pos used) the n columns of cols shown for at (its header line
 * when at->row is NULL), in form. Return the new pos.
 */
static size_t
sweep_print_cols(char *line, size_t len, size_t pos, const struct sweep_print_col *cols,
    size_t n, const struct sweep_print_at *at, enum sweep_print_form form,
    struct sweep_print_widths *ws, size_t *k)
{
	struct sweep_print_at head = *at;
	char text[160], title[160], md[320];

	head.row = NULL;
	for (size_t i = 0; i < n && pos < len; i++) {
		const struct sweep_print_col *c = &cols[i];
		bool right = c->flags & SWEEP_COL_RIGHT, rule = c->flags & SWEEP_COL_RULE;
		int width, pad;
		if (c->shown != NULL && !c->shown(at))
			continue;
		if (form == SWEEP_PRINT_FORM_MD_ALIGN) {
			pos += (size_t)snprintf(line + pos, len - pos, "%s|",
			    c->flags & SWEEP_COL_FIGURE ? "---:" : "---");
			continue;
		}
		sweep_print_col_text(c, at, text, sizeof text);
		if (form == SWEEP_PRINT_FORM_MD) {
			sweep_print_md_cell(text, md, sizeof md);
			pos += (size_t)snprintf(line + pos, len - pos, " %s |", md);
			continue;
		}
		sweep_print_col_text(c, &head, title, sizeof title);
		width = c->width > text_width(title) ? c->width : text_width(title);
		/* A table measured first: every cell of the column fits, none pushes the next. */
		if (ws != NULL && *k < sizeof ws->w / sizeof ws->w[0]) {
			int tw = text_width(text);
			if (form == SWEEP_PRINT_FORM_MEASURE) {
				if (tw > ws->w[*k])
					ws->w[*k] = tw;
				(*k)++;
				continue;
			}
			if (c->width > 0 && ws->w[*k] > width)
				width = ws->w[*k];
			(*k)++;
		}
		pad = c->width > 0 ? width - text_width(text) : 0;
		pos += (size_t)snprintf(line + pos, len - pos, "%*s%s%s%*s%s%*s", c->gap, "",
		    rule ? (at->ascii ? "|" : "│") : "", rule ? " " : "", right && pad > 0 ? pad : 0,
		    "", text, !right && pad > 0 ? pad : 0, "");
	}
	return pos < len ? pos : len - 1;
}

/* Number of columns of a table. */

/*
 * One line of variant v's full table into line (the header line when at->row is NULL): the
 * columns, then those of each reference that stands beside v; as text or Markdown.
 */
static void
sweep_print_table_line(char *line, size_t len, const struct sweep_print_at *at, size_t v,
    enum sweep_print_form form, struct sweep_print_widths *ws)
{
	const struct scn_sweep *sw = at->r->sw;
	struct sweep_print_at ref = *at;
	bool text = form == SWEEP_PRINT_FORM_TEXT || form == SWEEP_PRINT_FORM_MEASURE;
	const struct sweep_print_col *refc = text ? sweep_cols_text_ref :
	    sweep_cols_md_ref;
	size_t nrefc = text ? sweep_cols_text_ref_n :
	    sweep_cols_md_ref_n;
	size_t pos = (size_t)snprintf(line, len, "%s", text ? "" : "|"), k = 0;

	pos = sweep_print_cols(line, len, pos, sweep_cols_full,
	    sweep_cols_full_n, at, form, ws, &k);
	for (size_t k = 0; k < sw->n_references; k++) {
		if (!sweep_ref_matches(at->r, &sw->references[k], v))
			continue;
		ref.ref = &sw->references[k];
		pos = sweep_print_cols(line, len, pos, refc, nrefc, &ref, form, ws, &k);
	}
}

/* Print variant v's full table: its header line, (Markdown) the alignment row, its rows. */
static void
sweep_print_variant(FILE *f, struct sweep_print_at *at, size_t v, bool md)
{
	const struct sweep_variant *bv = &at->r->variants[v];
	struct sweep_print_widths ws;
	char line[4096];

	memset(&ws, 0, sizeof ws);
	for (size_t i = 0; i <= bv->n_rows && !md; i++) {
		at->row = i > 0 ? &bv->rows[i - 1] : NULL;
		sweep_print_table_line(line, sizeof line, at, v, SWEEP_PRINT_FORM_MEASURE, &ws);
	}
	for (size_t i = 0; i <= bv->n_rows; i++) {
		at->row = i > 0 ? &bv->rows[i - 1] : NULL;
		sweep_print_table_line(line, sizeof line, at, v, md ? SWEEP_PRINT_FORM_MD :
		    SWEEP_PRINT_FORM_TEXT, md ? NULL : &ws);
		/* Text: the padding of the last column is not needed. */
		for (size_t e = strlen(line); !md && e > 0 && line[e - 1] == ' '; e--)
			line[e - 1] = '\0';
		fprintf(f, "%s\n", line);
		if (i == 0 && md) {
			sweep_print_table_line(line, sizeof line, at, v, SWEEP_PRINT_FORM_MD_ALIGN,
			    NULL);
			fprintf(f, "%s\n", line);
		}
	}
}

/* The header lines shared by text and Markdown (ours: the text has "ours@" columns). */
static void
sweep_print_header(FILE *f, const struct sweep_result *r, const char *lead, bool ours)
{
	const struct scn_sweep *sw = r->sw;
	char sz[32], t[256], l[96], src[512];
	bool reads = sweep_prog_reads(sw->program);

	fprintf(f, "%s%s%s%s: program %s, %s per run, %s, %u runs after %u warm-up%s, "
	    "budget %.3g s per row\n", lead, "Sweep", sw->title ? " " : "",
	    sweep_cols_safe(sw->title, t, sizeof t),
	    scenario_names_of(scn_programs, (int)sw->program),
	    units_format_size_round(sw->file_size, sz, sizeof sz),
	    !reads ? "a new file each run" : sw->cache == SCN_CACHE_COLD ? "cold cache" :
	    "warm cache", r->repeat, r->warmup, r->warmup == 1 ? "" : "s", r->budget);
	fprintf(f, "%sThis machine: %s, %s, %s", lead, r->machine, r->cpu[0] ? r->cpu : "cpu ?",
	    r->kernel);
	for (size_t v = 0; v < r->n_variants; v++) {
		bool dup = false;
		for (size_t u = 0; u < v; u++)
			dup = dup || strcmp(r->variants[u].fs, r->variants[v].fs) == 0;
		if (!dup)
			fprintf(f, ", %s", r->variants[v].fs);
	}
	fputc('\n', f);
	for (size_t i = 0; i < sw->n_references; i++) {
		const struct scn_reference *ref = &sw->references[i];
		fprintf(f, "%sReference \"%s\": %s", lead, sweep_cols_label(ref, l, sizeof l),
		    sweep_cols_safe(ref->source, src, sizeof src));
		if (ours && sweep_cols_resized(r, ref))
			fprintf(f, " (moved %s; column \"ours@%s\" scales our median by %.3g)",
			    units_format_size_round(ref->total_bytes, sz, sizeof sz), sz,
			    (double)ref->total_bytes / (double)sw->file_size);
		fputc('\n', f);
	}
}

/* Warnings and remarks under a variant's table, hyperfine style. */
static void
sweep_print_warnings(FILE *f, const struct sweep_result *r, const struct sweep_variant *bv,
    const char *lead)
{
	for (size_t i = 0; i < bv->n_rows; i++) {
		const struct sweep_row *row = &bv->rows[i];
		if (row->err)
			fprintf(f, "%sBUF %" PRIu64 ": %s\n", lead, row->buf_size, row->note);
		if (row->elapsed.first_slow)
			fprintf(f, "%sBUF %" PRIu64 ": the first run was much slower than the rest "
			    "(a cache or a disk waking up?)\n", lead, row->buf_size);
		else if (row->elapsed.n_outliers > 0)
			fprintf(f, "%sBUF %" PRIu64 ": %zu statistical outlier%s (modified Z-score "
			    "above %.3g)\n", lead, row->buf_size, row->elapsed.n_outliers,
			    row->elapsed.n_outliers == 1 ? "" : "s", STATS_OUTLIER_THRESHOLD);
		if (row->n_runs > 0 && row->cold == SWEEP_COLD_FAILED)
			fprintf(f, "%sBUF %" PRIu64 ": cold cache NOT achieved: pages stayed cached "
			    "after fsync + POSIX_FADV_DONTNEED\n", lead, row->buf_size);
	}
	if (bv->n_rows > 0 && bv->rows[0].n_runs > 0) {
		enum sweep_cold c = bv->rows[0].cold;
		if (c == SWEEP_COLD_VERIFIED)
			fprintf(f, "%sCache: cold before every run (fsync + POSIX_FADV_DONTNEED, "
			    "then %s saw 0 pages cached).\n", lead,
			    r->cold_probe[0] ? r->cold_probe : "the cache probe");
		else if (c == SWEEP_COLD_IMPOSSIBLE)
			fprintf(f, "%sCache: cold cache not possible on tmpfs (the file lives in the "
			    "page cache).\n", lead);
		else if (c == SWEEP_COLD_NA)
			fprintf(f, "%sCache: each run writes a new file.\n", lead);
	}
}

/* True if some row was scaled. */
static bool
sweep_print_scaled(const struct sweep_result *r)
{
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].n_runs > 0 && r->variants[v].rows[i].scale > 1.0000001)
				return true;
	return false;
}

/* True if some row's runs were short enough for getrusage's tick sampling to matter. */
static bool
sweep_print_short_runs(const struct sweep_result *r)
{
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].n_runs > 0 &&
			    r->variants[v].rows[i].elapsed.median < 0.02)
				return true;
	return false;
}

/* Append to buf (len bytes, *n used) as snprintf would, never past its end. */
static void
sweep_print_cat(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n + 1 >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

/* A variant's line above its table: its name (made safe), filesystem, device, flags, sync. */
static char *
sweep_print_variant_name(const struct sweep_variant *bv, char *buf, size_t len)
{
	char name[96], fl[48], dir[300];
	size_t n = 0;

	sweep_print_cat(buf, len, &n, "Variant \"%s\" on %s",
	    sweep_cols_safe(bv->v->name ? bv->v->name : "default", name, sizeof name), bv->fs);
	if (bv->dev[0] != '\0')
		sweep_print_cat(buf, len, &n, " (%s)", bv->dev);
	if (bv->given_dir[0] != '\0')
		sweep_print_cat(buf, len, &n, " under %s", sweep_cols_safe(bv->given_dir, dir,
		    sizeof dir));
	if (bv->v->flags)
		sweep_print_cat(buf, len, &n, ", open flags %s", decode_open_flag_bits(bv->v->flags,
		    fl, sizeof fl));
	if (bv->v->sync_each != SCN_SYNC_NONE)
		sweep_print_cat(buf, len, &n, ", %s after each write",
		    scenario_names_of(scn_sync_eachs, (int)bv->v->sync_each));
	return buf;
}

/*
 * Print s wrapped at spaces to width display columns, continuation lines indented by two;
 * a word longer than a line is cut. Newlines in s end lines.
 */
static void
sweep_print_wrap(FILE *f, const char *s, int width)
{
	int w = width;

	while (*s != '\0') {
		const char *p = s, *brk = NULL, *end;
		int cols = 0;

		while (*p != '\0' && *p != '\n' && cols < w) {
			if (*p == ' ')
				brk = p;
			p++;
			while (((unsigned char)*p & 0xC0) == 0x80)
				p++;
			cols++;
		}
		if (*p == '\0' || *p == '\n') {
			fwrite(s, 1, (size_t)(p - s), f);
			fputc('\n', f);
			s = *p == '\n' ? p + 1 : p;
			w = width;
			continue;
		}
		end = *p == ' ' ? p : brk != NULL && brk > s ? brk : p;
		fwrite(s, 1, (size_t)(end - s), f);
		fputs("\n  ", f);
		w = width - 2;
		for (s = end; *s == ' '; s++)
			;
	}
}

/* The header lines, wrapped to width. */
static void
sweep_print_header_wrapped(FILE *f, const struct sweep_result *r, int width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (m == NULL)
		return;
	sweep_print_header(m, r, "", false);
	if (r->note[0])
		fprintf(m, "Note: %s\n", r->note);
	fclose(m);
	sweep_print_wrap(f, text, width);
	free(text);
}

/* The full table: per variant every figure beside the books', then notes and the chart. */
static int
sweep_print_wide_text(FILE *f, const struct sweep_result *r, unsigned flags)
{
	struct sweep_print_at at = { .r = r, .ascii = flags & SWEEP_PRINT_ASCII };
	char name[512];

	sweep_print_header(f, r, "", true);
	if (r->note[0])
		fprintf(f, "Note: %s\n", r->note);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];

		fprintf(f, "\n%s (times for the whole file; scaled rows say so):\n",
		    sweep_print_variant_name(bv, name, sizeof name));
		sweep_print_variant(f, &at, v, false);
		sweep_print_warnings(f, r, bv, "");
	}
	if (sweep_print_scaled(r))
		fputs("\nScaled rows ran on fewer bytes than file_size. Their times, user, sys and "
		    "syscalls are\nfixed + (measured - fixed) x scale, where fixed (runs that move one "
		    "buffer: open, create,\nthe read that sees EOF, close) is counted once, as in one "
		    "whole run.\n", f);
	return 0;
}

/* Notes under the table that fits: what is extrapolated, and what "< 1 tick" means. */
static void
sweep_print_fit_notes(FILE *f, const struct sweep_result *r, int width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (m == NULL)
		return;
	fputs("Times, sys and syscalls are for the whole file.", m);
	if (sweep_print_scaled(r))
		fputs(" A row with a scale (x25 of 4 MiB) ran on fewer bytes: its median, sigma, sys "
		    "and syscalls are extrapolated as fixed + (measured - fixed) x scale, the fixed "
		    "part (a one-buffer run: open, the read that sees EOF, close) counted once.", m);
	fputs(" \"< 1 tick\": the runs used less CPU than one tick of the kernel's accounting, "
	    "too little to split between user and sys. --wide shows mean, min ... max, user and "
	    "the books' user and sys.\n", m);
	fclose(m);
	sweep_print_wrap(f, text, width);
	free(text);
}

static void sweep_print_compact_variant(FILE *f, const struct sweep_result *r, size_t v,
    int width, unsigned flags, bool full);

/* Text: a table that fits (or the full one with WIDE), notes, then the chart. */
int
sweep_print_text(FILE *f, const struct sweep_result *r, unsigned flags)
{
	int width = SWEEP_PRINT_COLUMNS;

	if (flags & SWEEP_PRINT_WIDE) {
		sweep_print_wide_text(f, r, flags);
		width = 78;
	} else {
		sweep_print_header_wrapped(f, r, width);
		for (size_t v = 0; v < r->n_variants; v++) {
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);
			if (m == NULL)
				return -1;
			fputc('\n', f);
			sweep_print_compact_variant(f, r, v, width, flags, true);
			sweep_print_warnings(m, r, &r->variants[v], "");
			fclose(m);
			sweep_print_wrap(f, text, width);
			free(text);
		}
		fputc('\n', f);
		sweep_print_fit_notes(f, r, width);
	}
	if (sweep_print_short_runs(r))
		sweep_print_wrap(f, "\nuser and sys come from getrusage(): the kernel splits a run's "
		    "CPU time between them by sampling at timer ticks, so for runs of a few ms the "
		    "split is unreliable (their sum is not).\n", width);
	if (!(flags & SWEEP_PRINT_NO_CHART)) {
		size_t n = 0;
		char **lines = sweep_chart_lines(r, width, flags, &n);
		fputc('\n', f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s\n", lines[i]);
		sweep_chart_free(lines, n);
	}
	fprintf(f, "(sweep took %.1f s of wall time, probes and file preparation included)\n",
	    r->wall);
	return ferror(f) ? -1 : 0;
}

/* Markdown: a header and one table per variant, for a course page. */
int
sweep_print_md(FILE *f, const struct sweep_result *r)
{
	struct sweep_print_at at = { .r = r };
	char name[512], md[1024];

	sweep_print_header(f, r, "- ", false);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];

		sweep_print_md_cell(sweep_print_variant_name(bv, name, sizeof name), md, sizeof md);
		fprintf(f, "\n**%s**\n\n", md);
		sweep_print_variant(f, &at, v, true);
		fputc('\n', f);
		sweep_print_warnings(f, r, bv, "> ");
	}
	if (sweep_print_scaled(r))
		fputs("\n> Scaled rows ran on fewer bytes than file_size: their times, user, sys and "
		    "syscalls are extrapolated (fixed + (measured - fixed) x scale, the fixed part "
		    "counted once).\n", f);
	return ferror(f) ? -1 : 0;
}

/* Print at most width columns of s (UTF-8 aware), then a newline. */
static void
sweep_print_clip(FILE *f, const char *s, int width)
{
	int cols = 0;

	for (; *s && *s != '\n'; s++) {
		if (((unsigned char)*s & 0xC0) != 0x80 && ++cols > width)
			break;
		fputc(*s, f);
	}
	fputc('\n', f);
}

/*
 * Variant v of the compact table, width columns: its name line (the full one when full,
 * else "on ext4" or "variant x (ext4)"), header, rows.
 */
static void
sweep_print_compact_variant(FILE *f, const struct sweep_result *r, size_t v, int width,
    unsigned flags, bool full)
{
	const struct scn_sweep *sw = r->sw;
	const struct sweep_variant *bv = &r->variants[v];
	const struct scn_reference *ref = NULL;
	struct sweep_print_at at = { .r = r, .ascii = flags & SWEEP_PRINT_ASCII,
	                             .wide = width >= 96 };
	size_t ncols = sweep_cols_compact_n, k = 0;
	char line[1024], name[96], sz[32], sz2[32], l[96];

	for (size_t q = 0; q < sw->n_references && ref == NULL; q++)
		if (sweep_ref_matches(r, &sw->references[q], v))
			ref = &sw->references[q];
	if (full)
		sweep_print_variant_name(bv, line, sizeof line);
	else if (r->n_variants > 1)
		snprintf(line, sizeof line, "variant %s (%s)", sweep_cols_safe(bv->v->name ?
		    bv->v->name : "default", name, sizeof name), bv->fs);
	else
		snprintf(line, sizeof line, "on %s", bv->fs);
	sweep_print_clip(f, line, width);
	at.ref = ref;
	for (size_t i = 0; i <= bv->n_rows; i++) {
		const struct sweep_row *row = i > 0 ? &bv->rows[i - 1] : NULL;
		size_t pos;

		at.row = row;
		at.short_scale = false;
		k = 0;
		if (row != NULL && row->n_runs == 0) {
			/* A row that did not run: BUF, then why. */
			pos = sweep_print_cols(line, sizeof line, 0, sweep_cols_compact, 1,
			    &at, SWEEP_PRINT_FORM_TEXT, NULL, &k);
			snprintf(line + pos, sizeof line - pos, "%*s%s",
			    sweep_cols_compact[1].gap, "", row->err ? row->note : "not run");
			sweep_print_clip(f, line, width);
			continue;
		}
		sweep_print_cols(line, sizeof line, 0, sweep_cols_compact, ncols, &at,
		    SWEEP_PRINT_FORM_TEXT, NULL, &k);
		/* Too wide: the scale alone ("×4711"), not a cut "×4711 of 21.4 K". */
		if (row != NULL && text_width(line) > width && row->scale > 1.0000001) {
			at.short_scale = true;
			k = 0;
			sweep_print_cols(line, sizeof line, 0, sweep_cols_compact, ncols, &at,
			    SWEEP_PRINT_FORM_TEXT, NULL, &k);
		}
		for (size_t e = strlen(line); e > 0 && line[e - 1] == ' '; e--)
			line[e - 1] = '\0';
		sweep_print_clip(f, line, width);
	}
	if (ref != NULL && sweep_cols_resized(r, ref)) {
		snprintf(line, sizeof line, "(\"%s\" moved %s: its times are scaled x%.3g to %s)",
		    sweep_cols_label(ref, l, sizeof l), units_format_size_round(ref->total_bytes, sz,
		    sizeof sz), sweep_cols_ref_scale(r, ref), units_format_size_round(sw->file_size,
		    sz2, sizeof sz2));
		sweep_print_clip(f, line, width);
	}
}

/* A compact table for a pane of width columns: median, spread, system CPU and system calls
 * (the lessons' narrations point at them; CPU only when wide enough), relative, book,
 * scaling. */
int
sweep_print_compact(FILE *f, const struct sweep_result *r, int width, unsigned flags)
{
	const struct scn_sweep *sw = r->sw;
	char line[512], sz[32];

	snprintf(line, sizeof line, "%s, %s; %s per run, %s", r->kernel, r->machine,
	    units_format_size_round(sw->file_size, sz, sizeof sz),
	    !sweep_prog_reads(sw->program) ? "new file each run" :
	    sw->cache == SCN_CACHE_COLD ? "cold cache" : "warm cache");
	sweep_print_clip(f, line, width);
	if (r->note[0])
		sweep_print_clip(f, r->note, width);
	for (size_t v = 0; v < r->n_variants; v++)
		sweep_print_compact_variant(f, r, v, width, flags, false);
	if (!(flags & SWEEP_PRINT_NO_CHART)) {
		size_t n = 0;
		char **lines = sweep_chart_lines(r, width, flags, &n);
		fputc('\n', f);
		for (size_t i = 0; i < n; i++)
			sweep_print_clip(f, lines[i], width);
		sweep_chart_free(lines, n);
	}
	return ferror(f) ? -1 : 0;
}

/* One line of progress. */
char *
sweep_print_progress(const struct sweep_progress *p, char *buf, size_t len)
{
	static const char *const phase[] = { "preparing input", "probing", "warm-up", "run",
		"done" };
	char sz[32], name[96];
	int n;

	n = snprintf(buf, len, "row %zu/%zu  %s  BUF %" PRIu64 "  %s", p->step, p->n_steps,
	    sweep_cols_safe(p->variant, name, sizeof name), p->buf_size, phase[p->phase]);
	if (n > 0 && (size_t)n < len && (p->phase == SWEEP_PHASE_RUN || p->phase == SWEEP_PHASE_WARMUP))
		n += snprintf(buf + n, len - (size_t)n, " %u/%u", p->run,
		    p->phase == SWEEP_PHASE_RUN ? p->n_runs : p->n_warmup);
	if (n > 0 && (size_t)n < len && p->bytes > 0)
		n += snprintf(buf + n, len - (size_t)n, "  %s/run",
		    units_format_size_round(p->bytes, sz, sizeof sz));
	if (n > 0 && (size_t)n < len && p->last_elapsed >= 0)
		snprintf(buf + n, len - (size_t)n, "  %.3f s", p->last_elapsed);
	return buf;
}
