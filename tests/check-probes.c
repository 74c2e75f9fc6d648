/* SPDX-License-Identifier: MIT */
/* check-probes.c: the observers against the real kernel, in private scratch dirs. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/probe.h"
#include "scratch/scratch.h"
#include "probe/snapshot.h"
#include "test-util.h"

/*
 * Scratch dirs made by main() before the tests fork: a failing test ends with _exit() in
 * its child, so a dir made there would be left behind; these are removed by main().
 * Each test uses its own file names in them.
 */
static int disk_dir = -1, shm_dir = -1;

/* Page size, asked once per test. */
static long
pagesz(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* Create name in the scratch dir under parent (NULL: $TMPDIR or /tmp, else /dev/shm). */
static int
mkfile(const char *parent, const char *name, int flags, int *idx)
{
	int fd;

	*idx = parent == NULL ? disk_dir : shm_dir;
	ck_assert_msg(*idx >= 0, "no scratch dir for %s", parent ? parent : "$TMPDIR");
	fd = scratch_create(*idx, name, flags);
	ck_assert_msg(fd >= 0, "scratch_create: %s", strerror(errno));
	return fd;
}

/* Write n bytes of a pattern at the current offset, in one write(). */
static void
put(int fd, size_t n, unsigned char seed)
{
	unsigned char *b = malloc(n);

	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed + i);
	ck_assert_int_eq(write(fd, b, n), (ssize_t)n);
	free(b);
}

/* Two write()s leave two dirty pages; fsync cleans them; DONTNEED drops them. */
START_TEST(test_cache_dirty_fsync_dontneed)
{
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd = mkfile(NULL, "dirty", O_RDWR, &idx);

	ck_assert_ptr_nonnull(c);
	put(fd, 4096, 1);
	put(fd, 904, 2);
	ck_assert_int_eq(probe_cache(fd, 5000, c), 0);
	ck_assert_int_eq(c->source, SNAP_SRC_CACHESTAT);
	ck_assert(c->has_dirty);
	ck_assert_uint_eq(c->file_size, 5000);
	ck_assert_uint_eq(c->pages, (5000 + pagesz() - 1) / pagesz());
	ck_assert_uint_eq(c->cached, 2);
	ck_assert_uint_eq(c->dirty, 2);
	ck_assert_uint_eq(c->pages_per_cell, 1);
	ck_assert_uint_eq(c->n_cells, 2);
	ck_assert_uint_eq(c->cells[0].dirty, 1);
	ck_assert_uint_eq(c->cells[1].dirty, 1);
	ck_assert_int_eq(snapshot_cell_state(c, 0), SNAP_CELL_DIRTY);
	ck_assert_str_eq(c->note, "");

	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(probe_cache(fd, 5000, c), 0);
	ck_assert_uint_eq(c->cached, 2);
	ck_assert_uint_eq(c->dirty, 0);
	ck_assert_uint_eq(c->writeback, 0);
	ck_assert_int_eq(snapshot_cell_state(c, 1), SNAP_CELL_CLEAN);

	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	ck_assert_int_eq(probe_cache(fd, 5000, c), 0);
	ck_assert_uint_eq(c->cached, 0);
	ck_assert_int_eq(snapshot_cell_state(c, 0), SNAP_CELL_ABSENT);
	close(fd);
	free(c);
}
END_TEST

/* /proc/meminfo's Dirty grows (system-wide, so only "not zero") while we hold dirty pages. */
START_TEST(test_cache_meminfo)
{
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd = mkfile(NULL, "meminfo", O_RDWR, &idx);

	ck_assert_ptr_nonnull(c);
	put(fd, 1 << 20, 3);
	ck_assert_int_eq(probe_cache(fd, 1 << 20, c), 0);
	ck_assert_uint_eq(c->dirty, (1u << 20) / pagesz());
	/* Our 1 MiB is dirty right now, so the system-wide total cannot be 0. */
	ck_assert_uint_gt(c->sys_dirty_kb, 0);
	close(fd);
	free(c);
}
END_TEST

/* Fill fd with 64 pages, sync and drop them, read every fifth back: 13 cached, none dirty. */
static void
partly_cached(int fd, unsigned char seed)
{
	long ps = pagesz();
	char buf[64];

	put(fd, 64 * (size_t)ps, seed);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	/* No read-ahead, so only the pages we touch come back. */
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	for (int p = 0; p < 64; p += 5)
		ck_assert_int_eq(pread(fd, buf, sizeof buf, (off_t)p * ps), (ssize_t)sizeof buf);
}

/* cachestat(2) on pages [first, first + n) of fd, as the kernel says it (no probe between). */
static void
cells_truth(int fd, uint64_t first, uint64_t n, struct snap_cell *out)
{
	struct { uint64_t off, len; } range = { first * (uint64_t)pagesz(), n * (uint64_t)pagesz() };
	struct { uint64_t cache, dirty, writeback, evicted, recently_evicted; } cs = { 0 };

	ck_assert_int_eq(syscall(451, fd, &range, &cs, 0), 0);
	out->cached = (uint32_t)cs.cache;
	out->dirty = (uint32_t)cs.dirty;
	out->writeback = (uint32_t)cs.writeback;
}

/*
 * The cells of a 4097-page file (8 pages a cell, the last one short) whose pages are not
 * alike: a clean cached half, a dropped quarter, dirty pages alone and in runs that start
 * inside a cell. The probe asks only where a span is mixed: each cell must still be what
 * cachestat(2) says of that cell alone.
 */
