/* SPDX-License-Identifier: MIT */
/* practice/practice-run.c: --practice: print a generated problem, run it for real, show the answers. */
#include <config.h>

#include <gnu/libc-version.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "headless/app.h"
#include "export/describe.h"
#include "base/json.h"
#include "lesson/lesson.h"
#include "out/transcript.h"
#include "practice/practice-run.h"
#include "practice/practice.h"
#include "base/text.h"

/* Print the topics, one a line: name, then what it practises. */
void
practice_run_list(FILE *f)
{
	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++)
		fprintf(f, "%-8s %s\n", t->name, t->summary);
}

/* The generator's answer to q as the student would write it ("b", "3", "0-2"). */
static const char *
practice_run_model(const struct practice_question *q, char *buf, size_t len)
{
	if (q->kind != PRACTICE_PAGES && q->kind != PRACTICE_FILE)
		return q->model;
	for (size_t i = 0; i < q->n_choices; i++)
		if (strcmp(q->choices[i], q->model) == 0) {
			snprintf(buf, len, "%c", (char)('a' + i));
			return buf;
		}
	return q->model;
}

/* Does the model's answer differ from what the machine did? */
static bool
practice_run_differs(const struct practice_question *q, const struct practice_answer *a)
{
	char m[8];

	if (!a->seen)
		return false;
	if (strcmp(practice_run_model(q, m, sizeof m), a->text) != 0)
		return true;
	return q->key == SCN_KEY_CALLS_WRITE && q->model_detail[0] != '\0' &&
	       a->detail[0] != '\0' && strcmp(q->model_detail, a->detail) != 0;
}

/* Text: the program, the questions, and (if run) the answers. */
static void
practice_run_text(FILE *f, const struct practice_problem *p, const struct scenario *s,
                  const struct practice_answer *a, const char *machine,
                  const struct app_opts *o)
{
	char m[8];

	fprintf(f, "Practice: %s, seed %" PRIu64 "   (iobufviz --practice %s --seed %" PRIu64
	        ")\n\n", p->topic->name, p->seed, p->topic->name, p->seed);
	text_fput(s->intro, TEXT_BLOCK, f);
	fputs("\n\nThe program, run on a scratch file (C11: it compiles as it is, cc -std=c11 "
	      "-c):\n\n", f);
	practice_listing_print(f, s, "    ");
	fputs("\nQuestions (line N: the step numbered N above; an answer is a number or a letter, "
	      "and may add its detail in parentheses as --answers prints it):\n", f);
	for (size_t i = 0; i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		fprintf(f, "  Q%-2zu %s\n", i + 1, q->text);
		for (size_t c = 0; c < q->n_choices; c++)
			fprintf(f, "       %c) %s\n", (char)('a' + c), q->choices[c]);
	}
	if (a == NULL) {
		fputs("\nThe answers are what this machine's kernel and C library do: run with "
		      "--answers to see them.\n", f);
		return;
	}
	fprintf(f, "\nAnswers, as this machine did it (%s):\n", machine);
	for (size_t i = 0; i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		if (a[i].seen && a[i].text[0] == '?')
			fprintf(f, "  Q%-2zu none of the choices: %s", i + 1, a[i].detail);
		else if (a[i].detail[0] != '\0')
			fprintf(f, "  Q%-2zu %s  (%s)", i + 1, a[i].text, a[i].detail);
		else
			fprintf(f, "  Q%-2zu %s", i + 1, a[i].text);
		if (practice_run_differs(q, &a[i]))
			fprintf(f, "   [the generator's model said %s%s%s%s: this machine differs]",
			        practice_run_model(q, m, sizeof m), q->model_detail[0] ? " (" : "",
			        q->model_detail, q->model_detail[0] ? ")" : "");
		if (i < o->n_guess) {
			fputs("   you said ", f);
			text_fput(o->guess[i], TEXT_LINE, f);
			fputs(practice_match(q, &a[i], o->guess[i]) ? ": right" : ": wrong", f);
			/* Wrong: why, from what the run did, not only the value. */
			if (!practice_match(q, &a[i], o->guess[i]) && a[i].why[0] != '\0') {
				fputs("\n       why: ", f);
				text_fput(a[i].why, TEXT_LINE, f);
			}
		}
		putc('\n', f);
	}
	if (o->n_guess > 0)
		fprintf(f, "\nscore: %zu of %zu right\n", practice_score(p, a, o->guess), p->n_q);
}

