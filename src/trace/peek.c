/* SPDX-License-Identifier: MIT */
/* trace/peek.c: reading a traced process's memory, never across a page that may be unmapped. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "trace/peek.h"

/* process_vm_readv, or word by word with PTRACE_PEEKDATA where it is refused (ENOSYS). */
static ssize_t
peek_pid_read(const struct peek *m, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(m->pid, &local, 1, &remote, 1, 0);
	size_t done = 0;

	if (n >= 0 || errno != ENOSYS)
		return n;
	while (done < len) {
		long w;
		size_t k = len - done < sizeof w ? len - done : sizeof w;
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, m->pid, (void *)(uintptr_t)(addr + done), 0);
		if (errno != 0)
			return done > 0 ? (ssize_t)done : -1;
		memcpy((char *)buf + done, &w, k);
		done += k;
	}
	return (ssize_t)done;
}

/* A reader of pid's memory. */
struct peek
peek_pid(pid_t pid)
{
	return (struct peek){ .read = peek_pid_read, .pid = pid };
}

/* All of len bytes at addr, or false. */
bool
peek_read(const struct peek *m, uint64_t addr, void *buf, size_t len)
{
	return m != NULL && addr != 0 && m->read(m, addr, buf, len) == (ssize_t)len;
}

/* A string, a page at a time: the next page may be unmapped. */
bool
peek_str(const struct peek *m, uint64_t addr, char *buf, size_t len)
{
	size_t got = 0;

	if (len == 0)
		return false;
	buf[0] = '\0';
	while (m != NULL && addr != 0 && got + 1 < len) {
		size_t chunk = 4096 - (size_t)((addr + got) & 4095);
		ssize_t n;

		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		n = m->read(m, addr + got, buf + got, chunk);
		if (n <= 0)
			break;
		buf[got + (size_t)n] = '\0';
		if (memchr(buf + got, '\0', (size_t)n) != NULL)
			return true;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return false;
}
