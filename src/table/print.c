/* SPDX-License-Identifier: MIT */
/* table/print.c: a sweep's results for people: its table (text, compact), the busy warning,
 * progress; the parts of a table export/md.c shares. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/print.h"
#include "trace/decode.h"
#include "scenario/names.h"
#include "base/text.h"
#include "base/units.h"

/* The text of column c: its title on the header line (at->row NULL), else its cell. */
void
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
	SWEEP_PRINT_FORM_MEASURE,          /* no output: widen widths[] to the cells' widths */
};

/* Display widths of a text table's columns, measured over its lines. */
struct sweep_print_widths {
	int w[64];
};

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
	char text[160], title[160];

	head.row = NULL;
	for (size_t i = 0; i < n && pos < len; i++) {
		const struct sweep_print_col *c = &cols[i];
		bool right = c->flags & SWEEP_COL_RIGHT, rule = c->flags & SWEEP_COL_RULE;
		int width, pad;
		if (c->shown != NULL && !c->shown(at))
			continue;
		sweep_print_col_text(c, at, text, sizeof text);
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

/*
 * One line of variant v's full table into line (the header line when at->row is NULL): the
 * columns, then those of each reference that stands beside v.
 */
static void
sweep_print_table_line(char *line, size_t len, const struct sweep_print_at *at, size_t v,
    enum sweep_print_form form, struct sweep_print_widths *ws)
{
	const struct scn_sweep *sw = at->r->sw;
	struct sweep_print_at ref = *at;
	size_t pos = 0, k = 0;

	line[0] = '\0';
	pos = sweep_print_cols(line, len, pos, sweep_cols_full, sweep_cols_full_n, at, form, ws, &k);
	for (size_t q = 0; q < sw->n_references; q++) {
		if (!sweep_ref_matches(at->r, &sw->references[q], v))
			continue;
		ref.ref = &sw->references[q];
		pos = sweep_print_cols(line, len, pos, sweep_cols_text_ref, sweep_cols_text_ref_n, &ref,
		    form, ws, &k);
	}
}

/* Print variant v's full table: its header line, then its rows. */
static void
sweep_print_variant(FILE *f, struct sweep_print_at *at, size_t v)
{
	const struct sweep_variant *bv = &at->r->variants[v];
	struct sweep_print_widths ws;
	char line[4096];

	memset(&ws, 0, sizeof ws);
	for (size_t i = 0; i <= bv->n_rows; i++) {
		at->row = i > 0 ? &bv->rows[i - 1] : NULL;
		sweep_print_table_line(line, sizeof line, at, v, SWEEP_PRINT_FORM_MEASURE, &ws);
	}
	for (size_t i = 0; i <= bv->n_rows; i++) {
		at->row = i > 0 ? &bv->rows[i - 1] : NULL;
		sweep_print_table_line(line, sizeof line, at, v, SWEEP_PRINT_FORM_TEXT, &ws);
		/* The padding of the last column is not needed. */
		for (size_t e = strlen(line); e > 0 && line[e - 1] == ' '; e--)
			line[e - 1] = '\0';
		fprintf(f, "%s\n", line);
	}
}

/* The header lines shared by text and Markdown (ours: the text has "ours@" columns). */
void
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
void
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
		else if (c == SWEEP_COLD_WARM)
			fprintf(f, "%sCache: warm: the input as the sweep wrote it (64 KiB writes, then "
			    "fsync): clean, in the page cache since then, in the folios those writes "
			    "made; not a file read in from the disk, whose folios read-ahead sized.\n",
			    lead);
	}
}

/*
 * The busy machine's warning, one paragraph (no newline), or "" when it was quiet: what crossed
 * its line (the load, runs waiting for a CPU, outliers), with the figures. Return buf.
 */
