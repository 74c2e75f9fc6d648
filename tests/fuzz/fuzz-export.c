/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz-export.c: libFuzzer target for the C emitter (make fuzz). Whatever loads is
 * written as C the way --export=c writes it (program_new, program_print), and that C holds to
 * the emitter's promise (issue 20.1):
 *  (a) it is well formed to a small C lexer of ours: every literal closed on its line, its
 *      escapes C's; every comment closed (and no comment opened in one, no line splice that
 *      could end it); no trigraph anywhere; no control byte, DEL or byte past ASCII but valid
 *      UTF-8 of printable characters in a comment; no line wider than FUZZ_LINE_MAX columns;
 *  (b) no text of the scenario is code: the same scenario with every text replaced by a
 *      marker gives the same tokens (literals and comments aside; a number after a text's
 *      literal may differ only as that literal's length), and each literal that is a marker
 *      there holds exactly the bytes of the marker's text here;
 *  (c) it compiles: 1 program in $FUZZ_EXPORT_SAMPLE (by a hash of the program; unset or 0:
 *      none, 1: every one, as make fuzz-export-compile runs the corpus; an input that loads
 *      ten times as often) is compiled with each compiler of $FUZZ_EXPORT_CC (default cc) and
 *      -std=c11 -Wall -Wextra -Werror -Wtrigraphs -fsyntax-only.
 * Each input is checked three times: as a scenario, and as the texts of a carrier scenario
 * that has every op that writes a text into the program (fuzz_carrier: most inputs are no
 * scenario, and any bytes are text), and of a flow-style one (fuzz_carrier_flow: one line,
 * two named streams with buffers of their own, a sweep: its helpers named by step). A broken promise aborts with why, where, the program and the
 * scenario (escaped).
 */
#include <config.h>

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/text.h"
#include "export/program.h"
#include "scenario/scenario.h"

/* The name the loader gives the input in its messages. */
#define FUZZ_NAME "fuzz.yaml"
/* Columns a line of the program may take (a tab to the next multiple of 8). */
#define FUZZ_LINE_MAX 120
/* A marker: a text's number among the scenario's texts between two bytes that no literal of
 * the emitter's own holds. */
#define FUZZ_MARK_OPEN '\001'
#define FUZZ_MARK_CLOSE '\002'

extern char **environ;
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How many inputs loaded, and how many of their programs were compiled (said at exit: the
 * harness's only state across inputs). */
static unsigned long fuzz_loaded, fuzz_compiled;

/* What a token of C is, as far as the checks need. */
enum fuzz_kind { FUZZ_ID, FUZZ_NUM, FUZZ_PUNCT, FUZZ_CHAR, FUZZ_LIT, FUZZ_COMMENT };

/* One token: where it is in the program; a string literal's bytes (adjacent ones joined). */
struct fuzz_tok {
	enum fuzz_kind kind;
	size_t at, len;
	char *bytes;
	size_t n_bytes, cap_bytes;
};

/* A program as text and tokens. */
struct fuzz_prog {
	const char *what;   /* "the program of the input", ... */
	const char *yaml;   /* the scenario it was made of */
	size_t yaml_len;
	char *text;
	size_t len;
	struct fuzz_tok *v;
	size_t n, cap;
};

/* The scenario's texts: where each is held, and what it held before a marker took its place. */
struct fuzz_texts {
	char ***slot;
	char **orig;
	size_t n, cap;
};

/* Write the n bytes of s to stderr with every byte outside printable ASCII as \xNN. */
static void
fuzz_put_escaped(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
}

/* Write the n bytes of s to stderr a line each, escaped. */
static void
fuzz_put_lines(const char *s, size_t n)
{
	for (size_t i = 0, start = 0; i <= n; i++)
		if (i == n || s[i] == '\n') {
			fuzz_put_escaped(s + start, i - start);
			fputc('\n', stderr);
			start = i + 1;
		}
}

/* Stop the fuzzer: why, the line of p at byte at (and p whole, escaped). */
static void __attribute__((noreturn, format(printf, 3, 4)))
fuzz_fail(const struct fuzz_prog *p, size_t at, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-export: %s%s", p != NULL ? p->what : "", p != NULL ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (p != NULL && p->text != NULL) {
		size_t start = at, end = at, line = 1;
		while (start > 0 && p->text[start - 1] != '\n')
			start--;
		while (end < p->len && p->text[end] != '\n')
			end++;
		for (size_t i = 0; i < start; i++)
			line += p->text[i] == '\n';
		fprintf(stderr, "\nat program line %zu, column %zu:\n", line, at - start + 1);
		fuzz_put_escaped(p->text + start, end - start);
		fprintf(stderr, "\n--- the program ---\n");
		fuzz_put_lines(p->text, p->len);
		fprintf(stderr, "--- the scenario ---\n");
		fuzz_put_lines(p->yaml, p->yaml_len);
	}
	fputc('\n', stderr);
	abort();
}

/* Length of the valid UTF-8 sequence at s (at most n bytes) into *cp, or 0 if none. */
static size_t
fuzz_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	uint32_t c = s[0] & (0x7f >> k);

	if (k == 0 || k > n || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < (k == 2 ? 0x80u : k == 3 ? 0x800u : 0x10000u) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return k;
}

/*
 * The checks on the program's bytes, whatever token they are in: no control byte but newline
 * and tab, no DEL, no trigraph, no line wider than FUZZ_LINE_MAX columns.
 */
static void
fuzz_check_bytes(const struct fuzz_prog *p)
{
	const unsigned char *u = (const unsigned char *)p->text;
	size_t col = 0;

	for (size_t i = 0; i < p->len; i++) {
		if (u[i] == '\n') {
			col = 0;
			continue;
		}
		if ((u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7f)
			fuzz_fail(p, i, "a raw control byte 0x%02x", u[i]);
		if (u[i] == '?' && i + 2 < p->len && u[i + 1] == '?' && strchr("=/'()!<>-", u[i + 2]))
			fuzz_fail(p, i, "a trigraph ??%c", u[i + 2]);
		col = u[i] == '\t' ? (col / 8 + 1) * 8 : col + ((u[i] & 0xc0) != 0x80);
		if (col > FUZZ_LINE_MAX)
			fuzz_fail(p, i, "a line wider than %d columns", FUZZ_LINE_MAX);
	}
}

/* Add a token to p. */
static struct fuzz_tok *
fuzz_add(struct fuzz_prog *p, enum fuzz_kind kind, size_t at, size_t len)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		if ((p->v = realloc(p->v, p->cap * sizeof *p->v)) == NULL)
			abort();
	}
	p->v[p->n] = (struct fuzz_tok){ .kind = kind, .at = at, .len = len };
	return &p->v[p->n++];
}

