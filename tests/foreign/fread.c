/* SPDX-License-Identifier: MIT */
/* fread.c: small fread()s from a file, so stdio reads ahead a whole buffer at a time. */
#include <stdio.h>

/* fread 100 bytes of argv[1] three times; write one line to stdout and one to stderr. */
int
main(int argc, char **argv)
{
	char buf[100];
	FILE *f;

	if (argc < 2 || (f = fopen(argv[1], "r")) == NULL)
		return 2;
	for (int i = 0; i < 3; i++)
		if (fread(buf, 1, sizeof buf, f) != sizeof buf)
			return 1;
	fputs("done\n", stdout);
	fputs("done\n", stderr);
	return fclose(f) != 0;
}
