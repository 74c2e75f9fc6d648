/* SPDX-License-Identifier: MIT */
/* engine/runner.c: run each step in the traced worker, observe the result. */
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "crash/lab.h"
#include "base/errmsg.h"
#include "engine/ops.h"
#include "probe/probe.h"
#include "engine/pty-run.h"
#include "sweep/sweep.h"
#include "engine/runner.h"
#include "base/text.h"
#include "engine/runner-int.h"
#include "scratch/scratch.h"
#include "sweep/stats.h"
#include "trace/tracer.h"
#include "engine/ticker.h"
#include "engine/worker.h"

/* Name of a signal: "SIGSEGV". */
static void
runner_signame(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev != NULL)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
}

/* The worker ended with wait status st: remember why. */
void
runner_mark_dead(struct runner *r, int st)
{
	char name[32];

	r->dead = true;
	scratch_forget(r->w.pid);
	r->w.pid = -1;
	r->cur_fd_open = false;
	memset(&r->stdio, 0, sizeof r->stdio);
	if (WIFSIGNALED(st)) {
		runner_signame(WTERMSIG(st), name, sizeof name);
		snprintf(r->dead_note, sizeof r->dead_note, "worker killed by %s", name);
	} else {
		snprintf(r->dead_note, sizeof r->dead_note, "worker exited with status %d",
		         WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
}

/* Our fd on the other file at PATH (the worker's fd), SB its stat: its index in r->other,
 * opened now if it is new (when all RUNNER_MAX_OTHER are taken, in the place of the one
 * opened longest ago that is not shown); -1 when it cannot be (then the panes stay where
 * they were). */
static int
runner_other(struct runner *r, const char *path, const struct stat *sb)
{
	struct stat osb;
	size_t at = r->n_other;
	int fd;

	for (size_t i = 0; i < r->n_other; i++)
		if (r->other[i].dev == sb->st_dev && r->other[i].ino == sb->st_ino)
			return (int)i;
	/* Through the worker's own fd: the same file, whatever its name is by now. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &osb) != 0 || osb.st_dev != sb->st_dev || osb.st_ino != sb->st_ino) {
		close(fd);
		return -1;
	}
	if (at >= RUNNER_MAX_OTHER) {
		/* A lesson of many files: the panes follow the new one, never another's. */
		at = r->other_next++ % RUNNER_MAX_OTHER;
		if ((int)at == r->shown)
			at = r->other_next++ % RUNNER_MAX_OTHER;
		close(r->other[at].fd);
	} else {
		r->n_other++;
	}
	r->other[at] = (struct runner_other){ .fd = fd, .dev = sb->st_dev, .ino = sb->st_ino };
	return (int)at;
}

/*
 * The fd the cache and disk probes read: the file of the last step's fd where it is a
 * regular file (a lesson that opens "b" shows b from then on), else the file shown before,
 * else the lesson's own; -1 if there is none yet. Names it in SNAP where the lesson has acted
 * on more than one file.
 */
static int
runner_shown_fd(struct runner *r, struct snapshot *snap)
{
	bool own = runner_file_find(r);
	char path[64], link[PATH_MAX];
	struct stat sb;
	ssize_t n;
	int fd;

	if (!r->dead && r->cur_fd >= 0 && r->cur_fd_open) {
		snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)r->w.pid, r->cur_fd);
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (own && sb.st_dev == r->dev && sb.st_ino == r->ino) {
				r->shown = -1;
			} else {
				int i = runner_other(r, path, &sb);
				if (i >= 0)
					r->shown = i;
			}
		}
	}
	fd = r->shown >= 0 ? r->other[r->shown].fd : own ? r->probe_fd : -1;
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) == 0)
		snap->file_ino = (uint64_t)sb.st_ino;
	if (r->n_other == 0)
		return fd;
	/* Its name now (a rename moves it): the last part of its path. */
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof link - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *slash = strrchr(link, '/'), *base = slash != NULL ? slash + 1 : link;
		size_t len = strlen(base);
		/* A name is at most NAME_MAX; " (deleted)" after an unlink may pass it: cut. */
		if (len >= sizeof snap->file_name)
			len = sizeof snap->file_name - 1;
		memcpy(snap->file_name, base, len);
		snap->file_name[len] = '\0';
	}
	return fd;
}