char *
sweep_print_busy(const struct sweep_result *r, char *buf, size_t len)
{
	const struct sweep_busy *b = &r->busy;
	size_t n = 0;
	const char *sep = "";

	buf[0] = '\0';
	if (!b->busy)
		return buf;
	text_cat(buf, len, &n, "Busy machine: do not trust these times (");
	if (b->cpus > 0 && b->load_max > b->cpus) {
		text_cat(buf, len, &n, "the load average reached %.1f on %d CPU%s", b->load_max,
		    b->cpus, b->cpus == 1 ? "" : "s");
		sep = "; ";
	}
	if (b->rows_waiting > 0) {
		text_cat(buf, len, &n, "%sruns waited for a CPU up to %.0f%% of their time "
		    "(BUF %" PRIu64 "; %zu row%s %.0f%% or more)", sep, b->wait_max * 100, b->wait_buf,
		    b->rows_waiting, b->rows_waiting == 1 ? "" : "s", SWEEP_BUSY_WAIT * 100);
		sep = "; ";
	}
	if (b->rows_outliers > 0)
		text_cat(buf, len, &n, "%s%zu row%s with outlier runs, as hyperfine flags them",
		    sep, b->rows_outliers, b->rows_outliers == 1 ? "" : "s");
	text_cat(buf, len, &n, "): run it again on a quiet machine.");
	return buf;
}

/* True if some row was scaled. */
bool
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

