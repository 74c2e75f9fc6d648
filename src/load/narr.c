/* SPDX-License-Identifier: MIT */
/* narr.c: narration bound to facts: a say or an intro read into parts, alternatives and
 * sentences, each sentence with the facts its marks name ({cache.pages = 2}, [fs = tmpfs],
 * a sweep's [O_SYNC@1 > plain@1]); narr-rule.c checks what each sentence may state. */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"
#include "base/text.h"
#include "base/units.h"

/* Words that end with a period but do not end a sentence. */
static const char *const narr_abbrevs[] = { "e.g.", "i.e.", "etc.", "vs.", "cf.", NULL };

/* One text being read: where it was written and what it belongs to. */
struct narr_ctx {
	struct scn_load *ld;
	const struct yamlpos_node *node;   /* the scalar it came from */
	const char *bol;                   /* the start of its line in the file's text */
	const struct scn_step *st;         /* NULL: the intro (facts of the environment only) */
	const char *where;                 /* "the say of step 3", "the intro" */
	unsigned rule;                     /* the rest-on rule's SCN_NARR_IN_ for this text */
};

/* The names a mark may take, for messages: "an expectation key or fs, probe, ...". */
static const char *
narr_names(char *buf, size_t len)
{
	char list[200];

	snprintf(buf, len, "an expectation key or %s", load_cond_list(scn_env_names, list,
									  sizeof list));
	return buf;
}

/* Point cx at node N: where its line starts in the file's text (NULL without the text).
 * The load's cursor remembers the last line found: nodes come nearly in order. */
static void
narr_at_node(struct narr_ctx *cx, const struct yamlpos_node *n)
{
	struct scn_load *ld = cx->ld;

	cx->node = n;
	cx->bol = NULL;
	if (ld->src == NULL)
		return;
	if (ld->src_cur == NULL || ld->src_line > n->line) {
		ld->src_cur = ld->src;
		ld->src_line = 1;
	}
	for (; *ld->src_cur != '\0' && ld->src_line < n->line; ld->src_cur++)
		ld->src_line += *ld->src_cur == '\n';
	cx->bol = ld->src_cur;
}

/*
 * Where the text at P (inside the value of ctx's node, VALUE) starts in the file: the node's
 * own place when P is its start, else the first place after the node's line start where the
 * first words of P are written (block scalars fold and indent their lines: the words are
 * searched with any white space between them), within NARR_LOCATE_SPAN bytes. The node's
 * place if they are not found.
 */
#define NARR_LOCATE_SPAN 65536
static void
narr_locate(const struct narr_ctx *cx, const char *value, const char *p, int *line, int *col)
{
	const char *src = cx->ld->src, *s = cx->bol;
	int l = cx->node->line;

	*line = cx->node->line;
	*col = cx->node->col;
	if (p == value || src == NULL || s == NULL)
		return;
	for (; *s != '\0' && s - cx->bol < NARR_LOCATE_SPAN; s++) {
		const char *a = s, *b = p;
		int words = 0;
		while (*b != '\0' && words < 4) {
			if (isspace((unsigned char)*b)) {
				if (!isspace((unsigned char)*a))
					break;
				while (isspace((unsigned char)*a))
					a++;
				while (isspace((unsigned char)*b))
					b++;
				words++;
				continue;
			}
			if (*a != *b)
				break;
			a++;
			b++;
		}
		if (*b == '\0' || words == 4) {
			const char *bol = s;
			while (bol > src && bol[-1] != '\n')
				bol--;
			*line = l;
			*col = (int)(s - bol) + 1;
			return;
		}
		l += *s == '\n';
	}
}

/* Add a piece to sentence S: literal text T (LEN bytes), or claim CLAIM when T is NULL. */
static void
narr_piece(struct scn_load *ld, struct scn_sentence *s, const char *t, size_t len, size_t claim)
{
	struct scn_piece *v = realloc(s->pieces, (s->n_pieces + 1) * sizeof *v);

	if (v == NULL) {
		ld->oom = true;
		return;
	}
	s->pieces = v;
	v[s->n_pieces].claim = claim;
	v[s->n_pieces].text = NULL;
	if (t != NULL) {
		v[s->n_pieces].text = strndup(t, len);
		if (v[s->n_pieces].text == NULL) {
			ld->oom = true;
			return;
		}
	}
	s->n_pieces++;
}

