/* SPDX-License-Identifier: MIT */
/* fixture-views.h: a hand-built run of exercise 13-3 (observed-looking data, for drawing tests). */
#ifndef IOBUFVIZ_FIXTURE_VIEWS_H
#define IOBUFVIZ_FIXTURE_VIEWS_H

#include "step/step.h"

#define FIX_STEPS 4

extern struct scenario fix_scn;
extern struct step_result fix_res[FIX_STEPS];
extern struct snapshot fix_initial;

/* Build the run (events are heap: fixture_free). */
void fixture_build(void);

/* Free the events. */
void fixture_free(void);

#endif
