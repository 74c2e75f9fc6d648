/* SPDX-License-Identifier: MIT */
/* trace/tracer.c: ptrace(PTRACE_SEIZE ... PTRACE_SYSCALL) the worker, as strace does, and keep
 * the calls on the scratch file: name, fd, size, offset, result, errno and time. */
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/peek.h"
#include "trace/tracer.h"
#include "base/units.h"

#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(__i386__)
#error "tracer.c knows the syscall registers of x86_64, aarch64 and i386 only; add your arch's to tracer_regs()"
#endif

/* What a syscall stop showed. */
struct tracer_info {
	int op;                    /* PTRACE_SYSCALL_INFO_ENTRY / _EXIT / _NONE */
	uint64_t nr;
	uint64_t args[6];
	int64_t rval;
	bool is_error;
};

/* A call between its entry and its exit stop. */
struct tracer_pending {
	bool on;                   /* an entry was seen and not yet its exit */
	struct decode_stop stop;   /* its number and arguments; the result at exit */
	const struct call_row *call;  /* NULL: not one we record */
	bool relevant;             /* its fd is the scratch file */
	bool path_match;           /* open/openat of the scratch path */
	bool maybe_badf;           /* its fd is the watched (maybe closed) fd */
	struct timespec t0;
};

#define TRACER_FD_CACHE 1024

struct tracer {
	pid_t pid;
	int idle_fd;
	char path[PATH_MAX];
	dev_t dev;
	ino_t ino;
	bool use_regs;             /* PTRACE_GET_SYSCALL_INFO missing: read registers */
	bool in_sys;               /* register fallback: entry/exit toggle */
	bool gone;
	bool killed;               /* the poll asked to stop: SIGKILL sent */
	bool child;                /* pid is a child of the worker's, followed after its fork */
	int (*poll)(void *);       /* tracer_set_poll; NULL: none */
	void *poll_user;
	signed char fdc[TRACER_FD_CACHE];  /* 0 unknown, 1 scratch file, -1 something else */
	struct tracer_pending pend;
};

/* Register fallback for kernels without PTRACE_GET_SYSCALL_INFO (before 5.3). */
static int
tracer_regs(struct tracer *t, struct tracer_info *in)
{
#if defined(__x86_64__)
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, t->pid, 0, &r) != 0)
		return -1;
	/* At entry the kernel has put -ENOSYS in rax. */
	if ((int64_t)r.rax == -ENOSYS && !t->in_sys) {
		in->op = PTRACE_SYSCALL_INFO_ENTRY;
		in->nr = r.orig_rax;
		in->args[0] = r.rdi;
		in->args[1] = r.rsi;
		in->args[2] = r.rdx;
		in->args[3] = r.r10;
		in->args[4] = r.r8;
		in->args[5] = r.r9;
	} else {
		in->op = PTRACE_SYSCALL_INFO_EXIT;
		in->rval = (int64_t)r.rax;
		in->is_error = (uint64_t)r.rax > (uint64_t)-4096;
	}
#elif defined(__aarch64__)
	struct user_regs_struct r;
	struct iovec iov = { &r, sizeof r };

	if (ptrace(PTRACE_GETREGSET, t->pid, (void *)NT_PRSTATUS, &iov) != 0)
		return -1;
	if (!t->in_sys) {
		in->op = PTRACE_SYSCALL_INFO_ENTRY;
		in->nr = r.regs[8];
		for (int i = 0; i < 6; i++)
			in->args[i] = r.regs[i];
	} else {
		in->op = PTRACE_SYSCALL_INFO_EXIT;
		in->rval = (int64_t)r.regs[0];
		in->is_error = (uint64_t)r.regs[0] > (uint64_t)-4096;
	}
#elif defined(__i386__)
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, t->pid, 0, &r) != 0)
		return -1;
	/* As on x86_64: -ENOSYS in eax at entry; the number in orig_eax, the arguments in
	 * ebx, ecx, edx, esi, edi, ebp (32 bits each: calls_fold_args joins the pairs). */
	if (r.eax == -ENOSYS && !t->in_sys) {
		in->op = PTRACE_SYSCALL_INFO_ENTRY;
		in->nr = (uint32_t)r.orig_eax;
		in->args[0] = (uint32_t)r.ebx;
		in->args[1] = (uint32_t)r.ecx;
		in->args[2] = (uint32_t)r.edx;
		in->args[3] = (uint32_t)r.esi;
		in->args[4] = (uint32_t)r.edi;
		in->args[5] = (uint32_t)r.ebp;
	} else {
		in->op = PTRACE_SYSCALL_INFO_EXIT;
		in->rval = (int32_t)r.eax;
		in->is_error = (uint32_t)r.eax > (uint32_t)-4096;
	}
