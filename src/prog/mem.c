/* SPDX-License-Identifier: MIT */
/* mem.c: reading a traced program's memory (a path argument, an iovec array) with
 * process_vm_readv, never across a page that may be unmapped. */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "base/text.h"
#include "prog/mem.h"

/* Copy the NUL-terminated string at addr of pid into buf (truncated to len). */
void
prog_mem_str(pid_t pid, uint64_t addr, char *buf, size_t len)
{
	size_t got = 0;

	buf[0] = '\0';
	while (addr != 0 && got + 1 < len) {
		/* Never across a page boundary: the next page may be unmapped. */
		size_t chunk = 4096 - (size_t)(addr & 4095);
		struct iovec l, r;
		ssize_t n;

		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		l = (struct iovec){ buf + got, chunk };
		r = (struct iovec){ (void *)(uintptr_t)addr, chunk };
		n = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (n <= 0)
			break;
		buf[got + (size_t)n] = '\0';
		if (memchr(buf + got, '\0', (size_t)n) != NULL)
			return;
		got += (size_t)n;
		addr += (uint64_t)n;
	}
	buf[got] = '\0';
}

/* Sum of the iov_len of the iovcnt iovecs at addr of pid (0 if unreadable). */
uint64_t
prog_mem_iov_bytes(pid_t pid, uint64_t addr, uint64_t iovcnt)
{
	struct iovec v[64], l, r;
	uint64_t sum = 0;

	for (uint64_t done = 0; done < iovcnt && done < 1024;) {
		size_t k = iovcnt - done < 64 ? (size_t)(iovcnt - done) : 64;
		l = (struct iovec){ v, k * sizeof v[0] };
		r = (struct iovec){ (void *)(uintptr_t)(addr + done * sizeof v[0]), k * sizeof v[0] };
		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)(k * sizeof v[0]))
			break;
		for (size_t i = 0; i < k; i++)
			sum += v[i].iov_len;
		done += k;
	}
	return sum;
}

/* A string of the program as a C literal, "..." after it when it was cut. */
char *
prog_mem_quote(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	text_quote(s, n, buf, len);
	if ((n == PROG_STR_MAX - 1 || n == PATH_MAX - 1) && strlen(buf) + 4 <= len &&
	    buf[strlen(buf) - 1] == '"')
		strcat(buf, "...");
	return buf;
}
