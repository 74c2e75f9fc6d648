/* SPDX-License-Identifier: MIT */
/* lesson/history.c: every step result kept as observed, so going back shows what was, not a re-run. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "lesson/history.h"

/* Append a result, taking what it owns. */
int
history_push(struct history *h, struct step_result *sr)
{
	if (h->n == h->cap) {
		struct step_result *v = grow(h->v, &h->cap, h->n, sizeof *v, 16);
		if (v == NULL)
			return -1;
		h->v = v;
	}
	/* struct snapshot is large: move by copying once, then zero the source so that it
	 * no longer owns the events it pointed to. */
	memcpy(&h->v[h->n++], sr, sizeof *sr);
	memset(sr, 0, sizeof *sr);
	return 0;
}

/* Result i. */
const struct step_result *
history_get(const struct history *h, size_t i)
{
	return i < h->n ? &h->v[i] : NULL;
}

/* Forget everything. */
void
history_clear(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		step_result_clear(&h->v[i]);
	free(h->v);
	memset(h, 0, sizeof *h);
}