/* Observe the state now: stdio as the worker last reported it, the rest by the probes. */
void
runner_observe(struct runner *r, struct snapshot *snap)
{
	struct stat sb;
	uint64_t size = 0;
	int fd;

	memset(snap, 0, sizeof *snap);
	snap->stdio = r->stdio;
	snap->fd.fd = r->cur_fd;
	if (!r->dead && r->cur_fd >= 0 && r->cur_fd_open)
		probe_fd(r->w.pid, r->cur_fd, &snap->fd);
	if ((fd = runner_shown_fd(r, snap)) < 0) {
		/* The lesson makes its file itself, and has not yet. */
		snprintf(snap->cache.note, sizeof snap->cache.note, "no file yet: the lesson has "
		         "not made it");
		snprintf(snap->disk.note, sizeof snap->disk.note, "no file yet: the lesson has "
		         "not made it");
		probe_fs(r->dirfd, snap->disk.fs, sizeof snap->disk.fs, snap->disk.device,
		         sizeof snap->disk.device);
	} else {
		if (fstat(fd, &sb) == 0)
			size = (uint64_t)sb.st_size;
		probe_cache_as(fd, size, r->o.probe, &snap->cache);
		probe_disk(fd, &snap->disk);
	}
	if (!r->dead)
		probe_io(r->w.pid, &snap->disk);
	if (r->lab != NULL)
		runner_crash_device(r, &snap->device);
	else
		snprintf(snap->device.note, sizeof snap->device.note, "no device of the lesson's "
		         "own: a shared disk's counters are everyone's (--crash-fs gives a lesson one)");
}

/* Append a sentence to the step's note. */
void
runner_note(struct step_result *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_buf_vsentence(&out->note, fmt, ap);
	va_end(ap);
}

/* Seconds since start. */
double
runner_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * True once the run has spent its timeout: the time of runner_new and of the steps, not the
 * time a person takes between two steps in the TUI. Remembers it: the step stops.
 */
bool
runner_check_timeout(struct runner *r)
{
	if (!r->timed_out && r->used + runner_since(&r->busy) >= r->timeout) {
		r->timed_out = true;
		r->stop = true;
	}
	return r->timed_out;
}

/* Say in the step's result that the run's timeout stopped it. */
void
runner_note_timeout(struct runner *r, struct step_result *out)
{
	out->stopped = true;
	out->timed_out = true;
	runner_note(out, "stopped: the run reached its timeout of %g s (--timeout)", r->timeout);
}

/* Ask the caller's poll now, and the run's timeout; remember a stop. */
bool
runner_poll_now(struct runner *r)
{
	if ((r->o.poll != NULL && r->o.poll(r->o.user) != 0) || runner_check_timeout(r))
		r->stop = true;
	return r->stop;
}

/* The tracer's poll: when the timer has ticked, ask the caller's; remember a stop. */
int
runner_poll_check(void *arg)
{
	struct runner *r = arg;

	if (!ticker_take())
		return 0;
	return runner_poll_now(r);
}

/* Untraced: wait for the worker's reply, asking the poll callback between looks. */
static void
runner_poll_reply(struct runner *r)
{
	struct pollfd p = { .fd = r->w.reply_fd, .events = POLLIN };

	while (!r->stop) {
		int rc = poll(&p, 1, RUNNER_POLL_MS);
		if (rc > 0 || (rc < 0 && errno != EINTR))
			return;
		if (runner_poll_now(r))
			kill(r->w.pid, SIGKILL);
	}
}