/* A new claim of sentence S (zeroed, key and env -1), or NULL out of memory. */
static struct scn_claim *
narr_claim_new(struct scn_load *ld, struct scn_sentence *s)
{
	struct scn_claim *v = realloc(s->claims, (s->n_claims + 1) * sizeof *v);

	if (v == NULL) {
		ld->oom = true;
		return NULL;
	}
	s->claims = v;
	memset(&v[s->n_claims], 0, sizeof v[s->n_claims]);
	v[s->n_claims].key = -1;
	v[s->n_claims].env = -1;
	return &v[s->n_claims++];
}

/* True if the step, or one of its cases, expects KEY. */
static bool
narr_step_expects(const struct scn_step *st, int key)
{
	for (size_t c = 0; c <= st->n_cases; c++) {
		const struct scn_expect *e = c == 0 ? st->expects : st->cases[c - 1].expects;
		size_t n = c == 0 ? st->n_expects : st->cases[c - 1].n_expects;
		for (size_t i = 0; i < n; i++)
			if ((int)e[i].key == key)
				return true;
	}
	return false;
}

/* Parse the values V ("tmpfs", "ext4|xfs") of fact F into claim c; 0 if all are known. */
static int
narr_fact_values(const struct narr_ctx *cx, const struct yamlpos_node *at, struct scn_claim *c,
		 const char *v)
{
	size_t n = 1;
	int rc = 0;

	for (const char *p = v; *p != '\0'; p++)
		n += *p == '|';
	c->cond.values = calloc(n, sizeof *c->cond.values);
	if (c->cond.values == NULL) {
		cx->ld->oom = true;
		return -1;
	}
	for (const char *p = v; ; ) {
		size_t len = strcspn(p, "|");
		char *one = strndup(p, len);
		if (one == NULL) {
			cx->ld->oom = true;
			return -1;
		}
		c->cond.values[c->cond.n_values++] = one;
		if (load_cond_value(cx->ld, at, c->cond.fact, &c->cond.values[c->cond.n_values - 1],
					cx->where) != 0)
			rc = -1;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	return rc;
}

/* Read one row of a sweep claim, TEXT (LEN bytes: "O_SYNC@1", "@4KiB"), into variant *v and
 * BUF_SIZE *buf; MARK is the whole mark, for messages. 0, or -1 reported at AT. */
static int
narr_times_row(const struct narr_ctx *cx, const struct yamlpos_node *at, const char *text,
	       size_t len, const char *mark, size_t *v, uint64_t *buf)
{
	const struct scn_sweep *sw = cx->st->sweep;
	char one[128], list[256];
	char *name = one, *size, *e;
	size_t n = 0;

	snprintf(one, sizeof one, "%.*s", (int)len, text);
	while (isspace((unsigned char)*name))
		name++;
	for (e = name + strlen(name); e > name && isspace((unsigned char)e[-1]); )
		*--e = '\0';
	if ((size = strrchr(name, '@')) == NULL) {
		load_at(cx->ld, at, "'%s' in %s in %s names no row of the sweep: write "
			    "VARIANT@BUF_SIZE (@4096: the first variant's)", name, mark, cx->where);
		return -1;
	}
	*size++ = '\0';
	for (e = name + strlen(name); e > name && isspace((unsigned char)e[-1]); )
		*--e = '\0';
	while (isspace((unsigned char)*size))
		size++;
	for (e = size + strlen(size); e > size && isspace((unsigned char)e[-1]); )
		*--e = '\0';
	if (sw == NULL || sw->variants == NULL)
		return -1;    /* the sweep itself was reported */
	*v = 0;
	if (*name != '\0') {
		for (*v = 0; *v < sw->n_variants; (*v)++)
			if (sw->variants[*v].name != NULL && strcmp(sw->variants[*v].name, name) == 0)
				break;
		if (*v == sw->n_variants) {
			list[0] = '\0';
			for (size_t i = 0; i < sw->n_variants && n + 1 < sizeof list; i++)
				n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'",
						      i > 0 ? ", " : "", sw->variants[i].name != NULL ?
						      sw->variants[i].name : "");
			load_at(cx->ld, at, "unknown variant '%s' in %s in %s (use one of: %s)",
				    name, mark, cx->where, list);
			return -1;
		}
	}
	if (units_parse_size(size, buf) != 0) {
		load_at(cx->ld, at, "bad BUF_SIZE '%s' in %s in %s (a size: 4096, 4KiB)", size,
			    mark, cx->where);
		return -1;
	}
	for (size_t i = 0; i < sw->n_buffer_sizes; i++)
		if (sw->buffer_sizes[i] == *buf)
			return 0;
	load_at(cx->ld, at, "BUF_SIZE %s in %s in %s is not one of the sweep's buffer_sizes",
		    size, mark, cx->where);
	return -1;
}

