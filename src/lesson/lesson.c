/* SPDX-License-Identifier: MIT */
/* lesson/lesson.c: the one place a step is run, checked against its expectations and kept, so
 * that every front end (TUI, transcripts) shows the same conclusions. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lesson/expect.h"
#include "lesson/history.h"
#include "lesson/lesson.h"
#include "lesson/narrate.h"
#include "lesson/snapshot-diff.h"

/* A run and what it has shown so far. */
struct lesson {
	struct runner *r;
	struct history h;
	char *intro;                      /* the intro as this run tells it; NULL: none */
	struct sentence_result *intro_v;  /* its sentences */
	size_t intro_n;
};

/* Start a run. */
struct lesson *
lesson_new(const struct scenario *s, const struct runner_opts *o, char **err)
{
	struct lesson *l = calloc(1, sizeof *l);

	if (err != NULL)
		*err = NULL;
	if (l == NULL) {
		if (err != NULL)
			*err = strdup("out of memory");
		return NULL;
	}
	l->r = runner_new(s, o, err);
	if (l->r == NULL) {
		free(l);
		return NULL;
	}
	if (narrate_intro(s, runner_initial(l->r), &l->intro, &l->intro_v, &l->intro_n) != 0) {
		lesson_free(l);
		if (err != NULL)
			*err = strdup("out of memory");
		return NULL;
	}
	return l;
}

/* What changed before and during sr. */
void
lesson_diff(const struct snapshot *prev, struct step_result *sr)
{
	memset(&sr->changes, 0, sizeof sr->changes);
	/* Only the step's own changes for the first one: the initial state is taken before
	 * the worker settles, and is not a step the learner saw. */
	if (prev != NULL)
		snapshot_diff(prev, &sr->before, NULL, &sr->changes);
	snapshot_diff(&sr->before, &sr->after, &sr->events, &sr->changes);
}

/* The intro as this run tells it, and its sentences. */
const char *
lesson_intro(const struct lesson *l, const struct sentence_result **v, size_t *n)
{
	if (v != NULL)
		*v = l->intro_v;
	if (n != NULL)
		*n = l->intro_n;
	return l->intro;
}

/* Run, check and keep the next step. */
int
lesson_step(struct lesson *l)
{
	struct step_result sr;
	const struct step_result *prev = lesson_last(l);

	if (runner_step(l->r, &sr) == 0)
		return 0;
	lesson_diff(prev != NULL ? &prev->after : NULL, &sr);
	/* A step the user stopped did not do what it was for: nothing to check. The narration
	 * as this run tells it comes after the expectations (a sentence may cite them); a
	 * stopped step's is told too, but fails nothing. */
	if ((!sr.stopped && expect_eval(&sr) != 0) || narrate_step(&sr) != 0) {
		step_result_clear(&sr);
		return -1;
	}
	if (sr.stopped)
		sr.ok = true;
	if (history_push(&l->h, &sr) != 0) {
		step_result_clear(&sr);
		return -1;
	}
	return 1;
}

/* The results so far. */
const struct step_result *
lesson_results(const struct lesson *l)
{
	return l->h.v;
}

/* How many results. */
size_t
lesson_count(const struct lesson *l)
{
	return l->h.n;
}

/* The newest result. */
const struct step_result *
lesson_last(const struct lesson *l)
{
	return l->h.n > 0 ? history_get(&l->h, l->h.n - 1) : NULL;
}

/* Results with a failed expectation. */
size_t
lesson_failures(const struct lesson *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->h.n; i++)
		n += !l->h.v[i].ok;
	return n;
}

/* The state before the first step. */
const struct snapshot *
lesson_initial(const struct lesson *l)
{
	return runner_initial(l->r);
}

/* How stdio's calls are seen. */
enum ev_source
lesson_trace_source(const struct lesson *l)
{
	return runner_trace_source(l->r);
}

/* The scratch file. */
const char *
lesson_file_path(const struct lesson *l)
{
	return runner_file_path(l->r);
}

/* Why the scratch file is where it is; "" if nothing needs saying. */
const char *
lesson_place_note(const struct lesson *l)
{
	return runner_place_note(l->r);
}

/* Its filesystem. */
const char *
lesson_fs_name(const struct lesson *l)
{
	return runner_fs_name(l->r);
}

/* What tracing adds to a call. */
const struct runner_overhead *
lesson_tracing_overhead(const struct lesson *l)
{
	return runner_tracing_overhead(l->r);
}

/* Stop and forget. */
void
lesson_free(struct lesson *l)
{
	if (l == NULL)
		return;
	history_clear(&l->h);
	free(l->intro);
	sentence_results_free(l->intro_v, l->intro_n);
	runner_free(l->r);
	free(l);
}