START_TEST(test_cache_cells_mixed)
{
	struct snap_cache *c = malloc(sizeof *c);
	long ps = pagesz();
	uint64_t pages = 4097, size = pages * (uint64_t)ps;
	char *buf = calloc(1, (size_t)ps);
	int idx, fd = mkfile(NULL, "mixed", O_RDWR, &idx);
	static const uint64_t dirty[][2] = { { 5, 1 }, { 9, 30 }, { 1500, 3 }, { 2047, 2 },
	                                     { 4000, 97 } };

	ck_assert(c != NULL && buf != NULL);
	for (uint64_t p = 0; p < pages; p++)
		ck_assert_int_eq(pwrite(fd, buf, (size_t)ps, (off_t)(p * (uint64_t)ps)), ps);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(posix_fadvise(fd, (off_t)(2048 * (uint64_t)ps), (off_t)(1024 * (uint64_t)ps),
	                               POSIX_FADV_DONTNEED), 0);
	for (size_t i = 0; i < sizeof dirty / sizeof dirty[0]; i++)
		for (uint64_t p = dirty[i][0]; p < dirty[i][0] + dirty[i][1]; p++)
			ck_assert_int_eq(pwrite(fd, buf, (size_t)ps, (off_t)(p * (uint64_t)ps)), ps);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_CACHESTAT, c), 0);
	ck_assert_uint_eq(c->pages_per_cell, 8);
	ck_assert_uint_eq(c->n_cells, (pages + 7) / 8);
	for (size_t i = 0; i < c->n_cells; i++) {
		struct snap_cell t;
		uint64_t first = i * 8, n = pages - first < 8 ? pages - first : 8;
		cells_truth(fd, first, n, &t);
		ck_assert_msg(c->cells[i].cached == t.cached && c->cells[i].dirty == t.dirty &&
		              c->cells[i].writeback == t.writeback,
		              "cell %zu: probe %u/%u/%u, cachestat %u/%u/%u", i, c->cells[i].cached,
		              c->cells[i].dirty, c->cells[i].writeback, t.cached, t.dirty, t.writeback);
	}
	ck_assert_uint_gt(c->dirty, 0);
	ck_assert_uint_lt(c->cached, pages);
	close(fd);
	free(buf);
	free(c);
}
END_TEST

/* Read some pages back after DONTNEED; mincore must see exactly what cachestat sees. */
START_TEST(test_cache_mincore_matches)
{
	struct snap_cache *a = malloc(sizeof *a), *b = malloc(sizeof *b), *w = malloc(sizeof *w);
	long ps = pagesz();
	uint64_t size = 64 * (uint64_t)ps;
	char path[4096];
	int idx, fd = mkfile(NULL, "partial", O_RDWR, &idx), wfd;

	ck_assert(a && b && w);
	partly_cached(fd, 4);

	ck_assert_int_eq(probe_cache(fd, size, a), 0);
	ck_assert_int_eq(a->source, SNAP_SRC_CACHESTAT);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_MINCORE, b), 0);
	/* A write-only fd cannot be mapped: the probe must map a read-only reopen instead. */
	ck_assert(scratch_path(idx, "partial", path, sizeof path) != NULL);
	wfd = open(path, O_WRONLY | O_CLOEXEC);
	ck_assert_int_ge(wfd, 0);
	ck_assert_int_eq(probe_cache_as(wfd, size, SNAP_SRC_MINCORE, w), 0);

	ck_assert_int_eq(b->source, SNAP_SRC_MINCORE);
	ck_assert(!b->has_dirty);
	ck_assert_msg(strstr(b->note, "dirty pages: unknown") != NULL, "note: %s", b->note);
	ck_assert_uint_gt(a->cached, 0);
	ck_assert_uint_lt(a->cached, a->pages);
	ck_assert_uint_eq(b->cached, a->cached);
	ck_assert_uint_eq(w->cached, a->cached);
	ck_assert_uint_eq(b->n_cells, a->n_cells);
	for (size_t i = 0; i < a->n_cells; i++) {
		ck_assert_uint_eq(b->cells[i].cached, a->cells[i].cached);
		ck_assert_uint_eq(w->cells[i].cached, a->cells[i].cached);
	}
	/* The probe's mapping is gone: DONTNEED still empties the cache. */
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	ck_assert_int_eq(probe_cache(fd, size, a), 0);
	ck_assert_uint_eq(a->cached, 0);
	close(wfd);
	close(fd);
	free(a);
	free(b);
	free(w);
}
END_TEST

/* Grid layout: one cell per page up to 1024 pages, then powers of two; always covers. */
START_TEST(test_cache_cells_layout)
{
	static const uint64_t sizes[] = { 1, 4096 * 1024ull, 4096 * 1025ull, 1ull << 30,
	                                  (1ull << 30) + 1 };
	struct snap_cache *c = malloc(sizeof *c);
	long ps = pagesz();
	int idx, fd = mkfile(NULL, "cells", O_RDWR, &idx);

	ck_assert_ptr_nonnull(c);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		uint64_t pages = (sizes[k] + ps - 1) / ps, ppc;

		ck_assert_int_eq(ftruncate(fd, (off_t)sizes[k]), 0);
		ck_assert_int_eq(probe_cache(fd, sizes[k], c), 0);
		ppc = c->pages_per_cell;
		ck_assert_uint_eq(c->pages, pages);
		ck_assert_uint_le(c->n_cells, SNAP_MAX_CELLS);
		ck_assert_uint_ge(ppc * c->n_cells, pages);
		ck_assert_uint_lt(ppc * (c->n_cells - 1), pages);
		ck_assert_uint_eq(ppc & (ppc - 1), 0);
		if (pages <= SNAP_MAX_CELLS)
			ck_assert_uint_eq(ppc, 1);
		else /* the smallest power of two that fits */
			ck_assert_uint_gt((pages + ppc / 2 - 1) / (ppc / 2), SNAP_MAX_CELLS);
	}
	close(fd);
	free(c);
}
END_TEST

