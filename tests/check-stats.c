/* SPDX-License-Identifier: MIT */
/* check-stats.c: the sweep statistics on data whose answers are known by hand. */
#include <config.h>

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "sweep/stats.h"
#include "test-util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The textbook sample: mean 5, population sd 2, sample sd sqrt(32/7). */
START_TEST(test_textbook)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats_summary s;

	ck_assert_double_eq_tol(stats_mean(x, N(x)), 5.0, 1e-12);
	ck_assert_double_eq_tol(stats_stddev(x, N(x)), sqrt(32.0 / 7.0), 1e-12);
	ck_assert_double_eq_tol(stats_median(x, N(x)), 4.5, 1e-12);
	ck_assert_double_eq(stats_min(x, N(x)), 2.0);
	ck_assert_double_eq(stats_max(x, N(x)), 9.0);
	/* |x - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5: median 0.5 */
	ck_assert_double_eq_tol(stats_mad(x, N(x)), 0.5, 1e-12);
	stats_summarize(x, N(x), &s);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_uint_eq(s.n_outliers, 0);   /* 9 has z = 9 < 14.826 */
	ck_assert(!s.first_slow);
}
END_TEST

/* Median of an odd count, unsorted input left untouched. */
START_TEST(test_median_odd)
{
	double x[] = { 3, 1, 2 };

	ck_assert_double_eq(stats_median(x, 3), 2.0);
	ck_assert_double_eq(x[0], 3.0);
	ck_assert_double_eq(stats_median(x, 1), 3.0);
	ck_assert_double_eq(stats_stddev(x, 1), 0.0);
	ck_assert_double_eq(stats_median(x, 0), 0.0);
}
END_TEST

/* One slow run among steady ones: z = (5 - 1) / 0.05 = 80. */
START_TEST(test_outlier)
{
	const double x[] = { 1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 5.0 };
	double z[N(x)];
	bool flags[N(x)];

	stats_zscores(x, N(x), z);
	ck_assert_double_eq_tol(z[7], 80.0, 1e-9);
	ck_assert_double_eq_tol(z[1], 2.0, 1e-9);
	ck_assert_uint_eq(stats_outliers(x, N(x), STATS_OUTLIER_THRESHOLD, flags), 1);
	ck_assert(flags[7] && !flags[0] && !flags[1]);
	ck_assert(!stats_first_slow(x, N(x), STATS_OUTLIER_THRESHOLD));
	/* A tighter threshold (Iglewicz-Hoaglin's 3.5 / 0.6745 = 5.19) finds no more here. */
	ck_assert_uint_eq(stats_outliers(x, N(x), 3.5 / 0.6745, NULL), 1);
}
END_TEST

/* The same data with the slow run first: hyperfine's "first run was significantly slower". */
START_TEST(test_first_slow)
{
	const double x[] = { 5.0, 1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0 };
	const double fast_first[] = { 0.2, 1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0 };
	struct stats_summary s;

	stats_summarize(x, N(x), &s);
	ck_assert(s.first_slow);
	ck_assert_uint_eq(s.n_outliers, 1);
	/* A fast first run is an outlier but not "slower". */
	stats_summarize(fast_first, N(fast_first), &s);
	ck_assert(!s.first_slow);
	ck_assert_uint_eq(s.n_outliers, 1);
}
END_TEST

/* Identical runs: MAD 0 is replaced by epsilon, so any deviation counts (as in hyperfine). */
START_TEST(test_mad_zero)
{
	const double x[] = { 1, 1, 1, 1, 2 };
	const double same[] = { 3, 3, 3 };

	ck_assert_double_eq(stats_mad(x, N(x)), 0.0);
	ck_assert_uint_eq(stats_outliers(x, N(x), STATS_OUTLIER_THRESHOLD, NULL), 1);
	ck_assert_uint_eq(stats_outliers(same, N(same), STATS_OUTLIER_THRESHOLD, NULL), 0);
	ck_assert_double_eq(stats_stddev(same, N(same)), 0.0);
}
END_TEST

/* More values than the stack buffer holds: heap path gives the same answers. */
START_TEST(test_large)
{
	enum { n = 1001 };
	double *x = malloc(n * sizeof *x);

	ck_assert_ptr_nonnull(x);
	for (int i = 0; i < n; i++)
		x[i] = (double)((i * 7919) % n);   /* a permutation of 0..1000 */
	ck_assert_double_eq(stats_median(x, n), 500.0);
	ck_assert_double_eq_tol(stats_mean(x, n), 500.0, 1e-9);
	ck_assert_double_eq(stats_mad(x, n), 250.0);
	ck_assert_uint_eq(stats_outliers(x, n, STATS_OUTLIER_THRESHOLD, NULL), 0);
	free(x);
}
END_TEST

/* The suite. */
static Suite *
stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_textbook);
	tcase_add_test(tc, test_median_odd);
	tcase_add_test(tc, test_outlier);
	tcase_add_test(tc, test_first_slow);
	tcase_add_test(tc, test_mad_zero);
	tcase_add_test(tc, test_large);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(stats_suite());
}
