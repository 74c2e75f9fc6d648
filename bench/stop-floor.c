/* SPDX-License-Identifier: MIT */
/*
 * stop-floor.c: what one ptrace stop costs on this machine, the floor under any tracer that
 * stops a program at each write (bench/prog-sort.sh compares it with what its targets leave
 * a write). A child writes 4 KiB to /dev/null N times, first alone, then under a seccomp
 * filter that stops it (SECCOMP_RET_TRACE) at each write, resumed at once by a tracer that
 * does nothing else: no exit stop, no read of its memory. Twice: the tracer asleep in
 * waitpid between stops, and the tracer looking again and again (as prog/wait.c does while
 * stops come fast). Prints "stop-floor: bare B us, stop-asleep S us, stop-spinning P us" per
 * write.
 *
 * stop-floor [N]
 */
#include <config.h>

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds of CLOCK_MONOTONIC. */
static double
sf_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* n writes of 4 KiB to /dev/null. 0, or -1. */
static int
sf_writes(long n)
{
	static char b[4096];
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (long i = 0; i < n; i++)
		if (write(fd, b, sizeof b) != (ssize_t)sizeof b)
			return -1;
	return close(fd);
}

/* Microseconds a write of n takes under a tracer that stops it at each (spin: looking for
 * each stop without sleeping); negative on error. */
static double
sf_traced(long n, int spin)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	double t0;
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0 || raise(SIGSTOP) != 0 ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
			_exit(1);
		_exit(sf_writes(n) == 0 ? 0 : 1);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)(long)(PTRACE_O_TRACESECCOMP |
	                                                      PTRACE_O_EXITKILL)) != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -1;
	}
	t0 = sf_now();
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		pid_t r;
		do
			r = waitpid(pid, &st, __WALL | (spin ? WNOHANG : 0));
		while (r == 0);
		if (r != pid)
			return -1;
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		ptrace(PTRACE_CONT, pid, 0, 0);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return (sf_now() - t0) / (double)n * 1e6;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	double t0, bare, asleep, spinning;

	if (n <= 0)
		return 2;
	t0 = sf_now();
	if (sf_writes(n) != 0)
		return 1;
	bare = (sf_now() - t0) / (double)n * 1e6;
	asleep = sf_traced(n, 0);
	spinning = sf_traced(n, 1);
	if (asleep < 0 || spinning < 0) {
		printf("SKIP: stop-floor: cannot trace a child here (ptrace or seccomp refused)\n");
		return 77;
	}
	printf("stop-floor: bare %.2f us, stop-asleep %.2f us, stop-spinning %.2f us per write "
	       "(%ld writes)\n", bare, asleep, spinning, n);
	return 0;
}
