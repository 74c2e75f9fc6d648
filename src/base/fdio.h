/* SPDX-License-Identifier: MIT */
/* base/fdio.h: whole transfers on a file descriptor, retried across EINTR and short counts;
 * opening a file that must be regular. */
#ifndef IOBUFVIZ_FDIO_H
#define IOBUFVIZ_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/* Write all len bytes of buf to fd. 0, or -1 (errno set; a zero-length write gives EIO). */
int fdio_write_all(int fd, const void *buf, size_t len);

/* Read until len bytes or end of file. The bytes read (< len only at EOF), or -1. */
ssize_t fdio_read_all(int fd, void *buf, size_t len);

/* Read a small file (/proc, /sys) into buf as a string (len > 0). Its length, or -1 if it
 * cannot be opened or is empty. */
ssize_t fdio_read_text(const char *path, char *buf, size_t len);

/*
 * Open path read-only only if it is a regular file, without ever opening anything else:
 * it is first opened O_PATH (no open of a FIFO that blocks, of a terminal that becomes
 * ours, of a device with side effects), checked, then opened again through
 * /proc/self/fd. follow false: a symlink as the last component is refused (ELOOP);
 * true: followed (a /proc/PID/fd/N link). The fd (O_CLOEXEC | O_NOCTTY), or -1 with errno
 * (EINVAL: not a regular file).
 */
int fdio_open_regular(const char *path, int follow);

#endif
