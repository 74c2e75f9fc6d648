/* SPDX-License-Identifier: MIT */
/* export/cident.c: whole C identifiers in generated C text (a named fd in place of fd, ...),
 * never inside a literal or a comment. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "export/cident.h"

/* True if p (inside text) starts the whole identifier word. */
static bool
cident_at(const char *text, const char *p, const char *word)
{
	size_t n = strlen(word);

	return (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
	       strncmp(p, word, n) == 0 && !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

/*
 * Step over the C text at c: the bytes of one step (an escape in a literal, a comment's end or
 * start, else one byte) and the state after them in *q: 0 in code, the quote of the literal
 * we are in, '*' in a comment. One pass over a text with it sees each byte once (a word
 * looked up from the text's start each time took seconds for a long text of that word).
 */
static size_t
cident_step(const char *c, char *q)
{
	if (*q == '*') {
		if (c[0] == '*' && c[1] == '/') {
			*q = 0;
			return 2;
		}
	} else if (*q != 0) {
		if (c[0] == '\\' && c[1] != '\0')
			return 2;
		if (c[0] == *q)
			*q = 0;
	} else if (c[0] == '/' && c[1] == '*') {
		*q = '*';
		return 2;
	} else if (c[0] == '"' || c[0] == '\'') {
		*q = c[0];
	}
	return 1;
}

/* True if text holds word as a whole C identifier (outside literals and comments). */
bool
cident_has(const char *text, const char *word)
{
	char q = 0;

	for (const char *p = text; *p != '\0'; p += cident_step(p, &q))
		if (q == 0 && cident_at(text, p, word))
			return true;
	return false;
}

/* Replace every whole identifier word in buf with with, outside literals (what does not fit
 * is cut). */
void
cident_replace(char *buf, size_t len, const char *word, const char *with)
{
	size_t o = 0, n = strlen(word), w = strlen(with);
	char *out, q = 0;

	if (len == 0 || (out = malloc(len)) == NULL)
		return;
	for (const char *p = buf; *p != '\0' && o + 1 < len; ) {
		if (q == 0 && cident_at(buf, p, word) && o + w + 1 < len) {
			memcpy(out + o, with, w);
			o += w;
			p += n;
			continue;
		}
		for (size_t k = cident_step(p, &q); k > 0 && o + 1 < len; k--)
			out[o++] = *p++;
	}
	out[o] = '\0';
	memcpy(buf, out, o + 1);
	free(out);
}
