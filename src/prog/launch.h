/* SPDX-License-Identifier: MIT */
/* launch.h: starting a program to trace: found as execvp would, its environment with
 * the stdio shim preloaded, its redirections, the seccomp filter, then execve. */
#ifndef IOBUFVIZ_PROG_LAUNCH_H
#define IOBUFVIZ_PROG_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

/* How to start the program. Every field may be 0/NULL. */
struct prog_opts {
	const char *cwd;          /* working directory (NULL: ours) */
	const char *stdin_path;   /* opened O_RDONLY as fd 0 (NULL: ours) */
	const char *stdout_path;  /* created/truncated as fd 1 (NULL: ours) */
	const char *stderr_path;  /* created/truncated as fd 2 (NULL: ours) */
	char *const *envp;        /* environment (NULL: ours) */
	const char *preload;      /* the stdio shim, put first in LD_PRELOAD (NULL: none) */
	unsigned timeout_ms;      /* kill the whole tree after this long (0: never) */
};

/* What the child reports on err_fd when its setup or execve fails. */
struct prog_launch_fail {
	int stage;               /* 0 execve, 1 stdin, 2 stdout, 3 stderr, 4 cwd, 5 seccomp */
	int err;
};

/* Resolve argv0 as execvp would into buf: 0, or -1 with errno (ENOENT: not found in PATH)
 * and why in *err (errmsg_set). */
int prog_launch_find(const char *argv0, char *buf, size_t len, char **err);

/* The environment for the child: o->envp or ours, with the shim first in LD_PRELOAD. */
char **prog_launch_env(const struct prog_opts *o);

/* Free what prog_launch_env made (env and its LD_PRELOAD string). NULL is fine. */
void prog_launch_env_free(char **env, const struct prog_opts *o);

/* A process of ours that ends after timeout_ms, for the tracer to kill the program when it
 * reaps it: its pid, or 0 (timeout_ms 0, or fork failed). */
pid_t prog_launch_watchdog(unsigned timeout_ms);

/* Why the child did not start (its struct prog_launch_fail on efd, or nothing: it ended),
 * as a message for argv0 in *err (errmsg_set). Return the errno to report (ECHILD: none). */
int prog_launch_failure(int efd, const char *argv0, char **err);

/* In the child: stop for the tracer, set up, install the filter, exec; on failure write a
 * struct prog_launch_fail to efd. Never returns. */
_Noreturn void prog_launch_child(const char *prog, char *const argv[], char **env,
                                 const struct prog_opts *o, int efd);

#endif
