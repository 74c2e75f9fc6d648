/* SPDX-License-Identifier: MIT */
/* prog/guard.c: the tracer's watchdog (see prog/guard.h). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prog/guard.h"

/* How often the watchdog looks (ms), and how often it fires again once fired (ms). */
#define GUARD_TICK_MS 50
#define GUARD_AGAIN_MS 500

/* Now, CLOCK_MONOTONIC, in ns. */
static int64_t
guard_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The TracerPid of process pid (-1: unknown, gone). */
static long
guard_tracer_of(long pid)
{
	char path[64], buf[2048], *t;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	t = strstr(buf, "\nTracerPid:");
	return t != NULL ? strtol(t + 11, NULL, 10) : -1;
}

/* SIGKILL every process traced by tracer: each through a pidfd taken before its TracerPid is
 * read again, so a pid reused meanwhile is never signalled. /proc is read with getdents64
 * (no malloc: the tracer may have had threads when it forked us). */
static void
guard_kill_traced(pid_t tracer)
{
	static char buf[16384];
	int dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	while (dfd >= 0 && (n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name. */
			unsigned short reclen;
			const char *name = buf + off + 19;
			char *end;
			long pid;
			int fd;

			memcpy(&reclen, buf + off + 16, sizeof reclen);
			if (reclen == 0)
				break;
			off += reclen;
			pid = strtol(name, &end, 10);
			if (*end != '\0' || pid <= 0 || guard_tracer_of(pid) != tracer)
				continue;
			fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
			if (fd < 0)
				continue;
			if (guard_tracer_of(pid) == tracer)
				syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
			close(fd);
		}
	}
	if (dfd >= 0)
		close(dfd);
}

/* True if pid runs the same executable as we do. */
static bool
guard_same_exe(pid_t pid)
{
	char path[64], a[PATH_MAX], b[PATH_MAX];
	ssize_t na, nb;

	snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
	na = readlink("/proc/self/exe", a, sizeof a);
	nb = readlink(path, b, sizeof b);
	return na > 0 && na == nb && memcmp(a, b, (size_t)na) == 0;
}

/* The watchdog's life: never returns. */
static _Noreturn void
guard_main(struct prog_guard_page *page, pid_t tracer, pid_t grand)
{
	int64_t again = 0;

	for (;;) {
		int64_t dl = __atomic_load_n(&page->deadline_ns, __ATOMIC_ACQUIRE), now = guard_now_ns();
		struct timespec tick = { 0, GUARD_TICK_MS * 1000000L };

		if (getppid() != tracer || __atomic_load_n(&page->done, __ATOMIC_ACQUIRE))
			_exit(0);
		if (dl != 0 && now >= dl + (int64_t)PROG_GUARD_GRACE_MS * 1000000 && now >= again) {
			guard_kill_traced(tracer);
			__atomic_store_n(&page->fired, 1, __ATOMIC_RELEASE);
			kill(tracer, SIGCONT);
			if (grand > 1)
				kill(grand, SIGCONT);
			again = now + (int64_t)GUARD_AGAIN_MS * 1000000;
		}
		nanosleep(&tick, NULL);
	}
}

/* Start the watchdog (see prog/guard.h). */
int
prog_guard_start(struct prog_guard *g)
{
	pid_t tracer = getpid(), parent = getppid(), grand = guard_same_exe(parent) ? parent : 0;
	void *m = mmap(NULL, sizeof *g->page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	               -1, 0);
	pid_t pid;
	int e;

	g->pid = 0;
	g->pidfd = -1;
	g->page = NULL;
	if (m == MAP_FAILED)
		return -1;
	g->page = m;
	memset(m, 0, sizeof *g->page);
	pid = fork();
	if (pid == 0) {
		sigset_t none;
		int fd;

		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		if (getppid() != tracer)
			_exit(0);
		/* Out of the tracer's session and process group: no kill(-pgid), no terminal's. */
		setsid();
		for (int s = 1; s < NSIG; s++)
			signal(s, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		for (int i = 0; fd >= 0 && i < 3; i++)
			dup2(fd, i);
		syscall(SYS_close_range, 3u, ~0u, 0u);
		guard_main(g->page, tracer, grand);
	}
	if (pid < 0) {
		e = errno;
		munmap(m, sizeof *g->page);
		g->page = NULL;
		errno = e;
		return -1;
	}
	g->pid = pid;
	/* Before anyone could reap it: a pidfd that names it and nothing else. */
	g->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

/* Set the deadline. */
void
prog_guard_set(struct prog_guard *g, int64_t deadline_ns)
{
	if (g->page != NULL)
		__atomic_store_n(&g->page->deadline_ns, deadline_ns, __ATOMIC_RELEASE);
}

/* Whether it fired. */
bool
prog_guard_fired(const struct prog_guard *g)
{
	return g->page != NULL && __atomic_load_n(&g->page->fired, __ATOMIC_ACQUIRE) != 0;
}

/* End it. */
void
prog_guard_stop(struct prog_guard *g)
{
	if (g->page != NULL) {
		__atomic_store_n(&g->page->done, 1, __ATOMIC_RELEASE);
		munmap(g->page, sizeof *g->page);
	}
	if (g->pidfd >= 0) {
		siginfo_t si;
		syscall(SYS_pidfd_send_signal, g->pidfd, SIGKILL, NULL, 0);
		/* P_PIDFD (Linux 5.4): an end someone else reaped meanwhile fails, harmlessly. */
		while (waitid((idtype_t)3, (id_t)g->pidfd, &si, WEXITED | __WALL) < 0 && errno == EINTR)
			;
		close(g->pidfd);
	}
	g->pid = 0;
	g->pidfd = -1;
	g->page = NULL;
}
