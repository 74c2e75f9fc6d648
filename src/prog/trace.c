/* SPDX-License-Identifier: MIT */
/* trace.c: run a program under ptrace with a seccomp filter (as strace --seccomp-bpf
 * does) and turn its calls on regular files, and the stdio shim's markers, into steps. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
#include "shim/protocol.h"
#include "prog/streams.h"
#include "prog/wait.h"
#include "prog/trace.h"
#include "prog/trace-int.h"
#include "scratch/scratch.h"
#include "base/text.h"
#include "base/units.h"

/* At the end, how long killed processes may take to be reaped before we stop waiting (s). */
#define PT_REAP_GRACE_S 5


/* Resume p as its state asks (PTRACE_SYSCALL inside a traced call, to see its exit). */
static void
prog_trace_resume(struct pt_proc *p, int sig)
{
	ptrace(p->in_sys ? PTRACE_SYSCALL : PTRACE_CONT, p->pid, 0, (void *)(long)sig);
}

/* Tell the hook what p is about to do. */
static void
prog_trace_hook_at(struct prog_trace *t, struct pt_proc *p, enum prog_entry_kind kind,
                   const char *call, int fd, int fd2, bool file, bool first)
{
	struct prog_entry e = { .kind = kind, .pid = p->pid, .call = call, .fd = fd, .fd2 = fd2,
	                        .file = file, .first = first };

	if (kind == PROG_ENTRY_STDIO) {
		e.func_id = p->cur.id;
		e.stream = p->cur.file;
	}
	e.unseen = kind == PROG_ENTRY_CALL && p->unseen;
	if (e.unseen)
		e.stream = p->unseen_of.file;
	if (t->hook != NULL)
		t->hook(t->hook_ctx, &e);
}

/* Use fd's file as the call's file, unless a regular one is known already (a copy's second
 * fd: splice from a pipe into a file is on the file). */
static void
pt_use_fd(struct pt_proc *p, int fd)
{
	struct prog_fd *f;

	if (p->regular || fd < 0 || (f = prog_fds_get(p->tab, p->pid, fd)) == NULL)
		return;
	snprintf(p->path, sizeof p->path, "%s", f->path);
	p->has_file = true;
	p->regular = f->regular;
	p->file_fd = fd;
	p->dev = f->dev;
	p->ino = f->ino;
}

/* Use the file mapped at addr as the call's file (msync, munmap). True if the program's
 * stores through that mapping reach a regular file's pages. */
static bool
pt_use_map(struct pt_proc *p, uint64_t addr)
{
	struct stat st;
	bool shared_write = false;

	if (!prog_fds_mapped(p->pid, addr, p->path, sizeof p->path, &st, &shared_write))
		return false;
	p->has_file = true;
	p->regular = S_ISREG(st.st_mode);
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	return shared_write && p->regular;
}

/* The stores step of p, stopped at the entry of its call c on a shared writable mapping of a
 * file (msync, munmap) into out: its file as the stores left it, before the call acts. */
static void
pt_stores_step(struct pt_proc *p, const struct call_row *c, struct prog_step *out)
{
	*out = (struct prog_step){ .kind = PROG_STEP_STORES, .pid = p->pid, .stdio_fd = -1,
	                           .file_fd = -1, .regular = true, .dev = p->dev, .ino = p->ino };
	event_decode(c, &p->stop, NULL, &out->ev);
	out->ev.result = 0;
	snprintf(out->path, sizeof out->path, "%s", p->path);
}

