/* SPDX-License-Identifier: MIT */
/* launch.c: start a program to trace (see prog/launch.h). */
#include <config.h>

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/capability.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "trace/calls.h"
#include "prog/launch.h"
#include "shim/protocol.h"

/*
 * Load prog. SECCOMP_FILTER_FLAG_SPEC_ALLOW: otherwise the kernel turns on the speculative
 * store bypass mitigation for the whole program, which slows its plain computing by tens of
 * percent: the program is to run as fast as it does untraced.
 */
static int
prog_launch_filter_set(struct sock_fprog *prog)
{
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, prog) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	/* A kernel older than 4.17 has no such flag. */
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog);
}

/* clone's and clone3's numbers in the other ABI a program can also call (int $0x80 on
 * x86_64, AArch32 on aarch64: the same on i386 and arm; on i386 under a 64-bit kernel, a
 * far jump to a 64-bit code segment and syscall: x86_64's). */
#if defined(__x86_64__)
#define PL_COMPAT_ARCH AUDIT_ARCH_I386
#define PL_X32_BIT 0x40000000u      /* x32 calls: x86_64's numbers with this bit */
#define PL_COMPAT_CLONE 120u
#elif defined(__aarch64__)
#define PL_COMPAT_ARCH AUDIT_ARCH_ARM
#define PL_X32_BIT 0u
#define PL_COMPAT_CLONE 120u
#elif defined(__i386__)
#define PL_COMPAT_ARCH AUDIT_ARCH_X86_64
#define PL_X32_BIT 0u
#define PL_COMPAT_CLONE 56u
#else
#define PL_COMPAT_ARCH 0u
#define PL_X32_BIT 0u
#define PL_COMPAT_CLONE 120u
#endif
#define PL_COMPAT_CLONE3 435u

/* The guard's calls in the compat ABI (i386 on x86_64, AArch32 on aarch64): kill, tkill,
 * tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, ptrace, process_vm_readv/writev, prlimit64;
 * pidfd_open and pidfd_send_signal are numbered alike everywhere. */
#if defined(__x86_64__)
#define PL_COMPAT_GUARD { 37, 270, 178, 335, 347, 348, 340, 434 }, { 26, 238, 424 }
#elif defined(__aarch64__)
#define PL_COMPAT_GUARD { 37, 268, 178, 363, 376, 377, 369, 434 }, { 26, 238, 424 }
#endif

/* The most pids a guard refuses, and the most calls of each kind it checks. */
#define PL_GUARD_VALS (PROG_LAUNCH_GUARD_MAX + 1)
#define PL_GUARD_CALLS 16
/* One guard block's length at most: ld, the jumps, ja, ld, the values, ja, ret. */
#define PL_GUARD_LEN (1 + 2 * PL_GUARD_CALLS + 1 + 1 + PL_GUARD_VALS + 1 + 1)

/* Room for the filter: the call table's jumps, the fixed parts around them, two guards. */
#define PL_FILTER_MAX (CALLS_MAX + 48 + 2 * PL_GUARD_LEN)

/*
 * Append to f the rule no traced program escapes by: clone3 fails with ENOSYS (its flags are
 * in memory a filter cannot read; glibc then falls back to clone), clone with CLONE_UNTRACED
 * fails with EPERM (its child would run, and outlive the run, unseen). Leaves anything in A.
 */
static void
prog_launch_filter_clone(struct sock_filter *f, size_t *n, unsigned clone_nr, unsigned clone3_nr)
{
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	f[(*n)++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, clone3_nr, 0, 1);
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	f[(*n)++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, clone_nr, 0, 3);
	/* The flags are the low word of args[0] (little-endian on both arches). */
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	f[(*n)++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_UNTRACED, 0, 1);
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
}

/*
 * Append to f the guard of one ABI: the calls of byarg (their first argument a pid: kill,
 * tgkill, the rt_*sigqueueinfo, process_vm_*, prlimit64, pidfd_open) fail with EPERM when
 * it is one of g's, or -1 (every process the user may signal); those of always (ptrace, tkill,
 * pidfd_send_signal, whose target a filter cannot see) always fail with EPERM. Leaves
 * anything in A.
 */
