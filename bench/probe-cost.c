/* SPDX-License-Identifier: MIT */
/* probe-cost.c: how long probe_cache (each source) and probe_disk take on 1 MiB to 1 GiB files. */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "probe/probe.h"
#include "scratch/scratch.h"
#include "sweep/stats.h"

#define RUNS 50
#define CHUNK (64u << 10)  /* written piece: one large folio on ext4 */
#define STRIDE 16          /* one chunk in STRIDE is written (unless a size says 1) */

/* Microseconds of CLOCK_MONOTONIC. */
static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Median, min and max of t[0..n). */
static void
stats(const double *t, int n, double *med, double *lo, double *hi)
{
	*med = stats_median(t, (size_t)n);
	*lo = stats_min(t, (size_t)n);
	*hi = stats_max(t, (size_t)n);
}

/* Time RUNS calls of probe_cache_as(want) and probe_disk on fd; print one line per probe. */
static int
measure(const char *label, int fd, uint64_t size, enum snap_source want, struct snap_cache *c,
        struct snap_disk *d)
{
	const char *verdict = "";
	double tc[RUNS], td[RUNS], tt[RUNS], m, lo, hi;

	for (int i = 0; i < RUNS; i++) {
		double t0 = now_us(), t1, t2;

		if (probe_cache_as(fd, size, want, c) != 0) {
			fprintf(stderr, "probe-cost: probe_cache: %s\n", c->note);
			return -1;
		}
		t1 = now_us();
		if (probe_disk(fd, d) != 0) {
			fprintf(stderr, "probe-cost: probe_disk: %s\n", d->note);
			return -1;
		}
		t2 = now_us();
		tc[i] = t1 - t0;
		td[i] = t2 - t1;
		tt[i] = t2 - t0;
	}
	stats(tc, RUNS, &m, &lo, &hi);
	printf("%-26s cache %-9s %5zu cells x %4u pg  median %8.1f us  (min %8.1f, max %8.1f)\n",
	       label, probe_cache_source_name(c->source),
	       c->n_cells, c->pages_per_cell, m, lo, hi);
	stats(td, RUNS, &m, &lo, &hi);
	printf("%-26s disk  FIEMAP    %5zu extents%s         median %8.1f us  (min %8.1f, max %8.1f)\n",
	       "", d->n_extents, d->extents_truncated ? "+" : " ", m, lo, hi);
	stats(tt, RUNS, &m, &lo, &hi);
	/* The 5 ms target is for the normal path; the mincore fallback is shown for scale. */
	if (size >= (1ull << 30) && c->source == SNAP_SRC_CACHESTAT)
		verdict = m <= 5000 ? "  [target <= 5 ms: met]" : "  [target <= 5 ms: MISSED]";
	printf("%-26s both                                  median %8.1f us  (min %8.1f, max %8.1f)%s\n",
	       "", m, lo, hi, verdict);
	printf("%-26s (cached %llu, dirty %llu of %llu pages; allocated %llu, delalloc %llu, "
	       "unwritten %llu bytes)\n", "",
	       (unsigned long long)c->cached, (unsigned long long)c->dirty,
	       (unsigned long long)c->pages, (unsigned long long)d->allocated_bytes,
	       (unsigned long long)d->delalloc_bytes, (unsigned long long)d->unwritten_bytes);
	return 0;
}

/*
 * Reserve size bytes (fallocate, or a sparse ftruncate), write one CHUNK in stride, and
 * measure dirty, then synced; by every source when all is set, else by the chain.
 */
static int
sweep_size(int idx, const char *name, uint64_t size, int sparse, unsigned stride, bool all,
           struct snap_cache *c, struct snap_disk *d)
{
	static const enum snap_source each[] = { SNAP_SRC_CACHESTAT, SNAP_SRC_KPAGEFLAGS,
	                                         SNAP_SRC_MINCORE };
	size_t n_src = all ? sizeof each / sizeof each[0] : 1;
	static char buf[CHUNK];
	char label[64];
	int fd = scratch_create(idx, name, O_RDWR), rc = 0;

