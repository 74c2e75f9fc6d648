/* SPDX-License-Identifier: MIT */
/* base/fdio.h: whole transfers on a file descriptor, retried across EINTR and short counts. */
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

#endif
