/* SPDX-License-Identifier: MIT */
/* cond.c: a step's cases (when/unless a fact of the run holds) and the {placeholders}
 * of its narration, checked and loaded. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"

/* The facts a case may name, in enum scn_fact order, and the values each takes (NULL: a size). */
static const char *const scn_fact_names[SCN_FACT__COUNT + 1] = {
	"fs", "probe", "blksize", "large_folios", "delalloc", "cachestat", "dirty", "disk", NULL,
};
static const char *const scn_fs_values[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "f2fs", "nfs", NULL,
};
static const char *const scn_probe_values[] = { "cachestat", "kpageflags", "mincore", NULL };
static const char *const scn_yes_no[] = { "yes", "no", NULL };
static const char *const *const scn_fact_values[SCN_FACT__COUNT] = {
	scn_fs_values, scn_probe_values, NULL, scn_yes_no, scn_yes_no, scn_yes_no, scn_yes_no,
	scn_yes_no,
};

/* The names a placeholder may take besides the expectation keys. */
static const char *const scn_env_names[] = { "fs", "device", "kernel", "blksize", "probe", NULL };

/* Index of NAME in the NULL-ended list T, or -1. */
static int
scenario_cond_index(const char *const *t, const char *name)
{
	for (int i = 0; t[i] != NULL; i++)
		if (strcmp(t[i], name) == 0)
			return i;
	return -1;
}

/* Write the NULL-ended list T as "a, b, c" into buf. */
static const char *
scenario_cond_list(const char *const *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; t[i] != NULL; i++)
		scenario_report_append(buf, len, ", ", t[i]);
	return buf;
}

/* Check one value V (written at N) of fact F; 0 if it is one F can have. */
static int
scenario_cond_value(struct scn_load *ld, const struct yamlpos_node *n, enum scn_fact f,
		    const char *v, size_t stepno)
{
	char names[160];
	uint64_t size;

	if (scn_fact_values[f] == NULL)
		return scenario_value_size(ld, n, v, scn_fact_names[f], SZ_BOUNDED, &size);
	if (scenario_cond_index(scn_fact_values[f], v) >= 0)
		return 0;
	scenario_at(ld, n, "unknown %s '%s' in a case of step %zu (use one of: %s)",
		    scn_fact_names[f], v, stepno, scenario_cond_list(scn_fact_values[f], names,
								       sizeof names));
	return -1;
}

/* Check a when/unless mapping N: known facts, each a value or a list of values. */
void
scenario_cond_schema_facts(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno)
{
	char names[160];

	if (n->kind != YAMLPOS_MAP) {
		scenario_at(ld, n, "'%s' takes a mapping of facts ({fs: [ext4, xfs]}), not %s",
			    n->key, n->kind == YAMLPOS_SEQ ? "a list" : "a single value");
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		int f = scenario_cond_index(scn_fact_names, c->key);
		if (f < 0) {
			const char *s = scenario_report_suggest(c->key, scn_fact_names, SCN_FACT__COUNT);
			if (s != NULL)
				scenario_at_key(ld, c, "unknown fact '%s' in %s in step %zu (did you mean "
						"'%s'?)", c->key, n->key, stepno, s);
			else
				scenario_at_key(ld, c, "unknown fact '%s' in %s in step %zu (facts: %s)",
						c->key, n->key, stepno,
						scenario_cond_list(scn_fact_names, names, sizeof names));
			continue;
		}
		if (c->kind == YAMLPOS_MAP || (c->kind == YAMLPOS_SEQ && c->n_children == 0)) {
			scenario_at(ld, c, "'%s' takes a value or a list of values ([a, b]), not %s",
				    c->key, c->kind == YAMLPOS_MAP ? "a mapping" : "an empty list");
			continue;
		}
		if (c->kind == YAMLPOS_SCALAR) {
			scenario_cond_value(ld, c, (enum scn_fact)f, c->value, stepno);
			continue;
		}
		for (const struct yamlpos_node *v = yamlpos_first(ld->ix, c); v != NULL;
		     v = yamlpos_next(ld->ix, v)) {
			if (v->kind != YAMLPOS_SCALAR)
				scenario_at(ld, v, "entry %zu of '%s' takes a single value", v->index + 1,
					    c->key);
			else
				scenario_cond_value(ld, v, (enum scn_fact)f, v->value, stepno);
		}
	}
}