/* Send step index to the worker and collect what it did (events, reply). */
void
runner_exchange(struct runner *r, size_t index, struct step_result *out)
{
	const struct scn_step *step = &r->s->steps[index];
	bool stdio_op = scenario_op_is_stdio(step->op);
	struct worker_reply rep;
	int st = 0, rc;

	out->events.source = r->source;
	/* If this fails the worker is gone: the tracer or the reply's EOF says how. */
	(void)worker_send(&r->w, (uint32_t)index);
	if (r->tracer != NULL) {
		struct ticker tk;
		/* Always: the run's timeout is checked there too. */
		bool armed = ticker_arm(&tk, RUNNER_POLL_MS) == 0;

		tracer_set_poll(r->tracer, armed ? runner_poll_check : NULL, r);
		rc = tracer_step(r->tracer, stdio_op ? EV_STDIO : EV_DIRECT,
		                 r->cur_fd, &out->events, &st);
		ticker_disarm(&tk);
		if (rc == 1) {
			runner_mark_dead(r, st);
		} else if (rc < 0 && errno == ENOMEM) {
			/* The worker reached idle; only events were lost. */
			runner_note(out, "out of memory: some calls not recorded");
		} else if (rc < 0) {
			/* The worker may be stopped anywhere: waiting for its reply could hang. */
			int e = errno;
			runner_kill_worker(r);
			r->dead = true;
			snprintf(r->dead_note, sizeof r->dead_note, "tracer error (%s): worker stopped",
			         strerror(e));
		}
	}
	if (r->tracer == NULL && !r->dead)
		runner_poll_reply(r);
	rc = r->dead ? 0 : worker_recv(&r->w, &rep);
	if (rc != 1) {
		if (!r->dead && r->w.pid > 0 && waitpid(r->w.pid, &st, 0) == r->w.pid) {
			runner_mark_dead(r, st);
		} else if (!r->dead) {
			r->dead = true;
			snprintf(r->dead_note, sizeof r->dead_note, "worker lost");
		}
		out->ret = -1;
		out->err = 0;
		if (r->stop && r->timed_out) {
			snprintf(r->dead_note, sizeof r->dead_note, "stopped by the run's timeout");
			out->err = ETIMEDOUT;
			runner_note_timeout(r, out);
			return;
		}
		if (r->stop) {
			/* Killed on purpose: not the scenario's failure. */
			snprintf(r->dead_note, sizeof r->dead_note, "stopped by the user");
			out->err = ECANCELED;
			out->stopped = true;
			runner_note(out, "%s", r->dead_note);
			return;
		}
		/* What the tracer saw last is the best account of the fatal call. */
		for (size_t i = out->events.n; i-- > 0;)
			if (out->events.v[i].err != 0) {
				out->err = out->events.v[i].err;
				break;
			}
		runner_note(out, "%s", r->dead_note);
		return;
	}
	out->ret = rep.ret;
	out->err = rep.err;
	out->op_ns = rep.ns;
	if (rep.note[0] != '\0')
		runner_note(out, "%.*s", (int)sizeof rep.note, rep.note);
	r->stdio = rep.stdio;
	r->cur_fd = rep.fd;
	r->cur_fd_open = rep.fd_open;
	if (rep.has_output) {
		/* curriculum: what tail printed (first WORKER_OUTPUT_MAX - 1 bytes). */
		out->output = strndup(rep.output, sizeof rep.output - 1);
		if (strlen(rep.output) < rep.output_len) {
			runner_note(out, "output of %" PRIu32 " bytes, first %zu kept", rep.output_len,
			            strlen(rep.output));
			out->output_len = rep.output_len;
		}
	}
	if (rep.io_ok) {
		out->events.syscr = rep.syscr;
		out->events.syscw = rep.syscw;
		out->events.rchar = rep.rchar;
		out->events.wchar = rep.wchar;
	}
	if (r->tracer == NULL) {
		if (rep.has_event)
			event_list_add(&out->events, &rep.ev);
		/* stdio and tail make their calls themselves, as many as they need. */
		if (scenario_op_has(step->op, SCN_OPF_MANY)) {
			/* No per-call events: only what /proc/self/io counted. */
			if (rep.io_ok) {
				out->events.n_read = rep.syscr;
				out->events.n_write = rep.syscw;
				out->events.bytes_read = rep.rchar;
				out->events.bytes_written = rep.wchar;
			}
			runner_note(out, "stdio calls seen through /proc/PID/io: counts and totals "
			            "only (%s)", r->source_why);
		}
	}
}

/* Kill and reap the worker if it lives. */
void
runner_kill_worker(struct runner *r)
{
	int st;

	if (r->w.pid > 0 && !r->dead) {
		kill(r->w.pid, SIGKILL);
		while (waitpid(r->w.pid, &st, __WALL) < 0 && errno == EINTR)
			;
	}
	scratch_forget(r->w.pid);
	r->w.pid = -1;
	worker_close(&r->w);
	tracer_free(r->tracer);
	r->tracer = NULL;
}

/* Median nanoseconds of a null system call (getppid) timed with clock_gettime here. */
static double
runner_null_call_ns(void)
{
	double ns[RUNNER_NULL_CALLS];

	for (size_t i = 0; i < RUNNER_NULL_CALLS; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	}
	return stats_median(ns, RUNNER_NULL_CALLS);
}

/*
 * What tracing adds to one system call here: a child times null calls untraced, then
 * under our tracer, as the worker is traced (every call stops at entry and at exit).
 * The op times the worker reports include this much per call they make.
 */
