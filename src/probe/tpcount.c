/* SPDX-License-Identifier: MIT */
/*
 * probe/tpcount.c: kernel tracepoints counted. Each event is a perf counter of type
 * PERF_TYPE_TRACEPOINT on each online CPU, with the tracepoint's filter set on it
 * (PERF_EVENT_IOC_SET_FILTER): nothing is recorded, nothing is read but the counts, and no
 * tracefs of the host's is written to. The events' ids are read from tracefs: the host's, or
 * one mounted for a moment in a mount namespace of a child's own.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fdio.h"
#include "probe/tpcount.h"

/* At most this many events, and this many CPUs, are counted. */
#define TPCOUNT_MAX_EVENTS 8
#define TPCOUNT_MAX_CPUS 1024

struct tpcount {
	size_t n_events;     /* events counted */
	size_t n;            /* counters per event */
	size_t n_fd;         /* counters open */
	int fd[];            /* each event's counter on each online CPU: fd[e * n + i] */
};

/* The tracepoint's id read from the file at path; -1 if none. */
static long
tpcount_read_id(const char *path)
{
	char buf[32];
	long id;

	if (fdio_read_text(path, buf, sizeof buf) < 0)
		return -1;
	id = strtol(buf, NULL, 10);
	return id > 0 ? id : -1;
}

/* The ids of the n events under tracefs root into ids; 0, or -1 if one is missing. */
static int
tpcount_read_ids(const char *root, const char *const *events, size_t n, long *ids)
{
	char path[PATH_MAX];

	for (size_t e = 0; e < n; e++)
		if ((size_t)snprintf(path, sizeof path, "%s/events/%s/id", root, events[e]) >=
		    sizeof path || (ids[e] = tpcount_read_id(path)) < 0)
			return -1;
	return 0;
}

/* The ids from a tracefs (or a debugfs's tracing/) the host has mounted: 0, or -1. */
static int
tpcount_ids_mounted(const char *const *events, size_t n, long *ids)
{
	char line[1024], dir[512], type[64], root[600];
	int rc = -1;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (f == NULL)
		return -1;
	while (rc != 0 && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%*s %511s %63s", dir, type) != 2)
			continue;
		if (strcmp(type, "tracefs") == 0)
			snprintf(root, sizeof root, "%s", dir);
		else if (strcmp(type, "debugfs") == 0)
			snprintf(root, sizeof root, "%s/tracing", dir);
		else
			continue;
		rc = tpcount_read_ids(root, events, n, ids);
	}
	fclose(f);
	return rc;
}

/* The ids read by a child that mounts tracefs on dir in a mount namespace of its own, which
 * ends with it: the host never sees the mount. 0, or -1 if that cannot be done. */
static int
tpcount_ids_private(const char *dir, const char *const *events, size_t n, long *ids)
{
	const ssize_t size = (ssize_t)(n * sizeof ids[0]);
	int p[2], st, rc = -1;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount("nodev", dir, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0 &&
		    tpcount_read_ids(dir, events, n, ids) == 0)
			_exit(write(p[1], ids, (size_t)size) == size ? 0 : 1);
		_exit(1);
	}
	close(p[1]);
	if (pid > 0) {
		rc = read(p[0], ids, (size_t)size) == size ? 0 : -1;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	close(p[0]);
	return rc;
}

/* One counter of event id on cpu, where filter holds: its fd, or -1 with errno. */
static int
tpcount_counter(long id, int cpu, const char *filter)
{
	struct perf_event_attr a;
	int fd, e;

	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof a;
	a.config = (uint64_t)id;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) != 0) {
		e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}

/* Count the n tracepoints from now on (see probe/tpcount.h). */
struct tpcount *
tpcount_open(const char *const *events, size_t n, const char *filter, const char *dir,
             char *why, size_t len)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF), ids[TPCOUNT_MAX_EVENTS];
	struct tpcount *c;

	if (n == 0 || n > TPCOUNT_MAX_EVENTS) {
		snprintf(why, len, "%zu events: 1 to %d can be counted", n, TPCOUNT_MAX_EVENTS);
		return NULL;
	}
	if (geteuid() != 0) {
		snprintf(why, len, "not root");
		return NULL;
	}
	if (tpcount_ids_mounted(events, n, ids) != 0 &&
	    (dir == NULL || tpcount_ids_private(dir, events, n, ids) != 0)) {
		snprintf(why, len, "no tracefs with the %s events", events[0]);
		return NULL;
	}
	if (cpus < 1 || cpus > TPCOUNT_MAX_CPUS ||
	    (c = calloc(1, sizeof *c + n * (size_t)cpus * sizeof c->fd[0])) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	c->n_events = n;
	for (size_t e = 0; e < n; e++) {
		for (long cpu = 0; cpu < cpus; cpu++) {
			int fd = tpcount_counter(ids[e], (int)cpu, filter);
			if (fd < 0 && errno == ENODEV)      /* not online */
				continue;
			if (fd < 0) {
				snprintf(why, len, "perf_event_open refused: %s", strerror(errno));
				tpcount_close(c);
				return NULL;
			}
			c->fd[c->n_fd++] = fd;
		}
		if (e == 0)
			c->n = c->n_fd;
	}
	if (c->n == 0 || c->n_fd != n * c->n) {
		snprintf(why, len, "no online CPU to count on");
		tpcount_close(c);
		return NULL;
	}
	return c;
}

/* Event e's count on every CPU, summed. */
uint64_t
tpcount_read(const struct tpcount *c, size_t e)
{
	uint64_t sum = 0, v;

	for (size_t i = 0; c != NULL && e < c->n_events && i < c->n; i++)
		if (read(c->fd[e * c->n + i], &v, sizeof v) == (ssize_t)sizeof v)
			sum += v;
	return sum;
}

/* Close its counters. */
void
tpcount_close(struct tpcount *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n_fd; i++)
		close(c->fd[i]);
	free(c);
}
