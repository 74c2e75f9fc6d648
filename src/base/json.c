/* SPDX-License-Identifier: MIT */
/* base/json.c: the one JSON writer: commas, nesting and escaping, into a FILE* or a buffer. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"

/* Start a writer into f, or into a growing buffer. */
void
json_init(struct json *j, FILE *f, unsigned flags)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->flags = flags;
	j->out.max = SIZE_MAX / 2;
}

/* Write n bytes of text as they are. */
static void
json_put(struct json *j, const char *s, size_t n)
{
	if (j->f != NULL) {
		/* iobufviz makes no threads: no lock per piece (a transcript of a long program is
		 * made of millions, and the lock was a fifth of the tracer's time). */
		fwrite_unlocked(s, 1, n, j->f);
		return;
	}
	/* A failed buffer writer has no use for more: json_take gives NULL. */
	if (j->failed)
		return;
	text_addn(&j->out, s, n);
	j->failed |= j->out.nomem || j->out.cut;
}

/* Write a NUL-terminated piece of syntax. */
static void
json_puts(struct json *j, const char *s)
{
	json_put(j, s, strlen(s));
}

/* Write n bytes as a quoted, escaped JSON string. */
static void
json_quote(struct json *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	bool html = j->flags & JSON_HTML;
	size_t run = 0;   /* bytes at p + i - run that go out as they are */
	char esc[12];   /* "\\u" and up to six hex digits */

	json_put(j, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		const char *e = NULL;
		size_t k = 1, skip = 1;
		uint32_t cp;

		if (c == '"')
			e = "\\\"";
		else if (c == '\\')
			e = "\\\\";
		else if (c == '\n')
			e = "\\n";
		else if (c == '\r')
			e = "\\r";
		else if (c == '\t')
			e = "\\t";
		else if (c < 0x20 || c == 0x7f || (html && (c == '<' || c == '>' || c == '&'))) {
			snprintf(esc, sizeof esc, "\\u%04x", c);
			e = esc;
		} else if ((k = text_utf8((const char *)p + i, n - i, &cp)) == 0) {
			e = "\\ufffd";
		} else if (text_is_control(cp)) {
			/* C1 controls, bidi controls and the line and paragraph separators are legal
			 * JSON, but a terminal or a page that shows the document would act on them
			 * (base/text.c), and older JavaScript ends a line at the separators. */
			snprintf(esc, sizeof esc, "\\u%04x", cp);
			e = esc;
			skip = k;
		}
		if (e == NULL) {
			run += k;
			i += k;
			continue;
		}
		json_put(j, (const char *)p + i - run, run);
		run = 0;
		json_puts(j, e);
		i += skip;
	}
	json_put(j, (const char *)p + n - run, run);
	json_put(j, "\"", 1);
}

/* Before an item: its separator (and a pending new line), then its key if it is a member. */
static void
json_item(struct json *j, const char *key)
{
	int d = j->depth;
	bool in_object = d > 0 && j->object[d - 1];

	if ((key != NULL) != in_object)
		j->failed = true;
	if (d == 0) {
		/* Documents one after another: each on its own line (json_break). */
		if (j->n[0] > 0 && !j->newline)
			j->failed = true;
		j->newline = false;
	} else if (j->n[d] > 0 || j->newline) {
		if (j->n[d] > 0)
			json_puts(j, j->newline || !(j->flags & JSON_SPACED) ? "," : ", ");
		if (j->newline)
			json_put(j, "\n", 1);
		j->newline = false;
	}
	j->n[d]++;
	if (key != NULL) {
		json_quote(j, key, strlen(key));
		json_puts(j, j->flags & JSON_SPACED ? ": " : ":");
	}
}

/* Open an object or an array. */
static void
json_begin(struct json *j, const char *key, bool object)
{
	json_item(j, key);
	json_put(j, object ? "{" : "[", 1);
	if (j->depth == JSON_MAX_DEPTH) {
		j->failed = true;
		return;
	}
	j->object[j->depth++] = object;
	j->n[j->depth] = 0;
}

/* Close the innermost object or array, which must be of this kind. */
static void
json_end(struct json *j, bool object)
{
	if (j->depth == 0 || j->object[j->depth - 1] != object) {
		j->failed = true;
		return;
	}
	if (j->newline)
		json_put(j, "\n", 1);
	j->newline = false;
	json_put(j, object ? "}" : "]", 1);
	j->depth--;
}

/* Open an object. */
void
json_begin_object(struct json *j, const char *key)
{
	json_begin(j, key, true);
}

/* Close an object. */
void
json_end_object(struct json *j)
{
	json_end(j, true);
}

/* Open an array. */
void
json_begin_array(struct json *j, const char *key)
{
	json_begin(j, key, false);
}

/* Close an array. */
void
json_end_array(struct json *j)
{
	json_end(j, false);
}

