/* SPDX-License-Identifier: MIT */
/* bench-print.c: a sweep's results for people: its table (text, Markdown, compact), progress. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-print.h"
#include "decode.h"
#include "grid.h"
#include "json.h"
#include "scenario-names.h"
#include "units.h"

/* One row of the table as strings, shared by the text and Markdown printers. */
struct bench_cells {
	char buf[24], median[24], meansd[48], range[48], user[24], sys[24], calls[32];
	char rel[32], scaling[96];
};

/* A duration with three significant figures ("107 s", "2.19 s", "4.51 ms", "850 µs"). */
static char *
bench_print_time(double s, bool ascii, char *buf, size_t len)
{
	static const struct { double div; const char *unit, *ascii; } u[] = {
		{ 1, "s", "s" }, { 1e-3, "ms", "ms" }, { 1e-6, "µs", "us" }, { 1e-9, "ns", "ns" },
	};
	size_t i = 0;
	double v;
	int dec;

	if (!isfinite(s) || s < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (s == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	while (i + 1 < sizeof u / sizeof u[0] && s < u[i].div)
		i++;
	v = s / u[i].div;
	dec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
	snprintf(buf, len, "%.*f %s", dec, v, ascii ? u[i].ascii : u[i].unit);
	return buf;
}

/* Print s padded to width columns, right- or left-aligned. */
static void
bench_print_pad(FILE *f, const char *s, int width, bool right)
{
	int pad = width - grid_text_width(s);

	if (right)
		fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(f, "%s%*s", s, pad > 0 ? pad : 0, "");
}

/* Fill the cells of one row: times extrapolated to file_size, the scaling spelled out. */
static void
bench_print_row_cells(const struct bench_result *r, const struct bench_row *row, bool ascii,
    struct bench_cells *c)
{
	const struct stats_summary *e = &row->elapsed;
	double k = row->scale;
	char a[24], b[24], sz1[32], sz2[32];

	memset(c, 0, sizeof *c);
	snprintf(c->buf, sizeof c->buf, "%" PRIu64, row->buf_size);
	if (row->n_runs == 0) {
		snprintf(c->median, sizeof c->median, "%s", row->err ? "failed" : "not run");
		return;
	}
	bench_print_time(bench_row_scale_time(row, e->median), ascii, c->median, sizeof c->median);
	snprintf(c->meansd, sizeof c->meansd, "%s %s %s", bench_print_time(bench_row_scale_time(
	    row, e->mean), ascii, a, sizeof a), ascii ? "+/-" : "±",
	    bench_print_time(e->sd * k, ascii, b, sizeof b));
	snprintf(c->range, sizeof c->range, "%s %s %s", bench_print_time(bench_row_scale_time(
	    row, e->min), ascii, a, sizeof a), ascii ? "..." : "…",
	    bench_print_time(bench_row_scale_time(row, e->max), ascii, b, sizeof b));
	bench_print_time(row->user * k, ascii, c->user, sizeof c->user);
	bench_print_time(row->system * k, ascii, c->sys, sizeof c->sys);
	snprintf(c->calls, sizeof c->calls, "%.0f", (row->syscr + row->syscw) * k);
	if (row->relative_sd > 0 && row->relative > 1.0005)
		snprintf(c->rel, sizeof c->rel, "%.2f %s %.2f", row->relative, ascii ? "+/-" : "±",
		    row->relative_sd);
	else
		snprintf(c->rel, sizeof c->rel, "%.2f", row->relative);
	if (!(k > 1.0000001)) {
		snprintf(c->scaling, sizeof c->scaling, "as is");
		return;
	}
	snprintf(c->scaling, sizeof c->scaling, k >= 1000 ? "measured %s, %s%.0f %s %s" :
	    "measured %s, %s%.3g %s %s", units_format_size_round(row->bytes, sz1, sizeof sz1), ascii ? "x" : "×", k,
	    ascii ? "->" : "→", units_format_size_round(r->sw->file_size, sz2, sizeof sz2));
	/* The fixed part, when it is big enough to matter, is said too. */
	if (row->fixed >= 0.005 * e->median)
		snprintf(c->scaling + strlen(c->scaling), sizeof c->scaling - strlen(c->scaling),
		    " (+%s once)", bench_print_time(row->fixed, ascii, a, sizeof a));
}

/* A reference figure, or "-". */
static char *
bench_print_ref(double v, bool ascii, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		bench_print_time(v, ascii, buf, len);
	return buf;
}

/* The header lines shared by text and Markdown. */
static void
bench_print_header(FILE *f, const struct bench_result *r, const char *lead)
{
	const struct scn_sweep *sw = r->sw;
	char sz[32];
	bool reads = bench_prog_reads(sw->program);

	fprintf(f, "%s%s%s%s: program %s, %s per run, %s, %u runs after %u warm-up%s, "
	    "budget %.3g s per row\n", lead, "Sweep", sw->title ? " " : "", sw->title ? sw->title : "",
	    scenario_names_of(scn_programs, (int)sw->program), units_format_size_round(sw->file_size, sz, sizeof sz),
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
		fprintf(f, "%sReference \"%s\": %s", lead, ref->label ? ref->label : "book",
		    ref->source ? ref->source : "");
		if (ref->total_bytes > 0 && ref->total_bytes != sw->file_size)
			fprintf(f, " (moved %s; column \"ours@%s\" scales our median by %.3g)",
			    units_format_size_round(ref->total_bytes, sz, sizeof sz), sz,
			    (double)ref->total_bytes / (double)sw->file_size);
		fputc('\n', f);
	}
}

/* Warnings and remarks under a variant's table, hyperfine style. */
static void
bench_print_warnings(FILE *f, const struct bench_result *r, const struct bench_variant *bv,
    const char *lead)
{
	for (size_t i = 0; i < bv->n_rows; i++) {
		const struct bench_row *row = &bv->rows[i];
		if (row->err)
			fprintf(f, "%sBUF %" PRIu64 ": %s\n", lead, row->buf_size, row->note);
		if (row->elapsed.first_slow)
			fprintf(f, "%sBUF %" PRIu64 ": the first run was much slower than the rest "
			    "(a cache or a disk waking up?)\n", lead, row->buf_size);
		else if (row->elapsed.n_outliers > 0)
			fprintf(f, "%sBUF %" PRIu64 ": %zu statistical outlier%s (modified Z-score "
			    "above %.3g)\n", lead, row->buf_size, row->elapsed.n_outliers,
			    row->elapsed.n_outliers == 1 ? "" : "s", STATS_OUTLIER_THRESHOLD);
		if (row->n_runs > 0 && row->cold == BENCH_COLD_FAILED)
			fprintf(f, "%sBUF %" PRIu64 ": cold cache NOT achieved: pages stayed cached "
			    "after fsync + POSIX_FADV_DONTNEED\n", lead, row->buf_size);
	}
	if (bv->n_rows > 0 && bv->rows[0].n_runs > 0) {
		enum bench_cold c = bv->rows[0].cold;
		if (c == BENCH_COLD_VERIFIED)
			fprintf(f, "%sCache: cold before every run (fsync + POSIX_FADV_DONTNEED, "
			    "then %s saw 0 pages cached).\n", lead,
			    r->cold_probe[0] ? r->cold_probe : "the cache probe");
		else if (c == BENCH_COLD_IMPOSSIBLE)
			fprintf(f, "%sCache: cold cache not possible on tmpfs (the file lives in the "
			    "page cache).\n", lead);
		else if (c == BENCH_COLD_NA)
			fprintf(f, "%sCache: each run writes a new file.\n", lead);
	}
}

/* True if some row was scaled. */
static bool
bench_print_scaled(const struct bench_result *r)
{
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].n_runs > 0 && r->variants[v].rows[i].scale > 1.0000001)
				return true;
	return false;
}

