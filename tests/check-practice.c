/* SPDX-License-Identifier: MIT */
/* check-practice.c: practice generators: reproducible, varied, loadable; the model; scoring. */
#include <config.h>

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "practice/practice.h"
#include "scenario/scenario.h"
#include "test-util.h"

/* splitmix64 is the same everywhere: its published first outputs for seed 0. */
START_TEST(test_rand_reference)
{
	uint64_t st = 0;

	ck_assert_uint_eq(practice_rand(&st), 0xe220a8397b1dcdafu);
	ck_assert_uint_eq(practice_rand(&st), 0x6e789e6aa1b965f4u);
	ck_assert_uint_eq(practice_rand(&st), 0x06c45d188009454fu);
}
END_TEST

/* The same seed gives byte-identical scenario text and questions, twice. */
START_TEST(test_same_seed)
{
	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++)
		for (uint64_t seed = 0; seed < 50; seed++) {
			struct practice_problem a, b;
			ck_assert_int_eq(practice_generate(t, seed, &a), 0);
			ck_assert_int_eq(practice_generate(t, seed, &b), 0);
			ck_assert_uint_eq(a.yaml_len, b.yaml_len);
			ck_assert_mem_eq(a.yaml, b.yaml, a.yaml_len);
			ck_assert_uint_eq(a.n_q, b.n_q);
			ck_assert_mem_eq(a.q, b.q, a.n_q * sizeof a.q[0]);
			practice_problem_clear(&a);
			practice_problem_clear(&b);
		}
}
END_TEST

/* Different seeds give different problems: of 100 seeds, at least 95 distinct. */
START_TEST(test_seeds_differ)
{
	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++) {
		char *seen[100];
		size_t distinct = 0;

		for (uint64_t seed = 0; seed < 100; seed++) {
			struct practice_problem p;
			bool dup = false;
			ck_assert_int_eq(practice_generate(t, seed + 1, &p), 0);
			/* The title names the seed: compare from the steps on. */
			char *steps = strstr(p.yaml, "\nsteps:\n");
			ck_assert_ptr_nonnull(steps);
			for (size_t i = 0; i < distinct; i++)
				dup |= strcmp(seen[i], steps) == 0;
			if (!dup)
				seen[distinct++] = strdup(steps);
			practice_problem_clear(&p);
		}
		ck_assert_msg(distinct >= 95, "%s: only %zu distinct problems in 100 seeds", t->name,
		              distinct);
		for (size_t i = 0; i < distinct; i++)
			free(seen[i]);
	}
}
END_TEST

/* Every problem of seeds 1..200 of every topic loads: the loader is the judge. */
START_TEST(test_all_load)
{
	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++)
		for (uint64_t seed = 1; seed <= 200; seed++) {
			struct practice_problem p;
			struct scenario *s = NULL;
			char *err = NULL;

			ck_assert_int_eq(practice_generate(t, seed, &p), 0);
			ck_assert_msg(p.n_q >= 3, "%s seed %lu: %zu questions", t->name,
			              (unsigned long)seed, p.n_q);
			int rc = practice_load(&p, &s, &err);
			ck_assert_msg(rc == 0, "%s seed %lu does not load:\n%s\n%s", t->name,
			              (unsigned long)seed, err != NULL ? err : "?", p.yaml);
			for (size_t i = 0; i < p.n_q; i++)
				ck_assert_uint_lt(p.q[i].step, s->n_steps);
			load_scenario_free(s);
			practice_problem_clear(&p);
		}
}
END_TEST

/* At least three topics, each with a name and a summary, and found by name. */
START_TEST(test_topics)
{
	size_t n = 0;

	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++, n++) {
		ck_assert_ptr_eq(practice_topic_find(t->name), t);
		ck_assert_ptr_nonnull(t->summary);
	}
	ck_assert_uint_ge(n, 3);
	ck_assert_ptr_null(practice_topic_find("no-such-topic"));
}
END_TEST

