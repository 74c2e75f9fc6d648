/* SPDX-License-Identifier: MIT */
/* schema.c: which keys a scenario may hold and what each takes, checked on the tree. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "load/load-int.h"

/*
 * The shape check, run on the positioned tree before libcyaml sees the document (libcyaml's
 * schema of the same keys is in load/raw.c): every unknown key and wrong kind, with its
 * line and column, so that libcyaml only ever maps well-shaped input. The schema is static
 * data, bottom-up, in the order the keys are listed in messages. Ops and expectation keys are
 * not listed here: a step's keys are the op table's names plus say, ask and expect, an op's
 * keys are its arguments (scn_arg_fields), an expect's keys are the key table's names.
 */

/* One argument's field and example, from its SCN_ARGDEF_ (key, shape, example). */
#define SCN_ARG_FIELD(a) [SCN_ARG_##a] = SCN_ARG_FIELD_(SCN_ARGDEF_##a)
#define SCN_ARG_FIELD_(...) SCN_ARG_FIELD__(__VA_ARGS__)
#define SCN_ARG_FIELD__(k, shape, ex) { k, SCN_SHAPE_##shape, NULL }
#define SCN_ARG_EXAMPLE(a) [SCN_ARG_##a] = SCN_ARG_EXAMPLE_(SCN_ARGDEF_##a)
#define SCN_ARG_EXAMPLE_(...) SCN_ARG_EXAMPLE__(__VA_ARGS__)
#define SCN_ARG_EXAMPLE__(k, shape, ex) ex
#define SCN_ARG_ALL(X) \
	X(BYTES), X(OFFSET), X(LEN), X(WHENCE), X(TEXT), X(MODE), X(SIZE), X(BUFFER), X(FLAGS), \
	X(ADVICE), X(ALIGN), X(SECONDS), X(UNTIL), X(TIMEOUT), X(LINES), X(BLOCK), X(PRINTF), \
	X(WRITE), X(BETWEEN), X(BUFMODE), X(SETBUF_BUFFER), X(SFR_FLAGS), X(SEEK_OFFSET), \
	X(PROGRAM), X(ARGS), X(STDIN), X(FCNTL_CMD), X(CHILD), X(FILE), X(TO)
const struct scn_field scn_arg_fields[SCN_ARG__COUNT] = {
	[SCN_ARG_NONE] = { "", SCN_SHAPE_SCALAR, NULL },
	SCN_ARG_ALL(SCN_ARG_FIELD),
};
const char *const scn_arg_examples[SCN_ARG__COUNT] = {
	[SCN_ARG_NONE] = "",
	SCN_ARG_ALL(SCN_ARG_EXAMPLE),
};
#undef SCN_ARG_ALL
#undef SCN_ARG_EXAMPLE__
#undef SCN_ARG_EXAMPLE_
#undef SCN_ARG_EXAMPLE
#undef SCN_ARG_FIELD
#undef SCN_ARG_FIELD_
#undef SCN_ARG_FIELD__

