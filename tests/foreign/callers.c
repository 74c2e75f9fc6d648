/* SPDX-License-Identifier: MIT */
/* callers.c: one fprintf line reached from two callers in turn, at the same depth of the
 * stack, each call writing at once (an unbuffered stream): tests/own-prog-callers.sh checks
 * that each step names its own caller's line, though the tracer walks that call site's stack
 * once per caller and after that only checks the caller's return address. Then one fprintf
 * line whose format varies, ten times on a buffered stream: a folded step that must not name
 * one of the formats as every call's. Last, the same for a system call made directly: one
 * write() line reached from two callers in turn, an fsync() between (a step each), whose
 * stack is walked once per caller and then known from its two return addresses. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O0")
#endif
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static void __attribute__((noinline))
save(FILE *fp, int i)
{
	fprintf(fp, "record %d\n", i);  /* LINE:save */
}

static void __attribute__((noinline))
one(FILE *fp, int i)
{
	save(fp, i);  /* LINE:one */
}

static void __attribute__((noinline))
two(FILE *fp, int i)
{
	save(fp, i);  /* LINE:two */
}

static void __attribute__((noinline))
put(int fd, const char *s)
{
	if (write(fd, s, 1) != 1)  /* LINE:put */
		_exit(2);
}

static void __attribute__((noinline))
three(int fd)
{
	put(fd, "3");  /* LINE:three */
}

static void __attribute__((noinline))
four(int fd)
{
	put(fd, "4");  /* LINE:four */
}

int
main(int argc, char **argv)
{
	FILE *fp = fopen(argc > 1 ? argv[1] : "out.txt", "w"), *f2;

	if (fp == NULL)
		return 1;
	setvbuf(fp, NULL, _IONBF, 0);
	for (int i = 0; i < 6; i++) {
		if (i % 3 == 2)
			two(fp, i);
		else
			one(fp, i);
		fflush(fp);
	}
	if (fclose(fp) != 0 || (f2 = fopen("two.txt", "w")) == NULL)
		return 1;
	for (int i = 0; i < 10; i++)
		fprintf(f2, i % 2 ? "odd %d\n" : "even %d\n", i);  /* LINE:varies */
	if (fclose(f2) != 0)
		return 1;
	int fd = open("three.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (int i = 0; i < 6; i++) {
		if (i % 3 == 2)
			four(fd);
		else
			three(fd);
		fsync(fd);  /* LINE:sync */
	}
	return close(fd) != 0;
}