/* Nothing: an empty file has no pages and no cells. */
START_TEST(test_cache_empty)
{
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd = mkfile(NULL, "empty", O_RDWR, &idx);

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(probe_cache(fd, 0, c), 0);
	ck_assert_uint_eq(c->pages, 0);
	ck_assert_uint_eq(c->n_cells, 0);
	ck_assert_int_eq(probe_cache(-1, 4096, c), -1);
	ck_assert_str_ne(c->note, "");
	close(fd);
	free(c);
}
END_TEST

/* FIEMAP after write(), fsync() and fallocate(), with the per-cell disk states. */
START_TEST(test_disk_ext4)
{
	struct snap_disk *d = calloc(1, sizeof *d);
	struct snap_cache *c = malloc(sizeof *c);
	long ps = pagesz();
	int idx, fd = mkfile(NULL, "ext4", O_RDWR, &idx), fd2;

	ck_assert(d && c);
	put(fd, 8192, 5);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_int_eq(d->source, SNAP_SRC_FIEMAP);
	ck_assert_str_eq(d->fs, "ext4");
	ck_assert_msg(strncmp(d->device, "/dev/", 5) == 0, "device '%s'", d->device);
	ck_assert_uint_ge(d->n_extents, 1);
	ck_assert_uint_eq(d->extents[0].flags & SNAP_EXT_DELALLOC, SNAP_EXT_DELALLOC);
	ck_assert_uint_eq(d->extents[0].flags & SNAP_EXT_UNKNOWN, SNAP_EXT_UNKNOWN);
	ck_assert_uint_eq(d->extents[d->n_extents - 1].flags & SNAP_EXT_LAST, SNAP_EXT_LAST);
	ck_assert_uint_ge(d->delalloc_bytes, 8192);
	ck_assert_uint_eq(d->allocated_bytes, 0);
	ck_assert_int_eq(probe_cache(fd, 8192, c), 0);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 0), SNAP_DISK_NOT_ALLOCATED);

	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_uint_ge(d->allocated_bytes, 8192);
	ck_assert_uint_eq(d->delalloc_bytes, 0);
	ck_assert_uint_eq(d->extents[0].flags & (SNAP_EXT_DELALLOC | SNAP_EXT_UNKNOWN), 0);
	ck_assert_uint_ne(d->extents[0].physical, 0);
	ck_assert_int_eq(probe_cache(fd, 8192, c), 0);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 0), SNAP_DISK_ON_DISK);

	/* Rewrite page 0 in place: the block stays, the cache is now newer than the disk. */
	ck_assert_int_eq(pwrite(fd, "x", 1, 0), 1);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_int_eq(probe_cache(fd, 8192, c), 0);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 0), SNAP_DISK_STALE);
	ck_assert_int_eq(fsync(fd), 0);

	/* fallocate: blocks reserved, marked unwritten; the rest of the file is a hole. */
	fd2 = scratch_create(idx, "ext4-falloc", O_RDWR);
	ck_assert_int_ge(fd2, 0);
	ck_assert_int_eq(fallocate(fd2, 0, 0, 16 * ps), 0);
	ck_assert_int_eq(ftruncate(fd2, 32 * ps), 0);
	ck_assert_int_eq(probe_disk(fd2, d), 0);
	ck_assert_uint_ge(d->n_extents, 1);
	ck_assert_uint_eq(d->extents[0].flags & SNAP_EXT_UNWRITTEN, SNAP_EXT_UNWRITTEN);
	ck_assert_uint_eq(d->unwritten_bytes, 16 * (uint64_t)ps);
	ck_assert_uint_eq(d->allocated_bytes, 16 * (uint64_t)ps);
	ck_assert_int_eq(probe_cache(fd2, 32 * ps, c), 0);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 0), SNAP_DISK_UNWRITTEN);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 20), SNAP_DISK_HOLE);
	close(fd2);
	close(fd);
	free(d);
	free(c);
}
END_TEST

/* More extents than we keep: the list is cut, the byte sums are not. */
START_TEST(test_disk_truncated)
{
	struct snap_disk *d = calloc(1, sizeof *d);
	long ps = pagesz();
	int idx, fd = mkfile(NULL, "frag", O_RDWR, &idx);
	int n = SNAP_MAX_EXTENTS + 10;

	ck_assert_ptr_nonnull(d);
	/* Every other page: each written page is its own extent, separated by holes. */
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pwrite(fd, "y", 1, (off_t)2 * i * ps), 1);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_int_eq(d->source, SNAP_SRC_FIEMAP);
	ck_assert_uint_eq(d->n_extents, SNAP_MAX_EXTENTS);
	ck_assert(d->extents_truncated);
	ck_assert_uint_eq(d->delalloc_bytes + d->allocated_bytes, (uint64_t)n * ps);
	close(fd);
	free(d);
}
END_TEST

/* tmpfs: no disk, a note rather than a failure; written pages are never "dirty". */
START_TEST(test_tmpfs)
{
	struct snap_disk *d = calloc(1, sizeof *d);
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd;

	ck_assert(d && c);
	fd = mkfile("/dev/shm", "shm", O_RDWR, &idx);
	put(fd, 3 * 4096, 6);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_int_eq(d->source, SNAP_SRC_NONE);
	ck_assert_str_eq(d->fs, "tmpfs");
	ck_assert_msg(strstr(d->note, "no disk behind this filesystem (tmpfs)") != NULL,
	              "note: %s", d->note);
	ck_assert_uint_eq(d->n_extents, 0);
	ck_assert_int_eq(probe_cache(fd, 3 * 4096, c), 0);
	ck_assert_uint_eq(c->cached, c->pages);
	ck_assert_uint_eq(c->dirty, 0);
	ck_assert_int_eq(snapshot_cell_disk(c, d, 0), SNAP_DISK_UNKNOWN);
	close(fd);
	free(d);
	free(c);
}
END_TEST

