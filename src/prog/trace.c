/* SPDX-License-Identifier: MIT */
/* trace.c: run a program under ptrace with a seccomp filter (as strace --seccomp-bpf
 * does) and turn its calls on regular files, and the stdio shim's markers, into steps. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/event.h"
#include "trace/peek.h"
#include "prog/fds.h"
#include "prog/launch.h"
#include "prog/mark.h"
#include "prog/streams.h"
#include "prog/wait.h"
#include "prog/trace.h"
#include "scratch/scratch.h"
#include "base/units.h"

/* At the end, how long killed processes may take to be reaped before we stop waiting (s). */
#define PT_REAP_GRACE_S 5

/* Names of the shim's functions, by marker id. */
#define PT_MARK_NAME(id, name) [id] = #name,
static const char *const pt_mark_names[PROG_MARK_NFUNCS] = { PROG_MARK_FUNCS(PT_MARK_NAME) };

/* One traced process (or thread). */
struct pt_proc {
	pid_t pid, tgid;
	struct prog_fdtab *tab;
	struct prog_stdio *stdio;
	bool fresh;               /* attached by a fork event: its first SIGSTOP is ours */
	bool in_sys;              /* between a seccomp stop and its syscall-exit stop */
	/* The call between its entry and exit. */
	const struct call_row *call;
	struct decode_stop stop;
	struct timespec t0;
	char path[PATH_MAX];      /* open family: the path argument; else the fd's file */
	bool regular, has_file;
	int depth;                /* stdio calls of the shim in progress */
};

/* A running program. */
struct prog_trace {
	pid_t leader;
	bool execed;
	struct prog_wait w;        /* its deadline (timeout_ms) and the caller's poll */
	int err_fd;               /* the child's report of a failed setup or execve */
	pid_t held;               /* stopped after a step, resumed by the next prog_trace_next */
	struct pt_proc *procs;
	size_t nprocs, cap;
	struct prog_stats st;
	char prog[PATH_MAX];      /* the program's path, as exec'd */
};

/* The process pid, or NULL. */
static struct pt_proc *
pt_proc_find(struct prog_trace *t, pid_t pid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	return NULL;
}

/* Tgid of pid from /proc (pid itself if unknown). */
static pid_t
pt_tgid(pid_t pid)
{
	char path[64], line[128];
	pid_t tgid = pid;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return pid;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Read fd of pid from /proc into the table: what it is, if it is regular, O_CLOEXEC. */
static struct prog_fd *
pt_fd_resolve(struct pt_proc *p, int fd)
{
	char link[64], path[PATH_MAX], line[128];
	struct stat st;
	bool cloexec = false;
	ssize_t n;
	FILE *f;

	snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)p->pid, fd);
	n = readlink(link, path, sizeof path - 1);
	if (n < 0)
		return NULL;
	path[n] = '\0';
	if (stat(link, &st) != 0)
		return NULL;
	snprintf(link, sizeof link, "/proc/%d/fdinfo/%d", (int)p->pid, fd);
	f = fopen(link, "re");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned flags;
		if (sscanf(line, "flags: %o", &flags) == 1) {
			cloexec = (flags & O_CLOEXEC) != 0;
			break;
		}
	}
	if (f != NULL)
		fclose(f);
	prog_fds_set(p->tab, fd, path, S_ISREG(st.st_mode), cloexec);
	return &p->tab->v[p->tab->n - 1];
}

/* The table entry of fd (read from /proc the first time), or NULL if it is not open. */
static struct prog_fd *
pt_fd_get(struct pt_proc *p, int fd)
{
	if (fd < 0)
		return NULL;
	for (size_t i = 0; i < p->tab->n; i++)
		if (p->tab->v[i].fd == fd)
			return &p->tab->v[i];
	return pt_fd_resolve(p, fd);
}

