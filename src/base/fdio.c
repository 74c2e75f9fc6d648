/* SPDX-License-Identifier: MIT */
/* base/fdio.c: whole transfers on a file descriptor (pipes between processes, prefills), and
 * the open of a file someone else controls that can only ever be a regular file's. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fdio.h"

/* Write all of buf, retrying on EINTR and short writes. */
int
fdio_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read len bytes unless end of file comes first, retrying on EINTR. */
ssize_t
fdio_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Read a small file into buf as a string. */
ssize_t
fdio_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = fdio_read_all(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* Open a regular file read-only, never anything else (see base/fdio.h). */
int
fdio_open_regular(const char *path, int follow)
{
	char self[64];
	struct stat st, st2;
	int pfd = open(path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW)), fd;

	if (pfd < 0)
		return -1;
	if (fstat(pfd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		if (fstat(pfd, &st) == 0)
			e = S_ISLNK(st.st_mode) ? ELOOP : EINVAL;
		close(pfd);
		errno = e;
		return -1;
	}
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	close(pfd);
	if (fd < 0)
		return -1;
	/* The same file as the one checked (the link of an O_PATH fd is its very inode). */
	if (fstat(fd, &st2) != 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}
