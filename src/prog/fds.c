/* SPDX-License-Identifier: MIT */
/* fds.c: a traced process's file descriptor table and what its memory maps tell (see
 * prog/fds.h). */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/grow.h"
#include "prog/fds.h"
#include "probe/probe.h"

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
		struct prog_fd *v = grow(c->v, &c->cap, c->n, sizeof *v, 16);
		if (v == NULL)
			break;
		c->v = v;
		c->v[c->n] = tab->v[i];
		c->v[c->n].path = strdup(tab->v[i].path);
		if (c->v[c->n].path != NULL)
			c->n++;
	}
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
		struct prog_fd *v = grow(tab->v, &tab->cap, tab->n, sizeof *v, 16);
		if (v == NULL) {
			free(p);
			return;
		}
		tab->v = v;
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

/* Where the dynamic loader's code is mapped in pid (see prog/fds.h). */
void
prog_fds_loader(pid_t pid, uint64_t *lo_out, uint64_t *hi_out)
{
	char name[64], line[PATH_MAX + 128], ld[PATH_MAX] = "";
	uint64_t aux[2], base = 0;
	FILE *f;
	int fd;

	*lo_out = *hi_out = 0;
	snprintf(name, sizeof name, "/proc/%d/auxv", (int)pid);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	while (fd >= 0 && read(fd, aux, sizeof aux) == (ssize_t)sizeof aux && aux[0] != AT_NULL)
		if (aux[0] == AT_BASE)
			base = aux[1];
	if (fd >= 0)
		close(fd);
	snprintf(name, sizeof name, "/proc/%d/maps", (int)pid);
	if (base == 0 || (f = fopen(name, "re")) == NULL)
		return;
	/* The file mapped at AT_BASE first, then its executable mappings. */
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof line, f) != NULL) {
			unsigned long long lo, hi;
			char perms[8];
			int at = 0;
			if (sscanf(line, "%llx-%llx %7s %*x %*x:%*x %*u %n", &lo, &hi, perms, &at) < 3 ||
			    at == 0 || line[at] != '/')
				continue;
			line[strcspn(line, "\n")] = '\0';
			if (pass == 0 && base >= lo && base < hi)
				snprintf(ld, sizeof ld, "%s", line + at);
			if (pass == 1 && perms[2] == 'x' && strcmp(line + at, ld) == 0) {
				if (*hi_out == 0 || lo < *lo_out)
					*lo_out = lo;
				if (hi > *hi_out)
					*hi_out = hi;
			}
		}
		if (ld[0] == '\0')
			break;
	}
	fclose(f);
}

/* The dirty pages of the regular file at path (dev:ino), or -1 if not known (see prog/fds.h). */
int64_t
prog_fds_dirty(const char *path, dev_t dev, ino_t ino)
{
	struct snap_cache *c;
	struct statfs sf;
	struct stat st;
	int64_t dirty = -1;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == dev && st.st_ino == ino &&
	    fstatfs(fd, &sf) == 0 && sf.f_type != 0x01021994 /* tmpfs */ &&
	    (c = malloc(sizeof *c)) != NULL) {
		if (probe_cache(fd, (uint64_t)st.st_size, c) == 0 && c->source == SNAP_SRC_CACHESTAT &&
		    c->has_dirty)
			dirty = (int64_t)c->dirty;
		free(c);
	}
	close(fd);
	return dirty;
}

/* Whether path, made absolute from pid's working directory, names a regular file. */
bool
prog_fds_named_regular(pid_t pid, char *path, size_t len, dev_t *dev, ino_t *ino)
{
	char link[64], cwd[PATH_MAX], abs[PATH_MAX], at[PATH_MAX];
	const char *look = path;
	struct stat st, here;
	ssize_t n;

	if (path[0] != '/') {
		snprintf(link, sizeof link, "/proc/%ld/cwd", (long)pid);
		if ((n = readlink(link, cwd, sizeof cwd - 1)) <= 0)
			return false;
		cwd[n] = '\0';
		if ((size_t)snprintf(abs, sizeof abs, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
		                     path) >= sizeof abs || strlen(abs) >= len ||
		    (size_t)snprintf(at, sizeof at, "%s/%s", link, path) >= sizeof at)
			return false;
		/* The name as the program's own directory resolves it, whatever its path reads;
		 * made absolute only where that path is the directory (not one mounted nowhere). */
		look = at;
		if (stat(cwd, &st) == 0 && stat(link, &here) == 0 && st.st_dev == here.st_dev &&
		    st.st_ino == here.st_ino)
			memcpy(path, abs, strlen(abs) + 1);
	}
	if (lstat(look, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/* The index of file dev:ino in m, or m->n. */
static size_t
prog_fds_map_at(const struct prog_maptab *m, dev_t dev, ino_t ino)
{
	size_t i = 0;

	while (i < m->n && !(m->v[i].dev == dev && m->v[i].ino == ino))
		i++;
	return i;
}

/* The entry of file dev:ino in m. */
const struct prog_mapped *
prog_fds_map_find(const struct prog_maptab *m, dev_t dev, ino_t ino)
{
	size_t i = prog_fds_map_at(m, dev, ino);

	return i < m->n ? &m->v[i] : NULL;
}

/* Keep the dirty pages of a mapped file as the program's last call on it left them. */
void
prog_fds_map_note(struct prog_maptab *m, const char *path, dev_t dev, ino_t ino, bool maps)
{
	size_t i = prog_fds_map_at(m, dev, ino);
	struct prog_mapped *e = i < m->n ? &m->v[i] : NULL;

	if (e == NULL && maps) {
		struct prog_mapped *v = grow(m->v, &m->cap, m->n, sizeof *v, 4);
		if (v == NULL)
			return;
		m->v = v;
		e = &m->v[m->n++];
		e->dev = dev;
		e->ino = ino;
	}
	if (e != NULL)
		e->dirty = prog_fds_dirty(path, dev, ino);
}

/* Free m's entries. */
void
prog_fds_map_free(struct prog_maptab *m)
{
	free(m->v);
	*m = (struct prog_maptab){ 0 };
}
