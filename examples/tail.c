/* SPDX-License-Identifier: MIT */
/* tail.c: TLPI exercise 13-5: "tail -n N file", reading backwards from the end in blocks. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BUF_SIZE
#define BUF_SIZE 4096
#endif

/* Print the last n lines of the file open as fd, size bytes long; 0 or -1. */
static int
tail_lines(int fd, off_t size, long n)
{
	static char buf[BUF_SIZE];
	off_t end = size, from = 0;
	long newlines = 0;

	/* Backwards, a block at a time, to the newline before the first line to print. */
	while (end > 0) {
		size_t len = end >= BUF_SIZE ? BUF_SIZE : (size_t)end;
		off_t at = end - (off_t)len;
		if (pread(fd, buf, len, at) != (ssize_t)len)
			return -1;
		for (size_t i = len; i-- > 0;) {
			/* A final newline ends the last line; it does not start another. */
			if (buf[i] != '\n' || at + (off_t)i == size - 1 || ++newlines < n)
				continue;
			from = at + (off_t)i + 1;
			if (end == size)        /* all of it is in buf already */
				return fwrite(buf + i + 1, 1, len - i - 1, stdout) == len - i - 1 &&
				       fflush(stdout) == 0 ? 0 : -1;
			goto found;
		}
		end = at;
	}
found:
	/* Forwards from there to the end. */
	while (from < size) {
		ssize_t got = pread(fd, buf, BUF_SIZE, from);
		if (got <= 0 || fwrite(buf, 1, (size_t)got, stdout) != (size_t)got)
			return -1;
		from += got;
	}
	return fflush(stdout) == 0 ? 0 : -1;
}

/* tail [-n N] FILE */
int
main(int argc, char *argv[])
{
	long n = 10;
	off_t size;
	int fd;

	if (argc == 4 && strcmp(argv[1], "-n") == 0)
		n = strtol(argv[2], NULL, 10);
	else if (argc != 2) {
		fprintf(stderr, "usage: %s [-n N] file\n", argv[0]);
		return 2;
	}
	fd = open(argv[argc - 1], O_RDONLY);
	if (fd == -1 || (size = lseek(fd, 0, SEEK_END)) == -1) {
		perror(argv[argc - 1]);
		return 1;
	}
	if (n > 0 && tail_lines(fd, size, n) != 0) {
		perror("tail");
		return 1;
	}
	return close(fd) == 0 ? 0 : 1;
}