	if (fd < 0) {
		perror("probe-cost: create");
		return -1;
	}
	memset(buf, 'b', sizeof buf);
	if ((sparse || fallocate(fd, 0, 0, (off_t)size) != 0) && ftruncate(fd, (off_t)size) != 0) {
		perror("probe-cost: fallocate/ftruncate");
		close(fd);
		return -1;
	}
	for (uint64_t off = 0; off < size; off += (uint64_t)CHUNK * stride) {
		if (pwrite(fd, buf, CHUNK, (off_t)off) != (ssize_t)CHUNK) {
			perror("probe-cost: pwrite");
			close(fd);
			return -1;
		}
	}
	/* Measured at once: background writeback would start after dirty_expire (30 s). */
	snprintf(label, sizeof label, "%s, 1/%u dirty", name, stride);
	/* A source that cannot work here (kpageflags when not root) is said and left out. */
	for (size_t s = 0; rc == 0 && s < n_src; s++)
		if (measure(label, fd, size, all ? each[s] : SNAP_SRC_NONE, c, d) != 0 && s == 0)
			rc = -1;
	if (rc == 0 && fsync(fd) == 0) {
		snprintf(label, sizeof label, "%s, after fsync", name);
		for (size_t s = 0; rc == 0 && s < n_src; s++)
			if (measure(label, fd, size, all ? each[s] : SNAP_SRC_NONE, c, d) != 0 && s == 0)
				rc = -1;
	}
	if (rc == 0 && size >= (1ull << 30) && !sparse) {
		/* The fallbacks on the biggest file, for comparison. */
		snprintf(label, sizeof label, "%s, fsync, fallbacks", name);
		measure(label, fd, size, SNAP_SRC_KPAGEFLAGS, c, d);
		measure(label, fd, size, SNAP_SRC_MINCORE, c, d);
	}
	/* Leave the cache as we found it, not 64 MiB fuller. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return rc;
}

/* Run the benchmark in a scratch dir under $TMPDIR or /tmp. */
int
main(void)
{
	static const struct {
		const char *name;
		uint64_t size;
		int sparse;
		unsigned stride;
		bool all;        /* every page cache source, not just the chain */
	} sizes[] = {
		{ "1MiB", 1ull << 20, 0, STRIDE, false }, { "64MiB", 64ull << 20, 0, STRIDE, true },
		{ "64MiB-all", 64ull << 20, 0, 1, true }, { "1GiB", 1ull << 30, 0, STRIDE, false },
		{ "1GiB-sparse", 1ull << 30, 1, STRIDE, false },
	};
	struct snap_cache *c = malloc(sizeof *c);
	struct snap_disk *d = calloc(1, sizeof *d);
	struct statvfs vfs;
	int idx, rc = 0;

	if (c == NULL || d == NULL)
		return 1;
	idx = scratch_mkdir(NULL);
	if (idx < 0) {
		perror("probe-cost: scratch_mkdir");
		return 1;
	}
	/* The files add up to about 1.2 GiB; ask for 2 GiB to spare. */
	if (statvfs(scratch_dir(idx), &vfs) != 0 ||
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < (2ull << 30)) {
		fprintf(stderr, "probe-cost: less than 2 GiB free in %s; not run\n",
		        scratch_dir(idx));
		scratch_remove(idx);
		return 77;
	}
	printf("probe-cost: %d runs each, in %s; writes %u KiB in every %u\n", RUNS,
	       scratch_dir(idx), CHUNK >> 10, STRIDE);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && rc == 0; k++) {
		rc = sweep_size(idx, sizes[k].name, sizes[k].size, sizes[k].sparse, sizes[k].stride,
		                sizes[k].all, c, d);
		if (rc == 0 && k == 0)
			printf("%-26s fs %s on %s\n", "", d->fs, d->device[0] ? d->device : "?");
	}
	scratch_remove(idx);
	free(c);
	free(d);
	return rc == 0 ? 0 : 1;
}
