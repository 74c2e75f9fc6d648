/* SPDX-License-Identifier: MIT */
/* out/gradescope.c: Gradescope's results.json (gradescope-autograders.readthedocs.io, "Output
 * format"): a test per expectation and per sentence of the narration that rests on a fact
 * (TAP's points), worth a point each whatever this machine can observe (so that a program is
 * graded out of the same on every filesystem), and one that says whether each run: step's
 * program (or the traced program) ran; all text shown as text, never as HTML. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/text.h"
#include "base/units.h"
#include "lesson/expect.h"
#include "lesson/narrate.h"
#include "out/transcript.h"

/*
 * Gradescope renders a test's name and output as plain text by default, but the top-level
 * output as "simple_format", which is HTML: every format is set to "text" so that nothing a
 * scenario or a program prints becomes markup on the student's page.
 */

/*
 * Every expectation and sentence is worth one point wherever it runs: what this machine cannot
 * observe (no crash lab, a probe that cannot tell, the kernel's writes between steps) must not
 * change what a program is graded out of, or the same program would score 2 of 2 on one
 * filesystem and 2 of 4 on another. Not observable, the point is given, and the output says
 * so; --strict fails it. A crash that lost what was wanted is failed, never not observable
 * (lesson/expect.h, expect_crash_lost).
 */
#define OUT_GRADESCOPE_GIVEN "not checked here: the point is given (--strict fails it)"

/* The document opened, and its tests' array. */
static void
out_gradescope_begin(struct transcript *t)
{
	json_init(&t->j, t->f, JSON_SPACED);
	json_begin_object(&t->j, NULL);
	json_begin_array(&t->j, "tests");
}

/* One test: name (made one line, as TAP's are), number, score out of max (-1: no score, a
 * check that passed or not), status, output. */
static void
out_gradescope_test(struct transcript *t, const char *name, const char *number, int score,
                    int max, bool passed, const char *output)
{
	struct json *j = &t->j;
	char *line = text_safe_dup(name, TEXT_LINE);

	json_break(j);
	json_begin_object(j, NULL);
	json_string(j, "name", line != NULL ? line : name);
	free(line);
	json_string(j, "number", number);
	if (max >= 0) {
		json_int(j, "score", score);
		json_int(j, "max_score", max);
	}
	json_string(j, "status", passed ? "passed" : "failed");
	if (max > 0 && passed)
		t->n_scored += (size_t)score;
	json_string(j, "output", output != NULL ? output : "");
	json_string(j, "name_format", "text");
	json_string(j, "output_format", "text");
	json_end_object(j);
}

/* A test per sentence of step ST that rests on a fact, as TAP's points, a point each: held, won;
 * unchecked here, given (--strict: failed); false here (not told), failed; with why and where
 * it is written. */
static void
out_gradescope_sentences(struct transcript *t, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;
	char number[48];

	for (size_t i = 0, k = sr->n_expects; i < sr->n_sentences; i++) {
		const struct sentence_result *v = &sr->sentences[i];
		enum sentence_outcome oc = transcript_sentence_outcome(t, v);
		char *line, *name = NULL, *out = NULL;
		if (!v->rests)
			continue;
		line = narrate_line(v->text);
		if (asprintf(&name, "step %zu %s: says \"%s\"", sr->index + 1, st->call,
		             line != NULL ? line : v->text) < 0)
			name = NULL;
		if (v->outcome != SENTENCE_HELD &&
		    asprintf(&out, "%s: %s\nat: %s:%d:%d%s", v->outcome == SENTENCE_FALSE ?
		             "false here" : "not observable here", text_str(&v->why), t->path,
		             v->line, v->col,
		             v->outcome == SENTENCE_FALSE ? "" : oc == SENTENCE_FALSE ?
		             "\n--strict: it counts as failed" : "\n" OUT_GRADESCOPE_GIVEN) < 0)
			out = NULL;
		snprintf(number, sizeof number, "%zu.%zu", sr->index + 1, ++k);
		/* Unchecked and not --strict: the point is given, out of the same one. */
		out_gradescope_test(t, name != NULL ? name : "?", number, oc != SENTENCE_FALSE, 1,
		                    oc != SENTENCE_FALSE, out);
		free(line);
		free(name);
		free(out);
	}
}

