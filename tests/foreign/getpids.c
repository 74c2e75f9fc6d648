/* SPDX-License-Identifier: MIT */
/* getpids.c: mostly untraced calls (getpid) and a few writes: what the seccomp filter lets run free. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* argv[2] (default 1000000) getpid() calls, and 10 writes to argv[1] among them. */
int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	int fd;

	if (argc < 2 || (fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return 2;
	for (long i = 0; i < n; i++) {
		syscall(SYS_getpid);
		if (i % (n / 10 > 0 ? n / 10 : 1) == 0 && write(fd, "0123456789", 10) != 10)
			return 1;
	}
	return close(fd) != 0;
}