/* Add process pid, with a copy of parent's table (or a share of it: a thread). */
static struct pt_proc *
pt_proc_add(struct prog_trace *t, pid_t pid, struct pt_proc *parent, bool fresh)
{
	struct pt_proc *p;
	pid_t parent_pid = parent != NULL ? parent->pid : 0;

	if (t->nprocs == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		struct pt_proc *v = realloc(t->procs, cap * sizeof *v);
		if (v == NULL)
			return NULL;
		t->procs = v;
		t->cap = cap;
	}
	/* The array may have moved. */
	parent = parent_pid ? pt_proc_find(t, parent_pid) : NULL;
	p = &t->procs[t->nprocs];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	p->tgid = pt_tgid(pid);
	p->fresh = fresh;
	if (parent != NULL && parent->tgid == p->tgid) {
		p->tab = parent->tab;
		p->tab->refs++;
	} else {
		p->tab = prog_fds_copy(parent != NULL ? parent->tab : NULL);
	}
	p->stdio = prog_stdio_new(pid);
	if (p->tab == NULL || p->stdio == NULL) {
		prog_fds_put(p->tab);
		prog_stdio_free(p->stdio);
		return NULL;
	}
	t->nprocs++;
	return p;
}

/* Forget process p (it ended). */
static void
pt_proc_del(struct prog_trace *t, struct pt_proc *p)
{
	prog_fds_put(p->tab);
	prog_stdio_free(p->stdio);
	*p = t->procs[--t->nprocs];
}

/* Resume p as its state asks (PTRACE_SYSCALL inside a traced call, to see its exit). */
static void
pt_resume(struct pt_proc *p, int sig)
{
	ptrace(p->in_sys ? PTRACE_SYSCALL : PTRACE_CONT, p->pid, 0, (void *)(long)sig);
}

/* Use fd's file as the call's file, unless one is known already (a copy's second fd). */
static void
pt_use_fd(struct pt_proc *p, int fd)
{
	struct prog_fd *f;

	if (p->regular || fd < 0 || (f = pt_fd_get(p, fd)) == NULL)
		return;
	snprintf(p->path, sizeof p->path, "%s", f->path);
	p->has_file = true;
	p->regular = f->regular;
}

/* Use the file mapped at addr (from /proc/PID/maps) as the call's file (msync, munmap). */
static void
pt_use_map(struct pt_proc *p, uint64_t addr)
{
	char name[64], line[PATH_MAX + 128];
	struct stat st;
	FILE *f;

	snprintf(name, sizeof name, "/proc/%d/maps", (int)p->pid);
	f = fopen(name, "re");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned long long lo, hi, ino;
		int at = 0;

		if (sscanf(line, "%llx-%llx %*s %*x %*x:%*x %llu %n", &lo, &hi, &ino, &at) < 3 ||
		    addr < lo || addr >= hi)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (ino != 0 && at > 0 && line[at] == '/' && stat(line + at, &st) == 0) {
			snprintf(p->path, sizeof p->path, "%s", line + at);
			p->has_file = true;
			p->regular = S_ISREG(st.st_mode);
		}
		break;
	}
	if (f != NULL)
		fclose(f);
}

