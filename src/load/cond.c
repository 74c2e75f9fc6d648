/* SPDX-License-Identifier: MIT */
/* cond.c: a step's cases (when/unless a fact of the run holds) and the {placeholders}
 * of its narration, checked and loaded. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"
#include "base/units.h"

/* The values each fact of enum scn_fact takes (its names: scn_env_names, scenario/names.c). */
static const char *const scn_fs_values[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "f2fs", "nfs", NULL,
};
static const char *const scn_probe_values[] = { "cachestat", "kpageflags", "mincore", NULL };
static const char *const scn_yes_no[] = { "yes", "no", NULL };
/* NULL: a size. */
static const char *const *const scn_fact_values[SCN_FACT__COUNT] = {
	scn_fs_values, scn_probe_values, NULL, scn_yes_no, scn_yes_no, scn_yes_no, scn_yes_no,
	scn_yes_no,
};

/* Index of NAME in the NULL-ended list T, or -1. */
int
load_cond_index(const char *const *t, const char *name)
{
	for (int i = 0; t[i] != NULL; i++)
		if (strcmp(t[i], name) == 0)
			return i;
	return -1;
}

/* Write the NULL-ended list T as "a, b, c" into buf. */
const char *
load_cond_list(const char *const *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; t[i] != NULL; i++)
		load_report_append(buf, len, ", ", t[i]);
	return buf;
}

/* The facts a case may name, as "fs, probe, ...", into buf. */
static const char *
load_cond_facts_list(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < SCN_FACT__COUNT; i++)
		load_report_append(buf, len, ", ", scn_env_names[i]);
	return buf;
}

/* The fact named NAME, or -1. */
int
load_cond_fact(const char *name)
{
	for (int i = 0; i < SCN_FACT__COUNT; i++)
		if (strcmp(scn_env_names[i], name) == 0)
			return i;
	return -1;
}

/* Check value *V (written at N) of fact F, in WHERE ("a case of step 2"); a size is rewritten
 * as its number of bytes, as the run reports it. 0 if it is one F can have. */
int
load_cond_value(struct scn_load *ld, const struct yamlpos_node *n, enum scn_fact f, char **v,
		    const char *where)
{
	char names[160], num[24];
	uint64_t size;

	if (scn_fact_values[f] == NULL) {
		if (load_value_size(ld, n, *v, scn_env_names[f], SZ_BOUNDED, &size) != 0)
			return -1;
		snprintf(num, sizeof num, "%" PRIu64, size);
		char *d = load_value_strdup(ld, num);
		if (d != NULL) {
			free(*v);
			*v = d;
		}
		return 0;
	}
	if (load_cond_index(scn_fact_values[f], *v) >= 0)
		return 0;
	load_at(ld, n, "unknown %s '%s' in %s (use one of: %s)", scn_env_names[f], *v, where,
		    load_cond_list(scn_fact_values[f], names, sizeof names));
	return -1;
}

/* Check a when/unless mapping N: known facts, each a value or a list of values. */
void
load_cond_schema_facts(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno)
{
	char names[160];

	if (n->kind != YAMLPOS_MAP) {
		load_at(ld, n, "'%s' takes a mapping of facts ({fs: [ext4, xfs]}), not %s",
			    n->key, n->kind == YAMLPOS_SEQ ? "a list" : "a single value");
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		int f = load_cond_fact(c->key);
		if (f < 0) {
			const char *s = load_report_suggest(c->key, scn_env_names, SCN_FACT__COUNT);
			if (s != NULL)
				load_at_key(ld, c, "unknown fact '%s' in %s in step %zu (did you mean "
						"'%s'?)", c->key, n->key, stepno, s);
			else
				load_at_key(ld, c, "unknown fact '%s' in %s in step %zu (facts: %s)",
						c->key, n->key, stepno, load_cond_facts_list(names,
												  sizeof names));
			continue;
		}
		if (c->kind == YAMLPOS_MAP || (c->kind == YAMLPOS_SEQ && c->n_children == 0)) {
			load_at(ld, c, "'%s' takes a value or a list of values ([a, b]), not %s",
				    c->key, c->kind == YAMLPOS_MAP ? "a mapping" : "an empty list");
			continue;
		}
		for (const struct yamlpos_node *v = c->kind == YAMLPOS_SCALAR ? c :
		     yamlpos_first(ld->ix, c); v != NULL;
		     v = v == c ? NULL : yamlpos_next(ld->ix, v)) {
			char where[48], *val;
			if (v->kind != YAMLPOS_SCALAR) {
				load_at(ld, v, "entry %zu of '%s' takes a single value", v->index + 1,
					    c->key);
				continue;
			}
			snprintf(where, sizeof where, "a case of step %zu", stepno);
			if ((val = load_value_strdup(ld, v->value)) != NULL)
				load_cond_value(ld, v, (enum scn_fact)f, &val, where);
			free(val);
		}
	}
}

