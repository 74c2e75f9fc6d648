/* SPDX-License-Identifier: MIT */
/* stdio-calls.c: stdio calls a student writes that are not the plain ones, on the two files it
 * is given: a getline -> fprintf copy, ftell, rewind, fscanf, and the _unlocked functions.
 * Built twice (mk/prog.am): plain, and with _FORTIFY_SOURCE=2, where the compiler (at -O1 and
 * up) calls __fprintf_chk, __getdelim and __isoc99_fscanf for them (tests/own-prog-calls.sh).
 * fwrite_unlocked and fputc_unlocked are called through pointers: optimized, <stdio.h> makes
 * them inline code that calls no function (-O0 calls them, as here). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

/* stdio-calls IN OUT */
int
main(int argc, char **argv)
{
	size_t (*volatile fwrite_u)(const void *, size_t, size_t, FILE *) = fwrite_unlocked;
	int (*volatile fputc_u)(int, FILE *) = fputc_unlocked;
	FILE *in, *out;
	char *line = NULL, buf[64];
	size_t cap = 0;
	long k = 0;
	int x = 0;

	if (argc != 3 || (in = fopen(argv[1], "r")) == NULL || (out = fopen(argv[2], "w")) == NULL)
		return 2;
	while (getline(&line, &cap, in) > 0)
		fprintf(out, "%ld: %s", k++, line);
	fprintf(out, "pos %ld\n", ftell(in));
	rewind(in);
	if (fscanf(in, "%d", &x) != 1)
		x = -1;
	fprintf(out, "x=%d\n", x);
	if (fgets_unlocked(buf, (int)sizeof buf, in) != NULL)
		fputs_unlocked(buf, out);
	fwrite_u(buf, 1, 2, out);
	fputc_u('z', out);
	free(line);
	return fclose(out) != 0 || fclose(in) != 0;
}
