/* SPDX-License-Identifier: MIT */
/* engine/ops-int.h: what the ops' two files share (engine/ops.c: the fd ops and the worker's state;
 * engine/ops-stdio.c: the ops that act through the FILE*). */
#ifndef IOBUFVIZ_OPS_INT_H
#define IOBUFVIZ_OPS_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "engine/ops.h"

/* Time the real call only, keeping its errno: buffer preparation is not part of it. */
#define OPS_TIMED(out, stmt) do {					\
	struct timespec ops_a_, ops_b_;					\
	int ops_e_;							\
	clock_gettime(CLOCK_MONOTONIC, &ops_a_);			\
	errno = 0;							\
	stmt;								\
	ops_e_ = errno;							\
	clock_gettime(CLOCK_MONOTONIC, &ops_b_);			\
	(out)->ns = (uint64_t)((ops_b_.tv_sec - ops_a_.tv_sec) * 1000000000LL + \
	                       (ops_b_.tv_nsec - ops_a_.tv_nsec));	\
	errno = ops_e_;							\
} while (0)

/* Record ret/err from a call returning -1 and setting errno. */
void ops_set(struct ops_result *out, int64_t ret);

/*
 * A transfer buffer of len bytes starting misaligned by skew bytes from an address
 * aligned for O_DIRECT (at least 4096), so that only skew decides the lesson of 13-1.
 */
unsigned char *ops_buffer(struct ops_state *st, size_t len, size_t skew);

/* Remember an own stdio buffer until fclose; the oldest is dropped only if all slots hold one. */
void *ops_own_buffer(struct ops_state *st, size_t size);

/* A stdio op with no FILE*: EBADF, without calling (glibc would crash on NULL). */
bool ops_no_file(struct ops_state *st, struct ops_result *out);

#endif
