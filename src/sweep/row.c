/* SPDX-License-Identifier: MIT */
/* row.c: what a sweep's rows say: each row's runs summarized, its figures extrapolated to
 * file_size, each against the fastest; the references beside them; whether the machine was
 * busy while they ran. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "base/units.h"

/* Summarize a row's runs. */
void
sweep_row_summarize(struct sweep_row *row)
{
	size_t n = row->n_runs;
	double *el, *us, *sy, *cr, *cw;
	bool all_cold = n > 0, any_failed = false;

	if (n == 0 || (el = malloc(5 * n * sizeof *el)) == NULL)
		return;
	us = el + n;
	sy = us + n;
	cr = sy + n;
	cw = cr + n;
	for (size_t i = 0; i < n; i++) {
		el[i] = row->runs[i].elapsed;
		us[i] = row->runs[i].user;
		sy[i] = row->runs[i].system;
		cr[i] = (double)row->runs[i].syscr;
		cw[i] = (double)row->runs[i].syscw;
		all_cold = all_cold && row->runs[i].cold == SWEEP_COLD_VERIFIED;
		any_failed = any_failed || row->runs[i].cold == SWEEP_COLD_FAILED;
	}
	stats_summarize(el, n, &row->elapsed);
	row->user = stats_median(us, n);
	row->system = stats_median(sy, n);
	row->syscr = stats_median(cr, n);
	row->syscw = stats_median(cw, n);
	row->commits = -1;
	for (size_t i = 0; i < n; i++)
		cw[i] = (double)row->runs[i].commits;
	if (stats_median(cw, n) >= 0)
		row->commits = stats_median(cw, n);
	row->wait = 0;
	for (size_t i = 0; i < n; i++) {
		cw[i] = row->runs[i].wait;
		if (cw[i] < 0)
			row->wait = -1;
	}
	if (row->wait == 0)
		row->wait = stats_median(cw, n);
	row->cold = any_failed ? SWEEP_COLD_FAILED :
	    all_cold ? SWEEP_COLD_VERIFIED : (enum sweep_cold)row->runs[0].cold;
	free(el);
}

/* Extrapolate one measured time of a row. */
double
sweep_row_scale_time(const struct sweep_row *row, double t)
{
	return row->fixed + (t - row->fixed) * row->scale;
}

/* Extrapolated median of a row. */
double
sweep_row_extrapolated(const struct sweep_row *row)
{
	return sweep_row_scale_time(row, row->elapsed.median);
}

/*
 * Read+write calls of a row for the whole file, the fixed ones counted once: the rest are
 * per buffer, and the whole file is ceil(file_size / buf_size) buffers (the last may be short).
 */
double
sweep_row_calls(const struct sweep_row *row)
{
	double m = row->syscr + row->syscw, n, whole;

	if (!(row->scale > 1) || row->buf_size == 0 || row->bytes == 0)
		return m;
	n = ceil((double)row->bytes / (double)row->buf_size);
	whole = ceil(row->scale * (double)row->bytes / (double)row->buf_size - 1e-9);
	return row->fixed_calls + (m - row->fixed_calls) / n * whole;
}

/* One tick of the kernel's user/system accounting, in seconds. */
double
sweep_tick(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return 1.0 / (double)(hz > 0 ? hz : 100);
}

/* CPU seconds of a row for the whole file, or -1 below a tick. */
double
sweep_row_cpu(const struct sweep_row *row, bool sys)
{
	double m = sys ? row->system : row->user;
	double fixed = sys ? row->fixed_system : row->fixed_user;

	if (row->n_runs == 0 || m < sweep_tick())
		return -1;
	return row->scale > 1 ? fixed + (m - fixed) * row->scale : m;
}

/* hyperfine's relative column: each row against the fastest, with propagated spread. */
void
sweep_row_relate(struct sweep_result *r)
{
	double best = INFINITY, best_cv = 0;

	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			const struct sweep_row *row = &r->variants[v].rows[i];
			double x = sweep_row_extrapolated(row);
			if (row->n_runs > 0 && x > 0 && x < best) {
				best = x;
				best_cv = row->elapsed.mean > 0 ? row->elapsed.sd / row->elapsed.mean : 0;
			}
		}
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			struct sweep_row *row = &r->variants[v].rows[i];
			double cv;
			if (row->n_runs == 0 || !isfinite(best))
				continue;
			cv = row->elapsed.mean > 0 ? row->elapsed.sd / row->elapsed.mean : 0;
			row->relative = sweep_row_extrapolated(row) / best;
			row->relative_sd = row->relative * sqrt(cv * cv + best_cv * best_cv);
		}
}

