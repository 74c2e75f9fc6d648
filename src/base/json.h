/* SPDX-License-Identifier: MIT */
/* base/json.h: the one JSON writer: commas, nesting and escaping, into a FILE* or a buffer. */
#ifndef IOBUFVIZ_JSON_H
#define IOBUFVIZ_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/text.h"

/* Objects and arrays nest at most this deep; deeper is a misuse (json_finish fails). */
#define JSON_MAX_DEPTH 24

/* json_init flags. */
#define JSON_SPACED 0x1u   /* ", " and ": " between items (asciicast's style); else none */
#define JSON_HTML   0x2u   /* also <, >, & as \uXXXX (U+2028/U+2029 always are, as controls
                              and bidi controls are): the text can sit inside an HTML
                              <script> element and be read as JavaScript */

/*
 * A writer. Every value function takes the member's key: a string inside an object, NULL
 * inside an array and at the top level. The writer puts the commas, checks the nesting, and
 * remembers the first misuse (a key where none belongs, a bracket that does not close
 * anything) or allocation failure: json_finish reports it. Lives on the caller's stack.
 */
struct json {
	FILE *f;                      /* NULL: into buf */
	struct text_buf out;          /* the text so far (buffer writers); bounded by memory
	                               * alone (JSON cut short is no JSON): its max is SIZE_MAX/2 */
	unsigned flags;
	int depth;                    /* open objects and arrays */
	bool object[JSON_MAX_DEPTH];  /* each open one: an object (else an array) */
	size_t n[JSON_MAX_DEPTH + 1]; /* values written so far in each (n[0]: the top level) */
	bool newline;                 /* json_break: a new line before the next item */
	bool failed;                  /* a misuse, or out of memory */
};

/* Start a writer into f, or (f NULL) into a growing buffer (json_take). */
void json_init(struct json *j, FILE *f, unsigned flags);

/* 0 if every object and array was closed and nothing failed (nor a write to the FILE*);
 * else -1. A pending json_break's newline is written first. */
int json_finish(struct json *j);

/* A buffer writer's text (NUL-terminated; its length in *len if len is not NULL), or NULL
 * if it failed; the caller frees it. The writer is empty after (free(json_take(j, NULL))
 * discards it). */
char *json_take(struct json *j, size_t *len);

/* Open and close an object or an array. */
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);

/* Start a new line: at the top level now (one document a line, as asciicast has), inside an
 * object or array before its next item or its closing bracket (a transcript's steps). */
void json_break(struct json *j);

/* A C string, escaped (controls and C1 controls as \uXXXX; invalid UTF-8 as U+FFFD); NULL
 * writes null. */
void json_string(struct json *j, const char *key, const char *s);

/* n bytes of s as a string (same rules; NUL bytes escaped). */
void json_string_n(struct json *j, const char *key, const char *s, size_t n);

/* Numbers. A double that is not finite is null (JSON has no NaN). */
void json_int(struct json *j, const char *key, int64_t v);
void json_int_pair(struct json *j, const char *key, int64_t a, int64_t b);   /* [a, b] */
void json_uint(struct json *j, const char *key, uint64_t v);
void json_fixed(struct json *j, const char *key, double v, int decimals);  /* %.*f */
void json_real(struct json *j, const char *key, double v, int digits);     /* %.*g */

/* true, false, null. */
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);

#endif