/* A comment from at (its "/" seen): closed, opening none inside, its characters printable. */
static size_t
fuzz_lex_comment(const struct fuzz_prog *p, size_t at)
{
	const unsigned char *u = (const unsigned char *)p->text;
	bool block = u[at + 1] == '*';
	size_t i = at + 2;

	for (;;) {
		uint32_t cp;
		size_t k;

		if (i == p->len || (!block && u[i] == '\n'))
			break;
		if (block && u[i] == '*' && i + 1 < p->len && u[i + 1] == '/')
			return i + 2 - at;
		if (block && u[i] == '/' && i + 1 < p->len && u[i + 1] == '*')
			fuzz_fail(p, i, "\"/*\" inside a comment");
		/* A line splice (a backslash, blanks, a newline) makes a line comment go on, and
		 * a block comment close if it joins '*' and '/'. */
		if (u[i] == '\\') {
			size_t k = i + 1;
			while (k < p->len && (u[k] == ' ' || u[k] == '\t'))
				k++;
			if (k < p->len && u[k] == '\n' && (!block || (i > 0 && u[i - 1] == '*' &&
			                                               k + 1 < p->len && u[k + 1] == '/')))
				fuzz_fail(p, i, "a line splice in a comment");
		}
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = fuzz_utf8(u + i, p->len - i, &cp)) == 0)
			fuzz_fail(p, i, "a byte 0x%02x in a comment that is not UTF-8", u[i]);
		if (text_is_control(cp))
			fuzz_fail(p, i, "the control U+%04X in a comment", (unsigned)cp);
		i += k;
	}
	if (block)
		fuzz_fail(p, at, "a comment that is never closed");
	return i - at;
}