/* A seccomp stop: remember the call, or turn a marker into a step. 1 = a step in *out. */
static int
pt_on_seccomp(struct prog_trace *t, struct pt_proc *p, struct prog_step *out)
{
	struct __ptrace_syscall_info si;
	const struct call_row *c;
	struct peek m = peek_pid(p->pid);
	bool stores = false, first;

	memset(&si, 0, sizeof si);
	if (ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, (void *)sizeof si, &si) <= 0 ||
	    si.op != PTRACE_SYSCALL_INFO_SECCOMP || si.arch != CALLS_AUDIT_ARCH ||
	    (c = calls_find(si.seccomp.nr)) == NULL) {
		t->st.other_calls++;
		p->in_sys = false;
		prog_trace_resume(p, 0);
		return 0;
	}
	if (c->flags & CALL_MARK) {
		if (prog_marks_on(t, p, si.seccomp.args))
			prog_trace_hook_at(t, p, PROG_ENTRY_STDIO, NULL, -1, -1, false, true);
		prog_trace_resume(p, 0);
		return 0;
	}
	if (!p->ld_known) {
		p->ld_known = true;
		prog_fds_loader(p->pid, &p->ld_lo, &p->ld_hi);
	}
	p->loader = si.instruction_pointer >= p->ld_lo && si.instruction_pointer < p->ld_hi;
	p->sys_ip = si.instruction_pointer;
	p->sys_sp = si.stack_pointer;
	first = prog_marks_at_call(p);
	/* A stdio call's first system call: its stack has its line and its caller's. */
	if (first && !prog_srcloc_logged(t->src, p->tgid, p->cur.caller, p->cur.file,
	                                 p->cur.up_off, p->cur.up, &p->cur_src)) {
		/* (The shim kept the word a walk from this call site and frame found the caller
		 * in, when the call began: equal, the line is known without reading the stack.) */
		uint64_t off;
		prog_srcloc_unwind_call(t->src, p->tgid, p->pid, p->cur.caller, p->cur.file,
		                        p->cur.frame, &p->cur_src, &off);
		/* The calls from there (from anywhere in its function) with this frame that make
		 * no stop keep that word. */
		uint64_t lo = p->cur.caller - 1, hi = p->cur.caller;
		prog_srcloc_func(t->src, p->tgid, p->cur.caller, &lo, &hi);
		prog_marks_tell_up(p, lo, hi, p->cur.frame, off);
	}
	if (c->flags & CALL_EXIT) {
		/* No exit stop follows: the process's end is its step. exit()'s flush of the
		 * streams is one before it, while the process (and its memory) is still here. */
		t->st.other_calls++;
		p->in_sys = false;
		prog_trace_hook_at(t, p, PROG_ENTRY_EXIT, c->name, -1, -1, false, false);
		if (p->in_stdio && p->cur.id == PROG_MARK_EXIT_ID && p->inner.n + p->inner.dropped > 0) {
			prog_marks_exit_step(p, out);
			return 1;
		}
		prog_trace_resume(p, 0);
		return 0;
	}
	p->call = c;
	memset(&p->stop, 0, sizeof p->stop);
	p->stop.nr = si.seccomp.nr;
	memcpy(p->stop.args, si.seccomp.args, sizeof p->stop.args);
	calls_fold_args(p->stop.nr, p->stop.args);
	event_decode_entry(c, &p->stop, &m);
	p->path[0] = '\0';
	p->has_file = p->regular = false;
	p->file_fd = -1;
	p->dev = 0;
	p->ino = 0;
	if ((c->flags & CALL_PATH) && !(c->flags & CALL_FD)) {
		/* A rename's file is the one its new name will name: the file it moves. */
		peek_str(&m, p->stop.args[(int)((c->flags & CALL_NAMES) ? c->flg : c->path)],
		         p->path, sizeof p->path);
		p->has_file = true;
	} else if (c->flags & CALL_FD) {
		/* A copy is on the file it writes, or on the one it reads when it writes to a pipe
		 * or a socket. */
		int fd = calls_fd(c, p->stop.args, &m);
		int fd2 = c->flags & (CALL_READ2 | CALL_WRITE2) ? (int)p->stop.args[(int)c->fd2] : -1;
		pt_use_fd(p, c->flags & CALL_WRITE2 ? fd2 : fd);
		pt_use_fd(p, c->flags & CALL_WRITE2 ? fd : fd2);
	} else if (c->flags & CALL_MEM) {
		stores = pt_use_map(p, p->stop.args[(int)c->addr]);
	}
	p->unseen = prog_marks_unseen(p, c, &m, si.stack_pointer);
	/* The loader's calls are no entry of the program's: nothing of it ends there. */
	if (!p->loader)
		prog_trace_hook_at(t, p, p->in_stdio ? PROG_ENTRY_STDIO : PROG_ENTRY_CALL, c->name,
		        c->fd >= 0 ? (int)p->stop.args[(int)c->fd] : -1,
		        c->fd2 >= 0 ? (int)p->stop.args[(int)c->fd2] : -1,
		        ((c->flags & CALL_PATH) && !(c->flags & CALL_FD)) || p->regular, first);
	p->in_sys = true;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
	if (stores && !p->in_stdio && !p->loader) {
		/* The program's stores through the mapping made no call: a step of their own,
		 * observed now, before msync or munmap acts (the call goes on when it is over).
		 * No dirty page: nothing was stored. More than its last call left: a store was.
		 * Else (dirty pages as many as that, or not known) it may have stored: a page
		 * dirty already does not count twice, and a page written back hides one. */
		int64_t dirty = prog_fds_dirty(p->path, p->dev, p->ino);
		const struct prog_mapped *was = prog_fds_map_find(&t->maps, p->dev, p->ino);
		if (dirty != 0) {
			pt_stores_step(p, c, out);
			out->stored = dirty > 0 && was != NULL && was->dirty >= 0 && dirty > was->dirty;
			return 1;
		}
	}
	prog_trace_resume(p, 0);
	return 0;
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
	if (t->exec_end_set) {
		/* The execve's end, waited for by prog_trace_start. */
		now = t->exec_end;
		t->exec_end_set = false;
	}
	p->in_sys = false;
	memset(&si, 0, sizeof si);
	if (p->call == NULL || ptrace(PTRACE_GET_SYSCALL_INFO, p->pid, (void *)sizeof si, &si) <= 0 ||
	    si.op != PTRACE_SYSCALL_INFO_EXIT) {
		prog_trace_resume(p, 0);
		return 0;
	}
	p->stop.is_error = si.exit.is_error != 0;
	p->stop.rval = calls_fold_rval(si.exit.rval, p->stop.is_error);
	pt_track(p);
	f = p->call->flags;
	if (p->regular && p->has_file && !p->loader)
		prog_fds_map_note(&t->maps, p->path, p->dev, p->ino,
		                  (f & CALL_MAP) && !p->stop.is_error);
	if ((f & CALL_SYNC) && !p->stop.is_error)
		t->st.syncs++;
	if (f & CALL_ASYNC)
		t->st.async++;
	if (f & CALL_EXEC) {
		step = true;
		p->regular = !p->stop.is_error;
	} else if ((f & CALL_NAMES) && !p->stop.is_error) {
		/* A rename moved a regular file: a step (the file, under its new name). */
		p->regular = prog_fds_named_regular(p->pid, p->path, sizeof p->path, &p->dev,
		                                    &p->ino);
		step = p->regular;
	} else if ((f & CALL_PATH) && !(f & CALL_FD)) {
		/* An open names a file: a step if it failed or opened a regular file. */
		step = p->stop.is_error || p->regular;
	} else if ((f & CALL_ASYNC) && (f & CALL_NEWFD)) {
		/* io_uring_setup: the program moves data where no tracer sees it; say so once. */
		step = true;
	} else {
		/* An fsync of what is not a regular file (a directory: its names) is a step too. */
		step = p->has_file && (p->regular || (f & CALL_SYNC));
	}
	if (!step || p->loader) {
		if (step)
			t->st.loader++;
		else
			t->st.other_calls++;
		p->call = NULL;
		prog_trace_resume(p, 0);
		return 0;
	}
	pt_fill_event(p, t->leader, &now, out);
	p->call = NULL;
	if (p->in_stdio) {
		/* Inside a stdio call (or exit's flush): the call is that step's. */
		event_list_add(&p->inner, &out->ev);
		prog_trace_resume(p, 0);
		return 0;
	}
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
	prog_streams_reset(p->stdio);
	p->shim = 0;
	p->taken = 0;
	p->run_first = p->run_taken = p->last_seq = 0;
	p->cur_seq = 0;
	p->owed = false;
	p->in_stdio = false;
	p->unseen = false;
	p->ld_known = false;
	p->sys_ip = 0;
	p->sys_sp = 0;
	event_list_clear(&p->inner);
}

