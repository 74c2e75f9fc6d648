/* SPDX-License-Identifier: MIT */
/* tail.c: exercise 13-5: the last N lines of a file, read backwards in blocks. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tail.h"

/*
 * The bytes read so far, kept at the END of a buffer that grows towards lower addresses,
 * so that adding the block before them costs no move of what is already there (doubling
 * keeps block size 1 on a long line linear, not quadratic).
 */
struct tail_acc {
	char *buf;
	size_t cap;
	size_t have;           /* the data is buf[cap - have, cap) */
};

/* Make room for need more bytes in front of the data. 0 or -1 (ENOMEM). */
static int
tail_acc_reserve(struct tail_acc *acc, size_t need)
{
	size_t cap = acc->cap ? acc->cap : 4096;
	char *p;

	if (acc->cap - acc->have >= need)
		return 0;
	while (cap - acc->have < need) {
		if (cap > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		cap *= 2;
	}
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

/* The last n lines of fd, read backwards in blocks (see tail.h). */
int
tail_lines(int fd, uint64_t n, size_t block, char **out, struct tail_stats *st)
{
	struct tail_stats mine = { 0, 0, 0 };
	struct tail_acc acc = { NULL, 0, 0 };
	off_t size, end, from = -1;
	uint64_t newlines = 0;
	int saved;

	*out = NULL;
	if (st == NULL)
		st = &mine;
	memset(st, 0, sizeof *st);
	if (block == 0) {
		errno = EINVAL;
		return -1;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		return -1;
	st->seeks++;

	/* The '\n' that ends the last line is not a separator between two lines. */
	end = size;
	if (n == 0)
		from = size;
	while (from < 0 && end > 0) {
		off_t start = (end - 1) / (off_t)block * (off_t)block;
		size_t want = (size_t)(end - start);
		ssize_t got;
		char *dst;

		if (tail_acc_reserve(&acc, want) < 0)
			goto fail;
		dst = acc.buf + acc.cap - acc.have - want;
		got = tail_read_at(fd, start, dst, want, st);
		if (got < 0)
			goto fail;
		if ((size_t)got != want) {
			errno = EIO;  /* the file shrank while we read it backwards */
			goto fail;
		}
		acc.have += want;
		for (size_t i = want; i-- > 0;) {
			if (dst[i] != '\n' || start + (off_t)i == size - 1)
				continue;
			if (++newlines == n) {
				from = start + (off_t)i + 1;
				break;
			}
		}
		end = start;
	}
	if (from < 0)
		from = 0;  /* fewer than n lines: all of it */

	{
		size_t len = (size_t)(size - from);
		char *res = malloc(len + 1);

		if (res == NULL)
			goto fail;
		if (len > acc.have)
			len = acc.have;
		if (len > 0)
			memcpy(res, acc.buf + acc.cap - len, len);
		res[len] = '\0';
		*out = res;
	}
	free(acc.buf);
	return 0;
fail:
	saved = errno;
	free(acc.buf);
	errno = saved;
	return -1;
}
