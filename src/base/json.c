/* SPDX-License-Identifier: MIT */
/* base/json.c: the little JSON writing iobufviz needs. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes) with its code point in *cpp, or 0
 * if invalid. */
static size_t
json_utf8_len(const unsigned char *s, size_t n, unsigned *cpp)
{
	size_t len;
	unsigned min;
	unsigned cp;

	if (s[0] < 0x80) {
		*cpp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) { len = 2; cp = s[0] & 0x1f; min = 0x80; }
	else if ((s[0] & 0xf0) == 0xe0) { len = 3; cp = s[0] & 0x0f; min = 0x800; }
	else if ((s[0] & 0xf8) == 0xf0) { len = 4; cp = s[0] & 0x07; min = 0x10000; }
	else return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*cpp = cp;
	return len;
}

/* Write n bytes as a JSON string. */
void
json_string_n(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', f);
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		unsigned cp;
		size_t k;
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			i++;
		} else if (c == '\n') {
			fputs("\\n", f);
			i++;
		} else if (c == '\r') {
			fputs("\\r", f);
			i++;
		} else if (c == '\t') {
			fputs("\\t", f);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
		} else if ((k = json_utf8_len(p + i, n - i, &cp)) == 0) {
			fputs("\\ufffd", f);
			i++;
		} else if (text_is_control(cp)) {
			/* C1 controls and bidi controls are legal JSON, but a terminal or a page
			 * that shows the document would act on them (base/text.c). */
			fprintf(f, "\\u%04x", cp);
			i += k;
		} else {
			fwrite(p + i, 1, k, f);
			i += k;
		}
	}
	putc('"', f);
}

/* Write a C string as a JSON string, or null. */
void
json_string(FILE *f, const char *s)
{
	if (s == NULL)
		fputs("null", f);
	else
		json_string_n(f, s, strlen(s));
}
