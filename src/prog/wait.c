/* SPDX-License-Identifier: MIT */
/* prog/wait.c: bounded waits for a traced program, and the end of every process it made. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/units.h"
#include "prog/wait.h"

/* How long a wait with nothing to wait for goes before it looks for the processes. */
#define PROG_WAIT_CHECK_MS 1000

/* Tell the watchdog the deadline as it is now (none while the program is held). */
static void
prog_wait_tell(struct prog_wait *w)
{
	bool held = w->held.tv_sec != 0 || w->held.tv_nsec != 0;

	prog_guard_set(&w->guard, held || w->deadline.tv_sec == 0 ? 0 :
	               (int64_t)w->deadline.tv_sec * 1000000000 + w->deadline.tv_nsec);
}

/* Set the deadline ms from now. */
void
prog_wait_deadline(struct prog_wait *w, unsigned ms)
{
	w->deadline.tv_sec = 0;
	w->deadline.tv_nsec = 0;
	if (ms == 0) {
		prog_wait_tell(w);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	w->deadline.tv_sec += (time_t)(ms / 1000);
	w->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (w->deadline.tv_nsec >= 1000000000L) {
		w->deadline.tv_sec++;
		w->deadline.tv_nsec -= 1000000000L;
	}
	prog_wait_tell(w);
}

/* The program is held between steps from now on. */
void
prog_wait_hold(struct prog_wait *w)
{
	if (w->wall)
		return;
	clock_gettime(CLOCK_MONOTONIC, &w->held);
	prog_wait_tell(w);
}

/* The program runs again: the deadline moves on by the time it was held. */
void
prog_wait_go(struct prog_wait *w)
{
	struct timespec now;

	if (w->held.tv_sec == 0 && w->held.tv_nsec == 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (w->deadline.tv_sec != 0) {
		w->deadline.tv_sec += now.tv_sec - w->held.tv_sec;
		w->deadline.tv_nsec += now.tv_nsec - w->held.tv_nsec;
		if (w->deadline.tv_nsec >= 1000000000L) {
			w->deadline.tv_sec++;
			w->deadline.tv_nsec -= 1000000000L;
		} else if (w->deadline.tv_nsec < 0) {
			w->deadline.tv_sec--;
			w->deadline.tv_nsec += 1000000000L;
		}
	}
	w->held.tv_sec = 0;
	w->held.tv_nsec = 0;
	prog_wait_tell(w);
}

/* Block SIGCHLD. */
void
prog_wait_block(sigset_t *old)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, old);
}

/* Milliseconds from now to ts (negative once it has passed). */
static long long
prog_wait_ms_until(const struct timespec *ts)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(ts->tv_sec - now.tv_sec) * 1000 + (ts->tv_nsec - now.tv_nsec) / 1000000;
}

/* Wait up to ms (-1: until one comes) for SIGCHLD, which the caller blocks. False if the
 * time passed without one. */
static bool
prog_wait_sigchld(long long ms)
{
	sigset_t chld;
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	return sigtimedwait(&chld, NULL, ms < 0 ? NULL : &ts) >= 0 || errno != EAGAIN;
}

static bool prog_wait_children(pid_t skip, bool kill_them);

/*
 * A stop that comes within PROG_WAIT_SPIN_US of t0, looked for without sleeping: only when
 * we can run beside the program (two CPUs or more), and only while its stops come that fast
 * (after a spin that found nothing, not until a stop comes that soon again: a program that
 * computes between its calls costs us no CPU). 0, or a pid as waitpid gives it.
 */
static pid_t
prog_wait_spin(struct prog_wait *w, const struct timespec *t0, int *st)
{
	struct timespec now;
	pid_t pid;

	if (w->cpus == 0) {
		cpu_set_t set;
		w->cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
	}
	if (w->cpus < 2 || w->no_spin)
		return 0;
	for (;;) {
		pid = waitpid(-1, st, __WALL | WNOHANG);
		if (pid != 0)
			return pid;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (units_ns_between(t0, &now) >= PROG_WAIT_SPIN_US * 1000) {
			w->no_spin = true;
			return 0;
		}
	}
}

