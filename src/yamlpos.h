/* SPDX-License-Identifier: MIT */
/* yamlpos.h: a YAML document as a tree of nodes with their line and column (libcyaml keeps none). */
#ifndef IOBUFVIZ_YAMLPOS_H
#define IOBUFVIZ_YAMLPOS_H

#include <stddef.h>

/* Kind of a node. */
enum ypos_kind { YPOS_SCALAR, YPOS_MAP, YPOS_SEQ };

/* One node: a scalar, a mapping or a sequence, and where it and its key were written. */
struct ypos_node {
	enum ypos_kind kind;
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
struct ypos {
	struct ypos_node *nodes;
	size_t n;
};

/* Deepest nesting accepted; deeper input is refused rather than walked. */
#define YPOS_MAX_DEPTH 64

/*
 * Parse BUF (LEN bytes) with libyaml and build the tree of its first document. On a syntax
 * error (or an alias, a second document, a complex key, a duplicate key, too deep nesting)
 * return -1 with *line, *col (1-based) and msg filled. An empty document gives 0 nodes.
 */
int ypos_build(const char *buf, size_t len, struct ypos **out,
	       int *line, int *col, char *msg, size_t msg_len);

/* Free a tree from ypos_build(). NULL is fine. */
void ypos_free(struct ypos *ix);

/* Node I of the tree, or NULL if I is out of range or negative. */
const struct ypos_node *ypos_node(const struct ypos *ix, long i);

/* Child of mapping node N with key KEY, or NULL (also when N is NULL or not a mapping). */
const struct ypos_node *ypos_get(const struct ypos *ix, const struct ypos_node *n,
				 const char *key);

/* Child I (0-based) of node N, or NULL. */
const struct ypos_node *ypos_at(const struct ypos *ix, const struct ypos_node *n, size_t i);

/* First child of N, or NULL. */
const struct ypos_node *ypos_first(const struct ypos *ix, const struct ypos_node *n);

/* Next sibling of N, or NULL. */
const struct ypos_node *ypos_next(const struct ypos *ix, const struct ypos_node *n);

#endif