/* A seccomp stop: remember the call, or turn a marker into a step. 1 = a step in *out. */
static int
pt_on_seccomp(struct prog_trace *t, struct pt_proc *p, struct prog_step *out)
{
	struct __ptrace_syscall_info si;
	const struct call_row *c;
	struct peek m = peek_pid(p->pid);

	memset(&si, 0, sizeof si);
	if (ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, (void *)sizeof si, &si) <= 0 ||
	    si.op != PTRACE_SYSCALL_INFO_SECCOMP || si.arch != CALLS_AUDIT_ARCH ||
	    (c = calls_find(si.seccomp.nr)) == NULL) {
		t->st.other_calls++;
		p->in_sys = false;
		pt_resume(p, 0);
		return 0;
	}
	if (c->flags & CALL_MARK) {
		unsigned phase = si.seccomp.args[1] & 0xff, id = (si.seccomp.args[1] >> 8) & 0xff;

		t->st.markers++;
		p->in_sys = false;
		if (phase == PROG_MARK_BEFORE) {
			p->depth++;
			pt_resume(p, 0);
			return 0;
		}
		if (p->depth > 0)
			p->depth--;
		memset(out, 0, sizeof *out);
		out->kind = PROG_STEP_STDIO;
		out->pid = p->pid;
		out->func = id < PROG_MARK_NFUNCS && pt_mark_names[id] != NULL ? pt_mark_names[id] : "?";
		out->file = si.seccomp.args[2];
		out->size = si.seccomp.args[3];
		out->ret = (int64_t)si.seccomp.args[4];
		out->stdio_fd = -1;
		if (out->file != 0) {
			struct prog_stream s;
			if (prog_stdio_read(p->pid, out->file, &s) == 0)
				out->stdio_fd = s.fd;
		}
		return 1;
	}
	if (c->flags & CALL_EXIT) {
		/* No exit stop follows: the process's end is the step. */
		t->st.other_calls++;
		p->in_sys = false;
		pt_resume(p, 0);
		return 0;
	}
	p->call = c;
	memset(&p->stop, 0, sizeof p->stop);
	p->stop.nr = si.seccomp.nr;
	memcpy(p->stop.args, si.seccomp.args, sizeof p->stop.args);
	event_decode_entry(c, &p->stop, &m);
	p->path[0] = '\0';
	p->has_file = p->regular = false;
	if ((c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
		peek_str(&m, p->stop.args[(int)c->path], p->path, sizeof p->path);
		p->has_file = true;
	} else if (c->flags & CALL_FD) {
		pt_use_fd(p, calls_fd(c, p->stop.args, &m));
		if (c->fd2 >= 0)
			pt_use_fd(p, (int)p->stop.args[(int)c->fd2]);
	} else if (c->flags & CALL_MEM) {
		pt_use_map(p, p->stop.args[(int)c->addr]);
	}
	p->in_sys = true;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
	pt_resume(p, 0);
	return 0;
}

/* The step of a finished call (see prog/trace.h). */
void
prog_trace_event(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
                 struct prog_step *out)
{
	memset(out, 0, sizeof *out);
	out->kind = PROG_STEP_CALL;
	out->stdio_fd = -1;
	event_decode(c, s, m, &out->ev);
}

/* Fill out from the finished call of p. */
static void
pt_fill_event(struct pt_proc *p, const struct timespec *now, struct prog_step *out)
{
	struct peek m = peek_pid(p->pid);

	prog_trace_event(p->call, &p->stop, &m, out);
	out->pid = p->pid;
	out->ev.ns = units_ns_between(&p->t0, now);
	out->ev.ns_traced = true;
	out->ev.origin = p->depth > 0 ? EV_STDIO : EV_DIRECT;
	snprintf(out->path, sizeof out->path, "%s", p->path);
	out->regular = p->regular;
}

