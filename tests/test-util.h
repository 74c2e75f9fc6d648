/* SPDX-License-Identifier: MIT */
/* test-util.h: what every Check program here does the same way. */
#ifndef IOBUFVIZ_TEST_UTIL_H
#define IOBUFVIZ_TEST_UTIL_H

#include <stddef.h>

#include <check.h>

/*
 * Path of rel in the source tree into buf: under $IOBUFVIZ_SRCDIR (set by make check),
 * else under the source dir configure saw. Return buf.
 */
const char *test_util_src_path(const char *rel, char *buf, size_t len);

/* Run every test of s, free it, remove leftover scratch dirs; return the exit status. */
int test_util_run(Suite *s);

#endif