static const struct scn_field scn_row_fields[] = {
	{ "buf_size", SCN_SHAPE_SCALAR, NULL }, { "elapsed", SCN_SHAPE_SCALAR, NULL },
	{ "user", SCN_SHAPE_SCALAR, NULL }, { "system", SCN_SHAPE_SCALAR, NULL },
	{ NULL, SCN_SHAPE_SCALAR, NULL }
};
static const struct scn_field scn_ref_fields[] = {
	{ "label", SCN_SHAPE_SCALAR, NULL }, { "source", SCN_SHAPE_SCALAR, NULL },
	{ "variant", SCN_SHAPE_SCALAR, NULL }, { "total", SCN_SHAPE_SCALAR, NULL },
	{ "rows", SCN_SHAPE_MAP_LIST, scn_row_fields }, { NULL, SCN_SHAPE_SCALAR, NULL }
};
static const struct scn_field scn_variant_fields[] = {
	{ "name", SCN_SHAPE_SCALAR, NULL }, { "flags", SCN_SHAPE_LIST, NULL },
	{ "sync_each", SCN_SHAPE_SCALAR, NULL }, { "on", SCN_SHAPE_SCALAR, NULL },
	{ NULL, SCN_SHAPE_SCALAR, NULL }
};
static const struct scn_field scn_sweep_fields[] = {
	{ "title", SCN_SHAPE_SCALAR, NULL }, { "program", SCN_SHAPE_SCALAR, NULL },
	{ "buffer_sizes", SCN_SHAPE_LIST, NULL }, { "file_size", SCN_SHAPE_SCALAR, NULL },
	{ "repeat", SCN_SHAPE_SCALAR, NULL }, { "warmup", SCN_SHAPE_SCALAR, NULL },
	{ "cache", SCN_SHAPE_SCALAR, NULL }, { "budget", SCN_SHAPE_SCALAR, NULL },
	{ "variants", SCN_SHAPE_MAP_LIST, scn_variant_fields },
	{ "reference", SCN_SHAPE_MAP_LIST, scn_ref_fields }, { NULL, SCN_SHAPE_SCALAR, NULL }
};
/* A step's keys besides its op. */
static const struct scn_field scn_step_fields[] = {
	{ "say", SCN_SHAPE_TEXT, NULL }, { "ask", SCN_SHAPE_SCALAR, NULL },
	{ "expect", SCN_SHAPE_MAP, NULL }, { "as", SCN_SHAPE_SCALAR, NULL },
	{ "on", SCN_SHAPE_SCALAR, NULL }, { "cases", SCN_SHAPE_MAP_LIST, NULL },
	{ NULL, SCN_SHAPE_SCALAR, NULL }
};
static const struct scn_field scn_file_fields[] = {
	{ "size", SCN_SHAPE_SCALAR, NULL }, { "on", SCN_SHAPE_SCALAR, NULL },
	{ "fill", SCN_SHAPE_SCALAR, NULL }, { NULL, SCN_SHAPE_SCALAR, NULL }
};
static const struct scn_field scn_top_fields[] = {
	{ "title", SCN_SHAPE_SCALAR, NULL }, { "source", SCN_SHAPE_SCALAR, NULL },
	{ "intro", SCN_SHAPE_TEXT, NULL }, { "file", SCN_SHAPE_MAP, scn_file_fields },
	{ "steps", SCN_SHAPE_LIST, NULL }, { NULL, SCN_SHAPE_SCALAR, NULL }
};

/* A node's kind as people say it. */
static const char *
load_schema_kind(const struct yamlpos_node *n)
{
	switch (n->kind) {
	case YAMLPOS_SCALAR: return "a single value";
	case YAMLPOS_SEQ: return "a list";
	case YAMLPOS_MAP: return "a mapping";
	}
	return "?";
}

/* Write the keys of a field list into buf ("a, b, c"). */
static const char *
load_schema_keys(const struct scn_field *f, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; f[i].key != NULL; i++)
		load_report_append(buf, len, ", ", f[i].key);
	return buf;
}

