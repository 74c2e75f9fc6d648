/* SPDX-License-Identifier: MIT */
/* engine/tail.h: exercise 13-5, "tail -n N" with lseek() and read() backwards in blocks. */
#ifndef IOBUFVIZ_TAIL_H
#define IOBUFVIZ_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"    /* TAIL_LINES_MAX, TAIL_LINE_MAX, TAIL_BLOCK_MAX */

/* What tail_lines() asked of the kernel, and what it cut. */
struct tail_stats {
	uint64_t reads;        /* read() calls, including a final one that returns 0 */
	uint64_t bytes_read;   /* bytes they returned */
	uint64_t seeks;        /* lseek() calls */
	uint64_t cut;          /* lines longer than TAIL_LINE_MAX, kept cut */
};

/*
 * Put the last n lines of the file open as fd into *out (a NUL-terminated heap string the
 * caller frees), reading backwards from the end in block-sized reads aligned to multiples
 * of block, so that every read but the first is a whole block at a block boundary. A final
 * line without '\n' counts as a line; a file with fewer than n lines is printed whole.
 * A line longer than TAIL_LINE_MAX is kept as its first TAIL_LINE_MAX bytes (and its '\n'),
 * counted in st->cut. The fd's offset is left where the last read ended. st may be NULL.
 * 0, or -1 with errno (EINVAL: block 0 or above TAIL_BLOCK_MAX, n above TAIL_LINES_MAX;
 * EIO: the file shrank meanwhile; a read or lseek error).
 */
int tail_lines(int fd, uint64_t n, size_t block, char **out, struct tail_stats *st);

#endif
