/* SPDX-License-Identifier: MIT */
/* probe/snapshot.h: one observed state of the stdio buffer, page cache and disk. */
#ifndef IOBUFVIZ_SNAPSHOT_H
#define IOBUFVIZ_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "scenario/bufmode.h"

/* Where a fact came from. */
enum snap_source {
	SNAP_SRC_NONE,       /* not observable here: see the note */
	SNAP_SRC_STDIO_EXT,  /* <stdio_ext.h> and the public FILE fields, in the worker */
	SNAP_SRC_CACHESTAT,  /* cachestat(2), Linux 6.5+ */
	SNAP_SRC_MINCORE,    /* mincore(2) on a read-only mapping: residency only */
	SNAP_SRC_FIEMAP,     /* ioctl(FS_IOC_FIEMAP) */
	SNAP_SRC_PROCIO,     /* /proc/PID/io */
	SNAP_SRC_KPAGEFLAGS, /* /proc/kpageflags through /proc/self/pagemap: root only */
	SNAP_SRC_BLOCKSTAT,  /* /sys/block/NAME/stat: a block device's own counters */
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
	char note[512];        /* why a fact is missing or approximate; "" if none */
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
	uint32_t block_size;   /* statfs f_bsize (btrfs: its sector size); 0 if unknown */
	size_t n_extents;
	bool extents_truncated;
	struct snap_extent extents[SNAP_MAX_EXTENTS];
	uint64_t allocated_bytes, delalloc_bytes, unwritten_bytes;
	/* Data kept inside the filesystem's metadata (btrfs inline extents of small files):
	 * the bytes of the file they hold, not counted in allocated_bytes (no data block). */
	uint64_t inline_bytes;
	/* Blocks past the file's last block (xfs speculative preallocation, fallocate
	 * KEEP_SIZE): not the file's own allocation, so not in allocated_bytes. */
	uint64_t beyond_eof_bytes;
	bool io_ok;            /* /proc/PID/io was readable */
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes;
};

/*
 * The block device under the scratch file, by its own counters: the requests that reached
 * it, where data leaves the machine's memory. Counted since the device was made (compare two
 * snapshots). Only when the device is the lesson's alone (the crash lab's loop device): a
 * shared disk's counters are everyone's.
 */
struct snap_device {
	enum snap_source source;  /* SNAP_SRC_BLOCKSTAT, or SNAP_SRC_NONE (the note says why) */
	char note[160];
	char name[32];            /* "loop5" */
	uint64_t reads, read_bytes;
	uint64_t writes, write_bytes;
	uint64_t discards, discard_bytes;
	uint64_t flushes;         /* cache flushes asked of the device (fsync, journal commits) */
	uint32_t in_flight;       /* requests started and not completed */
};

/* One observed state. */
struct snapshot {
	struct snap_stdio stdio;
	struct snap_fd fd;
	struct snap_cache cache;
	struct snap_disk disk;
	struct snap_device device;
	/* The file the cache and disk sides show: its inode (0: no file yet), and its name
	 * where the lesson acts on more than one file ("" where it acts on its own only). */
	uint64_t file_ino;
	char file_name[NAME_MAX + 1];
};

/* probe/snapshot-cell.c: what one grid cell shows (helpers for the views and expectations). */

/* Page cache state of a cell, worst first wins: writeback, dirty, clean, absent. */
enum snap_cell_state {
	SNAP_CELL_ABSENT,      /* no page of the cell is cached */
	SNAP_CELL_CLEAN,       /* cached, none dirty (or dirtiness unknown: mincore) */
	SNAP_CELL_DIRTY,       /* some page dirty, none under writeback */
	SNAP_CELL_WRITEBACK,   /* some page being written back */
};

/* Disk state of a cell, from the extents over its bytes and its cache state. */
enum snap_cell_disk {
	SNAP_DISK_UNKNOWN,       /* no FIEMAP (tmpfs, error) or past the extents we kept */
	SNAP_DISK_HOLE,          /* no extent: reads as zeros, nothing on disk */
	SNAP_DISK_NOT_ALLOCATED, /* delayed allocation: the data has no block yet */
	SNAP_DISK_UNWRITTEN,     /* blocks reserved (fallocate), reading gives zeros */
	SNAP_DISK_ON_DISK,       /* allocated and the cache holds nothing newer */
	SNAP_DISK_STALE,         /* allocated, but dirty pages are newer than the disk */
	SNAP_DISK_ALLOCATED,     /* allocated; newer or not unknown (no dirty counts) */
	SNAP_DISK_INLINE,        /* kept in the filesystem's metadata (btrfs): no data block */
};

/* True if the file of s lives in memory only (tmpfs, ramfs): no disk below its pages, so
 * nothing of it is ever dirty or under writeback, whatever a page flag says. Inline: the
 * lesson layer asks it of what the probes saw without using the probe layer. */
static inline bool
snapshot_in_memory(const struct snapshot *s)
{
	return strcmp(s->disk.fs, "tmpfs") == 0 || strcmp(s->disk.fs, "ramfs") == 0;
}

/* Cache state of cell i of c. */
enum snap_cell_state snapshot_cell_state(const struct snap_cache *c, size_t i);

/* Byte range [*start, *end) of cell i of c (end clipped to the page span of the file). */
void snapshot_cell_range(const struct snap_cache *c, size_t i, uint64_t *start, uint64_t *end);

/* Disk state of cell i of c, given the extents in d. */
enum snap_cell_disk snapshot_cell_disk(const struct snap_cache *c, const struct snap_disk *d,
                                       size_t i);

#endif