/* The field of KEY in F, or NULL. */
static const struct scn_field *
load_schema_field(const struct scn_field *f, const char *key)
{
	for (; f != NULL && f->key != NULL; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

static void load_schema_map(struct scn_load *ld, const struct yamlpos_node *m,
				const struct scn_field *fields, size_t stepno);

/* Check that value N of field F has the shape F says (STEPNO: the step it is in, or 0). */
static void
load_schema_value(struct scn_load *ld, const struct yamlpos_node *n, const struct scn_field *f,
		  size_t stepno)
{
	size_t i = 0;

	switch (f->shape) {
	case SCN_SHAPE_SCALAR:
		if (n->kind != YAMLPOS_SCALAR)
			load_at(ld, n, "'%s' takes a single value, not %s", f->key,
				    load_schema_kind(n));
		return;
	case SCN_SHAPE_TEXT:
		load_narr_schema(ld, n);
		return;
	case SCN_SHAPE_MAP:
		if (n->kind == YAMLPOS_MAP)
			load_schema_map(ld, n, f->fields, stepno);
		else if (!load_value_is_null(n)) /* a null value stands for an empty mapping */
			load_at(ld, n, "'%s' takes a mapping ({key: value}), not %s", f->key,
				    load_schema_kind(n));
		return;
	case SCN_SHAPE_LIST:
	case SCN_SHAPE_MAP_LIST:
		if (n->kind != YAMLPOS_SEQ) {
			load_at(ld, n, "'%s' takes a list ([a, b]), not %s", f->key,
				    load_schema_kind(n));
			return;
		}
		for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
		     c = yamlpos_next(ld->ix, c)) {
			i++;
			if (f->shape == SCN_SHAPE_LIST && c->kind != YAMLPOS_SCALAR)
				load_at(ld, c, "entry %zu of '%s' takes a single value, not %s", i,
					    f->key, load_schema_kind(c));
			else if (f->shape == SCN_SHAPE_LIST)
				continue;
			else if (c->kind == YAMLPOS_MAP)
				load_schema_map(ld, c, f->fields, stepno);
			else if (f->fields == scn_variant_fields)
				load_at(ld, c, "variant %zu of the sweep in step %zu takes a mapping "
					    "({name: ..., flags: [...]}), not %s", i, stepno,
					    load_schema_kind(c));
			else
				load_at(ld, c, "entry %zu of '%s' takes a mapping ({key: value}), "
					    "not %s", i, f->key, load_schema_kind(c));
		}
		return;
	}
}

/* Report unknown key C of a mapping with FIELDS (the fields say which mapping it is). */
static void
load_schema_unknown(struct scn_load *ld, const struct yamlpos_node *c,
			const struct scn_field *fields, size_t stepno)
{
	char takes[256];

	load_schema_keys(fields, takes, sizeof takes);
	if (fields == scn_top_fields)
		load_at_key(ld, c, "unknown key '%s' at the top of the scenario (it takes: %s)",
				c->key, takes);
	else if (fields == scn_file_fields)
		load_at_key(ld, c, "unknown key '%s' in file (file takes: %s)", c->key, takes);
	else if (fields == scn_sweep_fields)
		load_at_key(ld, c, "unknown key '%s' in sweep in step %zu (sweep takes: %s)",
				c->key, stepno, takes);
	else if (fields == scn_variant_fields)
		load_at_key(ld, c, "unknown key '%s' in a sweep variant (a variant takes: %s)",
				c->key, takes);
	else if (fields == scn_ref_fields)
		load_at_key(ld, c, "unknown key '%s' in a sweep reference (a reference takes: %s)",
				c->key, takes);
	else
		load_at_key(ld, c, "unknown key '%s' in a reference row (a row takes: %s)",
				c->key, takes);
}

/* Check the keys of mapping M against FIELDS, and each value's shape. */
static void
load_schema_map(struct scn_load *ld, const struct yamlpos_node *m,
		    const struct scn_field *fields, size_t stepno)
{
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, m); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		const struct scn_field *f = load_schema_field(fields, c->key);
		if (f == NULL)
			load_schema_unknown(ld, c, fields, stepno);
		else
			load_schema_value(ld, c, f, stepno);
	}
}

