/* SPDX-License-Identifier: MIT */
/* test-ops.h: every op of the op table, found there: an example step of each, and the checks
 * every build of the library passes for every op (tests/check-optable's adds one). */
#ifndef IOBUFVIZ_TEST_OPS_H
#define IOBUFVIZ_TEST_OPS_H

#include <stddef.h>

#include "scenario/scenario.h"

/* Load a scenario whose last step does op, its arguments from their examples (scenario/oplist.h):
 * the required ones, then each optional one in turn if the op's own rule wants one. */
struct scenario *test_ops_example(enum scn_op op);

/*
 * Check every op of the table: its example loads as that op; its line of C and its program
 * statements are written and the program marks its lines; the JSON schema's pattern takes its
 * name; doc/scenarios.md has its row (if not, its name is appended to undocumented, comma
 * separated). Return the number of ops checked.
 */
int test_ops_check_all(char *undocumented, size_t len);

#endif