/* Start a new line: now at the top level, else before the next item or bracket. */
void
json_break(struct json *j)
{
	if (j->depth == 0)
		json_put(j, "\n", 1);
	j->newline = true;
}

/* Write n bytes as a string. */
void
json_string_n(struct json *j, const char *key, const char *s, size_t n)
{
	json_item(j, key);
	json_quote(j, s, n);
}

/* Write a C string, or null. */
void
json_string(struct json *j, const char *key, const char *s)
{
	if (s == NULL)
		json_null(j, key);
	else
		json_string_n(j, key, s, strlen(s));
}

/* v in decimal, after a minus sign if neg, ending at end (no snprintf: a long program's
 * transcript has millions of numbers, and its format parsing was most of their cost): where
 * it begins. */
static char *
json_digits(char *end, uint64_t v, bool neg)
{
	do
		*--end = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (neg)
		*--end = '-';
	return end;
}

/* Write v in decimal, after a minus sign if neg. */
static void
json_dec(struct json *j, const char *key, uint64_t v, bool neg)
{
	char b[24], *at = json_digits(b + sizeof b, v, neg);

	json_item(j, key);
	json_put(j, at, (size_t)(b + sizeof b - at));
}

/* Write a signed integer. */
void
json_int(struct json *j, const char *key, int64_t v)
{
	json_dec(j, key, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* Write [a, b] in one piece (a folded step's 1.5 M calls are as many pairs). */
void
json_int_pair(struct json *j, const char *key, int64_t a, int64_t b)
{
	char buf[56], *end = buf + sizeof buf, *at;

	*--end = ']';
	at = json_digits(end, b < 0 ? 0 - (uint64_t)b : (uint64_t)b, b < 0);
	if (j->flags & JSON_SPACED)
		*--at = ' ';
	*--at = ',';
	at = json_digits(at, a < 0 ? 0 - (uint64_t)a : (uint64_t)a, a < 0);
	*--at = '[';
	/* An array's next pair in the same piece as its comma (a traced program's fold lists
	 * millions of them). */
	if (key == NULL && j->depth > 0 && !j->object[j->depth - 1] && j->n[j->depth] > 0 &&
	    !j->newline) {
		if (j->flags & JSON_SPACED)
			*--at = ' ';
		*--at = ',';
		j->n[j->depth]++;
	} else {
		json_item(j, key);
	}
	json_put(j, at, (size_t)(buf + sizeof buf - at));
}

/* Write an unsigned integer. */
void
json_uint(struct json *j, const char *key, uint64_t v)
{
	json_dec(j, key, v, false);
}

/* Write v as %.*f (fixed) or %.*g with prec, or null if it is not finite. */
static void
json_double(struct json *j, const char *key, double v, bool fixed, int prec)
{
	/* %f of the largest double: 309 digits, a sign, a point and the decimals. */
	char b[352];
	int n;

	if (!isfinite(v)) {
		json_null(j, key);
		return;
	}
	json_item(j, key);
	prec = prec < 0 ? 0 : prec > 17 ? 17 : prec;
	n = fixed ? snprintf(b, sizeof b, "%.*f", prec, v) : snprintf(b, sizeof b, "%.*g", prec, v);
	if (n < 0 || (size_t)n >= sizeof b) {
		j->failed = true;
		return;
	}
	json_put(j, b, (size_t)n);
}

/* Write a number with a fixed count of decimals. */
void
json_fixed(struct json *j, const char *key, double v, int decimals)
{
	json_double(j, key, v, true, decimals);
}

/* Write a number with at most digits significant digits. */
void
json_real(struct json *j, const char *key, double v, int digits)
{
	json_double(j, key, v, false, digits < 1 ? 1 : digits);
}

/* Write true or false. */
void
json_bool(struct json *j, const char *key, bool v)
{
	json_item(j, key);
	json_puts(j, v ? "true" : "false");
}

/* Write null. */
void
json_null(struct json *j, const char *key)
{
	json_item(j, key);
	json_put(j, "null", 4);
}

/* Done: 0 if whole and nothing failed. */
int
json_finish(struct json *j)
{
	if (j->depth != 0)
		j->failed = true;
	if (j->failed || (j->f != NULL && ferror(j->f))) {
		errno = j->failed ? EINVAL : EIO;
		return -1;
	}
	return 0;
}

/* Hand over a buffer writer's text. */
char *
json_take(struct json *j, size_t *len)
{
	bool ok = json_finish(j) == 0 && j->f == NULL;
	size_t n = j->out.len;
	char *b = text_take(&j->out);

	if (ok && b == NULL)
		b = calloc(1, 1);
	if (!ok) {
		free(b);
		b = NULL;
	}
	if (len != NULL)
		*len = b != NULL ? n : 0;
	json_init(j, NULL, j->flags);
	return b;
}
