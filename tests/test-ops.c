/* SPDX-License-Identifier: MIT */
/* test-ops.c: every op of the op table, found there: an example of each, checked in every layer. */
#include <config.h>

#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/describe.h"
#include "export/emit.h"
#include "export/program.h"
#include "load/load-int.h"
#include "test-ops.h"
#include "test-util.h"

/* Load text (a scenario) from a file; NULL with the loader's message in *err. */
static struct scenario *
test_ops_load(const char *text, char **err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	struct scenario *s = NULL;
	int fd;

	snprintf(path, sizeof path, "%s/test-ops.XXXXXX", dir != NULL && dir[0] ? dir : "/tmp");
	fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	if (load_scenario(path, &s, err) != 0)
		s = NULL;
	unlink(path);
	return s;
}

/* Append op's step, its required arguments and extra (an optional one, or NONE) to buf. */
static void
test_ops_step(enum scn_op op, enum scn_arg extra, char *buf, size_t len)
{
	const struct scn_op_entry *e = &scn_op_table[op];
	size_t n = strlen(buf);
	bool one = false, first = true;

	if (e->form == SCN_FORM_TEXT) {
		snprintf(buf + n, len - n, "  - %s: \"[background] narration\"\n", e->name);
		return;
	}
	if (e->form == SCN_FORM_SWEEP) {
		snprintf(buf + n, len - n, "  - %s: {program: write, buffer_sizes: [4096], "
		         "file_size: 4KiB, repeat: 1, warmup: 0}\n", e->name);
		return;
	}
	n += (size_t)snprintf(buf + n, len - n, "  - %s: {", e->name);
	for (const struct scn_arg_use *u = e->args; u->arg != SCN_ARG_NONE && n < len; u++) {
		bool take = u->need == SCN_NEED_REQ || u->arg == extra ||
		            (u->need == SCN_NEED_ONE && !one);
		if (!take)
			continue;
		one |= u->need == SCN_NEED_ONE;
		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s", first ? "" : ", ",
		                      scn_arg_fields[u->arg].key, scn_arg_examples[u->arg]);
		first = false;
	}
	if (n < len)
		snprintf(buf + n, len - n, "}\n");
}

/* A scenario whose last step does op. */
struct scenario *
test_ops_example(enum scn_op op)
{
	const struct scn_op_entry *e = &scn_op_table[op];
	enum scn_arg extra[SCN_ARG__COUNT + 1] = { SCN_ARG_NONE };
	char text[2048], *err = NULL, *first_err = NULL;
	struct scenario *s = NULL;
	size_t n_extra = 1;

	for (const struct scn_arg_use *u = e->args; u->arg != SCN_ARG_NONE; u++)
		if (u->need == SCN_NEED_OPT)
			extra[n_extra++] = u->arg;
	for (size_t i = 0; i < n_extra && s == NULL; i++) {
		/* An fd and a FILE* on it first, for the ops that act on one. */
		snprintf(text, sizeof text, "title: every op\nsteps:\n"
		         "  - open: {flags: [O_RDWR, O_CREAT]}\n  - fdopen: {mode: \"r+\"}\n");
		test_ops_step(op, extra[i], text, sizeof text);
		s = test_ops_load(text, &err);
		if (first_err == NULL)
			first_err = err;
		else
			free(err);
		err = NULL;
	}
	ck_assert_msg(s != NULL, "no example of %s loads: %s", e->name,
	              first_err != NULL ? first_err : "?");
	free(first_err);
	ck_assert_int_eq(s->steps[s->n_steps - 1].op, op);
	return s;
}

/* The pattern doc/transcript.schema.json gives a step's op, compiled. */
static void
test_ops_schema_pattern(regex_t *re)
{
	static const char key[] = "\"op\": {\"type\": \"string\", \"pattern\": \"";
	char path[4096], doc[65536], pat[256];
	FILE *f = fopen(test_util_src_path("doc/transcript.schema.json", path, sizeof path), "r");
	size_t n;
	const char *p;

	ck_assert_ptr_nonnull(f);
	n = fread(doc, 1, sizeof doc - 1, f);
	doc[n] = '\0';
	fclose(f);
	p = strstr(doc, key);
	ck_assert_msg(p != NULL, "the schema gives no pattern of an op");
	p += strlen(key);
	ck_assert_int_lt(strcspn(p, "\""), sizeof pat);
	snprintf(pat, sizeof pat, "%.*s", (int)strcspn(p, "\""), p);
	ck_assert_int_eq(regcomp(re, pat, REG_EXTENDED | REG_NOSUB), 0);
}

/* Check every op in every layer (see test-ops.h). */
int
test_ops_check_all(char *undocumented, size_t len)
{
	char path[4096], row[128], call[4096];
	FILE *f = fopen(test_util_src_path("doc/scenarios.md", path, sizeof path), "r");
	char *doc = calloc(1, 256 * 1024);
	regex_t re;
	int n = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_gt(fread(doc, 1, 256 * 1024 - 1, f), 0);
	fclose(f);
	test_ops_schema_pattern(&re);
	undocumented[0] = '\0';
	for (int op = 0; op < SCN_OP__COUNT; op++, n++) {
		const char *name = scenario_op_name(op);
		struct scenario *s = test_ops_example(op);
		const struct scn_step *st = &s->steps[s->n_steps - 1];
		struct program *p = program_new(s);
		struct emit e;

		describe_step(st, call, sizeof call);
		ck_assert_msg(call[0] != '\0' && strcmp(call, "?") != 0, "%s: no line of C", name);
		emit_step(st, s->n_steps, &e);
		ck_assert_msg(e.code.b.len > 0 && !e.code.b.nomem, "%s: no statement", name);
		emit_clear(&e);
		ck_assert_msg(p != NULL && p->first[s->n_steps - 1] < p->last[s->n_steps - 1],
		              "%s: no line in the program", name);
		ck_assert_msg(regexec(&re, name, 0, NULL, 0) == 0, "the schema refuses op %s", name);
		snprintf(row, sizeof row, "\n| `%s` |", name);
		if (strstr(doc, row) == NULL)
			snprintf(undocumented + strlen(undocumented), len - strlen(undocumented),
			         "%s%s", undocumented[0] ? ", " : "", name);
		program_free(p);
		load_scenario_free(s);
	}
	regfree(&re);
	free(doc);
	return n;
}