/* True if some row's runs were short enough for getrusage's tick sampling to matter. */
static bool
bench_print_short_runs(const struct bench_result *r)
{
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].n_runs > 0 &&
			    r->variants[v].rows[i].elapsed.median < 0.02)
				return true;
	return false;
}

/* Text: the side-by-side table per variant, then the chart. */
int
bench_print_text(FILE *f, const struct bench_result *r, unsigned flags)
{
	const struct scn_sweep *sw = r->sw;
	bool ascii = flags & BENCH_PRINT_ASCII;
	const char *sep = ascii ? "|" : "│";

	bench_print_header(f, r, "");
	if (r->note[0])
		fprintf(f, "Note: %s\n", r->note);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct bench_variant *bv = &r->variants[v];
		char fl[48];

		fprintf(f, "\nVariant \"%s\" on %s", bv->v->name ? bv->v->name : "default", bv->fs);
		if (bv->v->flags)
			fprintf(f, ", open flags %s", decode_open_flag_bits(bv->v->flags, fl, sizeof fl));
		if (bv->v->sync_each != SCN_SYNC_NONE)
			fprintf(f, ", %s after each write", scenario_names_of(scn_sync_eachs, (int)bv->v->sync_each));
		fputs(" (times for the whole file; scaled rows say so):\n", f);
		bench_print_pad(f, "BUF_SIZE", 9, true);
		fputs("  ", f);
		bench_print_pad(f, "median", 10, false);
		fputc(' ', f);
		bench_print_pad(f, ascii ? "mean +/- sd" : "mean ± σ", 22, false);
		fputc(' ', f);
		bench_print_pad(f, ascii ? "min ... max" : "min … max", 22, false);
		fprintf(f, " %-9s %-9s %-10s %-18s ", "user", "sys", "syscalls", "relative");
		bench_print_pad(f, "scaling", 44, false);
		for (size_t i = 0; i < sw->n_references; i++) {
			const struct scn_reference *ref = &sw->references[i];
			char head[64], sz[32];
			if (bench_ref_variant(r, ref) != v)
				continue;
			snprintf(head, sizeof head, "%s", ref->label ? ref->label : "book");
			fprintf(f, " %s %-28s", sep, head);
			if (ref->total_bytes > 0 && ref->total_bytes != sw->file_size)
				fprintf(f, " ours@%-8s", units_format_size_round(ref->total_bytes, sz, sizeof sz));
		}
		fputc('\n', f);
		for (size_t i = 0; i < bv->n_rows; i++) {
			const struct bench_row *row = &bv->rows[i];
			struct bench_cells c;
			bench_print_row_cells(r, row, ascii, &c);
			bench_print_pad(f, c.buf, 9, true);
			fputs("  ", f);
			bench_print_pad(f, c.median, 10, false);
			fputc(' ', f);
			bench_print_pad(f, c.meansd, 22, false);
			fputc(' ', f);
			bench_print_pad(f, c.range, 22, false);
			fputc(' ', f);
			bench_print_pad(f, c.user, 9, false);
			fputc(' ', f);
			bench_print_pad(f, c.sys, 9, false);
			fputc(' ', f);
			bench_print_pad(f, c.calls, 10, false);
			fputc(' ', f);
			bench_print_pad(f, c.rel, 18, false);
			fputc(' ', f);
			bench_print_pad(f, c.scaling, 44, false);
			for (size_t k = 0; k < sw->n_references; k++) {
				const struct scn_reference *ref = &sw->references[k];
				const struct scn_ref_row *rr;
				char el[24], us[24], sy[24], cell[80];
				if (bench_ref_variant(r, ref) != v)
					continue;
				rr = bench_ref_row(ref, row->buf_size);
				if (rr == NULL)
					snprintf(cell, sizeof cell, "-");
				else if (rr->user < 0 && rr->system < 0)
					bench_print_ref(rr->elapsed, ascii, cell, sizeof cell);
				else
					snprintf(cell, sizeof cell, "%s (u %s, s %s)",
					    bench_print_ref(rr->elapsed, ascii, el, sizeof el),
					    bench_print_ref(rr->user, ascii, us, sizeof us),
					    bench_print_ref(rr->system, ascii, sy, sizeof sy));
				fprintf(f, " %s ", sep);
				bench_print_pad(f, cell, 28, false);
				if (ref->total_bytes > 0 && ref->total_bytes != sw->file_size) {
					double k2 = (double)ref->total_bytes / (double)sw->file_size;
					fputc(' ', f);
					bench_print_pad(f, row->n_runs ? bench_print_time(
					    bench_row_extrapolated(row) * k2, ascii, el, sizeof el) : "-",
					    13, false);
				}
			}
			fputc('\n', f);
		}
		bench_print_warnings(f, r, bv, "");
	}
	if (bench_print_scaled(r))
		fputs("\nScaled rows ran on fewer bytes than file_size. Their times are "
		    "fixed + (measured - fixed) x scale,\nwhere fixed (runs that move one buffer: "
		    "open, create, first write, close) is counted once,\nas in one whole run.\n", f);
	if (bench_print_short_runs(r))
		fputs("\nuser and sys come from getrusage(): the kernel splits a run's CPU time "
		    "between them\nby sampling at timer ticks, so for runs of a few ms the split "
		    "is unreliable (their sum is not).\n", f);
	if (!(flags & BENCH_PRINT_NO_CHART)) {
		size_t n = 0;
		char **lines = bench_chart_lines(r, 78, flags, &n);
		fputc('\n', f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s\n", lines[i]);
		bench_chart_free(lines, n);
	}
	fprintf(f, "(sweep took %.1f s of wall time, probes and file preparation included)\n",
	    r->wall);
	return ferror(f) ? -1 : 0;
}

