/* SPDX-License-Identifier: MIT */
/* cli/catalog.c: the bundled scenarios, found by name. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "cli/catalog.h"
#include "base/text.h"
#include "scenario/scenario.h"

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
		char **nv = grow(v, &cap, n + 1, sizeof *v, 32);
		if (nv == NULL)
			goto fail;
		v = nv;
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

/* The exercise that arg names ("ex-13-1a", "exercise-13-1a", "ex13-1a": "13-1a") into ex;
 * false if it names none. */
static bool
catalog_exercise(const char *arg, char *ex, size_t len)
{
	const char *p = arg;

	if (strncmp(p, "exercise", 8) == 0)
		p += 8;
	else if (strncmp(p, "ex", 2) == 0)
		p += 2;
	else
		return false;
	if (*p == '-' || *p == '_' || *p == ' ')
		p++;
	if (p[0] < '0' || p[0] > '9' || strchr(p, '-') == NULL || strlen(p) >= len)
		return false;
	snprintf(ex, len, "%s", p);
	return true;
}

/* True if the scenario at path names exercise ex in its source line ("TLPI 13.1, Table 13-1;
 * exercise 13-1a", "exercises 13-1c and 13-2"). */
static bool
catalog_names_exercise(const char *path, const char *ex)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool yes = false;

	if (f == NULL)
		return false;
	while (!yes && fgets(line, sizeof line, f) != NULL) {
		const char *at = line;
		if (strncmp(line, "source:", 7) != 0 || strstr(line, "exercise") == NULL)
			continue;
		while (!yes && (at = strstr(at, ex)) != NULL) {
			char before = at > line ? at[-1] : ' ', after = at[strlen(ex)];
			yes = (before == ' ' || before == '"') &&
			      !(after >= '0' && after <= '9') && !(after >= 'a' && after <= 'z');
			at++;
		}
	}
	fclose(f);
	return yes;
}

/* The one bundled scenario of exercise ex in list: the first (sorted) whose name has the
 * number as a word ("13-3-fflush-fsync", "table-13-2") if several name it, else the only
 * one; NULL (and why) if none or several. */
static char *
catalog_find_exercise(char **list, const char *ex, char *why, size_t why_len)
{
	char *found = NULL;
	size_t n = 0, elen = strlen(ex), used = 0;

	for (char **p = list; *p != NULL; p++) {
		const char *base = strrchr(*p, '/') + 1;
		if (!catalog_names_exercise(*p, ex))
			continue;
		const char *in = strstr(base, ex);
		/* Its name has the number as a word: "13-3-fflush-fsync", "table-13-2". */
		if (in != NULL && (in == base || in[-1] == '-') &&
		    (in[elen] == '-' || in[elen] == '.')) {
			free(found);
			return strdup(*p);
		}
		if (n++ == 0)
			found = strdup(*p);
		used += (size_t)snprintf(why + used, why_len - used, "%s%.*s",
		                         n == 1 ? "exercise " : ", ", (int)strlen(base) - 5, base);
		if (n == 1 && used < why_len)
			used = (size_t)snprintf(why, why_len, "exercise %s is in: %.*s", ex,
			                        (int)strlen(base) - 5, base);
		if (used >= why_len)
			used = why_len - 1;
	}
	if (n == 1) {
		why[0] = '\0';
		return found;
	}
	free(found);
	return NULL;
}

/* Edit distance of two short names (at most 63 bytes of b counted). */
static size_t
catalog_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (lb > 63)
		lb = 63;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
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
	/* An exercise's number is a name too: "ex-13-1a" is table-13-1's lesson. */
	if (matches == 0) {
		char ex[32];
		if (catalog_exercise(arg, ex, sizeof ex) &&
		    (found = catalog_find_exercise(list, ex, why, why_len)) != NULL)
			matches = 1;
		else if (why[0] != '\0') {
			catalog_list_free(list);
			return NULL;
		}
	}
	if (matches == 0) {
		/* Suggest the bundled names that contain what was typed ("13-1": table-13-1), or
		 * are a slip away from it ("13-3-fflush-fsyc"). */
		size_t used = (size_t)snprintf(why, why_len,
		                               "no such file, and no bundled scenario of that name");
		int sugg = 0;
		for (char **p = list; *p != NULL && used < why_len; p++) {
			const char *base = strrchr(*p, '/') + 1;
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 5), base);
			if (strstr(base, arg) == NULL &&
			    catalog_distance(arg, name) > (alen < 8 ? 1 : alen / 5 + 1))
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

/* One bundled scenario on --list: its name, its group and place in the book, its load. */
struct list_item {
	const char *base;   /* file name, ".yaml" included */
	int group;          /* LIST_* */
	int chapter, part;  /* the book's numbers in its name ("13-3", "ex-13-1b", "5.4"); 0: none */
	struct scenario *s;
};

