/* SPDX-License-Identifier: MIT */
/* plaincopy.c: TLPI's copy.c with the buffer size on the command line; the fidelity yardstick. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Copy argv[1] to a new argv[2] with read()/write() of argv[3] bytes. */
int
main(int argc, char **argv)
{
	size_t size;
	char *buf;
	int in, out;
	ssize_t n;

	if (argc != 4 || (size = strtoul(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: plaincopy IN OUT BUF_SIZE\n");
		return 2;
	}
	if ((buf = malloc(size)) == NULL)
		return 1;
	if ((in = open(argv[1], O_RDONLY)) < 0) {
		perror(argv[1]);
		return 1;
	}
	if ((out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
		perror(argv[2]);
		return 1;
	}
	while ((n = read(in, buf, size)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			perror("write");
			return 1;
		}
	if (n < 0 || close(in) != 0 || close(out) != 0) {
		perror("copy");
		return 1;
	}
	free(buf);
	return 0;
}