/* Parse a sweep's claim TEXT of a mark shown ({}) or not ([]) into s, at AT: a row quoted
 * ("O_SYNC@1") or two compared ("O_SYNC@1 > plain@1", "@4096 ~ @65536"). */
static void
narr_times(const struct narr_ctx *cx, const struct yamlpos_node *at, struct scn_sentence *s,
	   const char *text, bool shown)
{
	static const struct { const char *op; enum scn_cmp cmp; } ops[] = {
		{ "<=", SCN_CMP_LE }, { ">=", SCN_CMP_GE }, { "<", SCN_CMP_LT }, { ">", SCN_CMP_GT },
		{ "~", SCN_CMP_EQ },
	};
	const char *op = NULL;
	size_t oplen = 0;
	enum scn_cmp cmp = SCN_CMP_EQ;
	char mark[300];
	struct scn_claim *c;

	snprintf(mark, sizeof mark, "%c%s%c", shown ? '{' : '[', text, shown ? '}' : ']');
	for (const char *p = text; *p != '\0' && op == NULL; p++)
		for (size_t i = 0; i < sizeof ops / sizeof ops[0] && op == NULL; i++)
			if (strncmp(p, ops[i].op, strlen(ops[i].op)) == 0) {
				op = p;
				oplen = strlen(ops[i].op);
				cmp = ops[i].cmp;
			}
	if ((c = narr_claim_new(cx->ld, s)) == NULL)
		return;
	c->times.cmp = cmp;
	c->kind = SCN_CLAIM_TIMES;
	c->times.quote = op == NULL;
	if (op == NULL) {
		if (!shown)
			load_at(cx->ld, at, "%s in %s compares nothing: write [A@N > B@M] to rest "
				    "on a comparison, or {A@N} to show the row's time", mark, cx->where);
		narr_times_row(cx, at, text, strlen(text), mark, &c->times.variant[0],
			       &c->times.buf_size[0]);
		return;
	}
	if (narr_times_row(cx, at, text, (size_t)(op - text), mark, &c->times.variant[0],
			   &c->times.buf_size[0]) == 0 &&
	    narr_times_row(cx, at, op + oplen, strlen(op + oplen), mark, &c->times.variant[1],
			   &c->times.buf_size[1]) == 0 &&
	    c->times.variant[0] == c->times.variant[1] &&
	    c->times.buf_size[0] == c->times.buf_size[1])
		load_at(cx->ld, at, "%s in %s compares a row with itself", mark, cx->where);
}

/* Parse one claim TEXT (LEN bytes: "cache.pages = 2", "fs", "fs != tmpfs") of a mark shown
 * ({}) or not ([]) into sentence s; report mistakes at AT. */
