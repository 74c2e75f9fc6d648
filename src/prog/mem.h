/* SPDX-License-Identifier: MIT */
/* mem.h: reading a traced program's memory. */
#ifndef IOBUFVIZ_PROG_MEM_H
#define IOBUFVIZ_PROG_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The NUL-terminated string at addr of pid into buf (cut to len - 1; "" if unreadable). */
void prog_mem_str(pid_t pid, uint64_t addr, char *buf, size_t len);

/* Sum of the iov_len of the iovcnt iovecs at addr of pid (0 if unreadable). */
uint64_t prog_mem_iov_bytes(pid_t pid, uint64_t addr, uint64_t iovcnt);

#endif