/* Check an op's arguments N (a mapping, or null for none). */
static void
load_schema_args(struct scn_load *ld, const struct yamlpos_node *n, enum scn_op op,
		 size_t stepno)
{
	const struct scn_op_entry *e = &scn_op_table[op];
	char takes[256] = "";

	for (const struct scn_arg_use *u = e->args; u->arg != SCN_ARG_NONE; u++)
		load_report_append(takes, sizeof takes, ", ", scn_arg_fields[u->arg].key);
	if (n->kind != YAMLPOS_MAP) {
		if (load_value_is_null(n))
			return;
		if (e->args[0].arg == SCN_ARG_NONE)
			load_at(ld, n, "%s in step %zu takes no arguments: write %s: {} (not %s)",
				    e->name, stepno, e->name, load_schema_kind(n));
		else
			load_at(ld, n, "%s in step %zu takes its arguments as a mapping ({%s: ...}), "
				    "not %s", e->name, stepno, scn_arg_fields[e->args[0].arg].key,
				    load_schema_kind(n));
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		const struct scn_arg_use *u = e->args;
		while (u->arg != SCN_ARG_NONE && strcmp(scn_arg_fields[u->arg].key, c->key) != 0)
			u++;
		if (u->arg != SCN_ARG_NONE)
			load_schema_value(ld, c, &scn_arg_fields[u->arg], stepno);
		else if (e->args[0].arg == SCN_ARG_NONE)
			load_at_key(ld, c, "unknown argument '%s' for %s in step %zu (%s takes no "
					"arguments)", c->key, e->name, stepno, e->name);
		else
			load_at_key(ld, c, "unknown argument '%s' for %s in step %zu (%s takes: %s)",
					c->key, e->name, stepno, e->name, takes);
	}
}

/* Check a step's expect mapping N (or null). */
void
load_schema_expect(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno)
{
	const char *names[SCN_KEY__COUNT];
	struct scn_field f = { "expect", SCN_SHAPE_SCALAR, NULL };

	if (n->kind != YAMLPOS_MAP) {
		f.shape = SCN_SHAPE_MAP;
		load_schema_value(ld, n, &f, stepno);
		return;
	}
	for (int k = 0; k < SCN_KEY__COUNT; k++)
		names[k] = scn_key_table[k].name;
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		f.key = c->key;
		if (scenario_key_find(c->key) >= 0) {
			load_schema_value(ld, c, &f, stepno);
			continue;
		}
		const char *s = load_report_suggest(c->key, names, SCN_KEY__COUNT);
		if (s != NULL)
			load_at_key(ld, c, "unknown expectation key '%s' in step %zu (did you mean "
					"'%s'?)", c->key, stepno, s);
		else
			load_at_key(ld, c, "unknown expectation key '%s' in step %zu (see "
					"doc/scenarios.md for the list)", c->key, stepno);
	}
}

/* The keys of a case, for messages. */
#define SCN_CASE_KEYS "when, unless, say, expect"

/* Check the shape of a step's cases N (a list of {when, unless, say, expect}). */
static void
load_schema_cases(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno)
{
	if (n->kind != YAMLPOS_SEQ) {
		load_at(ld, n, "'cases' takes a list of cases (- when: {...}), not %s",
			    n->kind == YAMLPOS_MAP ? "a mapping" : "a single value");
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		bool cond = false, body = false;
		if (c->kind != YAMLPOS_MAP) {
			load_at(ld, c, "case %zu of step %zu takes a mapping (" SCN_CASE_KEYS
				    "), not %s", c->index + 1, stepno,
				    c->kind == YAMLPOS_SEQ ? "a list" : "a single value");
			continue;
		}
		for (const struct yamlpos_node *k = yamlpos_first(ld->ix, c); k != NULL;
		     k = yamlpos_next(ld->ix, k)) {
			if (strcmp(k->key, "when") == 0 || strcmp(k->key, "unless") == 0) {
				cond = true;
				load_cond_schema_facts(ld, k, stepno);
			} else if (strcmp(k->key, "say") == 0) {
				body = true;
				load_narr_schema(ld, k);
			} else if (strcmp(k->key, "expect") == 0) {
				body = true;
				load_schema_expect(ld, k, stepno);
			} else {
				load_at_key(ld, k, "unknown key '%s' in case %zu of step %zu (a case "
						"takes: " SCN_CASE_KEYS ")", k->key, c->index + 1, stepno);
			}
		}
		if (!cond)
			load_at(ld, c, "case %zu of step %zu needs when or unless (a case without "
				    "a condition belongs in the step itself)", c->index + 1, stepno);
		else if (!body)
			load_at(ld, c, "case %zu of step %zu needs say or expect", c->index + 1,
				    stepno);
	}
}