/* Scoring: numbers by value, letters in either case, page sets as written; unanswered is wrong. */
START_TEST(test_score)
{
	struct practice_problem p;
	struct practice_answer a[4];
	const char *given[4];

	memset(&p, 0, sizeof p);
	memset(a, 0, sizeof a);
	p.n_q = 4;
	p.q[0].kind = PRACTICE_NUMBER;
	p.q[1].kind = PRACTICE_CHOICE;
	p.q[1].n_choices = 2;
	p.q[2].kind = PRACTICE_PAGES;
	p.q[2].n_choices = 3;
	p.q[3].kind = PRACTICE_NUMBER;
	a[0] = (struct practice_answer){ .seen = true, .text = "904" };
	a[1] = (struct practice_answer){ .seen = true, .text = "b", .detail = "EINVAL" };
	a[2] = (struct practice_answer){ .seen = true, .text = "c", .detail = "0-2,5" };
	a[3] = (struct practice_answer){ .seen = false, .text = "?" };

	given[0] = "904"; given[1] = "b"; given[2] = "c"; given[3] = "0";
	ck_assert_uint_eq(practice_score(&p, a, given), 3);   /* unobserved never scores */
	given[0] = " 904 "; given[1] = "B"; given[2] = "0-2,5"; given[3] = NULL;
	ck_assert_uint_eq(practice_score(&p, a, given), 3);
	given[0] = "905"; given[1] = "a"; given[2] = "0-2"; given[3] = NULL;
	ck_assert_uint_eq(practice_score(&p, a, given), 0);
	given[0] = "904x"; given[1] = "b)"; given[2] = NULL;
	ck_assert_uint_eq(practice_score(&p, a, given), 1);
	given[0] = ""; given[1] = ""; given[2] = "";
	ck_assert_uint_eq(practice_score(&p, a, given), 0);
	/* As --answers prints them: the answer, then its detail in parentheses. */
	snprintf(a[0].detail, sizeof a[0].detail, "4096, 904");
	snprintf(a[0].text, sizeof a[0].text, "2");
	given[0] = "2  (4096, 904)"; given[1] = "b  (EINVAL)"; given[2] = "c (0-2,5)";
	ck_assert_uint_eq(practice_score(&p, a, given), 3);
	given[0] = "2 (4096,904)"; given[1] = "b)(EINVAL)"; given[2] = "C";
	ck_assert_uint_eq(practice_score(&p, a, given), 3);
	/* A detail given must be the observed one; nothing may follow it. */
	given[0] = "2 (4096, 905)"; given[1] = "b (ENOENT)"; given[2] = "c (0-2)";
	ck_assert_uint_eq(practice_score(&p, a, given), 0);
	given[0] = "2 (4096, 904) x"; given[1] = "b (EINVAL"; given[2] = "cc";
	ck_assert_uint_eq(practice_score(&p, a, given), 0);
}
END_TEST

/* A problem states each rule of glibc or Linux its answers rest on, and asks nothing that
 * rests on one it cannot state: a buffer off its O_DIRECT alignment comes only with a length
 * or an offset off theirs. Its listing is C: a text's newline is the escape \n. */
