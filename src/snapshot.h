/* SPDX-License-Identifier: MIT */
/* snapshot.h: one observed state of the stdio buffer, page cache and disk. */
#ifndef IOBUFVIZ_SNAPSHOT_H
#define IOBUFVIZ_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* Where a fact came from. */
enum snap_source {
	SNAP_SRC_NONE,       /* not observable here: see the note */
	SNAP_SRC_STDIO_EXT,  /* <stdio_ext.h> and the public FILE fields, in the worker */
	SNAP_SRC_CACHESTAT,  /* cachestat(2), Linux 6.5+ */
	SNAP_SRC_MINCORE,    /* mincore(2) on a read-only mapping: residency only */
	SNAP_SRC_FIEMAP,     /* ioctl(FS_IOC_FIEMAP) */
	SNAP_SRC_PROCIO,     /* /proc/PID/io */
};

/* The worker's FILE*, as glibc reports it. */
struct snap_stdio {
	bool open;             /* a FILE* exists */
	int fd;                /* fileno() */
	uint64_t size;         /* __fbufsize(); 0 = buffer not allocated yet */
	uint64_t pending;      /* __fpending(): output bytes not yet written */
	uint64_t read_avail;   /* input bytes read ahead and not consumed yet */
	enum scn_bufmode mode; /* unbuffered / line / full */
	bool reading, writing; /* __freading() / __fwriting() */
	unsigned char head[64];/* first pending (or unread) bytes of the buffer */
	size_t head_len;
};

/* The worker's file descriptor on the scratch file. */
struct snap_fd {
	bool open;
	int fd;
	int flags;             /* O_* from /proc/PID/fdinfo */
	int64_t pos;           /* file offset */
};

/* One cell of the page-cache grid: a range of pages. */
struct snap_cell {
	uint32_t cached, dirty, writeback;
};

#define SNAP_MAX_CELLS 1024

/* Page cache of the scratch file. */
struct snap_cache {
	enum snap_source source;
	char note[160];        /* why a fact is missing or approximate; "" if none */
	uint64_t file_size;
	uint64_t pages;        /* pages the file spans */
	uint64_t cached, dirty, writeback;  /* whole-file counts */
	bool has_dirty;        /* false when only residency is known (mincore) */
	uint32_t pages_per_cell;
	size_t n_cells;
	struct snap_cell cells[SNAP_MAX_CELLS];
	uint64_t sys_dirty_kb, sys_writeback_kb;  /* /proc/meminfo Dirty, Writeback */
};

/* FIEMAP extent flags we show. */
#define SNAP_EXT_DELALLOC  0x1u
#define SNAP_EXT_UNWRITTEN 0x2u
#define SNAP_EXT_UNKNOWN   0x4u
#define SNAP_EXT_LAST      0x8u
#define SNAP_EXT_SHARED    0x10u
#define SNAP_EXT_INLINE    0x20u

struct snap_extent {
	uint64_t logical, physical, length;
	uint32_t flags;        /* SNAP_EXT_* */
};

#define SNAP_MAX_EXTENTS 64

/* Disk side of the scratch file, and the worker's I/O counters. */
struct snap_disk {
	enum snap_source source;
	char note[160];
	char fs[32];           /* "ext4", "tmpfs", ... */
	char device[64];       /* "/dev/vda" if known */
	size_t n_extents;
	bool extents_truncated;
	struct snap_extent extents[SNAP_MAX_EXTENTS];
	uint64_t allocated_bytes, delalloc_bytes, unwritten_bytes;
	bool io_ok;            /* /proc/PID/io was readable */
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes;
};

/* One observed state. */
struct snapshot {
	struct snap_stdio stdio;
	struct snap_fd fd;
	struct snap_cache cache;
	struct snap_disk disk;
};

#endif