/* Create name, fopen it with mode; also return its st_blksize. */
static FILE *
mkstream(const char *name, const char *mode, size_t prefill, int *idx, blksize_t *blk)
{
	char path[4096];
	struct stat st;
	int fd = mkfile(NULL, name, O_RDWR, idx);
	FILE *fp;

	if (prefill > 0)
		put(fd, prefill, 7);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*blk = st.st_blksize;
	close(fd);
	ck_assert(scratch_path(*idx, name, path, sizeof path) != NULL);
	fp = fopen(path, mode);
	ck_assert_ptr_nonnull(fp);
	return fp;
}

/* Buffer glibc allocates for a file (filedoalloc.c): st_blksize if below BUFSIZ, else BUFSIZ. */
static uint64_t
default_bufsize(blksize_t blk)
{
	return blk > 0 && blk < BUFSIZ ? (uint64_t)blk : BUFSIZ;
}

/* fwrite(5000) into the default buffer: it is st_blksize bytes and 904 bytes wait in it. */
START_TEST(test_stdio_default)
{
	struct snap_stdio s;
	unsigned char data[5000];
	blksize_t blk;
	int idx;
	FILE *fp = mkstream("stream0", "w", 0, &idx, &blk);

	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (unsigned char)(i * 7);
	probe_stdio(fp, &s);
	ck_assert(s.open);
	ck_assert_int_eq(s.fd, fileno(fp));
	ck_assert_uint_eq(s.size, 0);  /* not allocated before the first I/O */
	ck_assert_int_eq(s.mode, SCN_BUF_FULL);
	ck_assert_uint_eq(fwrite(data, 1, sizeof data, fp), sizeof data);
	probe_stdio(fp, &s);
	ck_assert_uint_eq(s.size, default_bufsize(blk));
	if (s.size == 4096) {
		/* The fact the scenarios teach (ext4, 4 KiB blocks): 4096 written, 904 wait. */
		ck_assert_uint_eq(s.pending, 904);
		ck_assert_mem_eq(s.head, data + 4096, 64);
	} else if (s.size > sizeof data) {
		ck_assert_uint_eq(s.pending, sizeof data);
	}
	ck_assert(s.writing);
	ck_assert(!s.reading);
	ck_assert_uint_eq(s.read_avail, 0);
	ck_assert_uint_eq(s.head_len, 64);
	ck_assert_int_eq(fflush(fp), 0);
	probe_stdio(fp, &s);
	ck_assert_uint_eq(s.pending, 0);
	ck_assert_uint_eq(s.head_len, 0);
	fclose(fp);
}
END_TEST

/*
 * setvbuf(_IOFBF, own 1000-byte buffer) then fwrite(2500): 1000 flushed, 1000 written
 * directly, 500 pending. With a NULL buffer glibc 2.36 ignores the size and allocates
 * st_blksize bytes itself (iosetvbuf.c), so all 2500 wait.
 */
START_TEST(test_stdio_setvbuf)
{
	static char own[1000];
	struct snap_stdio s;
	char data[2500];
	blksize_t blk;
	int idx;
	FILE *fp = mkstream("stream1", "w", 0, &idx, &blk);

	memset(data, 'q', sizeof data);
	ck_assert_int_eq(setvbuf(fp, own, _IOFBF, sizeof own), 0);
	ck_assert_uint_eq(fwrite(data, 1, sizeof data, fp), sizeof data);
	probe_stdio(fp, &s);
	ck_assert_uint_eq(s.size, 1000);
	ck_assert_uint_eq(s.pending, 500);
	ck_assert_int_eq(s.mode, SCN_BUF_FULL);
	fclose(fp);

	fp = mkstream("stream2", "w", 0, &idx, &blk);
	ck_assert_int_eq(setvbuf(fp, NULL, _IOFBF, 1000), 0);
	ck_assert_uint_eq(fwrite(data, 1, sizeof data, fp), sizeof data);
	probe_stdio(fp, &s);
	ck_assert_uint_eq(s.size, default_bufsize(blk));
	ck_assert_uint_eq(s.pending, 2500);
	fclose(fp);
}
END_TEST

/* _IONBF: nothing ever waits; _IOLBF: bytes wait until the newline. */
START_TEST(test_stdio_modes)
{
	struct snap_stdio s;
	blksize_t blk;
	int idx;
	FILE *fp = mkstream("stream3", "w", 0, &idx, &blk);

	ck_assert_int_eq(setvbuf(fp, NULL, _IONBF, 0), 0);
	probe_stdio(fp, &s);
	ck_assert_int_eq(s.mode, SCN_BUF_NONE);
	ck_assert_uint_eq(fwrite("hello", 1, 5, fp), 5);
	probe_stdio(fp, &s);
	ck_assert_int_eq(s.mode, SCN_BUF_NONE);
	ck_assert_uint_eq(s.pending, 0);
	fclose(fp);

	fp = mkstream("stream4", "w", 0, &idx, &blk);
	ck_assert_int_eq(setvbuf(fp, NULL, _IOLBF, 256), 0);
	ck_assert_int_ge(fputs("abc", fp), 0);
	probe_stdio(fp, &s);
	ck_assert_int_eq(s.mode, SCN_BUF_LINE);
	ck_assert_uint_eq(s.pending, 3);
	ck_assert_uint_eq(s.head_len, 3);
	ck_assert_mem_eq(s.head, "abc", 3);
	ck_assert_int_ge(fputs("d\n", fp), 0);
	probe_stdio(fp, &s);
	ck_assert_uint_eq(s.pending, 0);
	fclose(fp);

	probe_stdio(NULL, &s);
	ck_assert(!s.open);
}
END_TEST

