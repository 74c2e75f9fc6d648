/* SPDX-License-Identifier: MIT */
/* unlocked.c: stdio through macros and inline functions the shim cannot see: putc_unlocked
 * and getc_unlocked (built with -O, <stdio.h> makes them inline code that calls no function
 * but __overflow and __uflow on a full or empty buffer). Asks fstat(fileno(fp)) itself, then
 * writes 10000 letters to argv[1] with putc_unlocked and fputc_unlocked (inlined too; stdio's
 * own fstat sizes its buffer),
 * then 100 bytes of its own buffer with write(fileno(fp)), closes it; reads it back with
 * getc_unlocked. Prints the bytes read. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char own[100];
	struct stat st;
	long n = 0;
	FILE *fp;

	if (argc != 2 || (fp = fopen(argv[1], "w")) == NULL)
		return 2;
	if (fstat(fileno(fp), &st) != 0)
		return 1;
	for (int i = 0; i < 10000; i++)
		if (i % 2)
			putc_unlocked('a' + i % 26, fp);
		else
			fputc_unlocked('a' + i % 26, fp);
	memset(own, '-', sizeof own);
	if (write(fileno(fp), own, sizeof own) != (ssize_t)sizeof own || fclose(fp) != 0)
		return 1;
	if ((fp = fopen(argv[1], "r")) == NULL)
		return 1;
	while (getc_unlocked(fp) != EOF)
		n++;
	fclose(fp);
	printf("%ld\n", n);
	return 0;
}