/*
 * A string or character literal from at (its quote seen), closed on its line, its escapes
 * C's, no raw tab or byte past ASCII; a string's bytes appended to t's.
 */
static size_t
fuzz_lex_literal(const struct fuzz_prog *p, size_t at, struct fuzz_tok *t)
{
	const unsigned char *u = (const unsigned char *)p->text;
	unsigned char q = u[at];
	size_t i = at + 1;

	for (;;) {
		unsigned v;

		if (i == p->len || u[i] == '\n')
			fuzz_fail(p, at, "a literal not closed on its line");
		if (u[i] == q)
			return i + 1 - at;
		if (u[i] < 0x20 || u[i] >= 0x7f)
			fuzz_fail(p, i, "a raw byte 0x%02x in a literal", u[i]);
		if (u[i] != '\\') {
			v = u[i++];
		} else if (i + 1 < p->len && strchr("\"'?\\abfnrtv", u[i + 1]) != NULL &&
		           u[i + 1] != '\0') {
			v = (unsigned char)"\"'?\\\a\b\f\n\r\t\v"[strchr("\"'?\\abfnrtv", u[i + 1]) -
			                                            "\"'?\\abfnrtv"];
			i += 2;
		} else if (i + 1 < p->len && u[i + 1] >= '0' && u[i + 1] <= '7') {
			v = 0;
			for (size_t k = ++i; i < p->len && i < k + 3 && u[i] >= '0' && u[i] <= '7'; i++)
				v = v * 8 + (u[i] - '0');
			if (v > 0xff)
				fuzz_fail(p, i, "an octal escape past 0377");
		} else if (i + 2 < p->len && u[i + 1] == 'x' && strchr("0123456789abcdefABCDEF",
		                                                     u[i + 2]) && u[i + 2] != '\0') {
			v = 0;
			for (i += 2; i < p->len && u[i] != '\0' && strchr("0123456789abcdefABCDEF", u[i]);
			     i++)
				if ((v = v * 16 + (unsigned)(u[i] <= '9' ? u[i] - '0' : (u[i] | 0x20) - 'a' + 10))
				    > 0xff)
					fuzz_fail(p, i, "a hex escape past 0xff");
		} else {
			fuzz_fail(p, i, "an escape C does not have");
		}
		if (t != NULL) {
			if (t->n_bytes + 1 >= t->cap_bytes) {   /* room for fuzz_terminate's NUL */
				t->cap_bytes = t->cap_bytes ? t->cap_bytes * 2 : 64;
				if ((t->bytes = realloc(t->bytes, t->cap_bytes)) == NULL)
					abort();
			}
			t->bytes[t->n_bytes++] = (char)v;
		}
	}
}

