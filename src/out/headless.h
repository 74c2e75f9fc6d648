/* SPDX-License-Identifier: MIT */
/* out/headless.h: the parts of a scenario's transcript that a traced program's transcript shares. */
#ifndef IOBUFVIZ_HEADLESS_H
#define IOBUFVIZ_HEADLESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/snapshot.h"

/* Text: the stdio, cache and disk lines of a snapshot. */
void headless_text_state(FILE *f, const struct snapshot *s);

/* JSON: one snapshot's state, as a step's "state" object. */
void headless_json_state(FILE *f, const struct snapshot *s);

/* JSON: a time as ,"call_usec" and ,"usec_incl_tracing" (doc/transcript.schema.json). */
void headless_json_times(FILE *f, uint64_t ns, bool traced);

#endif
