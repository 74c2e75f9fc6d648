/* SPDX-License-Identifier: MIT */
/* sweep.c: a sweep step: a timed comparison's program, sizes, variants, references. */
#include <config.h>

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"

/* Where KEY of mapping N was written (NULL if absent). */
#define AT(n, key) yamlpos_get(ld->ix, (n), (key))

/* Parse one reference RR (libcyaml's; a book's figures), written at RN. */
static void
load_sweep_reference(struct scn_load *ld, struct scn_reference *r,
			 const struct scn_raw_ref *rr, const struct yamlpos_node *rn,
			 const struct scn_sweep *sw)
{
	const struct yamlpos_node *rows = AT(rn, "rows");
	const struct yamlpos_node *c;

	if (rr->label == NULL || *rr->label == '\0')
		load_at(ld, AT(rn, "label") ? AT(rn, "label") : rn,
		        "a sweep reference needs a label (e.g. \"TLPI 2010\")");
	r->label = load_value_strdup(ld, rr->label);
	r->source = load_value_strdup(ld, rr->source);
	r->variant = load_value_strdup(ld, rr->variant);
	if (rr->variant != NULL) {
		size_t i;
		for (i = 0; i < sw->n_variants; i++)
			if (sw->variants[i].name != NULL && strcmp(sw->variants[i].name, rr->variant) == 0)
				break;
		if (i == sw->n_variants)
			load_at(ld, AT(rn, "variant"),
			        "reference variant '%s' is not a variant of this sweep", rr->variant);
	}
	if (rr->total != NULL)
		load_value_size(ld, AT(rn, "total"), rr->total, "total", SZ_ZERO_OK,
				    &r->total_bytes);
	if (rows == NULL || rows->n_children == 0)
		return;
	/* Rows in step with the tree, for positions: both come from the same document, and the
	 * shape check refused any row that is not a mapping, so libcyaml skipped none. */
	assert(rr->rows_count == rows->n_children);
	r->rows = calloc(rows->n_children, sizeof *r->rows);
	if (r->rows == NULL) {
		ld->oom = true;
		return;
	}
	r->n_rows = rows->n_children;
	c = yamlpos_first(ld->ix, rows);
	for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		struct scn_ref_row *row = &r->rows[i];
		const struct scn_raw_row *rw = &rr->rows[i];
		row->elapsed = row->user = row->system = -1;
		if (rw->buf_size == NULL)
			load_at(ld, c, "a reference row needs buf_size");
		else
			load_value_size(ld, AT(c, "buf_size"), rw->buf_size, "buf_size", 0,
					    &row->buf_size);
		if (rw->elapsed != NULL)
			load_value_real(ld, AT(c, "elapsed"), rw->elapsed, "elapsed", 0, 1e9,
					    &row->elapsed);
		if (rw->user != NULL)
			load_value_real(ld, AT(c, "user"), rw->user, "user", 0, 1e9, &row->user);
		if (rw->system != NULL)
			load_value_real(ld, AT(c, "system"), rw->system, "system", 0, 1e9,
					    &row->system);
	}
}

/* Parse a sweep step's mapping RW (libcyaml's; NULL: nothing given), written at SN. */
void
load_sweep_parse(struct scn_load *ld, struct scn_step *st, const struct scn_raw_sweep *rw,
		 const struct yamlpos_node *sn, size_t stepno)
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
	if (sn->kind != YAMLPOS_MAP || rw == NULL) { /* "sweep:" with nothing */
		load_at_key(ld, sn, "sweep in step %zu needs program, buffer_sizes and file_size", stepno);
		return;
	}