/* Markdown: a header and one table per variant, for a course page. */
int
bench_print_md(FILE *f, const struct bench_result *r)
{
	const struct scn_sweep *sw = r->sw;

	bench_print_header(f, r, "- ");
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct bench_variant *bv = &r->variants[v];
		size_t nref = 0;

		fprintf(f, "\n**Variant %s** (%s)\n\n", bv->v->name ? bv->v->name : "default", bv->fs);
		fputs("| BUF_SIZE | median | mean ± σ | min … max | user | sys | syscalls | relative "
		    "| scaling |", f);
		for (size_t k = 0; k < sw->n_references; k++)
			if (bench_ref_variant(r, &sw->references[k]) == v) {
				fprintf(f, " %s elapsed | %s user | %s sys |",
				    sw->references[k].label, sw->references[k].label,
				    sw->references[k].label);
				nref++;
			}
		fputs("\n|---:|---:|---:|---:|---:|---:|---:|---:|---|", f);
		for (size_t k = 0; k < nref; k++)
			fputs("---:|---:|---:|", f);
		fputc('\n', f);
		for (size_t i = 0; i < bv->n_rows; i++) {
			struct bench_cells c;
			bench_print_row_cells(r, &bv->rows[i], false, &c);
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |", c.buf, c.median,
			    c.meansd, c.range, c.user, c.sys, c.calls, c.rel, c.scaling);
			for (size_t k = 0; k < sw->n_references; k++) {
				const struct scn_reference *ref = &sw->references[k];
				const struct scn_ref_row *rr;
				char a[24], b[24], d[24];
				if (bench_ref_variant(r, ref) != v)
					continue;
				rr = bench_ref_row(ref, bv->rows[i].buf_size);
				if (rr == NULL)
					fputs(" - | - | - |", f);
				else
					fprintf(f, " %s | %s | %s |",
					    bench_print_ref(rr->elapsed, false, a, sizeof a),
					    bench_print_ref(rr->user, false, b, sizeof b),
					    bench_print_ref(rr->system, false, d, sizeof d));
			}
			fputc('\n', f);
		}
		fputc('\n', f);
		bench_print_warnings(f, r, bv, "> ");
	}
	return ferror(f) ? -1 : 0;
}

