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
#include "shim/protocol.h"
#include "prog/trace.h"
#include "prog/wait.h"
#include "trace/decode.h"
#include "trace/event.h"

/* One traced process (or thread). */
struct pt_proc {
	pid_t pid, tgid;
	struct prog_fdtab *tab;
	struct prog_streams *stdio;
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
	bool in_stdio;            /* the call is a stdio call's (or exit()'s flush's) */
	bool unseen;              /* not that, but on a stream's buffer (prog_streams_holds): stdio's,
	                             from a call the shim cannot see (putc_unlocked, a macro) */
	struct prog_streams_owner unseen_of;  /* that stream (its file 0: none) */
	uint64_t unseen_buf;      /* where in its buffer the call's bytes begin */
	bool unchecked;           /* the call was not looked at so: its process has more streams
	                             than PROG_STREAMS_CHAIN_MAX */
	bool loader;              /* the call is the dynamic loader's (made from its code) */
	/* Where the dynamic loader's code is (found at the first stop after an exec). */
	bool ld_known;
	uint64_t sys_ip, sys_sp;  /* where its call was made, from its seccomp stop (0: not known) */
	uint64_t ld_lo, ld_hi;
	/* The shim's state in this thread (shim/protocol.h): where (0: not told yet), as read at
	 * its last stop, and the log's calls taken so far. */
	uint64_t shim;
	struct prog_mark_tls tls;
	unsigned up_next;          /* the entry of tls.up told next (prog_marks_tell_up) */
	uint64_t taken;
	uint64_t last_n;           /* the calls the last drain took: as many are read ahead */
	/* The run (prog_mark_tls.run) a stop of this thread took part of, while it went on: its
	 * first call's seq, and how many of its calls were taken (0: none). */
	uint64_t run_first, run_taken;
	uint64_t last_seq;         /* the seq of the last entry taken from the log */
	/* The stdio call under way that made system calls (its seq, 0: none), its arguments,
	 * its file (fclose: seen before the fd is gone) and the calls it made so far. */
	uint64_t cur_seq;
	struct prog_mark_call cur;
	dev_t mark_dev;
	ino_t mark_ino;
	struct event_list inner;
	struct prog_src cur_src;  /* that call's line, from its stack at its first system call */
	/* That call writes, and the shim was not asked to stop after it: its log entry is read
	 * at the next stop of any thread (or at this one's end), not at a stop of its own. */
	bool owed;
	bool ended;               /* a thread stopped at its exit: its end was its step */
};

/* A stdio call read from a thread's log, waiting to be returned as a step. */
struct pt_logged {
	pid_t pid, tgid;
	struct prog_mark_call c;
	dev_t dev;                /* its stream's regular file (0: none) */
	ino_t ino;
	bool now;                 /* its thread is stopped right after it (PROG_MARK_AFTER) */
	struct event_list calls;  /* the system calls it made (owned) */
	const char *name;         /* its stream as the program names it (prog_streams_name) */
	struct prog_src src;      /* its line, when its stack was walked (src.pc 0: by c.caller) */
};

/* A running program. */
struct prog_trace {
	pid_t leader;
	bool execed;
	struct prog_wait w;        /* its deadline (timeout_ms) and the caller's poll */
	/* SIGCHLD, blocked for the waits from the first run to the end (not around each
	 * step: two sigprocmask calls a step were a sixth of a sort's tracing); the mask
	 * before. scratch_fork's children start with it unblocked. */
	bool chld_blocked;
	sigset_t chld_old;
	int err_fd;               /* the child's report of a failed setup or execve */
	pid_t held;               /* stopped after a step, resumed by the next prog_trace_next */
	struct pt_proc *procs;
	size_t nprocs, cap;
	struct prog_stats st;
	char prog[PATH_MAX];      /* the program's path, as exec'd */
	prog_trace_hook *hook;    /* told of each entry (prog_trace_set_hook) */
	void *hook_ctx;
	/* Logged stdio calls to return before anything else, oldest first; the stop that read
	 * them (its process stays stopped) is handled once they are all returned. */
	struct pt_logged *q;
	size_t qhead, qn, qcap;
	bool pend;
	pid_t pend_pid;
	int pend_status;
	/* Runs of logged calls are one step (prog_trace_set_batch); the last one returned is
	 * q[bhead] to q[bhead + bn - 1]. */
	bool batch;
	size_t bhead, bn;
	uint64_t bcalls;          /* the calls they stand for (a run is one entry) */
	size_t bcur;              /* the entry of the call asked for last, */
	uint64_t bcur_at;         /* and the batch's call it starts at */
	struct prog_srcloc *src;  /* the steps' source lines (NULL: not known) */
	/* When the execve's end stop came (prog_trace_start waits for it): that call's end. */
	struct timespec exec_end;
	bool exec_end_set;
	/* The files the program mapped, and their dirty pages (prog/fds.h). */
	struct prog_maptab maps;
};

