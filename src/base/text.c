/* SPDX-License-Identifier: MIT */
/* base/text.c: the one sanitiser of untrusted text, for every sink that reaches a terminal. */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/grow.h"
#include "base/text.h"

/*
 * True if cp is C0 (below 0x20), DEL, C1 (0x80 to 0x9f), or a character that reorders or
 * breaks the text around it: the bidi controls (U+202A-202E embeddings and overrides,
 * U+2066-2069 isolates, U+200E/200F/061C marks: "Trojan Source", CVE-2021-42574) and the
 * line and paragraph separators U+2028/2029 (an editor shows a line break there, a compiler
 * does not).
 */
bool
text_is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c || cp == 0x2028 || cp == 0x2029;
}

/* The one UTF-8 decoder (see base/text.h). */
size_t
text_utf8(const char *str, size_t avail, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	uint32_t c;

	if (avail == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Decode one UTF-8 code point; invalid bytes decode as U+FFFD, one byte each. */
uint32_t
text_decode(const char *s, int *len)
{
	uint32_t ch;
	size_t n = text_utf8(s, SIZE_MAX, &ch);

	if (n == 0) {
		*len = 1;
		return 0xfffd;
	}
	*len = (int)n;
	return ch;
}

/* Columns code point cp takes on a terminal: wcwidth's (0 for a combining mark, 2 for a wide
 * one) in a UTF-8 locale; 1 where it knows none (a control is shown as one '?', and in the C
 * locale every character is one cell). */
int
text_cp_width(uint32_t cp)
{
	int w;

	if (cp < 0x7f || text_is_control(cp))
		return 1;
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w > 2 ? 2 : w;
}

/* The bytes of s that fit in width columns. */
size_t
text_fit(const char *s, size_t n, int width, int *cols)
{
	size_t at = 0;
	int c = 0;

	while (at < n && s[at] != '\0') {
		uint32_t cp;
		size_t k = text_utf8(s + at, n - at, &cp);
		int w = k == 0 ? 1 : text_cp_width(cp);
		if (c + w > width)
			break;
		c += w;
		at += k == 0 ? 1 : k;
	}
	if (cols != NULL)
		*cols = c;
	return at;
}

/* Encode one code point as UTF-8. */
int
text_encode(uint32_t ch, char *out)
{
	if (ch < 0x80) {
		out[0] = (char)ch;
		return 1;
	}
	if (ch < 0x800) {
		out[0] = (char)(0xc0 | (ch >> 6));
		out[1] = (char)(0x80 | (ch & 0x3f));
		return 2;
	}
	if (ch < 0x10000) {
		out[0] = (char)(0xe0 | (ch >> 12));
		out[1] = (char)(0x80 | ((ch >> 6) & 0x3f));
		out[2] = (char)(0x80 | (ch & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (ch >> 18));
	out[1] = (char)(0x80 | ((ch >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((ch >> 6) & 0x3f));
	out[3] = (char)(0x80 | (ch & 0x3f));
	return 4;
}

/* Columns taken by text. */
int
text_width(const char *s)
{
	int n = 0, len;

	while (*s != '\0') {
		n += text_cp_width(text_decode(s, &len));
		s += len;
	}
	return n;
}

/* Append the n bytes of p to buf at *at (len bytes), counting what does not fit. */
static void
text_put(char *buf, size_t len, size_t *at, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++, (*at)++)
		if (*at + 1 < len)
			buf[*at] = p[i];
}

/* Write s with its controls escaped (see base/text.h). */
size_t
text_safe(const char *s, enum text_mode m, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t at = 0;

	while (*u != '\0') {
		char e[8];
		uint32_t cp;
		size_t k = text_utf8((const char *)u, SIZE_MAX, &cp);

		if (k == 0) {
			snprintf(e, sizeof e, "\\x%02x", *u);
			text_put(buf, len, &at, e, 4);
			u++;
			continue;
		}
		if (cp == '\n' || cp == '\t') {
			if (m == TEXT_BLOCK)
				text_put(buf, len, &at, (const char *)u, 1);
			else
				text_put(buf, len, &at, cp == '\n' ? "\\n" : "\\t", 2);
		} else if (cp == '\r' && m == TEXT_LINE) {
			text_put(buf, len, &at, "\\r", 2);
		} else if (cp == '\\' && m == TEXT_LINE) {
			text_put(buf, len, &at, "\\\\", 2);
		} else if (text_is_control(cp)) {
			int w = snprintf(e, sizeof e, cp < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)cp);
			text_put(buf, len, &at, e, (size_t)w);
		} else {
			text_put(buf, len, &at, (const char *)u, k);
		}
		u += k;
	}
	if (len > 0)
		buf[at < len ? at : len - 1] = '\0';
	return at;
}

/* The bytes as a C string literal, cut to fit. */
char *
text_quote(const void *s, size_t n, char *buf, size_t len)
{
	const unsigned char *u = s;
	size_t at = 0;

	if (len < 8) {
		if (len > 0)
			buf[0] = '\0';
		return buf;
	}
	buf[at++] = '"';
	for (size_t i = 0; i < n; i++) {
		char e[8];
		int w;

		switch (u[i]) {
		case '\n': w = snprintf(e, sizeof e, "\\n"); break;
		case '\t': w = snprintf(e, sizeof e, "\\t"); break;
		case '\r': w = snprintf(e, sizeof e, "\\r"); break;
		case '\\': w = snprintf(e, sizeof e, "\\\\"); break;
		case '"': w = snprintf(e, sizeof e, "\\\""); break;
		default:
			w = u[i] >= 0x20 && u[i] < 0x7f ? snprintf(e, sizeof e, "%c", u[i]) :
			    snprintf(e, sizeof e, "\\x%02x", u[i]);
		}
		/* Room for this, the closing quote, "..." and the NUL. */
		if (at + (size_t)w + 5 > len) {
			memcpy(buf + at, "\"...", 5);
			return buf;
		}
		memcpy(buf + at, e, (size_t)w);
		at += (size_t)w;
	}
	buf[at++] = '"';
	buf[at] = '\0';
	return buf;
}

/* The C string s as text_quote shows it, and "..." after it when it was cut where it was read. */
char *
text_quote_cut(const char *s, bool cut, char *buf, size_t len)
{
	size_t n;

	text_quote(s, strlen(s), buf, len);
	n = strlen(buf);
	if (cut && n + 4 <= len && n > 0 && buf[n - 1] == '"')
		memcpy(buf + n, "...", 4);
	return buf;
}

/* text_safe into a string of the right size. */
char *
text_safe_dup(const char *s, enum text_mode m)
{
	size_t n;
	char *out;

	if (s == NULL)
		return NULL;
	n = text_safe(s, m, NULL, 0);
	out = malloc(n + 1);
	if (out != NULL)
		text_safe(s, m, out, n + 1);
	return out;
}

/* Write s to f, escaped. */
void
text_fput(const char *s, enum text_mode m, FILE *f)
{
	char small[256];
	size_t n = text_safe(s, m, small, sizeof small);
	char *big;

	if (n < sizeof small) {
		fputs(small, f);
		return;
	}
	big = text_safe_dup(s, m);
	if (big != NULL)
		fputs(big, f);
	free(big);
}

/* pre, s escaped as one record, post. */
void
text_fline(FILE *f, const char *pre, const char *s, const char *post)
{
	fputs(pre, f);
	text_fput(s, TEXT_LINE, f);
	fputs(post, f);
}

/* The text of b. */
const char *
text_str(const struct text_buf *b)
{
	return b->s != NULL ? b->s : "";
}

/* Make room in b for n more bytes and the NUL; false (nomem set) when memory runs out. */
static bool
text_room(struct text_buf *b, size_t n)
{
	while (b->len + n >= b->cap) {
		char *s = grow(b->s, &b->cap, b->len + n, 1, 64);
		if (s == NULL) {
			b->nomem = true;
			return false;
		}
		b->s = s;
	}
	return true;
}

/* Append n bytes to b; past its bound, the characters that fit and "…". */
void
text_addn(struct text_buf *b, const char *p, size_t n)
{
	static const char ell[] = "…";
	size_t max = b->max != 0 ? b->max : TEXT_BUF_MAX;
	size_t fit = b->len < max ? max - b->len : 0, k = n;

	if (b->cut || b->nomem)
		return;
	if (n > fit) {
		/* Whole characters only, and room for the ellipsis that says so. */
		k = fit >= sizeof ell - 1 ? fit - (sizeof ell - 1) : 0;
		while (k > 0 && ((unsigned char)p[k] & 0xc0) == 0x80)
			k--;
	}
	if (!text_room(b, k + sizeof ell))
		return;
	memcpy(b->s + b->len, p, k);
	b->len += k;
	if (k < n) {
		b->cut = true;
		if (b->len + sizeof ell - 1 <= max) {
			memcpy(b->s + b->len, ell, sizeof ell - 1);
			b->len += sizeof ell - 1;
		}
	}
	b->s[b->len] = '\0';
}

/* Append a C string to b. */
void
text_add(struct text_buf *b, const char *p)
{
	text_addn(b, p, strlen(p));
}

/* Append printf output to b. */
void
text_vaddf(struct text_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b->cut || b->nomem)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->nomem = true;
		return;
	}
	if ((size_t)n <= (b->max != 0 ? b->max : TEXT_BUF_MAX) - b->len) {
		if (!text_room(b, (size_t)n))
			return;
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
		b->len += (size_t)n;
		return;
	}
	/* Past the bound: the whole of it on the heap first, then what fits, cut visibly. */
	char *all = NULL;
	if (vasprintf(&all, fmt, ap) < 0) {
		b->nomem = true;
		return;
	}
	text_addn(b, all, strlen(all));
	free(all);
}

/* Set b to printf output. */
void
text_setf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;

	text_reset(b);
	va_start(ap, fmt);
	text_vaddf(b, fmt, ap);
	va_end(ap);
}

/* Append printf output to b. */
void
text_addf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vaddf(b, fmt, ap);
	va_end(ap);
}