/* Kill every traced process (they are reaped by the caller's wait loop). */
static void
pt_kill_all(struct prog_trace *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		kill(t->procs[i].pid, SIGKILL);
}

/* Kill every traced process (prog/wait.h's kill at the end of the run). */
static void
pt_kill_all_cb(void *arg)
{
	pt_kill_all(arg);
}

/* The tracer's kill at the deadline (prog/wait.h): what each thread logged since its last
 * stop is read first (prog_marks_drain_all), then every traced process is killed. */
static void
pt_deadline_cb(void *arg)
{
	prog_marks_drain_all(arg);
	pt_kill_all(arg);
}

/* The end of p (st as waitpid gives it) as a step. */
static void
pt_end_step(const struct prog_trace *t, const struct pt_proc *p, int st, struct prog_step *out)
{
	memset(out, 0, sizeof *out);
	out->kind = PROG_STEP_EXIT;
	out->pid = p->pid;
	out->status = st;
	out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	out->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	out->timed_out = t->w.timed_out;
	out->thread = p->pid != p->tgid;
	out->stdio_fd = -1;
	out->file_fd = -1;
}

/* Keep the stop st of pid to handle once the logged calls queued are returned. */
static void
pt_pend(struct prog_trace *t, pid_t pid, int st)
{
	t->pend = true;
	t->pend_pid = pid;
	t->pend_status = st;
}