/* Keep the fd table in step with the finished call of p. */
static void
pt_track(struct pt_proc *p)
{
	const struct call_row *c = p->call;
	const uint64_t *a = p->stop.args;
	int64_t rval = p->stop.rval;
	struct prog_fd *fd;

	if (p->stop.is_error)
		return;
	if ((c->flags & CALL_CLOSE) && c->fd2 >= 0) {
		/* close_range(first, last, flags): closes them, or marks them O_CLOEXEC. */
		unsigned first = (unsigned)a[(int)c->fd], last = (unsigned)a[(int)c->fd2];
		for (size_t i = 0; i < p->tab->n;) {
			struct prog_fd *f = &p->tab->v[i++];
			if ((unsigned)f->fd < first || (unsigned)f->fd > last)
				continue;
			if (a[(int)c->flg] & CLOSE_RANGE_CLOEXEC) {
				f->cloexec = true;
			} else {
				prog_fds_del(p->tab, f->fd);
				i--;
			}
		}
	} else if (c->flags & CALL_CLOSE) {
		prog_fds_del(p->tab, (int)a[(int)c->fd]);
	} else if ((c->flags & CALL_CMD) && (int)a[(int)c->flg] == F_SETFD) {
		if ((fd = pt_fd_get(p, (int)a[(int)c->fd])) != NULL)
			fd->cloexec = (a[(int)c->flg + 1] & FD_CLOEXEC) != 0;
	} else if (calls_made_fd(c, a, rval, false)) {
		/* The new fd is read afresh from /proc: its file, its own O_CLOEXEC. */
		prog_fds_del(p->tab, (int)rval);
		fd = pt_fd_resolve(p, (int)rval);
		if ((c->flags & CALL_PATH) && !(c->flags & CALL_FD))
			p->regular = fd != NULL && fd->regular;
	}
}

/*
 * A syscall-exit stop: finish p's call. 1 = a step in *out (p stays stopped), 0 = p was
 * resumed.
 */
static int
pt_on_exit(struct prog_trace *t, struct pt_proc *p, struct prog_step *out)
{
	struct __ptrace_syscall_info si;
	struct timespec now;
	unsigned f;
	bool step;

	clock_gettime(CLOCK_MONOTONIC, &now);
	p->in_sys = false;
	memset(&si, 0, sizeof si);
	if (p->call == NULL || ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, (void *)sizeof si, &si) <= 0 ||
	    si.op != PTRACE_SYSCALL_INFO_EXIT) {
		pt_resume(p, 0);
		return 0;
	}
	p->stop.rval = si.exit.rval;
	p->stop.is_error = si.exit.is_error != 0;
	pt_track(p);
	f = p->call->flags;
	if (f & CALL_ASYNC)
		t->st.async++;
	if (f & CALL_EXEC) {
		step = true;
		p->regular = !p->stop.is_error;
	} else if ((f & CALL_PATH) && !(f & CALL_FD)) {
		/* An open names a file: a step if it failed or opened a regular file. */
		step = p->stop.is_error || p->regular;
	} else if ((f & CALL_ASYNC) && (f & CALL_NEWFD)) {
		/* io_uring_setup: the program moves data where no tracer sees it; say so once. */
		step = true;
	} else {
		step = p->has_file && p->regular;
	}
	if (!step) {
		t->st.other_calls++;
		p->call = NULL;
		pt_resume(p, 0);
		return 0;
	}
	pt_fill_event(p, &now, out);
	p->call = NULL;
	return 1;
}

/* After an execve: the O_CLOEXEC fds are gone, and so is the old libc. */
static void
pt_on_exec(struct pt_proc *p)
{
	for (size_t i = 0; i < p->tab->n;)
		if (p->tab->v[i].cloexec)
			prog_fds_del(p->tab, p->tab->v[i].fd);
		else
			i++;
	prog_stdio_reset(p->stdio);
	p->depth = 0;
}

/* Kill every traced process (they are reaped by the caller's wait loop). */
static void
pt_kill_all(struct prog_trace *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		kill(t->procs[i].pid, SIGKILL);
}

/* The tracer's kill at the deadline (prog/wait.h): every traced process. */
static void
pt_kill_all_cb(void *arg)
{
	pt_kill_all(arg);
}

