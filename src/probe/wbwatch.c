/* SPDX-License-Identifier: MIT */
/*
 * probe/wbwatch.c: the kernel's own writeback of one inode, counted. The tracepoint
 * writeback:writeback_single_inode_start fires in __writeback_single_inode, which runs for
 * the flusher threads' writeback and for sync()'s and syncfs()'s, and not for fsync,
 * fdatasync, O_SYNC, sync_file_range or close() after O_TRUNC, which write the pages with
 * filemap_* directly (measured on Linux 6.18 with perf on ext4, xfs and btrfs: 0 for each of
 * those, 1 for syncfs and sync). So a count that rose during a step that called neither sync
 * nor syncfs says that someone else's writeback took the file's dirty pages.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/fdio.h"
#include "probe/wbwatch.h"

/* The tracepoints, under a tracefs mount: a writeback of an inode begins, and ends. */
static const char *const wbwatch_events[] = {
	"events/writeback/writeback_single_inode_start/id",
	"events/writeback/writeback_single_inode/id",
};
enum { WBWATCH_EVENTS = sizeof wbwatch_events / sizeof wbwatch_events[0] };
/* At most this many CPUs are watched. */
#define WBWATCH_MAX_CPUS 1024

struct wbwatch {
	size_t n;            /* counters per event */
	size_t n_fd;         /* counters open */
	int fd[];            /* each event's counter on each online CPU: fd[e * cpus + i] */
};

/* The tracepoint's id read from the file at path; -1 if none. */
static long
wbwatch_read_id(const char *path)
{
	char buf[32];
	long id;

	if (fdio_read_text(path, buf, sizeof buf) < 0)
		return -1;
	id = strtol(buf, NULL, 10);
	return id > 0 ? id : -1;
}

/* The ids of the events under tracefs root into ids; 0, or -1 if one is missing. */
static int
wbwatch_read_ids(const char *root, long ids[WBWATCH_EVENTS])
{
	char path[PATH_MAX];

	for (size_t e = 0; e < WBWATCH_EVENTS; e++)
		if ((size_t)snprintf(path, sizeof path, "%s/%s", root, wbwatch_events[e]) >=
		    sizeof path || (ids[e] = wbwatch_read_id(path)) < 0)
			return -1;
	return 0;
}

/* The ids from a tracefs (or a debugfs's tracing/) the host has mounted: 0, or -1. */
static int
wbwatch_ids_mounted(long ids[WBWATCH_EVENTS])
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
		rc = wbwatch_read_ids(root, ids);
	}
	fclose(f);
	return rc;
}

/* The ids read by a child that mounts tracefs on dir in a mount namespace of its own, which
 * ends with it: the host never sees the mount. 0, or -1 if that cannot be done. */
static int
wbwatch_ids_private(const char *dir, long ids[WBWATCH_EVENTS])
{
	const ssize_t size = WBWATCH_EVENTS * sizeof ids[0];
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
		    wbwatch_read_ids(dir, ids) == 0)
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

/* One counter of event id on cpu, for inode ino only: its fd, or -1 with errno. */
static int
wbwatch_counter(long id, int cpu, const char *filter)
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

/* Count the writebacks of inode ino of device dev from now on. */
struct wbwatch *
wbwatch_open(ino_t ino, dev_t dev, const char *dir, char *why, size_t len)
{
	char filter[96], bdi[64];
	long cpus = sysconf(_SC_NPROCESSORS_CONF), ids[WBWATCH_EVENTS];
	struct wbwatch *w;

	if (geteuid() != 0) {
		snprintf(why, len, "not root");
		return NULL;
	}
	if (wbwatch_ids_mounted(ids) != 0 && (dir == NULL || wbwatch_ids_private(dir, ids) != 0)) {
		snprintf(why, len, "no tracefs with the writeback:writeback_single_inode events");
		return NULL;
	}
	if (cpus < 1 || cpus > WBWATCH_MAX_CPUS ||
	    (w = calloc(1, sizeof *w + WBWATCH_EVENTS * (size_t)cpus * sizeof w->fd[0])) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	/* The inode's number alone is not the file's: another filesystem (a crash lab beside
	 * this one, made the same way) has the same numbers. Where dev is a bdi of its own (a
	 * block device's filesystem: the bdi is named MAJOR:MINOR), its name too. */
	snprintf(bdi, sizeof bdi, "/sys/class/bdi/%u:%u", major(dev), minor(dev));
	if (access(bdi, F_OK) == 0)
		snprintf(filter, sizeof filter, "ino == %ju && name == \"%u:%u\"", (uintmax_t)ino,
		         major(dev), minor(dev));
	else
		snprintf(filter, sizeof filter, "ino == %ju", (uintmax_t)ino);
	for (size_t e = 0; e < WBWATCH_EVENTS; e++) {
		for (long cpu = 0; cpu < cpus; cpu++) {
			int fd = wbwatch_counter(ids[e], (int)cpu, filter);
			if (fd < 0 && errno == ENODEV)      /* not online */
				continue;
			if (fd < 0) {
				snprintf(why, len, "perf_event_open refused: %s", strerror(errno));
				wbwatch_close(w);
				return NULL;
			}
			w->fd[w->n_fd++] = fd;
		}
		if (e == 0)
			w->n = w->n_fd;
	}
	if (w->n == 0 || w->n_fd != WBWATCH_EVENTS * w->n) {
		snprintf(why, len, "no online CPU to count on");
		wbwatch_close(w);
		return NULL;
	}
	return w;
}

/* Event e's count on every CPU, summed. */
static uint64_t
wbwatch_sum(const struct wbwatch *w, size_t e)
{
	uint64_t sum = 0, v;

	for (size_t i = 0; w != NULL && i < w->n; i++)
		if (read(w->fd[e * w->n + i], &v, sizeof v) == (ssize_t)sizeof v)
			sum += v;
	return sum;
}

/* How many writebacks of the inode began since wbwatch_open, and whether one is running. */
uint64_t
wbwatch_count(const struct wbwatch *w, bool *running)
{
	/* The ends first: a writeback that ends between the two reads is not counted as
	 * ended, so "none running" is never said while one is. */
	uint64_t ended = wbwatch_sum(w, 1), began = wbwatch_sum(w, 0);

	*running = began > ended;
	return began;
}

/* Close its counters. */
void
wbwatch_close(struct wbwatch *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->n_fd; i++)
		close(w->fd[i]);
	free(w);
}