/* pt_run's stops, the time the program runs (no wait: 0 when one would be needed). */
static int
pt_run_stops(struct prog_trace *t, struct prog_step *out, bool until_exec, bool wait)
{
	for (;;) {
		struct pt_proc *p;
		int st, sig, ev;
		bool again = false;
		pid_t pid;

		/* A logged call: its thread (or the one stopped after it) stays stopped. */
		if (prog_marks_next(t, out))
			return 1;
		if (t->pend) {
			/* The stop whose logged calls were just returned. */
			t->pend = false;
			pid = t->pend_pid;
			st = t->pend_status;
			again = true;
		} else {
			if (t->nprocs == 0 || !wait)
				return 0;
			pid = prog_wait_any(&t->w, &st, pt_deadline_cb, t);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				if (errno == ECHILD)
					return 0;
				return -1;
			}
			t->st.stops++;
		}
		p = prog_procs_find(t, pid);
		/* The calls logged before this stop or end come first (so do the deadline's). */
		if (!again && p != NULL && t->execed)
			prog_marks_before(t, p, st);
		if (!again && t->qhead < t->qn) {
			pt_pend(t, pid, st);
			continue;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (p == NULL || p->ended) {
				if (p != NULL)
					prog_procs_del(t, p);
				continue;
			}
			pt_end_step(t, p, st, out);
			if (p->pid == p->tgid)
				prog_srcloc_forget(t->src, p->tgid);
			if (pid == t->leader)
				scratch_forget(pid);
			prog_procs_del(t, p);
			if (until_exec && pid == t->leader)
				return 2;
			return 1;
		}
		if (!WIFSTOPPED(st))
			continue;
		if (p == NULL) {
			/* A new child can report before its parent's fork event. */
			p = prog_procs_add(t, pid, NULL, true);
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
				prog_trace_resume(p, 0);
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
				prog_trace_resume(p, 0);
			}
			continue;
		}
		if (sig == SIGTRAP && ev == PTRACE_EVENT_EXEC) {
			pt_on_exec(p);
			prog_srcloc_forget(t->src, p->tgid);
			if (!t->execed) {
				/* The program itself: its execve call becomes the first step. */
				t->execed = true;
				p->call = calls_find(SYS_execve);
				memset(&p->stop, 0, sizeof p->stop);
				p->stop.nr = SYS_execve;
				clock_gettime(CLOCK_MONOTONIC, &p->t0);
				p->has_file = true;
				p->regular = true;
				p->file_fd = -1;
				snprintf(p->path, sizeof p->path, "%s", t->prog);
			}
			prog_trace_resume(p, 0);
			if (until_exec)
				return 1;
			continue;
		}
		if (sig == SIGTRAP && (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
		                       ev == PTRACE_EVENT_CLONE)) {
			unsigned long child = 0;
			ptrace(PTRACE_GETEVENTMSG, pid, 0, &child);
			if (child != 0 && prog_procs_find(t, (pid_t)child) == NULL)
				prog_procs_add(t, (pid_t)child, p, true);
			p = prog_procs_find(t, pid);
			if (p != NULL)
				prog_trace_resume(p, 0);
			continue;
		}
		if (sig == SIGTRAP && ev == PTRACE_EVENT_EXIT && p->pid != p->tgid && t->execed) {
			/* A thread ends, its memory still here (what it logged was read before this
			 * stop): its end is a step now, before the thread that joins it goes on. */
			unsigned long status = 0;
			ptrace(PTRACE_GETEVENTMSG, pid, 0, &status);
			pt_end_step(t, p, (int)status, out);
			p->ended = true;
			goto held;
		}
		if (ev != 0) {
			prog_trace_resume(p, 0);
			continue;
		}
		if (p->fresh && sig == SIGSTOP) {
			p->fresh = false;
			prog_trace_resume(p, 0);
			continue;
		}
		/* A signal for the program: deliver it. A group-stop (no siginfo) is not a
		 * signal to deliver again: the program just goes on (job control is not traced). */
		{
			siginfo_t si;
			if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si) != 0)
				sig = 0;
		}
		prog_trace_resume(p, sig);
	}
