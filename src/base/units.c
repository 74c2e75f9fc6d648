/* SPDX-License-Identifier: MIT */
/* base/units.c: sizes and durations as people write and read them. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"

/* Multiplier for a size suffix, or 0 if unknown. */
static uint64_t
units_suffix(const char *s)
{
	static const struct { const char *name; uint64_t mult; } table[] = {
		{ "", 1 }, { "B", 1 },
		{ "KiB", 1024 }, { "MiB", 1024 * 1024 }, { "GiB", 1024 * 1024 * 1024 },
		{ "kB", 1000 }, { "KB", 1000 }, { "MB", 1000 * 1000 }, { "GB", 1000 * 1000 * 1000 },
		{ "k", 1000 }, { "K", 1024 }, { "M", 1024 * 1024 }, { "G", 1024 * 1024 * 1024 },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(s, table[i].name) == 0)
			return table[i].mult;
	return 0;
}

/* Parse a size with an optional suffix. */
int
units_parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	char *end;
	uint64_t n, mult;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	n = strtoull(p, &end, 10);
	if (errno == ERANGE)
		return -2;
	while (isspace((unsigned char)*end))
		end++;
	/* Allow trailing space after the suffix, nothing else. */
	char suffix[8];
	size_t k = 0;
	while (*end && !isspace((unsigned char)*end) && k < sizeof suffix - 1)
		suffix[k++] = *end++;
	suffix[k] = '\0';
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -1;
	mult = units_suffix(suffix);
	if (mult == 0)
		return -1;
	if (n != 0 && mult > UINT64_MAX / n)
		return -2;
	*out = n * mult;
	return 0;
}

/* Format a size for people. */
char *
units_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return buf;
	}
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

/* A size in the unit it is round in: "100 MB" stays decimal, "4 MiB" binary. */
char *
units_format_size_round(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1000000 && bytes % 1000000 == 0 && bytes % (1 << 20) != 0)
		snprintf(buf, len, "%" PRIu64 " MB", bytes / 1000000);
	else if (bytes >= 1000 && bytes % 1000 == 0 && bytes % 1024 != 0)
		snprintf(buf, len, "%" PRIu64 " kB", bytes / 1000);
	else
		units_format_size(bytes, buf, len);
	return buf;
}

/* Format a duration for people. */
char *
units_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f µs", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

/* Nanoseconds from a to b, never negative. */
uint64_t
units_ns_between(const struct timespec *a, const struct timespec *b)
{
	int64_t ns = (int64_t)(b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);

	return ns > 0 ? (uint64_t)ns : 0;
}
