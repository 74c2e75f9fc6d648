/* SPDX-License-Identifier: MIT */
/* lesson/adapt.h: what a step's cases and {placeholders} become on this run's filesystem and probe. */
#ifndef IOBUFVIZ_ADAPT_H
#define IOBUFVIZ_ADAPT_H

#include <stdbool.h>
#include <stddef.h>

#include "step/step.h"

/* The value of fact F on the run sr is part of, as text ("ext4", "4096", "yes"); for a sweep,
 * of the filesystems its variants ran on ("ext4, xfs" under two --dir). */
const char *adapt_fact(const struct step_result *sr, enum scn_fact f, char *buf, size_t len);

/* True if the fact of condition k has one of its values for sr (k->negate is not applied);
 * for a sweep, on every filesystem its variants ran on (each --dir; not their on: tmpfs). */
bool adapt_cond_holds(const struct scn_cond *k, const struct step_result *sr);

/* The same as 1 (holds) or 0 (does not); -1: a sweep ran on several filesystems, and it holds
 * on some of them only. */
int adapt_cond_state(const struct scn_cond *k, const struct step_result *sr);

/* vm.dirty_expire_centisecs in seconds, as text ("30"), into buf; "unknown" if unreadable. */
const char *adapt_dirty_expire(char *buf, size_t len);

/* True if case c holds for sr: all its when conditions hold, and not all its unless ones. */
bool adapt_case_holds(const struct scn_case *c, const struct step_result *sr);

/* The expectations to check for sr: the step's, then those of each case that holds, in
 * the order written; *n of them. A heap array (NULL when *n is 0 or out of memory). */
const struct scn_expect **adapt_expects(const struct step_result *sr, size_t *n);


/* The kernel's version as MAJOR * 1000 + MINOR (6.18 -> 6018), and its release in rel. */
int adapt_kernel(char *rel, size_t len);

#endif
