/* SPDX-License-Identifier: MIT */
/* base/fdio.c: whole transfers on a file descriptor (pipes between processes, prefills). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
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
