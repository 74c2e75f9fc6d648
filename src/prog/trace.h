/* SPDX-License-Identifier: MIT */
/* trace.h: run a student's program under ptrace + seccomp and yield its file I/O step by step. */
#ifndef IOBUFVIZ_PROG_TRACE_H
#define IOBUFVIZ_PROG_TRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/event.h"
#include "prog/launch.h"
#include "prog/srcloc.h"
#include "shim/protocol.h"
#include "prog/streams.h"

struct prog_trace;
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
	                     them (ev: that call, its addr and length; no result yet), when the
	                     file has dirty pages or its dirty pages are not known (stored
	                     says whether a store was observed or only may have been) */
};

/* One step. */
struct prog_step {
	enum prog_step_kind kind;
	pid_t pid;
	uint64_t seq;             /* 1, 2, ... in the order steps happened */
	/* PROG_STEP_CALL: the call, made by the program itself (ev.origin EV_DIRECT), or by stdio
	 * on a stream's buffer from a call the shim cannot see (EV_STDIO: putc_unlocked, a
	 * macro, reaching __overflow). */
	struct event ev;
	struct prog_streams_owner unseen_of;  /* EV_STDIO: the FILE whose buffer it flushed (write) or
	                             refilled (read), and that buffer's bytes it moved began at
	                             unseen_buf; file 0: none (its fstat) */
	uint64_t unseen_buf;
	bool unchecked;           /* not looked at for stdio's bytes: its process has more streams
	                             than PROG_STREAMS_CHAIN_MAX */
	bool regular;             /* the file (path) is a regular file */
	int file_fd;              /* the fd of that file (-1: none, or named by path or address) */
	dev_t dev;                /* the regular file's device and inode (0 if unknown) */
	ino_t ino;
	/* PROG_STEP_STORES: a store was observed: the file's dirty pages rose since the
	 * program's last call on it. False: it may have stored (a store on a page dirty already,
	 * writeback in between, or a filesystem that keeps no dirty count hide one). */
	bool stored;
	/* PROG_STEP_STDIO: a stdio call the shim logged, or exit()'s flush of the streams
	 * (func_id PROG_MARK_EXIT_ID, "exit"). */
	int func_id;              /* the function called (fwrite_unlocked's own) */
	int func_base;            /* the one it is shown, folded and matched as (fwrite) */
	const char *func;         /* its name: "fwrite_unlocked" (static storage) */
	uint64_t file;            /* the FILE* in the tracee (the new one for fopen; the closed
	                             one for fclose; 0 for fflush(NULL) and exit) */
	int stdio_fd;             /* its _fileno, -1 if unknown */
	const char *stream_name;  /* file as the program names it: "stdout" only when it is the
	                             FILE the C library made for it (prog_streams_name); NULL: by
	                             stdio_fd */
	int64_t arg[2];           /* the call's arguments as the shim logged them */
	char str[2][PROG_STR_MAX];/* ... and the strings they name (shim/protocol.h's STR), cut */
	uint64_t size;            /* bytes the call moved (fwrite: size * items written) */
	int64_t ret;              /* the function's result (fgets: the length, -1: NULL; fopen:
	                             the new stream's fd, -1: NULL) */
	bool literal;             /* fwrite or puts of a string literal (shim/protocol.h) */
	uint64_t batch;           /* calls it stands for (prog_trace_set_batch): the logged calls
	                             of one function on one stream just before it (each with
	                             prog_trace_batch_call), then itself; 1 otherwise */
	bool logged;              /* read from the log at a later stop: the process has gone on
	                             since; stream is how the call left its stream */
	bool stream_known;        /* stream and head are filled */
	struct prog_stream stream;
	unsigned char head[PROG_HEAD_MAX];
	size_t head_len;
	struct event_list calls;  /* the system calls on regular files it made, in order,
	                             origin EV_STDIO: owned by the step (event_list_clear) */
	/* PROG_STEP_EXIT */
	int status;               /* as waitpid gives it */
	int exit_code;            /* WEXITSTATUS, -1 if killed */
	int signal;               /* the signal that killed it, 0 if it exited */
	bool timed_out;           /* killed because prog_opts.timeout_ms passed */
	bool thread;              /* a thread ended, not its process (exit step) */
	/* Every step but an exit: the line of the program that made it (src.pc 0: not known). */
	struct prog_src src;
	/* Last, so that a stdio step (which has none) is made and copied without it: the open
	 * family's path as passed (a rename: the new one, absolute); else the fd's file (a
	 * copy's: fd's if regular, else fd2's; msync, munmap: the mapped file's). */
	char path[PATH_MAX];
};

/* The bytes of a prog_step but its path (which a stdio step leaves empty). */
#define PROG_STEP_HEAD offsetof(struct prog_step, path)

/* What a process is about to do, told to the hook while it is stopped before doing it. */
enum prog_entry_kind {
	PROG_ENTRY_CALL,          /* a system call of the program's own (not inside stdio) */
	PROG_ENTRY_STDIO,         /* a system call of a stdio call (or of exit()'s flush) */
	PROG_ENTRY_EXIT,          /* exit_group: the process ends after this */
};

