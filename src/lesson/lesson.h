/* SPDX-License-Identifier: MIT */
/* lesson/lesson.h: a scenario being taught: runs each step, checks it, says what changed, keeps it. */
#ifndef IOBUFVIZ_LESSON_H
#define IOBUFVIZ_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/runner.h"
#include "scenario/scenario.h"
#include "step/step.h"

struct lesson;

/* Start a run of s (runner_new). NULL + *err on failure (free *err). */
struct lesson *lesson_new(const struct scenario *s, const struct runner_opts *o, char **err);

/* The scenario's intro as this run tells it (its facts filled in; NULL: none), and its
 * sentences in *v (*n of them; either may be NULL). */
const char *lesson_intro(const struct lesson *l, const struct sentence_result **v, size_t *n);

/*
 * Run the next step, evaluate its expectations, work out what changed (between the steps
 * and in this one) and keep it in the history. 1 = ran (lesson_last), 0 = no more steps,
 * -1 = out of memory (the step is lost).
 */
int lesson_step(struct lesson *l);

/*
 * Both crashes now (engine/runner.h, runner_crash), kept with the newest step's result in
 * place of any view it had (a crash step keeps its own: then nothing is made). 1 = made, 0 =
 * the newest step is a crash step, -1 = no step yet, or out of memory.
 */
int lesson_crash(struct lesson *l);

/* The results so far, oldest first (lesson_count of them); NULL when there are none. */
const struct step_result *lesson_results(const struct lesson *l);
size_t lesson_count(const struct lesson *l);

/* The newest result, or NULL before the first step. */
const struct step_result *lesson_last(const struct lesson *l);

/* How many results had an expectation fail. */
size_t lesson_failures(const struct lesson *l);

/* True if a step was stopped by the run's --timeout. */
bool lesson_timed_out(const struct lesson *l);

/* The state before the first step, the runner's trace source, scratch file and filesystem. */
const struct snapshot *lesson_initial(const struct lesson *l);
enum ev_source lesson_trace_source(const struct lesson *l);
const char *lesson_file_path(const struct lesson *l);
const char *lesson_fs_name(const struct lesson *l);

/* What tracing adds to each system call in this run (engine/runner.h). */
const struct runner_overhead *lesson_tracing_overhead(const struct lesson *l);

/* Why the scratch file is where it is, or what a disk lesson cannot show there; "" if
 * nothing needs saying (runner_place_note). */
const char *lesson_place_note(const struct lesson *l);

/* Fill sr->changes: from prev (the step before's after; NULL for the first step) to sr's
 * before, then across sr itself. */
void lesson_diff(const struct snapshot *prev, struct step_result *sr);

/* Fill sr->origins: where the pages cached after sr came from, given the results before it
 * (hist[0..n)): the step of a WILLNEED still arriving, the steps that brought in the pages
 * it found cached. */
void lesson_origins(const struct step_result *hist, size_t n, struct step_result *sr);

/* Stop the run and forget its results. NULL is fine. */
void lesson_free(struct lesson *l);

#endif
