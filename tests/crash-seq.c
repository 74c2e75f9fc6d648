/* SPDX-License-Identifier: MIT */
/* tests/crash-seq.c: the oracle's program (tests/crash-oracle.sh): exercise 13-3's calls, then it
 * waits to be crashed. Plain C and stdio, nothing of iobufviz.
 * Usage: crash-seq FILE none|fflush|fsync
 * fopen(FILE, "w"), fwrite 5000 bytes of "abc...z" repeated, then nothing, fflush, or fflush
 * and fsync; then "ready" on standard output (a write(2): no buffer of its own) and it sleeps
 * until a signal ends it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char buf[5000];
	FILE *fp;

	if (argc != 3 || (strcmp(argv[2], "none") != 0 && strcmp(argv[2], "fflush") != 0 &&
	                  strcmp(argv[2], "fsync") != 0)) {
		fprintf(stderr, "usage: crash-seq FILE none|fflush|fsync\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)('a' + i % 26);
	fp = fopen(argv[1], "w");
	if (fp == NULL || fwrite(buf, 1, sizeof buf, fp) != sizeof buf) {
		perror(argv[1]);
		return 1;
	}
	if (strcmp(argv[2], "none") != 0 && fflush(fp) != 0) {
		perror("fflush");
		return 1;
	}
	if (strcmp(argv[2], "fsync") == 0 && fsync(fileno(fp)) != 0) {
		perror("fsync");
		return 1;
	}
	if (write(STDOUT_FILENO, "ready\n", 6) != 6)
		return 1;
	for (;;)
		pause();
}
