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

/* True if p (inside text) is within a string or character literal or a comment. */
static bool
cident_quoted(const char *text, const char *p)
{
	char q = 0;   /* the quote of the literal we are in, '*' in a comment */

	for (const char *c = text; c < p; c++) {
		if (q == '*') {
			if (c[0] == '*' && c + 1 < p && c[1] == '/')
				q = 0, c++;
		} else if (q != 0 && *c == '\\' && c + 1 < p) {
			c++;
		} else if (q == 0 && c[0] == '/' && c + 1 < p && c[1] == '*') {
			q = '*', c++;
		} else if (q == 0 && (*c == '"' || *c == '\'')) {
			q = *c;
		} else if (q != 0 && *c == q) {
			q = 0;
		}
	}
	return q != 0;
}

/* True if text holds word as a whole C identifier (outside literals and comments). */
bool
cident_has(const char *text, const char *word)
{
	for (const char *p = text; *p != '\0'; p++)
		if (cident_at(text, p, word) && !cident_quoted(text, p))
			return true;
	return false;
}

/* Replace every whole identifier word in buf with with, outside literals (what does not fit
 * is cut). */
void
cident_replace(char *buf, size_t len, const char *word, const char *with)
{
	size_t o = 0, n = strlen(word), w = strlen(with);
	char *out;

	if (len == 0 || (out = malloc(len)) == NULL)
		return;
	for (const char *p = buf; *p != '\0' && o + 1 < len; ) {
		if (cident_at(buf, p, word) && !cident_quoted(buf, p) && o + w + 1 < len) {
			memcpy(out + o, with, w);
			o += w;
			p += n;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	memcpy(buf, out, o + 1);
	free(out);
}
