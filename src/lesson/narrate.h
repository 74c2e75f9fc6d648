/* SPDX-License-Identifier: MIT */
/* lesson/narrate.h: narration as this run tells it: each sentence held, unchecked or false here,
 * from the facts it rests on (doc/scenarios.md, section 5). */
#ifndef IOBUFVIZ_NARRATE_H
#define IOBUFVIZ_NARRATE_H

#include <stddef.h>

#include "step/step.h"

/*
 * Tell sr's narration (the first holding case's say, else the step's): in each part the first
 * alternative whose sentences all hold, else the first with none false, else the first, whose
 * false sentences are not told and fail the step (sr->ok false). Fills sr->say, sr->sentences,
 * sr->n_unchecked and sr->n_false. 0, or -1 out of memory.
 */
int narrate_step(struct step_result *sr);

/*
 * Tell the scenario's intro for the run whose first look is INITIAL: *say (a heap string; NULL
 * when there is no intro) and its sentences (*v, *n; heap). 0, or -1 out of memory.
 */
int narrate_intro(const struct scenario *s, const struct snapshot *initial, char **say,
		  struct sentence_result **v, size_t *n);

/* A copy of sentence text T on one line, without its trailing space: for a line of a
 * transcript (a heap string; NULL out of memory). */
char *narrate_line(const char *t);

/* The told text of sentences V (N of them), each unchecked one marked " [?K]" (K from 1, in
 * order) where it ends, each run of background ones inside "[background: ...]". A heap string ("" when none is told), or NULL out of memory. */
char *narrate_marked(const struct sentence_result *v, size_t n);

#endif