/* pt_run with SIGCHLD blocked (prog/wait.h). */
static int
pt_run_blocked(struct prog_trace *t, struct prog_step *out, bool until_exec)
{
	for (;;) {
		struct pt_proc *p;
		int st, sig, ev;
		pid_t pid;

		if (t->nprocs == 0)
			return 0;
		pid = prog_wait_any(&t->w, &st, pt_kill_all_cb, t);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				return 0;
			return -1;
		}
		t->st.stops++;
		p = pt_proc_find(t, pid);
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (p == NULL)
				continue;
			memset(out, 0, sizeof *out);
			out->kind = PROG_STEP_EXIT;
			out->pid = pid;
			out->status = st;
			out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
			out->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
			out->timed_out = t->w.timed_out;
			out->stdio_fd = -1;
			if (pid == t->leader)
				scratch_forget(pid);
			pt_proc_del(t, p);
			if (until_exec && pid == t->leader)
				return 2;
			return 1;
		}
		if (!WIFSTOPPED(st))
			continue;
		if (p == NULL) {
			/* A new child can report before its parent's fork event. */
			p = pt_proc_add(t, pid, NULL, true);
			if (p == NULL) {
				kill(pid, SIGKILL);
				continue;
			}
		}
		sig = WSTOPSIG(st);
		ev = st >> 16;
		if (sig == SIGTRAP && ev == PTRACE_EVENT_SECCOMP) {
			if (!t->execed) {
				/* Our own child's execve (or its error report): not the program's yet. */
				p->in_sys = true;
				pt_resume(p, 0);
				continue;
			}
			if (pt_on_seccomp(t, p, out) == 1)
				goto held;
			continue;
		}
		if (sig == (SIGTRAP | 0x80)) {
			if (t->execed && pt_on_exit(t, p, out) == 1)
				goto held;
			if (!t->execed) {
				p->in_sys = false;
				pt_resume(p, 0);
			}
			continue;
		}
		if (sig == SIGTRAP && ev == PTRACE_EVENT_EXEC) {
			pt_on_exec(p);
			if (!t->execed) {
				/* The program itself: its execve call becomes the first step. */
				t->execed = true;
				p->call = calls_find(SYS_execve);
				memset(&p->stop, 0, sizeof p->stop);
				p->stop.nr = SYS_execve;
				clock_gettime(CLOCK_MONOTONIC, &p->t0);
				p->has_file = true;
				p->regular = true;
				snprintf(p->path, sizeof p->path, "%s", t->prog);
			}
			pt_resume(p, 0);
			if (until_exec)
				return 1;
			continue;
		}
		if (sig == SIGTRAP && (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
		                       ev == PTRACE_EVENT_CLONE)) {
			unsigned long child = 0;
			ptrace(PTRACE_GETEVENTMSG, pid, 0, &child);
			if (child != 0 && pt_proc_find(t, (pid_t)child) == NULL)
				pt_proc_add(t, (pid_t)child, p, true);
			p = pt_proc_find(t, pid);
			if (p != NULL)
				pt_resume(p, 0);
			continue;
		}
		if (ev != 0) {
			pt_resume(p, 0);
			continue;
		}
		if (p->fresh && sig == SIGSTOP) {
			p->fresh = false;
			pt_resume(p, 0);
			continue;
		}
		/* A signal for the program: deliver it. A group-stop (no siginfo) is not a
		 * signal to deliver again: the program just goes on (job control is not traced). */
		{
			siginfo_t si;
			if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si) != 0)
				sig = 0;
		}
		pt_resume(p, sig);
	}
held:
	t->held = out->pid;
	t->st.steps++;
	out->seq = t->st.steps;
	return 1;
}

/*
 * Run until the next step into *out. With until_exec, return 1 as soon as the leader has
 * exec'd (or 2 if it ended before). 1 = step; 0 = nothing left; -1 = error (ECANCELED:
 * the caller's poll asked to stop).
 */
