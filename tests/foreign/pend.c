/* SPDX-License-Identifier: MIT */
/* pend.c: stdio programs that report their own __fpending after every stdio call on a side
 * channel, for the tracer's view of each stream to be checked against the program's own. */
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The side channel: a FIFO, so that reporting is no call on a regular file. */
static int side = -1;

/* Report "FD PENDING" of fp after each call on it (fopen, stdio calls, write on its fd). */
static void
report(FILE *fp)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%d %zu\n", fileno(fp), __fpending(fp));

	if (write(side, line, (size_t)n) != n)
		_exit(9);
}

/* copy IN OUT: fgetc/fputc, a byte at a time; OUT is not closed (exit flushes it). */
static int
pend_copy(const char *in, const char *out)
{
	FILE *a = fopen(in, "r"), *b = fopen(out, "w");
	int c;

	if (a == NULL || b == NULL)
		return 2;
	report(a);
	report(b);
	while ((c = fgetc(a)) != EOF) {
		report(a);
		fputc(c, b);
		report(b);
	}
	report(a);
	fclose(a);
	return 0;
}

/* mix OUT: fprintf, a write() of the program's own, fprintf again, no fclose. */
static int
pend_mix(const char *out)
{
	FILE *fp = fopen(out, "w");

	if (fp == NULL)
		return 2;
	report(fp);
	fprintf(fp, "first line: %d\n", 1);
	report(fp);
	if (write(fileno(fp), "written directly\n", 17) != 17)
		return 1;
	report(fp);
	fprintf(fp, "second line: %d\n", 2);
	report(fp);
	return 0;
}

/* tail N IN: the last N lines of IN (read with fgets) on stdout, left for exit to flush. */
static int
pend_tail(int n, const char *in)
{
	static char ring[64][256];
	FILE *fp = fopen(in, "r");
	long k = 0;

	if (fp == NULL || n < 1 || n > 64)
		return 2;
	report(fp);
	while (fgets(ring[k % n], sizeof ring[0], fp) != NULL) {
		report(fp);
		k++;
	}
	report(fp);
	fclose(fp);
	for (long i = k > n ? k - n : 0; i < k; i++) {
		fputs(ring[i % n], stdout);
		report(stdout);
	}
	return 0;
}

/* pend FIFO MODE ARGS... (FIFO "-": no reports) */
int
main(int argc, char **argv)
{
	if (argc < 4 || (side = open(strcmp(argv[1], "-") == 0 ? "/dev/null" : argv[1],
	                             O_WRONLY | O_CLOEXEC)) < 0)
		return 2;
	if (strcmp(argv[2], "copy") == 0 && argc == 5)
		return pend_copy(argv[3], argv[4]);
	if (strcmp(argv[2], "mix") == 0)
		return pend_mix(argv[3]);
	if (strcmp(argv[2], "tail") == 0 && argc == 5)
		return pend_tail(atoi(argv[3]), argv[4]);
	return 2;
}