/* A step: a test per expectation and per sentence that rests on a fact; a run: step also one
 * for its program having run. */
static void
out_gradescope_step(struct transcript *t, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;
	char want[300], number[48];

	if (st->prog != NULL)
		return;
	if (sr->step->op == SCN_OP_RUN) {
		char *name = NULL;
		snprintf(number, sizeof number, "%zu.0", sr->index + 1);
		if (asprintf(&name, "step %zu %s: the program ran", sr->index + 1, st->call) >= 0) {
			out_gradescope_test(t, name, number, 0, -1, sr->ret >= 0, text_str(&sr->note));
			free(name);
		}
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = transcript_outcome(t, x);
		char *name = NULL, *out = NULL;
		int rc;

		expect_format_want(x->want, want, sizeof want);
		if (asprintf(&name, "step %zu %s: %s %s", sr->index + 1, st->call,
		             scenario_key_name(x->want->key), want) < 0)
			name = NULL;
		if (x->outcome == EXPECT_NOT_OBSERVABLE)
			rc = asprintf(&out, "not observable here: %s\n%s", text_str(&x->got_text),
			              oc == EXPECT_FAILED ? "--strict: it counts as failed" :
			              OUT_GRADESCOPE_GIVEN);
		else
			rc = asprintf(&out, "got: %s\nat: %s:%d:%d", text_str(&x->got_text), t->path,
			              x->want->line, x->want->col);
		if (rc < 0)
			out = NULL;
		snprintf(number, sizeof number, "%zu.%zu", sr->index + 1, i + 1);
		/* Not observable and not --strict: the point is given, out of the same one. */
		out_gradescope_test(t, name != NULL ? name : "?", number, oc != EXPECT_FAILED, 1,
		                    oc != EXPECT_FAILED, out);
		free(name);
		free(out);
	}
	out_gradescope_sentences(t, st);
}

/* The end: a traced program's test, the score, the time, and a summary as the output. */
static void
out_gradescope_end(struct transcript *t)
{
	struct json *j = &t->j;
	struct timespec now;
	char ended[96], *out = NULL;

	if (t->prog != NULL) {
		char *name = NULL;
		if (asprintf(&name, "%s: the program ran", t->title) < 0)
			name = NULL;
		out_gradescope_test(t, name != NULL ? name : "the program ran", "1", 0, -1,
		                    t->error == NULL, transcript_ended(t->prog, ended, sizeof ended));
		free(name);
	}
	json_break(j);
	json_end_array(j);
	json_uint(j, "score", t->n_scored);
	clock_gettime(CLOCK_MONOTONIC, &now);
	json_uint(j, "execution_time", (units_ns_between(&t->started, &now) + 500000000) /
	          1000000000);
	if (asprintf(&out, "iobufviz: %s\n%zu held, %zu failed, %zu not observable here%s\n"
	             "sentences: %zu held, %zu unchecked here, %zu false here%s%s",
	             t->title, t->n_held, t->n_failed, t->n_unobservable,
	             t->strict ? " (--strict: they fail)" : "", t->n_said, t->n_unchecked,
	             t->n_false, t->error != NULL ? "\n" : "", t->error != NULL ? t->error : "") < 0)
		out = NULL;
	json_string(j, "output", out);
	free(out);
	json_string(j, "output_format", "text");
	json_string(j, "test_output_format", "text");
	json_string(j, "test_name_format", "text");
	json_end_object(j);
	json_break(j);
}

const struct transcript_format out_gradescope_format = {
	.name = "gradescope",
	.begin = out_gradescope_begin,
	.step = out_gradescope_step,
	.end = out_gradescope_end,
};
