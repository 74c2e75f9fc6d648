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

#include "base/grow.h"
#include "probe/probe.h"
#include "engine/pty-run.h"
#include "scratch/scratch.h"
#include "engine/ticker.h"
#include "trace/tracer.h"

/* The child's end of the report pipe, at a fixed number once everything else is closed. */
#define PTY_REPORT_FD 3
/* The child's end of the go pipe: it reads a byte there before each part of the snippet
 * (the tracer's idle marker: the calls of each part are recorded with their origin). */
#define PTY_GO_FD 4

/* The parts of the snippet, each with who makes its calls. */
static const enum ev_origin pty_run_parts[] = {
	EV_STDIO,     /* printf() (and setvbuf() or fflush()) */
	EV_DIRECT,    /* write() */
	EV_STDIO,     /* the flush exit() does */
};
#define PTY_RUN_PARTS (sizeof pty_run_parts / sizeof pty_run_parts[0])

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
pty_run_child(const struct scn_args *a, int report_fd, int go_fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	struct snap_stdio st;
	sigset_t none;
	size_t i;
	char c;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The two pipes at their own numbers (the go pipe may be at the report's). */
	if ((report_fd = fcntl(report_fd, F_DUPFD, 10)) < 0 || (go_fd = fcntl(go_fd, F_DUPFD, 10)) < 0 ||
	    dup2(report_fd, PTY_REPORT_FD) < 0 || dup2(go_fd, PTY_GO_FD) < 0)
		_exit(126);
	/* Nothing of the parent's (worker pipes, the scratch file) stays open in the snippet. */
	close_range(PTY_GO_FD + 1, ~0u, 0);

	__fpurge(stdout);
	if (freopen(NULL, "w", stdout) == NULL)
		_exit(126);

	/* Each part begins when the parent says so: the tracer, if any, sees the calls of
	 * each part apart. */
	if (read(PTY_GO_FD, &c, 1) != 1)
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
	if (read(PTY_GO_FD, &c, 1) != 1)
		_exit(126);
	if (a->text2 != NULL && write(STDOUT_FILENO, a->text2, strlen(a->text2)) < 0)
		_exit(124);
	if (read(PTY_GO_FD, &c, 1) != 1)
		_exit(126);
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
	while (side->len + n >= side->cap) {
		char *p = grow(side->output, &side->cap, side->len + n, 1, 4096);
		if (p == NULL)
			return -1;
		side->output = p;
	}
	memcpy(side->output + side->len, buf, n);
	side->len += n;
	side->output[side->len] = '\0';
	return 0;
}

/* The terminal run's master, drained while its child is traced (a write that fills the
 * pty must not wait for a reader that waits for the tracer), and the caller's poll. */
struct pty_run_watch {
	int master;              /* -1: the file run */
	struct pty_side *side;
	int64_t deadline;
	const struct pty_where *w;
	bool late;               /* the deadline passed: the child was killed */
};

/* The tracer's poll for a run: drain the master, mind the deadline, ask the caller. errno
 * is the tracer's (its waitpid() may have just failed EINTR): kept as it was. */
static int
pty_run_poll(void *user)
{
	struct pty_run_watch *wt = user;
	int saved = errno, stop = 0;
	char buf[4096];
	ssize_t n;

	while (wt->master >= 0 && (n = read(wt->master, buf, sizeof buf)) > 0)
		if (pty_run_append(wt->side, buf, (size_t)n) < 0)
			stop = 1;
	if (!stop && pty_run_now_ms() >= wt->deadline) {
		wt->late = true;
		stop = 1;
	}
	if (!stop && wt->w->poll != NULL)
		stop = wt->w->poll(wt->w->user);
	errno = saved;
	return stop;
}

/*
 * Let the child pid go through the snippet's parts, tracing its calls on its stdout (path,
 * dev, ino) into side->events, named run, when w asks for it and ptrace works. 1 when the
 * tracer saw the child end (its wait status in side->status: it is reaped), 0 when it runs on
 * untraced (the caller reaps it), -1 with errno.
 */
static int
pty_run_trace(pid_t pid, int go, const struct pty_where *w, const char *path, int fd,
              const char *run, struct pty_run_watch *wt)
{
	struct pty_side *side = wt->side;
	struct tracer *t = NULL;
	struct ticker tk = { .armed = false };
	struct stat sb;
	int st = 0, rc = 0;
	size_t part = 0;

	/* Ticks: a child blocked writing to a full pty goes on when the poll reads it; without
	 * them, no tracing. */
	if (w->trace && fstat(fd, &sb) == 0 && ticker_arm(&tk, PTY_RUN_TICK_MS) == 0 &&
	    tracer_attach(pid, PTY_GO_FD, path, sb.st_dev, sb.st_ino, &t, &st) == 0) {
		tracer_set_poll(t, pty_run_poll, wt);
		for (; part < PTY_RUN_PARTS && rc == 0; part++) {
			size_t from = side->events.n;
			if (write(go, "g", 1) != 1)
				break;
			rc = tracer_step(t, pty_run_parts[part], -1, &side->events, &st);
			for (size_t i = from; i < side->events.n; i++)
				snprintf(side->events.v[i].run, sizeof side->events.v[i].run, "%s", run);
		}
		ticker_disarm(&tk);
		tracer_free(t);
		if (rc == 1) {
			scratch_forget(pid);
			side->status = st;
			if (wt->late) {
				errno = ETIMEDOUT;
				return -1;
			}
			return 1;
		}
		if (rc < 0)
			return -1;
	}
	ticker_disarm(&tk);
	/* Untraced (or the tracer let go): the remaining parts at once. */
	for (; part < PTY_RUN_PARTS; part++)
		if (write(go, "g", 1) != 1)
			return -1;
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

/* Close the pipes' ends that are open (-1: closed). */
static void
pty_run_close(int p[4])
{
	for (int i = 0; i < 4; i++)
		if (p[i] >= 0)
			close(p[i]);
}

/* Run the snippet with stdout on a new pseudo-terminal; read the master until EIO. */
static int
pty_run_term(const struct scn_args *a, const struct pty_where *w, struct pty_side *side)
{
	struct winsize ws = { .ws_row = PTY_RUN_ROWS, .ws_col = PTY_RUN_COLS };
	int64_t deadline = pty_run_now_ms() + PTY_RUN_TIMEOUT_MS;
	int p[4] = { -1, -1, -1, -1 };   /* the report pipe's ends, then the go pipe's */
	int master, slave, rc = 0, saved = 0, traced;
	char buf[4096], name[64];
	struct pty_run_watch wt = { .side = side, .deadline = deadline, .w = w };
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(p + 2, O_CLOEXEC) < 0) {
		saved = errno;
		pty_run_close(p);
		errno = saved;
		return -1;
	}
	/* forkpty() by hand, to fork with scratch_fork (the child dies with us). */
	if (openpty(&master, &slave, name, NULL, &ws) < 0) {
		saved = errno;
		pty_run_close(p);
		errno = saved;
		return -1;
	}
	fcntl(master, F_SETFD, FD_CLOEXEC);
	pid = scratch_fork();
	if (pid < 0) {
		saved = errno;
		pty_run_close(p);
		close(master);
		close(slave);
		errno = saved;
		return -1;
	}
	if (pid == 0) {
		close(master);
		if (login_tty(slave) < 0)
			_exit(126);
		pty_run_child(a, p[1], p[2]);
	}
	close(p[1]);
	close(p[2]);
	p[1] = p[2] = -1;
	/* Traced, the master is drained without waiting (the tracer's poll); then as before. */
	wt.master = master;
	fcntl(master, F_SETFL, O_NONBLOCK);
	traced = pty_run_trace(pid, p[3], w, name, slave, "terminal", &wt);
	fcntl(master, F_SETFL, 0);
	close(slave);
	if (traced < 0) {
		saved = errno;
		rc = -1;
	}

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
	if (traced != 1 && pty_run_reap(pid, rc == 0 ? deadline : 0, &side->status) < 0 &&
	    rc == 0) {
		saved = errno;
		rc = -1;
	}
	pty_run_report(p[0], side);
	pty_run_close(p);
	close(master);
	pty_run_normalise(side);
	if (rc < 0)
		errno = saved;
	return rc;
}

/* Run the snippet with stdout on the scenario's file (emptied first), then read it back. */
static int
pty_run_file(const struct scn_args *a, const struct pty_where *w, struct pty_side *side)
{
	int64_t deadline = pty_run_now_ms() + PTY_RUN_TIMEOUT_MS;
	int p[4] = { -1, -1, -1, -1 };   /* the report pipe's ends, then the go pipe's */
	int rc = 0, saved = 0, traced = 0;
	struct pty_run_watch wt = { .master = -1, .side = side, .deadline = deadline, .w = w };
	char buf[4096];
	off_t off = 0;
	pid_t pid;

	if (ftruncate(w->file_fd, 0) < 0 || pipe2(p, O_CLOEXEC) < 0 || pipe2(p + 2, O_CLOEXEC) < 0) {
		saved = errno;
		pty_run_close(p);
		errno = saved;
		return -1;
	}
	pid = scratch_fork();
	if (pid < 0) {
		saved = errno;
		rc = -1;
	} else if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(w->file_fd, STDOUT_FILENO) < 0 ||
		    dup2(null, STDERR_FILENO) < 0)
			_exit(126);
		pty_run_child(a, p[1], p[2]);
	} else {
		close(p[1]);
		close(p[2]);
		p[1] = p[2] = -1;
		traced = pty_run_trace(pid, p[3], w, w->file_path, w->file_fd, "file", &wt);
		if (traced < 0) {
			saved = errno;
			rc = -1;
		}
		if (traced != 1 && pty_run_reap(pid, rc == 0 ? deadline : 0, &side->status) < 0 &&
		    rc == 0) {
			saved = errno;
			rc = -1;
		}
		pty_run_report(p[0], side);
	}
	pty_run_close(p);

	for (;;) {
		ssize_t n = pread(w->file_fd, buf, sizeof buf, off);
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
	if (rc < 0)
		errno = saved;
	return rc;
}

/* Run a pty step's snippet on a terminal and on a file (see engine/pty-run.h). */
int
pty_run(const struct scn_args *a, const struct pty_where *w, struct pty_result *out)
{
	int rc, saved = 0;

	memset(out, 0, sizeof *out);
	rc = pty_run_term(a, w, &out->term);
	if (rc < 0)
		saved = errno;
	if (pty_run_file(a, w, &out->file) < 0 && rc == 0) {
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
	event_list_clear(&r->term.events);
	event_list_clear(&r->file.events);
	memset(r, 0, sizeof *r);
}
