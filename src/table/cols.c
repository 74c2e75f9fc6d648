/* SPDX-License-Identifier: MIT */
/* table/cols.c: the columns of a sweep's tables: one cell function per column, and the
 * column tables that the header line and every row read (so a width is written once). */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/print.h"
#include "base/text.h"
#include "base/units.h"

/* A scenario's string made safe for one line (base/text.c is the one sanitiser). */
char *
sweep_cols_safe(const char *s, char *buf, size_t len)
{
	text_safe(s != NULL ? s : "", TEXT_LINE, buf, len);
	return buf;
}

/* A duration that needs no unit ("-": unknown, "0") into buf: true if it was one. */
static bool
sweep_cols_time_plain(double s, char *buf, size_t len)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "-");
	else if (s == 0)
		snprintf(buf, len, "0");
	else
		return false;
	return true;
}

/* A duration with three significant figures ("107 s", "2.19 s", "4.51 ms", "850 µs"). */
char *
sweep_cols_time(double s, bool ascii, char *buf, size_t len)
{
	static const struct { double div; const char *unit, *ascii; } u[] = {
		{ 1, "s", "s" }, { 1e-3, "ms", "ms" }, { 1e-6, "µs", "us" }, { 1e-9, "ns", "ns" },
	};
	size_t i = 0;
	double v;
	int dec;

	if (sweep_cols_time_plain(s, buf, len))
		return buf;
	while (i + 1 < sizeof u / sizeof u[0] && s < u[i].div)
		i++;
	v = s / u[i].div;
	dec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
	snprintf(buf, len, "%.*f %s", dec, v, ascii ? u[i].ascii : u[i].unit);
	return buf;
}

/* A duration in seconds, three significant figures, no unit ("107", "2.19", "0.000450"). */
char *
sweep_cols_seconds(double s, char *buf, size_t len)
{
	int dec;

	if (sweep_cols_time_plain(s, buf, len))
		return buf;
	dec = 2 - (int)floor(log10(s));
	snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec > 12 ? 12 : dec, s);
	return buf;
}

/* A time of a cell: with its unit, or (Markdown) in seconds; "-" when unknown. Return buf. */
static char *
sweep_cols_at_time(const struct sweep_print_at *at, double s, char *buf, size_t len)
{
	return at->seconds ? sweep_cols_seconds(s, buf, len) :
	       sweep_cols_time(s, at->ascii, buf, len);
}

/* BUF_SIZE. */
static void
sweep_cols_cell_buf(const struct sweep_print_at *at, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, at->row->buf_size);
}

/* The median, extrapolated to file_size; or why there is none. */
static void
sweep_cols_cell_median(const struct sweep_print_at *at, char *buf, size_t len)
{
	if (at->row->n_runs == 0)
		snprintf(buf, len, "%s", at->row->err ? "failed" : "not run");
	else
		sweep_cols_at_time(at, sweep_row_extrapolated(at->row), buf, len);
}

/* Two times with a sign between them ("1.20 s ± 3.10 ms"), the sign in ASCII or UTF-8. */
static void
sweep_cols_two(const struct sweep_print_at *at, double x, const char *ascii, const char *utf8,
    double y, char *buf, size_t len)
{
	char a[24], b[24];

	snprintf(buf, len, "%s %s %s", sweep_cols_at_time(at, x, a, sizeof a),
	    at->ascii ? ascii : utf8, sweep_cols_at_time(at, y, b, sizeof b));
}

/* Mean ± standard deviation, extrapolated. */
static void
sweep_cols_cell_meansd(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct sweep_row *row = at->row;

	sweep_cols_two(at, sweep_row_scale_time(row, row->elapsed.mean), "+/-", "±",
	    row->elapsed.sd * row->scale, buf, len);
}

/* The standard deviation alone, extrapolated. */
static void
sweep_cols_cell_sd(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_at_time(at, at->row->elapsed.sd * at->row->scale, buf, len);
}