/* A variant's line above its table: its name (made safe), filesystem, device, flags, sync. */
char *
sweep_print_variant_name(const struct sweep_variant *bv, char *buf, size_t len)
{
	char name[96], fl[48], dir[300];
	size_t n = 0;

	text_cat(buf, len, &n, "Variant \"%s\" on %s",
	    sweep_cols_safe(bv->v->name ? bv->v->name : "default", name, sizeof name), bv->fs);
	if (bv->dev[0] != '\0')
		text_cat(buf, len, &n, " (%s)", bv->dev);
	if (bv->given_dir[0] != '\0')
		text_cat(buf, len, &n, " under %s", sweep_cols_safe(bv->given_dir, dir,
		    sizeof dir));
	if (bv->v->flags)
		text_cat(buf, len, &n, ", open flags %s", decode_open_flag_bits(bv->v->flags,
		    fl, sizeof fl));
	if (bv->v->sync_each != SCN_SYNC_NONE)
		text_cat(buf, len, &n, ", %s after each write",
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

		/* Columns from wcwidth (base/text.c); never less than one character a line. */
		while (*p != '\0' && *p != '\n') {
			int len, cw = text_cp_width(text_decode(p, &len));
			if (cols + cw > w && p != s)
				break;
			if (*p == ' ')
				brk = p;
			p += len;
			cols += cw;
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
	if (r->busy.busy) {
		char busy[512];
		fprintf(m, "%s\n", sweep_print_busy(r, busy, sizeof busy));
	}
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

	char busy[512];

	sweep_print_header(f, r, "", true);
	if (r->note[0])
		fprintf(f, "Note: %s\n", r->note);
	if (r->busy.busy)
		sweep_print_wrap(f, sweep_print_busy(r, busy, sizeof busy), SWEEP_PRINT_COLUMNS);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];

		fprintf(f, "\n%s (times for the whole file; scaled rows say so):\n",
		    sweep_print_variant_name(bv, name, sizeof name));
		sweep_print_variant(f, &at, v);
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

/* Print at most width columns of s's first line, then a newline; a cut one ends in an
 * ellipsis ("..." when ascii), never inside a character. */
static void
sweep_print_clip(FILE *f, const char *s, int width, bool ascii)
{
	const char *ell = ascii ? "..." : "…";
	size_t n = strcspn(s, "\n"), k = text_fit(s, n, width, NULL);

	if (k < n)
		k = text_fit(s, n, width - text_width(ell), NULL);
	fwrite(s, 1, k, f);
	fputs(k < n ? ell : "", f);
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
	sweep_print_clip(f, line, width, flags & SWEEP_PRINT_ASCII);
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
			sweep_print_clip(f, line, width, flags & SWEEP_PRINT_ASCII);
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
		sweep_print_clip(f, line, width, flags & SWEEP_PRINT_ASCII);
	}
	/* A column of "< 1 tick" on every row is left out, and said why. */
	if (at.wide && !sweep_cols_sys_told(r))
		sweep_print_clip(f, "(sys left out: < 1 tick of system CPU on every row, too little "
		    "to measure)", width, flags & SWEEP_PRINT_ASCII);
	if (ref != NULL && sweep_cols_resized(r, ref)) {
		snprintf(line, sizeof line, "(\"%s\" moved %s: its times are scaled x%.3g to %s)",
		    sweep_cols_label(ref, l, sizeof l), units_format_size_round(ref->total_bytes, sz,
		    sizeof sz), sweep_cols_ref_scale(r, ref), units_format_size_round(sw->file_size,
		    sz2, sizeof sz2));
		sweep_print_clip(f, line, width, flags & SWEEP_PRINT_ASCII);
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
	sweep_print_clip(f, line, width, flags & SWEEP_PRINT_ASCII);
	if (r->note[0])
		sweep_print_clip(f, r->note, width, flags & SWEEP_PRINT_ASCII);
	if (r->busy.busy)
		sweep_print_wrap(f, sweep_print_busy(r, line, sizeof line), width);
	for (size_t v = 0; v < r->n_variants; v++)
		sweep_print_compact_variant(f, r, v, width, flags, false);
	if (!(flags & SWEEP_PRINT_NO_CHART)) {
		size_t n = 0;
		char **lines = sweep_chart_lines(r, width, flags, &n);
		fputc('\n', f);
		for (size_t i = 0; i < n; i++)
			sweep_print_clip(f, lines[i], width, flags & SWEEP_PRINT_ASCII);
		sweep_chart_free(lines, n);
	}
	return ferror(f) ? -1 : 0;
}

/* A time still to wait, for people: "40 s", "12 min", "1.5 h". Return buf. */
static char *
sweep_print_left(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
	return buf;
}

/* One line of progress, with the time left when a row is long enough to wait for. */
char *
sweep_print_progress(const struct sweep_progress *p, char *buf, size_t len)
{
	static const char *const phase[] = { "preparing input", "probing", "warm-up", "run",
		"done" };
	char sz[32], name[96], a[24], b[24];
	size_t n = 0;

	text_cat(buf, len, &n, "row %zu/%zu  %s  BUF %" PRIu64 "  %s", p->step, p->n_steps,
	    sweep_cols_safe(p->variant, name, sizeof name), p->buf_size, phase[p->phase]);
	if (p->phase == SWEEP_PHASE_RUN || p->phase == SWEEP_PHASE_WARMUP)
		text_cat(buf, len, &n, " %u/%u", p->run,
		    p->phase == SWEEP_PHASE_RUN ? p->n_runs : p->n_warmup);
	if (p->bytes > 0)
		text_cat(buf, len, &n, "  %s/run", units_format_size_round(p->bytes, sz,
		    sizeof sz));
	if (p->running >= 0)
		text_cat(buf, len, &n, "  going %.0f s", p->running);
	else if (p->last_elapsed >= 0)
		text_cat(buf, len, &n, "  %.3f s", p->last_elapsed);
	/* Time left once there is enough to wait for (a second or more). */
	if (p->row_left >= 1 || p->sweep_left >= 1) {
		text_cat(buf, len, &n, "  left:");
		if (p->row_left >= 1)
			text_cat(buf, len, &n, " row ~%s", sweep_print_left(p->row_left, a,
			    sizeof a));
		if (p->sweep_left >= 1)
			text_cat(buf, len, &n, "%s all ~%s", p->row_left >= 1 ? "," : "",
			    sweep_print_left(p->sweep_left, b, sizeof b));
	}
	return buf;
}
