/* SPDX-License-Identifier: MIT */
/* lines.c: a student's program built with -g whose calls stand on known lines (a helper
 * called in a loop, a header whose second call makes no stop, fflush, fsync, fputs, fclose, a direct write): tests/own-prog-lines.sh
 * checks the line and function iobufviz names for each step against addr2line. */
/* As a student builds it (cc -g), whatever CFLAGS make check has: save() stays a function. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O0")
#endif
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void __attribute__((noinline))
save(FILE *fp, int i)
{
	fprintf(fp, "record %d\n", i);  /* LINE:save */
}

/* The stream's first call (its buffer's allocation stops the program: a walk of its stack),
 * then one that makes no system call, from the same function and frame. */
static void __attribute__((noinline))
header(FILE *fp)
{
	fputc('#', fp);  /* LINE:mark */
	putc('\n', fp);  /* LINE:mark2 */
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "out.txt";
	FILE *fp = fopen(path, "w");  /* LINE:fopen */
	int fd;

	if (fp == NULL)
		return 1;
	header(fp);  /* LINE:header */
	for (int i = 0; i < 500; i++)
		save(fp, i);  /* LINE:loop */
	fflush(fp);  /* LINE:fflush */
	fsync(fileno(fp));  /* LINE:fsync */
	fputs("done\n", fp);  /* LINE:fputs */
	fclose(fp);  /* LINE:fclose */
	fd = open(path, O_WRONLY | O_APPEND);  /* LINE:open */
	if (fd < 0)
		return 1;
	if (write(fd, "tail\n", 5) != 5)  /* LINE:write */
		return 1;
	close(fd);  /* LINE:close */
	return 0;
}