/* Load the facts of a when (NEGATE false) or unless mapping N into c. */
static void
load_cond_facts(struct scn_load *ld, struct scn_case *c, const struct yamlpos_node *n,
		    bool negate)
{
	for (const struct yamlpos_node *f = yamlpos_first(ld->ix, n); f != NULL;
	     f = yamlpos_next(ld->ix, f)) {
		struct scn_cond *k = &c->conds[c->n_conds++];
		size_t nv = f->kind == YAMLPOS_SEQ ? f->n_children : 1;
		k->fact = (enum scn_fact)load_cond_fact(f->key);
		k->negate = negate;
		k->values = calloc(nv, sizeof *k->values);
		if (k->values == NULL) {
			ld->oom = true;
			return;
		}
		for (const struct yamlpos_node *v = f->kind == YAMLPOS_SCALAR ? f :
		     yamlpos_first(ld->ix, f); v != NULL;
		     v = v == f ? NULL : yamlpos_next(ld->ix, v)) {
			/* A size is kept as its number of bytes (the shape check reported the rest). */
			char *val = load_value_strdup(ld, v->value);
			if (val != NULL && k->fact == SCN_FACT_BLKSIZE) {
				uint64_t size;
				char num[24];
				if (units_parse_size(val, &size) == 0) {
					snprintf(num, sizeof num, "%" PRIu64, size);
					free(val);
					val = load_value_strdup(ld, num);
				}
			}
			k->values[k->n_values++] = val;
		}
	}
}

/* Load the expect mapping N of case c of step st. */
static void
load_cond_expects(struct scn_load *ld, const struct scn_step *st, struct scn_case *c,
		  const struct yamlpos_node *n, size_t stepno)
{
	if (n->kind != YAMLPOS_MAP || n->n_children == 0)
		return;
	c->expects = calloc(n->n_children, sizeof *c->expects);
	if (c->expects == NULL) {
		ld->oom = true;
		return;
	}
	for (const struct yamlpos_node *k = yamlpos_first(ld->ix, n); k != NULL;
	     k = yamlpos_next(ld->ix, k)) {
		load_value_step_expect(ld, st->op, k, k->value != NULL ? k->value : "",
				       &c->expects[c->n_expects++], stepno);
	}
}

/* Parse a step's cases N (NULL: none) into st. */
void
load_cond_parse(struct scn_load *ld, struct scn_step *st, const struct yamlpos_node *n,
		    size_t stepno)
{
	if (n == NULL || n->kind != YAMLPOS_SEQ || n->n_children == 0)
		return;
	st->cases = calloc(n->n_children, sizeof *st->cases);
	if (st->cases == NULL) {
		ld->oom = true;
		return;
	}
	for (const struct yamlpos_node *cn = yamlpos_first(ld->ix, n); cn != NULL;
	     cn = yamlpos_next(ld->ix, cn)) {
		struct scn_case *c = &st->cases[st->n_cases++];
		size_t nf = 0;
		c->line = cn->line;
		c->col = cn->col;
		for (const char *w = "when"; w != NULL; w = w[0] == 'w' ? "unless" : NULL) {
			const struct yamlpos_node *f = yamlpos_get(ld->ix, cn, w);
			nf += f != NULL ? f->n_children : 0;
		}
		c->conds = calloc(nf + 1, sizeof *c->conds);
		if (c->conds == NULL) {
			ld->oom = true;
			return;
		}
		const struct yamlpos_node *w = yamlpos_get(ld->ix, cn, "when");
		const struct yamlpos_node *u = yamlpos_get(ld->ix, cn, "unless");
		const struct yamlpos_node *ex = yamlpos_get(ld->ix, cn, "expect");
		if (w != NULL)
			load_cond_facts(ld, c, w, false);
		if (u != NULL)
			load_cond_facts(ld, c, u, true);
		if (ex != NULL)
			load_cond_expects(ld, st, c, ex, stepno);
	}
}

/* Free a step's cases. */
void
load_cond_free(struct scn_step *st)
{
	for (size_t i = 0; i < st->n_cases; i++) {
		struct scn_case *c = &st->cases[i];
		for (size_t j = 0; j < c->n_conds; j++) {
			for (size_t v = 0; v < c->conds[j].n_values; v++)
				free(c->conds[j].values[v]);
			free(c->conds[j].values);
		}
		free(c->conds);
		free(c->say);
		load_value_expects_free(c->expects, c->n_expects);
	}
	free(st->cases);
	st->cases = NULL;
	st->n_cases = 0;
}