#endif
	t->in_sys = in->op == PTRACE_SYSCALL_INFO_ENTRY;
	return 0;
}

static int tracer_info_raw(struct tracer *t, struct tracer_info *in);

/* Entry or exit, syscall number, arguments (register pairs joined), result. */
static int
tracer_info(struct tracer *t, struct tracer_info *in)
{
	if (tracer_info_raw(t, in) != 0)
		return -1;
	if (in->op == PTRACE_SYSCALL_INFO_ENTRY)
		calls_fold_args(in->nr, in->args);
	else if (in->op == PTRACE_SYSCALL_INFO_EXIT)
		in->rval = calls_fold_rval(in->rval, in->is_error);
	return 0;
}

/* Entry or exit, syscall number, arguments, result: arch-neutral when the kernel can. */
static int
tracer_info_raw(struct tracer *t, struct tracer_info *in)
{
	struct __ptrace_syscall_info si;

	memset(in, 0, sizeof *in);
	if (!t->use_regs) {
		memset(&si, 0, sizeof si);
		if (ptrace(PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof si, &si) > 0) {
			in->op = si.op;
			if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
				in->nr = si.entry.nr;
				memcpy(in->args, si.entry.args, sizeof in->args);
			} else if (si.op == PTRACE_SYSCALL_INFO_EXIT) {
				in->rval = si.exit.rval;
				in->is_error = si.exit.is_error != 0;
			}
			return 0;
		}
		if (errno != EIO && errno != EINVAL)
			return -1;
		t->use_regs = true;
	}
	return tracer_regs(t, in);
}

/*
 * True if the tracee's fd p (/proc/PID/fd/N) is its working directory or a file in it, on the
 * scratch file's device: the lesson's other files (file:) and its directory.
 */
static bool
tracer_fd_in_dir(const struct tracer *t, const char *p, const struct stat *sb)
{
	char cwd[PATH_MAX], link[64], path[PATH_MAX];
	struct stat cs;
	ssize_t n, k;
	char *slash;

	snprintf(link, sizeof link, "/proc/%d/cwd", (int)t->pid);
	if ((n = readlink(link, cwd, sizeof cwd - 1)) <= 0 ||
	    (k = readlink(p, path, sizeof path - 1)) <= 0)
		return false;
	cwd[n] = path[k] = '\0';
	/* On overlayfs a directory reports the overlay's device and a file its layer's: a file
	 * of another device counts when the directory itself is the scratch one (never a crash
	 * lab's root "/", mounted nowhere, whose name any file of the machine's "/" shares). */
	if (sb->st_dev != t->dev &&
	    (strcmp(cwd, "/") == 0 || stat(link, &cs) != 0 || cs.st_dev != t->dev))
		return false;
	if (strcmp(cwd, path) == 0)
		return true;
	if ((slash = strrchr(path, '/')) == NULL)
		return false;
	/* A file of the root: "/name" (a crash lab is mounted nowhere, its root is "/"). */
	*(slash == path ? slash + 1 : slash) = '\0';
	return strcmp(cwd, path) == 0;
}

/* True if the tracee's fd names the scratch file (by device and inode, through /proc) or
 * another file of its directory. */
static bool
tracer_fd_is_file(struct tracer *t, int64_t fd)
{
	char p[64];
	struct stat sb;
	bool yes;

	if (fd < 0 || fd > INT_MAX)
		return false;
	if (fd < TRACER_FD_CACHE && t->fdc[fd] != 0)
		return t->fdc[fd] > 0;
	snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)t->pid, (int)fd);
	/* A closed fd is not cached: the number may be handed out again. */
	if (stat(p, &sb) != 0)
		return false;
	yes = (sb.st_dev == t->dev && sb.st_ino == t->ino) || tracer_fd_in_dir(t, p, &sb);
	if (fd < TRACER_FD_CACHE)
		t->fdc[fd] = yes ? 1 : -1;
	return yes;
}

/* Forget what fd named (after close, dup2 onto it, or a new fd with its number). */
static void
tracer_fd_forget(struct tracer *t, int64_t fd)
{
	if (fd >= 0 && fd < TRACER_FD_CACHE)
		t->fdc[fd] = 0;
}

