/* SPDX-License-Identifier: MIT */
/* engine/worker.c: the traced child that runs the ops and reports what its stdio holds. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fdio.h"
#include "engine/ops.h"
#include "probe/probe.h"
#include "scratch/scratch.h"
#include "engine/worker.h"

_Static_assert(sizeof(struct worker_reply) <= PIPE_BUF, "a reply must be one atomic write");

/* The op table's run column: the function that makes each op's real call (NULL: the runner
 * does all of that op; tests/test-op.h's extra op brings its own). */
static ops_fn *const worker_ops[SCN_OP__COUNT] = {
	SCN_OP_LIST(SCN_OP_RUN)
};

/* Exchange the unnamed fd/FILE* pair with the named pair h. */
static void
worker_swap(struct ops_state *st, struct ops_handle *h)
{
	struct ops_handle t = { st->fp, st->fd, st->fd_open, st->open_flags, st->direct };

	st->fp = h->fp;
	st->fd = h->fd;
	st->fd_open = h->fd_open;
	st->open_flags = h->open_flags;
	st->direct = h->direct;
	*h = t;
}

/* Run step's op for real. A failing call is a result (ret -1, err), never a crash. */
static void
worker_op(struct ops_state *st, const struct scn_step *step, struct ops_result *out)
{
	memset(out, 0, sizeof *out);
	if ((unsigned)step->op >= SCN_OP__COUNT || worker_ops[step->op] == NULL) {
		out->ret = -1;
		out->err = ENOSYS;
		snprintf(out->note, sizeof out->note, "not implemented in the engine yet");
		return;
	}
	if (step->handle == 0 || step->handle > SCN_MAX_NAMES) {
		worker_ops[step->op](st, &step->args, out);
		return;
	}
	/* A named pair stands in for the unnamed one during the call. An op that wraps the fd
	 * (fdopen) with as: wraps the unnamed fd, so its new pair starts with it. */
	struct ops_handle *h = &st->named[step->handle - 1];
	if (scenario_op_has(step->op, SCN_OPF_WRAPS) && scenario_op_has(step->op, SCN_OPF_FD) &&
	    h->fp == NULL && !h->fd_open && h->fd < 0) {
		h->fd = st->fd;
		h->fd_open = st->fd_open;
		h->open_flags = st->open_flags;
		h->direct = st->direct;
	}
	worker_swap(st, h);
	worker_ops[step->op](st, &step->args, out);
	worker_swap(st, h);
}

/*
 * The process crashes here: a copy of it, with the same memory (every FILE* and what its
 * buffer holds), is killed by SIGKILL, which no handler and no atexit sees, so nothing it
 * buffered is written. The worker itself is untouched and goes on with the lesson.
 */
static void
worker_crash(struct worker_reply *rep)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		kill(getpid(), SIGKILL);
		_exit(127);     /* not reached: SIGKILL cannot be caught */
	}
	if (pid < 0) {
		rep->ret = -1;
		rep->err = errno;
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rep->ret = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 0 : -1;
	snprintf(rep->note, sizeof rep->note, "a copy of the process (pid %lld) died of SIGKILL",
	         (long long)pid);
}

/* Run one command: the op between two /proc/self/io readings, then the stdio probe. */
static void
worker_run(const struct scenario *s, struct ops_state *st, uint32_t step,
           struct worker_reply *rep)
{
	struct probe_io_counters before, after;
	struct ops_result res;
	ssize_t nb = -1, na = -1;

	memset(rep, 0, sizeof *rep);
	rep->magic = WORKER_MAGIC;
	rep->step = step;
	if (step == WORKER_CRASH) {
		worker_crash(rep);
	} else if (step != WORKER_HELLO) {
		if (step >= s->n_steps) {
			rep->ret = -1;
			rep->err = EINVAL;
		} else {
			nb = probe_io_read(0, &before);
			worker_op(st, &s->steps[step], &res);
			na = probe_io_read(0, &after);
			rep->ret = res.ret;
			rep->err = res.err;
			rep->ns = res.ns;
			rep->has_event = res.has_event;
			rep->ev = res.ev;
			memcpy(rep->note, res.note, sizeof rep->note);
			if (res.output != NULL) {
				size_t n = strlen(res.output);
				rep->has_output = true;
				rep->output_len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
				if (n >= sizeof rep->output)
					n = sizeof rep->output - 1;
				memcpy(rep->output, res.output, n);
				rep->output[n] = '\0';
				free(res.output);
			}
		}
	}
	/* The "after" reading sees the "before" reading's own read(): take it out. */
	if (nb > 0 && na > 0 && after.syscr >= before.syscr + 1 &&
	    after.rchar >= before.rchar + (uint64_t)nb) {
		rep->io_ok = true;
		rep->syscr = after.syscr - before.syscr - 1;
		rep->rchar = after.rchar - before.rchar - (uint64_t)nb;
		rep->syscw = after.syscw - before.syscw;
		rep->wchar = after.wchar - before.wchar;
	}
	/* The pair the step acted on (a named one, or the unnamed): its buffer is the lesson. */
	FILE *fp;
	ops_handle_of(st, step < s->n_steps ? &s->steps[step] : NULL, &fp, &rep->fd,
		      &rep->fd_open);
	probe_stdio(fp, &rep->stdio);
}