held:
	prog_procs_source(t, out);
	t->held = out->pid;
	t->st.steps++;
	out->seq = t->st.steps;
	return 1;
}

/*
 * Run until the next step into *out. With until_exec, return 1 as soon as the leader has
 * exec'd (or 2 if it ended before). 1 = step; 0 = nothing left (without wait: nothing
 * without a wait); -1 = error (ECANCELED: the caller's poll asked to stop).
 */
static int
pt_run(struct prog_trace *t, struct prog_step *out, bool until_exec, bool wait)
{
	int rc;

	if (t->w.cancelled) {
		errno = ECANCELED;
		return -1;
	}
	if (!t->chld_blocked) {
		prog_wait_block(&t->chld_old);
		t->chld_blocked = true;
	}
	prog_wait_go(&t->w);
	rc = pt_run_stops(t, out, until_exec, wait);
	prog_wait_hold(&t->w);
	return rc;
}

/* Start the program (see prog/trace.h). */
int
prog_trace_start(char *const argv[], const struct prog_opts *o, struct prog_trace **out,
                 char **err)
{
	static const struct prog_opts none;
	struct prog_launch_guard guard;
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
		errmsg_set(err, "%s: tracing a program works on x86_64, aarch64 and i386 only", argv[0]);
		errno = ENOSYS;
		return -1;
	}
	if (prog_launch_find(argv[0], o->cwd, prog, sizeof prog, err) != 0)
		return -1;
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
	t->w.guard.pidfd = -1;
	t->src = prog_srcloc_new();
	t->w.poll = o->poll;
	t->w.poll_arg = o->poll_arg;
	memcpy(t->prog, prog, sizeof prog);
	/* The program's orphans (a daemon it forks, a child whose parent ended) come to us, not
	 * to init: prog_trace_free finds and kills them, so nothing it made outlives the run. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* What it traces may not read or write us: our /proc files and memory are root's, ptrace
	 * and process_vm_* refused to the same user (root keeps CAP_SYS_PTRACE: the filter's
	 * guard refuses those calls, prog/launch.c). */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* A watchdog it cannot reach ends it at the deadline, whatever becomes of us. */
	if (o->timeout_ms > 0 && prog_guard_start(&t->w.guard) != 0) {
		rc = errno;
		errmsg_set(err, "%s: cannot start the watchdog: %s", argv[0], strerror(rc));
		close(ep[0]);
		close(ep[1]);
		t->err_fd = -1;
		prog_launch_env_free(env, o);
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	prog_launch_guard_fill(&guard, t->w.guard.pid);
	pid = scratch_fork();
	if (pid == 0)
		prog_launch_child(prog, argv, env, o, &guard, ep[1]);
	rc = errno;
	close(ep[1]);
	prog_launch_env_free(env, o);
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
	                          PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT)) != 0 ||
	    prog_procs_add(t, pid, NULL, false) == NULL) {
		rc = errno;
		errmsg_set(err, "%s: cannot trace it: %s", argv[0], strerror(rc));
		kill(pid, SIGKILL);
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	/* From here: its setup (a stdin that never opens) and its exec count too. */
	t->w.wall = o->timeout_wall;
	prog_wait_deadline(&t->w, o->timeout_ms);
	ptrace(PTRACE_CONT, pid, 0, 0);
	rc = pt_run(t, &step, true, true);
	if (rc != 1) {
		rc = prog_launch_failure(t->err_fd, rc, t->w.timed_out, argv[0], err);
		prog_trace_free(t);
		errno = rc;
		return -1;
	}
	/* The execve's end comes right after its exec event: taken now, its time is the
	 * program's, not the time the person takes to ask for the first step. */
	if (waitpid(pid, &st, __WALL) == pid) {
		clock_gettime(CLOCK_MONOTONIC, &t->exec_end);
		t->exec_end_set = true;
		t->st.stops++;
		pt_pend(t, pid, st);
	}
	*out = t;
	return 0;
}