/* A syscall-entry stop: note what the call is about; decide at exit whether to keep it. */
static void
tracer_entry(struct tracer *t, const struct tracer_info *in, int watch_fd)
{
	struct tracer_pending *p = &t->pend;
	struct peek m = peek_pid(t->pid);
	char path[PATH_MAX];
	const struct call_row *c = calls_find(in->nr);
	int fd;

	memset(p, 0, sizeof *p);
	p->on = true;
	p->stop.nr = in->nr;
	memcpy(p->stop.args, in->args, sizeof p->stop.args);
	p->call = c;
	if (c == NULL)
		return;
	event_decode_entry(c, &p->stop, &m);
	if (c->flags & CALL_FD) {
		fd = calls_fd(c, in->args, &m);
		p->relevant = tracer_fd_is_file(t, fd) ||
		              (c->fd2 >= 0 && tracer_fd_is_file(t, (int)in->args[(int)c->fd2]));
		p->maybe_badf = !p->relevant && fd >= 0 && fd == watch_fd;
	} else if ((c->flags & CALL_PATH) && (c->flags & CALL_NEWFD)) {
		p->path_match = peek_str(&m, in->args[(int)c->path], path, sizeof path) &&
		                strcmp(path, t->path) == 0;
	} else if (c->flags & (CALL_ALL_FILES | CALL_NAMES)) {
		/* sync(); a rename: the worker renames only the lesson's own files. */
		p->relevant = true;
	}
}

/* The event of a finished call, as this tracer records it (see trace/tracer.h). */
void
tracer_event(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
             struct event *e)
{
	event_decode(c, s, m, e);
}

/* A syscall-exit stop: keep the event if it concerned the file; keep the fd cache true. */
static int
tracer_exit(struct tracer *t, const struct tracer_info *in, const struct timespec *t1,
            enum ev_origin origin, struct event_list *out)
{
	struct tracer_pending *p = &t->pend;
	const struct call_row *c = p->call;
	struct peek m = peek_pid(t->pid);
	struct event e;

	if (!p->on)
		return 0;
	p->on = false;
	p->stop.rval = in->rval;
	p->stop.is_error = in->is_error;

	/* Numbers that may now name something else. */
	if (c != NULL && (c->flags & CALL_CLOSE) && c->fd2 >= 0)
		memset(t->fdc, 0, sizeof t->fdc);
	else if (c != NULL && (c->flags & CALL_CLOSE))
		tracer_fd_forget(t, (int64_t)p->stop.args[(int)c->fd]);
	if (!in->is_error && (c == NULL || calls_made_fd(c, p->stop.args, in->rval, false)))
		tracer_fd_forget(t, in->rval);

	if (c == NULL || out == NULL)
		return 0;
	if ((c->flags & CALL_PATH) && (c->flags & CALL_NEWFD))
		p->relevant = p->path_match || (!in->is_error && tracer_fd_is_file(t, in->rval));
	if (p->maybe_badf && in->is_error && in->rval == -EBADF)
		p->relevant = true;
	if (!p->relevant)
		return 0;

	tracer_event(c, &p->stop, &m, &e);
	e.ns = units_ns_between(&p->t0, t1);
	e.ns_traced = true;
	e.origin = origin;
	e.child = t->child;
	return event_list_add(out, &e) != 0 ? -1 : 0;
}

/* Let the tracee run to its next syscall stop, delivering sig (0: none). */
static int
tracer_resume(struct tracer *t, int sig)
{
	if (t->pend.on && t->pend.call != NULL)
		clock_gettime(CLOCK_MONOTONIC, &t->pend.t0);
	if (ptrace(PTRACE_SYSCALL, t->pid, 0, (void *)(uintptr_t)sig) == 0)
		return 0;
	/* ESRCH: killed under us; waitpid() will say how. */
	return errno == ESRCH ? 0 : -1;
}

static int tracer_loop(struct tracer *t, enum ev_origin origin, int watch_fd,
		       struct event_list *out, int *status);

/*
 * At the worker's fork stop: follow the new child (auto-attached, PTRACE_O_TRACEFORK) to its
 * end, recording its calls marked as the child's, while the worker waits in that stop. An op's
 * child ends at once (ops_child_end), so this order is the one the calls really had. 0, or -1
 * (ENOMEM: events were lost).
 */
static int
tracer_child(struct tracer *t, enum ev_origin origin, int watch_fd, struct event_list *out)
{
	unsigned long msg = 0;
	struct tracer *saved;
	bool killed;
	int st = 0, rc;

	if (t->child || ptrace(PTRACE_GETEVENTMSG, t->pid, 0, &msg) != 0 || msg == 0)
		return 0;
	saved = malloc(sizeof *saved);
	if (saved == NULL) {
		kill((pid_t)msg, SIGKILL);
		errno = ENOMEM;
		return -1;
	}
	*saved = *t;
	t->pid = (pid_t)msg;
	t->in_sys = false;
	t->pend.on = false;
	t->gone = false;
	t->child = true;
	rc = tracer_loop(t, origin, watch_fd, out, &st);
	if (rc == 0) /* it went idle instead of ending: not an op's child; let it go */
		kill(t->pid, SIGKILL);
	killed = t->killed;
	*t = *saved; /* the worker's own state: its fd cache, its pending call */
	free(saved);
	if (killed && !t->killed) {
		kill(t->pid, SIGKILL);
		t->killed = true;
	}
	return rc < 0 ? -1 : 0;
}