static void
runner_calibrate(struct runner *r)
{
	int res[2], go[2], st;
	struct tracer *t = NULL;
	struct event_list none = { 0 };
	double v[2];
	pid_t pid;

	if (pipe(res) != 0)
		return;
	if (pipe(go) != 0) {
		close(res[0]);
		close(res[1]);
		return;
	}
	pid = fork();
	if (pid == 0) {
		char c;
		close(res[0]);
		close(go[1]);
		v[0] = runner_null_call_ns();
		if (write(res[1], &v[0], sizeof v[0]) != (ssize_t)sizeof v[0])
			_exit(1);
		/* Idle: the tracer seizes us here, as it finds the worker at its command read. */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		v[1] = runner_null_call_ns();
		if (write(res[1], &v[1], sizeof v[1]) != (ssize_t)sizeof v[1])
			_exit(1);
		(void)read(go[0], &c, 1);
		_exit(0);
	}
	close(res[1]);
	close(go[0]);
	/* The untraced timing is in the pipe before the tracer seizes the child. */
	if (pid > 0 && read(res[0], &v[0], sizeof v[0]) == (ssize_t)sizeof v[0] &&
	    tracer_attach(pid, go[0], r->path, r->dev, r->ino, &t, &st) == 0 &&
	    write(go[1], "g", 1) == 1 && tracer_step(t, EV_DIRECT, -1, &none, &st) == 0 &&
	    read(res[0], &v[1], sizeof v[1]) == (ssize_t)sizeof v[1]) {
		r->overhead.measured = true;
		r->overhead.bare_ns = v[0];
		r->overhead.traced_ns = v[1];
	}
	event_list_clear(&none);
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, __WALL) < 0 && errno == EINTR)
			;
	}
	tracer_free(t);
	close(res[0]);
	close(go[1]);
}

/* Fork the worker and, unless told not to, trace it. 0, or -1 with *err set. */
static int
runner_start_worker(struct runner *r, char **err)
{
	struct worker_reply hello;
	int st = 0, e;

	if (worker_spawn(r->s, r->dirfd, RUNNER_FILE_NAME, &r->w) != 0) {
		errmsg_set(err, "cannot start the worker process: %s", strerror(errno));
		return -1;
	}
	r->source = EV_SRC_PROCIO;
	if (r->o.trace == RUNNER_TRACE_PROCIO) {
		snprintf(r->source_why, sizeof r->source_why, "--trace=procio");
	} else if (tracer_attach(r->w.pid, WORKER_CMD_FD, RUNNER_FILE_NAME, r->dev, r->ino,
	                         &r->tracer, &st) == 0) {
		r->source = EV_SRC_PTRACE;
	} else {
		e = errno;
		runner_kill_worker(r);
		if (r->o.trace == RUNNER_TRACE_PTRACE) {
			errmsg_set(err, "ptrace refused (%s: %s): the system calls stdio makes "
			             "cannot be traced here; --trace=procio shows counts and totals "
			             "instead", strerrorname_np(e) ? strerrorname_np(e) : "?",
			             strerror(e));
			return -1;
		}
		snprintf(r->source_why, sizeof r->source_why, "ptrace refused: %s",
		         strerrorname_np(e) ? strerrorname_np(e) : strerror(e));
		if (worker_spawn(r->s, r->dirfd, RUNNER_FILE_NAME, &r->w) != 0) {
			errmsg_set(err, "cannot start the worker process: %s", strerror(errno));
			return -1;
		}
	}
	if (worker_recv(&r->w, &hello) != 1) {
		errmsg_set(err, "the worker process did not start");
		return -1;
	}
	r->stdio = hello.stdio;
	r->cur_fd = -1;
	r->cur_fd_open = false;
	return 0;
}

/*
 * Start a run of s. The worker is ptrace'd by the calling thread: call runner_step and
 * runner_free from that thread too (ptrace requests only work from the tracing thread).
 */
