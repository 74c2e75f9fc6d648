/* SPDX-License-Identifier: MIT */
/* mem.h: reading a traced program's memory. */
#ifndef IOBUFVIZ_PROG_MEM_H
#define IOBUFVIZ_PROG_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Room for a string argument of a stdio call (fopen's path, fprintf's format), cut. */
#define PROG_STR_MAX 96

/* The NUL-terminated string at addr of pid into buf (cut to len - 1; "" if unreadable). */
void prog_mem_str(pid_t pid, uint64_t addr, char *buf, size_t len);

/* Sum of the iov_len of the iovcnt iovecs at addr of pid (0 if unreadable). */
uint64_t prog_mem_iov_bytes(pid_t pid, uint64_t addr, uint64_t iovcnt);

/* A string read with prog_mem_str as a C literal into buf; one that filled PROG_STR_MAX or
 * PATH_MAX was cut where it was read, and ends in "...". Return buf. */
char *prog_mem_quote(const char *s, char *buf, size_t len);

#endif
