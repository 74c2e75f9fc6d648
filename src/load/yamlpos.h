/* SPDX-License-Identifier: MIT */
/* load/yamlpos.h: a YAML document as a tree of nodes with their line and column: what the loader reads. */
#ifndef IOBUFVIZ_YAMLPOS_H
#define IOBUFVIZ_YAMLPOS_H

#include <stddef.h>

/* Kind of a node. */
enum yamlpos_kind { YAMLPOS_SCALAR, YAMLPOS_MAP, YAMLPOS_SEQ };

/* One node: a scalar, a mapping or a sequence, and where it and its key were written. */
struct yamlpos_node {
	enum yamlpos_kind kind;
	char *key;           /* key in the parent mapping; NULL in a sequence or at the root */
	size_t index;        /* position among the parent's children (0-based) */
	char *value;         /* scalar text; NULL for containers */
	int is_null;         /* a plain scalar written as "", "~" or "null" */
	int line, col;       /* where the value starts (1-based) */
	int key_line, key_col; /* where the key starts; the value's position when no key */
	long parent;         /* index of the parent node, -1 for the root */
	long first, next;    /* first child, next sibling (-1: none) */
	size_t n_children;
};

/* The tree of one document. Node 0 is the root (when n > 0). */
struct yamlpos {
	struct yamlpos_node *nodes;
	size_t n;
};

/* Deepest nesting accepted; deeper input is refused rather than walked. */
#define YAMLPOS_MAX_DEPTH 64

/*
 * Parse BUF (LEN bytes) with libyaml and build the tree of its first document. On a syntax
 * error (or an alias, a second document, a complex key, a duplicate key, too deep nesting)
 * return -1 with *line, *col (1-based) and msg filled. An empty document gives 0 nodes.
 */
int yamlpos_build(const char *buf, size_t len, struct yamlpos **out,
	       int *line, int *col, char *msg, size_t msg_len);

/* Free a tree from yamlpos_build(). NULL is fine. */
void yamlpos_free(struct yamlpos *ix);

/* Node I of the tree, or NULL if I is out of range or negative. */
const struct yamlpos_node *yamlpos_node(const struct yamlpos *ix, long i);

/* Child of mapping node N with key KEY, or NULL (also when N is NULL or not a mapping). */
const struct yamlpos_node *yamlpos_get(const struct yamlpos *ix, const struct yamlpos_node *n,
				 const char *key);

/*
 * Take node I out of its parent's children (a mapping loses the key, a list the entry); its
 * own children go with it. The node stays in the array (freed with the tree).
 */
void yamlpos_unlink(struct yamlpos *ix, long i);

/* Make node I an empty mapping: its children (or its text) are no longer reached. */
void yamlpos_empty(struct yamlpos *ix, long i);

/*
 * The tree from its root as one YAML document in *out (a heap string of *len bytes): every
 * text double-quoted but the plain nulls, which stay as written. 0, or -1 (out of memory).
 */
int yamlpos_emit(const struct yamlpos *ix, char **out, size_t *len);

/* Child I (0-based) of node N, or NULL. */
const struct yamlpos_node *yamlpos_at(const struct yamlpos *ix, const struct yamlpos_node *n, size_t i);

/* First child of N, or NULL. */
const struct yamlpos_node *yamlpos_first(const struct yamlpos *ix, const struct yamlpos_node *n);

/* Next sibling of N, or NULL. */
const struct yamlpos_node *yamlpos_next(const struct yamlpos *ix, const struct yamlpos_node *n);

#endif
