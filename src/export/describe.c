/* SPDX-License-Identifier: MIT */
/* export/describe.c: a step as the line of C a student would write (its op's emit function
 * writes it, with the program's statements), and names people read. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "export/describe.h"
#include "export/emit.h"

/* Name of an errno value. */
const char *
describe_errno(int err)
{
	const char *n;

	if (err == 0)
		return "0";
	n = strerrorname_np(err);
	return n != NULL ? n : "E?";
}

/* Long name of a buffering mode. */
const char *
describe_bufmode(enum scn_bufmode m)
{
	switch (m) {
	case SCN_BUF_NONE: return "unbuffered";
	case SCN_BUF_LINE: return "line buffered";
	case SCN_BUF_FULL: return "fully buffered";
	}
	return "?";
}

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