struct runner *
runner_new(const struct scenario *s, const struct runner_opts *o, char **err)
{
	static const struct runner_opts defaults = { .trace = RUNNER_TRACE_AUTO };
	struct runner *r;

	if (err != NULL)
		*err = NULL;
	r = calloc(1, sizeof *r);
	if (r == NULL) {
		errmsg_set(err, "out of memory");
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &r->busy);
	r->s = s;
	r->o = o != NULL ? *o : defaults;
	r->timeout = r->o.timeout > 0 && r->o.timeout < SCN_MAX_RUN_SECONDS ? r->o.timeout :
	             SCN_MAX_RUN_SECONDS;
	r->scratch = -1;
	r->dirfd = -1;
	r->probe_fd = -1;
	r->shown = -1;
	r->w.pid = -1;
	r->w.cmd_fd = r->w.reply_fd = -1;
	r->cur_fd = -1;
	if (runner_make_file(r, err) != 0 || runner_start_worker(r, err) != 0) {
		runner_free(r);
		return NULL;
	}
	/* Opened after the worker started: its counters are not the worker's fds. Where they
	 * cannot be had (why), nothing is counted and nothing changes. */
	char why[128];
	r->wb_open = true;
	if (r->probe_fd >= 0)
		r->wb = wbwatch_open(r->ino, r->dev, r->scratch >= 0 ? scratch_dir(r->scratch) :
		                     crash_lab_path(r->lab), why, sizeof why);
	/* The lab's journal (ext4's): its timer's commits are the kernel's, and a pause waits
	 * for one that came due in it. Where it cannot be counted, nothing is waited for. */
	struct stat lab_sb;
	r->jw_tx = -1;
	if (r->lab != NULL && fstat(r->dirfd, &lab_sb) == 0 &&
	    (r->jw = jwatch_open(lab_sb.st_dev, r->scratch >= 0 ? scratch_dir(r->scratch) :
	                         crash_lab_path(r->lab), why, sizeof why)) != NULL) {
		r->jw_interval = jwatch_interval(crash_lab_device(r->lab));
		runner_journal_look(r);
		/* The lab was just made, mounted and its file made, before the counters: a
		 * transaction of that may be running, unseen. */
		r->jw_tx = r->jw_at;
	}
	if (r->source == EV_SRC_PTRACE)
		runner_calibrate(r);
	runner_observe(r, &r->initial);
	/* What reached the lab's device since the file was made: no step's doing. */
	runner_crash_account(r, &r->initial.device, false);
	clock_gettime(CLOCK_MONOTONIC, &r->step_end);
	/* A source asked for by name that cannot work here is said now, not hidden by a fallback.
	 * A lesson that makes its own file has none yet: the source is tried, read-only, on
	 * iobufviz's own program file (the kernel's rules for it are the same), and named. */
	if (r->o.probe != SNAP_SRC_NONE && r->probe_fd < 0) {
		struct snap_cache c;
		struct stat sb;
		int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
		memset(&c, 0, sizeof c);
		if (fd >= 0 && fstat(fd, &sb) == 0)
			probe_cache_as(fd, (uint64_t)sb.st_size, r->o.probe, &c);
		if (fd >= 0)
			close(fd);
		if (c.source == SNAP_SRC_NONE) {
			errmsg_set(err, "%s", c.note[0] != '\0' ? c.note : "this page cache source "
			           "cannot be read here");
			runner_free(r);
			return NULL;
		}
		r->initial.cache.source = c.source;
	} else if (r->o.probe != SNAP_SRC_NONE && r->initial.cache.source == SNAP_SRC_NONE) {
		errmsg_set(err, "%s", r->initial.cache.note);
		runner_free(r);
		return NULL;
	}
	r->used = runner_since(&r->busy);
	return r;
}

/* How stdio's calls are seen in this run. */
enum ev_source
runner_trace_source(const struct runner *r)
{
	return r->source;
}

/* The scratch file. */
const char *
runner_file_path(const struct runner *r)
{
	return r->path;
}

/* Why the scratch file is where it is, or what cannot be shown there; "" if nothing. */
const char *
runner_place_note(const struct runner *r)
{
	return text_str(&r->place_note);
}

/* Its filesystem ("ext4", "tmpfs"). */
const char *
runner_fs_name(const struct runner *r)
{
	return r->fs;
}

/* What tracing adds to a system call here. */
const struct runner_overhead *
runner_tracing_overhead(const struct runner *r)
{
	return &r->overhead;
}

/* The state before the first step. */
const struct snapshot *
runner_initial(const struct runner *r)
{
	return &r->initial;
}

/* Stop the worker, close everything, remove the scratch dir. */
void
runner_free(struct runner *r)
{
	if (r == NULL)
		return;
	runner_kill_worker(r);
	wbwatch_close(r->wb);
	jwatch_close(r->jw);
	if (r->probe_fd >= 0)
		close(r->probe_fd);
	for (size_t i = 0; i < r->n_other; i++)
		close(r->other[i].fd);
	/* Nothing of ours is open under the lab now: it is unmounted and detached here. */
	crash_lab_free(r->lab);
	if (r->scratch >= 0)
		scratch_remove(r->scratch);
	text_buf_free(&r->place_note);
	free(r);
}