/* Split p's text into tokens (fuzz_fail on what is not C as the emitter means it). */
static void
fuzz_lex(struct fuzz_prog *p)
{
	const char *s = p->text;
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	fuzz_check_bytes(p);
	while (i < p->len) {
		size_t n = 1;

		if (strchr(" \t\n", s[i]) != NULL) {
			i++;
			continue;
		}
		if (s[i] == '/' && i + 1 < p->len && (s[i + 1] == '*' || s[i + 1] == '/')) {
			n = fuzz_lex_comment(p, i);
			fuzz_add(p, FUZZ_COMMENT, i, n);
		} else if (s[i] == '"') {
			struct fuzz_tok *t;
			if (p->n > 0 && p->v[p->n - 1].kind == FUZZ_ID && p->v[p->n - 1].at +
			    p->v[p->n - 1].len == i)
				fuzz_fail(p, i, "a literal with a prefix");
			/* Literals apart only by blanks are one (C joins them). */
			if (p->n > 0 && p->v[p->n - 1].kind == FUZZ_LIT &&
			    strspn(s + p->v[p->n - 1].at + p->v[p->n - 1].len, " \t\n") ==
			    i - p->v[p->n - 1].at - p->v[p->n - 1].len)
				t = &p->v[p->n - 1];
			else
				t = fuzz_add(p, FUZZ_LIT, i, 0);
			n = fuzz_lex_literal(p, i, t);
			t->len = i + n - t->at;
		} else if (s[i] == '\'') {
			n = fuzz_lex_literal(p, i, NULL);
			fuzz_add(p, FUZZ_CHAR, i, n);
		} else if ((s[i] >= '0' && s[i] <= '9') ||
		           (s[i] == '.' && i + 1 < p->len && s[i + 1] >= '0' && s[i + 1] <= '9')) {
			while (i + n < p->len && (strchr("0123456789abcdefghijklmnopqrstuvwxyz"
			                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ_.", s[i + n]) ||
			                          (strchr("+-", s[i + n]) && strchr("eEpP", s[i + n - 1]))) &&
			       s[i + n] != '\0')
				n++;
			fuzz_add(p, FUZZ_NUM, i, n);
		} else if (s[i] == '_' || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')) {
			while (i + n < p->len && s[i + n] != '\0' &&
			       strchr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_",
			              s[i + n]))
				n++;
			fuzz_add(p, FUZZ_ID, i, n);
		} else if (u[i] >= 0x80 || strchr("@$`\\", s[i]) != NULL) {
			fuzz_fail(p, i, "a byte 0x%02x that is no C token", u[i]);
		} else {
			fuzz_add(p, FUZZ_PUNCT, i, 1);
		}
		i += n;
	}
}

/* Export s as --export=c does, into p (text and tokens). */
static void
fuzz_export(const struct scenario *s, struct fuzz_prog *p, const char *what, const char *yaml,
            size_t yaml_len)
{
	struct program *prog = program_new(s);
	FILE *f;

	*p = (struct fuzz_prog){ .what = what, .yaml = yaml, .yaml_len = yaml_len };
	if (prog == NULL)
		fuzz_fail(NULL, 0, "program_new failed");
	if ((f = open_memstream(&p->text, &p->len)) == NULL || program_print(prog, f) != 0 ||
	    fclose(f) != 0)
		fuzz_fail(NULL, 0, "program_print failed");
	program_free(prog);
	if (memchr(p->text, '\0', p->len) != NULL)
		fuzz_fail(p, (size_t)((char *)memchr(p->text, '\0', p->len) - p->text), "a NUL byte");
}

/* Free p. */
static void
fuzz_prog_free(struct fuzz_prog *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].bytes);
	free(p->v);
	free(p->text);
}

/* Note a text of the scenario (NULL: none to note). */
static void
fuzz_text(struct fuzz_texts *x, char **slot)
{
	if (*slot == NULL)
		return;
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 256;
		if ((x->slot = realloc(x->slot, x->cap * sizeof *x->slot)) == NULL ||
		    (x->orig = realloc(x->orig, x->cap * sizeof *x->orig)) == NULL)
			abort();
	}
	x->slot[x->n] = slot;
	x->orig[x->n++] = *slot;
}

/* Note the texts of n expectations. */
static void
fuzz_expects(struct fuzz_texts *x, struct scn_expect *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fuzz_text(x, &v[i].str);
		fuzz_text(x, &v[i].source);
	}
}