static void
prog_launch_filter_guard(struct sock_filter *f, size_t *n, const unsigned *byarg, size_t nb,
                         const unsigned *always, size_t na, const struct prog_launch_guard *g)
{
	size_t nv = 0, jumps, refuse;
	unsigned vals[PL_GUARD_VALS];

	for (size_t i = 0; i < g->n && nv + 1 < PL_GUARD_VALS; i++)
		vals[nv++] = (unsigned)g->pid[i];
	vals[nv++] = (unsigned)-1;
	if (nb > PL_GUARD_CALLS)
		nb = PL_GUARD_CALLS;
	if (na > PL_GUARD_CALLS)
		na = PL_GUARD_CALLS;
	/* Layout from jumps: na + nb jumps, ja out, ld args[0], nv jumps, ja out, ret EPERM. */
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	jumps = *n;
	refuse = jumps + na + nb + 2 + nv + 1;
	for (size_t i = 0; i < na; i++, (*n)++)
		f[*n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, always[i],
		                                     (unsigned char)(refuse - *n - 1), 0);
	for (size_t i = 0; i < nb; i++, (*n)++)
		f[*n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, byarg[i],
		                                     (unsigned char)(jumps + na + nb + 1 - *n - 1), 0);
	f[*n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, (unsigned)(refuse - *n), 0, 0);
	(*n)++;
	/* The pid: the low word of args[0] (an int; little-endian on both arches). */
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	for (size_t i = 0; i < nv; i++, (*n)++)
		f[*n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, vals[i],
		                                     (unsigned char)(refuse - *n - 1), 0);
	f[(*n)++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, 1, 0, 0);
	f[(*n)++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
}

/* The native ABI's guard (and x32's, on x86_64): see prog_launch_filter_guard. */
static void
prog_launch_filter_guard_native(struct sock_filter *f, size_t *n, const struct prog_launch_guard *g)
{
	unsigned byarg[PL_GUARD_CALLS] = { SYS_kill, SYS_tgkill, SYS_rt_sigqueueinfo,
	                                   SYS_rt_tgsigqueueinfo, SYS_process_vm_readv,
	                                   SYS_process_vm_writev, SYS_prlimit64, SYS_pidfd_open };
	unsigned always[PL_GUARD_CALLS] = { SYS_ptrace, SYS_tkill, SYS_pidfd_send_signal };
	size_t nb = 8, na = 3;

	if (PL_X32_BIT != 0) {
		/* x32's own numbers where they differ (ptrace 521, the sigqueueinfos 524 and 536,
		 * process_vm_* 539 and 540), else x86_64's, with the x32 bit. */
		static const unsigned x32_byarg[] = { 62, 234, 524, 536, 539, 540, 302, 434 };
		static const unsigned x32_always[] = { 521, 200, 424 };
		for (size_t i = 0; i < 8; i++)
			byarg[nb++] = x32_byarg[i] | PL_X32_BIT;
		for (size_t i = 0; i < 3; i++)
			always[na++] = x32_always[i] | PL_X32_BIT;
	}
	prog_launch_filter_guard(f, n, byarg, nb, always, na, g);
}

/*
 * Install the filter: clone with CLONE_UNTRACED and clone3 refused (in every ABI the program
 * can call); SECCOMP_RET_TRACE for the calls of the table (trace/calls.h; prctl only with
 * the marker option) and for any other arch's calls; SECCOMP_RET_ALLOW for the rest.
 */
static int
prog_launch_filter(const struct prog_launch_guard *g)
{
	struct sock_filter f[PL_FILTER_MAX];
	struct sock_fprog prog;
	size_t n = 0, first, compat, ncalls = calls_n < CALLS_MAX ? calls_n : CALLS_MAX;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	/* [1]: another arch jumps to the compat part (its offset is set below). */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CALLS_AUDIT_ARCH, 0, 0);
	prog_launch_filter_clone(f, &n, SYS_clone, SYS_clone3);
	if (PL_X32_BIT != 0)
		prog_launch_filter_clone(f, &n, SYS_clone | PL_X32_BIT, SYS_clone3 | PL_X32_BIT);
	prog_launch_filter_guard_native(f, &n, g);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* Layout from first: one jeq per call, ALLOW at first + ncalls, the prctl check (3),
	 * TRACE at first + ncalls + 4. */
	first = n;
	for (size_t i = 0; i < ncalls; i++, n++) {
		if (calls_table[i].flags & CALL_MARK)
			f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			                                    (unsigned)calls_table[i].nr,
			                                    (unsigned char)(first + ncalls - n), 0);
		else
			f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			                                    (unsigned)calls_table[i].nr,
			                                    (unsigned char)(first + ncalls + 3 - n), 0);
	}
	/* Nothing matched. */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* prctl: its option is the low word of args[0] (little-endian on both arches). */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)PROG_MARK_OPTION, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	/* Another arch: the same refusal in the compat ABI, then the tracer decides. */
	compat = n;
	if (compat - 2 > UCHAR_MAX) {
		errno = E2BIG;
		return -1;
	}
	f[1].jf = (unsigned char)(compat - 2);
