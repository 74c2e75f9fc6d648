/* SPDX-License-Identifier: MIT */
/* forks.c: a program whose child writes one file and whose parent writes another. */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write "child" to argv[1] in a child, then "parent" to argv[2]. */
int
main(int argc, char **argv)
{
	pid_t pid;
	int fd, st;

	if (argc < 3)
		return 2;
	pid = fork();
	if (pid == 0) {
		fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		_exit(fd < 0 || write(fd, "child\n", 6) != 6 || close(fd) != 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	return fd < 0 || write(fd, "parent\n", 7) != 7 || close(fd) != 0 || st != 0;
}
