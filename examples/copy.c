/* SPDX-License-Identifier: MIT */
/* copy.c: TLPI's copy (listing 4-1): read() and write() BUF_SIZE bytes at a time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef BUF_SIZE        /* Allow "cc -D" to override the definition */
#define BUF_SIZE 1024
#endif

/* Copy argv[1] to argv[2] (created or truncated, mode 0644). */
int
main(int argc, char *argv[])
{
	char buf[BUF_SIZE];
	ssize_t n;
	int in, out;

	if (argc != 3) {
		fprintf(stderr, "usage: %s old-file new-file\n", argv[0]);
		return 2;
	}
	in = open(argv[1], O_RDONLY);
	if (in == -1) {
		perror(argv[1]);
		return 1;
	}
	out = open(argv[2], O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (out == -1) {
		perror(argv[2]);
		return 1;
	}
	while ((n = read(in, buf, BUF_SIZE)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			perror("write");
			return 1;
		}
	if (n == -1) {
		perror("read");
		return 1;
	}
	if (close(in) == -1 || close(out) == -1) {
		perror("close");
		return 1;
	}
	return 0;
}
