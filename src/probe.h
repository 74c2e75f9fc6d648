/* SPDX-License-Identifier: MIT */
/* probe.h: observers. They only look; none of them changes the file or its cache. */
#ifndef IOBUFVIZ_PROBE_H
#define IOBUFVIZ_PROBE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "snapshot.h"

/* probe-stdio.c: fill out from fp (NULL: no FILE*). Runs in the worker. */
void probe_stdio(FILE *fp, struct snap_stdio *out);

/*
 * probe-cache.c: page cache of the file open as fd (any access mode), size bytes long.
 * cachestat(2) per cell; mincore(2) on a private read-only mapping where cachestat is
 * missing (ENOSYS), with a note. Also /proc/meminfo Dirty and Writeback. 0, or -1 with
 * out->note saying why.
 */
int probe_cache(int fd, uint64_t size, struct snap_cache *out);

/* probe-disk.c: extents of fd by FIEMAP (no sync flag), filesystem name and device. */
int probe_disk(int fd, struct snap_disk *out);

/* probe-disk.c: filesystem type ("ext4", "tmpfs", ...) of fd and its device ("/dev/vda", or
 * "" when not a block device; device may be NULL). */
void probe_fs(int fd, char *fs, size_t fslen, char *device, size_t devlen);

/* The counters of /proc/PID/io that iobufviz reads. */
struct probe_io_counters {
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes;
};

/* probe-io.c: parse the text of a /proc/PID/io file; return how many of the six were seen. */
int probe_io_parse(const char *text, struct probe_io_counters *out);

/* probe-io.c: /proc/PID/io into out's counters (out->io_ok false if unreadable). */
int probe_io(pid_t pid, struct snap_disk *out);

/* probe-io.c: offset and flags of PID's fd from /proc/PID/fdinfo/FD. */
int probe_fd(pid_t pid, int fd, struct snap_fd *out);

#endif