static void
narr_claim(const struct narr_ctx *cx, const struct yamlpos_node *at, struct scn_sentence *s,
	   const char *text, size_t len, bool shown)
{
	char buf[256], name[48], names[256];
	const char *p, *rest;
	struct scn_claim *c;
	int key, env;

	snprintf(buf, sizeof buf, "%.*s", (int)len, text);
	if (cx->st != NULL && cx->st->op == SCN_OP_SWEEP && strchr(buf, '@') != NULL) {
		narr_times(cx, at, s, buf, shown);
		return;
	}
	for (p = buf; isspace((unsigned char)*p); p++)
		;
	rest = p + strcspn(p, " \t\n<>=!");
	snprintf(name, sizeof name, "%.*s", (int)(rest - p), p);
	while (isspace((unsigned char)*rest))
		rest++;
	key = scenario_key_find(name);
	env = load_cond_index(scn_env_names, name);
	/* [background]: the sentence is not about this run (doc/scenarios.md, section 5). */
	if (strcmp(name, "background") == 0 && *rest == '\0' && key < 0 && env < 0) {
		if (shown)
			load_at(cx->ld, at, "{background} in %s shows nothing: write [background] "
				    "to mark a sentence that is not about this run", cx->where);
		s->background = true;
		return;
	}
	if (name[0] == '\0') {
		load_at(cx->ld, at, "an empty mark %c%s%c in %s names no fact (write %c%c for a "
			    "%s)", shown ? '{' : '[', buf, shown ? '}' : ']', cx->where,
			    shown ? '{' : '[', shown ? '{' : '[', shown ? "brace" : "bracket");
		return;
	}
	if (key < 0 && env < 0) {
		const char *all[SCN_KEY__COUNT + SCN_ENV__COUNT], *near;
		for (size_t k = 0; k < SCN_KEY__COUNT; k++)
			all[k] = scn_key_table[k].name;
		for (size_t k = 0; k < SCN_ENV__COUNT; k++)
			all[SCN_KEY__COUNT + k] = scn_env_names[k];
		near = load_report_suggest(name, all, SCN_KEY__COUNT + SCN_ENV__COUNT);
		if (near != NULL)
			load_at(cx->ld, at, "unknown name '%s' in %c%s%c in %s (did you mean '%s'?)",
				    name, shown ? '{' : '[', buf, shown ? '}' : ']', cx->where, near);
		else
			load_at(cx->ld, at, "unknown name '%s' in %c%s%c in %s (use %s)", name,
				    shown ? '{' : '[', buf, shown ? '}' : ']', cx->where,
				    narr_names(names, sizeof names));
		return;
	}
	if (key >= 0 && cx->st == NULL) {
		load_at(cx->ld, at, "%s names %s, a fact of a step: the intro is shown before "
			    "the first step and may name only fs, probe, blksize, device, kernel and "
			    "the facts of the filesystem", cx->where, name);
		return;
	}
	if ((c = narr_claim_new(cx->ld, s)) == NULL)
		return;
	c->key = key;
	c->env = key >= 0 ? -1 : env;
	if (*rest == '\0') {
		c->kind = shown ? SCN_CLAIM_QUOTE : SCN_CLAIM_CITE;
		if (!shown && key < 0)
			load_at(cx->ld, at, "[%s] in %s checks nothing: write [%s = value] to rest "
				    "on it, or {%s} to show it", name, cx->where, name, name);
		else if (!shown && !narr_step_expects(cx->st, key))
			load_at(cx->ld, at, "[%s] in %s rests on the step's expectations of %s, and "
				    "the step has none: write [%s = value]", name, cx->where, name, name);
		if (key >= 0 && cx->st != NULL && !scenario_key_applies((enum scn_key)key, cx->st->op))
			load_at(cx->ld, at, "%s in %s: %s is not a fact of %s steps", name,
				    cx->where, name, scn_op_table[cx->st->op].name);
		return;
	}
	if (key >= 0) {
		c->kind = SCN_CLAIM_CHECK;
		c->want.key = (enum scn_key)key;
		c->want.source = load_value_strdup(cx->ld, rest);
		c->want.line = at->line;
		c->want.col = at->col;
		if (load_value_expect(cx->ld, at, rest, &c->want) == 0 &&
		    !scenario_key_applies(c->want.key, cx->st->op))
			load_at(cx->ld, at, "%s in %s: %s is not a fact of %s steps", name,
				    cx->where, name, scn_op_table[cx->st->op].name);
		return;
	}
	c->kind = SCN_CLAIM_FACT;
	if (env >= SCN_FACT__COUNT) {
		load_at(cx->ld, at, "%s can be shown ({%s}), not checked, in %s", name, name,
			    cx->where);
		return;
	}
	c->cond.fact = (enum scn_fact)env;
	if (strncmp(rest, "!=", 2) == 0)
		c->cond.negate = true;
	else if (rest[0] != '=' || rest[1] == '=')
		load_at(cx->ld, at, "%s takes = or != in %s (%s = a|b), not '%s'", name,
			    cx->where, name, rest);
	rest += c->cond.negate ? 2 : 1;
	while (isspace((unsigned char)*rest))
		rest++;
	if (*rest == '\0')
		load_at(cx->ld, at, "%s in %s has no value to compare with", name, cx->where);
	else
		narr_fact_values(cx, at, c, rest);
}