/* Min … max, extrapolated. */
static void
sweep_cols_cell_range(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct sweep_row *row = at->row;

	sweep_cols_two(at, sweep_row_scale_time(row, row->elapsed.min), "...", "…",
	    sweep_row_scale_time(row, row->elapsed.max), buf, len);
}

/* CPU time for the whole file, or "< 1 tick" when the kernel's accounting cannot tell. */
static void
sweep_cols_cpu(const struct sweep_print_at *at, bool sys, char *buf, size_t len)
{
	double t = sweep_row_cpu(at->row, sys);

	if (t < 0)
		snprintf(buf, len, "< 1 tick");
	else
		sweep_cols_at_time(at, t, buf, len);
}

/* User CPU time, extrapolated. */
static void
sweep_cols_cell_user(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_cpu(at, false, buf, len);
}

/* System CPU time, extrapolated. */
static void
sweep_cols_cell_sys(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_cpu(at, true, buf, len);
}

/* Read and write system calls for the whole file, the fixed ones counted once. */
static void
sweep_cols_cell_calls(const struct sweep_print_at *at, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f", sweep_row_calls(at->row));
}

/* Journal commits per run, measured; "-" where none were counted. */
static void
sweep_cols_cell_commits(const struct sweep_print_at *at, char *buf, size_t len)
{
	if (at->row->commits < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", at->row->commits);
}

/* True if some row of the result counted journal commits. */
static bool
sweep_cols_has_commits(const struct sweep_print_at *at)
{
	const struct sweep_result *r = at->r;

	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].commits >= 0)
				return true;
	return false;
}

/* Relative to the fastest row, with its spread when there is one. */
static void
sweep_cols_cell_relative(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct sweep_row *row = at->row;

	const char *pm = at->ascii ? "+/-" : "±";

	if (!(row->relative_sd > 0 && row->relative > 1.0005))
		snprintf(buf, len, row->relative >= 1000 ? "%.0f" : "%.2f", row->relative);
	else if (row->relative >= 100 || row->relative_sd >= 100)
		snprintf(buf, len, "%.0f %s %.0f", row->relative, pm, row->relative_sd);
	else
		snprintf(buf, len, "%.3g %s %.2g", row->relative, pm, row->relative_sd);
}

/* Relative to the fastest row, short. No exponents for people: 178400, not 1.784e+05. */
static void
sweep_cols_cell_ratio(const struct sweep_print_at *at, char *buf, size_t len)
{
	snprintf(buf, len, at->row->relative >= 1000 ? "%.0f" : "%.4g", at->row->relative);
}

/* The bytes a scaled row ran on, in KiB whatever their size: one unit down the column (a
 * size in "the unit it is round in" gave "40384 kB" above "1.6 MiB"). Return buf. */
static char *
sweep_cols_kib(uint64_t bytes, char *buf, size_t len)
{
	double k = (double)bytes / 1024;

	snprintf(buf, len, k >= 10 ? "%.0f KiB" : "%.1f KiB", k);
	return buf;
}

/* How the row was scaled, spelled out: "measured 4096 KiB, ×25 → 100 MB (+1.2 ms once)". */
static void
sweep_cols_cell_scaling(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct sweep_row *row = at->row;
	double k = row->scale;
	char a[24], sz1[32], sz2[32];
	size_t n;

	if (!(k > 1.0000001)) {
		snprintf(buf, len, "as is");
		return;
	}
	snprintf(buf, len, k >= 1000 ? "measured %s, %s%.0f %s %s" : "measured %s, %s%.3g %s %s",
	    sweep_cols_kib(row->bytes, sz1, sizeof sz1), at->ascii ? "x" : "×", k,
	    at->ascii ? "->" : "→", units_format_size_round(at->r->sw->file_size, sz2, sizeof sz2));
	/* The fixed part, when it is big enough to matter, is said too. */
	if (row->fixed >= 0.005 * row->elapsed.median && (n = strlen(buf)) < len)
		snprintf(buf + n, len - n, " (+%s once)",
		    sweep_cols_time(row->fixed, at->ascii, a, sizeof a));
}