/* procs.c: the traced thread pid, or NULL. */
struct pt_proc *prog_procs_find(struct prog_trace *t, pid_t pid);

/* procs.c: add thread pid (fresh: attached by a fork event), with a share of parent's fd
 * table (a thread of its process) or a copy (a fork); NULL on ENOMEM. The array may move. */
struct pt_proc *prog_procs_add(struct prog_trace *t, pid_t pid, struct pt_proc *parent, bool fresh);

/* procs.c: the line of the program that made out, a call of its own (or stdio's that the
 * shim cannot see) or its stores: from the stack of its thread, stopped right after it. */
void prog_procs_source(struct prog_trace *t, struct prog_step *out);

/* procs.c: forget p (it ended): the last entry takes its place. */
void prog_procs_del(struct prog_trace *t, struct pt_proc *p);

/*
 * marks.c: read p's shim state into p->tls and queue in t the calls its log holds that
 * were not taken yet (a call that made system calls gets p's inner calls). stopped: p is
 * stopped, so the log's read count may be written back (full: it must be). 0, or -1 if the
 * state cannot be read (p->shim is then forgotten).
 */
int prog_marks_drain(struct prog_trace *t, struct pt_proc *p, bool stopped, bool full);

/* trace-event.c: fill out from the finished call of p (leader: the program's first process;
 * now: when it ended), and keep p's fd table in step with it. */
void pt_fill_event(struct pt_proc *p, pid_t leader, const struct timespec *now,
                   struct prog_step *out);
void pt_track(struct pt_proc *p);

/* marks.c: at a system call's entry stop of p (its state just read): whether it is made by a
 * stdio call (p->in_stdio); a stdio call's first system call starts its record (p->cur) and
 * asks the shim to stop when it returns (but not a write's: the state it logs is all its
 * step needs, and the call is owed, read at the next stop of any thread). True if this is
 * that first call. */
bool prog_marks_at_call(struct pt_proc *p);

/* The caller's return address of p's calls from ra with the shim's frame at frame is off
 * bytes above it (UINT64_MAX: not known): tell the shim (prog_mark_tls.up), once. */
void prog_marks_tell_up(struct pt_proc *p, uint64_t lo, uint64_t hi, uint64_t frame,
                       uint64_t off);

/* marks.c: whether p's call c (stopped at its entry, p's file known; stack pointer sp) is
 * stdio's though no stdio call is under way: a write or read of the bytes of a stream's buffer
 * on its fd, or the fstat that sizes a new one (putc_unlocked, a macro, reached __overflow). */
bool prog_marks_unseen(struct pt_proc *p, const struct call_row *c, struct peek *m, uint64_t sp);

/* marks.c: a marker of the shim (prctl's args) at p's seccomp stop. True when exit()'s
 * flush begins (the caller tells its hook); the caller resumes p (marks.c never resumes nor
 * tells the hook). */
bool prog_marks_on(struct prog_trace *t, struct pt_proc *p, const uint64_t *args);

/* marks.c: the step of the logged call l (its calls taken over) into out. */
void prog_marks_logged_step(const struct pt_logged *l, struct prog_step *out);

/* marks.c: the oldest logged call queued in t, as the next step (numbered) into out: true,
 * or false if none is queued. */
bool prog_marks_next(struct prog_trace *t, struct prog_step *out);

/* marks.c: what every thread of t logged since its last stop, queued, read while they run
 * (the calls counted as written are complete): at the deadline, before the kill. */
void prog_marks_drain_all(struct prog_trace *t);

/* marks.c: before p's stop or end st (a waitpid status) is handled: queue the calls logged
 * before it, in every thread that owes one (read while it runs; a call still under way stays
 * owed) and in p (stopped; once ended, its memory is gone: it owes nothing more). */
void prog_marks_before(struct prog_trace *t, struct pt_proc *p, int st);

/* marks.c: exit()'s flush under way in p (its calls so far) as a step into out. */
void prog_marks_exit_step(struct pt_proc *p, struct prog_step *out);

#endif
