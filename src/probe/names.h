/* SPDX-License-Identifier: MIT */
/* probe/names.h: the names of an observation's enums, printed, not read (transcripts, --probe,
 * {placeholders}): one table per enum, in scenario/names.h's form. They stand here, above
 * both the probes' enums (probe/snapshot.h) and the tracer's (trace/event.h). */
#ifndef IOBUFVIZ_PROBE_NAMES_H
#define IOBUFVIZ_PROBE_NAMES_H

#include "scenario/names.h"

extern const struct scn_name scn_sources[];   /* enum snap_source */
extern const struct scn_name scn_traces[];    /* enum ev_source */
extern const struct scn_name scn_origins[];   /* enum ev_origin, as JSON names it */
extern const struct scn_name scn_origin_words[]; /* enum ev_origin, for people */
extern const struct scn_name scn_cell_disks[]; /* enum snap_cell_disk */

#endif
