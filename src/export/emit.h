/* SPDX-License-Identifier: MIT */
/* export/emit.h: each op as C, written once for both its uses: the line a student would write
 * (transcripts, the TUI) and the statements of a whole program (the program pane, --export=c). */
#ifndef IOBUFVIZ_EMIT_H
#define IOBUFVIZ_EMIT_H

#include <stddef.h>

#include "export/ctext.h"
#include "scenario/oplist.h"

struct scn_step;

/*
 * A step as C. call: the line a student would write ("fwrite(buf, 1, 5000, fp)"), a text
 * shown as written, to be escaped by whatever shows it. code: the statements of a whole
 * program, lines split by '\n', no indent, every text of the scenario in it written by
 * export/ctext.c. The names code may use are declared by export/program.c: path is argv[1],
 * fd and fp the current descriptor and stream, wbuf the write buffer (the "abc...z"
 * pattern), rbuf the read buffer (both aligned for O_DIRECT), vbufN the own stdio buffer of
 * the step on scenario line N (own_buffer bytes); check() and check_rc() report a failed
 * call on stderr.
 */
struct emit {
	struct ctext call;
	struct ctext code;
	size_t own_buffer;   /* bytes of the own stdio buffer vbufN the step needs; 0: none */
	size_t n;            /* the step's number (1-based): its own names (vbufN, sweepN) are
	                        keyed by it, never by its line (a flow-style list is one line) */
};

/* export/emit-step.c: true if op has its writer (every op should: else a comment stands in). */
bool emit_step_has(enum scn_op op);

/* export/emit-step.c: write step st, number n (1-based), as C into e (empty), a named pair's
 * names in place of fd and fp. */
void emit_step(const struct scn_step *st, size_t n, struct emit *e);

/* Free what e holds. */
void emit_clear(struct emit *e);

/* Each op as C: the function its entry in SCN_OP_LIST names (declared from the list). */
#define EMIT_DECLARE(tail_, name_, io_, runs_, form_, flags_, layer_, cname_, run_, check_, \
                     fn_, ...) void fn_(const struct scn_step *, struct emit *);
SCN_OP_LIST(EMIT_DECLARE)
#undef EMIT_DECLARE

#endif
