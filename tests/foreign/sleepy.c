/* SPDX-License-Identifier: MIT */
/* sleepy.c: a program that pauses between its write and its close, for
 * tests/prog-foreign-sync.sh: "sleepy FILE SECONDS [sync]" writes 20000 bytes to FILE with
 * write(), sleeps SECONDS (calling sync() itself after, with "sync"), closes FILE, and prints
 * the dirty pages its own cachestat(2) saw after the write and before the close (-1: no
 * cachestat) on stdout at the end (no call in between). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* cachestat(2) (Linux 6.5), declared here as probe/cache.c does: old headers lack it. */
#define SLEEPY_NR_CACHESTAT 451

struct sleepy_range {
	uint64_t off, len;
};

struct sleepy_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* The dirty pages of fd by cachestat(2), or -1 if the kernel has no cachestat. */
static long
sleepy_dirty(int fd)
{
	struct sleepy_range r = { 0, 0 };
	struct sleepy_cachestat cs;

	memset(&cs, 0, sizeof cs);
	if (syscall(SLEEPY_NR_CACHESTAT, fd, &r, &cs, 0) != 0)
		return -1;
	return (long)cs.nr_dirty;
}

int
main(int argc, char **argv)
{
	char buf[20000];
	long d[2];
	int fd;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "sync") != 0)) {
		fprintf(stderr, "usage: sleepy FILE SECONDS [sync]\n");
		return 2;
	}
	memset(buf, 'z', sizeof buf);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
		return 2;
	d[0] = sleepy_dirty(fd);
	sleep((unsigned)atoi(argv[2]));
	if (argc == 4)
		sync();
	d[1] = sleepy_dirty(fd);
	if (close(fd) != 0)
		return 2;
	printf("dirty %ld %ld\n", d[0], d[1]);
	return 0;
}
