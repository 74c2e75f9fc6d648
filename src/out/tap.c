/* SPDX-License-Identifier: MIT */
/* out/tap.c: the TAP 13 transcript: a test point per expectation (a program: one, that it
 * ran), a failure's got and place as YAML, steps' notes as comments. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "base/text.h"
#include "lesson/expect.h"
#include "crash/hazard.h"
#include "lesson/narrate.h"
#include "out/transcript.h"

/* Write s on one TAP line: escaped as one record (base/text.c), '#' too (it starts a directive). */
static void
out_tap_text(FILE *f, const char *s)
{
	char *safe = text_safe_dup(s, TEXT_LINE);

	for (const char *p = safe; p != NULL && *p != '\0'; p++) {
		if (*p == '#')
			fputs("\\#", f);
		else
			putc(*p, f);
	}
	free(safe);
}

/* A comment line: "# " prefix, then s. */
static void
out_tap_comment(FILE *f, const char *prefix, const char *s)
{
	fputs(prefix, f);
	out_tap_text(f, s);
	putc('\n', f);
}

/* A YAML value on one line: a JSON string (YAML reads it), through the one JSON writer. */
static void
out_tap_yaml_string(FILE *f, const char *s)
{
	struct json j;

	json_init(&j, f, 0);
	json_string(&j, NULL, s);
	json_finish(&j);
}

/* A failure's YAML block: LABEL ("got", "false here") with TEXT, and "path:line:col". */
static void
out_tap_failure(struct transcript *t, const char *label, const char *text, int line, int col)
{
	char *at = NULL;

	if (asprintf(&at, "%s:%d:%d", t->path, line, col) < 0)
		at = NULL;
	fprintf(t->f, "  ---\n  %s: ", label);
	out_tap_yaml_string(t->f, text);
	fputs("\n  at: ", t->f);
	out_tap_yaml_string(t->f, at != NULL ? at : t->path);
	fputs("\n  ...\n", t->f);
	free(at);
}

/* A point per sentence of the step that rests on a fact: unchecked ones skipped with why
 * (failed under --strict), false ones (not told) failed, with why and where they are written. */
static void
out_tap_sentences(struct transcript *t, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;

	for (size_t i = 0; i < sr->n_sentences; i++) {
		const struct sentence_result *v = &sr->sentences[i];
		char *line;
		if (!v->rests)
			continue;
		enum sentence_outcome oc = transcript_sentence_outcome(t, v);
		line = narrate_line(v->text);
		fprintf(t->f, "%sok %zu - step %zu ", oc == SENTENCE_FALSE ? "not " : "",
		        ++t->n_points, sr->index + 1);
		out_tap_text(t->f, st->call);
		fputs(": says \"", t->f);
		out_tap_text(t->f, line != NULL ? line : v->text);
		putc('"', t->f);
		/* False, but made so by another writer (a sync() elsewhere, a journal's timer):
		 * not this lesson's word, nor unobservable; TAP says which. */
		bool other = v->outcome == SENTENCE_FALSE && v->by_other;
		if (oc == SENTENCE_UNCHECKED) {
			fputs(other ? " # SKIP false by another writer: " :
			      " # SKIP not observable here: ", t->f);
			out_tap_text(t->f, text_str(&v->why));
		}
		putc('\n', t->f);
		free(line);
		if (oc == SENTENCE_FALSE)
			out_tap_failure(t, other ? "false by another writer (--strict)" :
			                v->outcome == SENTENCE_FALSE ? "false here" :
			                "not observable here (--strict)", text_str(&v->why), v->line,
			                v->col);
	}
}

/* The head: the version, the title (a program: its command line) and the scratch note. */
static void
out_tap_begin(struct transcript *t)
{
	fputs("TAP version 13\n", t->f);
	out_tap_comment(t->f, "# ", t->title);
	if (t->prog != NULL && t->prog->confined != NULL)
		out_tap_comment(t->f, "# confined: ", t->prog->confined);
	if (t->place_note != NULL)
		out_tap_comment(t->f, "# ", t->place_note);
}

/* A step: a test point per expectation; a program's step is a comment. */
static void
out_tap_step(struct transcript *t, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;
	char want[300], prefix[48];

	snprintf(prefix, sizeof prefix, "# step %zu: ", sr->index + 1);
	if (st->prog != NULL) {
		out_tap_comment(t->f, prefix, st->call);
		return;
	}
	if (sr->note.len > 0)
		out_tap_comment(t->f, prefix, text_str(&sr->note));
	if (sr->crash != NULL) {
		char line[512];
		out_tap_comment(t->f, prefix, transcript_crash_line(sr->crash, false, line,
		                                                    sizeof line));
		if (!transcript_crash_said(t, sr->crash))
			out_tap_comment(t->f, prefix, transcript_crash_line(sr->crash, true, line,
			                                                    sizeof line));
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = transcript_outcome(t, x);

		fprintf(t->f, "%sok %zu - step %zu ", oc == EXPECT_FAILED ? "not " : "",
		        ++t->n_points, sr->index + 1);
		out_tap_text(t->f, st->call);
		fprintf(t->f, ": %s ", scenario_key_name(x->want->key));
		out_tap_text(t->f, expect_format_want(x->want, want, sizeof want));
		if (oc == EXPECT_NOT_OBSERVABLE) {
			fputs(" # SKIP not observable here: ", t->f);
			out_tap_text(t->f, text_str(&x->got_text));
		}
		putc('\n', t->f);
		if (oc == EXPECT_FAILED)
			out_tap_failure(t, "got", text_str(&x->got_text), x->want->line, x->want->col);
	}
	out_tap_sentences(t, st);
}

/* The end: a program's one point, a bail out on error, the plan. */
static void
out_tap_end(struct transcript *t)
{
	char ended[96];

	if (t->prog != NULL && t->error == NULL)
		fprintf(t->f, "ok %zu - the program ran: %s, %zu steps\n", ++t->n_points,
		        transcript_ended(t->prog, ended, sizeof ended), t->n_written);
	for (size_t i = 0; t->prog != NULL && i < t->prog->n_hazards; i++)
		out_tap_comment(t->f, "# durability: ", t->prog->hazards[i].text);
	if (t->error != NULL)
		out_tap_comment(t->f, "Bail out! ", t->error);
	/* TAP 13: a plan of no tests says why (a sweep, or narration only). */
	if (t->n_points == 0 && t->error == NULL)
		fputs("1..0 # SKIP no expectations in this scenario\n", t->f);
	else
		fprintf(t->f, "1..%zu\n", t->n_points);
}

const struct transcript_format out_tap_format = {
	.name = "tap",
	.begin = out_tap_begin,
	.step = out_tap_step,
	.end = out_tap_end,
};
