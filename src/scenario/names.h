/* SPDX-License-Identifier: MIT */
/* scenario/names.h: the names of the values a scenario holds (YAML), one table per enum. */
#ifndef IOBUFVIZ_SCENARIO_NAMES_H
#define IOBUFVIZ_SCENARIO_NAMES_H

#include "scenario/bufmode.h"

/* One name and its value; a table ends with a NULL name. */
struct scn_name {
	const char *name;
	int value;
};

extern const struct scn_name scn_open_flags[];
extern const struct scn_name scn_fcntl_cmds[];
extern const struct scn_name scn_child_ends[];
extern const struct scn_name scn_sfr_flags[];
extern const struct scn_name scn_variant_flags[];
extern const struct scn_name scn_advices[];
extern const struct scn_name scn_whences[];
extern const struct scn_name scn_bufmodes[];
extern const struct scn_name scn_buffers[];
extern const struct scn_name scn_setbuf_buffers[];
extern const struct scn_name scn_betweens[];
extern const struct scn_name scn_untils[];
extern const struct scn_name scn_yesno[];     /* a yes/no expectation (crash.*.exists) */
extern const struct scn_name scn_fss[];
extern const struct scn_name scn_fills[];
extern const struct scn_name scn_programs[];
extern const struct scn_name scn_sync_eachs[];
extern const struct scn_name scn_caches[];
/* An observation's enums are named in probe/names.h. */

/* The names of enum scn_fact, then of the rest of enum scn_env (scenario.h): what a case's
 * condition and a mark of narration may name besides the expectation keys; NULL-ended. */
extern const char *const scn_env_names[];

/* Name of value in t (the first that matches), "?" if none. */
const char *scenario_names_of(const struct scn_name *t, int value);

/* Length of the longest name of t (they are ASCII: columns too). */
int scenario_names_width(const struct scn_name *t);

/* Name of an errno value ("EINVAL"), "0" for 0: a step's error as people read it. */
const char *scenario_errno_name(int err);

/* Name of a buffering mode as people read it: "unbuffered", "line buffered", "fully buffered"
 * (scn_bufmodes has the scenario's own words). */
const char *scenario_bufmode_name(enum scn_bufmode m);

#endif
