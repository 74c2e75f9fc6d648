/* SPDX-License-Identifier: MIT */
/* scenario-sweep.c: a sweep step: a timed comparison's program, sizes, variants, references. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario-load.h"

/* The text of KEY in mapping N, NULL if absent. */
#define T(n, key) scenario_value_text(yamlpos_get(ld->ix, (n), (key)))

/* Parse one reference (a book's figures). */
static void
scenario_sweep_reference(struct scn_load *ld, struct scn_reference *r,
			 const struct yamlpos_node *rn, const struct scn_sweep *sw)
{
	const struct yamlpos_node *rows = yamlpos_get(ld->ix, rn, "rows");
	const struct yamlpos_node *c;

	if (T(rn, "label") == NULL || *T(rn, "label") == '\0')
		scenario_at(ld, yamlpos_get(ld->ix, rn, "label") ? yamlpos_get(ld->ix, rn, "label") : rn,
		      "a sweep reference needs a label (e.g. \"TLPI 2010\")");
	r->label = scenario_value_strdup(ld, T(rn, "label"));
	r->source = scenario_value_strdup(ld, T(rn, "source"));
	r->variant = scenario_value_strdup(ld, T(rn, "variant"));
	if (T(rn, "variant") != NULL) {
		size_t i;
		for (i = 0; i < sw->n_variants; i++)
			if (sw->variants[i].name != NULL && strcmp(sw->variants[i].name, T(rn, "variant")) == 0)
				break;
		if (i == sw->n_variants)
			scenario_at(ld, yamlpos_get(ld->ix, rn, "variant"),
			      "reference variant '%s' is not a variant of this sweep", T(rn, "variant"));
	}
	if (T(rn, "total") != NULL)
		scenario_value_size(ld, yamlpos_get(ld->ix, rn, "total"), T(rn, "total"), "total", SZ_ZERO_OK,
			&r->total_bytes);
	if (rows == NULL || rows->n_children == 0)
		return;
	r->rows = calloc(rows->n_children, sizeof *r->rows);
	if (r->rows == NULL) {
		ld->oom = true;
		return;
	}
	r->n_rows = rows->n_children;
	c = yamlpos_first(ld->ix, rows);
	for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		struct scn_ref_row *row = &r->rows[i];
		row->elapsed = row->user = row->system = -1;
		if (T(c, "buf_size") == NULL)
			scenario_at(ld, c, "a reference row needs buf_size");
		else
			scenario_value_size(ld, yamlpos_get(ld->ix, c, "buf_size"), T(c, "buf_size"), "buf_size", 0,
				&row->buf_size);
		if (T(c, "elapsed") != NULL)
			scenario_value_real(ld, yamlpos_get(ld->ix, c, "elapsed"), T(c, "elapsed"), "elapsed", 0, 1e9,
				&row->elapsed);
		if (T(c, "user") != NULL)
			scenario_value_real(ld, yamlpos_get(ld->ix, c, "user"), T(c, "user"), "user", 0,
					    1e9, &row->user);
		if (T(c, "system") != NULL)
			scenario_value_real(ld, yamlpos_get(ld->ix, c, "system"), T(c, "system"), "system", 0, 1e9,
				&row->system);
	}
}

