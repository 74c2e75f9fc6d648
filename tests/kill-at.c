/* SPDX-License-Identifier: MIT */
/* tests/kill-at.c: run a program under ptrace and SIGKILL it at an exact system call stop, for
 * tests/kill-window.sh (the states a kill can leave a scratch dir in), or hold it there while
 * a command runs.
 * Usage: kill-at [-r COMMAND] SYSCALL PREFIX N -- PROGRAM [ARG...]
 * Stop 0 is the entry of the first SYSCALL (mkdirat, unlinkat, ...) whose path argument starts
 * with PREFIX; every system call entry and exit of the program after it is one stop more.
 * At stop N the program is killed (at an entry: before that call runs; at an exit: after):
 * "killed at stop N: NAME entry|exit" on standard error and exit 0. With -r, COMMAND (sh -c) runs while the
 * program is held at stop N, then the program goes on untraced: "held at stop N: NAME
 * entry|exit", and its exit status (128 + N if signal N killed it). Exit 1 if the program
 * ended before stop N (or never made that call), 2 on a usage or ptrace error. Only the
 * program itself is traced, not the processes it makes. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* The calls a trigger may name, with the index of their path argument. */
static const struct {
	const char *name;
	long nr;
	int path_arg;
} calls[] = {
	{ "mkdirat", SYS_mkdirat, 1 },
	{ "unlinkat", SYS_unlinkat, 1 },
	{ "renameat", SYS_renameat, 1 },
	{ "flock", SYS_flock, -1 },
	{ "openat", SYS_openat, 1 },
#ifdef SYS_newfstatat
	{ "newfstatat", SYS_newfstatat, 1 },
#endif
	{ "fstat", SYS_fstat, -1 },
	{ "rt_sigprocmask", SYS_rt_sigprocmask, -1 },
	{ "close", SYS_close, -1 },
	{ "geteuid", SYS_geteuid, -1 },
};

/* The name of call nr, or its number. */
static const char *
call_name(long nr)
{
	static char num[24];

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (calls[i].nr == nr)
			return calls[i].name;
	snprintf(num, sizeof num, "call %ld", nr);
	return num;
}

/* True if the string at addr in pid's memory starts with prefix. */
static int
starts_with(pid_t pid, unsigned long long addr, const char *prefix)
{
	char buf[256];
	size_t n = strlen(prefix);
	struct iovec local = { buf, n + 1 }, remote = { (void *)(uintptr_t)addr, n + 1 };

	if (n >= sizeof buf)
		return 0;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)(n + 1))
		return 0;
	return memcmp(buf, prefix, n) == 0;
}

int
main(int argc, char **argv)
{
	struct __ptrace_syscall_info si;
	long want = -1, stop = -1, n, nr = -1;
	int arg = -1, status;
	pid_t pid;

	const char *cmd = NULL;

	if (argc > 2 && strcmp(argv[1], "-r") == 0) {
		cmd = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 6 || strcmp(argv[4], "--") != 0) {
		fprintf(stderr, "usage: kill-at [-r COMMAND] SYSCALL PREFIX N -- PROGRAM [ARG...]\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (strcmp(calls[i].name, argv[1]) == 0)
			want = calls[i].nr, arg = calls[i].path_arg;
	n = strtol(argv[3], NULL, 10);
	if (want < 0 || arg < 0 || n < 0) {
		fprintf(stderr, "kill-at: %s: not a call with a path this knows\n", argv[1]);
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(127);
		raise(SIGSTOP);
		execvp(argv[5], argv + 5);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD |
	           PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) != 0) {
		perror("kill-at: ptrace");
		return 2;
	}
	for (int sig = 0;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) != 0 && errno != ESRCH)
			return 2;
		if (waitpid(pid, &status, 0) != pid)
			return 2;
		sig = 0;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			fprintf(stderr, "ended before stop %ld (at stop %ld)\n", n, stop);
			return 1;
		}
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* An exec event goes on; a signal is the program's: delivered. */
			if ((status >> 16) == 0)
				sig = WSTOPSIG(status);
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof si, &si) <= 0)
			return 2;
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY)
			nr = (long)si.entry.nr;
		if (stop < 0 && si.op == PTRACE_SYSCALL_INFO_ENTRY && nr == want &&
		    starts_with(pid, si.entry.args[arg], argv[2]))
			stop = 0;
		else if (stop >= 0)
			stop++;
		if (stop == n && cmd != NULL) {
			int rc = system(cmd);
			fprintf(stderr, "held at stop %ld: %s %s (command: exit %d)\n", n, call_name(nr),
			       si.op == PTRACE_SYSCALL_INFO_ENTRY ? "entry" : "exit",
			       WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
			if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0 || waitpid(pid, &status, 0) != pid)
				return 2;
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		}
		if (stop == n) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "killed at stop %ld: %s %s\n", n, call_name(nr),
			       si.op == PTRACE_SYSCALL_INFO_ENTRY ? "entry" : "exit");
			return 0;
		}
	}
}
