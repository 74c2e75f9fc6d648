/* SPDX-License-Identifier: MIT */
/* callers.c: one fprintf line reached from two callers in turn, at the same depth of the
 * stack, each call writing at once (an unbuffered stream): tests/own-prog-callers.sh checks
 * that each step names its own caller's line, though the tracer walks that call site's stack
 * once per caller and after that only checks the caller's return address. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O0")
#endif
#include <stdio.h>

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

int
main(int argc, char **argv)
{
	FILE *fp = fopen(argc > 1 ? argv[1] : "out.txt", "w");

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
	return fclose(fp) != 0;
}