/* Whether the machine was busy: the load, the runs that waited for a CPU, the outliers. */
void
sweep_row_busy(struct sweep_result *r)
{
	struct sweep_busy *b = &r->busy;

	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			const struct sweep_row *row = &r->variants[v].rows[i];
			double share;
			if (row->n_runs == 0)
				continue;
			if (row->elapsed.n_outliers > 0)
				b->rows_outliers++;
			if (row->wait < 0 || !(row->elapsed.median > 0))
				continue;
			share = row->wait / row->elapsed.median;
			if (share >= SWEEP_BUSY_WAIT)
				b->rows_waiting++;
			if (share > b->wait_max) {
				b->wait_max = share;
				b->wait_buf = row->buf_size;
			}
		}
	b->busy = (b->load_max > b->cpus && b->cpus > 0) || b->rows_waiting > 0 ||
	          b->rows_outliers > 0;
}

/* The reference's figure for buf_size. */
const struct scn_ref_row *
sweep_ref_row(const struct scn_reference *ref, uint64_t buf_size)
{
	for (size_t i = 0; i < ref->n_rows; i++)
		if (ref->rows[i].buf_size == buf_size)
			return &ref->rows[i];
	return NULL;
}

/* True if reference ref stands beside variant v (its named variant, on any dir). */
bool
sweep_ref_matches(const struct sweep_result *r, const struct scn_reference *ref, size_t v)
{
	return v < r->n_variants &&
	    r->variants[v].v == r->variants[sweep_ref_variant(r, ref)].v;
}

/* The variant a reference stands beside. */
size_t
sweep_ref_variant(const struct sweep_result *r, const struct scn_reference *ref)
{
	if (ref->variant != NULL)
		for (size_t v = 0; v < r->n_variants; v++)
			if (r->variants[v].v->name != NULL &&
			    strcmp(r->variants[v].v->name, ref->variant) == 0)
				return v;
	return 0;
}

/* Row BUF_SIZE of result variant bv, or NULL (why in buf) when it has no counted runs. */
static const struct sweep_row *
sweep_row_ran(const struct sweep_variant *bv, uint64_t buf_size, char *why, size_t len)
{
	for (size_t i = 0; i < bv->n_rows; i++) {
		const struct sweep_row *row = &bv->rows[i];
		if (row->buf_size != buf_size)
			continue;
		if (row->n_runs > 0 && row->err == 0)
			return row;
		snprintf(why, len, "%s at BUF_SIZE %llu did not run here%s%s", bv->v->name,
			 (unsigned long long)buf_size, row->note[0] ? ": " : "", row->note);
		return NULL;
	}
	snprintf(why, len, "%s at BUF_SIZE %llu did not run here (the sweep stopped)",
		 bv->v->name, (unsigned long long)buf_size);
	return NULL;
}

/* A time in seconds for people ("460 ms"), into buf. */
static const char *
sweep_secs(double s, char *buf, size_t len)
{
	return units_format_ns(s > 0 ? (uint64_t)(s * 1e9) : 0, buf, len);
}

/* Sweep variant V's (an index into sw->variants) row of BUF_SIZE, timed here: its extrapolated
 * median in text, each place's after its filesystem when it ran in several. 0, or -1 with why
 * in text when it did not run. */
int
sweep_row_quote(const struct sweep_result *r, size_t v, uint64_t buf_size, char *text, size_t len)
{
	size_t n = 0, copies = 0;

	text[0] = '\0';
	for (size_t i = 0; i < r->n_variants; i++)
		copies += (size_t)(r->variants[i].v - r->sw->variants) == v;
	for (size_t i = 0; i < r->n_variants; i++) {
		const struct sweep_variant *bv = &r->variants[i];
		const struct sweep_row *row;
		char t[32];
		if ((size_t)(bv->v - r->sw->variants) != v)
			continue;
		if ((row = sweep_row_ran(bv, buf_size, text, len)) == NULL)
			return -1;
		sweep_secs(sweep_row_extrapolated(row), t, sizeof t);
		if (n + 1 < len)
			n += (size_t)snprintf(text + n, len - n, "%s%s%s%s", n > 0 ? ", " : "", t,
					      copies > 1 ? " on " : "", copies > 1 ? bv->fs : "");
	}
	return 0;
}

