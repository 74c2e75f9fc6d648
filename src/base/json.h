/* SPDX-License-Identifier: MIT */
/* base/json.h: the little JSON writing iobufviz needs. */
#ifndef IOBUFVIZ_JSON_H
#define IOBUFVIZ_JSON_H

#include <stdio.h>

/* Write s as a JSON string (quoted, escaped; invalid UTF-8 becomes U+FFFD). NULL: null. */
void json_string(FILE *f, const char *s);

/* Write n bytes of s as a JSON string (same rules; NUL bytes escaped). */
void json_string_n(FILE *f, const char *s, size_t n);

#endif
