/* SPDX-License-Identifier: MIT */
/* engine/runner.h: runs a scenario's steps in a traced worker and observes each one. */
#ifndef IOBUFVIZ_RUNNER_H
#define IOBUFVIZ_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "crash/crash.h"
#include "trace/event.h"
#include "scenario/scenario.h"
#include "probe/snapshot.h"
#include "step/step.h"

/* How stdio's own calls are seen (--trace). */
enum runner_trace { RUNNER_TRACE_AUTO, RUNNER_TRACE_PTRACE, RUNNER_TRACE_PROCIO };

/* Called while a long step (wait) runs, with the state observed so far; non-zero stops it. */
typedef int (*runner_progress_fn)(const struct snapshot *now, double elapsed_s, void *user);

/*
 * Called about every RUNNER_POLL_MS while the worker runs a step; non-zero stops the step:
 * the worker is killed, the step ends with ECANCELED and out->stopped, later steps run
 * nothing. Only the run's own thread calls it, between ptrace requests.
 */
typedef int (*runner_poll_fn)(void *user);
#define RUNNER_POLL_MS 100

struct sweep_progress;
struct prog_consent;

/* Where, and within what, a run step's program runs (runner_program_fn). */
struct runner_program_ctx {
	const char *dir;              /* the scratch dir: the program's working directory */
	const char *file;             /* the scratch file as iobufviz reaches it (stdin "{file}") */
	const char *file_arg;         /* "{file}" in its arguments: file, or its name in dir_fd */
	int dir_fd;                   /* > 2: its working directory instead of dir, open (a crash
	                                 lab's root: no path of the program's reaches it) */
	const char *lesson_dir;       /* the scenario file's directory (NULL: none, stdin), where
	                                 its stdin may be too (--dir grants nothing) */
	const struct prog_consent *consent; /* runner_opts.consent */
	double seconds;               /* what is left of the run's time */
	int (*poll)(void *);          /* asked every ~100 ms: non-zero stops it now */
	void *poll_arg;
};

/*
 * The run op: a student's program, if the user allowed it, run to its end as one step
 * (prog/op.c's prog_op_step). The program tracer sits above the engine (its steps are lesson
 * results), so whoever starts the run binds it. Fills out as prog/op.h says. 0: it ran; -1:
 * it could not (out->note says why); -2: refused before anything ran (not allowed, or its
 * stdin; out->err EPERM).
 */
typedef int (*runner_program_fn)(const struct scn_args *a, const struct runner_program_ctx *c,
                                 struct step_result *out);

/* Called between the timed runs of a sweep step (sweep/sweep.h); non-zero stops the sweep. */
typedef int (*runner_sweep_fn)(const struct sweep_progress *p, void *user);

struct runner_opts {
	const char *dir;              /* where the private scratch dir is made */
	enum runner_trace trace;
	runner_progress_fn progress;  /* may be NULL */
	runner_sweep_fn sweep_progress; /* may be NULL */
	runner_poll_fn poll;          /* may be NULL */
	void *user;                   /* for the callbacks */
	double budget;                /* sweep rows: seconds each; 0 = the scenario's/default */
	const char *const *sweep_dirs; /* more than one: sweeps compare these dirs side by side */
	size_t n_sweep_dirs;
	enum snap_source probe;       /* page cache source (probe_cache_as); NONE = the chain */
	runner_program_fn run_op;     /* the run op; NULL: a run step fails with ENOSYS */
	double timeout;               /* seconds the run may spend in all (--timeout); 0 or more
	                                 than SCN_MAX_RUN_SECONDS: that. Past it, the step is
	                                 stopped (out->timed_out) and no later step runs */
	const struct prog_consent *consent; /* the programs run steps may run (prog/consent.h);
	                                 NULL: none, a run step fails with EPERM */
	enum crash_fs crash_fs;       /* --crash-fs: the scratch file on a crash lab of this
	                                 filesystem (crash/lab.h; root: else only the process
	                                 crash is observed, and the place note says why once);
	                                 CRASH_FS_NONE: where dir says */
	double pace;                  /* --pace: seconds to wait before each step but the first,
	                                 as a person stepping through would (step_result.pause
	                                 says what the kernel did meanwhile, and when); 0: none */
	bool crash_each;              /* after every step but a crash step, both crashes
	                                 (step_result.crash): --crash-fs's headless run */
};

struct runner;

/* What tracing adds to one system call here (runner_tracing_overhead). */
struct runner_overhead {
	bool measured;                /* false: not traced, or the measurement failed */
	double bare_ns;               /* a null system call, untraced (median) */
	double traced_ns;             /* the same under our tracer: two ptrace stops */
};

/* Start: make the scratch dir and file, fork and trace the worker. NULL + *err on failure. */
struct runner *runner_new(const struct scenario *s, const struct runner_opts *o, char **err);

/*
 * Run the next step into out (caller frees with step_result_clear; expectations are not
 * evaluated: see lesson/lesson.h). 1 = ran, 0 = no more steps. A step that could not run still
 * returns 1, its failure in out's ret, err and note (after a worker's death, every later one).
 */
int runner_step(struct runner *r, struct step_result *out);

/* How the runner sees stdio's calls in this run (ptrace, or procio after a refusal). */
enum ev_source runner_trace_source(const struct runner *r);

/* Path of the scratch file, the filesystem it is on ("ext4", "tmpfs"), and the kernel release. */
const char *runner_file_path(const struct runner *r);
const char *runner_fs_name(const struct runner *r);

/* What tracing adds to a system call in this run (measured at runner_new under ptrace). */
const struct runner_overhead *runner_tracing_overhead(const struct runner *r);

/* Why the scratch file is where it is ("scratch on /var/tmp: /tmp is tmpfs"), or what a
 * lesson about the disk cannot show there; "" if nothing needs saying. */
const char *runner_place_note(const struct runner *r);

/* The state before the first step (after the prefill, cold cache). */
const struct snapshot *runner_initial(const struct runner *r);

/*
 * Both crashes at this point of the run, between two steps; neither changes the run, which
 * goes on. The process crash: a copy of the worker (the same FILE*s, the same buffers) dies
 * by SIGKILL, then the runner reads NAME as another process would. The power cut: the crash
 * lab's device as it is now, recovered by the kernel (crash/power.h); without a lab, out->power
 * says why it is not observable here. name NULL: the scratch file. 0, or -1 if neither half
 * was observed.
 */
int runner_crash(struct runner *r, const char *name, struct crash_view *out);

/* Stop the worker and remove the scratch dir. NULL is fine. */
void runner_free(struct runner *r);

#endif