/* waitpid(-1, __WALL), bounded (see prog/wait.h). */
pid_t
prog_wait_any(struct prog_wait *w, int *st, void (*kill)(void *), void *arg)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (bool quiet = false;;) {
		long long ms = w->poll != NULL ? PROG_WAIT_POLL_MS : -1;
		pid_t pid;

		/* The deadline first: a tracer stopped past it (its watchdog killed the program and
		 * woke it) finds the ends waiting, and they are the timeout's. */
		if (w->deadline.tv_sec != 0 && !w->timed_out) {
			long long left = prog_wait_ms_until(&w->deadline);
			if (left <= 0 || prog_guard_fired(&w->guard)) {
				/* The time is up: everything goes. */
				w->timed_out = true;
				kill(arg);
				continue;
			}
			if (ms < 0 || left < ms)
				ms = left;
		}
		pid = waitpid(-1, st, __WALL | WNOHANG);
		if (pid == 0 && !quiet)
			pid = prog_wait_spin(w, &t0, st);
		if (pid != 0) {
			struct timespec now;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (units_ns_between(&t0, &now) < PROG_WAIT_SPIN_US * 1000)
				w->no_spin = false;
			return pid;
		}
		if (quiet && w->poll != NULL && w->poll(w->poll_arg) != 0) {
			w->cancelled = true;
			errno = ECANCELED;
			return -1;
		}
		/* Never a wait without end: the watchdog is a child of ours too, so waitpid()
		 * alone cannot tell that every traced process is gone (a lost end once left a
		 * run waiting 23 minutes with none left). Each quiet second, look. */
		if (ms < 0 || ms > PROG_WAIT_CHECK_MS)
			ms = PROG_WAIT_CHECK_MS;
		bool news = prog_wait_sigchld(ms);
		if (!news && ms == PROG_WAIT_CHECK_MS && !prog_wait_children(w->guard.pid, false)) {
			errno = ECHILD;
			return -1;
		}
		quiet = !news && (ms == PROG_WAIT_POLL_MS || ms == PROG_WAIT_CHECK_MS);
	}
}

/*
 * Our children but skip, read from each /proc/PID/stat (a child that vanished meanwhile is
 * simply not found): killed with SIGKILL if kill is set (the program's orphans come to us,
 * we are their subreaper, and a child of ours cannot be a stranger: its pid is not reused
 * before we reap it). Whether there was one; true too when /proc cannot be read.
 */
static bool
prog_wait_children(pid_t skip, bool kill_them)
{
	pid_t self = getpid();
	struct dirent *de;
	DIR *d = opendir("/proc");
	bool any = d == NULL;

	while (d != NULL && (de = readdir(d)) != NULL && (kill_them || !any)) {
		char path[64], buf[512], *rp;
		long pid = strtol(de->d_name, &rp, 10), ppid;
		ssize_t n;
		int fd;

		if (*rp != '\0' || pid <= 0 || pid == self || pid == skip)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "PID (COMM) S PPID ...": COMM may hold anything, ')' too: the last ')' ends it. */
		rp = strrchr(buf, ')');
		if (rp == NULL || sscanf(rp + 1, " %*c %ld", &ppid) != 1 || ppid != self)
			continue;
		any = true;
		if (kill_them)
			kill((pid_t)pid, SIGKILL);
	}
	if (d != NULL)
		closedir(d);
	return any;
}

/* Kill and reap every process of the program, and every orphan it left us (prog/wait.h). */
void
prog_wait_reap_all(void (*kill_all)(void *), void (*gone)(pid_t, void *), void *arg,
                   int grace_s)
{
	struct timespec grace;
	sigset_t old;

	prog_wait_block(&old);
	clock_gettime(CLOCK_MONOTONIC, &grace);
	grace.tv_sec += grace_s;
	for (bool swept = false;;) {
		int st;
		pid_t pid = waitpid(-1, &st, __WALL | WNOHANG);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		if (pid == 0) {
			long long left = prog_wait_ms_until(&grace);
			if (!swept) {
				kill_all(arg);
				prog_wait_children(0, true);
				swept = true;
				continue;
			}
			if (left <= 0)
				break;
			prog_wait_sigchld(left < PROG_WAIT_POLL_MS ? left : PROG_WAIT_POLL_MS);
			swept = false;
			continue;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			gone(pid, arg);
		} else {
			/* A stop: killed, and let go on (a tracee stopped at its exit, which the
			 * tracer asks for, goes on only when resumed: SIGKILL does not wake it). */
			kill(pid, SIGKILL);
			ptrace(PTRACE_CONT, pid, 0, 0);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
