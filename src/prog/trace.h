/* SPDX-License-Identifier: MIT */
/* trace.h: run a student's program under ptrace + seccomp and yield its file I/O step by step. */
#ifndef IOBUFVIZ_PROG_TRACE_H
#define IOBUFVIZ_PROG_TRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/event.h"
#include "prog/launch.h"
#include "prog/mark.h"

struct prog_trace;
struct prog_stream;
struct call_row;
struct decode_stop;
struct peek;

/* What a step is. */
enum prog_step_kind {
	PROG_STEP_CALL,   /* a system call on a regular file (or an open that names one) */
	PROG_STEP_STDIO,  /* a stdio call seen through the shim's markers */
	PROG_STEP_EXIT,   /* a process ended */
	PROG_STEP_STORES, /* the program's stores through a shared writable mapping of a file: no
	                     call makes them; seen at the entry of the msync or munmap after
	                     them (ev: that call, its addr and length; no result yet) */
};

/* One step. */
struct prog_step {
	enum prog_step_kind kind;
	pid_t pid;
	uint64_t seq;             /* 1, 2, ... in the order steps happened */
	/* PROG_STEP_CALL: the call, made by the program itself (ev.origin EV_DIRECT). */
	struct event ev;
	char path[PATH_MAX];      /* open family: the path as passed (a rename: the new one,
	                           * absolute); else the fd's file (a copy's: fd's if regular,
	                           * else fd2's; msync, munmap: the mapped file's) */
	bool regular;             /* the file is a regular file */
	int file_fd;              /* the fd of that file (-1: none, or named by path or address) */
	dev_t dev;                /* the regular file's device and inode (0 if unknown) */
	ino_t ino;
	/* PROG_STEP_STDIO: a stdio call seen through the shim, or exit()'s flush of the streams
	 * (func_id PROG_MARK_EXIT, "exit"). */
	int func_id;
	const char *func;         /* "fwrite", ... (static storage) */
	uint64_t file;            /* the FILE* in the tracee (the new one for fopen; the closed
	                             one for fclose; 0 for fflush(NULL) and exit) */
	int stdio_fd;             /* its _fileno, -1 if unknown */
	int64_t arg[2];           /* the call's arguments as its "before" marker gave them */
	char str[2][PROG_STR_MAX];/* ... and the strings they point at (mark.h's STR), cut */
	uint64_t size;            /* bytes the call moved (fwrite: size * items written) */
	int64_t ret;              /* the function's return value (fgets: the length, -1: NULL) */
	struct event_list calls;  /* the system calls on regular files it made, in order,
	                             origin EV_STDIO: owned by the step (event_list_clear) */
	/* PROG_STEP_EXIT */
	int status;               /* as waitpid gives it */
	int exit_code;            /* WEXITSTATUS, -1 if killed */
	int signal;               /* the signal that killed it, 0 if it exited */
	bool timed_out;           /* killed because prog_opts.timeout_ms passed */
};

/* What a process is about to do, told to the hook while it is stopped before doing it. */
enum prog_entry_kind {
	PROG_ENTRY_CALL,          /* a system call of the program's own (not inside stdio) */
	PROG_ENTRY_STDIO,         /* a stdio call (or exit()'s flush) begins */
	PROG_ENTRY_EXIT,          /* exit_group: the process ends after this */
};

struct prog_entry {
	enum prog_entry_kind kind;
	pid_t pid;
	const char *call;         /* CALL: its name; STDIO: the function's */
	int fd, fd2;              /* CALL: its fd arguments (-1: none) */
	bool file;                /* CALL: it may be a step (an open, or an fd of a regular file) */
	int func_id;              /* STDIO */
	uint64_t stream;          /* STDIO: the FILE* (0: none, or all) */
};

/* A hook called at each prog_entry (the process stays stopped until it returns). */
typedef void prog_trace_hook(void *ctx, const struct prog_entry *e);

/* Counters over the whole run. */
struct prog_stats {
	uint64_t stops;           /* ptrace stops of every kind */
	uint64_t steps;           /* steps returned */
	uint64_t other_calls;     /* traced calls that were not steps (pipes, terminals, ...) */
	uint64_t markers;         /* shim markers seen */
	uint64_t async;           /* io_uring calls: the data they move is not seen */
};

/*
 * Start argv[0] (a path, or a name looked up in PATH) under the tracer, with a seccomp
 * filter that stops it only on the calls that concern files (and refuses clone with
 * CLONE_UNTRACED, and clone3), in a session of its own with no controlling terminal, and
 * run it up to its execve. The calling process becomes a child subreaper: the program's
 * orphans are its children until prog_trace_free kills them. 0 and *out, or -1 and *err
 * (malloc'd, "PROGRAM: No such file or directory").
 */
int prog_trace_start(char *const argv[], const struct prog_opts *o, struct prog_trace **out,
                     char **err);

/*
 * Let the program run to its next step and fill *out. It waits with waitpid(-1, __WALL)
 * (tracees that are not our children can only be waited for so): while a program is
 * traced, the caller must not have other children of its own to wait for. The process that made a call step
 * stays stopped right after the call until the next prog_trace_next (so prog_trace_stdio
 * shows its buffers as they are then). Every wait is bounded: at prog_opts.timeout_ms the
 * whole program is killed (its ends come as steps, timed_out), and prog_opts.poll is asked
 * while nothing happens. 1 = a step; 0 = every process has ended; -1 = error with errno
 * (ECANCELED: the poll asked to stop; call prog_trace_free).
 */
int prog_trace_next(struct prog_trace *t, struct prog_step *out);

/*
 * Read the stdio streams of traced process pid (see prog/streams.h). Return what
 * prog_stdio_scan returns; *why says why none are visible.
 */
int prog_trace_stdio(struct prog_trace *t, pid_t pid, struct prog_stream *v, size_t max,
                     size_t *n, const char **why);

/* The first process (the program), and the counters so far. */
pid_t prog_trace_pid(const struct prog_trace *t);
void prog_trace_stats(const struct prog_trace *t, struct prog_stats *out);

/* Call fn(ctx, entry) at each entry from now on (NULL: none). */
void prog_trace_set_hook(struct prog_trace *t, prog_trace_hook *fn, void *ctx);

/*
 * The step this tracer makes of the finished call s of row c, its memory read through m:
 * the event's fields but ns and origin, which are the tracer's (tests/check-calls holds it
 * beside the lesson tracer's tracer_event).
 */
void prog_trace_event(const struct call_row *c, const struct decode_stop *s,
                      const struct peek *m, struct prog_step *out);

/* Kill every process of the program, and every child of the caller (its orphans), reap
 * them, free t. NULL is fine. (PTRACE_O_EXITKILL and PR_SET_PDEATHSIG kill them too if we
 * die without calling it.) */
void prog_trace_free(struct prog_trace *t);

#endif