/* fread(10) from a 10000-byte file: one buffer read ahead, 4086 bytes not consumed. */
START_TEST(test_stdio_reading)
{
	struct snap_stdio s;
	unsigned char got[10], want[64];
	blksize_t blk;
	int idx;
	FILE *fp = mkstream("stream5", "r", 10000, &idx, &blk);

	ck_assert_uint_eq(fread(got, 1, sizeof got, fp), sizeof got);
	probe_stdio(fp, &s);
	ck_assert(s.reading);
	ck_assert(!s.writing);
	ck_assert_uint_eq(s.size, default_bufsize(blk));
	ck_assert_uint_eq(s.read_avail, s.size - 10);
	if (s.size == 4096)
		ck_assert_uint_eq(s.read_avail, 4086);
	ck_assert_uint_eq(s.pending, 0);
	for (size_t i = 0; i < sizeof want; i++)
		want[i] = (unsigned char)(7 + 10 + i);  /* put()'s pattern, from byte 10 */
	ck_assert_uint_eq(s.head_len, 64);
	ck_assert_mem_eq(s.head, want, 64);
	fclose(fp);
}
END_TEST

/* One write() is one more syscw and len more wchar; our own /proc reads are not writes. */
START_TEST(test_io_counters)
{
	struct snap_disk a, b;
	int idx, fd = mkfile(NULL, "io", O_RDWR, &idx), ra, rb;
	ssize_t w;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	/* No ck_assert in between: in fork mode Check write()s each assertion to its pipe. */
	ra = probe_io(getpid(), &a);
	w = write(fd, "0123456789", 10);
	rb = probe_io(getpid(), &b);
	ck_assert_int_eq(ra, 0);
	ck_assert_int_eq(rb, 0);
	ck_assert_int_eq(w, 10);
	ck_assert(a.io_ok);
	ck_assert_uint_eq(b.syscw - a.syscw, 1);
	ck_assert_uint_eq(b.wchar - a.wchar, 10);
	/* The first probe's read() calls happened in between. */
	ck_assert_uint_gt(b.syscr, a.syscr);
	ck_assert_int_eq(probe_io(999999999, &b), -1);
	ck_assert(!b.io_ok);
	close(fd);
}
END_TEST

/* fdinfo: offset after a write, access mode and O_APPEND; a closed fd is not open. */
START_TEST(test_io_fdinfo)
{
	struct snap_fd f;
	char path[4096];
	int idx, fd = mkfile(NULL, "fdinfo", O_RDWR, &idx), afd;

	ck_assert_int_eq(write(fd, "0123456789", 10), 10);
	ck_assert_int_eq(probe_fd(getpid(), fd, &f), 0);
	ck_assert(f.open);
	ck_assert_int_eq(f.fd, fd);
	ck_assert_int_eq(f.pos, 10);
	ck_assert_int_eq(f.flags & O_ACCMODE, O_RDWR);
	ck_assert_int_eq(f.flags & O_APPEND, 0);
	ck_assert(scratch_path(idx, "fdinfo", path, sizeof path) != NULL);
	afd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(afd, 0);
	ck_assert_int_eq(probe_fd(getpid(), afd, &f), 0);
	ck_assert_int_eq(f.flags & O_ACCMODE, O_WRONLY);
	ck_assert_int_eq(f.flags & O_APPEND, O_APPEND);
	ck_assert_int_eq(f.pos, 0);
	close(afd);
	ck_assert_int_eq(probe_fd(getpid(), afd, &f), 0);
	ck_assert(!f.open);
	close(fd);
}
END_TEST

/* Is the scratch dir idx on a filesystem with dirty pages (not tmpfs or ramfs)? */
static bool
dir_disk_backed(int idx)
{
	struct statfs s;

	return idx >= 0 && statfs(scratch_dir(idx), &s) == 0 && s.f_type != 0x01021994 &&
	       s.f_type != (long)0x858458F6;
}

/* Can /proc/kpageflags be used here (root, CAP_SYS_ADMIN)? Else why, in why. */
static bool
kpageflags_usable(char *why, size_t len)
{
	struct snap_cache *c = malloc(sizeof *c);
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	bool ok = c != NULL && fd >= 0 && probe_cache_as(fd, 0, SNAP_SRC_KPAGEFLAGS, c) == 0;

	snprintf(why, len, "%s", ok ? "" : c != NULL ? c->note : "out of memory");
	if (fd >= 0)
		close(fd);
	free(c);
	return ok;
}

