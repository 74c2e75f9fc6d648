/* SPDX-License-Identifier: MIT */
/* lesson/lesson.c: the one place a step is run, checked against its expectations and kept, so
 * that every front end (TUI, transcripts) shows the same conclusions. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "crash/crash.h"
#include "lesson/expect.h"
#include "lesson/history.h"
#include "lesson/lesson.h"
#include "lesson/narrate.h"
#include "step/snapshot-diff.h"

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

/* Where the pages cached after sr came from (hist[0..n): the results before it). */
void
lesson_origins(const struct step_result *hist, size_t n, struct step_result *sr)
{
	struct snapshot_origins *o = &sr->origins;

	snapshot_origins_begin(&sr->before, &sr->after, &sr->events, o);
	if (!o->valid)
		return;
	/* The last step that asked for pages: a WILLNEED whose pages were not all seen after it
	 * may still be arriving (a probe that sees a page once its read has completed). */
	for (size_t j = n; j-- > 0;) {
		const struct snapshot_origins *p = &hist[j].origins;
		if (!p->valid)
			continue;
		if (p->prefetch && p->asked_unseen > 0) {
			o->earlier_first = p->asked_first;
			o->earlier_end = p->asked_end;
			o->earlier_step = j + 1;
		}
		break;
	}
	snapshot_origins_count(&sr->before, &sr->after, o);
	/* The steps that brought in the pages it found: back to the last one that found none.
	 * A step's pages are those it added, and those that arrived before the next step began
	 * (its WILLNEED or read-ahead completing, for a probe that sees a page only then). */
	uint64_t next = sr->before.cache.cached;
	for (size_t j = n; o->pages[SNAPSHOT_FROM_BEFORE] > 0 && j-- > 0;) {
		const struct snap_cache *a = &hist[j].before.cache;
		bool added = next > a->cached;
		next = a->cached;
		if (added) {
			if (o->n_by == SNAPSHOT_BY_MAX) {
				o->by_more = true;
				break;
			}
			o->by_op[o->n_by] = hist[j].step != NULL ? hist[j].step->op : SCN_OP_NOTE;
			o->by_willneed[o->n_by] = hist[j].origins.valid && hist[j].origins.prefetch;
			o->by[o->n_by++] = j + 1;
		}
		if (a->cached == 0)
			break;
		if (j == 0 && o->n_by < SNAPSHOT_BY_MAX)
			o->by[o->n_by++] = 0;
	}
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
	/* Pages dropped in an earlier pause are still missing now: what a step finds cached
	 * may be short by all of them, not only by this pause's. */
	sr.evicted = prev != NULL ? prev->evicted : 0;
	for (size_t i = 0; i < sr.changes.n; i++)
		if (sr.changes.v[i].kind == SNAPSHOT_CHANGE_EVICTED && sr.changes.v[i].between)
			sr.evicted += sr.changes.v[i].count;
	lesson_origins(l->h.v, l->h.n, &sr);
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

/* Both crashes now, kept with the newest result. */
int
lesson_crash(struct lesson *l)
{
	struct step_result *sr = l->h.n > 0 ? &l->h.v[l->h.n - 1] : NULL;
	struct crash_view *v;

	if (sr == NULL)
		return -1;
	if (scn_op_table[sr->step->op].runs == SCN_RUNS_RUNNER_CRASH)
		return 0;
	if ((v = malloc(sizeof *v)) == NULL)
		return -1;
	runner_crash(l->r, NULL, v);
	free(sr->crash);
	sr->crash = v;
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

/* Did a step run past --timeout? */
bool
lesson_timed_out(const struct lesson *l)
{
	for (size_t i = 0; i < l->h.n; i++)
		if (l->h.v[i].timed_out)
			return true;
	return false;
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
