/* SPDX-License-Identifier: MIT */
/* crash/file.c: a file as another process reads it after a crash: whether it exists, its size,
 * its first bytes. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/file.h"

/* Pages of the head we look at (CRASH_HEAD_MAX over the smallest page size). */
#define CRASH_FILE_PAGES (CRASH_HEAD_MAX / 4096 + 1)

/*
 * Which of the first len bytes' pages of fd are in the page cache, into resident (one byte a
 * page, bit 0). The mapping is gone when this returns: a mapped page is one DONTNEED keeps.
 * 0, or -1.
 */
static int
crash_file_resident(int fd, size_t len, unsigned char *resident)
{
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	int rc;

	if (map == MAP_FAILED)
		return -1;
	rc = mincore(map, len, resident);
	munmap(map, len);
	return rc;
}

/*
 * An fd to read NAME in dirfd through, into *fd; *own true if it is a new one to close.
 * live_fd when NAME is its file (found by an O_PATH open, which makes no open file the
 * filesystem sees). 0, or -1 with errno (ENOENT: no such file).
 */
static int
crash_file_open(int dirfd, const char *name, int live_fd, int *fd, bool *own)
{
	struct stat a, b;
	int p = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), e;

	*own = false;
	if (p < 0)
		return -1;
	if (live_fd >= 0 && fstat(p, &a) == 0 && fstat(live_fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino && S_ISREG(a.st_mode)) {
		close(p);
		*fd = live_fd;
		return 0;
	}
	close(p);
	*fd = openat(dirfd, name, O_RDONLY | O_NOATIME | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK |
	             O_CLOEXEC);
	/* O_NOATIME is for the file's owner (or root) only. */
	if (*fd < 0 && errno == EPERM)
		*fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	e = errno;
	*own = *fd >= 0;
	errno = e;
	return *fd >= 0 ? 0 : -1;
}

/* Read NAME in the dir open as dirfd (see crash/file.h). */
int
crash_file_read(int dirfd, const char *name, int live_fd, bool keep_cache,
                struct crash_file *out)
{
	unsigned char before[CRASH_FILE_PAGES];
	long page = sysconf(_SC_PAGESIZE);
	bool restore = false, own;
	struct stat st;
	size_t want;
	ssize_t n;
	int fd, e;

	memset(out, 0, sizeof *out);
	if (*name == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return -1;
	}
	if (crash_file_open(dirfd, name, live_fd, &fd, &own) != 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) != 0) {
		e = errno;
		if (own)
			close(fd);
		errno = e;
		return -1;
	}
	out->exists = true;
	out->size = (uint64_t)st.st_size;
	want = out->size < CRASH_HEAD_MAX ? (size_t)out->size : CRASH_HEAD_MAX;
	if (want > 0 && S_ISREG(st.st_mode) && keep_cache && page > 0 &&
	    (want + (size_t)page - 1) / (size_t)page <= CRASH_FILE_PAGES) {
		/* No readahead: the read brings in the head's pages and nothing past them. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
		restore = crash_file_resident(fd, want, before) == 0;
	}
	n = S_ISREG(st.st_mode) ? pread(fd, out->head, want, 0) : 0;
	e = errno;
	/* Pages the read brought in are clean: dropping them gives the cache back as it was. */
	for (size_t i = 0; restore && i * (size_t)page < want; i++)
		if (!(before[i] & 1))
			posix_fadvise(fd, (off_t)(i * (size_t)page), page, POSIX_FADV_DONTNEED);
	if (own)
		close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	out->head_len = (size_t)n;
	return 0;
}
