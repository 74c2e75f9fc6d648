/* SPDX-License-Identifier: MIT */
/* cli/catalog.h: the bundled scenarios, found by name. */
#ifndef IOBUFVIZ_CATALOG_H
#define IOBUFVIZ_CATALOG_H

#include <stddef.h>
#include <stdio.h>

/* The directory bundled scenarios are read from: $IOBUFVIZ_SCENARIOS, the source tree
 * when run uninstalled, else $(pkgdatadir)/scenarios. */
const char *catalog_dir(void);

/*
 * Resolve what the user typed: an existing file is itself; otherwise NAME.yaml in the
 * catalog, or the one file whose name starts with "NAME-". Return a heap path, or NULL
 * with *why set to a static reason ("no such scenario", "ambiguous: ...").
 */
char *catalog_resolve(const char *arg, char *why, size_t why_len);

/* Sorted list of the catalog's *.yaml paths (heap, NULL-terminated); NULL on error. */
char **catalog_list(void);

/* Free a list from catalog_list(). */
void catalog_list_free(char **list);

/* --list on f: every bundled scenario grouped as a course takes them (the exercises, the
 * sections, the crash lab, the sweeps), each group in the book's order; a scenario's line is
 * two spaces, its name, how long it may take by its own numbers, its title and its source.
 * 0; 1 if a scenario did not load (its errors on stderr); -1 if the directory cannot be
 * read; -2 out of memory. */
int catalog_print_list(FILE *f);

#endif
