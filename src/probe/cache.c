/* SPDX-License-Identifier: MIT */
/* cache.c: page cache of the scratch file: cachestat(2), else /proc/kpageflags, else mincore(2). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "probe/probe.h"
#include "scenario/names.h"
#include "probe/names.h"

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

/* Bits of /proc/kpageflags (<linux/kernel-page-flags.h>) and of /proc/PID/pagemap entries. */
#define PC_KPF_DIRTY         (1ull << 4)
#define PC_KPF_WRITEBACK     (1ull << 8)
#define PC_KPF_SWAPBACKED    (1ull << 14)
#define PC_KPF_COMPOUND_HEAD (1ull << 15)
#define PC_KPF_COMPOUND_TAIL (1ull << 16)
#define PC_PM_PRESENT        (1ull << 63)
#define PC_PM_PFN            ((1ull << 55) - 1)

/* How far back a tail page's head is looked for: a page-cache folio is at most PMD size. */
#define PC_KPF_HEAD_LOOKBACK 1024

/* Why a source was not used: room for a sentence and a path in it. */
#define PC_WHY 512

/*
 * Fill cells [c0, c1) from cachestat(2), cs being that span's counts: a span whose pages are
 * all alike (none cached; or all cached, all or none dirty, all or none under writeback) fills
 * its cells at once; else each half is asked in turn. A file written front to back is mostly
 * dirty pages and a clean rest: a few calls, not one per cell (its 45 MB of dirty pages took
 * 700 calls at each step). 0, or -1 with errno.
 */
static int
probe_cache_cells(int fd, long psz, struct snap_cache *out, size_t c0, size_t c1,
                  const struct pc_cachestat *cs)
{
	uint64_t span = out->pages * (uint64_t)psz;
	uint64_t cell_bytes = (uint64_t)out->pages_per_cell * (uint64_t)psz;
	uint64_t lo = (uint64_t)c0 * cell_bytes, hi = (uint64_t)c1 * cell_bytes;
	uint64_t n = ((hi < span ? hi : span) - lo) / (uint64_t)psz;
	struct pc_cachestat half;
	size_t mid;

	if (c1 - c0 == 1 || cs->nr_cache == 0 ||
	    (cs->nr_cache == n && (cs->nr_dirty == 0 || cs->nr_dirty == n) &&
	     (cs->nr_writeback == 0 || cs->nr_writeback == n))) {
		for (size_t i = c0; i < c1; i++) {
			uint64_t off = (uint64_t)i * cell_bytes;
			uint32_t pages = (uint32_t)(((span - off < cell_bytes ? span - off : cell_bytes)) /
			                            (uint64_t)psz);
			if (c1 - c0 == 1) {
				out->cells[i].cached = (uint32_t)cs->nr_cache;
				out->cells[i].dirty = (uint32_t)cs->nr_dirty;
				out->cells[i].writeback = (uint32_t)cs->nr_writeback;
				continue;
			}
			out->cells[i].cached = cs->nr_cache ? pages : 0;
			out->cells[i].dirty = cs->nr_dirty ? pages : 0;
			out->cells[i].writeback = cs->nr_writeback ? pages : 0;
		}
		return 0;
	}
	mid = c0 + (c1 - c0) / 2;
	if (probe_cache_stat(fd, lo, mid * cell_bytes - lo, &half) != 0 ||
	    probe_cache_cells(fd, psz, out, c0, mid, &half) != 0)
		return -1;
	lo = mid * cell_bytes;
	if (probe_cache_stat(fd, lo, (hi < span ? hi : span) - lo, &half) != 0)
		return -1;
	return probe_cache_cells(fd, psz, out, mid, c1, &half);
}

/* Fill per-cell and whole-file counts with cachestat(2). 0, or -1 with errno. */
static int
probe_cache_by_cachestat(int fd, long psz, struct snap_cache *out)
{
	struct pc_cachestat cs;
	uint64_t span = out->pages * (uint64_t)psz;

	/* An empty file has nothing cached, but the call still tells whether cachestat exists
	 * (len 0 would mean "to end of file", so ask about one page). */
	if (out->pages == 0)
		return probe_cache_stat(fd, 0, (uint64_t)psz, &cs);
	if (probe_cache_stat(fd, 0, span, &cs) != 0)
		return -1;
	out->cached = cs.nr_cache;
	out->dirty = cs.nr_dirty;
	out->writeback = cs.nr_writeback;
	if (out->n_cells == 0)
		return 0;
	return probe_cache_cells(fd, psz, out, 0, out->n_cells, &cs);
}

