/* SPDX-License-Identifier: MIT */
/* engine/worker.h: the child process that plays "the student program" and runs the ops. */
#ifndef IOBUFVIZ_WORKER_H
#define IOBUFVIZ_WORKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/event.h"
#include "scenario/scenario.h"
#include "probe/snapshot.h"

/*
 * The worker's pipe ends, moved to fixed high numbers so that the scenario's first
 * open() gets fd 3 as in a real program (stdin/out/err are /dev/null).
 */
#define WORKER_CMD_FD 200
#define WORKER_REPLY_FD 201

/* Step index the worker answers with right after it starts (its first stdio probe). */
#define WORKER_HELLO UINT32_MAX

/* Command: a copy of the worker (its memory: FILE*s, buffers) dies by SIGKILL, as the process
 * would in a crash now; the worker goes on. The reply's ret is 0 once the copy died so. */
#define WORKER_CRASH (UINT32_MAX - 1)

#define WORKER_MAGIC 0x10b0f715u

/* Bytes of an op's output (tail) carried in a reply; the rest is cut, and said so. */
#define WORKER_OUTPUT_MAX 2048

/* Runner -> worker: run step `step` of the scenario (or just probe: an op it does not run). */
struct worker_cmd {
	uint32_t magic;
	uint32_t step;
};

/* Worker -> runner, one per command, fixed size (less than PIPE_BUF: one atomic write). */
struct worker_reply {
	uint32_t magic;
	uint32_t step;
	int64_t ret;
	int32_t err;
	uint64_t ns;               /* CLOCK_MONOTONIC around the real call */
	int32_t fd;                /* the scenario's current fd, -1 if none */
	bool fd_open;
	struct snap_stdio stdio;   /* probe_stdio() right after the op */
	bool io_ok;                /* the /proc/self/io diff below is valid */
	uint64_t syscr, syscw, rchar, wchar;  /* the op's own, measurement reads removed */
	bool has_event;            /* a direct op: the one call it made */
	struct event ev;
	char note[128];
	bool has_output;           /* the op printed something (tail) */
	uint32_t output_len;       /* its full length; output holds the first bytes of it */
	char output[WORKER_OUTPUT_MAX];
};

/* The runner's handle on a worker. */
struct worker {
	pid_t pid;
	int cmd_fd;                /* runner's write end */
	int reply_fd;              /* runner's read end */
};

/*
 * Fork the worker for scenario s acting on the scratch file NAME in the dir DIRFD (its
 * working directory, so that no path outside the private dir is ever used). It starts with
 * default signal dispositions, PR_SET_PDEATHSIG SIGKILL, stdin/out/err on /dev/null and
 * no other fd but its pipe ends, sends a WORKER_HELLO reply and waits for commands.
 * 0, or -1 with errno.
 */
int worker_spawn(const struct scenario *s, int dirfd, const char *name, struct worker *w);

/* Send a command. 0, or -1 with errno (EPIPE: the worker is gone). */
int worker_send(const struct worker *w, uint32_t step);

/* Read one reply. 1 = got it, 0 = the worker is gone (EOF), -1 error with errno. */
int worker_recv(const struct worker *w, struct worker_reply *r);

/* Close the runner's pipe ends (the worker then exits at its next read). */
void worker_close(struct worker *w);

#endif
