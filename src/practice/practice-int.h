/* SPDX-License-Identifier: MIT */
/* practice/practice-int.h: what the files of practice/ share: the generators' helpers the
 * judge and the crash topic (practice/practice-crash.c) use too. */
#ifndef IOBUFVIZ_PRACTICE_INT_H
#define IOBUFVIZ_PRACTICE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "practice/practice.h"

/* The stdio buffer's and a page's size the models assume (st_blksize on ext4, xfs, btrfs). */
#define PRACTICE_PAGE 4096

/* The last choice of a which-pages question: the machine's answer when it is no other. */
#define PRACTICE_OTHER_SET "another set"

/* Copy src into dst of len bytes, cut short if it must be (messages and short labels). */
void practice_copy(char *dst, size_t len, const char *src);

/* Write pages set in v[0..n) as ranges ("0-2,5"; "none" when empty) into buf. */
void practice_pages_format(const bool *v, size_t n, char *buf, size_t len);

/* A number in [0, n): the same on every machine (no rand(), no modulo of a libc value). */
uint64_t practice_below(uint64_t *rng, uint64_t n);

/* One of the n values of v. */
uint64_t practice_pick(uint64_t *rng, const uint64_t *v, size_t n);

/* Start a question about step (0-based) into p; NULL when p has no room left. */
struct practice_question *practice_question_add(struct practice_problem *p, size_t step,
                                                enum scn_key key, enum practice_kind kind);

/* The stream as glibc keeps it: offsets of write_ptr and write_end from the buffer base. */
struct practice_stdio {
	int64_t size;               /* buffer size; 0 = not allocated yet */
	int64_t own;                /* size of our own buffer, 0 = the library's */
	int64_t ptr, end;           /* _IO_write_ptr, _IO_write_end (from _IO_buf_base) */
	bool putting, line, unbuf;
	int64_t writes[64];         /* write() sizes of the current step */
	size_t n_writes;
};

/* new_do_write(): one write() of n bytes, then the buffer is empty again. */
void practice_stdio_write(struct practice_stdio *m, int64_t n);

/* _IO_new_file_xsputn(): fwrite()/fputs() of n bytes of s (s NULL: no newlines). */
void practice_stdio_put(struct practice_stdio *m, const char *s, int64_t n);

/* practice/practice.c: the stdio, cache and direct topics' generators (practice-topic.c's
 * table names them). */
void practice_stdio_generate(struct practice_problem *p, uint64_t *rng, FILE *y);
void practice_cache_generate(struct practice_problem *p, uint64_t *rng, FILE *y);
void practice_direct_generate(struct practice_problem *p, uint64_t *rng, FILE *y);

/* practice/practice-crash.c: the crash topic's generator. */
void practice_crash_generate(struct practice_problem *p, uint64_t *rng, FILE *y);

/* practice/practice-crash.c: what the crash step sr left of the file, for question q
 * (PRACTICE_FILE), into a. */
void practice_crash_observe(const struct practice_question *q, const struct step_result *sr,
                            struct practice_answer *a);

#endif
