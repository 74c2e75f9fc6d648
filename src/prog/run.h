/* SPDX-License-Identifier: MIT */
/* run.h: a student's own program shown step by step: its calls, streams and the files it touches. */
#ifndef IOBUFVIZ_PROG_RUN_H
#define IOBUFVIZ_PROG_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "crash/crash.h"
#include "prog/streams.h"
#include "prog/trace.h"
#include "scenario/scenario.h"
#include "probe/snapshot.h"
#include "step/step.h"

struct wbwatch;

struct prog_run;

/* How to run the program. Every field may be 0/NULL. */
struct prog_run_opts {
	const char *dir;          /* its working directory (NULL: a private scratch dir); with
	                             crash_fs, where the lab's image is made */
	int dir_fd;               /* > 2: its working directory instead, open (dir names it for
	                             people); not with crash_fs */
	enum crash_fs crash_fs;   /* its working directory a crash lab of this fs, both crashes
	                             after each step (CRASH_FS_NONE: none; needs root) */
	const char *stdin_path;   /* its standard input (NULL: /dev/null) */
	unsigned timeout_ms;      /* kill it after this long (0: never) */
	bool timeout_wall;        /* timeout_ms is wall time: no person holds it between steps
	                             (headless, a run: step); else held time does not count */
	enum snap_source probe;   /* page cache source (SNAP_SRC_NONE: the chain) */
	const char *shim;         /* the stdio shim (NULL: prog_run_shim(); "": none) */
	/* Asked while the program runs without a step (prog/launch.h): non-zero makes
	 * prog_run_next fail with ECANCELED (q in the TUI). NULL: never asked. */
	int (*poll)(void *poll_arg);
	void *poll_arg;
};

/* One file the program touched, as iobufviz watches it (read-only, never written). */
struct prog_run_file {
	char path[PATH_MAX];      /* absolute, from /proc/PID/fd (or as the program named it) */
	char name[PATH_MAX];      /* path relative to the program's directory when inside it */
	const char *label;        /* "stdout"/"stderr" for the captured output, else NULL */
	int fd;                   /* ours, O_RDONLY; -1 if it could not be opened */
	dev_t dev;
	ino_t ino;
	struct snapshot last;     /* the newest observation of it */
	bool seen;                /* last is filled */
	/* The kernel's writebacks of it (a sync() elsewhere, the flusher; probe/wbwatch.h),
	 * counted from when it was first seen (NULL: not counted here), and the count and the
	 * program's sync calls (prog_stats.syncs) at its last observation. */
	struct wbwatch *wb;
	uint64_t wb_last, syncs_last;
	bool in_lab;              /* on the run's crash lab (its name there: lab_name) */
	char lab_name[PATH_MAX];
};

/* One FILE of the program as a step left it. */
struct prog_run_stream {
	struct prog_stream st;    /* fd, mode, buffer size, pending, read ahead */
	const char *name;         /* as the program names it (prog_streams_name; NULL: "fp") */
	unsigned char head[64];   /* the first bytes it holds (pending output, else unread input) */
	size_t head_len;
};

/* One call of a folded stdio step: its arguments and result (prog_step's arg and ret). */
struct prog_run_call {
	int64_t arg;              /* fputc's char, fwrite's size, ... */
	int64_t ret;
};

/* At most this many calls fold into one step (a longer run is more steps). */
#define PROG_RUN_FOLD_MAX 16384

/* A run of such steps, one after the other (each ended by the system call it made), folds
 * into one step of at most this many calls (and EV_MAX system calls). */
#define PROG_RUN_CHAIN_MAX (64 * PROG_RUN_FOLD_MAX)

/*
 * One step of the program: one call, or a run of calls of one kind on one stream folded
 * into one (count > 1): "fputc(c, fp) x 4096: 4096 B -> write(4, 4096) = 4096" (the stdio
 * calls on that stream between two system calls), "write(4, 4096) x 4096: 16777216 B,
 * each = 4096" (the program's own calls, one after the other). sr is a step_result as a
 * scenario's steps have (events: the system calls on files, each; before/after: the file's
 * observed state as the step's last call left it, and the stream it used); sr.step points
 * at scn, whose args.text is the step as one line ("[123] read(3, 4096) = 4096"). Pass it
 * back to prog_run_step_clear.
 */
