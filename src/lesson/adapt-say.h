/* SPDX-License-Identifier: MIT */
/* lesson/adapt-say.h: a step's narration for one run, filled in. */
#ifndef IOBUFVIZ_ADAPT_SAY_H
#define IOBUFVIZ_ADAPT_SAY_H

#include "lesson/step.h"

/* The step's narration for sr: the first holding case's say, else the step's, with every
 * {placeholder} filled in ("unknown" where the run cannot see it) and made safe (base/text.c).
 * A heap string, or NULL when there is no narration (or out of memory). */
char *adapt_say(const struct step_result *sr);

#endif
