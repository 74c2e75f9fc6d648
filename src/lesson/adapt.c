/* SPDX-License-Identifier: MIT */
/* lesson/adapt.c: a step's cases and {placeholders}, decided by what this run's kernel shows. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lesson/adapt.h"
#include "base/text.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "sweep/sweep.h"

/* vm.dirty_expire_centisecs in seconds, as text ("30"), into buf; "unknown" if unreadable. */
const char *
adapt_dirty_expire(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/vm/dirty_expire_centisecs", "re");
	long cs = -1;

	if (f != NULL) {
		if (fscanf(f, "%ld", &cs) != 1)
			cs = -1;
		fclose(f);
	}
	if (cs < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%g", (double)cs / 100.0);
	return buf;
}

/* The kernel's version as MAJOR * 1000 + MINOR (6.18 -> 6018), and its release in rel. */
int
adapt_kernel(char *rel, size_t len)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) != 0) {
		snprintf(rel, len, "unknown");
		return 0;
	}
	snprintf(rel, len, "%s", u.release);
	if (sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/* The value of fact F for sr with its file on filesystem FS (sr's own when NULL). */
static const char *
adapt_fact_on(const struct step_result *sr, const char *fs, enum scn_fact f, char *buf,
	      size_t len)
{
	const struct snapshot *s = &sr->after;
	bool own = fs == NULL || strcmp(fs, s->disk.fs) == 0;
	bool disk;
	char rel[65];

	if (fs == NULL)
		fs = s->disk.fs[0] != '\0' ? s->disk.fs : "unknown";
	disk = strcmp(fs, "tmpfs") != 0 && s->disk.source != SNAP_SRC_NONE;
	switch (f) {
	case SCN_FACT_FS:
		snprintf(buf, len, "%s", fs);
		break;
	case SCN_FACT_PROBE:
		/* "none" when no probe could see the cache (probe/names.c says why not "unknown"). */
		snprintf(buf, len, "%s", scenario_names_of(scn_sources, (int)s->cache.source));
		break;
	case SCN_FACT_BLKSIZE:
		if (own && s->disk.block_size > 0)
			snprintf(buf, len, "%" PRIu32, s->disk.block_size);
		else
			snprintf(buf, len, "unknown");
		break;
	case SCN_FACT_LARGE_FOLIOS: {
		/* Buffered writes use large folios on xfs since 5.18 and on ext4 since 6.16;
		 * btrfs and tmpfs (huge=never) cache in single pages by default. Overlay is
		 * the upper layer's, which this run does not name: counted as no. */
		int v = adapt_kernel(rel, sizeof rel);
		bool yes = (strcmp(fs, "xfs") == 0 && v >= 5018) ||
			   (strcmp(fs, "ext4") == 0 && v >= 6016);
		snprintf(buf, len, "%s", yes ? "yes" : "no");
		break;
	}
	case SCN_FACT_DELALLOC:
		snprintf(buf, len, "%s", strcmp(fs, "ext4") == 0 || strcmp(fs, "xfs") == 0 ||
			 strcmp(fs, "btrfs") == 0 ? "yes" : "no");
		break;
	case SCN_FACT_CACHESTAT:
		snprintf(buf, len, "%s", s->cache.source == SNAP_SRC_CACHESTAT ? "yes" : "no");
		break;
	case SCN_FACT_DIRTY:
		snprintf(buf, len, "%s", s->cache.has_dirty ? "yes" : "no");
		break;
	case SCN_FACT_DISK:
		snprintf(buf, len, "%s", disk ? "yes" : "no");
		break;
	case SCN_FACT__COUNT:
		snprintf(buf, len, "unknown");
		break;
	}
	return buf;
}

/*
 * The filesystems a sweep step's variants ran on, each once, into fs[] (at most max): those
 * of the variants not on: tmpfs, in each --dir. 0 for any other step (and a sweep of tmpfs
 * variants only): the run's own scratch file is the place.
 */
static size_t
adapt_places(const struct step_result *sr, const char **fs, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; sr->sweep != NULL && i < sr->sweep->n_variants; i++) {
		const struct sweep_variant *bv = &sr->sweep->variants[i];
		size_t k = 0;
		if (bv->v->on == SCN_FS_TMPFS || bv->fs[0] == '\0')
			continue;
		while (k < n && strcmp(fs[k], bv->fs) != 0)
			k++;
		if (k == n && n < max)
			fs[n++] = bv->fs;
	}
	return n;
}

