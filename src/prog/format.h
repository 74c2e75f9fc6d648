/* SPDX-License-Identifier: MIT */
/* format.h: a traced program's step as the program wrote it. */
#ifndef IOBUFVIZ_PROG_FORMAT_H
#define IOBUFVIZ_PROG_FORMAT_H

#include <limits.h>
#include <stddef.h>

#include "prog/trace.h"

/* The step as the program wrote it, into buf: "openat("in", O_RDONLY) = 3",
 * "fwrite(buf, 1, 100, fp) = 100", "fp = fopen("out.txt", "w") -> fd 3", "exited 0". A buf
 * of PROG_FORMAT_STEP_MAX bytes holds it whole: its path is at most PATH_MAX bytes quoted
 * (cut with "..." where the tracer cut it), the rest bounded by the tracer's fields. */
#define PROG_FORMAT_STEP_MAX (PATH_MAX + 1024)
char *prog_format_step(const struct prog_step *s, char *buf, size_t len);

/* A stream as the program names it (the step's stream_name, else by its fd). */
const char *prog_format_stream(const struct prog_step *s);

struct prog_run_step;

struct text_buf;

/* A folded run of stdio calls (s->count of them), what it did, appended to b: "[123]
 * getline(&line, &n, fp) x 31: 30 lines, 921 B, then -1 (end of file)". */
void prog_format_fold(const struct prog_run_step *s, struct text_buf *b);

#endif