/* The worker's life: answer commands until the runner closes the pipe. Never returns. */
static void
worker_main(const struct scenario *s, const char *path)
{
	struct ops_state st;
	struct worker_reply rep;
	struct worker_cmd cmd;

	ops_init(&st, path);
	worker_run(s, &st, WORKER_HELLO, &rep);
	if (fdio_write_all(WORKER_REPLY_FD, &rep, sizeof rep) != 0)
		_exit(1);
	for (;;) {
		/* This read() on WORKER_CMD_FD is the tracer's "idle" marker. */
		if (fdio_read_all(WORKER_CMD_FD, &cmd, sizeof cmd) != (ssize_t)sizeof cmd ||
		    cmd.magic != WORKER_MAGIC)
			_exit(0);
		worker_run(s, &st, cmd.step, &rep);
		if (fdio_write_all(WORKER_REPLY_FD, &rep, sizeof rep) != 0)
			_exit(1);
	}
}

/* Close every fd from lo to hi (inclusive), with close_range if the kernel has it. */
static void
worker_close_range(unsigned lo, unsigned hi)
{
	if (lo > hi)
		return;
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
	for (long fd = lo, max = sysconf(_SC_OPEN_MAX); fd <= (long)hi && fd < max; fd++)
		close((int)fd);
}

/* In the child: become a clean "program" (signals, fds) with its pipes at fixed numbers. */
static void
worker_setup(pid_t parent, int dirfd, int cmd_rd, int reply_wr)
{
	struct rlimit fsize;
	sigset_t none;
	int a, b, null;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	/* Out of the terminal's process group: Ctrl-C reaches the runner, which ends us. */
	setpgid(0, 0);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/*
	 * The scratch file never grows past the documented bound (SCN_MAX_SIZE), however many
	 * steps write to it: the kernel enforces it (a short write, then SIGXFSZ), so a
	 * scenario cannot fill the disk. A lower limit of the user's own is kept.
	 */
	if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 &&
	    (fsize.rlim_cur == RLIM_INFINITY || fsize.rlim_cur > SCN_MAX_SIZE)) {
		fsize.rlim_cur = SCN_MAX_SIZE;
		if (setrlimit(RLIMIT_FSIZE, &fsize) != 0)
			_exit(1);
	}

	/* Park the pipe ends above the fixed numbers, then put them there. */
	a = fcntl(cmd_rd, F_DUPFD, WORKER_REPLY_FD + 1);
	b = fcntl(reply_wr, F_DUPFD, WORKER_REPLY_FD + 1);
	if (a < 0 || b < 0 || dup2(a, WORKER_CMD_FD) < 0 || dup2(b, WORKER_REPLY_FD) < 0)
		_exit(1);
	/* The ops name the scratch file relative to its dir: no path component outside our
	 * private dir (TMPDIR, --dir) can be swapped under an fopen("w") or O_TRUNC. */
	if (fchdir(dirfd) != 0)
		_exit(1);
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(1);
	worker_close_range(3, WORKER_CMD_FD - 1);
	worker_close_range(WORKER_REPLY_FD + 1, ~0u);
}

/* Fork the worker. */
int
worker_spawn(const struct scenario *s, int dirfd, const char *name, struct worker *w)
{
	int cmd[2], reply[2];
	pid_t parent = getpid(), pid;

	w->pid = -1;
	w->cmd_fd = w->reply_fd = -1;
	if (pipe2(cmd, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(reply, O_CLOEXEC) != 0) {
		int e = errno;
		close(cmd[0]);
		close(cmd[1]);
		errno = e;
		return -1;
	}
	pid = scratch_fork();
	if (pid < 0) {
		int e = errno;
		close(cmd[0]);
		close(cmd[1]);
		close(reply[0]);
		close(reply[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		worker_setup(parent, dirfd, cmd[0], reply[1]);
		worker_main(s, name);
	}
	close(cmd[0]);
	close(reply[1]);
	w->pid = pid;
	w->cmd_fd = cmd[1];
	w->reply_fd = reply[0];
	return 0;
}

/*
 * Send one command. A dead worker must give EPIPE, not kill us with SIGPIPE: block it for
 * this thread around the write and take back a SIGPIPE the write raised, leaving the
 * program's own disposition alone.
 */
int
worker_send(const struct worker *w, uint32_t step)
{
	struct worker_cmd c = { .magic = WORKER_MAGIC, .step = step };
	struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old, pending;
	bool was_pending;
	int rc, e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE) == 1;
	rc = fdio_write_all(w->cmd_fd, &c, sizeof c);
	e = errno;
	if (rc != 0 && e == EPIPE && !was_pending)
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return rc;
}

/* Read one reply. */
int
worker_recv(const struct worker *w, struct worker_reply *r)
{
	ssize_t n = fdio_read_all(w->reply_fd, r, sizeof *r);
	int rc = n < 0 ? -1 : n == (ssize_t)sizeof *r ? 1 : 0;

	if (rc == 1 && r->magic != WORKER_MAGIC) {
		errno = EPROTO;
		return -1;
	}
	return rc;
}

/* Close the runner's ends. */
void
worker_close(struct worker *w)
{
	if (w->cmd_fd >= 0)
		close(w->cmd_fd);
	if (w->reply_fd >= 0)
		close(w->reply_fd);
	w->cmd_fd = w->reply_fd = -1;
}
