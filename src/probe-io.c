/* SPDX-License-Identifier: MIT */
/* probe-io.c: a process's I/O counters (/proc/PID/io) and file offsets (/proc/PID/fdinfo). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"

/* Fill out's I/O counters from /proc/PID/io. 0, or -1 (out->io_ok false) if unreadable. */
int
probe_io(pid_t pid, struct snap_disk *out)
{
	char path[64], line[128], key[32];
	unsigned long long v;
	int seen = 0;
	FILE *f;

	out->io_ok = false;
	snprintf(path, sizeof path, "/proc/%ld/io", (long)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%31[^:]: %llu", key, &v) != 2)
			continue;
		if (strcmp(key, "rchar") == 0)
			out->rchar = v;
		else if (strcmp(key, "wchar") == 0)
			out->wchar = v;
		else if (strcmp(key, "syscr") == 0)
			out->syscr = v;
		else if (strcmp(key, "syscw") == 0)
			out->syscw = v;
		else if (strcmp(key, "read_bytes") == 0)
			out->read_bytes = v;
		else if (strcmp(key, "write_bytes") == 0)
			out->write_bytes = v;
		else
			continue;
		seen++;
	}
	fclose(f);
	/* Reading another user's io file opens but yields nothing useful without ptrace rights. */
	if (seen < 6)
		return -1;
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