/* Note every text of s (the names as: gives are identifiers: the loader's rule). */
static void
fuzz_texts(struct scenario *s, struct fuzz_texts *x)
{
	fuzz_text(x, &s->title);
	fuzz_text(x, &s->source);
	fuzz_text(x, &s->intro);
	for (size_t i = 0; i < s->n_steps; i++) {
		struct scn_step *st = &s->steps[i];
		struct scn_args *a = &st->args;

		fuzz_text(x, &st->say);
		fuzz_text(x, &st->ask);
		fuzz_text(x, &a->text);
		fuzz_text(x, &a->text2);
		fuzz_text(x, &a->program);
		fuzz_text(x, &a->stdin_path);
		for (size_t k = 0; k < a->n_argv; k++)
			if (strcmp(a->argv[k], "{file}") != 0)   /* the scratch file's path: code */
				fuzz_text(x, &a->argv[k]);
		fuzz_expects(x, st->expects, st->n_expects);
		for (size_t k = 0; k < st->n_cases; k++) {
			fuzz_text(x, &st->cases[k].say);
			fuzz_expects(x, st->cases[k].expects, st->cases[k].n_expects);
		}
		if (st->sweep == NULL)
			continue;
		fuzz_text(x, &st->sweep->title);
		for (size_t k = 0; k < st->sweep->n_variants; k++)
			fuzz_text(x, &st->sweep->variants[k].name);
		for (size_t k = 0; k < st->sweep->n_references; k++) {
			fuzz_text(x, &st->sweep->references[k].label);
			fuzz_text(x, &st->sweep->references[k].source);
			fuzz_text(x, &st->sweep->references[k].variant);
		}
	}
}

/* Put a marker in place of every text of x (fuzz_unmark puts them back). */
static void
fuzz_mark(struct fuzz_texts *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (asprintf(x->slot[i], "%c%zu%c", FUZZ_MARK_OPEN, i, FUZZ_MARK_CLOSE) < 0)
			abort();
}

/* Put the texts back in place of the markers. */
static void
fuzz_unmark(struct fuzz_texts *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(*x->slot[i]);
		*x->slot[i] = x->orig[i];
	}
}

/* The text a literal of the marked program is the marker of, or -1 if it holds no marker. */
static long
fuzz_marker(const struct fuzz_prog *m, const struct fuzz_tok *t, const struct fuzz_texts *x)
{
	char tail;
	size_t k;
	int n = -1;

	if (t->n_bytes == 0 || memchr(t->bytes, FUZZ_MARK_OPEN, t->n_bytes) == NULL)
		return -1;
	if (t->n_bytes < 3 || t->bytes[0] != FUZZ_MARK_OPEN ||
	    memchr(t->bytes, '\0', t->n_bytes) != NULL ||
	    sscanf(t->bytes + 1, "%zu%c%n", &k, &tail, &n) != 2 || tail != FUZZ_MARK_CLOSE ||
	    (size_t)n + 1 != t->n_bytes || k >= x->n)
		fuzz_fail(m, t->at, "a literal holds a scenario text with more around it");
	return (long)k;
}

/* The bytes of a literal as a string (for sscanf: the literal is NUL-terminated then). */
static void
fuzz_terminate(struct fuzz_prog *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].kind == FUZZ_LIT && p->v[i].bytes != NULL)
			p->v[i].bytes[p->v[i].n_bytes] = '\0';
}

/*
 * r (the scenario's program) and m (the same with markers) are the same C but for what the
 * texts change: literals that are a marker in m hold the marker's text in r; a number after
 * "LITERAL," is that literal's length in both; everything else is the same token.
 */