/* JSON: the problem, the questions, and (if run) the answers (main checks stdout's flush). */
static void
practice_run_json(FILE *f, const struct practice_problem *p, const struct scenario *s,
                  const struct practice_answer *a, const char *machine,
                  const struct app_opts *o)
{
	char call[256], m[8], *listing = NULL;
	size_t listing_len = 0;
	FILE *lf = open_memstream(&listing, &listing_len);
	struct json j;

	if (lf != NULL) {
		practice_listing_print(lf, s, "");
		if (fclose(lf) != 0) {
			free(listing);
			listing = NULL;
		}
	}
	json_init(&j, f, 0);
	json_begin_object(&j, NULL);
	json_string(&j, "topic", p->topic->name);
	json_uint(&j, "seed", p->seed);
	json_string(&j, "intro", s->intro);
	json_begin_array(&j, "program");
	for (size_t i = 0; i < s->n_steps; i++)
		json_string(&j, NULL, practice_listing_line(&s->steps[i], call, sizeof call));
	json_end_array(&j);
	json_string(&j, "listing", listing);
	free(listing);
	json_string_n(&j, "scenario", p->yaml, p->yaml_len);
	json_begin_array(&j, "questions");
	for (size_t i = 0; i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		json_begin_object(&j, NULL);
		json_uint(&j, "n", i + 1);
		json_uint(&j, "line", q->step + 1);
		json_string(&j, "key", scenario_key_name(q->key));
		json_string(&j, "kind", q->kind == PRACTICE_NUMBER ? "number" : "choice");
		json_string(&j, "text", q->text);
		json_begin_array(&j, "choices");
		for (size_t c = 0; c < q->n_choices; c++)
			json_string(&j, NULL, q->choices[c]);
		json_end_array(&j);
		json_string(&j, "model", practice_run_model(q, m, sizeof m));
		json_string(&j, "model_detail", q->model_detail);
		if (a == NULL) {
			json_null(&j, "answer");
		} else {
			json_begin_object(&j, "answer");
			json_bool(&j, "observed", a[i].seen);
			json_string(&j, "text", a[i].text);
			json_string(&j, "detail", a[i].detail);
			/* The run's facts behind the answer: a wrong guess's reason. */
			json_string(&j, "why", a[i].why);
			json_bool(&j, "model_differs", practice_run_differs(q, &a[i]));
			json_string(&j, "guess", i < o->n_guess ? o->guess[i] : NULL);
			if (i < o->n_guess)
				json_bool(&j, "right", practice_match(q, &a[i], o->guess[i]));
			else
				json_null(&j, "right");
			json_end_object(&j);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	json_string(&j, "machine", a != NULL ? machine : NULL);
	if (a != NULL && o->n_guess > 0) {
		json_begin_object(&j, "score");
		json_uint(&j, "right", practice_score(p, a, o->guess));
		json_uint(&j, "asked", p->n_q);
		json_end_object(&j);
	} else {
		json_null(&j, "score");
	}
	json_end_object(&j);
	json_break(&j);
	json_finish(&j);
}

/* Run s to the end; fill a from what the machine did and machine with where it ran. */
static int
practice_run_answers(const struct practice_problem *p, const struct scenario *s,
                     const struct app_opts *o, struct practice_answer *a, char *machine,
                     size_t len)
{
	struct runner_opts ro = { .dir = o->dir, .trace = o->trace, .probe = o->probe,
	                          .run_op = o->run_op };
	struct utsname u;
	char *err = NULL;
	struct lesson *l = lesson_new(s, &ro, &err);
	int got;

	if (l == NULL) {
		text_fline(stderr, "iobufviz: ", err != NULL ? err : "out of memory", "\n");
		free(err);
		return APP_EXIT_ENV;
	}
	while ((got = lesson_step(l)) == 1)
		;
	if (got < 0) {
		lesson_free(l);
		fputs("iobufviz: out of memory\n", stderr);
		return APP_EXIT_ENV;
	}
	practice_observe(p, lesson_results(l), lesson_count(l), a);
	if (uname(&u) != 0)
		snprintf(u.release, sizeof u.release, "?");
	snprintf(machine, len, "Linux %s, %s, glibc %s", u.release, lesson_fs_name(l),
	         gnu_get_libc_version());
	lesson_free(l);
	return APP_EXIT_OK;
}

/* --practice TOPIC --headless: print p (loaded as s); with answers, run it and print what happened. */
int
practice_run_headless(const struct practice_problem *p, const struct scenario *s, bool answers,
                      const struct app_opts *o)
{
	struct practice_answer a[PRACTICE_MAX_Q];
	char machine[256] = "";
	int rc = APP_EXIT_OK;

	if (answers)
		rc = practice_run_answers(p, s, o, a, machine, sizeof machine);
	if (rc == APP_EXIT_OK) {
		if (o->format == transcript_format_find("json"))
			practice_run_json(stdout, p, s, answers ? a : NULL, machine, o);
		else
			practice_run_text(stdout, p, s, answers ? a : NULL, machine, o);
	}
	return rc;
}