/* Row a against row b: 1 if the middle half of a's runs took longer than the middle half of
 * b's (first quartile above third, each extrapolated to file_size; from 5 runs on, one
 * outlier moves neither quartile; with 3 or 4 it can only widen the half, toward "alike"),
 * -1 the other way round, 0 if they overlap. */
static int
sweep_rel(const struct sweep_row *a, const struct sweep_row *b)
{
	if (sweep_row_scale_time(a, a->elapsed.q1) > sweep_row_scale_time(b, b->elapsed.q3))
		return 1;
	if (sweep_row_scale_time(a, a->elapsed.q3) < sweep_row_scale_time(b, b->elapsed.q1))
		return -1;
	return 0;
}

/* How sweep variant v[0]'s row of buf[0] timed here against v[1]'s of buf[1]. */
int
sweep_compare(const struct sweep_result *r, const size_t v[2], const uint64_t buf[2], char *text,
	      size_t len)
{
	static const char *const words[] = { "faster than", "about as fast as", "slower than" };
	int rel = 2;
	size_t n = 0;

	text[0] = '\0';
	/* Pairs run in the same place (a tmpfs variant has one copy, beside each of the other's). */
	for (size_t i = 0; i < r->n_variants; i++) {
		const struct sweep_variant *a = &r->variants[i];
		if ((size_t)(a->v - r->sw->variants) != v[0])
			continue;
		for (size_t j = 0; j < r->n_variants; j++) {
			const struct sweep_variant *b = &r->variants[j];
			const struct sweep_row *ra, *rb;
			if ((size_t)(b->v - r->sw->variants) != v[1] ||
			    (v[0] == v[1] ? i != j : strcmp(a->given_dir, b->given_dir) != 0 &&
			     a->v->on != SCN_FS_TMPFS && b->v->on != SCN_FS_TMPFS))
				continue;
			if ((ra = sweep_row_ran(a, buf[0], text, len)) == NULL ||
			    (rb = sweep_row_ran(b, buf[1], text, len)) == NULL)
				return -2;
			/* Fewer runs have no middle half to speak of. */
			if (ra->n_runs < SWEEP_COMPARE_RUNS || rb->n_runs < SWEEP_COMPARE_RUNS) {
				snprintf(text, len, "%zu and %zu counted runs: too few to compare (%d "
					 "at least)", ra->n_runs, rb->n_runs, SWEEP_COMPARE_RUNS);
				return -2;
			}
			int k = sweep_rel(ra, rb);
			char a0[32], a1[32], b0[32], b1[32];
			if (n + 1 >= len)
				continue;
			n += (size_t)snprintf(text + n, len - n,
					      "%s%s@%llu (%s ... %s) %s %s@%llu (%s ... %s)%s%s",
					      n > 0 ? "; " : "", a->v->name, (unsigned long long)buf[0],
					      sweep_secs(sweep_row_scale_time(ra, ra->elapsed.q1), a0,
							 sizeof a0),
					      sweep_secs(sweep_row_scale_time(ra, ra->elapsed.q3), a1,
							 sizeof a1),
					      words[k + 1], b->v->name, (unsigned long long)buf[1],
					      sweep_secs(sweep_row_scale_time(rb, rb->elapsed.q1), b0,
							 sizeof b0),
					      sweep_secs(sweep_row_scale_time(rb, rb->elapsed.q3), b1,
							 sizeof b1),
					      a->given_dir[0] ? " on " : "", a->given_dir[0] ? a->fs : "");
			if (rel != 2 && rel != k)
				rel = -3;
			else if (rel != -3)
				rel = k;
		}
	}
	if (rel == 2) {
		snprintf(text, len, "no rows of these variants ran in the same place");
		return -2;
	}
	return rel == -3 ? -2 : rel;
}