/* How the row was scaled, short: "×25 of 4096 KiB", or "×25" when short_scale; "" if not. */
static void
sweep_cols_cell_scale(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct sweep_row *row = at->row;
	char sz[32];

	if (!(row->scale > 1.0000001))
		snprintf(buf, len, "%s", "");
	else if (at->short_scale)
		snprintf(buf, len, row->scale >= 1000 ? "%s%.0f" : "%s%.3g", at->ascii ? "x" : "×",
		    row->scale);
	else
		snprintf(buf, len, row->scale >= 1000 ? "%s%.0f of %s" : "%s%.3g of %s",
		    at->ascii ? "x" : "×", row->scale, sweep_cols_kib(row->bytes, sz, sizeof sz));
}

/* The reference's label, made safe; "book" if it has none. Return buf. */
const char *
sweep_cols_label(const struct scn_reference *ref, char *buf, size_t len)
{
	return sweep_cols_safe(ref->label ? ref->label : "book", buf, len);
}

/* The reference's row for this row's BUF_SIZE, or NULL. */
static const struct scn_ref_row *
sweep_cols_ref_row(const struct sweep_print_at *at)
{
	return at->ref != NULL ? sweep_ref_row(at->ref, at->row->buf_size) : NULL;
}

/* Text: the book's elapsed time, with its user and system times when it gives them. */
static void
sweep_cols_cell_book(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct scn_ref_row *rr;
	char el[24], us[24], sy[24];

	if (at->row == NULL) {
		sweep_cols_label(at->ref, buf, len);
		return;
	}
	if ((rr = sweep_cols_ref_row(at)) == NULL)
		snprintf(buf, len, "-");
	else if (rr->user < 0 && rr->system < 0)
		sweep_cols_at_time(at, rr->elapsed, buf, len);
	else
		snprintf(buf, len, "%s (u %s, s %s)", sweep_cols_at_time(at, rr->elapsed, el, sizeof el),
		    sweep_cols_at_time(at, rr->user, us, sizeof us),
		    sweep_cols_at_time(at, rr->system, sy, sizeof sy));
}

/* True if the reference moved another amount than file_size (so ours is shown at its size). */
bool
sweep_cols_resized(const struct sweep_result *r, const struct scn_reference *ref)
{
	return ref->total_bytes > 0 && ref->total_bytes != r->sw->file_size;
}

/* What a reference's figures are multiplied by to compare with ours on file_size. */
double
sweep_cols_ref_scale(const struct sweep_result *r, const struct scn_reference *ref)
{
	return sweep_cols_resized(r, ref) ? (double)r->sw->file_size / (double)ref->total_bytes : 1;
}

/* True if the reference columns of at show ours at the reference's size. */
static bool
sweep_cols_other_size(const struct sweep_print_at *at)
{
	return sweep_cols_resized(at->r, at->ref);
}

/* Our median at the reference's size ("ours@100 MB"). */
static void
sweep_cols_cell_ours(const struct sweep_print_at *at, char *buf, size_t len)
{
	char sz[32];

	if (at->row == NULL)
		snprintf(buf, len, "ours@%s", units_format_size_round(at->ref->total_bytes, sz,
		    sizeof sz));
	else if (at->row->n_runs == 0)
		snprintf(buf, len, "-");
	else
		sweep_cols_at_time(at, sweep_row_extrapolated(at->row) * (double)at->ref->total_bytes /
		    (double)at->r->sw->file_size, buf, len);
}

/*
 * Markdown: one of the book's figures (elapsed, user, system) in seconds, scaled to our
 * file_size when the book moved another amount (one unit system: every time in the table is
 * for the same bytes); "-" where it gives none. The title says the unit and the scaling.
 */
