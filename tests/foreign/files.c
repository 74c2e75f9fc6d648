/* SPDX-License-Identifier: MIT */
/* files.c: whose buffer stdio flushes from code the shim cannot see (putc_unlocked, inline
 * with -O), when FILEs share an fd or are many.
 *   files share OUT: two fdopen of one fd of OUT, a and b; 10000 letters into b only (a stays
 *     empty), then fclose(b). Prints "a=%p b=%p" to stderr.
 *   files stdout: o = fdopen(1); 10000 letters into o, then 10000 into stdout, fflush(o), and
 *     returns (exit flushes stdout). Prints "o=%p" to stderr.
 *   files many N OUT: fopen OUT.0 ... OUT.N-1 ("w"), all open at once; 10000 letters into the
 *     first (the oldest: the end of glibc's chain) and the last, then closes them all.
 *   files mem N OUT: fopen OUT, then N streams in memory (fmemopen: no fd, and in glibc's
 *     chain like any), then 10000 letters into OUT; closes OUT.
 * Exits 0, or 1 on a failure. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* n letters into fp with putc_unlocked. 0, or -1. */
static int
files_put(FILE *fp, int n)
{
	for (int i = 0; i < n; i++)
		if (putc_unlocked('a' + i % 26, fp) == EOF)
			return -1;
	return 0;
}

/* Two FILEs on one fd, b written. */
static int
files_share(const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	FILE *a = fd >= 0 ? fdopen(fd, "w") : NULL, *b = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (a == NULL || b == NULL)
		return 1;
	fprintf(stderr, "a=%p b=%p\n", (void *)a, (void *)b);
	return files_put(b, 10000) != 0 || fclose(b) != 0;
}

/* stdout and a FILE of its own on fd 1, both written. */
static int
files_stdout(void)
{
	FILE *o = fdopen(1, "w");

	if (o == NULL)
		return 1;
	fprintf(stderr, "o=%p\n", (void *)o);
	return files_put(o, 10000) != 0 || files_put(stdout, 10000) != 0 || fflush(o) != 0;
}

/* n FILEs open at once, the first and last written. */
static int
files_many(int n, const char *out)
{
	FILE **v = calloc((size_t)n, sizeof *v);
	char path[4096];
	int rc = 0;

	if (v == NULL || n < 1)
		return 1;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s.%d", out, i);
		if ((v[i] = fopen(path, "w")) == NULL)
			return 1;
	}
	if (files_put(v[0], 10000) != 0 || files_put(v[n - 1], 10000) != 0)
		rc = 1;
	for (int i = 0; i < n; i++)
		if (fclose(v[i]) != 0)
			rc = 1;
	free(v);
	return rc;
}

/* A file's stream behind n in memory. */
static int
files_mem(int n, const char *out)
{
	static char buf[16];
	FILE *fp = fopen(out, "w");

	if (fp == NULL)
		return 1;
	for (int i = 0; i < n; i++)
		if (fmemopen(buf, sizeof buf, "r") == NULL)
			return 1;
	return files_put(fp, 10000) != 0 || fclose(fp) != 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "share") == 0)
		return files_share(argv[2]);
	if (argc == 2 && strcmp(argv[1], "stdout") == 0)
		return files_stdout();
	if (argc == 4 && strcmp(argv[1], "many") == 0)
		return files_many(atoi(argv[2]), argv[3]);
	if (argc == 4 && strcmp(argv[1], "mem") == 0)
		return files_mem(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: files share OUT | files stdout | files many N OUT | files mem N OUT\n");
	return 2;
}
