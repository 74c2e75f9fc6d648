/* SPDX-License-Identifier: MIT */
/* io.c: a process's I/O counters (/proc/PID/io) and file offsets (/proc/PID/fdinfo). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"

/* Parse /proc/PID/io text ("rchar: N" lines); the count of the six known keys seen. */
int
probe_io_parse(const char *text, struct probe_io_counters *out)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "rchar", offsetof(struct probe_io_counters, rchar) },
		{ "wchar", offsetof(struct probe_io_counters, wchar) },
		{ "syscr", offsetof(struct probe_io_counters, syscr) },
		{ "syscw", offsetof(struct probe_io_counters, syscw) },
		{ "read_bytes", offsetof(struct probe_io_counters, read_bytes) },
		{ "write_bytes", offsetof(struct probe_io_counters, write_bytes) },
	};
	int seen = 0;

	memset(out, 0, sizeof *out);
	for (const char *p = text; p != NULL && *p != '\0'; ) {
		const char *colon = strchr(p, ':'), *nl = strchr(p, '\n');

		if (colon != NULL && (nl == NULL || colon < nl)) {
			for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
				size_t k = strlen(keys[i].key);
				if ((size_t)(colon - p) == k && strncmp(p, keys[i].key, k) == 0) {
					*(uint64_t *)((char *)out + keys[i].off) =
					    strtoull(colon + 1, NULL, 10);
					seen++;
					break;
				}
			}
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return seen;
}

/* Read /proc/PID/io (PID 0: this process) with one read() and parse it (see probe/probe.h). */
ssize_t
probe_io_read(pid_t pid, struct probe_io_counters *c)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;

	if (pid == 0)
		snprintf(path, sizeof path, "/proc/self/io");
	else
		snprintf(path, sizeof path, "/proc/%ld/io", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	/* Reading another user's io file opens but yields nothing useful without ptrace rights. */
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (probe_io_parse(buf, c) < 6)
		return -1;
	return n;
}

/* Fill out's I/O counters from /proc/PID/io. 0, or -1 (out->io_ok false) if unreadable. */
int
probe_io(pid_t pid, struct snap_disk *out)
{
	struct probe_io_counters c;

	out->io_ok = false;
	if (probe_io_read(pid, &c) < 0)
		return -1;
	out->rchar = c.rchar;
	out->wchar = c.wchar;
	out->syscr = c.syscr;
	out->syscw = c.syscw;
	out->read_bytes = c.read_bytes;
	out->write_bytes = c.write_bytes;
	out->io_ok = true;
	return 0;
}

/*
 * Fill out with fd's offset and O_* flags from /proc/PID/fdinfo/FD. A closed fd gives
 * 0 with out->open false; -1 if the file cannot be read for another reason.
 */
int
probe_fd(pid_t pid, int fd, struct snap_fd *out)
{
	char path[64], line[128];
	long long pos;
	unsigned flags;
	int got = 0;
	FILE *f;

	out->open = false;
	out->fd = fd;
	out->flags = 0;
	out->pos = 0;
	snprintf(path, sizeof path, "/proc/%ld/fdinfo/%d", (long)pid, fd);
	f = fopen(path, "re");
	if (f == NULL)
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "pos: %lld", &pos) == 1) {
			out->pos = pos;
			got |= 1;
		} else if (sscanf(line, "flags: %o", &flags) == 1) {
			/* The kernel prints the flags in octal, like the O_* constants. */
			out->flags = (int)flags;
			got |= 2;
		}
	}
	fclose(f);
	if (got != 3)
		return -1;
	out->open = true;
	return 0;
}
