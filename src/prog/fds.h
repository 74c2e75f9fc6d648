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

/* Where the dynamic loader's code is in pid: [*lo, *hi) spans the executable mappings of the
 * file mapped at AT_BASE (the interpreter the kernel loaded with the program); 0, 0 for a
 * static one. Its calls (ld.so.cache, the libraries, the shim) are the loader's, whatever
 * the files' names. */
void prog_fds_loader(pid_t pid, uint64_t *lo, uint64_t *hi);

/*
 * The dirty pages of the regular file at path (dev:ino: the one mapped), or -1 if that is not
 * known. A filesystem that marks a page dirty when a store meets it (ext4, xfs, btrfs: a
 * shared mapping's clean pages are write-protected) says so through cachestat: 0 means
 * nothing was stored through a shared mapping of it since its pages were last written back;
 * a count that rose with no call of the program's on the file between means a store was.
 * tmpfs keeps no dirty count, and a cache seen without dirty counts tells nothing: -1.
 */
int64_t prog_fds_dirty(const char *path, dev_t dev, ino_t ino);

/* A file a program mapped, and its dirty pages as the program's last call on it left them
 * (-1: not known): a later msync or munmap that finds more saw a store (prog_fds_dirty). */
struct prog_mapped {
	dev_t dev;
	ino_t ino;
	int64_t dirty;
};

/* The files a program mapped, in the order it first mapped them. */
struct prog_maptab {
	struct prog_mapped *v;
	size_t n, cap;
};

/* The entry of file dev:ino in m, or NULL. */
const struct prog_mapped *prog_fds_map_find(const struct prog_maptab *m, dev_t dev, ino_t ino);

/* After a call of the program's on the regular file at path (dev:ino): keep its dirty pages
 * as the call left them, if the program mapped it (or maps it now: maps). */
void prog_fds_map_note(struct prog_maptab *m, const char *path, dev_t dev, ino_t ino, bool maps);

/* Free what m holds (it is left empty). */
void prog_fds_map_free(struct prog_maptab *m);

/* True if path (len bytes of room: the name a call of pid gave, relative to pid's working
 * directory or not) now names a regular file, its dev:ino then in *dev, *ino. A relative one
 * is looked up through /proc/PID/cwd, and made absolute in place from the path that link
 * reads, as the steps' files are, where that path names the directory (one mounted nowhere,
 * a crash lab, reads as "/": its names stay relative). */
bool prog_fds_named_regular(pid_t pid, char *path, size_t len, dev_t *dev, ino_t *ino);

#endif
