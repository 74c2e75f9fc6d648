/* SPDX-License-Identifier: MIT */
/* fwrite.c: fwrite()s of several sizes, reporting __fpending after each on stderr. */
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

/* Write chunks to argv[1]; after each, print "pending N" to stderr. */
int
main(int argc, char **argv)
{
	static const size_t sizes[] = { 100, 3000, 2000, 5000, 10, 4096, 9000 };
	static char chunk[9000];
	FILE *f;

	if (argc < 2 || (f = fopen(argv[1], "w")) == NULL)
		return 2;
	memset(chunk, 'x', sizeof chunk);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		if (fwrite(chunk, 1, sizes[i], f) != sizes[i])
			return 1;
		fprintf(stderr, "pending %zu\n", __fpending(f));
	}
	return fclose(f) != 0;
}