START_TEST(test_well_posed)
{
	unsigned seen = 0;

	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++)
		for (uint64_t seed = 1; seed <= 200; seed++) {
			struct practice_problem p;
			struct scenario *s = NULL;
			char *err = NULL, line[512];

			ck_assert_int_eq(practice_generate(t, seed, &p), 0);
			ck_assert_int_eq(practice_load(&p, &s, &err), 0);
			seen |= p.rules;
			/* The rules named are in the intro the student reads. */
			ck_assert_int_eq(strstr(s->intro, "glibc's rule") != NULL,
			                 (p.rules & (PRACTICE_RULE_FULL | PRACTICE_RULE_LINE)) != 0);
			ck_assert_int_eq(strstr(s->intro, "Large folios") != NULL,
			                 (p.rules & PRACTICE_RULE_FOLIO) != 0);
			for (size_t i = 0; i < s->n_steps; i++) {
				const struct scn_args *a = &s->steps[i].args;
				practice_listing_line(&s->steps[i], line, sizeof line);
				ck_assert_ptr_null(strchr(line, '\n'));
				if (a->text != NULL && strchr(a->text, '\n') != NULL)
					ck_assert_ptr_nonnull(strstr(line, "\\n"));
				if ((a->has & SCN_HAS_ALIGN) && a->align % 512 != 0) {
					ck_assert(a->bytes % 512 != 0 || a->offset % 512 != 0);
					ck_assert(p.rules & PRACTICE_RULE_DIOMEM);
				}
				/* The stream's buffer and the data have two names. */
				ck_assert(!(strstr(line, "sbuf") != NULL && strstr(line, "data") != NULL));
			}
			load_scenario_free(s);
			practice_problem_clear(&p);
		}
	/* Every rule is needed by some problem: none is dead text. */
	ck_assert_uint_eq(seen, (1u << PRACTICE_RULE__COUNT) - 1);
}
END_TEST

/* Run p's scenario for real and fill a; return how many results the run made. */
static size_t
run_problem(const struct practice_problem *p, struct practice_answer *a)
{
	struct scenario *s;
	struct runner_opts ro = { 0 };
	char *err = NULL;
	struct lesson *l;
	size_t n;

	ck_assert_int_eq(practice_load(p, &s, &err), 0);
	l = lesson_new(s, &ro, &err);
	ck_assert_msg(l != NULL, "lesson_new: %s", err != NULL ? err : "?");
	while (lesson_step(l) == 1)
		;
	n = lesson_count(l);
	practice_observe(p, lesson_results(l), n, a);
	lesson_free(l);
	load_scenario_free(s);
	return n;
}

/* The stdio model is glibc's arithmetic: on this machine it agrees with the real run. */
START_TEST(test_stdio_model)
{
	const struct practice_topic *t = practice_topic_find("stdio");

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct practice_problem p;
		struct practice_answer a[PRACTICE_MAX_Q];

		ck_assert_int_eq(practice_generate(t, seed, &p), 0);
		run_problem(&p, a);
		for (size_t i = 0; i < p.n_q; i++) {
			ck_assert_msg(a[i].seen, "seed %lu Q%zu unobserved: %s", (unsigned long)seed,
			              i + 1, a[i].detail);
			ck_assert_msg(strcmp(a[i].text, p.q[i].model) == 0,
			              "seed %lu Q%zu: model %s, glibc %s\n%s", (unsigned long)seed, i + 1,
			              p.q[i].model, a[i].text, p.yaml);
			if (p.q[i].key == SCN_KEY_CALLS_WRITE && a[i].detail[0] != '\0')
				ck_assert_str_eq(a[i].detail, p.q[i].model_detail);
		}
		ck_assert_uint_eq(practice_score(&p, a, (const char *const[PRACTICE_MAX_Q]){
			p.q[0].model, p.q[1].model, p.q[2].model, NULL }), p.n_q >= 3 ? 3 : p.n_q);
		practice_problem_clear(&p);
	}
}
END_TEST

/* A which-pages question always has this kernel's answer among its choices (the large-folio
 * model's and the textbook's are both offered), and here the model is this kernel. */
START_TEST(test_cache_choices_hold_truth)
{
	const struct practice_topic *t = practice_topic_find("cache");

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct practice_problem p;
		struct practice_answer a[PRACTICE_MAX_Q];

		ck_assert_int_eq(practice_generate(t, seed, &p), 0);
		run_problem(&p, a);
		for (size_t i = 0; i < p.n_q; i++) {
			if (p.q[i].kind != PRACTICE_PAGES)
				continue;
			ck_assert_msg(a[i].seen, "seed %lu Q%zu: %s", (unsigned long)seed, i + 1,
			              a[i].detail);
			ck_assert_msg(a[i].text[0] != '?' && strcmp(p.q[i].choices[a[i].text[0] - 'a'],
			              "another set") != 0, "seed %lu Q%zu: %s is not a choice\n%s",
			              (unsigned long)seed, i + 1, a[i].detail, p.yaml);
		}
		practice_problem_clear(&p);
	}
}
END_TEST

