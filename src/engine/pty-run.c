/* SPDX-License-Identifier: MIT */
/* engine/pty-run.c: exercise 13-4: the same printf()+write() with stdout on a pty, then on a file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include "probe/probe.h"
#include "engine/pty-run.h"
#include "scratch/scratch.h"

/* The child's end of the report pipe, at a fixed number once everything else is closed. */
#define PTY_REPORT_FD 3

/* Milliseconds of CLOCK_MONOTONIC. */
static int64_t
pty_run_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The snippet, in a child whose fd 1 is already the terminal or the file. Its stdout FILE
 * is inherited from the parent (which may have used it, on a pipe): drop that state
 * without writing it, and reopen stdout so that glibc chooses mode and size afresh from
 * what fd 1 now is, exactly as at the start of a new program.
 */
static void __attribute__((noreturn))
pty_run_child(const struct scn_args *a, int report_fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	struct snap_stdio st;
	sigset_t none;
	size_t i;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (report_fd != PTY_REPORT_FD) {
		if (dup2(report_fd, PTY_REPORT_FD) < 0)
			_exit(126);
		close(report_fd);
	}
	/* Nothing of the parent's (worker pipes, the scratch file) stays open in the snippet. */
	close_range(PTY_REPORT_FD + 1, ~0u, 0);

	__fpurge(stdout);
	if (freopen(NULL, "w", stdout) == NULL)
		_exit(126);

	if (a->between == SCN_PTY_UNBUFFERED)
		setvbuf(stdout, NULL, _IONBF, 0);
	printf("%s", a->text != NULL ? a->text : "");
	probe_stdio(stdout, &st);
	if (write(PTY_REPORT_FD, &st, sizeof st) != (ssize_t)sizeof st)
		_exit(125);
	close(PTY_REPORT_FD);
	if (a->between == SCN_PTY_FFLUSH)
		fflush(stdout);
	if (a->text2 != NULL && write(STDOUT_FILENO, a->text2, strlen(a->text2)) < 0)
		_exit(124);
	/*
	 * What exit() does for the snippet: flush stdout (half of the lesson). Not exit()
	 * itself: it would also run the caller's atexit handlers (the TUI's terminal reset
	 * would land in our output) and flush the caller's other streams, inherited by fork().
	 */
	fflush(stdout);
	_exit(0);
}

/* Append n bytes to side's output. 0 or -1 (ENOMEM). */
static int
pty_run_append(struct pty_side *side, const char *buf, size_t n)
{
	char *p = realloc(side->output, side->len + n + 1);

	if (p == NULL)
		return -1;
	memcpy(p + side->len, buf, n);
	side->len += n;
	p[side->len] = '\0';
	side->output = p;
	return 0;
}

/* Turn the terminal's "\r\n" (ONLCR) back into "\n", in place. */
static void
pty_run_normalise(struct pty_side *side)
{
	size_t r, w = 0;

	if (side->output == NULL)
		return;
	for (r = 0; r < side->len; r++) {
		if (side->output[r] == '\r' && r + 1 < side->len && side->output[r + 1] == '\n')
			continue;
		side->output[w++] = side->output[r];
	}
	side->len = w;
	side->output[w] = '\0';
}

/* Reap pid by the deadline, killing it if it is late. 0, or -1 with ETIMEDOUT. */
static int
pty_run_reap(pid_t pid, int64_t deadline, int *status)
{
	struct timespec ms = { 0, 1000000 };

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid) {
			scratch_forget(pid);
			return 0;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		if (pty_run_now_ms() >= deadline) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			scratch_forget(pid);
			errno = ETIMEDOUT;
			return -1;
		}
		nanosleep(&ms, NULL);
	}
}

/* Read the child's stdio report from fd (the child has exited or been killed). */
static void
pty_run_report(int fd, struct pty_side *side)
{
	ssize_t n;

	do
		n = read(fd, &side->stdio, sizeof side->stdio);
	while (n < 0 && errno == EINTR);
	side->stdio_ok = n == (ssize_t)sizeof side->stdio;
	if (!side->stdio_ok)
		memset(&side->stdio, 0, sizeof side->stdio);
}