/* Print at most width columns of s (UTF-8 aware), then a newline. */
static void
bench_print_clip(FILE *f, const char *s, int width)
{
	int cols = 0;

	for (; *s && *s != '\n'; s++) {
		if (((unsigned char)*s & 0xC0) != 0x80 && ++cols > width)
			break;
		fputc(*s, f);
	}
	fputc('\n', f);
}

/* One line of the compact table: BUF, then the cells padded by display columns (µ, ± and σ
 * take two bytes and one column), sys only when cpu, the book's column bookw wide, then
 * the scaling. */
static void
bench_print_compact_line(char *line, size_t len, const char *buf, const char *const cell[6],
    bool cpu, int bookw, const char *scal)
{
	const int w[] = { 9, 9, 9, 10, 8, bookw };
	int n = snprintf(line, len, "%8s  ", buf);

	for (int c = 0; c < 6 && n > 0 && (size_t)n < len; c++) {
		int pad = w[c] - grid_text_width(cell[c]);
		if (c == 2 && !cpu)
			continue;
		n += snprintf(line + n, len - (size_t)n, "%s%*s ", cell[c], pad > 0 ? pad : 0, "");
	}
	if (n > 0 && (size_t)n < len)
		snprintf(line + n, len - (size_t)n, "%s", scal);
}

/* A compact table for a pane of width columns: median, spread, system CPU and system calls
 * (the lessons' narrations point at them; CPU only when wide enough), relative, book,
 * scaling. */