struct prog_run_step {
	struct prog_step ps;      /* the (last) call; its calls are in sr.events */
	struct step_result sr;
	struct scn_step scn;
	struct text_buf text;     /* the step as one line, whole (scn.args.text points at it) */
	long file;                /* index in prog_run_files, -1: none */
	bool disk;                /* the call asks for the data to reach the disk (fsync, O_SYNC) */
	uint64_t count;           /* calls in the step: 1, or the calls folded into it */
	uint64_t bytes;           /* stdio: the bytes its calls moved (ps.size summed) */
	struct prog_run_call *calls;  /* a folded stdio step: each call (count of them); NULL */
	struct prog_run_stream *streams;  /* every FILE of the process as the step left it */
	size_t n_streams;
	bool streams_known;       /* false: not readable (static, not glibc, gone) */
	bool live;                /* (an open fold) its streams are its process's live ones */
	bool str_varies;          /* a folded stdio step: its calls' first strings (fprintf's
	                             format, fputs's string) are not all ps.str[0] */
	long crash_file;          /* the file sr.crash looks at (index in prog_run_files), -1 */
};

/* The shim next to our binary in the build tree, else in $(pkglibdir), into buf; NULL if
 * neither is there. */
char *prog_run_shim(char *buf, size_t len);

/* Start argv (argv[0]: a path or a name in PATH) under the tracer. 0, or -1 and *err. */
int prog_run_new(char *const argv[], const struct prog_run_opts *o, struct prog_run **out,
                 char **err);

/* Run to the next step into *out. 1 = a step, 0 = the program has ended, -1 = error
 * (ECANCELED: the poll asked to stop). */
int prog_run_next(struct prog_run *r, struct prog_run_step *out);

/* Take in the steps the tracer has without waiting for the program, observed and queued for
 * prog_run_next: the program goes on from a stop that makes no step while the caller writes
 * out the step it has (a held step, if any, already taken in). */
void prog_run_pump(struct prog_run *r);

/* Free what a step owns (its events). */
void prog_run_step_clear(struct prog_run_step *s);

/* The stdio functions step s called (each call of a folded run; exit()'s flush is none). */
uint64_t prog_run_stdio_calls(const struct prog_run_step *s);

/* The files seen so far (their number in *n). */
const struct prog_run_file *prog_run_files(const struct prog_run *r, size_t *n);

/* Why stdio cannot be seen ("" when it can, or it is not known yet). */
const char *prog_run_stdio_note(const struct prog_run *r);

/* What the program did that no tracer sees ("this program submits I/O through io_uring:
 * calls not observable"; static storage), "" if nothing so far. */
const char *prog_run_unseen_note(const struct prog_run *r);

/* With a crash lab: what it is, for the run's head; without the one --crash-fs asked for
 * (not root): why, and what runs instead; NULL without --crash-fs. */
const char *prog_run_lab(const struct prog_run *r);

/* Whether the program runs in a crash lab (its steps have crashes to show). */
bool prog_run_in_lab(const struct prog_run *r);

/* The program's working directory, and what it printed on stdout / stderr so far (the
 * first bytes, or the last ones if last; NULL if none). */
const char *prog_run_dir(const struct prog_run *r);
char *prog_run_output(const struct prog_run *r, int which, bool last, uint64_t *total);

/* The first process and how it ended (valid once prog_run_next returned 0). */
const struct prog_step *prog_run_exit(const struct prog_run *r);

/* Counters (prog/trace.h). */
void prog_run_stats(const struct prog_run *r, struct prog_stats *out);

/* Calls of the dynamic loader (made from its own code: ld.so.cache, the libraries, the
 * shim): real calls on regular files, but not the student's; passed over, not shown. */
uint64_t prog_run_loader_calls(const struct prog_run *r);

/* True if the run's --timeout passed (every process it made was killed then). */
bool prog_run_timed_out(const struct prog_run *r);

/* Kill the program and every process it made, close the files, remove the scratch dir.
 * NULL is fine. */
void prog_run_free(struct prog_run *r);

#endif