static void
fuzz_compare(const struct fuzz_prog *r, const struct fuzz_prog *m, const struct fuzz_texts *x)
{
	size_t n = r->n < m->n ? r->n : m->n;

	for (size_t i = 0; i < n; i++) {
		const struct fuzz_tok *a = &r->v[i], *b = &m->v[i];

		if (a->kind != b->kind || (a->kind != FUZZ_LIT && a->kind != FUZZ_COMMENT &&
		    a->kind != FUZZ_NUM && (a->len != b->len || memcmp(r->text + a->at,
		                                                       m->text + b->at, a->len) != 0))) {
			fprintf(stderr, "fuzz-export: with markers in place of the texts, this token is ");
			fuzz_put_escaped(m->text + b->at, b->len < 80 ? b->len : 80);
			fuzz_fail(r, a->at, "a scenario text changes the program's code");
		}
		if (a->kind == FUZZ_LIT) {
			long k = fuzz_marker(m, b, x);
			const char *want = k >= 0 ? x->orig[k] : b->bytes;
			size_t len = k >= 0 ? strlen(x->orig[k]) : b->n_bytes;
			if (a->n_bytes != len || (len > 0 && memcmp(a->bytes, want, len) != 0))
				fuzz_fail(r, a->at, "a literal does not hold %s", k >= 0 ?
				          "its scenario text's bytes" : "what it holds without the texts");
		}
		if (a->kind == FUZZ_NUM && (a->len != b->len || memcmp(r->text + a->at,
		                                                       m->text + b->at, a->len) != 0)) {
			/* A text's length: "LITERAL, N" with N its bytes, in both programs. */
			char want[32], wantm[32];
			if (i < 2 || r->v[i - 2].kind != FUZZ_LIT || r->text[r->v[i - 1].at] != ',' ||
			    r->v[i - 1].kind != FUZZ_PUNCT)
				fuzz_fail(r, a->at, "a scenario text changes a number of the program");
			snprintf(want, sizeof want, "%zu", r->v[i - 2].n_bytes);
			snprintf(wantm, sizeof wantm, "%zu", m->v[i - 2].n_bytes);
			if (a->len != strlen(want) || memcmp(r->text + a->at, want, a->len) != 0 ||
			    b->len != strlen(wantm) || memcmp(m->text + b->at, wantm, b->len) != 0)
				fuzz_fail(r, a->at, "the length after a literal is not its length (%s)", want);
		}
	}
	if (r->n != m->n)
		fuzz_fail(r, n < r->n ? r->v[n].at : r->len, "a scenario text changes the number of "
		          "the program's tokens (%zu, %zu with markers)", r->n, m->n);
}

/* 1 program in how many to compile ($FUZZ_EXPORT_SAMPLE; 0: none). */
static unsigned long
fuzz_sample(void)
{
	const char *e = getenv("FUZZ_EXPORT_SAMPLE");

	return e != NULL ? strtoul(e, NULL, 10) : 0;
}

/* Compile p with each compiler of $FUZZ_EXPORT_CC (default cc): it must pass with no warning. */
static void
fuzz_compile(const struct fuzz_prog *p)
{
	const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	char path[4096], ccs[256], *save = NULL;
	int fd;

	snprintf(path, sizeof path, "%s/fuzz-export-XXXXXX.c", tmp);
	snprintf(ccs, sizeof ccs, "%s", getenv("FUZZ_EXPORT_CC") != NULL ?
	         getenv("FUZZ_EXPORT_CC") : "cc");
	if ((fd = mkstemps(path, 2)) == -1 || write(fd, p->text, p->len) != (ssize_t)p->len ||
	    close(fd) != 0)
		fuzz_fail(NULL, 0, "cannot write %s", path);
	for (char *cc = strtok_r(ccs, " ", &save); cc != NULL; cc = strtok_r(NULL, " ", &save)) {
		char *argv[] = { cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wtrigraphs",
		                 "-fsyntax-only", path, NULL };
		pid_t pid, w = -1;
		int st = 0, rc = posix_spawnp(&pid, cc, NULL, NULL, argv, environ);

		/* libFuzzer's timer (-timeout) interrupts the wait every second. */
		while (rc == 0 && (w = waitpid(pid, &st, 0)) == -1 && errno == EINTR)
			continue;
		if (rc != 0 || w != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			unlink(path);
			fuzz_fail(p, 0, "%s -std=c11 -Wall -Wextra -Werror -Wtrigraphs does not compile "
			          "the program (%s)", cc, rc != 0 ? strerror(rc) : w != pid ?
			          strerror(errno) : WIFEXITED(st) ? "see above" : "killed");
		}
	}
	unlink(path);
}

