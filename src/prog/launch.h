/* SPDX-License-Identifier: MIT */
/* launch.h: starting a program to trace: found as execvp would, its environment with
 * the stdio shim preloaded, its redirections, the seccomp filter, then execve. */
#ifndef IOBUFVIZ_PROG_LAUNCH_H
#define IOBUFVIZ_PROG_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How to start the program. Every field may be 0/NULL. */
struct prog_opts {
	const char *cwd;          /* working directory (NULL: ours) */
	int cwd_fd;               /* or this open directory (> 2, fchdir'd to; 0: none): one
	                             with no path of ours, a crash lab mounted nowhere */
	const char *stdin_path;   /* opened O_RDONLY as fd 0 (NULL: ours) */
	const char *stdout_path;  /* created/truncated as fd 1 (NULL: ours) */
	const char *stderr_path;  /* created/truncated as fd 2 (NULL: ours) */
	char *const *envp;        /* environment (NULL: ours) */
	const char *preload;      /* the stdio shim, put first in LD_PRELOAD (NULL: none) */
	unsigned timeout_ms;      /* kill the whole tree after this long (0: never) */
	bool timeout_wall;        /* timeout_ms is wall time, the tracer's own work included;
	                             else the time it is held between steps does not count */
	/* Asked every ~100 ms while the program runs without a step: non-zero stops the wait
	 * (prog_trace_next then fails with ECANCELED). NULL: never asked. */
	int (*poll)(void *poll_arg);
	void *poll_arg;
};

/* What the child reports on err_fd when its setup or execve fails. */
struct prog_launch_fail {
	int stage;               /* 0 execve, 1 stdin, 2 stdout, 3 stderr, 4 cwd, 5 seccomp,
	                            6 setsid */
	int err;
};

/* The processes a traced program may not signal, trace, read, write or limit: the tracer,
 * its parent, its watchdog (prog/guard.h), and as -PGID their process groups. */
#define PROG_LAUNCH_GUARD_MAX 8
struct prog_launch_guard {
	pid_t pid[PROG_LAUNCH_GUARD_MAX];
	size_t n;
};

/* Fill g in the tracer: itself, its parent (a lesson's iobufviz, or the user's shell), their
 * process groups, and its watchdog (0: none). */
void prog_launch_guard_fill(struct prog_launch_guard *g, pid_t watchdog);

/* What a traced program cannot do, in one line for its transcripts (prog_launch_child and
 * prog/trace.c make it so). */
#define PROG_LAUNCH_CONFINED "no controlling terminal (a session of its own); clone with " \
	"CLONE_UNTRACED fails (EPERM), clone3 fails (ENOSYS: libc falls back to clone); every " \
	"process it makes is killed when the run ends; it cannot signal, trace, read, write or " \
	"limit iobufviz (kill, tgkill, process_vm_*, prlimit64 and pidfd_open at its pids, or at " \
	"-1, fail with EPERM; so do ptrace, tkill and pidfd_send_signal), whose memory is not " \
	"its to open (not dumpable; it runs without CAP_SYS_PTRACE, even as root, though root's " \
	"may read iobufviz's /proc maps and environ), and a watchdog it cannot reach " \
	"ends it at --timeout whatever state iobufviz is in"

/* Resolve argv0 as execvp would, in our working directory, into buf, made absolute when a
 * relative PATH entry found it (as env(1) and sudo do): the program runs in cwd (NULL: ours).
 * 0, or -1 with errno (ENOENT: not found in PATH; EEXIST: a relative PATH entry would name
 * another program in cwd, refused as ambiguous) and why in *err (errmsg_set). */
int prog_launch_find(const char *argv0, const char *cwd, char *buf, size_t len, char **err);

/* The environment for the child: o->envp or ours, with the shim first in LD_PRELOAD. */
char **prog_launch_env(const struct prog_opts *o);

/* Free what prog_launch_env made (env and its LD_PRELOAD string). NULL is fine. */
void prog_launch_env_free(char **env, const struct prog_opts *o);

/* Why the child did not start, as a message for argv0 in *err (errmsg_set): its struct
 * prog_launch_fail on efd once it ended (rc 2, pt_run's), else the timeout, else rc's error
 * (rc < 0, errno), else that it ended. Return the errno to report. */
int prog_launch_failure(int efd, int rc, bool timed_out, const char *argv0, char **err);

/* In the child: stop for the tracer, set up, install the filter (refusing g's pids), exec; on
 * failure write a struct prog_launch_fail to efd. Never returns. */
_Noreturn void prog_launch_child(const char *prog, char *const argv[], char **env,
                                 const struct prog_opts *o, const struct prog_launch_guard *g,
                                 int efd);

#endif
