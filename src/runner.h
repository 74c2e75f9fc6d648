/* SPDX-License-Identifier: MIT */
/* runner.h: runs a scenario's steps in a traced worker and observes each one. */
#ifndef IOBUFVIZ_RUNNER_H
#define IOBUFVIZ_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "scenario.h"
#include "snapshot.h"

/* How stdio's own calls are seen (--trace). */
enum runner_trace { RUNNER_TRACE_AUTO, RUNNER_TRACE_PTRACE, RUNNER_TRACE_PROCIO };

struct runner_opts {
	const char *dir;              /* where the private scratch dir is made */
	enum runner_trace trace;
};

/* Outcome of one expectation. */
struct expect_result {
	const struct scn_expect *want;
	bool ok;
	int64_t got;                  /* numeric value observed */
	char got_text[256];           /* as text (outputs, errno names, modes) */
};

/* Everything one step did and left behind. */
struct step_result {
	size_t index;                 /* 0-based */
	const struct scn_step *step;
	int64_t ret;                  /* the op's return value (-1 on error) */
	int err;                      /* errno of the op, 0 if none */
	uint64_t op_ns;               /* the op timed inside the worker (no tracer in it... see note) */
	struct event_list events;
	struct snapshot before, after;
	struct expect_result *expects;
	size_t n_expects;
	bool ok;                      /* all expectations held */
	char *output;                 /* pty (terminal) / tail output; NULL if none */
	char *output_file;            /* pty: file output */
	char note[256];               /* the engine's own remark (fallbacks, worker death) */
};

struct runner;

/* Start: make the scratch dir and file, fork and trace the worker. NULL + *err on failure. */
struct runner *runner_new(const struct scenario *s, const struct runner_opts *o, char **err);

/* Run the next step into out (caller frees with step_result_clear). 1 = ran, 0 = no more, -1 error. */
int runner_step(struct runner *r, struct step_result *out);

/* Free what a step_result owns. */
void step_result_clear(struct step_result *sr);

/* Stop the worker and remove the scratch dir. NULL is fine. */
void runner_free(struct runner *r);

#endif