static void
sweep_cols_cell_figure(const struct sweep_print_at *at, char *buf, size_t len, int which)
{
	static const char *const what[] = { "elapsed", "user", "sys" };
	const struct scn_ref_row *rr;
	char l[96];
	double v, k = sweep_cols_ref_scale(at->r, at->ref);

	if (at->row == NULL) {
		if (k != 1)
			snprintf(buf, len, "%s %s (s, ×%.3g)", sweep_cols_label(at->ref, l, sizeof l),
			    what[which], k);
		else
			snprintf(buf, len, "%s %s (s)", sweep_cols_label(at->ref, l, sizeof l),
			    what[which]);
		return;
	}
	if ((rr = sweep_cols_ref_row(at)) == NULL) {
		snprintf(buf, len, "-");
		return;
	}
	v = which == 0 ? rr->elapsed : which == 1 ? rr->user : rr->system;
	sweep_cols_at_time(at, v < 0 ? v : v * k, buf, len);
}

/* Markdown: the book's elapsed time. */
static void
sweep_cols_cell_elapsed_ref(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_cell_figure(at, buf, len, 0);
}

/* Markdown: the book's user time. */
static void
sweep_cols_cell_user_ref(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_cell_figure(at, buf, len, 1);
}

/* Markdown: the book's system time. */
static void
sweep_cols_cell_sys_ref(const struct sweep_print_at *at, char *buf, size_t len)
{
	sweep_cols_cell_figure(at, buf, len, 2);
}

/*
 * Compact: the book's elapsed time, scaled to our file_size when it moved another amount;
 * its label as title ("" and "" without a reference).
 */
static void
sweep_cols_cell_book_short(const struct sweep_print_at *at, char *buf, size_t len)
{
	const struct scn_ref_row *rr;

	if (at->row == NULL && at->ref != NULL)
		sweep_cols_label(at->ref, buf, len);
	else if (at->row == NULL)
		snprintf(buf, len, "%s", "");
	else if ((rr = sweep_cols_ref_row(at)) != NULL)
		sweep_cols_at_time(at, rr->elapsed < 0 ? rr->elapsed : rr->elapsed *
		    sweep_cols_ref_scale(at->r, at->ref), buf, len);
	else
		snprintf(buf, len, "%s", at->ref != NULL ? "-" : "");
}

/* True if the compact table has a reference to show. */
static bool
sweep_cols_has_ref(const struct sweep_print_at *at)
{
	return at->ref != NULL;
}

/* True if the compact table has room for CPU time. */
static bool
sweep_cols_wide(const struct sweep_print_at *at)
{
	return at->wide;
}

/* True if some row of r that ran used a tick or more of system CPU: a sys column of
 * "< 1 tick" on every row says nothing (print.c says why it is left out). */
bool
sweep_cols_sys_told(const struct sweep_result *r)
{
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			if (r->variants[v].rows[i].n_runs > 0 &&
			    sweep_row_cpu(&r->variants[v].rows[i], true) >= 0)
				return true;
	return false;
}

/* The compact table's sys column: wide enough, and some row tells it. */
static bool
sweep_cols_sys_shown(const struct sweep_print_at *at)
{
	return sweep_cols_wide(at) && sweep_cols_sys_told(at->r);
}

/* The full table in text: times for the whole file. */
const struct sweep_print_col sweep_cols_full[] = {
	{ "BUF_SIZE", NULL, 9, 0, SWEEP_COL_RIGHT | SWEEP_COL_FIGURE, sweep_cols_cell_buf, NULL },
	{ "median", NULL, 10, 2, SWEEP_COL_FIGURE, sweep_cols_cell_median, NULL },
	{ "mean ± σ", "mean +/- sd", 22, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS,
	  sweep_cols_cell_meansd, NULL },
	{ "min … max", "min ... max", 22, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS,
	  sweep_cols_cell_range, NULL },
	{ "user", NULL, 9, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_user, NULL },
	{ "sys", NULL, 9, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_sys, NULL },
	{ "syscalls", NULL, 10, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_calls, NULL },
	{ "commits/run", NULL, 11, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_commits,
	  sweep_cols_has_commits },
	{ "relative", NULL, 18, 1, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_relative,
	  NULL },
	{ "scaling", NULL, 44, 1, SWEEP_COL_RUNS, sweep_cols_cell_scaling, NULL },
};

