/* SPDX-License-Identifier: MIT */
/* fds.c: a traced process's file descriptor table (see prog/fds.h). */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prog/fds.h"

/* Drop one reference to tab. */
void
prog_fds_put(struct prog_fdtab *tab)
{
	if (tab == NULL || --tab->refs > 0)
		return;
	for (size_t i = 0; i < tab->n; i++)
		free(tab->v[i].path);
	free(tab->v);
	free(tab);
}

/* A copy of tab (what fork gives the child). NULL on ENOMEM. */
struct prog_fdtab *
prog_fds_copy(const struct prog_fdtab *tab)
{
	struct prog_fdtab *c = calloc(1, sizeof *c);

	if (c == NULL)
		return NULL;
	c->refs = 1;
	for (size_t i = 0; tab != NULL && i < tab->n; i++) {
		struct prog_fd *v = realloc(c->v, (c->n + 1) * sizeof *v);
		if (v == NULL)
			break;
		c->v = v;
		c->v[c->n] = tab->v[i];
		c->v[c->n].path = strdup(tab->v[i].path);
		if (c->v[c->n].path != NULL)
			c->n++;
	}
	c->cap = c->n;
	return c;
}

/* Forget fd. */
void
prog_fds_del(struct prog_fdtab *tab, int fd)
{
	for (size_t i = 0; i < tab->n; i++)
		if (tab->v[i].fd == fd) {
			free(tab->v[i].path);
			tab->v[i] = tab->v[--tab->n];
			return;
		}
}

/* Remember fd as path. */
void
prog_fds_set(struct prog_fdtab *tab, int fd, const char *path, bool regular, bool cloexec,
             dev_t dev, ino_t ino)
{
	char *p = strdup(path);

	prog_fds_del(tab, fd);
	if (p == NULL)
		return;
	if (tab->n == tab->cap) {
		size_t cap = tab->cap ? tab->cap * 2 : 16;
		struct prog_fd *v = realloc(tab->v, cap * sizeof *v);
		if (v == NULL) {
			free(p);
			return;
		}
		tab->v = v;
		tab->cap = cap;
	}
	tab->v[tab->n++] = (struct prog_fd){ fd, regular, cloexec, p, dev, ino };
}

/* Tgid of pid from /proc (pid itself if unknown). */
pid_t
prog_fds_tgid(pid_t pid)
{
	char path[64], line[128];
	pid_t tgid = pid;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (f == NULL)
		return pid;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* The entry of fd of process pid in tab (read from /proc the first time), or NULL if it is
 * not open. */
struct prog_fd *
prog_fds_get(struct prog_fdtab *tab, pid_t pid, int fd)
{
	if (fd < 0)
		return NULL;
	for (size_t i = 0; i < tab->n; i++)
		if (tab->v[i].fd == fd)
			return &tab->v[i];
	return prog_fds_resolve(tab, pid, fd);
}

/* Read fd of pid from /proc into the table: what it is, if it is regular, O_CLOEXEC. */
struct prog_fd *
prog_fds_resolve(struct prog_fdtab *tab, pid_t pid, int fd)
{
	char link[64], path[PATH_MAX], line[128];
	struct stat st;
	bool cloexec = false;
	ssize_t n;
	FILE *f;

	snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, fd);
	n = readlink(link, path, sizeof path - 1);
	if (n < 0)
		return NULL;
	path[n] = '\0';
	if (stat(link, &st) != 0)
		return NULL;
	snprintf(link, sizeof link, "/proc/%d/fdinfo/%d", (int)pid, fd);
	f = fopen(link, "re");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned flags;
		if (sscanf(line, "flags: %o", &flags) == 1) {
			cloexec = (flags & O_CLOEXEC) != 0;
			break;
		}
	}
	if (f != NULL)
		fclose(f);
	prog_fds_set(tab, fd, path, S_ISREG(st.st_mode), cloexec, st.st_dev, st.st_ino);
	return &tab->v[tab->n - 1];
}

/* The file mapped at addr of pid (from /proc/PID/maps): its path and stat, and whether the
 * mapping is shared and writable. */
bool
prog_fds_mapped(pid_t pid, uint64_t addr, char *path, size_t len, struct stat *st,
                bool *shared_write)
{
	char name[64], line[PATH_MAX + 128];
	bool found = false;
	FILE *f;

	snprintf(name, sizeof name, "/proc/%d/maps", (int)pid);
	f = fopen(name, "re");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned long long lo, hi, ino;
		char perms[8];
		int at = 0;

		if (sscanf(line, "%llx-%llx %7s %*x %*x:%*x %llu %n", &lo, &hi, perms, &ino, &at) < 4 ||
		    addr < lo || addr >= hi)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (ino != 0 && at > 0 && line[at] == '/' && stat(line + at, st) == 0) {
			snprintf(path, len, "%s", line + at);
			*shared_write = perms[1] == 'w' && perms[3] == 's';
			found = true;
		}
		break;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

/* close_range: forget fds first to last, or mark them O_CLOEXEC. */
void
prog_fds_close_range(struct prog_fdtab *tab, unsigned first, unsigned last, bool cloexec)
{
	for (size_t i = 0; i < tab->n;) {
		struct prog_fd *f = &tab->v[i++];
		if ((unsigned)f->fd < first || (unsigned)f->fd > last)
			continue;
		if (cloexec) {
			f->cloexec = true;
		} else {
			prog_fds_del(tab, f->fd);
			i--;
		}
	}
}