#ifdef PL_COMPAT_GUARD
	{
		static const unsigned cg[][PL_GUARD_CALLS] = { PL_COMPAT_GUARD };
		size_t skip;
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
		skip = n++;
		prog_launch_filter_clone(f, &n, PL_COMPAT_CLONE, PL_COMPAT_CLONE3);
		prog_launch_filter_guard(f, &n, cg[0], 8, cg[1], 3, g);
		f[skip] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PL_COMPAT_ARCH, 0,
		                                       (unsigned char)(n - skip - 1));
	}
#endif
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	_Static_assert(PL_FILTER_MAX >= CALLS_MAX + 2 + 2 * 7 + 1 + 5 + 2 + 7 + 1 + 2 * PL_GUARD_LEN,
	               "the filter fits its array");
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prog_launch_filter_set(&prog) == 0)
		return 0;
	/* Without CAP_SYS_ADMIN a filter needs no_new_privs (set-uid programs then lose it). */
	if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prog_launch_filter_set(&prog);
}

/* The pids the program may not reach (see prog/launch.h). */
void
prog_launch_guard_fill(struct prog_launch_guard *g, pid_t watchdog)
{
	g->n = 0;
	g->pid[g->n++] = getpid();
	g->pid[g->n++] = -getpgrp();
	if (getppid() > 1) {
		g->pid[g->n++] = getppid();
		g->pid[g->n++] = -getpgid(getppid());
	}
	if (watchdog > 0) {
		g->pid[g->n++] = watchdog;
		g->pid[g->n++] = -watchdog;
	}
}

/* Whether path is a regular executable file; its identity into *st. */
static bool
prog_launch_runnable(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode) && access(path, X_OK) == 0;
}

/*
 * Resolve argv0 as execvp would, where we are: a path if it has a '/', else the first hit in
 * PATH, made absolute when a relative PATH entry found it (the child changes into cwd before
 * it runs it). -1 with errno 0: not found; EEXIST: a relative entry found it here and names
 * another program in cwd (*amb: the entry's length, at **entry).
 */
static int
prog_launch_lookup(const char *argv0, const char *cwd, char *buf, size_t len,
                   const char **entry, size_t *amb)
{
	const char *path = getenv("PATH");
	struct stat st, other;

	if (*argv0 == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (strchr(argv0, '/') != NULL) {
		if ((size_t)snprintf(buf, len, "%s", argv0) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (stat(buf, &st) != 0)
			return -1;
		if (S_ISDIR(st.st_mode) || access(buf, X_OK) != 0) {
			errno = EACCES;
			return -1;
		}
		return 0;
	}
	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *d = path; d != NULL; d = strchr(d, ':') ? strchr(d, ':') + 1 : NULL) {
		size_t dl = strcspn(d, ":");
		char here[PATH_MAX], rel[PATH_MAX], there[PATH_MAX * 2];
		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)dl, d, dl ? "/" : "", argv0) >= len)
			continue;
		if (!prog_launch_runnable(buf, &st))
			continue;
		if (buf[0] == '/')
			return 0;
		/* A relative entry ("", ".", "bin"): the shell's answer is where we are. */
		snprintf(rel, sizeof rel, "%s", buf);
		if (getcwd(here, sizeof here) == NULL ||
		    (size_t)snprintf(buf, len, "%s/%s", here, rel) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		snprintf(there, sizeof there, "%s/%s", cwd != NULL ? cwd : here, rel);
		if (cwd != NULL && prog_launch_runnable(there, &other) &&
		    (other.st_dev != st.st_dev || other.st_ino != st.st_ino)) {
			*entry = d;
			*amb = dl;
			errno = EEXIST;
			return -1;
		}
		return 0;
	}
	errno = 0;               /* not found: said as "command not found" */
	return -1;
}

/* Resolve argv0, or say why not. */
int
prog_launch_find(const char *argv0, const char *cwd, char *buf, size_t len, char **err)
{
	const char *entry = "";
	size_t amb = 0;

	if (prog_launch_lookup(argv0, cwd, buf, len, &entry, &amb) == 0)
		return 0;
	if (errno == 0) {
		errmsg_set(err, "%s: command not found", argv0);
		errno = ENOENT;
	} else if (errno == EEXIST) {
		errmsg_set(err, "%s: found as %s through the relative PATH entry \"%.*s\", which names "
		           "another %s in the directory the program runs in (%s): refused as ambiguous; "
		           "give its path (./%s) or an absolute PATH", argv0, buf, (int)amb, entry,
		           argv0, cwd, argv0);
		errno = EEXIST;
	} else {
		errmsg_set(err, "%s: %s", argv0, strerror(errno));
	}
	return -1;
}