/* Run the snippet with stdout on a new pseudo-terminal; read the master until EIO. */
static int
pty_run_term(const struct scn_args *a, struct pty_side *side)
{
	struct winsize ws = { .ws_row = PTY_RUN_ROWS, .ws_col = PTY_RUN_COLS };
	int64_t deadline = pty_run_now_ms() + PTY_RUN_TIMEOUT_MS;
	int report[2], master, slave, rc = 0, saved = 0;
	char buf[4096];
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) < 0)
		return -1;
	/* forkpty() by hand, to fork with scratch_fork (the child dies with us). */
	if (openpty(&master, &slave, NULL, NULL, &ws) < 0) {
		saved = errno;
		close(report[0]);
		close(report[1]);
		errno = saved;
		return -1;
	}
	fcntl(master, F_SETFD, FD_CLOEXEC);
	pid = scratch_fork();
	if (pid < 0) {
		saved = errno;
		close(report[0]);
		close(report[1]);
		close(master);
		close(slave);
		errno = saved;
		return -1;
	}
	if (pid == 0) {
		close(master);
		close(report[0]);
		if (login_tty(slave) < 0)
			_exit(126);
		pty_run_child(a, report[1]);
	}
	close(slave);
	close(report[1]);

	/* A pty has no EOF: once the last slave fd is closed, read() on the master fails EIO. */
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		int64_t left = deadline - pty_run_now_ms();
		ssize_t n;

		if (left <= 0) {
			saved = ETIMEDOUT;
			rc = -1;
			break;
		}
		n = poll(&pfd, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;
		n = read(master, buf, sizeof buf);
		if (n > 0) {
			if (pty_run_append(side, buf, (size_t)n) < 0) {
				saved = ENOMEM;
				rc = -1;
				break;
			}
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;  /* EIO (or 0): the child and every copy of the slave are gone */
	}
	if (pty_run_reap(pid, rc == 0 ? deadline : 0, &side->status) < 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	pty_run_report(report[0], side);
	close(report[0]);
	close(master);
	pty_run_normalise(side);
	if (rc < 0)
		errno = saved;
	return rc;
}

/* Make a new file in scratch dir idx for the file run; its name goes to name. */
static int
pty_run_mkfile(int idx, char *name, size_t len)
{
	for (int i = 0; i < 1000; i++) {
		int fd;

		snprintf(name, len, "pty-stdout.%d", i);
		fd = scratch_create(idx, name, O_RDWR);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Run the snippet with stdout on a new regular file, then read the file back. */
static int
pty_run_file(const struct scn_args *a, int idx, struct pty_side *side)
{
	int64_t deadline = pty_run_now_ms() + PTY_RUN_TIMEOUT_MS;
	int report[2], fd, rc = 0, saved = 0;
	char name[64], path[4096], buf[4096];
	off_t off = 0;
	pid_t pid;

	fd = pty_run_mkfile(idx, name, sizeof name);
	if (fd < 0)
		return -1;
	if (scratch_path(idx, name, path, sizeof path) == NULL || pipe2(report, O_CLOEXEC) < 0) {
		saved = errno ? errno : ENAMETOOLONG;
		close(fd);
		errno = saved;
		return -1;
	}
	pid = scratch_fork();
	if (pid < 0) {
		saved = errno;
		rc = -1;
	} else if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
		    dup2(null, STDERR_FILENO) < 0)
			_exit(126);
		close(report[0]);
		pty_run_child(a, report[1]);
	} else {
		close(report[1]);
		report[1] = -1;
		if (pty_run_reap(pid, deadline, &side->status) < 0) {
			saved = errno;
			rc = -1;
		}
		pty_run_report(report[0], side);
	}
	close(report[0]);
	if (report[1] >= 0)
		close(report[1]);

	for (;;) {
		ssize_t n = pread(fd, buf, sizeof buf, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (pty_run_append(side, buf, (size_t)n) < 0) {
			saved = ENOMEM;
			rc = -1;
			break;
		}
		off += n;
	}
	close(fd);
	scratch_unlink(idx, name);
	if (rc < 0)
		errno = saved;
	return rc;
}

/* Run a pty step's snippet on a terminal and on a file (see engine/pty-run.h). */
int
pty_run(const struct scn_args *a, int scratch_idx, struct pty_result *out)
{
	int rc, saved = 0;

	memset(out, 0, sizeof *out);
	rc = pty_run_term(a, &out->term);
	if (rc < 0)
		saved = errno;
	if (pty_run_file(a, scratch_idx, &out->file) < 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	if (rc < 0)
		errno = saved;
	return rc;
}

/* Free the outputs of r. */
void
pty_result_clear(struct pty_result *r)
{
	if (r == NULL)
		return;
	free(r->term.output);
	free(r->file.output);
	memset(r, 0, sizeof *r);
}
