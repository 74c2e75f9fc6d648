/* SPDX-License-Identifier: MIT */
/* engine/ops.h: the real calls of one step, made by the worker on the scratch file. */
#ifndef IOBUFVIZ_OPS_H
#define IOBUFVIZ_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/event.h"
#include "scenario/scenario.h"

/* Own stdio buffers kept alive until the FILE* that uses them is closed. */
#define OPS_MAX_BUFS 8

/* A named fd/FILE* pair (as: a): the same fields as the unnamed pair in ops_state. */
struct ops_handle {
	FILE *fp;
	int fd;
	bool fd_open;
	int open_flags;
	bool direct;
};

/* What the "student program" holds between steps. */
struct ops_state {
	const char *path;          /* the scratch file (another of its dir by a step's file:) */
	FILE *fp;                  /* the scenario's current FILE*, or NULL */
	int fd;                    /* the scenario's current fd, or -1 */
	bool fd_open;              /* false once fd was closed (the number is kept) */
	int open_flags;            /* flags of the last open op (fdopen's default mode) */
	void *bufs[OPS_MAX_BUFS];  /* own setvbuf/setbuf/setbuffer buffers */
	FILE *buf_fp[OPS_MAX_BUFS]; /* the stream each is for (st->fp when it was made) */
	size_t n_bufs;
	size_t dio_align;          /* O_DIRECT memory alignment of the file (statx) */
	unsigned dio_offset_align; /* O_DIRECT offset and size alignment (statx); 0: unknown */
	bool direct;               /* the current fd was opened with O_DIRECT */
	unsigned char *mem;        /* transfer buffer as allocated */
	size_t mem_cap;
	struct ops_handle named[SCN_MAX_NAMES]; /* as: names, by scn_step.handle - 1 */
};

/* What one op did. */
struct ops_result {
	int64_t ret;               /* the call's return value (-1 on error) */
	int err;                   /* errno, 0 if none */
	uint64_t ns;               /* CLOCK_MONOTONIC around the real call only */
	bool has_event;            /* a direct op: the one call it made, in ev */
	struct event ev;
	char note[128];            /* a remark ("end of file", "not implemented ...") */
	char *output;              /* tail: the lines it printed (heap; the worker frees it) */
};

/* An op's function: make the real call of one step (the run column of SCN_OP_LIST). */
typedef void ops_fn(struct ops_state *st, const struct scn_args *a, struct ops_result *out);

/* The ops, one function each, named in SCN_OP_LIST: make the real call of one step. */
#define OPS_DECLARE(fn) \
	void fn(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
OPS_DECLARE(ops_open);
OPS_DECLARE(ops_rename);
OPS_DECLARE(ops_fopen);
OPS_DECLARE(ops_fdopen);
OPS_DECLARE(ops_fileno);
OPS_DECLARE(ops_setvbuf);
OPS_DECLARE(ops_setbuf);
OPS_DECLARE(ops_setbuffer);
OPS_DECLARE(ops_fwrite);
OPS_DECLARE(ops_fputs);
OPS_DECLARE(ops_printf);
OPS_DECLARE(ops_fread);
OPS_DECLARE(ops_fgets);
OPS_DECLARE(ops_fflush);
OPS_DECLARE(ops_fseek);
OPS_DECLARE(ops_fclose);
OPS_DECLARE(ops_write);
OPS_DECLARE(ops_read);
OPS_DECLARE(ops_pread);
OPS_DECLARE(ops_pwrite);
OPS_DECLARE(ops_lseek);
OPS_DECLARE(ops_fsync);
OPS_DECLARE(ops_fdatasync);
OPS_DECLARE(ops_sync_file_range);
OPS_DECLARE(ops_sync);
OPS_DECLARE(ops_fadvise);
OPS_DECLARE(ops_fallocate);
OPS_DECLARE(ops_ftruncate);
OPS_DECLARE(ops_close);
OPS_DECLARE(ops_fcntl);
OPS_DECLARE(ops_fork);
OPS_DECLARE(ops_exit);
OPS_DECLARE(ops_uexit);
OPS_DECLARE(ops_nothing);
OPS_DECLARE(ops_tail);

/* Start with no FILE* and no fd; path is the scratch file. */
void ops_init(struct ops_state *st, const char *path);

/* The FILE* and fd (and whether it is open) that step acts on: its name's, or the unnamed. */
void ops_handle_of(const struct ops_state *st, const struct scn_step *step, FILE **fp, int *fd,
		   bool *fd_open);

/* Release the buffers (does not close the FILE* or fd). */
void ops_fini(struct ops_state *st);

/* Fill buf with the printable pattern ops write ("abc...z" repeating). */
void ops_pattern(unsigned char *buf, size_t len);

#endif
