/* SPDX-License-Identifier: MIT */
/* check-units.c: size parsing and formatting. */
#include <config.h>

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "test-util.h"

/* Parse s and return the value; fail the test if it does not parse. */
static uint64_t
parse_ok(const char *s)
{
	uint64_t v = 0;
	int rc = units_parse_size(s, &v);
	ck_assert_msg(rc == 0, "'%s' did not parse (rc %d)", s, rc);
	return v;
}

START_TEST(test_plain_and_binary)
{
	ck_assert_uint_eq(parse_ok("0"), 0);
	ck_assert_uint_eq(parse_ok("4096"), 4096);
	ck_assert_uint_eq(parse_ok("512B"), 512);
	ck_assert_uint_eq(parse_ok("4KiB"), 4096);
	ck_assert_uint_eq(parse_ok("4 KiB"), 4096);
	ck_assert_uint_eq(parse_ok("1MiB"), 1048576);
	ck_assert_uint_eq(parse_ok("1GiB"), 1073741824);
	ck_assert_uint_eq(parse_ok(" 64KiB "), 65536);
}
END_TEST

START_TEST(test_decimal)
{
	ck_assert_uint_eq(parse_ok("100MB"), 100000000);
	ck_assert_uint_eq(parse_ok("4kB"), 4000);
	ck_assert_uint_eq(parse_ok("4KB"), 4000);
	ck_assert_uint_eq(parse_ok("2GB"), 2000000000);
}
END_TEST

START_TEST(test_bad)
{
	static const char *bad[] = { "", "KiB", "-3", "4 KiBB", "4 kib", "abc", "1.5MiB",
	                             "4 K i B", "4MiB x", "0x10", "+4" };
	uint64_t v = 77;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(units_parse_size(bad[i], &v) == -1, "'%s' parsed", bad[i]);
		ck_assert_uint_eq(v, 77);
	}
}
END_TEST

START_TEST(test_overflow)
{
	uint64_t v;
	ck_assert_int_eq(units_parse_size("99999999999999999999999", &v), -2);
	ck_assert_int_eq(units_parse_size("17179869184GiB", &v), -2);
	ck_assert_int_eq(units_parse_size("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(test_format)
{
	char b[32];
	ck_assert_str_eq(units_format_size(904, b, sizeof b), "904 B");
	ck_assert_str_eq(units_format_size(4096, b, sizeof b), "4 KiB");
	ck_assert_str_eq(units_format_size(1536 * 1024, b, sizeof b), "1.5 MiB");
	ck_assert_str_eq(units_format_size(1073741824, b, sizeof b), "1 GiB");
	/* As a scenario writes it: decimal only where it is round in decimal alone. */
	ck_assert_str_eq(units_format_size_round(100000000, b, sizeof b), "100 MB");
	ck_assert_str_eq(units_format_size_round(1000, b, sizeof b), "1 kB");
	ck_assert_str_eq(units_format_size_round(5000, b, sizeof b), "5 kB");
	ck_assert_str_eq(units_format_size_round(4 << 20, b, sizeof b), "4 MiB");
	ck_assert_str_eq(units_format_size_round(904, b, sizeof b), "904 B");
	ck_assert_str_eq(units_format_ns(850, b, sizeof b), "850 ns");
	ck_assert_str_eq(units_format_ns(2100, b, sizeof b), "2.1 µs");
	ck_assert_str_eq(units_format_ns(3400000, b, sizeof b), "3.40 ms");
	ck_assert_str_eq(units_format_ns(1200000000, b, sizeof b), "1.20 s");
}
END_TEST

/* The suite. */
static Suite *
units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("sizes");
	tcase_add_test(tc, test_plain_and_binary);
	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(units_suite());
}
