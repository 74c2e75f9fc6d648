/* SPDX-License-Identifier: MIT */
/* engine/pty-run.h: exercise 13-4, one snippet run with stdout on a terminal and on a file. */
#ifndef IOBUFVIZ_PTY_RUN_H
#define IOBUFVIZ_PTY_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario/scenario.h"
#include "probe/snapshot.h"
#include "trace/event.h"

/* A child gets this long to finish before it is killed (the run then fails, ETIMEDOUT). */
#define PTY_RUN_TIMEOUT_MS 5000
/* While a run is traced, its terminal is read and the caller asked this often. */
#define PTY_RUN_TICK_MS 100

/* Window size given to the terminal, like a classroom terminal. */
#define PTY_RUN_ROWS 24
#define PTY_RUN_COLS 80

/* What one child printed, the calls it made on its stdout, and the state of its stdout. */
struct pty_side {
	char *output;            /* everything that reached stdout, "\r\n" made "\n"; heap */
	size_t len, cap;         /* its bytes, and the room for them (base/grow.c's) */
	struct event_list events;/* its calls on stdout, in order, each with its run's name:
	                          * the printf() and the exit's flush [stdio], the write() [direct] */
	struct snap_stdio stdio; /* probe_stdio(stdout) right after the printf() */
	bool stdio_ok;           /* the child reported its stdio state */
	int status;              /* wait status of the child */
};

/* Both runs of the snippet. */
struct pty_result {
	struct pty_side term;    /* stdout on a pseudo-terminal */
	struct pty_side file;    /* stdout on a new regular file in the scratch dir */
};

/* Where the file run writes, and how the runs are watched. */
struct pty_where {
	int file_fd;             /* the file run's stdout: the scenario's file, open for writing
	                          * (truncated first, left holding the output) */
	const char *file_path;   /* its path */
	bool trace;              /* record each run's calls on its stdout (ptrace; where ptrace is
	                          * refused, the runs go on untraced and the events stay empty) */
	int (*poll)(void *);     /* while a run is traced: asked after each of its stops and at
	                          * each tick of engine/ticker.c's timer; non-zero stops it */
	void *user;
};

/*
 * Run the snippet of a pty step twice: printf(a->text); [between]; write(1, a->text2); the
 * flush of exit(). between: SCN_PTY_FFLUSH calls fflush(stdout) after the printf,
 * SCN_PTY_UNBUFFERED calls setvbuf(stdout, NULL, _IONBF, 0) before it. Return 0, or -1 with
 * errno (ETIMEDOUT if a child hung); out is filled as far as it got either way (free it with
 * pty_result_clear).
 */
int pty_run(const struct scn_args *a, const struct pty_where *w, struct pty_result *out);

/* Free the outputs of r. */
void pty_result_clear(struct pty_result *r);

#endif
