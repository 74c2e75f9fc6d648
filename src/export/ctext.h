/* SPDX-License-Identifier: MIT */
/* export/ctext.h: C source text that grows as it is written, and the one writer of a scenario's
 * text into it (string literals, comments): no byte of a scenario can become code there. */
#ifndef IOBUFVIZ_CTEXT_H
#define IOBUFVIZ_CTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/text.h"

/* C text being written: base/text.h's buffer, and what its lines may still gain. */
struct ctext {
	struct text_buf b;  /* b.nomem: a write did not fit in memory, the text is incomplete
	                     * (ctext_put makes a cut at b's bound one too: cut C is no C) */
	size_t margin;  /* columns a line may still gain after it is written (longer names put
	                 * in place of shorter ones): ctext_column and a literal's pieces leave
	                 * room for them */
};

/* Append printf-style text (C we write ourselves: never a scenario's text). */
void ctext_printf(struct ctext *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Append s as one C string literal holding exactly its bytes, never cut: '"', '\\' and the
 * second of two '?' escaped (no trigraph can form with -std=c11), \n and \t by name, every
 * other control byte, DEL and every byte past ASCII as a three-digit octal escape (which no
 * following digit can lengthen). A long literal is split into pieces ("..." "..."), each
 * continued on a new line indented by indent tabs; the first piece ends by column 100 of t's
 * line (none of it there if too little fits: the literal then starts as "" and goes on), each
 * piece t's margin sooner.
 */
void ctext_literal(struct ctext *t, const char *s, int indent);

/*
 * Append s as the text inside a block comment: its words (apart by blanks and line breaks in
 * s) one space apart, each with every control, bidi control and byte that is not UTF-8 shown
 * escaped as base/text.c shows it to a terminal; no comment can close or open ('*' then '/',
 * '/' then '*') nor a trigraph form ("??") in it. Past 76 columns of t's last line the text
 * goes on on a new line " * " (a word wider than that is cut between two characters).
 */
void ctext_comment(struct ctext *t, const char *s);

/* The column the last line of t has reached (a tab to the next multiple of 8), t's margin
 * added. */
size_t ctext_column(const struct ctext *t);

/* The text so far (never NULL: "" before any write). */
const char *ctext_str(const struct ctext *t);

/* Free what t holds and make it empty again. */
void ctext_clear(struct ctext *t);

#endif