/* Parse a sweep step. */
void
scenario_sweep_parse(struct scn_load *ld, struct scn_step *st, const struct yamlpos_node *sn,
		     size_t stepno)
{
	struct scn_sweep *sw = calloc(1, sizeof *sw);
	const struct yamlpos_node *c;
	char list[256];
	uint64_t u;
	int v;

	if (sw == NULL) {
		ld->oom = true;
		return;
	}
	st->sweep = sw;
	sw->repeat = 5;
	sw->warmup = 1;
	if (sn->kind != YAMLPOS_MAP) { /* "sweep:" with nothing */
		scenario_at_key(ld, sn, "sweep in step %zu needs program, buffer_sizes and file_size", stepno);
		return;
	}
#define NODE(k) (yamlpos_get(ld->ix, sn, k) ? yamlpos_get(ld->ix, sn, k) : sn)
	if (T(sn, "program") == NULL)
		scenario_at(ld, sn, "sweep in step %zu needs program (one of: %s)", stepno,
		      scenario_report_names(scn_programs, list, sizeof list));
	else if (scenario_value_name(ld, NODE("program"), T(sn, "program"), scn_programs,
				     "sweep program", &v) == 0)
		sw->program = (enum scn_program)v;
	sw->title = scenario_value_strdup(ld, T(sn, "title") != NULL ? T(sn, "title") :
					  T(sn, "program"));
	const struct yamlpos_node *bs = yamlpos_get(ld->ix, sn, "buffer_sizes");
	if (bs == NULL) {
		scenario_at(ld, sn, "sweep in step %zu needs buffer_sizes (a list of sizes)", stepno);
	} else if (bs->n_children == 0) {
		scenario_at(ld, NODE("buffer_sizes"), "sweep buffer_sizes is empty: list at least one size");
	} else {
		sw->buffer_sizes = calloc(bs->n_children, sizeof *sw->buffer_sizes);
		if (sw->buffer_sizes == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_buffer_sizes = bs->n_children;
		c = yamlpos_first(ld->ix, bs);
		for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c))
			scenario_value_size(ld, c, c->value, "buffer size", SZ_BOUNDED,
				&sw->buffer_sizes[i]);
	}
	if (T(sn, "file_size") == NULL)
		scenario_at(ld, sn, "sweep in step %zu needs file_size (the total to transfer)", stepno);
	else
		scenario_value_size(ld, NODE("file_size"), T(sn, "file_size"), "file_size",
				    SZ_BOUNDED, &sw->file_size);
	if (T(sn, "repeat") != NULL &&
	    scenario_value_count(ld, NODE("repeat"), T(sn, "repeat"), "repeat", 1, 1000, &u) == 0)
		sw->repeat = (unsigned)u;
	if (T(sn, "warmup") != NULL &&
	    scenario_value_count(ld, NODE("warmup"), T(sn, "warmup"), "warmup", 0, 1000, &u) == 0)
		sw->warmup = (unsigned)u;
	if (T(sn, "cache") != NULL &&
	    scenario_value_name(ld, NODE("cache"), T(sn, "cache"), scn_caches, "cache", &v) == 0)
		sw->cache = (enum scn_cache)v;
	if (T(sn, "budget") != NULL)
		scenario_value_real(ld, NODE("budget"), T(sn, "budget"), "budget", 0, SCN_MAX_WAIT,
				    &sw->budget);

	/* Variants: at least the default one. */
	const struct yamlpos_node *vs = yamlpos_get(ld->ix, sn, "variants");
	size_t n_vs = vs != NULL ? vs->n_children : 0;
	sw->n_variants = n_vs ? n_vs : 1;
	sw->variants = calloc(sw->n_variants, sizeof *sw->variants);
	if (sw->variants == NULL) {
		ld->oom = true;
		return;
	}
	if (n_vs == 0)
		sw->variants[0].name = scenario_value_strdup(ld, "default");
	c = yamlpos_first(ld->ix, vs);
	for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		struct scn_variant *var = &sw->variants[i];
		const struct yamlpos_node *vn = c;
		if (T(vn, "name") == NULL || *T(vn, "name") == '\0') {
			scenario_at(ld, vn, "a sweep variant needs a name");
		} else {
			for (size_t j = 0; j < i; j++)
				if (sw->variants[j].name && strcmp(sw->variants[j].name, T(vn, "name")) == 0)
					scenario_at(ld, yamlpos_get(ld->ix, vn, "name"),
					      "two sweep variants are named '%s'", T(vn, "name"));
		}
		var->name = scenario_value_strdup(ld, T(vn, "name"));
		if (yamlpos_get(ld->ix, vn, "flags") != NULL)
			scenario_value_flags(ld, yamlpos_get(ld->ix, vn, "flags"), scn_variant_flags,
					     "variant flag", &var->flags);
		if (T(vn, "sync_each") != NULL &&
		    scenario_value_name(ld, yamlpos_get(ld->ix, vn, "sync_each"), T(vn, "sync_each"),
					scn_sync_eachs, "sync_each", &v) == 0)
			var->sync_each = (enum scn_sync_each)v;
		if (T(vn, "on") != NULL &&
		    scenario_value_name(ld, yamlpos_get(ld->ix, vn, "on"), T(vn, "on"), scn_fss,
					"filesystem", &v) == 0)
			var->on = (enum scn_fs)v;
	}

	const struct yamlpos_node *refs = yamlpos_get(ld->ix, sn, "reference");
	if (refs != NULL && refs->n_children > 0) {
		sw->references = calloc(refs->n_children, sizeof *sw->references);
		if (sw->references == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_references = refs->n_children;
		c = yamlpos_first(ld->ix, refs);
		for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c))
			scenario_sweep_reference(ld, &sw->references[i], c, sw);
	}
#undef NODE
}

/* Free a sweep. */
void
scenario_sweep_free(struct scn_sweep *sw)
{
	if (sw == NULL)
		return;
	free(sw->title);
	free(sw->buffer_sizes);
	for (size_t i = 0; i < sw->n_variants; i++)
		free(sw->variants[i].name);
	free(sw->variants);
	for (size_t i = 0; i < sw->n_references; i++) {
		free(sw->references[i].label);
		free(sw->references[i].source);
		free(sw->references[i].variant);
		free(sw->references[i].rows);
	}
	free(sw->references);
	free(sw);
}
