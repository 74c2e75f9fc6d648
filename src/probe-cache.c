/* SPDX-License-Identifier: MIT */
/* probe-cache.c: page cache of the scratch file by cachestat(2), or mincore(2) without it. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"

/*
 * cachestat(2) arrived in Linux 6.5; Debian 12's headers know neither the syscall number
 * nor the structs, so we declare them ourselves (same layout as <linux/mman.h>).
 */
#define PC_NR_CACHESTAT 451

struct pc_cachestat_range {
	uint64_t off, len;
};

struct pc_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* Pages looked at per mincore(2) call: bounds the vector, whatever the file size. */
#define PC_MINCORE_CHUNK 4096

/* Call cachestat(2) on bytes [off, off + len) of fd. */
static int
probe_cache_stat(int fd, uint64_t off, uint64_t len, struct pc_cachestat *cs)
{
	struct pc_cachestat_range range = { off, len };

	memset(cs, 0, sizeof *cs);
	return (int)syscall(PC_NR_CACHESTAT, fd, &range, cs, 0);
}

/* Read Dirty and Writeback (kB) from /proc/meminfo; leave 0 where unreadable. */
static void
probe_cache_meminfo(struct snap_cache *out)
{
	char line[256];
	unsigned long long v;
	FILE *f = fopen("/proc/meminfo", "re");

	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		/* Exact keys: "WritebackTmp:" must not match "Writeback:". */
		if (sscanf(line, "Dirty: %llu", &v) == 1)
			out->sys_dirty_kb = v;
		else if (sscanf(line, "Writeback: %llu", &v) == 1)
			out->sys_writeback_kb = v;
	}
	fclose(f);
}

/*
 * Pages per grid cell for a file of pages pages: 1 up to SNAP_MAX_CELLS pages, then the
 * smallest power of two that keeps the grid within SNAP_MAX_CELLS cells.
 */
static uint32_t
probe_cache_pages_per_cell(uint64_t pages)
{
	uint64_t ppc = 1;

	while ((pages + ppc - 1) / ppc > SNAP_MAX_CELLS)
		ppc <<= 1;
	return (uint32_t)ppc;
}

/* Short name of the errno that made cachestat unusable, for the note. */
static const char *
probe_cache_errname(int err)
{
	switch (err) {
	case ENOSYS:
		return "ENOSYS";
	case EPERM:
		return "EPERM";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return "error";
	}
}