int
bench_print_compact(FILE *f, const struct bench_result *r, int width, unsigned flags)
{
	const struct scn_sweep *sw = r->sw;
	bool ascii = flags & BENCH_PRINT_ASCII, cpu = width >= 96;
	char line[512], sz[32];

	snprintf(line, sizeof line, "%s, %s; %s per run, %s", r->kernel, r->machine,
	    units_format_size_round(sw->file_size, sz, sizeof sz),
	    !bench_prog_reads(sw->program) ? "new file each run" :
	    sw->cache == SCN_CACHE_COLD ? "cold cache" : "warm cache");
	bench_print_clip(f, line, width);
	if (r->note[0])
		bench_print_clip(f, r->note, width);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct bench_variant *bv = &r->variants[v];
		const struct scn_reference *ref = NULL;

		for (size_t k = 0; k < sw->n_references && ref == NULL; k++)
			if (bench_ref_variant(r, &sw->references[k]) == v)
				ref = &sw->references[k];
		if (r->n_variants > 1)
			snprintf(line, sizeof line, "variant %s (%s)",
			    bv->v->name ? bv->v->name : "default", bv->fs);
		else
			snprintf(line, sizeof line, "on %s", bv->fs);
		bench_print_clip(f, line, width);
		const char *label = ref != NULL ? (ref->label ? ref->label : "book") : "";
		/* The book's column as wide as its label ("TLPI 2010 O_SYNC"). */
		int bookw = grid_text_width(label) > 10 ? grid_text_width(label) : 10;
		{
			const char *head[] = { "median", ascii ? "+/- sd" : "± σ", "sys", "syscalls",
			                       "relative", label };
			bench_print_compact_line(line, sizeof line, "BUF", head, cpu, bookw, "scaling");
			bench_print_clip(f, line, width);
		}
		for (size_t i = 0; i < bv->n_rows; i++) {
			const struct bench_row *row = &bv->rows[i];
			const struct scn_ref_row *rr = ref ? bench_ref_row(ref, row->buf_size) : NULL;
			char med[24], sd[24], rel[24], book[24], scal[32], sys[24], calls[24], b[24];
			const char *cell[] = { med, sd, sys, calls, rel, book };

			if (row->n_runs == 0) {
				snprintf(line, sizeof line, "%8" PRIu64 "  %s", row->buf_size,
				    row->err ? row->note : "not run");
				bench_print_clip(f, line, width);
				continue;
			}
			bench_print_time(bench_row_extrapolated(row), ascii, med, sizeof med);
			bench_print_time(row->elapsed.sd * row->scale, ascii, sd, sizeof sd);
			/* As the full table: measured, times the row's scale. */
			bench_print_time(row->system * row->scale, ascii, sys, sizeof sys);
			snprintf(calls, sizeof calls, "%.0f", (row->syscr + row->syscw) * row->scale);
			/* No exponents for people: 178400, not 1.784e+05. */
			snprintf(rel, sizeof rel, row->relative >= 1000 ? "%.0f" : "%.4g", row->relative);
			if (rr != NULL)
				bench_print_ref(rr->elapsed, ascii, book, sizeof book);
			else
				snprintf(book, sizeof book, "%s", ref != NULL ? "-" : "");
			if (row->scale > 1.0000001)
				snprintf(scal, sizeof scal, row->scale >= 1000 ? "%s%.0f of %s" : "%s%.3g of %s",
				    ascii ? "x" : "×", row->scale,
				    units_format_size_round(row->bytes, sz, sizeof sz));
			else
				scal[0] = '\0';
			snprintf(b, sizeof b, "%" PRIu64, row->buf_size);
			bench_print_compact_line(line, sizeof line, b, cell, cpu, bookw, scal);
			/* Too wide: the scale alone ("×4711"), not a cut "×4711 of 21.4 K". */
			if (grid_text_width(line) > width && strstr(scal, " of ") != NULL) {
				*strstr(scal, " of ") = '\0';
				bench_print_compact_line(line, sizeof line, b, cell, cpu, bookw, scal);
			}
			bench_print_clip(f, line, width);
		}
	}
	if (!(flags & BENCH_PRINT_NO_CHART)) {
		size_t n = 0;
		char **lines = bench_chart_lines(r, width, flags, &n);
		fputc('\n', f);
		for (size_t i = 0; i < n; i++)
			bench_print_clip(f, lines[i], width);
		bench_chart_free(lines, n);
	}
	return ferror(f) ? -1 : 0;
}

/* One line of progress. */
char *
bench_print_progress(const struct bench_progress *p, char *buf, size_t len)
{
	static const char *const phase[] = { "preparing input", "probing", "warm-up", "run",
		"done" };
	char sz[32];
	int n;

	n = snprintf(buf, len, "row %zu/%zu  %s  BUF %" PRIu64 "  %s", p->step, p->n_steps,
	    p->variant ? p->variant : "", p->buf_size, phase[p->phase]);
	if (n > 0 && (size_t)n < len && (p->phase == BENCH_PHASE_RUN || p->phase == BENCH_PHASE_WARMUP))
		n += snprintf(buf + n, len - (size_t)n, " %u/%u", p->run,
		    p->phase == BENCH_PHASE_RUN ? p->n_runs : p->n_warmup);
	if (n > 0 && (size_t)n < len && p->bytes > 0)
		n += snprintf(buf + n, len - (size_t)n, "  %s/run",
		    units_format_size_round(p->bytes, sz, sizeof sz));
	if (n > 0 && (size_t)n < len && p->last_elapsed >= 0)
		snprintf(buf + n, len - (size_t)n, "  %.3f s", p->last_elapsed);
	return buf;
}
