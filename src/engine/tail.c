/* SPDX-License-Identifier: MIT */
/* engine/tail.c: exercise 13-5: the last N lines of a file, read backwards in blocks. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/tail.h"

/*
 * The lines found so far, kept at the END of a buffer that grows towards lower addresses,
 * so that adding the line before them costs no move of what is already there. It holds at
 * most n lines of at most TAIL_LINE_MAX + 1 bytes: bounded, whatever the file.
 */
struct tail_acc {
	char *buf;
	size_t cap;
	size_t have;           /* the data is buf[cap - have, cap) */
};

/*
 * The line being read, backwards: its first TAIL_LINE_MAX bytes so far (the ones before are
 * found later), at buf[start, start + len) of a buffer twice that size, so that most
 * prepends move nothing and a move, when one is needed, is paid for by TAIL_LINE_MAX bytes.
 */
struct tail_cur {
	char buf[2 * TAIL_LINE_MAX];
	size_t start, len;
	uint64_t total;        /* bytes of the line seen so far, without its '\n' */
	int nl;                /* the line ends with '\n' */
};

/* Make room for need more bytes in front of the data. 0 or -1 (ENOMEM). */
static int
tail_acc_reserve(struct tail_acc *acc, size_t need)
{
	size_t cap = acc->cap ? acc->cap : 4096;
	char *p;

	if (acc->cap - acc->have >= need)
		return 0;
	while (cap - acc->have < need)
		cap *= 2;      /* never far: the data is bounded (engine/tail.h) */
	p = malloc(cap + 1);
	if (p == NULL)
		return -1;
	if (acc->have > 0)
		memcpy(p + cap - acc->have, acc->buf + acc->cap - acc->have, acc->have);
	free(acc->buf);
	acc->buf = p;
	acc->cap = cap;
	return 0;
}

/* Put the k bytes at seg in front of the current line, keeping only its first bytes. */
static void
tail_cur_prepend(struct tail_cur *c, const char *seg, size_t k)
{
	c->total += k;
	if (k >= TAIL_LINE_MAX) {
		c->start = sizeof c->buf - TAIL_LINE_MAX;
		c->len = TAIL_LINE_MAX;
		memcpy(c->buf + c->start, seg, TAIL_LINE_MAX);
		return;
	}
	if (c->len > TAIL_LINE_MAX - k)
		c->len = TAIL_LINE_MAX - k;       /* the line's later bytes: past what is kept */
	if (c->start < k) {
		memmove(c->buf + sizeof c->buf - c->len, c->buf + c->start, c->len);
		c->start = sizeof c->buf - c->len;
	}
	c->start -= k;
	c->len += k;
	memcpy(c->buf + c->start, seg, k);
}

/* The current line is whole: put it in front of the lines found; start the one before it. */
static int
tail_cur_done(struct tail_cur *c, struct tail_acc *acc, struct tail_stats *st)
{
	size_t n = c->len + (c->nl ? 1 : 0);
	char *dst;

	if (tail_acc_reserve(acc, n) < 0)
		return -1;
	dst = acc->buf + acc->cap - acc->have - n;
	memcpy(dst, c->buf + c->start, c->len);
	if (c->nl)
		dst[c->len] = '\n';
	acc->have += n;
	if (c->total > TAIL_LINE_MAX)
		st->cut++;
	c->start = sizeof c->buf;
	c->len = 0;
	c->total = 0;
	c->nl = 1;     /* the one before ends with the '\n' just found */
	return 0;
}

/* Read exactly len bytes at offset from into dst (fewer only at end of file). */
static ssize_t
tail_read_at(int fd, off_t from, char *dst, size_t len, struct tail_stats *st)
{
	size_t got = 0;

	if (lseek(fd, from, SEEK_SET) < 0)
		return -1;
	st->seeks++;
	while (got < len) {
		ssize_t n = read(fd, dst + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		st->reads++;
		if (n == 0)
			break;
		st->bytes_read += (uint64_t)n;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* The last n lines of fd, read backwards in blocks (see engine/tail.h). */
int
tail_lines(int fd, uint64_t n, size_t block, char **out, struct tail_stats *st)
{
	struct tail_stats mine;
	struct tail_acc acc = { NULL, 0, 0 };
	struct tail_cur *cur = NULL;
	char *blk = NULL;
	off_t size, end;
	uint64_t found = 0;
	int saved;

	*out = NULL;
	if (st == NULL)
		st = &mine;
	memset(st, 0, sizeof *st);
	if (block == 0 || block > TAIL_BLOCK_MAX || n > TAIL_LINES_MAX) {
		errno = EINVAL;
		return -1;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		return -1;
	st->seeks++;
	if ((cur = malloc(sizeof *cur)) == NULL || (blk = malloc(block)) == NULL)
		goto fail;
	cur->start = sizeof cur->buf;
	cur->len = 0;
	cur->total = 0;
	cur->nl = 0;

	end = n == 0 ? 0 : size;
	while (found < n && end > 0) {
		off_t start = (end - 1) / (off_t)block * (off_t)block;
		size_t want = (size_t)(end - start), seg_end = want;
		ssize_t got = tail_read_at(fd, start, blk, want, st);

		if (got < 0)
			goto fail;
		if ((size_t)got != want) {
			errno = EIO;  /* the file shrank while we read it backwards */
			goto fail;
		}
		for (size_t i = want; i-- > 0 && found < n;) {
			if (blk[i] != '\n')
				continue;
			/* The '\n' that ends the last line is not a separator between two lines. */
			if (start + (off_t)i == size - 1) {
				cur->nl = 1;
				seg_end = i;
				continue;
			}
			tail_cur_prepend(cur, blk + i + 1, seg_end - i - 1);
			if (tail_cur_done(cur, &acc, st) < 0)
				goto fail;
			found++;
			seg_end = i;
		}
		if (found < n)
			tail_cur_prepend(cur, blk, seg_end);
		end = start;
	}
	/* Fewer than n lines: the first line of the file is one of them. */
	if (found < n && n > 0 && size > 0 && tail_cur_done(cur, &acc, st) < 0)
		goto fail;

	*out = malloc(acc.have + 1);
	if (*out == NULL)
		goto fail;
	if (acc.have > 0)
		memcpy(*out, acc.buf + acc.cap - acc.have, acc.have);
	(*out)[acc.have] = '\0';
	free(acc.buf);
	free(blk);
	free(cur);
	return 0;
fail:
	saved = errno;
	free(acc.buf);
	free(blk);
	free(cur);
	errno = saved;
	return -1;
}
