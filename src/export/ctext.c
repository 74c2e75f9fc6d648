/* SPDX-License-Identifier: MIT */
/* export/ctext.c: C source text that grows as it is written, and the one writer of a scenario's
 * text into it: string literals and comments that hold the text and nothing else. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "export/ctext.h"

/* Bytes of escaped text in one piece of a long literal (about a line's worth). */
#define CTEXT_PIECE 64

/* Make room for n more bytes and the NUL; false (and nomem) if there is none. */
static bool
ctext_grow(struct ctext *t, size_t n)
{
	size_t cap;
	char *s;

	if (t->nomem)
		return false;
	if (t->len + n + 1 <= t->cap)
		return true;
	for (cap = t->cap ? t->cap : 256; cap < t->len + n + 1; cap *= 2)
		continue;
	if ((s = realloc(t->s, cap)) == NULL) {
		t->nomem = true;
		return false;
	}
	t->s = s;
	t->cap = cap;
	return true;
}

/* Append the n bytes of p. */
static void
ctext_put(struct ctext *t, const char *p, size_t n)
{
	if (!ctext_grow(t, n))
		return;
	memcpy(t->s + t->len, p, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Append formatted text. */
void
ctext_printf(struct ctext *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->nomem = true;
		return;
	}
	if (!ctext_grow(t, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* End a literal's piece and open the next on a new line, indent tabs in. */
static void
ctext_next_piece(struct ctext *t, int indent)
{
	ctext_put(t, "\"\n", 2);
	for (int i = 0; i < indent; i++)
		ctext_put(t, "\t", 1);
	ctext_put(t, "\"", 1);
}

/* Append s as a string literal of exactly its bytes (see export/ctext.h). */
void
ctext_literal(struct ctext *t, const char *s, int indent)
{
	const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
	size_t piece = 0;

	ctext_put(t, "\"", 1);
	for (size_t i = 0; u[i] != '\0'; i++) {
		char e[8];
		size_t n = 2;

		if (u[i] == '\n' || u[i] == '\t')
			snprintf(e, sizeof e, "\\%c", u[i] == '\n' ? 'n' : 't');
		else if (u[i] == '"' || u[i] == '\\' || (u[i] == '?' && i > 0 && u[i - 1] == '?'))
			snprintf(e, sizeof e, "\\%c", u[i]);
		else if (u[i] < 0x20 || u[i] >= 0x7f)
			n = (size_t)snprintf(e, sizeof e, "\\%03o", u[i]);
		else
			e[0] = (char)u[i], n = 1;
		if (piece > 0 && piece + n > CTEXT_PIECE) {
			ctext_next_piece(t, indent);
			piece = 0;
		}
		ctext_put(t, e, n);
		piece += n;
	}
	ctext_put(t, "\"", 1);
}

/* Append s as comment text (see export/ctext.h). */
void
ctext_comment(struct ctext *t, const char *s)
{
	char *safe = text_safe_dup(s != NULL ? s : "", TEXT_LINE);
	char prev = '\0';

	if (safe == NULL) {
		t->nomem = true;
		return;
	}
	for (const char *p = safe; *p != '\0'; p++) {
		/* A space parts '*' and '/' both ways; a backslash parts two '?'. */
		if ((prev == '*' && *p == '/') || (prev == '/' && *p == '*'))
			ctext_put(t, " ", 1);
		else if (prev == '?' && *p == '?')
			ctext_put(t, "\\", 1);
		ctext_put(t, p, 1);
		prev = *p;
	}
	free(safe);
}

/* The text so far. */
const char *
ctext_str(const struct ctext *t)
{
	return t->s != NULL ? t->s : "";
}

/* Free t's text. */
void
ctext_clear(struct ctext *t)
{
	free(t->s);
	*t = (struct ctext){ 0 };
}