static int
pt_run(struct prog_trace *t, struct prog_step *out, bool until_exec)
{
	sigset_t old;
	int rc;

	if (t->w.cancelled) {
		errno = ECANCELED;
		return -1;
	}
	prog_wait_block(&old);
	rc = pt_run_blocked(t, out, until_exec);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Start the program (see prog/trace.h). */
int
prog_trace_start(char *const argv[], const struct prog_opts *o, struct prog_trace **out,
                 char **err)
{
	static const struct prog_opts none;
	static const char *const stage[] = { "", "stdin", "stdout", "stderr", "working directory",
	                                     "seccomp filter", "new session" };
	char prog[PATH_MAX];
	struct prog_trace *t;
	struct prog_step step;
	int ep[2], st, rc;
	char **env;
	pid_t pid;

	*out = NULL;
	if (err != NULL)
		*err = NULL;
	if (o == NULL)
		o = &none;
	if (argv == NULL || argv[0] == NULL) {
		errmsg_set(err, "no program to run");
		errno = EINVAL;
		return -1;
	}
	if (CALLS_AUDIT_ARCH == 0) {
		errmsg_set(err, "%s: tracing a program works on x86_64 and aarch64 only", argv[0]);
		errno = ENOSYS;
		return -1;
	}
	if (prog_launch_find(argv[0], prog, sizeof prog) != 0) {
		if (errno == 0) {
			errmsg_set(err, "%s: command not found", argv[0]);
			errno = ENOENT;
		} else {
			errmsg_set(err, "%s: %s", argv[0], strerror(errno));
		}
		return -1;
	}
	t = calloc(1, sizeof *t);
	env = prog_launch_env(o);
	if (t == NULL || env == NULL || pipe2(ep, O_CLOEXEC) != 0) {
		errmsg_set(err, "%s: %s", argv[0], strerror(errno));
		free(t);
		free(env);
		return -1;
	}
	t->err_fd = ep[0];
	t->held = -1;
	t->w.poll = o->poll;
	t->w.poll_arg = o->poll_arg;
	memcpy(t->prog, prog, sizeof prog);
	/* The program's orphans (a daemon it forks, a child whose parent ended) come to us, not
	 * to init: prog_trace_free finds and kills them, so nothing it made outlives the run. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	pid = scratch_fork();
	if (pid == 0)
		prog_launch_child(prog, argv, env, o, ep[1]);
	rc = errno;
	close(ep[1]);
	if (o->preload != NULL) {
		for (size_t i = 0; env[i] != NULL; i++)
			if (strncmp(env[i], "LD_PRELOAD=", 11) == 0)
				free(env[i]);
	}
	free(env);
	if (pid < 0) {
		errmsg_set(err, "fork: %s", strerror(rc));
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	t->leader = pid;
	/* The child stops itself (SIGSTOP) right after PTRACE_TRACEME. */
	if (waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SETOPTIONS, pid, 0,
	           (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP |
	                          PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
	                          PTRACE_O_TRACECLONE)) != 0 ||
	    pt_proc_add(t, pid, NULL, false) == NULL) {
		rc = errno;
		errmsg_set(err, "%s: cannot trace it: %s", argv[0], strerror(rc));
		kill(pid, SIGKILL);
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	/* From here: its setup (a stdin that never opens) and its exec count too. */
	prog_wait_deadline(&t->w, o->timeout_ms);
	ptrace(PTRACE_CONT, pid, 0, 0);
	rc = pt_run(t, &step, true);
	if (rc != 1) {
		struct prog_launch_fail f = { 0, 0 };
		/* Only once the child has ended is its report complete (or known to be missing). */
		ssize_t n = rc == 2 ? read(t->err_fd, &f, sizeof f) : 0;

		if (n == (ssize_t)sizeof f && f.stage == 0)
			errmsg_set(err, "%s: %s", argv[0], strerror(f.err));
		else if (n == (ssize_t)sizeof f && f.stage > 0 &&
		         (size_t)f.stage < sizeof stage / sizeof stage[0])
			errmsg_set(err, "%s: %s: %s", argv[0], stage[f.stage], strerror(f.err));
		else if (t->w.timed_out)
			errmsg_set(err, "%s: did not start within the timeout", argv[0]);
		else if (rc < 0)
			errmsg_set(err, "%s: %s", argv[0], strerror(errno));
		else
			errmsg_set(err, "%s: ended before it started", argv[0]);
		errno = n == (ssize_t)sizeof f ? f.err : t->w.timed_out ? ETIMEDOUT :
		        rc < 0 ? errno : ECHILD;
		rc = errno;
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	*out = t;
	return 0;
}

/* The next step. */
int
prog_trace_next(struct prog_trace *t, struct prog_step *out)
{
	if (t->held > 0) {
		struct pt_proc *p = pt_proc_find(t, t->held);
		if (p != NULL)
			pt_resume(p, 0);
		t->held = -1;
	}
	return pt_run(t, out, false);
}

/* The stdio streams of a traced process. */
int
prog_trace_stdio(struct prog_trace *t, pid_t pid, struct prog_stream *v, size_t max, size_t *n,
                 const char **why)
{
	struct pt_proc *p = pt_proc_find(t, pid);

	*n = 0;
	*why = NULL;
	if (p == NULL) {
		errno = ESRCH;
		return PROG_STDIO_ERROR;
	}
	return prog_stdio_scan(p->stdio, v, max, n, why);
}

/* The program's pid. */
pid_t
prog_trace_pid(const struct prog_trace *t)
{
	return t->leader;
}

/* The counters. */
void
prog_trace_stats(const struct prog_trace *t, struct prog_stats *out)
{
	*out = t->st;
}

/* One line for a step. */
char *
prog_trace_format(const struct prog_step *s, char *buf, size_t len)
{
	const struct call_row *c = s->kind == PROG_STEP_CALL ? calls_find((uint64_t)s->ev.nr) : NULL;
	char ev[256];

	switch (s->kind) {
	case PROG_STEP_CALL:
		/* The open family and execve by the path they were given. */
		if (c != NULL && (c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
			if (s->ev.result < 0)
				snprintf(buf, len, "[%d] %s(\"%s\"%s%s) = -1 %s", (int)s->pid, s->ev.call,
				         s->path, s->ev.detail[0] ? ", " : "", s->ev.detail,
				         strerrorname_np(s->ev.err) ? strerrorname_np(s->ev.err) : "?");
			else
				snprintf(buf, len, "[%d] %s(\"%s\"%s%s) = %" PRId64, (int)s->pid,
				         s->ev.call, s->path, s->ev.detail[0] ? ", " : "", s->ev.detail,
				         s->ev.result);
		} else {
			snprintf(buf, len, "[%d] %s", (int)s->pid, event_format(&s->ev, ev, sizeof ev));
		}
		break;
	case PROG_STEP_STDIO:
		snprintf(buf, len, "[%d] %s(fd %d, %" PRIu64 ") = %" PRId64, (int)s->pid, s->func,
		         s->stdio_fd, s->size, s->ret);
		break;
	case PROG_STEP_EXIT:
		if (s->signal != 0)
			snprintf(buf, len, "[%d] killed by SIG%s%s", (int)s->pid,
			         sigabbrev_np(s->signal) ? sigabbrev_np(s->signal) : "?",
			         s->timed_out ? " (timeout)" : "");
		else
			snprintf(buf, len, "[%d] exited %d", (int)s->pid, s->exit_code);
		break;
	}
	return buf;
}

/* A process the end of the run reaped (prog/wait.h): forget it. */
static void
pt_gone(pid_t pid, void *arg)
{
	struct prog_trace *t = arg;
	struct pt_proc *p = pt_proc_find(t, pid);

	if (p != NULL)
		pt_proc_del(t, p);
}

/* Kill the whole tree and free t. */
void
prog_trace_free(struct prog_trace *t)
{
	if (t == NULL)
		return;
	prog_wait_reap_all(pt_kill_all_cb, pt_gone, t, PT_REAP_GRACE_S);
	scratch_forget(t->leader);
	while (t->nprocs > 0)
		pt_proc_del(t, &t->procs[0]);
	if (t->err_fd > 0)
		close(t->err_fd);
	free(t->procs);
	free(t);
}
