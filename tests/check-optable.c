/* SPDX-License-Identifier: MIT */
/* check-optable.c: an op is one entry: a build with "poke" added (test-op.h) loads it, runs it,
 * writes it as C, and every check of every op (test-ops.c) counts it. */
#include <config.h>

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/describe.h"
#include "export/program.h"
#include "lesson/expect.h"
#include "engine/runner.h"
#include "scenario/scenario.h"
#include "scratch/scratch.h"
#include "test-ops.h"
#include "test-util.h"

/* A scenario using poke, with the file it is in. */
static const char test_poke_yaml[] =
	"title: poke\n"
	"steps:\n"
	"  - open: {flags: [O_WRONLY, O_CREAT]}\n"
	"  - poke: {bytes: 100, text: p}\n"
	"    expect: {result.value: 100, bytes.written: 100}\n"
	"  - close: {}\n";

/* Write TEXT to NAME in scratch dir IDX; return its path in buf. */
static const char *
write_scenario(int idx, const char *name, const char *text, char *buf, size_t len)
{
	int fd = scratch_create(idx, name, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_ptr_nonnull(scratch_path(idx, name, buf, len));
	return buf;
}

/* Load TEXT expecting failure; return the errors (caller frees). */
static char *
load_fail(int idx, const char *name, const char *text)
{
	char path[4096];
	struct scenario *s = NULL;
	char *err = NULL;

	write_scenario(idx, name, text, path, sizeof path);
	ck_assert_int_eq(load_scenario(path, &s, &err), -1);
	ck_assert_ptr_nonnull(err);
	return err;
}

/* The extra op is in the table, after every op of the real list. */
START_TEST(test_poke_in_table)
{
	ck_assert_int_eq(SCN_OP_POKE, SCN_OP__COUNT - 1);
	ck_assert_str_eq(scenario_op_name(SCN_OP_POKE), "poke");
	ck_assert(!scenario_op_is_stdio(SCN_OP_POKE));
	/* Its run and emit columns are the worker's and export's own tables: test_poke_runs and
	 * test_poke_loads (its line) and the program below show them. */
	ck_assert(scenario_op_has(SCN_OP_POKE, SCN_OPF_FD));
}
END_TEST

/* The loader knows its name and arguments, and which is required, from its entry alone. */
START_TEST(test_poke_loads)
{
	int idx = scratch_mkdir(NULL);
	char path[4096], buf[128];
	struct scenario *s = NULL;
	char *err = NULL;

	ck_assert_int_ge(idx, 0);
	write_scenario(idx, "poke.yaml", test_poke_yaml, path, sizeof path);
	ck_assert_msg(load_scenario(path, &s, &err) == 0, "%s", err ? err : "?");
	ck_assert_int_eq(s->steps[1].op, SCN_OP_POKE);
	ck_assert_uint_eq(s->steps[1].args.bytes, 100);
	ck_assert_str_eq(s->steps[1].args.text, "p");
	ck_assert_str_eq(describe_step(&s->steps[1], buf, sizeof buf), "poke(fd, 100)");
	load_scenario_free(s);

	err = load_fail(idx, "a.yaml", "title: t\nsteps:\n  - poke: {}\n");
	ck_assert_ptr_nonnull(strstr(err, ":3:5: poke in step 1 needs bytes\n"));
	free(err);
	err = load_fail(idx, "b.yaml", "title: t\nsteps:\n  - poke: {count: 1}\n");
	ck_assert_ptr_nonnull(strstr(err, ":3:12: unknown argument 'count' for poke in step 1 "
				      "(poke takes: bytes, text)\n"));
	free(err);
	err = load_fail(idx, "c.yaml", "title: t\nsteps:\n  - pokee: {bytes: 1}\n");
	ck_assert_ptr_nonnull(strstr(err, ":3:5: unknown op 'pokee' in step 1 (did you mean "
				      "'poke'?)\n"));
	free(err);
	scratch_remove(idx);
}
END_TEST

/* The runner runs it in the worker and its expectations are checked. */
START_TEST(test_poke_runs)
{
	int idx = scratch_mkdir(NULL);
	char path[4096];
	struct runner_opts o = { .dir = NULL, .trace = RUNNER_TRACE_AUTO };
	struct step_result res[3];
	struct scenario *s = NULL;
	struct runner *r;
	char *err = NULL;

	ck_assert_int_ge(idx, 0);
	write_scenario(idx, "poke.yaml", test_poke_yaml, path, sizeof path);
	ck_assert_int_eq(load_scenario(path, &s, &err), 0);
	r = runner_new(s, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(runner_step(r, &res[i]), 1);
	ck_assert_int_eq(res[1].ret, 100);
	ck_assert_int_eq(res[1].err, 0);
	ck_assert_int_eq(expect_eval(&res[1]), 0);
	ck_assert_msg(res[1].ok, "poke's expectations failed: got %s", text_str(&res[1].expects[0].got_text));
	for (size_t i = 0; i < 3; i++)
		step_result_clear(&res[i]);
	runner_free(r);
	load_scenario_free(s);
	scratch_remove(idx);
}
END_TEST

/* Every check of every op finds poke by itself: its example loads, its line and statements
 * are written, the schema takes its name, the quiz has questions for it; and the docs check
 * says it has no row in doc/scenarios.md (this build's op is not documented). */
START_TEST(test_poke_counted)
{
	char undocumented[1024];
	struct scenario *s;
	struct program *p;
	size_t last;
	int asked = 0;

	ck_assert_int_eq(test_ops_check_all(undocumented, sizeof undocumented), SCN_OP__COUNT);
	ck_assert_str_eq(undocumented, "poke");
	s = test_ops_example(SCN_OP_POKE);
	last = s->n_steps - 1;
	p = program_new(s);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->lines[p->first[last]], "\tmemset(rbuf, 120, 100);   /* poke */");
	ck_assert_str_eq(p->lines[p->first[last] + 1], "\tcheck(\"write\", write(fd, rbuf, 100));");
	for (size_t i = 0; i < p->n_lines; i++)
		if (strstr(p->lines[i], "static _Alignas(4096) char rbuf[4096];") != NULL)
			asked++;
	ck_assert_int_eq(asked, 1);
	/* The quiz asks of poke what it asks of any op: every key with a question applies. */
	asked = 0;
	for (int k = 0; k < SCN_KEY__COUNT; k++)
		asked += scn_key_table[k].question != NULL && scenario_key_applies(k, SCN_OP_POKE);
	ck_assert_int_gt(asked, 0);
	ck_assert(scenario_key_applies(SCN_KEY_BYTES_WRITTEN, SCN_OP_POKE));
	ck_assert(!scenario_key_applies(SCN_KEY_EXIT_STATUS, SCN_OP_POKE));
	program_free(p);
	load_scenario_free(s);
}
END_TEST

/* The suite: the extra op in the table, loaded, run, counted. */
static Suite *
optable_suite(void)
{
	Suite *s = suite_create("optable");
	TCase *tc = tcase_create("poke");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_poke_in_table);
	tcase_add_test(tc, test_poke_loads);
	tcase_add_test(tc, test_poke_runs);
	tcase_add_test(tc, test_poke_counted);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(optable_suite());
}
