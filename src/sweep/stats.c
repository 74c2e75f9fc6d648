/* SPDX-License-Identifier: MIT */
/* sweep/stats.c: summary statistics of repeated timings (pure functions, no I/O). */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/stats.h"

/* qsort comparator for doubles. */
static int
stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of x[0..n), interpolated between the sorted values (R's type 7). */
double
stats_quantile(const double *x, size_t n, double q)
{
	double small[64], *s = small, h, m;
	size_t lo;

	if (n == 0)
		return 0;
	if (n > sizeof small / sizeof small[0] && (s = malloc(n * sizeof *s)) == NULL)
		return NAN;
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, stats_cmp);
	h = (double)(n - 1) * q;
	lo = (size_t)h;
	m = lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
	if (s != small)
		free(s);
	return m;
}

/* Median of a sorted copy; the small arrays of a sweep row fit on the stack. */
double
stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

/* Arithmetic mean. */
double
stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/* Sample standard deviation, two-pass for accuracy. */
double
stats_stddev(const double *x, size_t n)
{
	double m, ss = 0;

	if (n < 2)
		return 0;
	m = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

/* Smallest value. */
double
stats_min(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return 0;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

/* Largest value. */
double
stats_max(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return 0;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

/* Median absolute deviation. */
double
stats_mad(const double *x, size_t n)
{
	double small[64], *d = small, med, mad;

	if (n == 0)
		return 0;
	if (n > sizeof small / sizeof small[0] && (d = malloc(n * sizeof *d)) == NULL)
		return NAN;
	med = stats_median(x, n);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	mad = stats_median(d, n);
	if (d != small)
		free(d);
	return mad;
}

/* Modified Z-scores as hyperfine computes them. */
void
stats_zscores(const double *x, size_t n, double *z)
{
	double med, mad;

	if (n == 0)
		return;
	med = stats_median(x, n);
	mad = stats_mad(x, n);
	/* hyperfine's choice: identical runs (MAD 0) make any deviation an outlier. */
	if (!(mad > 0))
		mad = DBL_EPSILON;
	for (size_t i = 0; i < n; i++)
		z[i] = (x[i] - med) / mad;
}

/* Count (and flag) the outliers. */
size_t
stats_outliers(const double *x, size_t n, double threshold, bool *flags)
{
	double small[64], *z = small;
	size_t count = 0;

	if (n == 0)
		return 0;
	if (n > sizeof small / sizeof small[0] && (z = malloc(n * sizeof *z)) == NULL)
		return 0;
	stats_zscores(x, n, z);
	for (size_t i = 0; i < n; i++) {
		bool out = fabs(z[i]) > threshold;
		if (flags != NULL)
			flags[i] = out;
		count += out;
	}
	if (z != small)
		free(z);
	return count;
}

/* Is the first run a slow outlier? (A cold first run despite warm-up, typically.) */
bool
stats_first_slow(const double *x, size_t n, double threshold)
{
	double small[64], *z = small;
	bool slow;

	/* Two values always have |z| = 1 each: no run can stand out from one other run. */
	if (n < 3)
		return false;
	if (n > sizeof small / sizeof small[0] && (z = malloc(n * sizeof *z)) == NULL)
		return false;
	stats_zscores(x, n, z);
	slow = z[0] > threshold;
	if (z != small)
		free(z);
	return slow;
}

/* Everything at once. */
void
stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	memset(out, 0, sizeof *out);
	out->n = n;
	if (n == 0)
		return;
	out->median = stats_median(x, n);
	out->q1 = stats_quantile(x, n, 0.25);
	out->q3 = stats_quantile(x, n, 0.75);
	out->mean = stats_mean(x, n);
	out->sd = stats_stddev(x, n);
	out->min = stats_min(x, n);
	out->max = stats_max(x, n);
	out->mad = stats_mad(x, n);
	out->n_outliers = n < 3 ? 0 : stats_outliers(x, n, STATS_OUTLIER_THRESHOLD, NULL);
	out->first_slow = stats_first_slow(x, n, STATS_OUTLIER_THRESHOLD);
}
