/* SPDX-License-Identifier: MIT */
/* load/yamlpos.c: a YAML document as a tree of nodes with their line and column: what the loader reads. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/grow.h"
#include "load/yamlpos.h"

/* A mapping with more keys than this is not a scenario; refusing it keeps key checks cheap. */
#define YAMLPOS_MAX_KEYS 4096

/* One open container while the events are walked. */
struct yamlpos_frame {
	long node;
	int want_key;        /* mapping: the next scalar is a key */
	char *key;           /* mapping: the key waiting for its value */
	int key_line, key_col;
	long last;           /* last child added */
};

/* State of one build. */
struct yamlpos_builder {
	struct yamlpos *ix;
	size_t cap;
	struct yamlpos_frame stack[YAMLPOS_MAX_DEPTH + 1];
	int depth;
	int *line, *col;
	char *msg;
	size_t msg_len;
};

/* Record an error at a libyaml mark. */
static int
yamlpos_fail(struct yamlpos_builder *b, const yaml_mark_t *m, const char *fmt, const char *arg)
{
	*b->line = (int)m->line + 1;
	*b->col = (int)m->column + 1;
	snprintf(b->msg, b->msg_len, fmt, arg);
	return -1;
}

/* Line and column of byte OFFSET of BUF (for reader errors, which give only an offset). */
static void
yamlpos_offset_pos(const char *buf, size_t len, size_t offset, int *line, int *col)
{
	int l = 1, c = 1;

	for (size_t i = 0; i < offset && i < len; i++) {
		if (buf[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)buf[i] & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Append a node as a child of the open container (or as the root). Return its index or -1. */
static long
yamlpos_add(struct yamlpos_builder *b, enum yamlpos_kind kind, const yaml_mark_t *m)
{
	struct yamlpos *ix = b->ix;
	struct yamlpos_node *n;
	long id;

	if (ix->n == b->cap) {
		struct yamlpos_node *nodes = grow(ix->nodes, &b->cap, ix->n, sizeof *nodes, 64);
		if (nodes == NULL)
			return -1;
		ix->nodes = nodes;
	}
	id = (long)ix->n++;
	n = &ix->nodes[id];
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->line = n->key_line = (int)m->line + 1;
	n->col = n->key_col = (int)m->column + 1;
	n->parent = -1;
	n->first = n->next = -1;
	if (b->depth > 0) {
		struct yamlpos_frame *f = &b->stack[b->depth - 1];
		struct yamlpos_node *p = &ix->nodes[f->node];
		n->parent = f->node;
		n->index = p->n_children++;
		if (p->kind == YAMLPOS_MAP) {
			n->key = f->key;
			n->key_line = f->key_line;
			n->key_col = f->key_col;
			f->key = NULL;
			f->want_key = 1;
		}
		if (f->last < 0)
			p->first = id;
		else
			ix->nodes[f->last].next = id;
		f->last = id;
	}
	return id;
}

/* Handle a scalar: a key of the open mapping, or a value. */
static int
yamlpos_scalar(struct yamlpos_builder *b, const yaml_event_t *ev)
{
	const char *text = (const char *)ev->data.scalar.value;
	struct yamlpos_frame *f = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;

	/* Every text of a scenario is a C string: a NUL ("\0") would end it there, silently
	 * (write: {text: "ab\0cd"} wrote 2 bytes). */
	if (memchr(text, '\0', ev->data.scalar.length) != NULL)
		return yamlpos_fail(b, &ev->start_mark, "%s", "a NUL byte in this text: a "
				 "scenario's texts are C strings, which it would end (for bytes that "
				 "are not text, write bytes: N)");
	if (f != NULL && f->want_key) {
		const struct yamlpos_node *p = &b->ix->nodes[f->node];
		if (p->n_children >= YAMLPOS_MAX_KEYS)
			return yamlpos_fail(b, &ev->start_mark, "more than %s keys in one mapping",
					 "4096");
		for (long c = p->first; c >= 0; c = b->ix->nodes[c].next)
			if (strcmp(b->ix->nodes[c].key, text) == 0)
				return yamlpos_fail(b, &ev->start_mark, "duplicate key '%s'", text);
		f->key = strdup(text);
		if (f->key == NULL)
			return yamlpos_fail(b, &ev->start_mark, "%s", "out of memory");
		f->key_line = (int)ev->start_mark.line + 1;
		f->key_col = (int)ev->start_mark.column + 1;
		f->want_key = 0;
		return 0;
	}
	long id = yamlpos_add(b, YAMLPOS_SCALAR, &ev->start_mark);
	if (id < 0)
		return yamlpos_fail(b, &ev->start_mark, "%s", "out of memory");
	struct yamlpos_node *n = &b->ix->nodes[id];
	n->value = strdup(text);
	if (n->value == NULL)
		return yamlpos_fail(b, &ev->start_mark, "%s", "out of memory");
	n->is_null = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		(strcmp(text, "") == 0 || strcmp(text, "~") == 0 || strcmp(text, "null") == 0 ||
		 strcmp(text, "Null") == 0 || strcmp(text, "NULL") == 0);
	return 0;
}

/* Handle the start of a mapping or a sequence. */
static int
yamlpos_open(struct yamlpos_builder *b, const yaml_event_t *ev, enum yamlpos_kind kind)
{
	if (b->depth > 0 && b->stack[b->depth - 1].want_key)
		return yamlpos_fail(b, &ev->start_mark, "%s",
				 "a key must be plain text, not a mapping or a list");
	if (b->depth >= YAMLPOS_MAX_DEPTH)
		return yamlpos_fail(b, &ev->start_mark, "nesting deeper than %s levels", "64");
	long id = yamlpos_add(b, kind, &ev->start_mark);
	if (id < 0)
		return yamlpos_fail(b, &ev->start_mark, "%s", "out of memory");
	struct yamlpos_frame *f = &b->stack[b->depth++];
	memset(f, 0, sizeof *f);
	f->node = id;
	f->want_key = kind == YAMLPOS_MAP;
	f->last = -1;
	return 0;
}

/* Turn a libyaml parser error into our message and position. */
static int
yamlpos_parser_error(struct yamlpos_builder *b, const yaml_parser_t *p, const char *buf, size_t len)
{
	const char *problem = p->problem ? p->problem : "unknown error";

	if (p->error == YAML_READER_ERROR) {
		yamlpos_offset_pos(buf, len, p->problem_offset, b->line, b->col);
		snprintf(b->msg, b->msg_len, "not a YAML text file: %s", problem);
		return -1;
	}
	if (p->error == YAML_MEMORY_ERROR) {
		*b->line = *b->col = 1;
		snprintf(b->msg, b->msg_len, "out of memory");
		return -1;
	}
	*b->line = (int)p->problem_mark.line + 1;
	*b->col = (int)p->problem_mark.column + 1;
	/* A tab where indentation is read is the most common YAML mistake: say so. */
	if (p->problem_mark.index < len && buf[p->problem_mark.index] == '\t') {
		snprintf(b->msg, b->msg_len, "YAML syntax error: a tab; YAML indents with spaces only");
		return -1;
	}
	/* ">= 1" unquoted: '>' starts a block scalar in YAML and cannot start a flow value.
	 * The writer meant a comparison: say how to write one. */
	if (p->problem_mark.index < len && strchr("<>", buf[p->problem_mark.index]) != NULL &&
	    strstr(problem, "cannot start any token") != NULL) {
		snprintf(b->msg, b->msg_len, "YAML syntax error: a comparison must be quoted, "
		         "e.g. \">= 1\" or '< 4096'");
		return -1;
	}
	if (p->context != NULL)
		snprintf(b->msg, b->msg_len, "YAML syntax error: %s %s (from line %d, column %d)",
			 problem, p->context, (int)p->context_mark.line + 1,
			 (int)p->context_mark.column + 1);
	else
		snprintf(b->msg, b->msg_len, "YAML syntax error: %s", problem);
	return -1;
}

/* Build the position tree of BUF. */
int
yamlpos_build(const char *buf, size_t len, struct yamlpos **out,
	   int *line, int *col, char *msg, size_t msg_len)
{
	struct yamlpos_builder b = { .line = line, .col = col, .msg = msg, .msg_len = msg_len };
	yaml_parser_t p;
	yaml_event_t ev;
	int docs = 0, rc = 0, done = 0;

	*out = NULL;
	b.ix = calloc(1, sizeof *b.ix);
	if (b.ix == NULL || !yaml_parser_initialize(&p)) {
		free(b.ix);
		*line = *col = 1;
		snprintf(msg, msg_len, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = yamlpos_parser_error(&b, &p, buf, len);
			break;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = yamlpos_fail(&b, &ev.start_mark, "%s",
					       "a second YAML document starts here: a scenario is one document");
			break;
		case YAML_ALIAS_EVENT:
			rc = yamlpos_fail(&b, &ev.start_mark,
				       "YAML aliases (*%s) are not supported in scenarios: write the value out",
				       (const char *)ev.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT:
			rc = yamlpos_scalar(&b, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			rc = yamlpos_open(&b, &ev, YAMLPOS_SEQ);
			break;
		case YAML_MAPPING_START_EVENT:
			rc = yamlpos_open(&b, &ev, YAMLPOS_MAP);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (b.depth > 0) {
				free(b.stack[b.depth - 1].key);
				b.depth--;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	while (b.depth > 0)
		free(b.stack[--b.depth].key);
	if (rc != 0) {
		yamlpos_free(b.ix);
		return -1;
	}
	*out = b.ix;
	return 0;
}

/* Free a tree. */
void
yamlpos_free(struct yamlpos *ix)
{
	if (ix == NULL)
		return;
	for (size_t i = 0; i < ix->n; i++) {
		free(ix->nodes[i].key);
		free(ix->nodes[i].value);
	}
	free(ix->nodes);
	free(ix);
}

/* Node by index. */
const struct yamlpos_node *
yamlpos_node(const struct yamlpos *ix, long i)
{
	if (ix == NULL || i < 0 || (size_t)i >= ix->n)
		return NULL;
	return &ix->nodes[i];
}

/* First child of a node. */
const struct yamlpos_node *
yamlpos_first(const struct yamlpos *ix, const struct yamlpos_node *n)
{
	return n == NULL ? NULL : yamlpos_node(ix, n->first);
}

/* Next sibling of a node. */
const struct yamlpos_node *
yamlpos_next(const struct yamlpos *ix, const struct yamlpos_node *n)
{
	return n == NULL ? NULL : yamlpos_node(ix, n->next);
}

/* Child of a mapping by key. */
const struct yamlpos_node *
yamlpos_get(const struct yamlpos *ix, const struct yamlpos_node *n, const char *key)
{
	if (n == NULL || n->kind != YAMLPOS_MAP)
		return NULL;
	for (const struct yamlpos_node *c = yamlpos_first(ix, n); c != NULL; c = yamlpos_next(ix, c))
		if (c->key != NULL && strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

/* Child by position. */
const struct yamlpos_node *
yamlpos_at(const struct yamlpos *ix, const struct yamlpos_node *n, size_t i)
{
	const struct yamlpos_node *c = yamlpos_first(ix, n);

	while (c != NULL && c->index != i)
		c = yamlpos_next(ix, c);
	return c;
}

/* Take a node out of its parent's children. */
void
yamlpos_unlink(struct yamlpos *ix, long i)
{
	struct yamlpos_node *n = &ix->nodes[i], *p;
	long *link;

	if (n->parent < 0)
		return;
	p = &ix->nodes[n->parent];
	for (link = &p->first; *link >= 0; link = &ix->nodes[*link].next)
		if (*link == i) {
			*link = n->next;
			n->next = -1;
			p->n_children--;
			return;
		}
}

/* Make a node an empty mapping. */
void
yamlpos_empty(struct yamlpos *ix, long i)
{
	struct yamlpos_node *n = &ix->nodes[i];

	n->kind = YAMLPOS_MAP;
	n->first = -1;
	n->n_children = 0;
	n->is_null = 0;
}

/* Emit one scalar event: plain (a null as written) or double-quoted. 0 or -1. */
static int
yamlpos_emit_scalar(yaml_emitter_t *e, const char *text, int plain)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)text,
					  (int)strlen(text), plain, !plain,
					  plain ? YAML_PLAIN_SCALAR_STYLE :
					  YAML_DOUBLE_QUOTED_SCALAR_STYLE))
		return -1;
	return yaml_emitter_emit(e, &ev) ? 0 : -1;
}

/* Emit node N and what is under it, in block style. 0 or -1. */
static int
yamlpos_emit_node(yaml_emitter_t *e, const struct yamlpos *ix, const struct yamlpos_node *n)
{
	yaml_event_t ev;
	int ok;

	if (n->kind == YAMLPOS_SCALAR)
		return yamlpos_emit_scalar(e, n->value != NULL ? n->value : "", n->is_null);
	ok = n->kind == YAMLPOS_MAP ?
	     yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) :
	     yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	if (!ok || !yaml_emitter_emit(e, &ev))
		return -1;
	for (const struct yamlpos_node *c = yamlpos_first(ix, n); c != NULL; c = yamlpos_next(ix, c)) {
		if (n->kind == YAMLPOS_MAP && yamlpos_emit_scalar(e, c->key, 0) != 0)
			return -1;
		if (yamlpos_emit_node(e, ix, c) != 0)
			return -1;
	}
	ok = n->kind == YAMLPOS_MAP ? yaml_mapping_end_event_initialize(&ev) :
	     yaml_sequence_end_event_initialize(&ev);
	return ok && yaml_emitter_emit(e, &ev) ? 0 : -1;
}

/* libyaml's output handler: append to a memory stream. */
static int
yamlpos_emit_write(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, data) == size;
}

/* The tree as one YAML document. */
int
yamlpos_emit(const struct yamlpos *ix, char **out, size_t *len)
{
	yaml_emitter_t e;
	yaml_event_t ev;
	FILE *m;
	int ok;

	*out = NULL;
	*len = 0;
	if (ix == NULL || ix->n == 0 || (m = open_memstream(out, len)) == NULL)
		return -1;
	if (!yaml_emitter_initialize(&e)) {
		fclose(m);
		free(*out);
		*out = NULL;
		return -1;
	}
	yaml_emitter_set_output(&e, yamlpos_emit_write, m);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, -1);
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	     yaml_emitter_emit(&e, &ev) &&
	     yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	     yaml_emitter_emit(&e, &ev) &&
	     yamlpos_emit_node(&e, ix, &ix->nodes[0]) == 0 &&
	     yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
	     yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) &&
	     yaml_emitter_flush(&e);
	yaml_emitter_delete(&e);
	if (fclose(m) != 0 || !ok) {
		free(*out);
		*out = NULL;
		*len = 0;
		return -1;
	}
	return 0;
}