enum { LIST_EXERCISE, LIST_SECTION, LIST_CRASH, LIST_SWEEP, LIST_GROUPS };

/* The groups of --list, in the order a course takes them (doc/curriculum.md). */
static const char *const list_heading[LIST_GROUPS] = {
	"Exercises of TLPI chapter 13 (names: 13-3, or ex-13-1a for the book's exercise 13-1a)",
	"Sections (names: 13.2, 13.3-sync, ...) and what the books leave out",
	"The crash lab: kill -9 and a power cut after chosen steps (a power cut needs root)",
	"Sweeps: the books' timed tables, measured here beside the books' figures",
};

/* The group of scenario S named BASE: a sweep or a crash first (they need time or root), then
 * an exercise ("13-3-...", "ex-13-1b-...") or a section ("13.2-...", anything else). */
static int
list_group(const char *base, const struct scenario *s)
{
	bool crash = false;

	for (size_t i = 0; i < s->n_steps; i++) {
		if (s->steps[i].op == SCN_OP_SWEEP)
			return LIST_SWEEP;
		crash |= s->steps[i].op == SCN_OP_CRASH;
	}
	if (crash)
		return LIST_CRASH;
	size_t digits = strspn(base, "0123456789");

	if (strncmp(base, "ex-", 3) == 0 || (digits > 0 && base[digits] == '-'))
		return LIST_EXERCISE;
	return LIST_SECTION;
}

/* Book order: by group, then by the first "N-M" or "N.M" in the name (none: last), then name. */
static int
list_cmp(const void *a, const void *b)
{
	const struct list_item *x = a, *y = b;

	if (x->group != y->group)
		return x->group - y->group;
	if ((x->chapter == 0) != (y->chapter == 0))
		return x->chapter == 0 ? 1 : -1;
	if (x->chapter != y->chapter)
		return x->chapter - y->chapter;
	if (x->part != y->part)
		return x->part - y->part;
	return strcmp(x->base, y->base);
}

/* Print --list to f (see cli/catalog.h). */
int
catalog_print_list(FILE *f)
{
	struct list_item *it;
	char **v;
	size_t n = 0, k = 0;
	int rc = 0, last = -1;

	if ((v = catalog_list()) == NULL)
		return -1;
	while (v[n] != NULL)
		n++;
	if ((it = calloc(n + 1, sizeof *it)) == NULL) {
		catalog_list_free(v);
		return -2;
	}
	for (size_t i = 0; i < n; i++) {
		struct list_item *e = &it[k];
		char *err = NULL;
		const char *d;

		if (load_scenario(v[i], &e->s, &err) != 0) {
			fputs(err != NULL ? err : "out of memory\n", stderr);
			free(err);
			rc = 1;
			continue;
		}
		e->base = strrchr(v[i], '/') + 1;
		e->group = list_group(e->base, e->s);
		/* TLPI's numbers: "13.2-", "13-3-", "ex-13-1b-", "table-13-1", "crash-13-3"; the
		 * other books' (apue-fig-3-5) come after them. */
		d = e->base;
		if (strncmp(d, "ex-", 3) == 0 || strncmp(d, "table-", 6) == 0 ||
		    strncmp(d, "crash-", 6) == 0)
			d = strchr(d, '-') + 1;
		if (sscanf(d, "%d%*[-.]%d", &e->chapter, &e->part) != 2)
			e->chapter = e->part = 0;
		k++;
	}
	qsort(it, k, sizeof *it, list_cmp);
	for (size_t i = 0; i < k; i++) {
		const struct list_item *e = &it[i];
		double most = load_seconds_at_most(e->s);
		char took[32];

		if (e->group != last)
			fprintf(f, "%s%s\n", last < 0 ? "" : "\n", list_heading[e->group]);
		last = e->group;
		if (most < 5)
			snprintf(took, sizeof took, "seconds");
		else if (most < 120)
			snprintf(took, sizeof took, "<= %.0f s", ceil(most));
		else
			snprintf(took, sizeof took, "<= %.0f min", ceil(most / 60));
		/* A scenario's own text may hold anything: no byte of it acts on the terminal. */
		fprintf(f, "  %-26.*s %-10s ", (int)(strlen(e->base) - 5), e->base, took);
		text_fput(e->s->title, TEXT_LINE, f);
		if (e->s->source != NULL) {
			fputs("  [", f);
			text_fput(e->s->source, TEXT_LINE, f);
			fputc(']', f);
		}
		fputc('\n', f);
	}
	fprintf(f, "\nTimes are at most what a scenario's own waits and sweep budgets allow "
	       "(--budget changes a sweep's); \"seconds\": they allow less than 5 s.\n");
	for (size_t i = 0; i < k; i++)
		load_scenario_free(it[i].s);
	free(it);
	catalog_list_free(v);
	return rc;
}