/* The full table in text: per reference of the variant, the book's figures and ours at its size. */
const struct sweep_print_col sweep_cols_text_ref[] = {
	{ NULL, NULL, 28, 1, SWEEP_COL_RULE, sweep_cols_cell_book, NULL },
	{ NULL, NULL, 13, 1, 0, sweep_cols_cell_ours, sweep_cols_other_size },
};

/* The Markdown table: times for the whole file, in seconds (one unit, in the titles; its
 * sweep_print_at has seconds set). */
const struct sweep_print_col sweep_cols_md[] = {
	{ "BUF_SIZE", NULL, 0, 0, SWEEP_COL_FIGURE, sweep_cols_cell_buf, NULL },
	{ "median (s)", NULL, 0, 0, SWEEP_COL_FIGURE, sweep_cols_cell_median, NULL },
	{ "mean ± σ (s)", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_meansd,
	  NULL },
	{ "min … max (s)", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_range,
	  NULL },
	{ "user (s)", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_user, NULL },
	{ "sys (s)", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_sys, NULL },
	{ "syscalls", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_calls, NULL },
	{ "commits/run", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_commits,
	  sweep_cols_has_commits },
	{ "relative", NULL, 0, 0, SWEEP_COL_FIGURE | SWEEP_COL_RUNS, sweep_cols_cell_relative, NULL },
	{ "scaling", NULL, 0, 0, SWEEP_COL_RUNS, sweep_cols_cell_scale, NULL },
};

/* The Markdown table: per reference of the variant, the book's three figures. */
const struct sweep_print_col sweep_cols_md_ref[] = {
	{ NULL, NULL, 0, 1, SWEEP_COL_FIGURE, sweep_cols_cell_elapsed_ref, NULL },
	{ NULL, NULL, 0, 1, SWEEP_COL_FIGURE, sweep_cols_cell_user_ref, NULL },
	{ NULL, NULL, 0, 1, SWEEP_COL_FIGURE, sweep_cols_cell_sys_ref, NULL },
};

/* The compact table (a pane, a narrow terminal), with the variant's first reference. */
const struct sweep_print_col sweep_cols_compact[] = {
	{ "BUF", NULL, 8, 0, SWEEP_COL_RIGHT, sweep_cols_cell_buf, NULL },
	{ "median", NULL, 9, 2, 0, sweep_cols_cell_median, NULL },
	{ "± σ", "+/- sd", 9, 1, SWEEP_COL_RUNS, sweep_cols_cell_sd, NULL },
	{ "sys", NULL, 9, 1, SWEEP_COL_RUNS, sweep_cols_cell_sys, sweep_cols_sys_shown },
	{ "syscalls", NULL, 10, 1, SWEEP_COL_RUNS, sweep_cols_cell_calls, NULL },
	{ "commits", NULL, 7, 1, SWEEP_COL_RUNS, sweep_cols_cell_commits,
	  sweep_cols_has_commits },
	{ "relative", NULL, 8, 1, SWEEP_COL_RUNS, sweep_cols_cell_ratio, NULL },
	{ NULL, NULL, 10, 1, 0, sweep_cols_cell_book_short, sweep_cols_has_ref },
	{ "scaling", NULL, 0, 1, SWEEP_COL_RUNS, sweep_cols_cell_scale, NULL },
};

/* How many columns each table has. */
const size_t sweep_cols_full_n = sizeof sweep_cols_full / sizeof sweep_cols_full[0];
const size_t sweep_cols_text_ref_n = sizeof sweep_cols_text_ref / sizeof sweep_cols_text_ref[0];
const size_t sweep_cols_md_n = sizeof sweep_cols_md / sizeof sweep_cols_md[0];
const size_t sweep_cols_md_ref_n = sizeof sweep_cols_md_ref / sizeof sweep_cols_md_ref[0];
const size_t sweep_cols_compact_n = sizeof sweep_cols_compact / sizeof sweep_cols_compact[0];
