/* SPDX-License-Identifier: MIT */
/* lesson/history.h: the step results seen so far, for going back and replaying recorded snapshots. */
#ifndef IOBUFVIZ_HISTORY_H
#define IOBUFVIZ_HISTORY_H

#include <stddef.h>

#include "step/step.h"

struct history {
	struct step_result *v;
	size_t n, cap;
};

/* Move *sr to the end of the history (sr is left zeroed). 0 or -1 (ENOMEM, sr untouched). */
int history_push(struct history *h, struct step_result *sr);

/* Result i (0-based), or NULL past the end. */
const struct step_result *history_get(const struct history *h, size_t i);

/* Forget every result (step_result_clear on each) and free the storage. */
void history_clear(struct history *h);

#endif
