/* SPDX-License-Identifier: MIT */
/* trace-int.h: what trace.c (the tracer) and marks.c (the shim's markers as stdio steps)
 * share: a traced process, a running program, and the functions each gives the other. */
#ifndef IOBUFVIZ_PROG_TRACE_INT_H
#define IOBUFVIZ_PROG_TRACE_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "prog/fds.h"
#include "prog/mark.h"
#include "prog/trace.h"
#include "prog/wait.h"
#include "trace/decode.h"
#include "trace/event.h"

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
	int file_fd;              /* the fd path is of (-1: none, or by path only) */
	dev_t dev;                /* the regular file's */
	ino_t ino;
	int depth;                /* stdio calls of the shim in progress (exit's flush: for good) */
	/* The outermost stdio call in progress, as its "before" marker gave it. */
	int mark_id;
	uint64_t mark_file;
	int64_t mark_arg[2];
	char mark_str[2][PROG_STR_MAX];
	dev_t mark_dev;           /* fclose: its file, seen before the fd is gone */
	ino_t mark_ino;
	struct event_list inner;  /* the calls it made so far (they are its step's) */
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
	prog_trace_hook *hook;    /* told of each entry (prog_trace_set_hook) */
	void *hook_ctx;
};

/* marks.c: a marker of the shim (prctl's args) at p's seccomp stop: "before" remembers the
 * call (*entry: its name, for the hook; else NULL), "after" makes its step into out. 1 = a
 * step; 0 = none, the caller resumes p (marks.c never resumes nor tells the hook). */
int prog_marks_on(struct prog_trace *t, struct pt_proc *p, const uint64_t *args,
                  struct prog_step *out, const char **entry);

/* marks.c: the stdio step of p's call in progress (its "after" marker gave file and size; 0
 * and 0 for exit's flush) into out; the calls it made go with it. */
void prog_marks_step(struct pt_proc *p, uint64_t file, uint64_t size, struct prog_step *out);

#endif
