/* SPDX-License-Identifier: MIT */
/* out/env.h: the machine a transcript ran on (kernel, filesystem, probes, tracing), built once
 * for a lesson or a traced program and written as one "environment" object. */
#ifndef IOBUFVIZ_OUT_ENV_H
#define IOBUFVIZ_OUT_ENV_H

#include <stdbool.h>

#include "base/json.h"
#include "engine/runner.h"
#include "probe/snapshot.h"
#include "trace/event.h"

/* What a transcript says of where it ran. */
struct out_env {
	char kernel[128];               /* uname's release; "" if uname failed */
	char fs[32];                    /* "ext4", ...; "" while not known */
	char device[64];                /* "/dev/vda"; "" if not known */
	enum snap_source cache, disk;   /* the probes that observed the file */
	bool seen;                      /* fs, device and the probes are filled */
	enum ev_source trace;           /* how calls were seen */
	const struct runner_overhead *tracing;  /* what tracing adds (measured or not); NULL: none */
	const char *tracing_why;        /* why tracing is null, when it is */
};

/* Start e: the kernel, calls seen as trace, nothing observed yet. */
void out_env_init(struct out_env *e, enum ev_source trace);

/* Fill fs (NULL: the snapshot's), device and the probes from the first observation s. Later
 * calls change nothing. */
void out_env_observe(struct out_env *e, const char *fs, const struct snapshot *s);

/* What tracing adds to a call: o (NULL or not measured: null, and why). */
void out_env_tracing(struct out_env *e, const struct runner_overhead *o);

/* The "environment" member of j's open object. */
void out_env_json(struct json *j, const struct out_env *e);

#endif
