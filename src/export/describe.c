/* SPDX-License-Identifier: MIT */
/* export/describe.c: a step as the line of C a student would write (its op's emit function
 * writes it, with the program's statements). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "export/describe.h"
#include "export/emit.h"

/* The step as C. */
char *
describe_step(const struct scn_step *st, char *buf, size_t len)
{
	struct emit e;

	emit_step(st, 0, &e);
	snprintf(buf, len, "%s", e.call.b.nomem ? "?" : ctext_str(&e.call));
	emit_clear(&e);
	return buf;
}
