/* SPDX-License-Identifier: MIT */
/* moves.c: programs that move file data without read or write, for tests/own-prog-moves.sh:
 * stores through a shared mapping (with the program's own cachestat of them), a sendfile
 * copy, a splice copy through a pipe, pwritev2 with and without RWF_DSYNC, a write submitted
 * through an io_uring. What each saw is printed on stdout at the end (no call in between). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* cachestat(2) (Linux 6.5), declared here as probe/cache.c does: old headers lack it. */
#define MOVES_NR_CACHESTAT 451

struct moves_range {
	uint64_t off, len;
};

struct moves_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* The dirty pages of fd by cachestat(2), or -1 if the kernel has no cachestat. */
static long
moves_dirty(int fd)
{
	struct moves_range r = { 0, 0 };
	struct moves_cachestat cs;

	memset(&cs, 0, sizeof cs);
	if (syscall(MOVES_NR_CACHESTAT, fd, &r, &cs, 0) != 0)
		return -1;
	return (long)cs.nr_dirty;
}

/* map FILE: a 5-page file mapped shared; stores on pages 0, 2 and 3, msync(MS_SYNC); a store
 * on page 1 (none if clean), munmap. Prints the dirty pages cachestat saw before msync, after
 * it, and before munmap. */
static int
moves_map(const char *path, bool clean)
{
	long page = sysconf(_SC_PAGESIZE), d[3];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char *m;

	if (fd < 0 || ftruncate(fd, 5 * page) != 0)
		return 2;
	m = mmap(NULL, (size_t)(5 * page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 2;
	memcpy(m, "page zero", 9);
	memcpy(m + 2 * page, "page two", 8);
	memcpy(m + 3 * page, "page three", 10);
	d[0] = moves_dirty(fd);
	if (msync(m, (size_t)(5 * page), MS_SYNC) != 0)
		return 2;
	d[1] = moves_dirty(fd);
	if (!clean)
		memcpy(m + page, "page one", 8);
	d[2] = moves_dirty(fd);
	if (munmap(m, (size_t)(5 * page)) != 0 || close(fd) != 0)
		return 2;
	printf("dirty %ld %ld %ld\n", d[0], d[1], d[2]);
	return 0;
}

/* mapread FILE: 3 pages written with write(), mapped shared and writable, read through the
 * mapping and never stored to, unmapped. Prints the dirty pages cachestat saw after the writes
 * and before munmap, and the sum of the bytes read (so that the reads are not optimised out). */
static int
moves_mapread(const char *path)
{
	long page = sysconf(_SC_PAGESIZE), d[2];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char buf[4096];
	unsigned sum = 0;
	volatile char *m;

	memset(buf, 'x', sizeof buf);
	if (fd < 0 || page != (long)sizeof buf)
		return 2;
	for (int i = 0; i < 3; i++)
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
			return 2;
	d[0] = moves_dirty(fd);
	m = mmap(NULL, (size_t)(3 * page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 2;
	for (long i = 0; i < 3 * page; i += 512)
		sum += (unsigned char)m[i];
	d[1] = moves_dirty(fd);
	if (munmap((void *)m, (size_t)(3 * page)) != 0 || close(fd) != 0)
		return 2;
	printf("dirty %ld %ld sum %u\n", d[0], d[1], sum);
	return 0;
}

/* sendfile IN OUT: the whole of IN to OUT by sendfile, 64 KiB a call. */
static int
moves_sendfile(const char *in, const char *out)
{
	int a = open(in, O_RDONLY), b = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long long total = 0;
	ssize_t n;

	if (a < 0 || b < 0)
		return 2;
	while ((n = sendfile(b, a, NULL, 65536)) > 0)
		total += n;
	if (n < 0 || close(a) != 0 || close(b) != 0)
		return 2;
	printf("sent %lld\n", total);
	return 0;
}

/* splice IN OUT: IN into a pipe and the pipe into OUT, 64 KiB at a time. */
static int
moves_splice(const char *in, const char *out)
{
	int a = open(in, O_RDONLY), b = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), p[2];
	long long total = 0;
	ssize_t n;

	if (a < 0 || b < 0 || pipe(p) != 0)
		return 2;
	while ((n = splice(a, NULL, p[1], NULL, 65536, 0)) > 0) {
		for (ssize_t left = n, k; left > 0; left -= k)
			if ((k = splice(p[0], NULL, b, NULL, (size_t)left, 0)) <= 0)
				return 2;
		total += n;
	}
	if (n < 0 || close(a) != 0 || close(b) != 0)
		return 2;
	printf("spliced %lld\n", total);
	return 0;
}

/* dsync FILE: a page by pwritev2 with RWF_DSYNC at 0, another with no flag at one page. */
static int
moves_dsync(const char *path)
{
	static char buf[65536];
	long page = sysconf(_SC_PAGESIZE);
	struct iovec v = { buf, (size_t)page };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'd', sizeof buf);
	if (fd < 0 || page > (long)sizeof buf)
		return 2;
	if (syscall(SYS_pwritev2, fd, &v, 1, 0L, 0L, RWF_DSYNC) != page ||
	    syscall(SYS_pwritev2, fd, &v, 1, (long)page, 0L, 0) != page || close(fd) != 0)
		return 2;
	return 0;
}

/* uring FILE: 5000 bytes written to FILE through an io_uring (IORING_OP_WRITE). 77 if the
 * kernel refuses io_uring (ENOSYS, EPERM: kernel.io_uring_disabled, a seccomp policy). */
static int
moves_uring(const char *path)
{
	static char buf[5000];
	struct io_uring_params pa;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	size_t sq_len, cq_len;
	unsigned *tail, *mask, *array, idx;
	char *sq, *cq;
	int fd, ring;

	memset(&pa, 0, sizeof pa);
	memset(buf, 'u', sizeof buf);
	ring = (int)syscall(SYS_io_uring_setup, 4, &pa);
	if (ring < 0) {
		fprintf(stderr, "io_uring_setup: %m\n");
		return 77;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	sq_len = pa.sq_off.array + pa.sq_entries * sizeof(unsigned);
	cq_len = pa.cq_off.cqes + pa.cq_entries * sizeof(struct io_uring_cqe);
	if (pa.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
	          IORING_OFF_SQ_RING);
	cq = pa.features & IORING_FEAT_SINGLE_MMAP ? sq :
	     mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
	          IORING_OFF_CQ_RING);
	sqe = mmap(NULL, pa.sq_entries * sizeof *sqe, PROT_READ | PROT_WRITE,
	           MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (fd < 0 || sq == MAP_FAILED || cq == MAP_FAILED || sqe == MAP_FAILED)
		return 2;
	tail = (unsigned *)(sq + pa.sq_off.tail);
	mask = (unsigned *)(sq + pa.sq_off.ring_mask);
	array = (unsigned *)(sq + pa.sq_off.array);
	idx = *tail & *mask;
	memset(&sqe[idx], 0, sizeof sqe[idx]);
	sqe[idx].opcode = IORING_OP_WRITE;
	sqe[idx].fd = fd;
	sqe[idx].addr = (uint64_t)(uintptr_t)buf;
	sqe[idx].len = sizeof buf;
	sqe[idx].off = 0;
	array[idx] = idx;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) != 1)
		return 2;
	cqe = (struct io_uring_cqe *)(cq + pa.cq_off.cqes) +
	      (*(unsigned *)(cq + pa.cq_off.head) & *(unsigned *)(cq + pa.cq_off.ring_mask));
	if (close(fd) != 0 || close(ring) != 0)
		return 2;
	printf("uring wrote %d\n", cqe->res);
	return cqe->res == (int)sizeof buf ? 0 : 2;
}

/* moves map|mapread|sendfile|splice|dsync|uring FILE [OUT]. */
int
main(int argc, char **argv)
{
	if ((argc == 3 || (argc == 4 && strcmp(argv[3], "clean") == 0)) &&
	    strcmp(argv[1], "map") == 0)
		return moves_map(argv[2], argc == 4);
	if (argc == 3 && strcmp(argv[1], "mapread") == 0)
		return moves_mapread(argv[2]);
	if (argc == 4 && strcmp(argv[1], "sendfile") == 0)
		return moves_sendfile(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "splice") == 0)
		return moves_splice(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "dsync") == 0)
		return moves_dsync(argv[2]);
	if (argc == 3 && strcmp(argv[1], "uring") == 0)
		return moves_uring(argv[2]);
	fprintf(stderr, "usage: moves map|mapread|sendfile|splice|dsync|uring FILE [OUT|clean]\n");
	return 2;
}
