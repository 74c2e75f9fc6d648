/* SPDX-License-Identifier: MIT */
/* fds.c: a traced process's file descriptor table (see prog/fds.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

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
