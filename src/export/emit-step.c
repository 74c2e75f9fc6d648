/* SPDX-License-Identifier: MIT */
/* export/emit-step.c: a step as C: its op's writer, found in the op table's emit column, then a
 * named pair's names in place of fd and fp (above the writers, which never call it back). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/cident.h"
#include "export/emit-int.h"

/* Replace every whole identifier word outside literals in t with with. */
static void
emit_step_rename(struct ctext *t, const char *word, const char *with)
{
	/* Room for every byte of t to be the start of a replaced word. */
	size_t cap = t->b.len + 1 + (t->b.len / strlen(word) + 1) * strlen(with);
	char *buf;

	if (t->b.len == 0)
		return;
	if ((buf = malloc(cap)) == NULL) {
		t->b.nomem = true;
		return;
	}
	memcpy(buf, ctext_str(t), t->b.len + 1);
	cident_replace(buf, cap, word, with);
	ctext_clear(t);
	ctext_printf(t, "%s", buf);
	free(buf);
}

/* The op table's emit column: each op as C, both texts. */
static void (*const emit_ops[SCN_OP__COUNT])(const struct scn_step *, struct emit *) = {
	SCN_OP_LIST(SCN_OP_EMIT)
};

/* True if op has its writer (every op should: else a comment stands in for it). */
bool
emit_step_has(enum scn_op op)
{
	return (unsigned)op < SCN_OP__COUNT && emit_ops[op] != NULL;
}

/* Write step st (number n) as C (both texts), a named pair's names in place of fd and fp. */
void
emit_step(const struct scn_step *st, size_t n, struct emit *e)
{
	*e = (struct emit){ .n = n };
	if (!emit_step_has(st->op)) {
		ctext_printf(&e->call, "?");
		ctext_printf(&e->code, "/* %s: not a C call */", scenario_op_name(st->op));
		return;
	}
	/* A named pair's names come in after the code is laid out, each "_NAME" longer than fd
	 * or fp, both on one line at most (fp_a = fdopen(fd_a, "r+")): its lines leave room for
	 * them (a write() of a 64-byte text on a pair of 15 letters took 122 columns). */
	if (st->handle != 0 && st->name != NULL)
		e->code.margin = 2 * (1 + strlen(st->name));
	emit_ops[st->op](st, e);
	if (st->handle == 0 || st->name == NULL)
		return;
	/* The line: the pair's name in place of fp, and of fd unless fp is there too (fdopen
	 * and fileno keep the fd as it is): a = open(...), fputs(..., a). */
	if (!cident_has(ctext_str(&e->call), "fp"))
		emit_step_rename(&e->call, "fd", st->name);
	emit_step_rename(&e->call, "fp", st->name);
	/* The program: fd_NAME and fp_NAME in place of fd and fp; the op that made its pair
	 * from the unnamed fd (fdopen as:) keeps fd. */
	char with[40];
	snprintf(with, sizeof with, "fp_%s", st->name);
	emit_step_rename(&e->code, "fp", with);
	if (scenario_op_has(st->op, SCN_OPF_WRAPS) && scenario_op_has(st->op, SCN_OPF_FD) &&
	    st->made)
		return;
	snprintf(with, sizeof with, "fd_%s", st->name);
	emit_step_rename(&e->code, "fd", with);
}
