/* SPDX-License-Identifier: MIT */
/* op.h: the run op: a student's program run to its end as one step of a scenario. */
#ifndef IOBUFVIZ_PROG_OP_H
#define IOBUFVIZ_PROG_OP_H

#include "scenario/scenario.h"
#include "lesson/step.h"

/*
 * Run a->program with a->argv ("{file}" becomes file) in dir under the tracer, in a helper
 * process of its own (the tracer waits for any child: the runner's worker must not be one
 * of its children), to its end or a->timeout (default 60 s). Fill out: events (the calls
 * on the program's files, not on its stdout and stderr), output (its stdout), ret (its exit
 * status; 128 + N if signal N killed it) and note. stop (may be NULL) is asked between
 * records: when it says so, the program is killed and -1 returned, out->stopped set (and
 * out->timed_out). 0, or -1 (out->note says why).
 */
int prog_op_run(const struct scn_args *a, const char *dir, const char *file,
                struct step_result *out, int (*stop)(void *user), void *user);

/* What prog_op_run's stop callback says (asked about every PROG_OP_POLL_MS): go on, stop
 * (the user asked), or the run's time is up. */
enum { PROG_OP_GO_ON, PROG_OP_STOP, PROG_OP_TIMED_OUT };
#define PROG_OP_POLL_MS 100

#endif