/* Empty b, keeping its memory. */
void
text_reset(struct text_buf *b)
{
	b->len = 0;
	b->cut = b->nomem = false;
	if (b->s != NULL)
		b->s[0] = '\0';
}

/* Hand b's text to the caller. */
char *
text_take(struct text_buf *b)
{
	char *s = b->s;
	size_t max = b->max;

	*b = (struct text_buf){ .max = max };
	return s;
}

/* Release b's memory. */
void
text_buf_free(struct text_buf *b)
{
	if (b == NULL)
		return;
	free(text_take(b));
}

/* Append a sentence to b, after "; " when b holds one already. */
void
text_buf_vsentence(struct text_buf *b, const char *fmt, va_list ap)
{
	if (b->len > 0)
		text_add(b, "; ");
	text_vaddf(b, fmt, ap);
}

/* Append a sentence to b, as text_buf_vsentence. */
void
text_buf_sentence(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_buf_vsentence(b, fmt, ap);
	va_end(ap);
}

/* End the full buffer buf (len bytes) in "…", on a character's boundary: a cut that shows. */
static void
text_cut_mark(char *buf, size_t len)
{
	static const char ell[] = "…";
	size_t e;

	if (len < sizeof ell)
		return;
	e = len - sizeof ell;
	while (e > 0 && ((unsigned char)buf[e] & 0xc0) == 0x80)
		e--;
	memcpy(buf + e, ell, sizeof ell);
}

/* Append as snprintf would, never past the end; a cut ends in "…". */
void
text_cat(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0 && (size_t)k >= len - *n) {
		text_cut_mark(buf, len);
		*n = len;
	} else if (k > 0) {
		*n += (size_t)k;
	}
}
