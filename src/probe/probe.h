/* SPDX-License-Identifier: MIT */
/* probe/probe.h: observers. They only look; none of them changes the file or its cache. */
#ifndef IOBUFVIZ_PROBE_H
#define IOBUFVIZ_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "probe/snapshot.h"

/* probe/stdio-state.c: fill out from fp (NULL: no FILE*). Runs in the worker. */
void probe_stdio(FILE *fp, struct snap_stdio *out);

/*
 * probe/cache.c: page cache of the file open as fd (any access mode), size bytes long, by
 * the first source that works: cachestat(2) per cell; else, as root, per-page dirty and
 * writeback from /proc/kpageflags (through /proc/self/pagemap of a private read-only
 * mapping; only resident pages are touched, so nothing is read in); else mincore(2)
 * residency, dirty unknown. On overlayfs it measures the real (upper or lower) file. The
 * note says which and why. Also /proc/meminfo Dirty and Writeback. 0, or -1 with the note.
 */
int probe_cache(int fd, uint64_t size, struct snap_cache *out);

/* probe/cache.c: as probe_cache, but only by want (SNAP_SRC_CACHESTAT, _KPAGEFLAGS or
 * _MINCORE; SNAP_SRC_NONE is the chain). -1 with the note when want cannot work here. */
int probe_cache_as(int fd, uint64_t size, enum snap_source want, struct snap_cache *out);

/* probe/cache.c: a page cache source as --probe names it: "cachestat", "kpageflags",
 * "mincore"; "none" for SNAP_SRC_NONE (probe/names.c's scn_sources). */
const char *probe_cache_source_name(enum snap_source s);

/* probe/cache.c: parse a --probe value ("auto" is SNAP_SRC_NONE, the chain). 0, or -1. */
int probe_cache_source_parse(const char *name, enum snap_source *out);

/* probe/overlay.c: true when fd is on overlayfs. */
bool probe_overlay_is(int fd);

/*
 * probe/overlay.c: fd is on overlayfs: open the real file read-only through the layer that
 * holds it (upperdir, else the lowerdirs in order) at the path relative to the mount, checked
 * to be the same file; *upper says which layer. The fd with its path in real, or -1 with why.
 */
int probe_overlay_real(int fd, char *real, size_t rlen, bool *upper, char *why, size_t wlen);

/* probe/disk.c: extents of fd by FIEMAP (no sync flag), filesystem name and device. */
int probe_disk(int fd, struct snap_disk *out);

/* probe/disk.c: filesystem type ("ext4", "tmpfs", ...) of fd and its device ("/dev/vda", or
 * "" when not a block device; device may be NULL). */
void probe_fs(int fd, char *fs, size_t fslen, char *device, size_t devlen);

/* probe/disk.c: the block device under fd from its st_dev alone ("/dev/loop3" from
 * /sys/dev/block/MAJ:MIN; for btrfs, whose st_dev is anonymous, from /sys/fs/btrfs/FSID/devices),
 * never from mount paths, so it is right in a chroot. 0, or -1 with device "". */
int probe_disk_device(int fd, char *device, size_t len);

/*
 * probe/device.c: the counters of block device NAME ("loop5", a whole disk) from
 * /sys/block/NAME/stat. 0, or -1 with out->source SNAP_SRC_NONE and the note saying why.
 */
int probe_device(const char *name, struct snap_device *out);

/* The counters of /proc/PID/io that iobufviz reads. */
struct probe_io_counters {
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes;
};

/* probe/io.c: parse the text of a /proc/PID/io file; return how many of the six were seen. */
int probe_io_parse(const char *text, struct probe_io_counters *out);

/*
 * probe/io.c: read /proc/PID/io (PID 0: /proc/self/io) with exactly one read() and parse
 * it. Return the bytes that read() returned (the next reading of our own file sees them
 * added to rchar, and 1 added to syscr), or -1 if unreadable or incomplete.
 */
ssize_t probe_io_read(pid_t pid, struct probe_io_counters *c);

/* probe/io.c: /proc/PID/io into out's counters (out->io_ok false if unreadable). */
int probe_io(pid_t pid, struct snap_disk *out);

/* probe/io.c: offset and flags of PID's fd from /proc/PID/fdinfo/FD. */
int probe_fd(pid_t pid, int fd, struct snap_fd *out);

#endif