#define NODE(k) (AT(sn, k) ? AT(sn, k) : sn)
	if (rw->program == NULL)
		load_at(ld, sn, "sweep in step %zu needs program (one of: %s)", stepno,
		        load_report_names(scn_programs, list, sizeof list));
	else if (load_value_name(ld, NODE("program"), rw->program, scn_programs,
				 "sweep program", &v) == 0)
		sw->program = (enum scn_program)v;
	sw->title = load_value_strdup(ld, rw->title != NULL ? rw->title : rw->program);
	const struct yamlpos_node *bs = AT(sn, "buffer_sizes");
	if (bs == NULL) {
		load_at(ld, sn, "sweep in step %zu needs buffer_sizes (a list of sizes)", stepno);
	} else if (bs->n_children == 0) {
		load_at(ld, NODE("buffer_sizes"), "sweep buffer_sizes is empty: list at least one size");
	} else {
		/* In step with the tree, for positions: both come from the same document, and the
		 * shape check refused any entry that is not a single value. */
		assert(rw->buffer_sizes.count == bs->n_children);
		sw->buffer_sizes = calloc(bs->n_children, sizeof *sw->buffer_sizes);
		if (sw->buffer_sizes == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_buffer_sizes = bs->n_children;
		c = yamlpos_first(ld->ix, bs);
		for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c))
			load_value_size(ld, c, rw->buffer_sizes.items[i], "buffer size", SZ_BOUNDED,
				&sw->buffer_sizes[i]);
	}
	if (rw->file_size == NULL)
		load_at(ld, sn, "sweep in step %zu needs file_size (the total to transfer)", stepno);
	else
		load_value_size(ld, NODE("file_size"), rw->file_size, "file_size",
				    SZ_BOUNDED, &sw->file_size);
	if (rw->repeat != NULL &&
	    load_value_count(ld, NODE("repeat"), rw->repeat, "repeat", 1, 1000, &u) == 0)
		sw->repeat = (unsigned)u;
	if (rw->warmup != NULL &&
	    load_value_count(ld, NODE("warmup"), rw->warmup, "warmup", 0, 1000, &u) == 0)
		sw->warmup = (unsigned)u;
	if (rw->cache != NULL &&
	    load_value_name(ld, NODE("cache"), rw->cache, scn_caches, "cache", &v) == 0)
		sw->cache = (enum scn_cache)v;
	if (rw->budget != NULL)
		load_value_real(ld, NODE("budget"), rw->budget, "budget", 0, SCN_MAX_WAIT,
				    &sw->budget);

	/* Variants: at least the default one. In step with the tree, as above: the shape check
	 * refused any variant that is not a mapping. */
	const struct yamlpos_node *vs = AT(sn, "variants");
	size_t n_vs = vs != NULL ? vs->n_children : 0;
	assert(rw->variants_count == n_vs);
	sw->n_variants = n_vs ? n_vs : 1;
	sw->variants = calloc(sw->n_variants, sizeof *sw->variants);
	if (sw->variants == NULL) {
		ld->oom = true;
		return;
	}
	if (n_vs == 0)
		sw->variants[0].name = load_value_strdup(ld, "default");
	c = yamlpos_first(ld->ix, vs);
	for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		struct scn_variant *var = &sw->variants[i];
		const struct scn_raw_variant *rv = &rw->variants[i];
		const struct yamlpos_node *vn = c;
		if (rv->name == NULL || *rv->name == '\0') {
			load_at(ld, vn, "a sweep variant needs a name");
		} else {
			for (size_t j = 0; j < i; j++)
				if (sw->variants[j].name && strcmp(sw->variants[j].name, rv->name) == 0)
					load_at(ld, AT(vn, "name"),
					        "two sweep variants are named '%s'", rv->name);
		}
		var->name = load_value_strdup(ld, rv->name);
		if (AT(vn, "flags") != NULL)
			load_value_flags(ld, AT(vn, "flags"), &rv->flags, scn_variant_flags,
					 "variant flag", &var->flags);
		if (rv->sync_each != NULL &&
		    load_value_name(ld, AT(vn, "sync_each"), rv->sync_each, scn_sync_eachs,
					"sync_each", &v) == 0)
			var->sync_each = (enum scn_sync_each)v;
		if (rv->on != NULL &&
		    load_value_name(ld, AT(vn, "on"), rv->on, scn_fss, "filesystem", &v) == 0)
			var->on = (enum scn_fs)v;
	}

	const struct yamlpos_node *refs = AT(sn, "reference");
	if (refs != NULL && refs->n_children > 0) {
		assert(rw->reference_count == refs->n_children); /* in step, as the variants */
		sw->references = calloc(refs->n_children, sizeof *sw->references);
		if (sw->references == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_references = refs->n_children;
		c = yamlpos_first(ld->ix, refs);
		for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c))
			load_sweep_reference(ld, &sw->references[i], &rw->reference[i], c, sw);
	}
#undef NODE
}

/* Free a sweep. */
void
load_sweep_free(struct scn_sweep *sw)
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