/* Run $IOBUFVIZ_BIN with args; its standard output into out; return the exit status. */
static int
run_bin(const char *const *args, char *out, size_t len)
{
	const char *bin = getenv("IOBUFVIZ_BIN");
	char *argv[16];
	size_t n = 0, got = 0;
	ssize_t r;
	int p[2], st;
	pid_t pid;

	ck_assert_msg(bin != NULL, "IOBUFVIZ_BIN not set (run through make check)");
	argv[n++] = (char *)bin;
	for (; args[n - 1] != NULL && n < 15; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(p[1], 1);
		dup2(null, 2);
		close(p[0]);
		execv(bin, argv);
		_exit(127);
	}
	close(p[1]);
	while ((r = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)r;
	out[got] = '\0';
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Write 3 whole pages, and 64 KiB (a large folio on ext4); probe with want; fsync; again. */
static void
sources_dirty(enum snap_source want)
{
	struct snap_cache *c = malloc(sizeof *c), *t = malloc(sizeof *t);
	long ps = pagesz();
	int idx, fd = mkfile(NULL, probe_cache_source_name(want), O_RDWR, &idx);

	ck_assert(c && t);
	put(fd, 3 * (size_t)ps, 8);
	ck_assert_int_eq(probe_cache_as(fd, 3 * (uint64_t)ps, want, c), 0);
	ck_assert_int_eq(c->source, want);
	ck_assert_uint_eq(c->cached, 3);
	if (want == SNAP_SRC_MINCORE) {
		ck_assert(!c->has_dirty);
		ck_assert_uint_eq(c->dirty, 0);
		ck_assert_msg(strstr(c->note, "dirty pages: unknown, because --probe=mincore") != NULL,
		              "note: %s", c->note);
	} else {
		ck_assert(c->has_dirty);
		ck_assert_uint_eq(c->dirty, 3);
		for (int i = 0; i < 3; i++)
			ck_assert_int_eq(snapshot_cell_state(c, (size_t)i), SNAP_CELL_DIRTY);
	}
	/* 64 KiB more at 64 KiB: on ext4 one large folio (head + 15 tails), all dirty. */
	ck_assert_int_eq(lseek(fd, 64 << 10, SEEK_SET), 64 << 10);
	put(fd, 64 << 10, 9);
	ck_assert_int_eq(probe_cache_as(fd, (128u << 10), want, c), 0);
	ck_assert_int_eq(probe_cache_as(fd, (128u << 10), SNAP_SRC_CACHESTAT, t), 0);
	ck_assert_uint_eq(c->cached, t->cached);
	if (want != SNAP_SRC_MINCORE)
		ck_assert_uint_eq(c->dirty, t->dirty);
	ck_assert_uint_eq(t->dirty, 3 + (64 << 10) / ps);

	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(probe_cache_as(fd, (128u << 10), want, c), 0);
	ck_assert_uint_eq(c->cached, 3 + (64 << 10) / ps);
	ck_assert_uint_eq(c->dirty, 0);
	ck_assert_uint_eq(c->writeback, 0);
	close(fd);
	free(c);
	free(t);
}

/* cachestat(2) forced: 3 dirty after the write, 0 after fsync. */
START_TEST(test_source_cachestat)
{
	sources_dirty(SNAP_SRC_CACHESTAT);
}
END_TEST

/* /proc/kpageflags forced: the same numbers, page by page, large folios included. */
START_TEST(test_source_kpageflags)
{
	sources_dirty(SNAP_SRC_KPAGEFLAGS);
}
END_TEST

/* mincore(2) forced: 3 cached, dirty unknown and the note says why. */
START_TEST(test_source_mincore)
{
	sources_dirty(SNAP_SRC_MINCORE);
}
END_TEST

/*
 * Neither cachestat (turned off) nor kpageflags (not root): the chain ends at mincore and the
 * note gives both reasons. Run as nobody in this forked test process, on an fd opened before.
 */
START_TEST(test_source_chain_not_root)
{
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd = mkfile(NULL, "notroot", O_RDWR, &idx), rc;

	ck_assert_ptr_nonnull(c);
	put(fd, 2 * (size_t)pagesz(), 10);
	setenv("IOBUFVIZ_NO_CACHESTAT", "1", 1);
	ck_assert_int_eq(setresgid(65534, 65534, 65534), 0);
	ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);
	rc = probe_cache(fd, 2 * (uint64_t)pagesz(), c);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(c->source, SNAP_SRC_MINCORE);
	ck_assert(!c->has_dirty);
	ck_assert_uint_eq(c->cached, 2);
	ck_assert_msg(strstr(c->note, "dirty pages: unknown, because cachestat(2) is turned off "
	                     "(IOBUFVIZ_NO_CACHESTAT) and iobufviz is not root") != NULL,
	              "note: %s", c->note);
	ck_assert_int_eq(probe_cache_as(fd, 2 * (uint64_t)pagesz(), SNAP_SRC_KPAGEFLAGS, c), -1);
	ck_assert_int_eq(c->source, SNAP_SRC_NONE);
	ck_assert_msg(strstr(c->note, "--probe=kpageflags: iobufviz is not root") != NULL,
	              "note: %s", c->note);
	ck_assert_int_eq(probe_cache_as(fd, 2 * (uint64_t)pagesz(), SNAP_SRC_CACHESTAT, c), -1);
	ck_assert_msg(strstr(c->note, "--probe=cachestat: cachestat(2) is turned off") != NULL,
	              "note: %s", c->note);
	unsetenv("IOBUFVIZ_NO_CACHESTAT");
	close(fd);
	free(c);
}
END_TEST

/*
 * The kpageflags probe reads nothing in: on a cold file cachestat still sees 0 pages after
 * it; with every fifth page read back it sees just those, before and after, and so does
 * the probe; DONTNEED still empties the cache afterwards (no mapping is left).
 */
START_TEST(test_kpageflags_reads_nothing)
{
	struct snap_cache *a = malloc(sizeof *a), *k = malloc(sizeof *k), *b = malloc(sizeof *b);
	long ps = pagesz();
	uint64_t size = 64 * (uint64_t)ps;
	int idx, fd = mkfile(NULL, "cold", O_RDWR, &idx);

	ck_assert(a && k && b);
	partly_cached(fd, 11);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_CACHESTAT, a), 0);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_KPAGEFLAGS, k), 0);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_CACHESTAT, b), 0);
	ck_assert_uint_eq(a->cached, 13);
	ck_assert_uint_eq(k->cached, a->cached);
	ck_assert_uint_eq(b->cached, a->cached);
	ck_assert_uint_eq(k->dirty, 0);
	for (size_t i = 0; i < a->n_cells; i++)
		ck_assert_uint_eq(k->cells[i].cached, a->cells[i].cached);
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_CACHESTAT, b), 0);
	ck_assert_uint_eq(b->cached, 0);
	/* Cold: the probe finds nothing and brings nothing in. */
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_KPAGEFLAGS, k), 0);
	ck_assert_int_eq(probe_cache_as(fd, size, SNAP_SRC_CACHESTAT, b), 0);
	ck_assert_uint_eq(k->cached, 0);
	ck_assert_uint_eq(b->cached, 0);
	close(fd);
	free(a);
	free(k);
	free(b);
}
END_TEST

