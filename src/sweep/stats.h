/* SPDX-License-Identifier: MIT */
/* sweep/stats.h: summary statistics of repeated timings, the way hyperfine reports them. */
#ifndef IOBUFVIZ_STATS_H
#define IOBUFVIZ_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * hyperfine's outlier threshold on the modified Z-score (x - median) / MAD:
 * 10 "standard deviations" of a normal sample, since MAD * 1.4826 estimates sigma.
 */
#define STATS_OUTLIER_THRESHOLD 14.826

/* Everything the sweep table shows about one set of timings. */
struct stats_summary {
	size_t n;
	double median, mean, sd;     /* sd: sample standard deviation (n - 1), 0 if n < 2 */
	double min, max;
	double q1, q3;               /* first and third quartiles: the middle half of the runs */
	double mad;                  /* median absolute deviation (unscaled) */
	size_t n_outliers;           /* |modified Z| > STATS_OUTLIER_THRESHOLD */
	bool first_slow;             /* the first run is such an outlier on the slow side */
};

/* Quantile q (0..1) of x[0..n) (x is not changed), interpolated between the sorted values;
 * 0 if n == 0. */
double stats_quantile(const double *x, size_t n, double q);

/* Median of x[0..n) (x is not changed); 0 if n == 0. */
double stats_median(const double *x, size_t n);

/* Arithmetic mean; 0 if n == 0. */
double stats_mean(const double *x, size_t n);

/* Sample standard deviation (divides by n - 1); 0 if n < 2. */
double stats_stddev(const double *x, size_t n);

/* Smallest and largest value; 0 if n == 0. */
double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);

/* Median absolute deviation from the median (not scaled by 1.4826). */
double stats_mad(const double *x, size_t n);

/*
 * hyperfine's modified Z-scores: z[i] = (x[i] - median) / MAD, with MAD replaced by
 * DBL_EPSILON when it is 0. z must hold n values.
 */
void stats_zscores(const double *x, size_t n, double *z);

/* How many |z| exceed threshold; flags (may be NULL) gets one bool per value. */
size_t stats_outliers(const double *x, size_t n, double threshold, bool *flags);

/* True if the first value is an outlier on the slow side (hyperfine's "first run slower"). */
bool stats_first_slow(const double *x, size_t n, double threshold);

/* Fill out with all of the above for x[0..n). */
void stats_summarize(const double *x, size_t n, struct stats_summary *out);

#endif