/* The value of fact F on the run sr is part of; for a sweep run on several filesystems, each
 * one's value, once ("ext4, xfs"). */
const char *
adapt_fact(const struct step_result *sr, enum scn_fact f, char *buf, size_t len)
{
	const char *fs[SWEEP_MAX_DIRS];
	size_t np = adapt_places(sr, fs, SWEEP_MAX_DIRS), n = 0;

	if (np <= 1)
		return adapt_fact_on(sr, np == 1 ? fs[0] : NULL, f, buf, len);
	buf[0] = '\0';
	for (size_t i = 0; i < np && n + 1 < len; i++) {
		char v[80], w[80];
		size_t j = 0;
		adapt_fact_on(sr, fs[i], f, v, sizeof v);
		/* Each value once: "yes", not "yes, yes". */
		while (j < i && strcmp(adapt_fact_on(sr, fs[j], f, w, sizeof w), v) != 0)
			j++;
		if (j == i)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ? ", " : "", v);
	}
	return buf;
}

/* Whether the fact of condition k has one of its values for sr (negate is not applied): 1 yes,
 * 0 no; for a sweep run on several filesystems, -1 when it holds on some of them only. */
int
adapt_cond_state(const struct scn_cond *k, const struct step_result *sr)
{
	const char *fs[SWEEP_MAX_DIRS];
	size_t np = adapt_places(sr, fs, SWEEP_MAX_DIRS), yes = 0;

	for (size_t p = 0; p < (np > 0 ? np : 1); p++) {
		char v[80];
		bool any = false;
		adapt_fact_on(sr, np > 0 ? fs[p] : NULL, k->fact, v, sizeof v);
		/* The loader wrote blksize values as plain numbers of bytes. */
		for (size_t i = 0; i < k->n_values && !any; i++)
			any = strcmp(v, k->values[i]) == 0;
		yes += any;
	}
	return yes == 0 ? 0 : yes == (np > 0 ? np : 1) ? 1 : -1;
}

/* True if the fact of condition k has one of its values for sr (negate is not applied); for a
 * sweep, on every filesystem it ran on. */
bool
adapt_cond_holds(const struct scn_cond *k, const struct step_result *sr)
{
	return adapt_cond_state(k, sr) == 1;
}

/* True if case c holds for sr: all of its when conditions do, and not all of its unless
 * conditions do (unless: {fs: ext4, blksize: 1024} leaves out a 1 KiB-block ext4 only). */
bool
adapt_case_holds(const struct scn_case *c, const struct step_result *sr)
{
	bool has_unless = false, all_unless = true;

	for (size_t i = 0; i < c->n_conds; i++) {
		bool holds = adapt_cond_holds(&c->conds[i], sr);
		if (!c->conds[i].negate && !holds)
			return false;
		if (c->conds[i].negate) {
			has_unless = true;
			all_unless = all_unless && holds;
		}
	}
	return !(has_unless && all_unless);
}

/* The expectations to check for sr: the step's and those of its holding cases. */
const struct scn_expect **
adapt_expects(const struct step_result *sr, size_t *n)
{
	const struct scn_step *st = sr->step;
	const struct scn_expect **v;
	size_t cap = st->n_expects;

	*n = 0;
	for (size_t i = 0; i < st->n_cases; i++)
		cap += st->cases[i].n_expects;
	if (cap == 0)
		return NULL;
	v = calloc(cap, sizeof *v);
	if (v == NULL) {
		*n = cap;
		return NULL;
	}
	for (size_t i = 0; i < st->n_expects; i++)
		v[(*n)++] = &st->expects[i];
	for (size_t i = 0; i < st->n_cases; i++)
		if (adapt_case_holds(&st->cases[i], sr))
			for (size_t j = 0; j < st->cases[i].n_expects; j++)
				v[(*n)++] = &st->cases[i].expects[j];
	return v;
}
