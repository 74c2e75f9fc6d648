/* SPDX-License-Identifier: MIT */
/* fds.h: a traced process's file descriptor table, as far as the tracer has seen it. */
#ifndef IOBUFVIZ_PROG_FDS_H
#define IOBUFVIZ_PROG_FDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* One open fd of a process, as far as we know it. */
struct prog_fd {
	int fd;
	bool regular, cloexec;
	char *path;
	dev_t dev;                /* the file's, as stat gave them when the fd was seen */
	ino_t ino;
};

/* A file descriptor table, shared by the threads of a process. */
struct prog_fdtab {
	int refs;
	struct prog_fd *v;
	size_t n, cap;
};

/* Drop one reference to tab; the last frees it. NULL is fine. */
void prog_fds_put(struct prog_fdtab *tab);

/* A copy of tab (what fork gives the child), one reference. NULL on ENOMEM. */
struct prog_fdtab *prog_fds_copy(const struct prog_fdtab *tab);

/* Forget fd. */
void prog_fds_del(struct prog_fdtab *tab, int fd);

/* Remember fd as path (a copy) on file dev:ino, replacing what fd was. */
void prog_fds_set(struct prog_fdtab *tab, int fd, const char *path, bool regular, bool cloexec,
                  dev_t dev, ino_t ino);

/* close_range(first, last): forget those fds, or (cloexec) mark them O_CLOEXEC. */
void prog_fds_close_range(struct prog_fdtab *tab, unsigned first, unsigned last, bool cloexec);

/* Tgid of pid from /proc (pid itself if unknown). */
pid_t prog_fds_tgid(pid_t pid);

/* The entry of fd of process pid in tab (read from /proc the first time), or NULL if it is
 * not open. */
struct prog_fd *prog_fds_get(struct prog_fdtab *tab, pid_t pid, int fd);

/* Read fd of process pid from /proc into tab: what it is, if it is regular, O_CLOEXEC, its
 * dev:ino. Its entry, or NULL if it is not open. */
struct prog_fd *prog_fds_resolve(struct prog_fdtab *tab, pid_t pid, int fd);

/* The file mapped at addr of process pid (/proc/PID/maps): true with its path in path (len
 * bytes), its stat in *st and whether the mapping is shared and writable (stores through it
 * reach the file's pages) in *shared_write; false for memory of no file. */
bool prog_fds_mapped(pid_t pid, uint64_t addr, char *path, size_t len, struct stat *st,
                     bool *shared_write);

#endif