/* The answers of a direct problem come from the run: every transfer has a verdict. */
START_TEST(test_direct_observed)
{
	struct practice_problem p;
	struct practice_answer a[PRACTICE_MAX_Q];

	ck_assert_int_eq(practice_generate(practice_topic_find("direct"), 7, &p), 0);
	run_problem(&p, a);
	for (size_t i = 0; i < p.n_q; i++) {
		ck_assert(a[i].seen);
		ck_assert_msg(strcmp(a[i].text, "a") == 0 || strcmp(a[i].text, "b") == 0,
		              "Q%zu: %s (%s)", i + 1, a[i].text, a[i].detail);
	}
	practice_problem_clear(&p);
}
END_TEST

/*
 * The crash topic's answers come from real crashes: kill -9's always, and it is the model's
 * (the bytes write() gave the kernel); a power cut's is the model's wherever it was observed
 * and no write the program did not wait for came first (as root, on a lab; else it says why).
 */
START_TEST(test_crash_model)
{
	const struct practice_topic *t = practice_topic_find("crash");

	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct practice_problem p;
		struct practice_answer a[PRACTICE_MAX_Q];
		char m[8];

		ck_assert_int_eq(practice_generate(t, seed, &p), 0);
		run_problem(&p, a);
		for (size_t i = 0; i < p.n_q; i++) {
			bool power = p.q[i].key == SCN_KEY_CRASH_POWER_SIZE;
			ck_assert_int_eq(p.q[i].kind, PRACTICE_FILE);
			if (power && !a[i].seen) {
				ck_assert_str_ne(a[i].detail, "");
				continue;
			}
			ck_assert_msg(a[i].seen, "seed %lu Q%zu unobserved: %s", (unsigned long)seed,
			              i + 1, a[i].detail);
			/* The model's choice, as a letter. */
			m[0] = '?';
			m[1] = '\0';
			for (size_t c = 0; c < p.q[i].n_choices; c++)
				if (strcmp(p.q[i].choices[c], p.q[i].model) == 0)
					m[0] = (char)('a' + c);
			ck_assert_msg(strcmp(a[i].text, m) == 0, "seed %lu Q%zu: model %s, the crash %s\n%s",
			              (unsigned long)seed, i + 1, p.q[i].model, a[i].detail, p.yaml);
		}
		practice_problem_clear(&p);
	}
}
END_TEST

/* The practice suite. */
static Suite *
practice_suite(void)
{
	Suite *s = suite_create("practice");
	TCase *tc = tcase_create("generate");
	TCase *run = tcase_create("run");

	tcase_add_test(tc, test_rand_reference);
	tcase_add_test(tc, test_same_seed);
	tcase_add_test(tc, test_seeds_differ);
	tcase_add_test(tc, test_all_load);
	tcase_add_test(tc, test_topics);
	tcase_add_test(tc, test_score);
	tcase_add_test(tc, test_well_posed);
	suite_add_tcase(s, tc);
	tcase_set_timeout(run, 120);
	test_util_add(run, test_stdio_model, test_util_need_ptrace());
	test_util_add(run, test_cache_choices_hold_truth,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	test_util_add(run, test_direct_observed, test_util_need_odirect(NULL, 512));
	test_util_add(run, test_crash_model, test_util_need_ptrace());
	suite_add_tcase(s, run);
	return s;
}

/* Run the practice suite. */
int
main(void)
{
	return test_util_run(practice_suite());
}