/* Parse mark TEXT (LEN bytes, between the braces or brackets) into sentence s, at AT. */
static void
narr_mark(const struct narr_ctx *cx, const struct yamlpos_node *at, struct scn_sentence *s,
	  const char *text, size_t len, bool shown)
{
	if (shown) {
		narr_claim(cx, at, s, text, len, true);
		narr_piece(cx->ld, s, NULL, 0, s->n_claims > 0 ? s->n_claims - 1 : 0);
		return;
	}
	for (size_t i = 0; i <= len; ) {
		size_t n = 0;
		while (i + n < len && text[i + n] != ',')
			n++;
		narr_claim(cx, at, s, text + i, n, false);
		i += n + 1;
	}
}

/* The end of the mark that starts at P ('{' or '['), or NULL when it is not closed. */
static const char *
narr_mark_end(const char *p)
{
	const char *e = strchr(p, *p == '{' ? '}' : ']');

	if (e == NULL || memchr(p, '\n', (size_t)(e - p)) != NULL || e - p > 120)
		return NULL;
	return e;
}

/* True if the sentence that P is inside ends just after P (at a '.', '!' or '?'). */
static bool
narr_ends_here(const char *start, const char *p)
{
	const char *w = p;

	if (*p != '.' && *p != '!' && *p != '?')
		return false;
	p++;
	while (*p == ')' || *p == '"' || *p == '\'')
		p++;
	if (*p != '\0' && !isspace((unsigned char)*p))
		return false;
	while (w > start && !isspace((unsigned char)w[-1]))
		w--;
	for (size_t i = 0; narr_abbrevs[i] != NULL; i++) {
		size_t n = strlen(narr_abbrevs[i]);
		if (strncasecmp(w, narr_abbrevs[i], n) == 0 && w + n == p)
			return false;
	}
	return true;
}

/* Refuse sentence s, which names no fact: nothing would check it, so it would be told as if
 * it held. What is not about this run is marked [background]. */
