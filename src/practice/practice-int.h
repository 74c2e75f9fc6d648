/* SPDX-License-Identifier: MIT */
/* practice/practice-int.h: what the files of practice/ share: the generators' helpers the
 * judge uses too. */
#ifndef IOBUFVIZ_PRACTICE_INT_H
#define IOBUFVIZ_PRACTICE_INT_H

#include <stdbool.h>
#include <stddef.h>

/* The last choice of a which-pages question: the machine's answer when it is no other. */
#define PRACTICE_OTHER_SET "another set"

/* Copy src into dst of len bytes, cut short if it must be (messages and short labels). */
void practice_copy(char *dst, size_t len, const char *src);

/* Write pages set in v[0..n) as ranges ("0-2,5"; "none" when empty) into buf. */
void practice_pages_format(const bool *v, size_t n, char *buf, size_t len);

#endif
