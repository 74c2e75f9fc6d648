/* SPDX-License-Identifier: MIT */
/* test-op.h: one extra op for a test build of the whole library (forced in with -include). */
#ifndef IOBUFVIZ_TEST_OP_H
#define IOBUFVIZ_TEST_OP_H

#include <stddef.h>

struct ops_state;
struct scn_args;
struct ops_result;
struct scn_step;

/*
 * The op: "poke" writes bytes bytes of text's first character (or 'x') to the current fd.
 * This line and the two functions in test-op.c are all it takes: no other file names it.
 */
#define SCN_OP_LIST_EXTRA(X) \
	X(POKE, "poke", FD, WORKER, ARGS, test_op_poke, test_op_describe, NULL, NULL, \
	  REQ(BYTES) OPT(TEXT))

/* Run poke in the worker. */
void test_op_poke(struct ops_state *st, const struct scn_args *a, struct ops_result *out);

/* Write poke as C. */
void test_op_describe(const struct scn_step *st, char *buf, size_t len);

#endif