/* Say at exit how many programs were checked and compiled. */
static void
fuzz_counts(void)
{
	fprintf(stderr, "fuzz-export: %lu programs checked, %lu of them compiled\n", fuzz_loaded,
	        fuzz_compiled);
}

/* Before the first input. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	atexit(fuzz_counts);
	return 0;
}

/*
 * The carrier scenario: every op that writes a text of the scenario into the program (and
 * those of them that act on a named pair, on one), each text a piece of the input (split at
 * NUL bytes) after a letter of its own (no text is left empty). The fuzzer's bytes reach the
 * emitter as texts even when they are no scenario.
 */
static const char *const fuzz_carrier[] = {
	"title: \"T", "\"\nsource: \"S",
	"\"\nsteps:\n  - open: {flags: [O_RDWR, O_CREAT]}\n  - write: {text: \"W",
	"\"}\n  - pwrite: {text: \"P", "\", offset: 1GiB}\n  - note: \"N",
	"\"\n  - fdopen: {mode: \"r+\"}\n  - fputs: {text: \"F", "\"}\n  - printf: {text: \"R",
	/* A named pair of the longest name: its names come into the code after the layout. */
	("\"}\n  - fclose: {}\n  - open: {flags: [O_RDWR, O_CREAT]}\n    as: pair_of_fifteen\n"
	 "  - pwrite: {text: \"Q"), "\", offset: 1GiB}\n    on: pair_of_fifteen\n"
	"  - fdopen: {mode: \"r+\"}\n    on: pair_of_fifteen\n  - fputs: {text: \"U",
	"\"}\n    on: pair_of_fifteen\n  - printf: {text: \"X",
	"\"}\n    on: pair_of_fifteen\n  - pty: {printf: \"Y", "\", write: \"Z",
	"\"}\n  - run: {program: \"G", "\", args: [\"A", "\", \"{file}\", \"B", "\"], stdin: \"I",
	"\"}\n  - sweep:\n      title: \"K",
	("\"\n      program: write\n      buffer_sizes: [4096]\n      file_size: 64KiB\n"
	 "      variants: [{name: \"L"), "\"}, {name: \"M", "\"}]\n",
};

/*
 * The flow-style carrier: every step on one line (steps: [...]), two named streams each with
 * a buffer of its own, their texts pieces of the input. Its helpers must be named by step:
 * by line, both streams' buffers were one vbufN (issue 30.5).
 */
static const char *const fuzz_carrier_flow[] = {
	"title: \"T",
	("\"\nsteps: [{fopen: {mode: \"w\"}, as: a}, {setvbuf: {mode: full, size: 1024, buffer: own}, "
	 "on: a}, {fopen: {file: b.txt, mode: \"w\"}, as: b}, {setvbuf: {mode: full, size: 1024, "
	 "buffer: own}, on: b}, {fputs: {text: \"A"), "\"}, on: a}, {fputs: {text: \"B",
	("\"}, on: b}, {setbuffer: {size: 4096, buffer: own}}, {fclose: {}, on: a}, {fclose: {}, "
	 "on: b}, {sweep: {title: \"K"), ("\", program: write, buffer_sizes: [4096], file_size: "
	 "64KiB, variants: [{name: \"L"), "\"}]}}]\n",
};

/* Write the n bytes of p into f as the inside of a YAML double-quoted scalar: printable ASCII
 * as it is, UTF-8 as its code point, any other byte as the code point of its value. */
