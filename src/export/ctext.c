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
/* Columns a literal's piece may reach (its closing quote included): with the tab the program
 * indents a step's code by and a short tail ("));") a line stays within 120 columns. The
 * fewest bytes a piece holds when it starts far right (else it starts on the next line). */
#define CTEXT_LIT_WIDTH 100
#define CTEXT_PIECE_MIN 16
/* Columns a comment's text may reach before it goes on on a new line (" * "). */
#define CTEXT_WIDTH 76

/* Append the n bytes of p; a text cut at its bound is an incomplete one, like no memory. */
static void
ctext_put(struct ctext *t, const char *p, size_t n)
{
	text_addn(&t->b, p, n);
	t->b.nomem |= t->b.cut;
}

/* Append formatted text. */
void
ctext_printf(struct ctext *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vaddf(&t->b, fmt, ap);
	va_end(ap);
	t->b.nomem |= t->b.cut;
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

/* The bytes a literal's piece may hold from column col (its opening quote passed): up to
 * CTEXT_LIT_WIDTH, at most CTEXT_PIECE; none if fewer than CTEXT_PIECE_MIN fit there (the
 * literal goes on on the next line at once). */
static size_t
ctext_room(size_t col)
{
	if (col + 1 + CTEXT_PIECE_MIN > CTEXT_LIT_WIDTH)
		return 0;
	return col + 1 + CTEXT_PIECE > CTEXT_LIT_WIDTH ? CTEXT_LIT_WIDTH - col - 1 : CTEXT_PIECE;
}

/* Append s as a string literal of exactly its bytes (see export/ctext.h). */
void
ctext_literal(struct ctext *t, const char *s, int indent)
{
	const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
	size_t piece = 0, col = ctext_column(t) + 1;   /* after the opening quote */
	size_t room = ctext_room(col);

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
		if (piece + n > room) {   /* a piece starting too far right ends at once ("") */
			ctext_next_piece(t, indent);
			piece = 0;
			room = ctext_room((size_t)indent * 8 + 1 + t->margin);
		}
		ctext_put(t, e, n);
		piece += n;
	}
	ctext_put(t, "\"", 1);
}

/* The column the last line of t has reached (a tab to the next multiple of 8, a character of
 * UTF-8 one column), the columns its names may still gain added. */
size_t
ctext_column(const struct ctext *t)
{
	const char *s = ctext_str(t), *p = s + t->b.len;
	size_t col = 0;

	while (p > s && p[-1] != '\n')   /* from the end: a long text's lines cost their length */
		p--;
	for (; *p != '\0'; p++)
		if (*p == '\t')
			col = (col / 8 + 1) * 8;
		else if ((*p & 0xc0) != 0x80)
			col++;
	return col + t->margin;
}

/* Bytes of the unit at p of text_safe's output: an escape ("\\x1b", "\\u202e", "\\\\"), a
 * UTF-8 character, a byte. */
static size_t
ctext_unit(const char *p)
{
	size_t n = 1;

	if (p[0] == '\\')
		return p[1] == 'x' ? 4 : p[1] == 'u' ? 6 : 2;
	while ((p[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/* Columns the n bytes at p take (one a character). */
static size_t
ctext_width(const char *p, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += (p[i] & 0xc0) != 0x80;
	return w;
}

/* Append one word of comment text (escaped): a unit that would pass CTEXT_WIDTH goes on a new
 * line (unless it is the line's first); "*" "/" parted by a space both ways, "??" by a
 * backslash. *prev: the last byte written ('\0' at a line's start); *col: its column. */
static void
ctext_comment_word(struct ctext *t, const char *w, char *prev, size_t *col)
{
	for (size_t n; *w != '\0'; w += n) {
		char part = (*prev == '*' && *w == '/') || (*prev == '/' && *w == '*') ? ' ' :
		            *prev == '?' && *w == '?' ? '\\' : '\0';
		size_t width = ctext_width(w, n = ctext_unit(w));

		if (*prev != '\0' && *col + (part != '\0') + width > CTEXT_WIDTH) {
			ctext_put(t, "\n * ", 4);
			*col = 3;
			part = '\0';
		}
		if (part != '\0')
			ctext_put(t, &part, 1), (*col)++;
		ctext_put(t, w, n);
		*col += width;
		*prev = w[n - 1];
	}
}

/* Append s as comment text, its words wrapped (see export/ctext.h). */
void
ctext_comment(struct ctext *t, const char *s)
{
	const char *p = s != NULL ? s : "";
	size_t col = ctext_column(t);
	char prev = '\0';

	while (*p != '\0') {
		size_t n = strcspn(p, " \t\n");
		char *word, *safe;

		if (n == 0) {
			p++;
			continue;
		}
		if ((word = strndup(p, n)) == NULL || (safe = text_safe_dup(word, TEXT_LINE)) == NULL) {
			free(word);
			t->b.nomem = true;
			return;
		}
		/* A word goes on a new line if it would pass the width here and fit there. */
		if (prev != '\0') {
			size_t w = ctext_width(safe, strlen(safe));
			if (col + 1 + w > CTEXT_WIDTH && 3 + w <= CTEXT_WIDTH) {
				ctext_put(t, "\n *", 3);
				col = 2;
			}
			ctext_put(t, " ", 1);
			col++;
			prev = ' ';
		}
		ctext_comment_word(t, safe, &prev, &col);
		free(safe);
		free(word);
		p += n;
	}
}

/* The text so far. */
const char *
ctext_str(const struct ctext *t)
{
	return text_str(&t->b);
}

/* Free t's text. */
void
ctext_clear(struct ctext *t)
{
	text_buf_free(&t->b);
	*t = (struct ctext){ 0 };
}