/* Check the {placeholders} of narration S, written at N. */
static void
scenario_cond_placeholders(struct scn_load *ld, const struct yamlpos_node *n, const char *s,
			   size_t stepno)
{
	for (const char *p = s; p != NULL && *p != '\0'; p++) {
		if (*p == '{' && p[1] == '{') {
			p++;
			continue;
		}
		if (*p != '{')
			continue;
		const char *e = strchr(p, '}');
		if (e == NULL || e - p > 40) {
			scenario_at(ld, n, "'{' without '}' in the say of step %zu (write {{ for a "
				    "brace)", stepno);
			return;
		}
		char name[48];
		snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
		if (scenario_cond_index(scn_env_names, name) < 0 && scenario_key_find(name) < 0) {
			char env[80];
			scenario_at(ld, n, "unknown placeholder '{%s}' in the say of step %zu (use an "
				    "expectation key or %s)", name, stepno,
				    scenario_cond_list(scn_env_names, env, sizeof env));
		}
		p = e;
	}
}

/* Load the facts of a when (NEGATE false) or unless mapping N into c. */
static void
scenario_cond_facts(struct scn_load *ld, struct scn_case *c, const struct yamlpos_node *n,
		    bool negate)
{
	for (const struct yamlpos_node *f = yamlpos_first(ld->ix, n); f != NULL;
	     f = yamlpos_next(ld->ix, f)) {
		struct scn_cond *k = &c->conds[c->n_conds++];
		size_t nv = f->kind == YAMLPOS_SEQ ? f->n_children : 1;
		k->fact = (enum scn_fact)scenario_cond_index(scn_fact_names, f->key);
		k->negate = negate;
		k->values = calloc(nv, sizeof *k->values);
		if (k->values == NULL) {
			ld->oom = true;
			return;
		}
		for (const struct yamlpos_node *v = f->kind == YAMLPOS_SCALAR ? f :
		     yamlpos_first(ld->ix, f); v != NULL;
		     v = v == f ? NULL : yamlpos_next(ld->ix, v)) {
			char num[24];
			uint64_t size;
			const char *text = v->value;
			/* A size is kept as its number of bytes, as the run reports it. */
			if (k->fact == SCN_FACT_BLKSIZE &&
			    scenario_value_size(ld, v, v->value, "blksize", SZ_BOUNDED, &size) == 0) {
				snprintf(num, sizeof num, "%" PRIu64, size);
				text = num;
			}
			k->values[k->n_values++] = scenario_value_strdup(ld, text);
		}
	}
}

/* Load the expect mapping N of case c of step st. */
static void
scenario_cond_expects(struct scn_load *ld, const struct scn_step *st, struct scn_case *c,
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
		scenario_value_step_expect(ld, st->op, k, k->value != NULL ? k->value : "",
				     &c->expects[c->n_expects++], stepno);
	}
}

/* Parse a step's cases N (NULL: none) into st, and check the {placeholders} of its says. */
void
scenario_cond_parse(struct scn_load *ld, struct scn_step *st, const struct yamlpos_node *n,
		    const struct yamlpos_node *sn, size_t stepno)
{
	scenario_cond_placeholders(ld, yamlpos_get(ld->ix, sn, "say"), st->say, stepno);
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
		const struct yamlpos_node *say = yamlpos_get(ld->ix, cn, "say");
		const struct yamlpos_node *ex = yamlpos_get(ld->ix, cn, "expect");
		if (w != NULL)
			scenario_cond_facts(ld, c, w, false);
		if (u != NULL)
			scenario_cond_facts(ld, c, u, true);
		if (say != NULL && say->value != NULL && !say->is_null) {
			c->say = scenario_value_strdup(ld, say->value);
			scenario_cond_placeholders(ld, say, c->say, stepno);
		}
		if (ex != NULL)
			scenario_cond_expects(ld, st, c, ex, stepno);
	}
}

/* Free a step's cases. */
void
scenario_cond_free(struct scn_step *st)
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
		scenario_value_expects_free(c->expects, c->n_expects);
	}
	free(st->cases);
	st->cases = NULL;
	st->n_cases = 0;
}
