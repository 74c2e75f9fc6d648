/* SPDX-License-Identifier: MIT */
/* killself.c: a program that writes a file, then dies of SIGUSR1. */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

/* Write to argv[1], then raise SIGUSR1 (whose default action ends the process). */
int
main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || (fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return 2;
	if (write(fd, "x", 1) != 1)
		return 1;
	signal(SIGUSR1, SIG_DFL);
	raise(SIGUSR1);
	return 3;
}