/* The environment for the child: o->envp or ours, with the shim first in LD_PRELOAD. */
char **
prog_launch_env(const struct prog_opts *o)
{
	extern char **environ;
	char *const *src = o->envp != NULL ? o->envp : environ;
	const char *old = NULL;
	size_t n = 0, k = 0;
	char **env;

	while (src[n] != NULL)
		n++;
	env = calloc(n + 2, sizeof *env);
	if (env == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (o->preload != NULL && strncmp(src[i], "LD_PRELOAD=", 11) == 0) {
			old = src[i] + 11;
			continue;
		}
		env[k++] = src[i];
	}
	if (o->preload != NULL) {
		char *p;
		if (asprintf(&p, "LD_PRELOAD=%s%s%s", o->preload, old && *old ? ":" : "",
		             old ? old : "") < 0) {
			free(env);
			return NULL;
		}
		env[k++] = p;
	}
	env[k] = NULL;
	return env;
}

/* Free what prog_launch_env made. */
void
prog_launch_env_free(char **env, const struct prog_opts *o)
{
	for (size_t i = 0; o->preload != NULL && env != NULL && env[i] != NULL; i++)
		if (strncmp(env[i], "LD_PRELOAD=", 11) == 0)
			free(env[i]);
	free(env);
}

/* Why the child did not start: its report on efd, or how the wait for it ended. */
int
prog_launch_failure(int efd, int rc, bool timed_out, const char *argv0, char **err)
{
	static const char *const stage[] = { "", "stdin", "stdout", "stderr", "working directory",
	                                     "seccomp filter", "new session" };
	int e = errno;
	struct prog_launch_fail f = { 0, 0 };
	/* Only once the child has ended is its report complete (or known to be missing). */
	ssize_t n = rc == 2 ? read(efd, &f, sizeof f) : 0;

	if (n == (ssize_t)sizeof f && f.stage == 0)
		errmsg_set(err, "%s: %s", argv0, strerror(f.err));
	else if (n == (ssize_t)sizeof f && f.stage > 0 &&
	         (size_t)f.stage < sizeof stage / sizeof stage[0])
		errmsg_set(err, "%s: %s: %s", argv0, stage[f.stage], strerror(f.err));
	else if (timed_out)
		errmsg_set(err, "%s: did not start within the timeout", argv0);
	else if (rc < 0)
		errmsg_set(err, "%s: %s", argv0, strerror(e));
	else
		errmsg_set(err, "%s: ended before it started", argv0);
	return n == (ssize_t)sizeof f ? f.err : timed_out ? ETIMEDOUT : rc < 0 ? e : ECHILD;
}

/* Redirect fd to path (opened with flags) in the child. 0, or -1. */
static int
prog_launch_redirect(int fd, const char *path, int flags)
{
	int f;

	if (path == NULL)
		return 0;
	f = open(path, flags | O_CLOEXEC | O_NOCTTY, 0644);
	if (f < 0)
		return -1;
	if (f != fd && dup2(f, fd) < 0)
		return -1;
	if (f != fd)
		close(f);
	return 0;
}

/* In the child: stop for the tracer, set up, install the filter, exec. Never returns. */
_Noreturn void
prog_launch_child(const char *prog, char *const argv[], char **env, const struct prog_opts *o,
                  const struct prog_launch_guard *g, int efd)
{
	struct prog_launch_fail f = { 0, 0 };

	if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0 || raise(SIGSTOP) != 0)
		_exit(126);
	/* A session of its own, with no controlling terminal: /dev/tty fails (ENXIO), and no
	 * signal of the user's terminal (^C, SIGHUP, job control) reaches it but through us. */
	if (setsid() < 0)
		f.stage = 6;
	else if (prog_launch_redirect(0, o->stdin_path, O_RDONLY | O_NOCTTY) != 0)
		f.stage = 1;
	else if (prog_launch_redirect(1, o->stdout_path, O_WRONLY | O_CREAT | O_TRUNC) != 0)
		f.stage = 2;
	else if (prog_launch_redirect(2, o->stderr_path, O_WRONLY | O_CREAT | O_TRUNC) != 0)
		f.stage = 3;
	else if (o->cwd_fd > 2 ? fchdir(o->cwd_fd) != 0 : o->cwd != NULL && chdir(o->cwd) != 0)
		f.stage = 4;
	else if (prog_launch_filter(g) != 0)
		f.stage = 5;
	else {
		/* Root may open a process's memory that is not dumpable with CAP_SYS_PTRACE
		 * (/proc/PID/mem of iobufviz, read and written): the program never has it. Out of
		 * the bounding set, root's exec gets no permitted copy of it; without CAP_SETPCAP
		 * (not root) the program never had it to begin with. */
		(void)prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0);
		execve(prog, argv, env);
	}
	f.err = errno;
	if (write(efd, &f, sizeof f) < 0)
		_exit(127);
	_exit(127);
}