/*
 * Wait for stops until the tracee enters read(idle_fd), recording into out (NULL: only
 * watch). 0 idle, 1 ended (*status), -1 error (ENOMEM: idle, but events were lost).
 */
static int
tracer_loop(struct tracer *t, enum ev_origin origin, int watch_fd, struct event_list *out,
            int *status)
{
	struct tracer_info in;
	struct timespec t1;
	bool lost = false;         /* an event could not be stored (ENOMEM) */
	int st;

	for (;;) {
		int sig, event, inject = 0;
		pid_t w = waitpid(t->pid, &st, __WALL);

		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* Asked to stop: kill it; the next waitpid() reports its end. */
		if (t->poll != NULL && !t->killed && t->poll(t->poll_user) != 0) {
			kill(t->pid, SIGKILL);
			t->killed = true;
		}
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			t->gone = true;
			if (status != NULL)
				*status = st;
			return 1;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		event = (int)((unsigned)st >> 16);
		if (sig == (SIGTRAP | 0x80)) {
			if (tracer_info(t, &in) != 0) {
				if (errno != ESRCH)
					return -1;
			} else if (in.op == PTRACE_SYSCALL_INFO_ENTRY) {
				if (in.nr == SYS_read && (int)in.args[0] == t->idle_fd) {
					t->pend.on = false;
					if (lost)
						errno = ENOMEM;
					return lost ? -1 : 0;
				}
				tracer_entry(t, &in, watch_fd);
			} else if (in.op == PTRACE_SYSCALL_INFO_EXIT) {
				if (tracer_exit(t, &in, &t1, origin, out) != 0)
					lost = true;
			}
		} else if (event == PTRACE_EVENT_FORK) {
			if (tracer_child(t, origin, watch_fd, out) != 0)
				lost = true;
		} else if (event == PTRACE_EVENT_STOP) {
			/* Group stop or our PTRACE_INTERRUPT: keep it running. */
			t->in_sys = false;
		} else if (event == 0) {
			/* Signal-delivery stop: give the signal back, as if nobody watched. */
			inject = sig;
		}
		if (tracer_resume(t, inject) != 0)
			return -1;
	}
}

/* Seize the worker and run it to its first idle read. */
int
tracer_attach(pid_t pid, int idle_fd, const char *path, dev_t dev, ino_t ino,
              struct tracer **out, int *status)
{
	struct tracer *t;
	int rc, e;

	*out = NULL;
	if (strlen(path) >= sizeof t->path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL |
						  PTRACE_O_TRACEFORK)) != 0)
		return -1;
	t = calloc(1, sizeof *t);
	if (t == NULL) {
		e = errno;
		ptrace(PTRACE_DETACH, pid, 0, 0);
		errno = e;
		return -1;
	}
	t->pid = pid;
	t->idle_fd = idle_fd;
	memcpy(t->path, path, strlen(path) + 1);
	t->dev = dev;
	t->ino = ino;
	/* Stop it wherever it is; from there on every syscall stops. */
	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) != 0) {
		e = errno;
		free(t);
		errno = e;
		return -1;
	}
	rc = tracer_loop(t, EV_DIRECT, -2, NULL, status);
	if (rc != 0) {
		e = rc < 0 ? errno : ECHILD;
		free(t);
		errno = e;
		return -1;
	}
	*out = t;
	return 0;
}

/* Run one step from idle to idle, recording. */
int
tracer_step(struct tracer *t, enum ev_origin origin, int watch_fd, struct event_list *out,
            int *status)
{
	if (t->gone) {
		errno = ECHILD;
		return -1;
	}
	if (tracer_resume(t, 0) != 0)
		return -1;
	return tracer_loop(t, origin, watch_fd, out, status);
}

/* Ask fn(user) after every stop and interruption whether to stop the step. */
void
tracer_set_poll(struct tracer *t, int (*fn)(void *), void *user)
{
	t->poll = fn;
	t->poll_user = user;
}

/* Forget the tracee. */
void
tracer_free(struct tracer *t)
{
	free(t);
}
