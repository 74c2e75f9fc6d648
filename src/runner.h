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

/* Called while a long step (wait) runs, with the state observed so far. */
typedef void (*runner_progress_fn)(const struct snapshot *now, double elapsed_s, void *user);

struct bench_progress;
struct bench_result;

/* Called between the timed runs of a sweep step (bench.h); non-zero stops the sweep. */
typedef int (*runner_sweep_fn)(const struct bench_progress *p, void *user);

struct runner_opts {
	const char *dir;              /* where the private scratch dir is made */
	enum runner_trace trace;
	runner_progress_fn progress;  /* may be NULL */
	runner_sweep_fn sweep_progress; /* may be NULL */
	void *user;                   /* for both callbacks */
	double budget;                /* sweep rows: seconds each; 0 = the scenario's/default */
	enum snap_source probe;       /* page cache source (probe_cache_as); NONE = the chain */
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
	uint64_t op_ns;               /* the whole op timed inside the worker (clock_gettime) */
	struct event_list events;
	struct snapshot before, after;
	struct expect_result *expects;
	size_t n_expects;
	bool ok;                      /* all expectations held */
	char *output;                 /* pty (terminal) / tail output; NULL if none */
	char *output_file;            /* pty: file output */
	struct bench_result *sweep;   /* sweep steps: the timed results (bench.h); else NULL */
	char note[256];               /* the engine's own remark (fallbacks, worker death) */
	uint64_t output_len;          /* bytes printed in all, when output keeps only the first
	                                 of them; 0: output is all of it */
};

struct runner;

/* Start: make the scratch dir and file, fork and trace the worker. NULL + *err on failure. */
struct runner *runner_new(const struct scenario *s, const struct runner_opts *o, char **err);

/* Run the next step into out (caller frees with step_result_clear). 1 = ran, 0 = no more, -1 error. */
int runner_step(struct runner *r, struct step_result *out);

/* How the runner sees stdio's calls in this run (ptrace, or procio after a refusal). */
enum ev_source runner_trace_source(const struct runner *r);

/* Path of the scratch file, the filesystem it is on ("ext4", "tmpfs"), and the kernel release. */
const char *runner_file_path(const struct runner *r);
const char *runner_fs_name(const struct runner *r);

/* The state before the first step (after the prefill, cold cache). */
const struct snapshot *runner_initial(const struct runner *r);

/* Free what a step_result owns. */
void step_result_clear(struct step_result *sr);

/* Stop the worker and remove the scratch dir. NULL is fine. */
void runner_free(struct runner *r);

#endif
