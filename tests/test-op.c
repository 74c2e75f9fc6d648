/* SPDX-License-Identifier: MIT */
/* test-op.c: the functions of the extra op that tests/test-op.h adds to a test build. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/ops.h"
#include "scenario/scenario.h"

/* Write a->bytes bytes of a->text's first character (or 'x') to the current fd. */
void
test_op_poke(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	char buf[4096];
	size_t n = a->bytes < sizeof buf ? (size_t)a->bytes : sizeof buf;
	ssize_t rc;

	memset(buf, a->text != NULL && a->text[0] != '\0' ? a->text[0] : 'x', n);
	errno = 0;
	rc = write(st->fd, buf, n);
	out->ret = rc;
	out->err = rc < 0 ? errno : 0;
	snprintf(out->note, sizeof out->note, "poked %zu bytes", n);
}

/* Write poke as C. */
void
test_op_describe(const struct scn_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "poke(fd, %" PRIu64 ")", st->args.bytes);
}
