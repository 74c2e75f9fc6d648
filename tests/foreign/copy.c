/* SPDX-License-Identifier: MIT */
/* copy.c: a student's copy program (read/write with BUF_SIZE), traced by check-foreign. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Copy argv[1] to argv[2] with read/write calls of argv[3] bytes (default 4096). */
int
main(int argc, char **argv)
{
	size_t bufsize = argc > 3 ? strtoul(argv[3], NULL, 10) : 4096;
	char *buf;
	ssize_t n;
	int in, out;

	if (argc < 3 || bufsize == 0 || (buf = malloc(bufsize)) == NULL)
		return 2;
	in = open(argv[1], O_RDONLY);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		return 1;
	while ((n = read(in, buf, bufsize)) > 0)
		if (write(out, buf, (size_t)n) != n)
			return 1;
	close(in);
	close(out);
	free(buf);
	return n < 0;
}
