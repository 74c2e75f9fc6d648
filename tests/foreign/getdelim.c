/* SPDX-License-Identifier: MIT */
/* getdelim.c: reads IN record by record with getdelim(..., ',', fp) to its end, and prints
 * "R records, B bytes" (records read, bytes getdelim returned in all) to stdout. Exits 0, or
 * 1 if IN cannot be opened or a read fails. */
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	char *line = NULL;
	size_t n = 0;
	long records = 0, bytes = 0;
	ssize_t got;
	FILE *fp;

	if (argc != 2 || (fp = fopen(argv[1], "r")) == NULL)
		return 1;
	while ((got = getdelim(&line, &n, ',', fp)) != -1) {
		records++;
		bytes += got;
	}
	if (ferror(fp))
		return 1;
	fclose(fp);
	free(line);
	printf("%ld records, %ld bytes\n", records, bytes);
	return 0;
}