/* The next step (without wait: only one the tracer has already). */
static int
pt_next(struct prog_trace *t, struct prog_step *out, bool wait)
{
	if (t->held > 0) {
		struct pt_proc *p = prog_procs_find(t, t->held);
		/* Held at a call's entry (a stores step): the call's time starts now. */
		if (p != NULL && p->in_sys)
			clock_gettime(CLOCK_MONOTONIC, &p->t0);
		if (p != NULL)
			prog_trace_resume(p, 0);
		t->held = -1;
	}
	/* A logged call queued: its thread stays stopped (no wait, so no signal mask nor clock). */
	return !t->w.cancelled && prog_marks_next(t, out) ? 1 : pt_run(t, out, false, wait);
}

/* The next step. */
int
prog_trace_next(struct prog_trace *t, struct prog_step *out)
{
	return pt_next(t, out, true);
}

/* The next step the tracer has without waiting for the program (prog/trace.h). */
int
prog_trace_poll(struct prog_trace *t, struct prog_step *out)
{
	return pt_next(t, out, false);
}

/* A process the end of the run reaped (prog/wait.h): forget it. */
static void
pt_gone(pid_t pid, void *arg)
{
	struct prog_trace *t = arg;
	struct pt_proc *p = prog_procs_find(t, pid);

	if (p != NULL)
		prog_procs_del(t, p);
}

/* Kill the whole tree and free t. */
void
prog_trace_free(struct prog_trace *t)
{
	if (t == NULL)
		return;
	prog_wait_reap_all(pt_kill_all_cb, pt_gone, t, PT_REAP_GRACE_S);
	if (t->chld_blocked)
		sigprocmask(SIG_SETMASK, &t->chld_old, NULL);
	prog_guard_stop(&t->w.guard);
	scratch_forget(t->leader);
	while (t->nprocs > 0)
		prog_procs_del(t, &t->procs[0]);
	for (size_t i = t->qhead; i < t->qn; i++)
		event_list_clear(&t->q[i].calls);
	free(t->q);
	prog_fds_map_free(&t->maps);
	prog_srcloc_free(t->src);
	if (t->err_fd > 0)
		close(t->err_fd);
	free(t->procs);
	free(t);
}