static void
fuzz_yaml_text(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0, k; i < n; i += k) {
		uint32_t cp;

		k = 1;
		if (p[i] >= 0x20 && p[i] < 0x7f)
			fprintf(f, "%s%c", p[i] == '"' || p[i] == '\\' ? "\\" : "", p[i]);
		else if (p[i] >= 0x80 && (k = fuzz_utf8(p + i, n - i, &cp)) > 0)
			fprintf(f, cp > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)cp);
		else
			fprintf(f, "\\x%02x", p[i]), k = 1;
	}
}

/* The carrier scenario c (n parts) holding the input's pieces (a heap string, *len bytes). */
static char *
fuzz_carry(const char *const *c, size_t n, const uint8_t *data, size_t size, size_t *len)
{
	const char *const *fuzz_carrier = c;
	char *yaml = NULL;
	FILE *f = open_memstream(&yaml, len);

	if (f == NULL)
		abort();
	fputs(fuzz_carrier[0], f);
	for (size_t i = 1; i < n; i++) {
		const uint8_t *nul = size > 0 ? memchr(data, '\0', size) : NULL;
		size_t k = nul != NULL ? (size_t)(nul - data) : size;

		fuzz_yaml_text(f, data, k);
		data += k + (nul != NULL);
		size -= k + (nul != NULL);
		fputs(fuzz_carrier[i], f);
	}
	if (fclose(f) != 0)
		abort();
	return yaml;
}

/* Check what the text (len bytes) exports, if it loads: as says what it is; 1 program in
 * sample is compiled (0: none). */
static void
fuzz_check(const char *text, size_t len, const char *as, unsigned long sample)
{
	struct scenario *s = NULL;
	struct fuzz_prog r, m;
	struct fuzz_texts x = { 0 };
	char *err = NULL, what[2][128];
	uint32_t h = 2166136261u;

	if (load_scenario_text(FUZZ_NAME, text, len, &s, &err) != 0) {
		free(err);   /* what the loader says is fuzz-load's to check */
		return;
	}
	free(err);
	fuzz_loaded++;
	snprintf(what[0], sizeof what[0], "the program of %s", as);
	snprintf(what[1], sizeof what[1], "the program of %s, markers in place of its texts", as);
	fuzz_export(s, &r, what[0], text, len);
	fuzz_lex(&r);
	fuzz_texts(s, &x);
	fuzz_mark(&x);
	fuzz_export(s, &m, what[1], text, len);
	fuzz_unmark(&x);
	fuzz_lex(&m);
	fuzz_terminate(&m);
	fuzz_compare(&r, &m, &x);
	for (size_t i = 0; i < r.len; i++)   /* FNV-1a: the same program, the same choice */
		h = (h ^ (unsigned char)r.text[i]) * 16777619u;
	if (sample > 0 && h % sample == 0) {
		fuzz_compile(&r);
		fuzz_compiled++;
	}
	fuzz_prog_free(&r);
	fuzz_prog_free(&m);
	free(x.slot);
	free(x.orig);
	load_scenario_free(s);
}

/* One input: as a scenario, and as the texts of the carrier scenario. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;
	char *carrier = fuzz_carry(fuzz_carrier, sizeof fuzz_carrier / sizeof fuzz_carrier[0],
	                           data, size, &len);

	/* An input that loads is rarer than the carrier, and its program's shape its own: it is
	 * compiled ten times as often. */
	fuzz_check((const char *)data, size, "the input", (fuzz_sample() + 9) / 10);
	fuzz_check(carrier, len, "the carrier scenario (the input's pieces its texts)",
	           fuzz_sample());
	free(carrier);
	carrier = fuzz_carry(fuzz_carrier_flow, sizeof fuzz_carrier_flow / sizeof fuzz_carrier_flow[0],
	                     data, size, &len);
	fuzz_check(carrier, len, "the flow-style carrier (two streams, own buffers, one line)",
	           fuzz_sample());
	free(carrier);
	return 0;
}
