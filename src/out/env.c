/* SPDX-License-Identifier: MIT */
/* out/env.c: the machine a transcript ran on, built once, written as the "environment" object. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "out/env.h"
#include "scenario/names.h"
#include "probe/names.h"

/* Start e. */
void
out_env_init(struct out_env *e, enum ev_source trace)
{
	struct utsname u;

	memset(e, 0, sizeof *e);
	e->cache = e->disk = SNAP_SRC_NONE;
	e->trace = trace;
	if (uname(&u) == 0)
		snprintf(e->kernel, sizeof e->kernel, "%s", u.release);
}

/* Fill what the first observation tells; the probes and the device from the first that
 * names them (a lesson that makes its file has none before it does). */
void
out_env_observe(struct out_env *e, const char *fs, const struct snapshot *s)
{
	if (!e->seen)
		snprintf(e->fs, sizeof e->fs, "%s", fs != NULL ? fs : s->disk.fs);
	if (e->device[0] == '\0')
		snprintf(e->device, sizeof e->device, "%s", s->disk.device);
	if (e->cache == SNAP_SRC_NONE)
		e->cache = s->cache.source;
	if (e->disk == SNAP_SRC_NONE)
		e->disk = s->disk.source;
	e->seen = true;
}

/* What tracing adds, or why that is not known. */
void
out_env_tracing(struct out_env *e, const struct runner_overhead *o)
{
	e->tracing = o != NULL && o->measured ? o : NULL;
	if (e->tracing != NULL)
		e->tracing_why = NULL;
	else if (e->trace != EV_SRC_PTRACE)
		e->tracing_why = "not traced: the times are the calls' own";
	else if (o != NULL)
		e->tracing_why = "the null call could not be timed";
	else
		e->tracing_why = "not measured for a program run";
}

/* The "environment" member. */
void
out_env_json(struct json *j, const struct out_env *e)
{
	json_begin_object(j, "environment");
	json_string(j, "kernel", e->kernel);
	json_string(j, "fs", e->fs[0] ? e->fs : "unknown");
	json_string(j, "device", e->device[0] ? e->device : NULL);
	json_bool(j, "cachestat", e->cache == SNAP_SRC_CACHESTAT);
	json_string(j, "cache_source", scenario_names_of(scn_sources, (int)e->cache));
	json_bool(j, "fiemap", e->disk == SNAP_SRC_FIEMAP);
	json_string(j, "trace", scenario_names_of(scn_traces, (int)e->trace));
	json_string(j, "version", PACKAGE_VERSION);
	if (e->tracing != NULL) {
		json_begin_object(j, "tracing");
		json_fixed(j, "null_call_usec", e->tracing->bare_ns / 1e3, 3);
		json_fixed(j, "null_call_traced_usec", e->tracing->traced_ns / 1e3, 3);
		json_end_object(j);
	} else {
		json_null(j, "tracing");
		json_string(j, "tracing_why", e->tracing_why);
	}
	json_end_object(j);
}
