/* SPDX-License-Identifier: MIT */
/* stdio-state.c: the state of a FILE*'s buffer, as glibc keeps it (run in the worker). */
#include <config.h>

#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "probe/probe.h"

/*
 * glibc's _IO_UNBUFFERED bit of FILE._flags (libio.h, not installed). <stdio_ext.h> has
 * __flbf() for line buffering but nothing for "unbuffered", and __fbufsize() cannot tell:
 * an unbuffered stream still has a 1-byte buffer once used. The bit has been 0x0002 in every
 * glibc since libio was merged; struct _IO_FILE and its _flags are public in <stdio.h>.
 */
#define PS_IO_UNBUFFERED 0x0002

/* Copy up to sizeof out->head bytes from [from, to) into out->head. */
static void
probe_stdio_head(struct snap_stdio *out, const char *from, const char *to)
{
	size_t n;

	out->head_len = 0;
	if (from == NULL || to == NULL || to <= from)
		return;
	n = (size_t)(to - from);
	if (n > sizeof out->head)
		n = sizeof out->head;
	memcpy(out->head, from, n);
	out->head_len = n;
}

/* Fill out with the buffer state of fp; fp NULL gives open false. */
void
probe_stdio(FILE *fp, struct snap_stdio *out)
{
	memset(out, 0, sizeof *out);
	out->fd = -1;
	if (fp == NULL)
		return;
	out->open = true;
	out->fd = fileno(fp);
	/* 0 until the first I/O: glibc allocates the buffer (st_blksize bytes) lazily. */
	out->size = __fbufsize(fp);
	out->pending = __fpending(fp);
	/* These return flag bits, not 0/1. */
	out->reading = __freading(fp) != 0;
	out->writing = __fwriting(fp) != 0;
	if (fp->_flags & PS_IO_UNBUFFERED)
		out->mode = SCN_BUF_NONE;
	else if (__flbf(fp) != 0)
		out->mode = SCN_BUF_LINE;
	else
		out->mode = SCN_BUF_FULL;
	/* In put mode glibc sets _IO_read_ptr == _IO_read_end, so this is 0 while writing. */
	if (fp->_IO_read_ptr != NULL && fp->_IO_read_end > fp->_IO_read_ptr)
		out->read_avail = (uint64_t)(fp->_IO_read_end - fp->_IO_read_ptr);
	if (out->pending > 0)
		probe_stdio_head(out, fp->_IO_write_base, fp->_IO_write_ptr);
	else if (out->read_avail > 0)
		probe_stdio_head(out, fp->_IO_read_ptr, fp->_IO_read_end);
}