struct prog_entry {
	enum prog_entry_kind kind;
	pid_t pid;
	const char *call;         /* the system call's name (NULL: exit()'s flush begins) */
	int fd, fd2;              /* CALL: its fd arguments (-1: none) */
	bool file;                /* CALL: it may be a step (an open, or an fd of a regular file) */
	bool unseen;              /* CALL: on a stream's buffer: stdio's, from a call the shim
	                             cannot see (ev.origin EV_STDIO) */
	bool first;               /* STDIO: the stdio call's first system call */
	int func_id;              /* STDIO: the stdio call's base (shim/protocol.h) */
	uint64_t stream;          /* STDIO: the FILE* (0: none, or all); an unseen CALL: the FILE
	                             whose buffer it moves (0: none, its fstat) */
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
	uint64_t loader;          /* calls of the dynamic loader (made from its code): not steps */
	uint64_t syncs;           /* calls that ask for data to reach the disk (sync, syncfs,
	                             fsync, ...): a writeback of a file the kernel counts may be
	                             theirs (probe/wbwatch.h) */
	uint64_t walks;           /* stacks walked for a step's line (libdwfl) */
	uint64_t walks_saved;     /* stdio calls whose line was known without a walk */
	uint64_t log_entries;     /* entries read from the shim's logs: a run of like calls is one */
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
 * traced, the caller must not have other children of its own to wait for. The process that
 * made a step stays stopped right after the call until the next prog_trace_next (so
 * prog_trace_stdio shows its buffers as they are then), but for a stdio call that made no
 * system call: that comes from the shim's log at the process's next stop (logged), with
 * its stream as the call left it. Every wait is bounded: at prog_opts.timeout_ms the
 * whole program is killed (its ends come as steps, timed_out), and prog_opts.poll is asked
 * while nothing happens. 1 = a step; 0 = every process has ended; -1 = error with errno
 * (ECANCELED: the poll asked to stop; call prog_trace_free).
 */
int prog_trace_next(struct prog_trace *t, struct prog_step *out);

/*
 * As prog_trace_next, but only a step the tracer has without waiting for the program (the
 * logged calls read at its last stop, that stop itself): 0 when the next would need a wait.
 * The program goes on from a stop that makes no step meanwhile.
 */
int prog_trace_poll(struct prog_trace *t, struct prog_step *out);

/*
 * Read the stdio streams of traced process pid (see prog/streams.h). Return what
 * prog_streams_scan returns; *why says why none are visible.
 */
int prog_trace_stdio(struct prog_trace *t, pid_t pid, struct prog_stream *v, size_t max,
                     size_t *n, const char **why);

/* The FILE file on fd of process pid as the program names it (prog_streams_name). */
const char *prog_trace_stream_name(struct prog_trace *t, pid_t pid, uint64_t file, int fd);

/* The first process (the program), and the counters so far. */
pid_t prog_trace_pid(const struct prog_trace *t);

/* True once prog_opts.timeout_ms has passed (and every process was killed). */
bool prog_trace_timed_out(const struct prog_trace *t);
void prog_trace_stats(const struct prog_trace *t, struct prog_stats *out);

/* Call fn(ctx, entry) at each entry from now on (NULL: none). */
void prog_trace_set_hook(struct prog_trace *t, prog_trace_hook *fn, void *ctx);

/*
 * From now on, a run of logged calls of one function on one stream of one thread that made
 * no system call, one after the other in its log, is one step: the last of them, its batch
 * their count (sort's 1.5 M fwrite_unlocked are ~11 k steps, not 1.5 M). Until the next
 * prog_trace_next, each of them can be had as a step of its own (prog_trace_batch_step) or
 * just its argument, result, bytes and first string (prog_trace_batch_call: fprintf's format,
 * fputs's string; it returns how many calls from k on are alike in all four, at least 1: a
 * run the shim logged as one); k from 0, batch - 1 the step.
 */
void prog_trace_set_batch(struct prog_trace *t, bool on);
void prog_trace_batch_step(struct prog_trace *t, uint64_t k, struct prog_step *out);
uint64_t prog_trace_batch_call(struct prog_trace *t, uint64_t k, int64_t *arg, int64_t *ret,
                           uint64_t *size, const char **str);

/*
 * The step this tracer makes of the finished call s of row c, its memory read through m:
 * the event's fields but ns and origin, which are the tracer's (tests/check-calls holds it
 * beside the lesson tracer's tracer_event).
 */
void prog_trace_event(const struct call_row *c, const struct decode_stop *s,
                      const struct peek *m, struct prog_step *out);

/* marks.c: the stdio function id (a step's func_id) as shim/protocol.h's table says: its name, the
 * function it is shown as (its base) and what it does with data (PROG_MARK_PUT, GET, CTL);
 * id 0 and unknown ids are "?", 0, CTL. */
const char *prog_marks_name(int id);
int prog_marks_base(int id);
int prog_marks_class(int id);

/* Kill every process of the program, and every child of the caller (its orphans), reap
 * them, free t. NULL is fine. (PTRACE_O_EXITKILL and PR_SET_PDEATHSIG kill them too if we
 * die without calling it.) */
void prog_trace_free(struct prog_trace *t);

#endif
