/* SPDX-License-Identifier: MIT */
/* test-op.c: the functions of the extra op that tests/test-op.h adds to a test build. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/ops.h"
#include "export/emit.h"
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

/* Write poke as C: the line a student reads, and the statements that make its one write(). */
void
test_op_emit(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	size_t n = a->bytes < 4096 ? (size_t)a->bytes : 4096;

	ctext_printf(&e->call, "poke(fd, %" PRIu64 ")", a->bytes);
	ctext_printf(&e->code, "memset(rbuf, %d, %zu);   /* poke */\n"
	             "check(\"write\", write(fd, rbuf, %zu));",
	             a->text != NULL && a->text[0] != '\0' ? (unsigned char)a->text[0] : 'x', n, n);
}
