/* SPDX-License-Identifier: MIT */
/* cli/catalog.c: the bundled scenarios, found by name. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/catalog.h"

/* Directory bundled scenarios come from. */
const char *
catalog_dir(void)
{
	static char exe[PATH_MAX];
	const char *env = getenv("IOBUFVIZ_SCENARIOS");
	ssize_t n;

	if (env != NULL && *env != '\0')
		return env;
	/* Uninstalled: the binary runs from the build tree, so use the source tree's copy. */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (strcmp(exe, IOBUFVIZ_BUILDDIR "/src") == 0 ||
			    strcmp(exe, IOBUFVIZ_BUILDDIR "/tests") == 0)
				return IOBUFVIZ_SRCDIR "/scenarios";
		}
	}
	return IOBUFVIZ_PKGDATADIR "/scenarios";
}

/* True if name ends in ".yaml". */
static int
catalog_is_yaml(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/* qsort comparator for strings. */
static int
catalog_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List the catalog's scenarios. */
char **
catalog_list(void)
{
	const char *dir = catalog_dir();
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (!catalog_is_yaml(e->d_name))
			continue;
		if (n + 2 > cap) {
			cap = cap ? cap * 2 : 32;
			char **nv = realloc(v, cap * sizeof *v);
			if (nv == NULL)
				goto fail;
			v = nv;
		}
		if (asprintf(&v[n], "%s/%s", dir, e->d_name) < 0)
			goto fail;
		v[++n] = NULL;
	}
	closedir(d);
	if (v == NULL) {
		v = calloc(1, sizeof *v);
		return v;
	}
	qsort(v, n, sizeof *v, catalog_cmp);
	return v;
fail:
	closedir(d);
	if (v != NULL) {
		v[n] = NULL;
		catalog_list_free(v);
	}
	return NULL;
}

/* Free a list. */
void
catalog_list_free(char **list)
{
	if (list == NULL)
		return;
	for (char **p = list; *p != NULL; p++)
		free(*p);
	free(list);
}

/* Resolve a path or a bundled name. */
char *
catalog_resolve(const char *arg, char *why, size_t why_len)
{
	struct stat st;
	char **list, *found = NULL;
	size_t alen = strlen(arg), matches = 0;

	/* A file (or anything that is not a bundled name) goes to the loader, which says
	 * what is wrong with it as FILE:LINE:COL like any other scenario error. */
	if (stat(arg, &st) == 0 || strchr(arg, '/') != NULL)
		return strdup(arg);
	if (alen == 0) {
		snprintf(why, why_len, "%s", strerror(ENOENT));
		return NULL;
	}
	list = catalog_list();
	if (list == NULL) {
		snprintf(why, why_len, "no such file, and no scenario directory %s", catalog_dir());
		return NULL;
	}
	why[0] = '\0';
	for (char **p = list; *p != NULL; p++) {
		const char *base = strrchr(*p, '/') + 1;
		size_t blen = strlen(base);
		/* "NAME.yaml" wins outright; "NAME-..." must be unique. */
		if (blen == alen + 5 && strncmp(base, arg, alen) == 0) {
			free(found);
			found = strdup(*p);
			matches = 1;
			break;
		}
		if (strncmp(base, arg, alen) == 0 && base[alen] == '-') {
			matches++;
			if (matches == 1) {
				found = strdup(*p);
			} else {
				size_t used = strlen(why);
				if (matches == 2)
					used += snprintf(why + used, why_len - used, "ambiguous: %s",
					                 strrchr(found, '/') + 1);
				if (used < why_len)
					snprintf(why + used, why_len - used, ", %s", base);
			}
		}
	}
	if (matches == 0) {
		/* Suggest the bundled names that contain what was typed ("13-1": table-13-1). */
		size_t used = (size_t)snprintf(why, why_len,
		                               "no such file, and no bundled scenario of that name");
		int sugg = 0;
		for (char **p = list; *p != NULL && used < why_len; p++) {
			const char *base = strrchr(*p, '/') + 1;
			if (strstr(base, arg) == NULL)
				continue;
			used += (size_t)snprintf(why + used, why_len - used, "%s%.*s",
			                         sugg++ ? ", " : " (did you mean: ",
			                         (int)(strlen(base) - 5), base);
		}
		if (used < why_len)
			snprintf(why + used, why_len - used, "%s", sugg ? "?)" : " (see --list)");
	}
	catalog_list_free(list);
	if (matches == 1)
		return found;
	free(found);
	return NULL;
}
