/* SPDX-License-Identifier: MIT */
/* run-int.h: what run.c (steps observed) and fold.c (runs of calls folded) share. */
#ifndef IOBUFVIZ_PROG_RUN_INT_H
#define IOBUFVIZ_PROG_RUN_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/text.h"
#include "prog/launch.h"
#include "prog/run.h"

/* The program's output is kept in files of the scratch dir; this much of each is shown. */
#define PROG_RUN_OUTPUT_MAX 65536

/* Streams read per step without a malloc (more are read in one). */
#define PROG_RUN_STREAMS 32

/* The kernel's writebacks are counted for this many of the program's files (the first). */
#define PROG_RUN_WBWATCH_MAX 16

/* Stdio folds open at once (one per stream and function). */
#define PROG_RUN_SFOLDS 8

/* The streams of a process at one moment (the exit's last state, or before its flush). */
struct prog_run_pstreams {
	pid_t pid;
	struct prog_run_stream *v;
	size_t n;
	bool known;
};

struct prog_run {
	struct prog_trace *t;
	int scratch;              /* our private dir: the program's output (and cwd by default) */
	char dir[PATH_MAX];       /* the program's working directory */
	char out_path[2][PATH_MAX];   /* its stdout, stderr */
	struct prog_run_file *files;
	size_t n_files, cap_files;
	long shown_file;          /* the file the last step with one showed (-1: none yet) */
	size_t n_steps;
	const char *stdio_note;   /* static storage, "" while stdio is visible */
	const char *unseen_note;  /* static storage, "" until the program does I/O no tracer sees */
	struct prog_step exit;    /* how the first process ended */
	bool exited, ended;
	enum snap_source probe;
	/* Steps ready to be returned, oldest first. */
	struct prog_run_step **q;
	size_t qhead, qn, qcap;
	/* The program's own read or write calls folding (NULL: none), and the stdio ones. */
	struct prog_run_step *fold;
	struct prog_run_step *sfold[PROG_RUN_SFOLDS];
	/* The run of stdio steps of one call on one stream, one after the other, folding (each
	 * step ended by the system call it made; NULL: none). */
	struct prog_run_step *chain;
	/* Streams seen at exit_group (the last state) and at the start of exit's flush. */
	struct prog_run_pstreams at_exit[8], before_flush;
	/* Every stream of each process as its last call left it: read at a stop right after a
	 * call, then kept by the logged calls (each says how it left its own stream). */
	struct prog_run_pstreams *live;
	size_t n_live, cap_live;
	bool failed;              /* out of memory in the hook: prog_run_next fails */
	/* --crash-fs: the crash lab the program runs in (prog/lab.c), NULL: none; its
	 * filesystem's st_dev, the file of it the crash views look at (the last a step touched;
	 * -1: none yet), its device's counters after the last step. */
	struct crash_lab *lab;
	struct text_buf lab_note; /* the crash lab, for the run's head; or --crash-fs without its
	                             lab (not root): why, and what instead */
	dev_t lab_dev;
	long lab_file;
	struct snap_device lab_last;
};

/* run-step.c: read every stream of pid, with the first bytes each holds, into *out. */
void prog_run_read_streams(struct prog_run *r, pid_t pid, struct prog_run_pstreams *out);

/* run-step.c: observe step s as its last call left it: its file now, the streams ps (NULL:
 * its own, or its process's live ones while s is live). */
void prog_run_observe(struct prog_run *r, struct prog_run_step *s,
                      const struct prog_run_pstreams *ps);

/* run-step.c: the streams of pid as its last call left them (added empty if new; NULL on
 * ENOMEM). */
struct prog_run_pstreams *prog_run_live(struct prog_run *r, pid_t pid);

/* run-step.c: pid is stopped right after a call: read its streams into its live ones (they
 * are then kept by the calls the shim logged, each saying how it left its own stream). The
 * open folds of pid that were live (but keep) keep what they were. */
void prog_run_scan(struct prog_run *r, pid_t pid, const struct prog_run_step *keep);

/* run-step.c: the stream a flush or refill from a call the shim cannot see (ps, a call step
 * at its end) moved, as the call leaves it (glibc moves its pointers after the call). */
void prog_run_unseen_io(struct prog_run *r, const struct prog_step *ps);

/* run-step.c: the logged call ps changed its stream: so do pid's live streams (the open
 * folds that were live, but keep, keep what they were). */
void prog_run_apply(struct prog_run *r, const struct prog_step *ps,
                    const struct prog_run_step *keep);

/* run-step.c: put s, observed, at the end of the queue. 0, or -1 (ENOMEM: s is freed). */
int prog_run_push(struct prog_run *r, struct prog_run_step *s);

/* run-step.c: the log's name for step s: the call's or the function's. */
const char *prog_run_label(const struct prog_run_step *s);

/* lab.c: whether a crash lab of fs cannot be made here (not root: no image can be mounted);
 * then r->lab_note says so, and that the program runs without it, as a lesson does. */
bool prog_lab_refused(struct prog_run *r, enum crash_fs fs);

/* lab.c: make a crash lab of fs in r's scratch dir and run the program in it (po's cwd_fd;
 * r->dir its /proc path, ours; r->lab_note what it is). 0, or -1 with errno and why in *err. */
int prog_lab_new(struct prog_run *r, enum crash_fs fs, struct prog_opts *po, char **err);

/* lab.c: f was just added: if it is on the lab, its path as we reach it and its name there. */
void prog_lab_file(struct prog_run *r, struct prog_run_file *f);

/* lab.c: s was just observed: what reached the lab's device in it (its before and after
 * device), and both crashes now (sr.crash) of the lab's file it touched, else of the one a
 * step touched last. Nothing without a lab. */
void prog_lab_observe(struct prog_run *r, struct prog_run_step *s);

/* lab.c: free the lab (every fd of ours under it closed first). */
void prog_lab_free(struct prog_run *r);

/* fold.c: the tracer's hook (prog_trace_set_hook's fn, ctx the prog_run). */
void prog_fold_hook(void *ctx, const struct prog_entry *e);

/* fold.c: take the tracer's step ps: fold it, or queue it observed. */
void prog_fold_take(struct prog_run *r, struct prog_step *ps);

/* fold.c: observe and queue open folds: the program's own calls' if calls; of the stdio
 * ones, all (key NULL), or those on key's stream of another function (same_stream), or all
 * but key's own. */
void prog_fold_close(struct prog_run *r, bool calls, const struct prog_step *key,
                     bool same_stream);

#endif
