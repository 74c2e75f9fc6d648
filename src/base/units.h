/* SPDX-License-Identifier: MIT */
/* base/units.h: sizes and durations as people write and read them. */
#ifndef IOBUFVIZ_UNITS_H
#define IOBUFVIZ_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * Parse a size: "4096", "4KiB", "4 KiB", "1MiB", "1GiB", "100MB", "4kB", "512B".
 * Binary suffixes (KiB, MiB, GiB) are powers of 1024, decimal ones (kB/KB, MB, GB)
 * powers of 1000. Return 0 and set *out, or -1 (bad syntax) or -2 (overflow).
 */
int units_parse_size(const char *s, uint64_t *out);

/* Write a size for people ("904 B", "4 KiB", "1.5 MiB") into buf. Return buf. */
char *units_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Write a size as a scenario would: in decimal units when it is round in them and not in
 * binary ones ("100 MB", "1000 kB"), else as units_format_size ("4 MiB", "904 B"). Return buf.
 */
char *units_format_size_round(uint64_t bytes, char *buf, size_t len);

/* Write a duration given in nanoseconds ("850 ns", "2.1 µs", "3.40 ms", "1.20 s"). */
char *units_format_ns(uint64_t ns, char *buf, size_t len);

/* Nanoseconds from a to b (0 if b is not later). */
uint64_t units_ns_between(const struct timespec *a, const struct timespec *b);

#endif
