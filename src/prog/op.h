/* SPDX-License-Identifier: MIT */
/* op.h: the run op: a student's program run to its end as one step of a scenario. */
#ifndef IOBUFVIZ_PROG_OP_H
#define IOBUFVIZ_PROG_OP_H

#include "scenario/scenario.h"
#include "step/step.h"

/* What bounds a run step besides its own timeout. */
struct prog_op_bounds {
	double seconds;           /* the run's time left: the program is killed after this long */
	int (*poll)(void *);      /* asked every ~100 ms: non-zero kills it now (NULL: never) */
	void *poll_arg;
};

/*
 * Run a->program with a->argv ("{file}" becomes file) in dir (dir_fd > 2: in the directory
 * open there instead, dir its name for people) under the tracer, with the file
 * in as its stdin (prog_consent_stdin chose it: a->stdin_path is not read), in a helper
 * process of its own (the tracer waits for any child: the runner's worker must not be one
 * of its children), to its end, a->timeout (default 60 s) or b->seconds, whichever comes
 * first, or until b->poll says stop. Fill out: events (the calls on the program's files,
 * not on its stdout and stderr), output (its stdout), ret (its exit status; 128 + N if
 * signal N killed it) and note. 0, or -1 (out->note says why).
 */
int prog_op_run(const struct scn_args *a, const char *dir, int dir_fd, const char *file,
                const char *in, const struct prog_op_bounds *b, struct step_result *out);

struct runner_program_ctx;

/*
 * The run op as the runner binds it (runner_opts.run_op): only a program c->consent allows,
 * with the stdin prog_consent_stdin chooses, then prog_op_run within c's time and poll.
 * 0, -1 as prog_op_run; -2 (out->err EPERM, out->note why) if refused before it ran.
 */
int prog_op_step(const struct scn_args *a, const struct runner_program_ctx *c,
                 struct step_result *out);

#endif
