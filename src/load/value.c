/* SPDX-License-Identifier: MIT */
/* value.c: the loader's value parsers: sizes, numbers, names, flags, expectations. */
#include <config.h>

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"
#include "base/units.h"

/* Duplicate S, remembering failure. */
char *
load_value_strdup(struct scn_load *ld, const char *s)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL)
		ld->oom = true;
	return d;
}

/* True if NODE is a plain null scalar ("", "~", "null"): a key written with no value. */
bool
load_value_is_null(const struct yamlpos_node *node)
{
	return node != NULL && node->kind == YAMLPOS_SCALAR && node->is_null;
}

/* Look S up in table T. Return 0 and set *out, or report and return -1. */
int
load_value_name(struct scn_load *ld, const struct yamlpos_node *node, const char *s, const struct scn_name *t,
	const char *what, int *out)
{
	char list[256];

	if (load_value_is_null(node))
		s = "";
	for (size_t i = 0; t[i].name != NULL; i++) {
		if (strcmp(s, t[i].name) == 0) {
			*out = t[i].value;
			return 0;
		}
	}
	if (*s == '\0')
		load_at(ld, node, "%s needs a value (one of: %s)", what, load_report_names(t, list, sizeof list));
	else
		load_at(ld, node, "unknown %s '%s' (use one of: %s)", what, s,
		        load_report_names(t, list, sizeof list));
	return -1;
}

/* Parse a size ("4096", "4KiB"). */
int
load_value_size(struct scn_load *ld, const struct yamlpos_node *node, const char *s, const char *what,
	int how, uint64_t *out)
{
	const char *p = s;
	int rc;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0' || load_value_is_null(node)) {
		load_at(ld, node, "%s needs a size", what);
		return -1;
	}
	if (*p == '-') {
		load_at(ld, node, "%s cannot be negative ('%s')", what, s);
		return -1;
	}
	rc = units_parse_size(p, out);
	if (rc == -2) {
		load_at(ld, node, "size '%s' for %s is too large", s, what);
		return -1;
	}
	if (rc != 0) {
		load_at(ld, node, "bad size '%s' for %s: write a number of bytes, optionally with a unit "
		        "(512, 4KiB, 1MiB, 100MB)", s, what);
		return -1;
	}
	if (*out == 0 && !(how & SZ_ZERO_OK)) {
		load_at(ld, node, "%s is 0: give at least 1 byte", what);
		return -1;
	}
	if ((how & SZ_BOUNDED) && *out > SCN_MAX_SIZE) {
		load_at(ld, node, "absurd size '%s' for %s (%" PRIu64 " bytes): the limit is 1 GiB", s,
		        what, *out);
		return -1;
	}
	return 0;
}

/* Parse an offset: a size, negative only where ALLOW_NEG (lseek/fseek relative moves). */
int
load_value_offset(struct scn_load *ld, const struct yamlpos_node *node, const char *s, bool allow_neg,
	  int64_t *out)
{
	const char *p = s;
	uint64_t v;
	bool neg = false;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' && allow_neg) {
		neg = true;
		p++;
	}
	if (*p == '-') {
		load_at(ld, node, "offset cannot be negative here ('%s')", s);
		return -1;
	}
	if (load_value_size(ld, node, p, "offset", SZ_ZERO_OK | SZ_BOUNDED, &v) != 0)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Parse a decimal number of seconds (or any non-negative real) within [lo, hi]. */
