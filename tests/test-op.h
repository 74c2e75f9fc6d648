/* SPDX-License-Identifier: MIT */
/* test-op.h: one extra op for a test build of the whole library (forced in with -include). */
#ifndef IOBUFVIZ_TEST_OP_H
#define IOBUFVIZ_TEST_OP_H

#include <stddef.h>

struct ops_state;
struct scn_args;
struct ops_result;
struct scn_step;
struct emit;

/*
 * The op: "poke" writes bytes bytes of text's first character (or 'x') to the current fd.
 * This line and the two functions in test-op.c are all it takes: no other file names it.
 */
#define SCN_OP_LIST_EXTRA(X) \
	X(POKE, "poke", FD, WORKER, ARGS, SCN_OPF_FD | SCN_OPF_WRITES | SCN_OPF_CALL, DIRTY, NULL, \
	  test_op_poke, NULL, test_op_emit, REQ(BYTES) OPT(TEXT))

/* Run poke in the worker. */
void test_op_poke(struct ops_state *st, const struct scn_args *a, struct ops_result *out);

/* Write poke as C: the line, and the program's statement (a memset and a write). */
void test_op_emit(const struct scn_step *st, struct emit *e);

#endif