/* tmpfs pages are always PG_dirty (swap-backed); kpageflags counts them clean, as cachestat. */
START_TEST(test_tmpfs_kpageflags)
{
	struct snap_cache *c = malloc(sizeof *c);
	int idx, fd = mkfile("/dev/shm", "shm-kpf", O_RDWR, &idx);

	ck_assert_ptr_nonnull(c);
	put(fd, 3 * (size_t)pagesz(), 13);
	ck_assert_int_eq(probe_cache_as(fd, 3 * (uint64_t)pagesz(), SNAP_SRC_KPAGEFLAGS, c), 0);
	ck_assert_uint_eq(c->cached, 3);
	ck_assert_uint_eq(c->dirty, 0);
	ck_assert_uint_eq(c->writeback, 0);
	close(fd);
	free(c);
}
END_TEST

/* Make dir name in the scratch dir idx; return its path in buf. */
static const char *
mksub(int idx, const char *name, char *buf, size_t len)
{
	ck_assert(scratch_path(idx, name, buf, len) != NULL);
	ck_assert_msg(mkdir(buf, 0700) == 0, "mkdir %s: %s", buf, strerror(errno));
	return buf;
}

/*
 * overlayfs, in a mount namespace of this test process: after write(4096) the page is
 * cached and dirty, measured on the upper file; with the upper dir hidden, seen through a
 * mapping of the overlay file (kpageflags as root), and cachestat named is refused.
 */
START_TEST(test_overlay)
{
	struct snap_cache *c = malloc(sizeof *c), *u = malloc(sizeof *u);
	char lower[4096], upper[4096], work[4096], merged[4096], opts[16384], path[4200];
	long ps = pagesz();
	bool disk = dir_disk_backed(disk_dir);
	int fd, ufd;

	ck_assert(c && u);
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	mksub(disk_dir, "lower", lower, sizeof lower);
	mksub(disk_dir, "upper", upper, sizeof upper);
	mksub(disk_dir, "work", work, sizeof work);
	mksub(disk_dir, "merged", merged, sizeof merged);
	snprintf(opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", lower, upper, work);
	ck_assert_msg(mount("overlay", merged, "overlay", 0, opts) == 0, "mount overlay: %s",
	              strerror(errno));
	snprintf(path, sizeof path, "%s/f", merged);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	put(fd, (size_t)ps, 12);

	/* The truth: cachestat on the upper file, opened by us. */
	snprintf(path, sizeof path, "%s/f", upper);
	ufd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(ufd, 0);
	ck_assert_int_eq(probe_cache_as(ufd, (uint64_t)ps, SNAP_SRC_CACHESTAT, u), 0);
	ck_assert_uint_eq(u->cached, 1);
	ck_assert_uint_eq(u->dirty, disk ? 1 : 0);

	ck_assert_int_eq(probe_cache(fd, (uint64_t)ps, c), 0);
	ck_assert_int_eq(c->source, SNAP_SRC_CACHESTAT);
	ck_assert_uint_eq(c->cached, 1);
	ck_assert_uint_eq(c->dirty, u->dirty);
	ck_assert_msg(strstr(c->note, "overlayfs: measured on the upper file ") != NULL &&
	              strstr(c->note, path) != NULL, "note: %s", c->note);
	if (geteuid() == 0 && kpageflags_usable(opts, sizeof opts)) {
		ck_assert_int_eq(probe_cache_as(fd, (uint64_t)ps, SNAP_SRC_KPAGEFLAGS, c), 0);
		ck_assert_uint_eq(c->cached, 1);
		ck_assert_uint_eq(c->dirty, u->dirty);
	}

	/* Hide the upper dir from this namespace: what a container sees. */
	ck_assert_int_eq(mount("tmpfs", upper, "tmpfs", 0, "size=64k"), 0);
	ck_assert_int_eq(probe_cache_as(fd, (uint64_t)ps, SNAP_SRC_MINCORE, c), 0);
	ck_assert_uint_eq(c->cached, 1);
	ck_assert_msg(strstr(c->note, "overlayfs: seen through a mapping of the overlay file") !=
	              NULL, "note: %s", c->note);
	ck_assert_int_eq(probe_cache_as(fd, (uint64_t)ps, SNAP_SRC_CACHESTAT, c), -1);
	ck_assert_msg(strstr(c->note, "--probe=cachestat: cachestat(2) on the overlay file sees "
	                     "only overlayfs's own empty cache") != NULL, "note: %s", c->note);
	ck_assert_int_eq(probe_cache(fd, (uint64_t)ps, c), 0);
	ck_assert_uint_eq(c->cached, 1);
	if (c->source == SNAP_SRC_KPAGEFLAGS)
		ck_assert_uint_eq(c->dirty, u->dirty);
	else
		ck_assert(!c->has_dirty);
	ck_assert_int_eq(umount2(upper, 0), 0);

	close(fd);
	close(ufd);
	ck_assert_int_eq(umount2(merged, 0), 0);
	/* The scratch dir's cleanup removes files, never a directory: these are ours to. */
	snprintf(path, sizeof path, "%s/f", upper);
	unlink(path);
	snprintf(path, sizeof path, "%s/work", work);
	rmdir(path);
	rmdir(work);
	rmdir(upper);
	rmdir(merged);
	rmdir(lower);
	free(c);
	free(u);
}
END_TEST

/* The real binary with --probe: the JSON names the source; kpageflags counts the 3 pages. */
START_TEST(test_binary_probe)
{
	static char out[1 << 20];
	char fixture[4096];
	const char *dir = scratch_dir(disk_dir);
	const char *kpf[] = { "--headless", "--format=json", "--probe=kpageflags", "--dir", dir,
	                      fixture, NULL };
	const char *mc[] = { "--headless", "--format=json", "--probe=mincore", "--dir", dir,
	                     fixture, NULL };

	test_util_src_path("tests/probe-pages.yaml", fixture, sizeof fixture);
	ck_assert_int_eq(run_bin(kpf, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"cache_source\":\"kpageflags\""));
	ck_assert_ptr_nonnull(strstr(out, "\"dirty_pages\":3"));
	/* mincore cannot check dirty expectations: not observable (neither held nor failed,
	 * so exit 0), and null rather than 0. */
	ck_assert_int_eq(run_bin(mc, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"cache_source\":\"mincore\""));
	ck_assert_ptr_nonnull(strstr(out, "\"dirty_pages\":null"));
	ck_assert_ptr_nonnull(strstr(out, "\"outcome\":\"not_observable\",\"skipped\":true"));
	ck_assert_ptr_nonnull(strstr(out, "\"not_observable\":3}"));
}
END_TEST

/* A source named that cannot work here is exit 3 before the first step. */
START_TEST(test_binary_probe_refused)
{
	static char out[1 << 16];
	char fixture[4096];
	const char *args[] = { "--headless", "--probe=kpageflags", "--dir", "/tmp", fixture, NULL };

	test_util_src_path("tests/probe-pages.yaml", fixture, sizeof fixture);
	ck_assert_int_eq(setresgid(65534, 65534, 65534), 0);
	ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);
	ck_assert_int_eq(run_bin(args, out, sizeof out), 3);
	ck_assert_str_eq(out, "");
}
END_TEST

