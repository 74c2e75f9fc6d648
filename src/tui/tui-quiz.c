/* SPDX-License-Identifier: MIT */
/* tui/tui-quiz.c: the quiz (--quiz, --practice): before a step with a question it asks for a
 * number or a letter, after it scores the answer against what the run observed. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/expect.h"
#include "practice/practice.h"
#include "tui/crt.h"
#include "tui/tui-int.h"

/* Score a letter given to a practice choice question: the truth is what the run observed. */
static void
tui_score_choice(struct tui *t)
{
	const struct practice_problem *p = t->o->practice;
	struct practice_answer a[PRACTICE_MAX_Q];
	size_t i = (size_t)t->ask_q;
	bool ok;

	practice_observe(p, lesson_results(t->l), tui_count(t), a);
	ok = practice_match(&p->q[i], &a[i], t->answer);
	t->asked++;
	t->right += ok;
	snprintf(t->status, sizeof t->status, "you said %s; observed %s (%s)  %s   score %d/%d",
	         t->answer, a[i].text, a[i].detail, ok ? "right!" : "not quite", t->right, t->asked);
}

/* Score the guess for the step just run. */
void
tui_score(struct tui *t)
{
	const struct step_result *sr = lesson_last(t->l);

	if (!t->guessed)
		return;
	t->guessed = false;
	if (t->ask_q >= 0) {
		tui_score_choice(t);
		return;
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		if (i != t->ask_expect)
			continue;
		/* Nothing observed: no score, and say why rather than compare with a 0. */
		if (sr->expects[i].outcome == EXPECT_NOT_OBSERVABLE) {
			snprintf(t->status, sizeof t->status, "you said %" PRId64 " for %s; not "
			         "observable here: %s", t->guess,
			         scenario_key_name(sr->expects[i].want->key), sr->expects[i].got_text);
			continue;
		}
		/* The truth is what was observed, not what the scenario hoped. */
		bool ok = sr->expects[i].got == t->guess;
		t->asked++;
		t->right += ok;
		snprintf(t->status, sizeof t->status, "you said %" PRId64 " for %s; observed %" PRId64
		         "  %s   score %d/%d", t->guess, scenario_key_name(sr->expects[i].want->key),
		         sr->expects[i].got, ok ? "right!" : "not quite", t->right, t->asked);
	}
}

/* Ask a practice problem's choice question about the next step, if it has one. */
static bool
tui_ask_choice(struct tui *t, const struct scn_step *st)
{
	const struct practice_problem *p = t->o->practice;
	size_t used;
	char call[256];

	for (size_t i = 0; p != NULL && i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		if (q->step != tui_count(t) || q->n_choices == 0)
			continue;
		t->ask_q = (long)i;
		view_step_line(t->o->step_line, st, call, sizeof call);
		used = (size_t)snprintf(t->prompt, sizeof t->prompt, "Next: step %zu, %s\n%s\n",
		                        tui_count(t) + 1, call, q->text);
		for (size_t c = 0; c < q->n_choices && used < sizeof t->prompt; c++)
			used += (size_t)snprintf(t->prompt + used, sizeof t->prompt - used,
			                         "  %c) %s\n", (char)('a' + c), q->choices[c]);
		if (used < sizeof t->prompt)
			snprintf(t->prompt + used, sizeof t->prompt - used, "\nyour guess: _\n\n(a "
			         "letter, Enter to run the step, Esc to skip the question)");
		return true;
	}
	return false;
}

/* Ask the quiz question for the next step, if it has one; return true if asking. */
bool
tui_ask(struct tui *t)
{
	const struct scn_step *st;
	const char *q = NULL;
	char call[256];

	if (!t->o->quiz || tui_count(t) >= t->s->n_steps || t->guessed)
		return false;
	st = &t->s->steps[tui_count(t)];
	t->ask_q = -1;
	t->answer[0] = '\0';
	if (tui_ask_choice(t, st)) {
		t->asking = true;
		t->autoplay = false;
		return true;
	}
	/* Ask in the key table's order: the number of write() calls is the first lesson. The
	 * step's own ask: replaces the key's question. */
	for (size_t k = 0; k < SCN_KEY__COUNT && q == NULL; k++)
		for (size_t i = 0; i < st->n_expects && q == NULL; i++)
			if (st->expects[i].key == k && scn_key_table[k].question != NULL &&
			    st->expects[i].cmp == SCN_CMP_EQ) {
				q = st->ask != NULL ? st->ask : scn_key_table[k].question;
				t->ask_expect = i;
			}
	if (q == NULL)
		return false;
	t->asking = true;
	t->autoplay = false;
	t->answer[0] = '\0';
	view_step_line(t->o->step_line, st, call, sizeof call);
	snprintf(t->prompt, sizeof t->prompt,
	         "Next: step %zu, %s\n%s\n\nyour guess: %s_\n\n(digits, Enter to run the step, "
	         "Esc to skip the question)", tui_count(t) + 1, call, q, t->answer);
	return true;
}

/* Refresh the prompt after the answer changed. */
static void
tui_prompt_update(struct tui *t)
{
	char *p = strstr(t->prompt, "your guess: ");

	if (p != NULL) {
		char tail[256];
		char *rest = strstr(p, "\n\n");
		snprintf(tail, sizeof tail, "%s", rest != NULL ? rest : "");
		snprintf(p, sizeof t->prompt - (size_t)(p - t->prompt), "your guess: %s_%s", t->answer,
		         tail);
	}
}

/* A key while the quiz asks; return what it did (TUI_KEY_*). */
unsigned
tui_key_quiz(struct tui *t, int k)
{
	size_t n = strlen(t->answer);

	if (t->ask_q >= 0 && k >= 'a' && k < 'a' + (int)t->o->practice->q[t->ask_q].n_choices) {
		t->answer[0] = (char)k;        /* one letter: a new one replaces it */
		t->answer[1] = '\0';
	} else if (t->ask_q < 0 && k >= '0' && k <= '9' && n + 1 < sizeof t->answer - 4) {
		t->answer[n] = (char)k;
		t->answer[n + 1] = '\0';
	} else if (k == CRT_K_BACKSPACE && n > 0) {
		t->answer[n - 1] = '\0';
	} else if (k == CRT_K_ESC) {
		t->asking = false;
		t->guessed = false;
		tui_run_step(t);
		return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
	} else if (k == CRT_K_ENTER && n > 0) {
		t->asking = false;
		t->guessed = true;
		t->guess = strtoll(t->answer, NULL, 10);
		tui_run_step(t);
		return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
	} else if (k == 'q' || k == CRT_K_F10) {
		return TUI_KEY_HANDLED | TUI_KEY_QUIT;
	} else {
		return 0;
	}
	tui_prompt_update(t);
	return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
}