/* True when the test hook asks us to behave as on a kernel without cachestat(2). */
static int
probe_cache_forced_off(void)
{
	const char *v = getenv("IOBUFVIZ_NO_CACHESTAT");

	return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

/* Fill per-cell and whole-file counts with cachestat(2). 0, or -1 with errno. */
static int
probe_cache_by_cachestat(int fd, long psz, struct snap_cache *out)
{
	struct pc_cachestat cs;
	uint64_t span = out->pages * (uint64_t)psz;
	uint64_t cell_bytes = (uint64_t)out->pages_per_cell * (uint64_t)psz;

	/* len 0 would mean "to end of file": an empty file simply has nothing cached. */
	if (out->pages == 0)
		return 0;
	if (probe_cache_stat(fd, 0, span, &cs) != 0)
		return -1;
	out->cached = cs.nr_cache;
	out->dirty = cs.nr_dirty;
	out->writeback = cs.nr_writeback;
	for (size_t i = 0; i < out->n_cells; i++) {
		uint64_t off = (uint64_t)i * cell_bytes;
		uint64_t len = span - off < cell_bytes ? span - off : cell_bytes;

		if (probe_cache_stat(fd, off, len, &cs) != 0)
			return -1;
		out->cells[i].cached = (uint32_t)cs.nr_cache;
		out->cells[i].dirty = (uint32_t)cs.nr_dirty;
		out->cells[i].writeback = (uint32_t)cs.nr_writeback;
	}
	return 0;
}

/*
 * Fill residency with mincore(2) on a read-only shared mapping. The mapping is always
 * removed before returning: pages still mapped are not dropped by POSIX_FADV_DONTNEED,
 * so keeping it would change what the next step observes. 0, or -1 with errno.
 */
static int
probe_cache_by_mincore(int fd, long psz, struct snap_cache *out)
{
	unsigned char vec[PC_MINCORE_CHUNK];
	uint64_t span = out->pages * (uint64_t)psz;
	int rfd = -1, err = 0;
	void *map;

	if (out->pages == 0)
		return 0;
	map = mmap(NULL, span, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED && errno == EACCES) {
		/* fd is write-only: map a read-only reopen of the same open file instead. */
		char path[64];

		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		rfd = open(path, O_RDONLY | O_CLOEXEC);
		if (rfd < 0)
			return -1;
		map = mmap(NULL, span, PROT_READ, MAP_SHARED, rfd, 0);
	}
	if (map == MAP_FAILED) {
		err = errno;
		if (rfd >= 0)
			close(rfd);
		errno = err;
		return -1;
	}
	for (uint64_t p = 0; p < out->pages; p += PC_MINCORE_CHUNK) {
		uint64_t n = out->pages - p < PC_MINCORE_CHUNK ? out->pages - p : PC_MINCORE_CHUNK;

		if (mincore((char *)map + p * (uint64_t)psz, n * (uint64_t)psz, vec) != 0) {
			err = errno;
			break;
		}
		for (uint64_t k = 0; k < n; k++) {
			if (vec[k] & 1) {
				out->cached++;
				out->cells[(p + k) / out->pages_per_cell].cached++;
			}
		}
	}
	munmap(map, span);
	if (rfd >= 0)
		close(rfd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* Fill out with the page cache state of fd (size bytes). 0, or -1 with out->note saying why. */
int
probe_cache(int fd, uint64_t size, struct snap_cache *out)
{
	long psz = sysconf(_SC_PAGESIZE);
	int why;

	memset(out, 0, sizeof *out);
	out->file_size = size;
	out->pages = (size + (uint64_t)psz - 1) / (uint64_t)psz;
	out->pages_per_cell = probe_cache_pages_per_cell(out->pages);
	out->n_cells = (size_t)((out->pages + out->pages_per_cell - 1) / out->pages_per_cell);
	probe_cache_meminfo(out);

	if (!probe_cache_forced_off()) {
		if (probe_cache_by_cachestat(fd, psz, out) == 0) {
			out->source = SNAP_SRC_CACHESTAT;
			out->has_dirty = true;
			return 0;
		}
		why = errno;
		if (why != ENOSYS && why != EPERM && why != EOPNOTSUPP) {
			snprintf(out->note, sizeof out->note, "cachestat(2) failed: %s",
			         strerror(why));
			out->source = SNAP_SRC_NONE;
			return -1;
		}
		snprintf(out->note, sizeof out->note,
		         "cachestat(2) not available on this kernel (%s): residency from "
		         "mincore(2), dirty state unknown", probe_cache_errname(why));
	} else {
		snprintf(out->note, sizeof out->note,
		         "cachestat(2) turned off (IOBUFVIZ_NO_CACHESTAT): residency from "
		         "mincore(2), dirty state unknown");
	}

	/* Start again from zero: a cachestat that failed half-way may have filled cells. */
	out->cached = out->dirty = out->writeback = 0;
	memset(out->cells, 0, sizeof out->cells);
	out->has_dirty = false;
	if (probe_cache_by_mincore(fd, psz, out) != 0) {
		why = errno;
		snprintf(out->note, sizeof out->note,
		         "neither cachestat(2) nor mincore(2) worked: %s", strerror(why));
		out->source = SNAP_SRC_NONE;
		return -1;
	}
	out->source = SNAP_SRC_MINCORE;
	return 0;
}
