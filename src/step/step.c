/* SPDX-License-Identifier: MIT */
/* step/step.c: the lifecycle of a step result (what it owns). */
#include <config.h>

#include <stdlib.h>

#include "sweep/sweep.h"
#include "step/step.h"

/* The narration to show for sr. */
const char *
step_result_say(const struct step_result *sr)
{
	if (sr->say != NULL)
		return sr->say;
	return sr->step != NULL ? sr->step->say : NULL;
}

/* Free what a sentence result owns. */
void
sentence_result_clear(struct sentence_result *v)
{
	free(v->text);
	v->text = NULL;
	text_buf_free(&v->why);
}

/* Free N sentence results V (their texts and the array). */
void
sentence_results_free(struct sentence_result *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		sentence_result_clear(&v[i]);
	free(v);
}

/* Free what one expectation result owns. */
void
expect_result_clear(struct expect_result *r)
{
	text_buf_free(&r->got_text);
	text_buf_free(&r->kept_text);
}

/* Free expectation results. */
void
expect_results_free(struct expect_result *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		expect_result_clear(&v[i]);
	free(v);
}

/* Free what a step result owns. */
void
step_result_clear(struct step_result *sr)
{
	if (sr == NULL)
		return;
	event_list_clear(&sr->events);
	expect_results_free(sr->expects, sr->n_expects);
	free(sr->output);
	free(sr->output_file);
	free(sr->file_content);
	free(sr->say);
	sr->say = NULL;
	sentence_results_free(sr->sentences, sr->n_sentences);
	sr->sentences = NULL;
	sr->n_sentences = sr->n_unchecked = sr->n_false = 0;
	free(sr->crash);
	sr->crash = NULL;
	text_buf_free(&sr->note);
	if (sr->sweep != NULL) {
		sweep_result_clear(sr->sweep);
		free(sr->sweep);
		sr->sweep = NULL;
	}
	sr->expects = NULL;
	sr->n_expects = 0;
	sr->output = sr->output_file = NULL;
	sr->file_content = NULL;
}