int
load_value_real(struct scn_load *ld, const struct yamlpos_node *node, const char *s, const char *what,
	double lo, double hi, double *out)
{
	char *end;
	double v;

	if (load_value_is_null(node)) {
		load_at(ld, node, "%s needs a number", what);
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	while (end != s && isspace((unsigned char)*end))
		end++;
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
		load_at(ld, node, "%s takes a number, not '%s'", what, s);
		return -1;
	}
	if (v < lo || v > hi) {
		load_at(ld, node, "%s %s is out of range (%g to %g)", what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parse a whole number within [lo, hi]. */
int
load_value_count(struct scn_load *ld, const struct yamlpos_node *node, const char *s, const char *what,
	 uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *p = s;
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*p))
		p++;
	if (load_value_is_null(node)) {
		load_at(ld, node, "%s needs a number", what);
		return -1;
	}
	if (!isdigit((unsigned char)*p)) {
		load_at(ld, node, "%s takes a whole number, not '%s'", what, s);
		return -1;
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0') {
		load_at(ld, node, "%s takes a whole number, not '%s'", what, s);
		return -1;
	}
	if (errno == ERANGE || v < lo || v > hi) {
		load_at(ld, node, "%s %s is out of range (%" PRIu64 " to %" PRIu64 ")", what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Map the list of flag names L (libcyaml's), written at LIST, to their OR. */
int
load_value_flags(struct scn_load *ld, const struct yamlpos_node *list,
		 const struct scn_raw_list *l, const struct scn_name *t, const char *what,
		 int *out)
{
	const struct yamlpos_node *c = yamlpos_first(ld->ix, list);
	int rc = 0, v;

	/* In step with the tree, for positions: both lists come from the same document, and the
	 * shape check refused any entry that is not a single value, so none was skipped. */
	assert(list != NULL && list->n_children == l->count);
	*out = 0;
	for (unsigned i = 0; i < l->count; i++, c = yamlpos_next(ld->ix, c)) {
		if (load_value_name(ld, c, l->items[i], t, what, &v) != 0)
			rc = -1;
		else
			*out |= v;
	}
	return rc;
}

/* errno value of NAME ("EINVAL"), or -1. */
static int
load_value_errno(const char *name)
{
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n != NULL && strcmp(n, name) == 0)
			return e;
	}
	return -1;
}

/* The errno name closest to NAME ("EAGAINN" -> "EAGAIN"), or NULL if none is close. */
static const char *
load_value_errno_near(const char *name)
{
	const char *names[160], *near;
	size_t n = 0;

	for (int e = 1; e < 160; e++)
		names[n++] = strerrorname_np(e);
	near = load_report_suggest(name, names, n);
	/* errno names are short and alike (EFOO is two edits from EIO): suggest only a
	 * name that begins as the written one does, as a typo would. */
	return near != NULL && strncmp(near, name, 3) == 0 ? near : NULL;
}

/* Parse one expectation value S for key E->key into E. */
int
load_value_expect(struct scn_load *ld, const struct yamlpos_node *node, const char *s, struct scn_expect *e)
{
	const char *key = scn_key_table[e->key].name;
	enum scn_ktype type = scn_key_table[e->key].type;
	const char *p = s;
	uint64_t u;
	int v, rc;

	e->cmp = SCN_CMP_EQ;
	if (load_value_is_null(node)) {
		load_at(ld, node, "%s needs a value", key);
		return -1;
	}
	if (type == SCN_KT_TEXT || type == SCN_KT_PREFIX) {
		e->str = load_value_strdup(ld, s);
		return 0;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0' && strchr("<>=!", *p) != NULL) {
		static const struct { const char *sym; enum scn_cmp cmp; } ops[] = {
			{ "=", SCN_CMP_EQ }, { "==", SCN_CMP_EQ }, { "!=", SCN_CMP_NE },
			{ "<", SCN_CMP_LT }, { "<=", SCN_CMP_LE }, { ">", SCN_CMP_GT },
			{ ">=", SCN_CMP_GE },
		};
		const char *q = p;
		size_t i;
		while (*q != '\0' && strchr("<>=!", *q) != NULL)
			q++;
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
			if (strlen(ops[i].sym) == (size_t)(q - p) &&
			    strncmp(ops[i].sym, p, (size_t)(q - p)) == 0)
				break;
		if (i == sizeof ops / sizeof ops[0]) {
			load_at(ld, node, "bad comparison '%.*s' in '%s' for %s (use =, !=, <, <=, > or >=)",
			        (int)(q - p), p, s, key);
			return -1;
		}
		e->cmp = ops[i].cmp;
		p = q;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0') {
			load_at(ld, node, "comparison '%s' for %s has no value", s, key);
			return -1;
		}
	}
	if (*p == '\0') {
		load_at(ld, node, "%s needs a value", key);
		return -1;
	}
	switch (type) {
	case SCN_KT_BUFMODE:
	case SCN_KT_YESNO:
		if (load_value_name(ld, node, p, type == SCN_KT_YESNO ? scn_yesno : scn_bufmodes,
					key, &v) != 0)
			return -1;
		e->num = v;
		break;
	case SCN_KT_ERRNO:
		if (strcmp(p, "0") == 0) {
			e->num = 0;
		} else if (isdigit((unsigned char)*p) || *p == '-') {
			load_at(ld, node, "%s takes 0 or an errno name such as EINVAL, not '%s'", key,
				    p);
			return -1;
		} else if ((v = load_value_errno(p)) < 0) {
			const char *near = load_value_errno_near(p);
			if (near != NULL)
				load_at(ld, node, "unknown errno name '%s' (did you mean '%s'?)", p,
					    near);
			else
				load_at(ld, node, "unknown errno name '%s' (EINVAL, EBADF, ENOSPC, ...)",
					    p);
			return -1;
		} else {
			e->num = v;
		}
		break;
	default: {
		bool neg = false;
		if (*p == '-') {
			if (type != SCN_KT_SIGNED) {
				load_at(ld, node, "%s cannot be negative ('%s')", key, s);
				return -1;
			}
			neg = true;
			p++;
		}
		rc = units_parse_size(p, &u);
		if (rc == 0 && u > (uint64_t)INT64_MAX)
			rc = -2;
		if (rc == -2) {
			load_at(ld, node, "%s value '%s' is too large", key, s);
			return -1;
		}
		if (rc != 0) {
			load_at(ld, node, "%s takes a number (units allowed: 4KiB) or a comparison like "
			        "'>= 1', not '%s'", key, s);
			return -1;
		}
		e->num = neg ? -(int64_t)u : (int64_t)u;
		break;
	}
	}
	if ((type == SCN_KT_BUFMODE || type == SCN_KT_ERRNO || type == SCN_KT_YESNO) &&
	    e->cmp != SCN_CMP_EQ && e->cmp != SCN_CMP_NE) {
		load_at(ld, node, "%s compares only with = or !=, not '%s'", key, s);
		return -1;
	}
	return 0;
}

/* Parse one expectation: key C (known) with value VAL, of a step doing OP, into E. */
void
load_value_step_expect(struct scn_load *ld, enum scn_op op, const struct yamlpos_node *c,
			   const char *val, struct scn_expect *e, size_t stepno)
{
	int k = scenario_key_find(c->key);

	e->key = (enum scn_key)k;
	e->source = load_value_strdup(ld, val);
	e->line = c->line;
	e->col = c->col;
	if (load_value_expect(ld, c, val, e) != 0)
		return;
	if (!scenario_key_applies(e->key, op)) {
		char ops[128] = "";
		for (const enum scn_op *o = scn_key_table[k].only; *o != SCN_OP__COUNT; o++)
			load_report_append(ops, sizeof ops, o[1] == SCN_OP__COUNT ? " and " :
					   ", ", scn_op_table[*o].name);
		load_at_key(ld, c, "%s is expected of %s steps, not of %s (step %zu)",
				scn_key_table[k].name, ops, scn_op_table[op].name, stepno);
	}
}

/* Free N expectations E (what they own, and the array). */
void
load_value_expects_free(struct scn_expect *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].str);
		free(e[i].source);
	}
	free(e);
}
