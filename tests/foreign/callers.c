/* SPDX-License-Identifier: MIT */
/* callers.c: one fprintf line reached from two callers in turn, at the same depth of the
 * stack, each call writing at once (an unbuffered stream): tests/own-prog-callers.sh checks
 * that each step names its own caller's line, though the tracer walks that call site's stack
 * once per caller and after that only checks the caller's return address. Then one fprintf
 * line whose format varies, ten times on a buffered stream: a folded step that must not name
 * one of the formats as every call's. */
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
	return fclose(f2) != 0;
}