/* Is overlayfs in this kernel (/proc/filesystems)? */
static bool
have_overlay(void)
{
	char line[128];
	bool found = false;
	FILE *f = fopen("/proc/filesystems", "re");

	while (f != NULL && !found && fgets(line, sizeof line, f) != NULL)
		found = strcmp(line, "nodev\toverlay\n") == 0;
	if (f != NULL)
		fclose(f);
	return found;
}

/* Register test t if ok, else say (test_util_add) that it is skipped and why. */
#define ADD_OR_SKIP(tc, t, ok, why) test_util_add(tc, t, (ok) ? NULL : (why))

/* All the probe tests. */
static Suite *
probes_suite(void)
{
	Suite *s = suite_create("probes");
	TCase *tc = tcase_create("kernel");
	char kpf_why[400];
	bool disk = dir_disk_backed(disk_dir), root = geteuid() == 0;
	bool kpf = kpageflags_usable(kpf_why, sizeof kpf_why);
	const char *mem = "the scratch dir is in memory ($TMPDIR?): no dirty pages there";

	/* Dirty pages need a disk to be written to, and cachestat(2) to be seen. */
	test_util_add(tc, test_cache_dirty_fsync_dontneed,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	test_util_add(tc, test_cache_meminfo,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	test_util_add(tc, test_cache_mincore_matches,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	test_util_add(tc, test_cache_cells_mixed,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	tcase_add_test(tc, test_cache_cells_layout);
	tcase_add_test(tc, test_cache_empty);
	/* Telling a stale block from a clean one takes the dirty bits of cachestat(2). */
	test_util_add(tc, test_disk_ext4,
	              test_util_or(test_util_need_ext4(), test_util_need_cachestat()));
	test_util_add(tc, test_disk_truncated, test_util_need_fiemap());
	test_util_add(tc, test_tmpfs, test_util_need_shm());
	tcase_add_test(tc, test_stdio_default);
	tcase_add_test(tc, test_stdio_setvbuf);
	tcase_add_test(tc, test_stdio_modes);
	tcase_add_test(tc, test_stdio_reading);
	tcase_add_test(tc, test_io_counters);
	tcase_add_test(tc, test_io_fdinfo);
	ADD_OR_SKIP(tc, test_source_cachestat, disk, mem);
	ADD_OR_SKIP(tc, test_source_mincore, disk, mem);
	ADD_OR_SKIP(tc, test_source_kpageflags, disk && kpf, disk ? kpf_why : mem);
	ADD_OR_SKIP(tc, test_kpageflags_reads_nothing, disk && kpf, disk ? kpf_why : mem);
	ADD_OR_SKIP(tc, test_binary_probe, disk && kpf, disk ? kpf_why : mem);
	ADD_OR_SKIP(tc, test_tmpfs_kpageflags, shm_dir >= 0 && kpf,
	            shm_dir < 0 ? "no /dev/shm" : kpf_why);
	tcase_add_test(tc, test_source_chain_not_root);
	test_util_add(tc, test_binary_probe_refused, test_util_need_nobody_exec());
	test_util_add(tc, test_overlay, !root ? "mounting overlayfs needs root" :
	              !have_overlay() ? "this kernel has no overlayfs" :
	              test_util_need_private_mounts());
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	struct stat st;

	disk_dir = scratch_mkdir(NULL);
	if (disk_dir < 0) {
		perror("check-probes: scratch_mkdir");
		return EXIT_FAILURE;
	}
	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode))
		shm_dir = scratch_mkdir("/dev/shm");
	return test_util_run(probes_suite());
}