/*
 * Map span bytes of fd read-only with flags (MAP_SHARED or MAP_PRIVATE). A write-only fd
 * cannot be mapped: then map a read-only reopen of the same file, left open in *rfd (else
 * -1) for the caller to close after munmap. The mapping, or MAP_FAILED with errno.
 */
static void *
probe_cache_map(int fd, uint64_t span, int flags, int *rfd)
{
	void *map = mmap(NULL, span, PROT_READ, flags, fd, 0);

	*rfd = -1;
	if (map == MAP_FAILED && errno == EACCES) {
		char path[64];
		int err;

		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		*rfd = open(path, O_RDONLY | O_CLOEXEC);
		if (*rfd < 0)
			return MAP_FAILED;
		map = mmap(NULL, span, PROT_READ, flags, *rfd, 0);
		if (map == MAP_FAILED) {
			err = errno;
			close(*rfd);
			*rfd = -1;
			errno = err;
		}
	}
	return map;
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
	int rfd, err = 0;
	void *map;

	if (out->pages == 0)
		return 0;
	map = probe_cache_map(fd, span, MAP_SHARED, &rfd);
	if (map == MAP_FAILED)
		return -1;
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

/* Read the kpageflags of the n pages from pfn on. 0, or -1 with errno. */
static int
probe_cache_kpf_read(int kfd, uint64_t pfn, size_t n, uint64_t *flags)
{
	ssize_t want = (ssize_t)(n * sizeof *flags);
	ssize_t got = pread(kfd, flags, (size_t)want, (off_t)(pfn * sizeof *flags));

	if (got == want)
		return 0;
	if (got >= 0)
		errno = EIO;
	return -1;
}

/*
 * Open /proc/kpageflags into *kfd and /proc/self/pagemap into *pfd, and check that pagemap
 * shows page frame numbers (it shows 0 to a process without CAP_SYS_ADMIN, even as root in
 * a container) by looking up a page of our own stack. 0, or -1 with why.
 */
static int
probe_cache_kpf_open(int *kfd, int *pfd, char *why, size_t len)
{
	volatile uint64_t here = 1;
	uint64_t e = 0;
	uintptr_t page = (uintptr_t)&here / (uintptr_t)sysconf(_SC_PAGESIZE);
	int err;

	*pfd = -1;
	*kfd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (*kfd < 0) {
		err = errno;
		if (err == ENOENT)
			snprintf(why, len, "this kernel has no /proc/kpageflags");
		else if (geteuid() != 0)
			snprintf(why, len, "iobufviz is not root (/proc/kpageflags is root's)");
		else
			snprintf(why, len, "/proc/kpageflags: %s", strerror(err));
		return -1;
	}
	*pfd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	here++;  /* the page is present: we just wrote to it */
	if (*pfd < 0 || pread(*pfd, &e, sizeof e, (off_t)(page * sizeof e)) != (ssize_t)sizeof e ||
	    !(e & PC_PM_PRESENT) || (e & PC_PM_PFN) == 0) {
		err = errno;
		if (*pfd < 0)
			snprintf(why, len, "/proc/self/pagemap: %s", strerror(err));
		else
			snprintf(why, len, "/proc/self/pagemap hides page frame numbers (they need "
			         "CAP_SYS_ADMIN)");
		close(*kfd);
		if (*pfd >= 0)
			close(*pfd);
		*kfd = *pfd = -1;
		return -1;
	}
	return 0;
}

/*
 * Flags of the head of the large folio that tail page pfn is part of, found by looking at
 * the page frames before it (a folio's frames are contiguous). 0, or -1 with errno.
 */
static int
probe_cache_kpf_head(int kfd, uint64_t pfn, uint64_t *head)
{
	uint64_t buf[64];

	for (uint64_t back = 0; back < PC_KPF_HEAD_LOOKBACK && pfn > 0; ) {
		size_t n = pfn < 64 ? (size_t)pfn : 64;

		if (probe_cache_kpf_read(kfd, pfn - n, n, buf) != 0)
			return -1;
		for (size_t k = n; k-- > 0; ) {
			if (buf[k] & PC_KPF_COMPOUND_HEAD) {
				*head = buf[k];
				return 0;
			}
			if (!(buf[k] & PC_KPF_COMPOUND_TAIL))
				break;
		}
		pfn -= n;
		back += n;
	}
	errno = ENOENT;
	return -1;
}

/* The last large folio head the kpageflags walk saw: its file page, page frame and flags. */
struct pc_kpf_head {
	bool seen;
	uint64_t page, pfn, flags;
};

/*
 * Count the n pages of the chunk at page first of out: vec from mincore, pm their pagemap
 * entries, kf a buffer of n flags. Only resident pages are counted and looked up. 0, or -1
 * with errno.
 */
static int
probe_cache_kpf_chunk(int kfd, uint64_t first, size_t n, const unsigned char *vec,
                      const uint64_t *pm, uint64_t *kf, struct pc_kpf_head *h,
                      struct snap_cache *out)
{
	/* One read per run of consecutive page frames: a large folio is one run. */
	for (size_t k = 0; k < n; ) {
		size_t j = k + 1;

		if (!(vec[k] & 1) || !(pm[k] & PC_PM_PRESENT)) {
			kf[k++] = 0;
			continue;
		}
		while (j < n && (vec[j] & 1) && (pm[j] & PC_PM_PRESENT) &&
		       (pm[j] & PC_PM_PFN) == (pm[j - 1] & PC_PM_PFN) + 1)
			j++;
		if (probe_cache_kpf_read(kfd, pm[k] & PC_PM_PFN, j - k, kf + k) != 0)
			return -1;
		k = j;
	}
	for (size_t k = 0; k < n; k++) {
		struct snap_cell *cell = &out->cells[(first + k) / out->pages_per_cell];
		uint64_t f = kf[k], pfn = pm[k] & PC_PM_PFN, hf;

		if (!(vec[k] & 1))
			continue;
		out->cached++;
		cell->cached++;
		if (f & PC_KPF_COMPOUND_HEAD) {
			*h = (struct pc_kpf_head){ true, first + k, pfn, f };
		} else if (f & PC_KPF_COMPOUND_TAIL) {
			/*
			 * Kernels before the folio rework kept PG_dirty and PG_writeback on the
			 * head page only; 6.18 reports the folio's flags on every page. Take the
			 * head's either way: the one we saw, if this page is in its folio.
			 */
			if (h->seen && pfn > h->pfn && pfn - h->pfn == first + k - h->page)
				f |= h->flags & (PC_KPF_DIRTY | PC_KPF_WRITEBACK);
			else if (probe_cache_kpf_head(kfd, pfn, &hf) == 0)
				f |= hf & (PC_KPF_DIRTY | PC_KPF_WRITEBACK);
		}
		/*
		 * tmpfs (shmem) pages are swap-backed and always dirty: that only says they
		 * can go nowhere but to swap. Measured on 6.18: kpageflags says D, cachestat
		 * 0 dirty. Count them as cachestat does: there is no disk they are newer than.
		 */
		if (f & PC_KPF_SWAPBACKED)
			f &= ~(PC_KPF_DIRTY | PC_KPF_WRITEBACK);
		if (f & PC_KPF_DIRTY) {
			out->dirty++;
			cell->dirty++;
		}
		if (f & PC_KPF_WRITEBACK) {
			out->writeback++;
			cell->writeback++;
		}
	}
	return 0;
}

/*
 * Fill residency, dirty and writeback per page from /proc/kpageflags (root only). The page
 * frame of a page-cache page is only known once it is mapped, so: a private read-only
 * mapping (a read fault on it maps the page-cache page itself, which is never copied since
 * nothing can write to it), mincore(2) for what is resident, then a read of only those
 * pages, so that no fault has to read anything in (only a page reclaimed in the microseconds
 * between mincore and the read would be read back); MADV_RANDOM turns off fault read-ahead
 * and keeps the unmap from marking the pages accessed. 0, or -1 with why.
 */
static int
probe_cache_by_kpageflags(int fd, long psz, struct snap_cache *out, char *why, size_t wlen)
{
	unsigned char vec[PC_MINCORE_CHUNK];
	struct pc_kpf_head head = { false, 0, 0, 0 };
	uint64_t span = out->pages * (uint64_t)psz, pages = out->pages;
	uint64_t *pm = NULL, *kf = NULL;
	int kfd, pfd, rfd = -1, err = 0;
	struct stat st;
	char *map;

	if (probe_cache_kpf_open(&kfd, &pfd, why, wlen) != 0)
		return -1;
	if (pages == 0)
		goto out;
	map = probe_cache_map(fd, span, MAP_PRIVATE, &rfd);
	if (map == MAP_FAILED) {
		err = errno;
		snprintf(why, wlen, "mmap: %s", strerror(err));
		goto out;
	}
	madvise(map, span, MADV_RANDOM);
	/* A page past the end of the file would be SIGBUS: go by its size now. */
	if (fstat(rfd >= 0 ? rfd : fd, &st) == 0 && (uint64_t)st.st_size < span)
		pages = ((uint64_t)st.st_size + (uint64_t)psz - 1) / (uint64_t)psz;
	pm = malloc(PC_MINCORE_CHUNK * sizeof *pm);
	kf = malloc(PC_MINCORE_CHUNK * sizeof *kf);
	if (pm == NULL || kf == NULL) {
		err = ENOMEM;
		snprintf(why, wlen, "out of memory");
	}
	for (uint64_t p = 0; err == 0 && p < pages; p += PC_MINCORE_CHUNK) {
		size_t n = (size_t)(pages - p < PC_MINCORE_CHUNK ? pages - p : PC_MINCORE_CHUNK);
		char *base = map + p * (uint64_t)psz;
		ssize_t want = (ssize_t)(n * sizeof *pm);

		if (mincore(base, n * (size_t)psz, vec) != 0) {
			err = errno;
			snprintf(why, wlen, "mincore: %s", strerror(err));
			break;
		}
		for (size_t k = 0; k < n; k++)
			if (vec[k] & 1)
				(void)*(volatile const char *)(base + k * (size_t)psz);
		if (pread(pfd, pm, (size_t)want,
		          (off_t)((uintptr_t)base / (uintptr_t)psz * sizeof *pm)) != want ||
		    probe_cache_kpf_chunk(kfd, p, n, vec, pm, kf, &head, out) != 0) {
			err = errno != 0 ? errno : EIO;
			snprintf(why, wlen, "reading /proc/self/pagemap or /proc/kpageflags: %s",
			         strerror(err));
		}
	}
	munmap(map, span);
out:
	free(pm);
	free(kf);
	if (rfd >= 0)
		close(rfd);
	close(kfd);
	close(pfd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* Why cachestat(2) failed with err, as the note says it. */
static void
probe_cache_cachestat_why(int err, char *why, size_t len)
{
	if (err == ENOSYS)
		snprintf(why, len, "this kernel has no cachestat(2) (Linux >= 6.5)");
	else if (err == EPERM)
		snprintf(why, len, "cachestat(2) is refused here (EPERM: a seccomp filter?)");
	else
		snprintf(why, len, "cachestat(2) does not support this file (%s)",
		         probe_cache_errname(err));
}

/*
 * With blocks smaller than a page (ext4 with 1 KiB blocks), a page written only in part is
 * cached and dirty but not up to date: mincore(2) does not count it and touching it would
 * read the rest in, so neither mincore nor kpageflags sees it. Add that to out's note.
 */
static void
probe_cache_small_blocks(int fd, long psz, struct snap_cache *out)
{
	struct stat st;
	size_t n = strlen(out->note);

	if (fstat(fd, &st) != 0 || st.st_blksize >= psz || n + 2 >= sizeof out->note)
		return;
	snprintf(out->note + n, sizeof out->note - n, "%s%ld-byte blocks: a page written only in "
	         "part is not up to date, and only cachestat(2) sees it", n > 0 ? "; " : "",
	         (long)st.st_blksize);
}

/* Start counting again from zero: a source that failed half-way may have filled cells. */
static void
probe_cache_reset(struct snap_cache *out)
{
	out->cached = out->dirty = out->writeback = 0;
	memset(out->cells, 0, sizeof out->cells);
	out->has_dirty = false;
}

/* Fill out with the page cache state of fd (size bytes) by the chain. See probe/probe.h. */
int
probe_cache(int fd, uint64_t size, struct snap_cache *out)
{
	return probe_cache_as(fd, size, SNAP_SRC_NONE, out);
}

/* Fill out with the page cache state of fd (size bytes) by want, or the chain. See probe/probe.h. */
int
probe_cache_as(int fd, uint64_t size, enum snap_source want, struct snap_cache *out)
{
	long psz = sysconf(_SC_PAGESIZE);
	char cs_why[PC_WHY] = "", kpf_why[PC_WHY] = "", where[PC_WHY] = "", real[4096];
	int cfd = fd, rfd = -1, rc = -1, err;

	memset(out, 0, sizeof *out);
	out->file_size = size;
	out->pages = (size + (uint64_t)psz - 1) / (uint64_t)psz;
	out->pages_per_cell = probe_cache_pages_per_cell(out->pages);
	out->n_cells = (size_t)((out->pages + out->pages_per_cell - 1) / out->pages_per_cell);
	probe_cache_meminfo(out);
	out->source = SNAP_SRC_NONE;

	if (want != SNAP_SRC_NONE && want != SNAP_SRC_CACHESTAT && want != SNAP_SRC_KPAGEFLAGS &&
	    want != SNAP_SRC_MINCORE) {
		snprintf(out->note, sizeof out->note, "no such page cache source");
		return -1;
	}
	if (probe_overlay_is(fd)) {
		char ovl_why[PC_WHY];

		bool upper;

		rfd = probe_overlay_real(fd, real, sizeof real, &upper, ovl_why, sizeof ovl_why);
		if (rfd >= 0) {
			cfd = rfd;
			snprintf(where, sizeof where, "overlayfs: measured on the %s file %.400s; ",
			         upper ? "upper" : "lower", real);
		} else {
			snprintf(where, sizeof where, "overlayfs: seen through a mapping of the overlay "
			         "file, which maps the real one; ");
			snprintf(cs_why, sizeof cs_why, "cachestat(2) on the overlay file sees only "
			         "overlayfs's own empty cache and %.400s", ovl_why);
		}
	}

	if (want == SNAP_SRC_NONE || want == SNAP_SRC_CACHESTAT) {
		if (cs_why[0] == '\0' && probe_cache_forced_off()) {
			snprintf(cs_why, sizeof cs_why, "cachestat(2) is turned off "
			         "(IOBUFVIZ_NO_CACHESTAT)");
		} else if (cs_why[0] == '\0') {
			if (probe_cache_by_cachestat(cfd, psz, out) == 0) {
				out->source = SNAP_SRC_CACHESTAT;
				out->has_dirty = true;
				/* where without its "; " */
				snprintf(out->note, sizeof out->note, "%.*s",
				         where[0] != '\0' ? (int)strlen(where) - 2 : 0, where);
				rc = 0;
				goto done;
			}
			err = errno;
			if (err != ENOSYS && err != EPERM && err != EOPNOTSUPP) {
				snprintf(out->note, sizeof out->note, "%scachestat(2) failed: %s", where,
				         strerror(err));
				goto done;
			}
			probe_cache_cachestat_why(err, cs_why, sizeof cs_why);
		}
		if (want == SNAP_SRC_CACHESTAT) {
			snprintf(out->note, sizeof out->note, "--probe=cachestat: %s", cs_why);
			goto done;
		}
	}

	if (want == SNAP_SRC_NONE || want == SNAP_SRC_KPAGEFLAGS) {
		probe_cache_reset(out);
		if (probe_cache_by_kpageflags(cfd, psz, out, kpf_why, sizeof kpf_why) == 0) {
			out->source = SNAP_SRC_KPAGEFLAGS;
			out->has_dirty = true;
			snprintf(out->note, sizeof out->note, "%sdirty pages from /proc/kpageflags%s%s%s; "
			         "only pages mincore(2) saw resident were touched, so none was read in",
			         where, cs_why[0] ? " (" : "", cs_why, cs_why[0] ? ")" : "");
			rc = 0;
			goto done;
		}
		if (want == SNAP_SRC_KPAGEFLAGS) {
			probe_cache_reset(out);
			snprintf(out->note, sizeof out->note, "--probe=kpageflags: %s", kpf_why);
			goto done;
		}
	}

	probe_cache_reset(out);
	if (probe_cache_by_mincore(cfd, psz, out) != 0) {
		err = errno;
		snprintf(out->note, sizeof out->note, "%sneither cachestat(2), /proc/kpageflags nor "
		         "mincore(2) worked: %s", where, strerror(err));
		goto done;
	}
	out->source = SNAP_SRC_MINCORE;
	if (want == SNAP_SRC_MINCORE)
		snprintf(out->note, sizeof out->note, "%sdirty pages: unknown, because --probe=mincore "
		         "sees residency only; FIEMAP's delalloc extents still show data written but "
		         "not yet allocated", where);
	else
		snprintf(out->note, sizeof out->note, "%sdirty pages: unknown, because %s and %s; "
		         "FIEMAP's delalloc extents still show data written but not yet allocated",
		         where, cs_why, kpf_why);
	rc = 0;
done:
	if (rc == 0 && out->source != SNAP_SRC_CACHESTAT)
		probe_cache_small_blocks(cfd, psz, out);
	if (rfd >= 0)
		close(rfd);
	return rc;
}

/* Name of a page cache source as --probe spells it (probe/names.c: "none" for SNAP_SRC_NONE). */
const char *
probe_cache_source_name(enum snap_source s)
{
	return scenario_names_of(scn_sources, (int)s);
}

/* Parse a --probe value: "auto" is SNAP_SRC_NONE (the chain). 0, or -1 if unknown. */
int
probe_cache_source_parse(const char *name, enum snap_source *out)
{
	static const enum snap_source all[] = { SNAP_SRC_CACHESTAT, SNAP_SRC_KPAGEFLAGS,
	                                        SNAP_SRC_MINCORE };

	if (strcmp(name, "auto") == 0) {
		*out = SNAP_SRC_NONE;
		return 0;
	}
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(name, probe_cache_source_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -1;
}