static void
narr_bare(const struct narr_ctx *cx, const struct yamlpos_node *at, const struct scn_sentence *s)
{
	struct text_buf t = { 0 };
	const char *p;
	size_t n;

	for (size_t i = 0; i < s->n_pieces; i++)
		if (s->pieces[i].text != NULL)
			text_add(&t, s->pieces[i].text);
	for (p = text_str(&t); *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	n = strlen(p);
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	/* The sentence as it starts: enough to find it, on one line. */
	size_t fit = text_fit(p, n, 60, NULL);
	load_at(cx->ld, at, "'%.*s%s' in %s names no fact of this run, so nothing would check "
		    "it: name the fact it rests on (%s) or mark it [background] when it is not "
		    "about this run (doc/scenarios.md, section 5)", (int)fit, p,
		    fit < n ? "..." : "", cx->where,
		    cx->rule == SCN_NARR_IN_SWEEP ? "[O_SYNC@1 > plain@1], {fs}" :
		    cx->rule == SCN_NARR_IN_INTRO ? "{fs}, {blksize}" :
		    "[calls.write = 0], {stdio.pending}, [fs = tmpfs]");
	text_buf_free(&t);
}

/* Read one sentence, START to END (its trailing white space up to NEXT kept as text), of the
 * value VALUE into s. */
static void
narr_sentence(const struct narr_ctx *cx, const char *value, const char *start, const char *end,
	      const char *next, struct scn_sentence *s)
{
	struct yamlpos_node at = *cx->node;
	const char *lit = start;
	bool broken = false;           /* a mark not closed: reported once, no more */
	int errs = cx->ld->n_err + cx->ld->n_quiet; /* a mark refused: its error says enough */

	narr_locate(cx, value, start, &s->line, &s->col);
	at.line = s->line;
	at.col = s->col;
	at.is_null = 0;
	for (const char *p = start; p < end; p++) {
		if ((*p == '{' || *p == '[') && p[1] == *p) {
			narr_piece(cx->ld, s, lit, (size_t)(p - lit) + 1, 0);
			lit = p + 2;
			p++;
			continue;
		}
		if (*p != '{' && *p != '[')
			continue;
		const char *e = narr_mark_end(p);
		if (e == NULL || e >= end) {
			load_report_error(cx->ld, at.line, at.col,
					  "'%c' without '%c' in %s (write %c%c for a %s)", *p,
				    *p == '{' ? '}' : ']', cx->where, *p, *p,
				    *p == '{' ? "brace" : "bracket");
			lit = p;
			broken = true;
			break;
		}
		/* A silent mark takes the space before it when punctuation or a space follows:
		 * "happened [calls.write = 1]." reads "happened.". */
		const char *cut = p;
		if (*p == '[' && (e[1] == '\0' || strchr(" \t\n.,;:!?)", e[1]) != NULL))
			while (cut > lit && (cut[-1] == ' ' || cut[-1] == '\t' || cut[-1] == '\n'))
				cut--;
		if (cut > lit)
			narr_piece(cx->ld, s, lit, (size_t)(cut - lit), 0);
		narr_mark(cx, &at, s, p + 1, (size_t)(e - p - 1), *p == '{');
		lit = e + 1;
		p = e;
	}
	if (next > lit)
		narr_piece(cx->ld, s, lit, (size_t)(next - lit), 0);
	size_t checked = 0;
	for (size_t i = 0; i < s->n_claims; i++)
		checked += s->claims[i].kind != SCN_CLAIM_QUOTE || s->claims[i].key >= 0;
	/* Background may show the environment ({fs}, {blksize}); it checks nothing. */
	if (s->background && checked > 0)
		load_at(cx->ld, &at, "a sentence marked [background] in %s names a fact of this "
			    "run too: background is not about this run; split it into two sentences",
			    cx->where);
	else if (!s->background && !broken && s->n_claims == 0 &&
		 cx->ld->n_err + cx->ld->n_quiet == errs)
		narr_bare(cx, &at, s);
	else if (!s->background && !broken)
		load_narr_rule(cx->ld, &at, s, cx->rule, cx->where);
}

/* Split TEXT (the value of ctx's node) into sentences, into alternative a. */
static void
narr_text(const struct narr_ctx *cx, const char *text, struct scn_alt *a)
{
	const char *p = text;
	bool para = true, para_bg = false;

	/* Blank lines go; the first line's indentation stays (an intro may open with code). */
	for (const char *q = text; *q == ' ' || *q == '\t' || *q == '\n'; q++)
		p = *q == '\n' || q[1] == '\0' ? q + 1 : p;
	while (*p != '\0') {
		const char *start = p, *end;
		int paren = 0;
		for (end = p; *end != '\0'; end++) {
			if ((*end == '{' || *end == '[') && end[1] == *end) {
				end++;
				continue;
			}
			if (*end == '{' || *end == '[') {
				const char *e = narr_mark_end(end);
				if (e != NULL)
					end = e;
				continue;
			}
			paren += *end == '(' ? 1 : *end == ')' && paren > 0 ? -1 : 0;
			if (end[0] == '\n' && end[1] == '\n')
				break;
			if (paren == 0 && narr_ends_here(start, end)) {
				end++;
				while (*end == ')' || *end == '"' || *end == '\'')
					end++;
				break;
			}
		}
		const char *next = end;
		while (isspace((unsigned char)*next))
			next++;
		struct scn_sentence *v = realloc(a->sentences, (a->n_sentences + 1) * sizeof *v);
		if (v == NULL) {
			cx->ld->oom = true;
			return;
		}
		a->sentences = v;
		memset(&v[a->n_sentences], 0, sizeof v[a->n_sentences]);
		/* A paragraph that opens with a line of "[background]" alone is background
		 * sentence by sentence; "[background]" in a sentence marks that one. */
		if (para) {
			const char *m = start + strspn(start, " \t\n");
			para_bg = strncmp(m, "[background]", 12) == 0 &&
				  m[12 + strspn(m + 12, " \t")] == '\n';
		}
		v[a->n_sentences].background = para_bg;
		narr_sentence(cx, text, start, end, next, &v[a->n_sentences++]);
		para = false;
		for (const char *q = end; q < next; q++)
			para = para || (q[0] == '\n' && memchr(q + 1, '\n', (size_t)(next - q - 1)));
		p = next;
	}
}

/* Check the shape of a say or intro N: a text, or a list of parts, each a text or a list of
 * alternative texts. */
void
load_narr_schema(struct scn_load *ld, const struct yamlpos_node *n)
{
	if (n->kind == YAMLPOS_SCALAR)
		return;
	if (n->kind == YAMLPOS_MAP) {
		load_at(ld, n, "'%s' takes a text, or a list of parts (each a text or a list of "
			    "alternative texts), not a mapping", n->key);
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		if (c->kind == YAMLPOS_MAP)
			load_at(ld, c, "part %zu of '%s' takes a text or a list of alternative "
				    "texts, not a mapping", c->index + 1, n->key);
		if (c->kind != YAMLPOS_SEQ)
			continue;
		for (const struct yamlpos_node *a = yamlpos_first(ld->ix, c); a != NULL;
		     a = yamlpos_next(ld->ix, a))
			if (a->kind != YAMLPOS_SCALAR)
				load_at(ld, a, "alternative %zu of part %zu of '%s' takes a text, "
					    "not %s", a->index + 1, c->index + 1, n->key,
					    a->kind == YAMLPOS_SEQ ? "a list" : "a mapping");
	}
}

/* Read alternative text node A (a scalar) of part p. */
static void
narr_alt(struct narr_ctx *cx, const struct yamlpos_node *a, struct scn_part *p)
{
	struct scn_alt *v = realloc(p->alts, (p->n_alts + 1) * sizeof *v);

	if (v == NULL) {
		cx->ld->oom = true;
		return;
	}
	p->alts = v;
	memset(&v[p->n_alts], 0, sizeof v[p->n_alts]);
	narr_at_node(cx, a);
	if (a->value != NULL && !a->is_null)
		narr_text(cx, a->value, &v[p->n_alts]);
	p->n_alts++;
	/* An alternative after the first is shown where the first is false: it must say why. */
	if (p->n_alts > 1) {
		const struct scn_alt *alt = &v[p->n_alts - 1];
		size_t claims = 0;
		for (size_t i = 0; i < alt->n_sentences; i++)
			claims += alt->sentences[i].n_claims;
		if (claims == 0)
			load_at(cx->ld, a, "alternative %zu in %s rests on no fact, so it would "
				    "hide any difference: name what makes it true here ([fs = tmpfs], "
				    "{cache.pages = 0})", p->n_alts, cx->where);
	}
}

/* Read say or intro N (NULL: none) into out. ST is the step (NULL for the intro), WHERE names
 * the text in messages ("the say of step 3"). */
void
load_narr_parse(struct scn_load *ld, struct scn_narration *out, const struct yamlpos_node *n,
		    const struct scn_step *st, const char *where)
{
	/* A sweep's say rests on the environment and on its own rows ([O_SYNC@1 > plain@1]);
	 * its counts are its parameters. An intro may rest on the environment only: where it
	 * teaches in general, its sentences are marked [background]. */
	struct narr_ctx cx = { .ld = ld, .node = n, .st = st, .where = where,
			       .rule = st == NULL ? SCN_NARR_IN_INTRO : st->op == SCN_OP_SWEEP ?
			       SCN_NARR_IN_SWEEP : SCN_NARR_IN_STEP };
	size_t np;

	if (n == NULL || (n->kind == YAMLPOS_SCALAR && (n->is_null || n->value == NULL)))
		return;
	np = n->kind == YAMLPOS_SEQ ? n->n_children : 1;
	out->parts = calloc(np, sizeof *out->parts);
	if (out->parts == NULL) {
		ld->oom = true;
		return;
	}
	if (n->kind == YAMLPOS_SCALAR) {
		narr_alt(&cx, n, &out->parts[out->n_parts++]);
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		struct scn_part *p = &out->parts[out->n_parts++];
		if (c->kind == YAMLPOS_SCALAR)
			narr_alt(&cx, c, p);
		else if (c->kind == YAMLPOS_SEQ)
			for (const struct yamlpos_node *a = yamlpos_first(ld->ix, c); a != NULL;
			     a = yamlpos_next(ld->ix, a))
				if (a->kind == YAMLPOS_SCALAR)
					narr_alt(&cx, a, p);
	}
}

/* The text of say or intro N as written, its parts' first alternatives joined by spaces (a
 * heap string; NULL when there is none). */
char *
load_narr_text(struct scn_load *ld, const struct yamlpos_node *n)
{
	char *out = NULL;
	size_t len = 0;

	if (n == NULL || (n->kind == YAMLPOS_SCALAR && (n->is_null || n->value == NULL)))
		return NULL;
	if (n->kind == YAMLPOS_SCALAR)
		return load_value_strdup(ld, n->value);
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, n); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		const struct yamlpos_node *a = c->kind == YAMLPOS_SEQ ? yamlpos_first(ld->ix, c) : c;
		const char *t = a != NULL && a->kind == YAMLPOS_SCALAR && a->value != NULL ?
				a->value : "";
		size_t n2 = strlen(t);
		char *v = realloc(out, len + n2 + 2);
		if (v == NULL) {
			free(out);
			ld->oom = true;
			return NULL;
		}
		out = v;
		if (len > 0)
			out[len++] = ' ';
		memcpy(out + len, t, n2 + 1);
		len += n2;
		while (len > 0 && isspace((unsigned char)out[len - 1]))
			out[--len] = '\0';
	}
	return out;
}

/* Free what a narration owns. */
void
load_narr_free(struct scn_narration *nr)
{
	for (size_t i = 0; i < nr->n_parts; i++) {
		struct scn_part *p = &nr->parts[i];
		for (size_t j = 0; j < p->n_alts; j++) {
			struct scn_alt *a = &p->alts[j];
			for (size_t k = 0; k < a->n_sentences; k++) {
				struct scn_sentence *s = &a->sentences[k];
				for (size_t m = 0; m < s->n_pieces; m++)
					free(s->pieces[m].text);
				for (size_t m = 0; m < s->n_claims; m++) {
					free(s->claims[m].want.str);
					free(s->claims[m].want.source);
					for (size_t v = 0; v < s->claims[m].cond.n_values; v++)
						free(s->claims[m].cond.values[v]);
					free(s->claims[m].cond.values);
				}
				free(s->pieces);
				free(s->claims);
				free(s->counts);
			}
			free(a->sentences);
		}
		free(p->alts);
	}
	free(nr->parts);
	nr->parts = NULL;
	nr->n_parts = 0;
}