/* Report unknown key C of step STEPNO: a misspelt op, or an argument outside its op. */
static void
load_schema_unknown_op(struct scn_load *ld, const struct yamlpos_node *c, size_t stepno)
{
	const char *names[SCN_OP__COUNT];
	bool is_arg = false;

	for (int k = 0; k < SCN_OP__COUNT; k++)
		names[k] = scn_op_table[k].name;
	for (int k = SCN_ARG_NONE + 1; k < SCN_ARG__COUNT; k++)
		is_arg = is_arg || strcmp(scn_arg_fields[k].key, c->key) == 0;
	const char *s = load_report_suggest(c->key, names, SCN_OP__COUNT);
	if (s != NULL)
		load_at_key(ld, c, "unknown op '%s' in step %zu (did you mean '%s'?)", c->key,
				stepno, s);
	else if (is_arg)
		load_at_key(ld, c, "unknown op '%s' in step %zu (arguments go inside the op: "
				"fwrite: {bytes: 5000})", c->key, stepno);
	else
		load_at_key(ld, c, "unknown op '%s' in step %zu (see doc/scenarios.md for the ops)",
				c->key, stepno);
}

/* Check step N (number STEPNO). */
static void
load_schema_step(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno)
{
	if (n->kind != YAMLPOS_MAP) {
		if (n->value != NULL && scenario_op_find(n->value) >= 0)
			load_at(ld, n, "step %zu is just '%s': write - %s: {} (an op is a key)",
				    stepno, n->value, n->value);
		else
			load_at(ld, n, "step %zu must be a mapping (- op: {args}), not %s", stepno,
				    load_schema_kind(n));
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		int op = scenario_op_find(c->key);
		const struct scn_field *f = load_schema_field(scn_step_fields, c->key);
		if (op < 0 && f == NULL) {
			load_schema_unknown_op(ld, c, stepno);
		} else if (op < 0 && strcmp(c->key, "expect") == 0) {
			load_schema_expect(ld, c, stepno);
		} else if (op < 0 && strcmp(c->key, "cases") == 0) {
			load_schema_cases(ld, c, stepno);
		} else if (op < 0) {
			load_schema_value(ld, c, f, stepno);
		} else if (scn_op_table[op].form == SCN_FORM_ARGS) {
			load_schema_args(ld, c, (enum scn_op)op, stepno);
		} else if (scn_op_table[op].form == SCN_FORM_TEXT) {
			struct scn_field t = { c->key, SCN_SHAPE_SCALAR, NULL };
			load_schema_value(ld, c, &t, stepno);
		} else if (c->kind == YAMLPOS_MAP) {
			load_schema_map(ld, c, scn_sweep_fields, stepno);
		} else if (!load_value_is_null(c)) {
			load_at(ld, c, "%s in step %zu takes a mapping ({program: ..., buffer_sizes: "
				    "[...]}), not %s", c->key, stepno, load_schema_kind(c));
		}
	}
}

/* Check every key and the kind of every value against the schema; 0 if all is well-shaped. */
int
load_schema_check(struct scn_load *ld, const struct yamlpos_node *root)
{
	int before = ld->n_err;

	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, root); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		const struct scn_field *f = load_schema_field(scn_top_fields, c->key);
		size_t stepno = 0;
		if (f == NULL) {
			load_schema_unknown(ld, c, scn_top_fields, 0);
		} else if (strcmp(c->key, "steps") != 0 ||
			   (c->kind != YAMLPOS_SEQ && !load_value_is_null(c))) {
			load_schema_value(ld, c, f, 0);
		} else { /* a null steps is no steps: the conversion says so */
			for (const struct yamlpos_node *s = yamlpos_first(ld->ix, c); s != NULL;
			     s = yamlpos_next(ld->ix, s))
				load_schema_step(ld, s, ++stepno);
		}
	}
	return ld->n_err == before && !ld->oom ? 0 : -1;
}
