/* SPDX-License-Identifier: MIT */
/* base/text.h: text from a scenario made safe for a terminal: nothing in it can act as a control;
 * UTF-8 decoded and encoded for the screen model and measured in columns. */
#ifndef IOBUFVIZ_TEXT_H
#define IOBUFVIZ_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How text_safe shows line breaks. */
enum text_mode {
	TEXT_LINE,   /* the text is one record (a transcript line, a TAP line, a message):
	                newline, carriage return, tab and backslash are escaped too */
	TEXT_BLOCK,  /* the text may span lines (narration): newline and tab are kept */
};

/*
 * True if code point cp would make a terminal act rather than print (C0, DEL, C1), or would
 * reorder or break the text around it where it is shown (bidi controls, line separators).
 */
bool text_is_control(uint32_t cp);

/*
 * Write s into buf (len bytes, always terminated) with every control shown as C writes it:
 * "\n", "\t", "\x1b", "\u009b" (a C1 control in UTF-8), "\u202e" (a bidi control); a byte
 * that is not UTF-8 as "\xNN". Return the length the whole result needs (as snprintf does).
 */
size_t text_safe(const char *s, enum text_mode m, char *buf, size_t len);

/*
 * The n bytes at s as a C string literal into buf (len bytes, always terminated): in
 * double quotes, with \n \t \r \\ \" and "\xNN" for every other byte that is not
 * printable ASCII, so that nothing of it can act on a terminal. When it does not fit, it is
 * cut and ends in "..." after the closing quote. Return buf.
 */
char *text_quote(const void *s, size_t n, char *buf, size_t len);

/* The C string s as text_quote shows it, with "..." after the closing quote when cut (it was
 * cut where it was read: a string of a traced program that filled its buffer). Return buf. */
char *text_quote_cut(const char *s, bool cut, char *buf, size_t len);

/* text_safe into a new heap string (NULL if out of memory; NULL s gives NULL). */
char *text_safe_dup(const char *s, enum text_mode m);

/* Write s to f as text_safe shows it. */
void text_fput(const char *s, enum text_mode m, FILE *f);

/* The one UTF-8 decoder: the length (1 to 4) of the valid UTF-8 sequence at s, of at most
 * avail bytes (SIZE_MAX: s is NUL-terminated), its code point in *cp; 0 if the bytes there
 * are not one (overlong, a surrogate, past U+10FFFF, cut short). */
size_t text_utf8(const char *s, size_t avail, uint32_t *cp);

/* Decode one UTF-8 code point from s; set *len to the bytes used (>= 1); invalid bytes are
 * U+FFFD, one byte each. */
uint32_t text_decode(const char *s, int *len);

/* Columns code point cp takes on a terminal: 0 (a combining mark), 1 or 2 (a wide one: CJK,
 * most emoji), from wcwidth in a UTF-8 locale; 1 where wcwidth knows none. */
int text_cp_width(uint32_t cp);

/* Bytes of the first n of s (stopping at a NUL) that fit in width columns: whole characters,
 * with the zero-width marks that follow the last; their columns in *cols (if not NULL). */
size_t text_fit(const char *s, size_t n, int width, int *cols);

/* Encode one code point as UTF-8 into out (4 bytes room); return its length. */
int text_encode(uint32_t ch, char *out);

/* Number of columns UTF-8 text takes on a terminal (text_cp_width of each code point). */
int text_width(const char *s);

/* Write pre, then s as one escaped record (TEXT_LINE), then post, to f: a message that
 * echoes what a user or a scenario gave. */
void text_fline(FILE *f, const char *pre, const char *s, const char *post);

/*
 * The one growable text (git's strbuf): s is always NUL-terminated ("" before the first
 * append, through text_str), len bytes long, never more than max bytes (0: TEXT_BUF_MAX).
 * What would pass max is cut where it would pass it and the text ends in "…" (cut is set):
 * a bound seen, never a silent one. Out of memory, nomem is set and the text keeps what it had.
 * Zero-initialised it is empty; text_buf_free releases it.
 */
struct text_buf {
	char *s;
	size_t len, cap;
	size_t max;
	bool cut;
	bool nomem;
};

/* The most a text_buf holds unless its max says less: far more than any text a person reads
 * (a lesson's narration, a details popup, a generated program), far less than memory. */
#define TEXT_BUF_MAX ((size_t)16 << 20)

/* The text of b ("" while it has none). */
const char *text_str(const struct text_buf *b);

/* Append the n bytes at p to b (see struct text_buf for its bound). */
void text_addn(struct text_buf *b, const char *p, size_t n);

/* Append the C string p to b. */
void text_add(struct text_buf *b, const char *p);

/* Append printf output to b. */
void text_addf(struct text_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same, with a va_list. */
void text_vaddf(struct text_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Set b to printf output: text_reset, then text_addf. */
void text_setf(struct text_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Empty b, keeping its memory. */
void text_reset(struct text_buf *b);

/* Hand b's text to the caller (a heap string to free; NULL if it has none) and empty b. */
char *text_take(struct text_buf *b);

/* Release b's memory; b is empty again (NULL is fine). */
void text_buf_free(struct text_buf *b);

/* Append a sentence to b, after "; " when b holds one already (a note), whole up to b's
 * bound. */
void text_buf_vsentence(struct text_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The same, with the arguments given. */
void text_buf_sentence(struct text_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append printf output at *n of buf (len bytes), never past its end; *n moves on (to len
 * when it was cut, and then buf ends in "…"). */
void text_cat(char *buf, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
