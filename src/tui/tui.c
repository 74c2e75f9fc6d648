/* SPDX-License-Identifier: MIT */
/* tui/tui.c: the interactive front end: runs steps on key presses, animates what was observed. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "headless/app.h"
#include "table/print.h"
#include "tui/cast.h"
#include "tui/crt.h"
#include "tui/tui.h"
#include "lesson/lesson.h"
#include "practice/practice.h"
#include "export/program.h"
#include "tui/view.h"
#include "tui/tui-int.h"

/* Start the runner (again): a new scratch dir and file, a new worker. 0 or -1. */
static int
tui_start(struct tui *t, char **err)
{
	struct runner_opts ro = { .dir = t->o->dir, .trace = t->o->trace, .progress = tui_progress,
	                          .sweep_progress = tui_sweep_progress, .poll = tui_poll, .user = t,
	                          .budget = t->o->budget, .probe = t->o->probe,
	                          .timeout = t->o->timeout, .crash_fs = t->o->crash_fs,
	                          .sweep_dirs = t->o->dirs, .n_sweep_dirs = t->o->n_dirs,
	                          .consent = &t->consent, .run_op = t->o->run_op };
	const struct snapshot *ini;

	t->l = lesson_new(t->s, &ro, err);
	if (t->l == NULL)
		return -1;
	ini = lesson_initial(t->l);
	if (ini != NULL)
		t->initial = *ini;
	else
		memset(&t->initial, 0, sizeof t->initial);
	t->cur = -1;
	t->finished = false;
	t->stopped = -1;
	t->anim = VIEW_ANIM_NONE;
	/* Where the scratch file is, when it is not where one would look: before step 1. */
	snprintf(t->status, sizeof t->status, "%s", lesson_place_note(t->l));
	return 0;
}

/* The end of the scenario: say how it went. */
static void
tui_finish(struct tui *t)
{
	size_t bad = t->l != NULL ? lesson_failures(t->l) : 0;
	int n;

	t->finished = true;
	t->autoplay = false;
	if (t->stopped >= 0)
		n = snprintf(t->status, sizeof t->status, "end of scenario: step %ld was stopped, so "
		             "its expectations were not checked; %s", t->stopped + 1,
		             bad == 0 ? "the others held" : "some others failed (red)");
	else   /* A practice problem's expectations are its model: the machine is right. */
		n = snprintf(t->status, sizeof t->status, "end of scenario: %s", bad == 0 ?
		             "every expectation held" : t->o->practice == NULL ? "some expectations "
		             "failed (red)" : "this machine did otherwise than the model (red): its "
		             "answers count");
	if (t->o->quiz && t->asked > 0 && n > 0 && (size_t)n < sizeof t->status)
		snprintf(t->status + n, sizeof t->status - (size_t)n, "   quiz score %d/%d",
		         t->right, t->asked);
}

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
	snprintf(t->status, sizeof t->status, "you said %s; observed %s (%s)  %s   score %d/%d%s%s",
	         t->answer, a[i].text, a[i].detail, ok ? "right!" : "not quite", t->right, t->asked,
	         ok || a[i].why[0] == '\0' ? "" : "   why: ", ok ? "" : a[i].why);
}

/* Score the guess for the step just run. */
static void
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
			         scenario_key_name(sr->expects[i].want->key),
			         text_str(&sr->expects[i].got_text));
			continue;
		}
		/* The truth is what was observed, not what the scenario hoped. */
		bool ok = sr->expects[i].got == t->guess;
		char why[320];
		t->asked++;
		t->right += ok;
		/* Not quite: the run's own facts (which call wrote, what the buffers held). */
		snprintf(t->status, sizeof t->status, "you said %" PRId64 " for %s; observed %" PRId64
		         "  %s   score %d/%d%s%s", t->guess,
		         scenario_key_name(sr->expects[i].want->key), sr->expects[i].got,
		         ok ? "right!" : "not quite", t->right, t->asked, ok ? "" : "   why: ",
		         ok ? "" : practice_why(sr, why, sizeof why));
	}
}

/* Run the next step of the scenario and show it. */
static void
tui_run_step(struct tui *t)
{
	int rc;

	if (t->l == NULL || t->finished)
		return;
	snprintf(t->status, sizeof t->status, "running step %zu...", tui_count(t) + 1);
	tui_draw(t);
	t->running = true;
	t->sweep_stop = false;
	t->step_t0 = tui_now_ms();
	rc = lesson_step(t->l);
	t->running = false;
	t->status[0] = '\0';     /* the progress line of a long step is over */
	if (rc > 0 && lesson_last(t->l)->stopped)
		t->stopped = (long)tui_count(t) - 1;
	if (t->quit)
		return;              /* q while it ran: the main loop leaves */
	if (rc == 0) {
		tui_finish(t);
		return;
	}
	if (rc < 0) {
		snprintf(t->status, sizeof t->status, "out of memory");
		return;
	}
	t->cur = (long)tui_count(t) - 1;
	/* The recording marks each step: a player lists them and jumps to one. */
	if (t->cast != NULL) {
		char call[256], label[300];
		view_step_line(t->o->step_line, lesson_last(t->l)->step, call, sizeof call);
		snprintf(label, sizeof label, "step %zu/%zu: %s", tui_count(t), t->s->n_steps, call);
		cast_marker(t->cast, label);
	}
	tui_score(t);
	tui_animate(t);
	if (tui_count(t) == t->s->n_steps)
		tui_finish(t);
}

/* Ask a practice problem's choice question about the next step, if it has one. */
static bool
tui_ask_choice(struct tui *t, const struct scn_step *st)
{
	const struct practice_problem *p = t->o->practice;
	char call[256];

	for (size_t i = 0; p != NULL && i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		if (q->step != tui_count(t) || q->n_choices == 0)
			continue;
		t->ask_q = (long)i;
		view_step_line(t->o->step_line, st, call, sizeof call);
		text_reset(&t->prompt);
		text_addf(&t->prompt, "Next: step %zu, %s\n%s\n", tui_count(t) + 1, call, q->text);
		for (size_t c = 0; c < q->n_choices; c++)
			text_addf(&t->prompt, "  %c) %s\n", (char)('a' + c), q->choices[c]);
		text_add(&t->prompt, "\nyour guess: _\n\n(a letter, Enter to run the step, Esc to "
		         "skip the question)");
		return true;
	}
	return false;
}

/* Ask the quiz question for the next step, if it has one; return true if asking. */
static bool
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
	text_reset(&t->prompt);
	text_addf(&t->prompt, "Next: step %zu, %s\n%s\n\nyour guess: %s_\n\n(digits, Enter to run "
	          "the step, Esc to skip the question)", tui_count(t) + 1, call, q, t->answer);
	return true;
}

/* Refresh the prompt after the answer changed. */
static void
tui_prompt_update(struct tui *t)
{
	/* The last "your guess: " is ours: a question may hold the words too. */
	const char *s = text_str(&t->prompt), *p = NULL;
	struct text_buf nb = { 0 };

	for (const char *q = s; (q = strstr(q, "your guess: ")) != NULL; q++)
		p = q;
	if (p == NULL)
		return;
	const char *rest = strstr(p, "\n\n");
	text_addn(&nb, s, (size_t)(p - s));
	text_addf(&nb, "your guess: %s_%s", t->answer, rest != NULL ? rest : "");
	text_buf_free(&t->prompt);
	t->prompt = nb;
}

/* Whether the consent prompt shows every command line on a w x h screen; if not, it says
 * so instead, and y is not taken (prog_consent_prompt_refusal). */
static bool
tui_consent_shown(struct tui *t, int w, int h)
{
	char refusal[256];

	if (t->consent_whole &&
	    !view_frame_popup_fits(w, h, TUI_CONSENT_TITLE, text_str(&t->prompt)))
		t->consent_whole = false;
	if (!t->consent_whole) {
		prog_consent_prompt_refusal(t->consent_n, refusal, sizeof refusal);
		text_reset(&t->prompt);
		text_add(&t->prompt, refusal);
	}
	return t->consent_whole;
}

/* Before the first step that runs a program not allowed yet: ask (prog/consent.h). */
static bool
tui_ask_consent(struct tui *t)
{
	/* prog_consent_prompt refuses (says so, and takes no y) past this: a bound seen. */
	char cmds[8192];
	int w, h;

	if (t->declined ||
	    (t->consent_n = prog_consent_prompt(t->s, &t->consent, tui_count(t), cmds, sizeof cmds,
	                                        &t->consent_whole)) == 0)
		return false;
	text_reset(&t->prompt);
	text_add(&t->prompt, cmds);
	crt_size(&w, &h);
	tui_consent_shown(t, w, h);
	t->consenting = t->asking = true;
	t->autoplay = false;
	return true;
}

/* A key while asking whether programs may run; return what it did (TUI_KEY_*). */
static unsigned
tui_key_consent(struct tui *t, int k)
{
	if (k == 'q' || k == 'Q' || k == CRT_K_F10)
		return TUI_KEY_HANDLED | TUI_KEY_QUIT;
	if (k != 'y' && k != 'Y' && k != 'n' && k != 'N' && k != CRT_K_ESC)
		return 0;
	if (k == 'y' || k == 'Y') {
		/* Only once every command line is on the screen, as it is now (resized since?). */
		int w, h;
		crt_size(&w, &h);
		if (!tui_consent_shown(t, w, h))
			return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
	}
	t->consent.all = k == 'y' || k == 'Y';
	t->declined = !t->consent.all;
	t->consenting = t->asking = false;
	if (!tui_ask(t))
		tui_run_step(t);
	return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
}

/* Next: replay forward through the history, or run a new step. */
static void
tui_next(struct tui *t)
{
	t->status[0] = '\0';
	t->sweep_top = 0;
	if (t->cur + 1 < (long)tui_count(t)) {
		t->cur++;
		tui_animate(t);
		return;
	}
	if (t->finished) {
		tui_finish(t);
		return;
	}
	if (tui_ask_consent(t) || tui_ask(t))
		return;
	tui_run_step(t);
}

/*
 * x: what a crash leaves. On the newest step, both crashes are made now (a person's pace: the
 * kernel may have written since the step) and kept with it; on a replayed step, its recorded
 * view or why there is none. x again closes it.
 */
static void
tui_crash(struct tui *t)
{
	t->status[0] = '\0';
	if (t->show_crash) {
		t->show_crash = false;
		return;
	}
	t->show_detail = false;
	t->show_crash = true;
	if (t->l != NULL && t->cur >= 0 && t->cur == (long)tui_count(t) - 1 &&
	    lesson_crash(t->l) < 0)
		snprintf(t->status, sizeof t->status, "x: the crash could not be made: %s",
		         strerror(errno));
}

/* Show the details of the focused pane (none when no pane has the focus). */
static void
tui_details(struct tui *t)
{
	t->show_detail = t->focus != VIEW_PANE_NONE;
	t->detail_cell = -1;
}

/* A click: a cache cell shows its pages; elsewhere closes the details. */
static void
tui_click(struct tui *t, int x, int y)
{
	long i = view_cache_hit(&t->lay.cache, x, y);

	if (i >= 0) {
		t->focus = VIEW_PANE_CACHE;
		t->show_detail = true;
		t->detail_cell = i;
		return;
	}
	for (int p = 0; p < VIEW_PANE__COUNT; p++) {
		struct grid_rect r = t->lay.pane[p];
		if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h && !t->show_detail) {
			t->focus = (enum view_pane)p;
			tui_details(t);
			return;
		}
	}
	t->show_detail = false;
	t->focus = VIEW_PANE_NONE;
}

/* A key while the quiz asks; return what it did (TUI_KEY_*). */
static unsigned
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

/* Scroll a sweep's table and chart; return true if k was a scrolling key. */
static bool
tui_scroll(struct tui *t, int k)
{
	size_t page = t->lay.sweep_rows > 1 ? (size_t)t->lay.sweep_rows - 1 : 1;

	switch (k) {
	case CRT_K_UP: case 'k':
		t->sweep_top = t->sweep_top > 0 ? t->sweep_top - 1 : 0;
		return true;
	case CRT_K_DOWN: case 'j':
		t->sweep_top++;               /* tui_draw() clamps it */
		return true;
	case CRT_K_PGUP:
		t->sweep_top = t->sweep_top > page ? t->sweep_top - page : 0;
		return true;
	case CRT_K_PGDN:
		t->sweep_top += page;
		return true;
	case CRT_K_HOME:
		t->sweep_top = 0;
		return true;
	case CRT_K_END:
		t->sweep_top = (size_t)-1 / 2;
		return true;
	default:
		return false;
	}
}

/* Handle one key; return what it did (TUI_KEY_*). */
static unsigned
tui_key(struct tui *t, int k)
{
	if (t->consenting)
		return tui_key_consent(t, k);
	if (t->asking)
		return tui_key_quiz(t, k);
	if (t->help) {
		/* ? F1: the next page (the glossary); other keys close it; q F10 quit too. */
		t->help = k == '?' || k == CRT_K_F1 ? view_frame_help_turn(t->g, t->help) : 0;
		if (t->help || (k != 'q' && k != CRT_K_F10))
			return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
	}
	if (t->lay.sweep_rows > 0 && tui_scroll(t, k))
		return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
	switch (k) {
	case 'q': case 'Q': case CRT_K_F10:
		return TUI_KEY_HANDLED | TUI_KEY_QUIT;
	case CRT_K_RIGHT: case ' ': case 'n': case CRT_K_ENTER:
		t->show_detail = false;
		t->show_crash = false;
		t->anim = VIEW_ANIM_NONE;
		tui_next(t);
		break;
	case CRT_K_LEFT: case 'p': case CRT_K_BACKSPACE:
		t->show_detail = false;
		t->show_crash = false;
		t->anim = VIEW_ANIM_NONE;
		t->autoplay = false;
		t->sweep_top = 0;
		if (t->cur >= 0)
			t->cur--;
		if (tui_count(t) > 0)
			snprintf(t->status, sizeof t->status, "replay: %s", t->cur >= 0 ?
			         "the snapshot recorded after this step (n goes forward)" :
			         "the state before the first step (n goes forward)");
		break;
	case 'r': case 'R': {
		char *err = NULL;
		lesson_free(t->l);
		t->l = NULL;
		t->cur = -1;        /* nothing is left to show, even if the restart fails */
		t->status[0] = '\0';
		t->show_detail = false;
		t->asked = t->right = 0;
		if (tui_start(t, &err) != 0) {
			snprintf(t->status, sizeof t->status, "restart failed: %s",
			         err != NULL ? err : strerror(errno));
			t->finished = true;
		} else {
			snprintf(t->status, sizeof t->status, "restarted with a new scratch file");
		}
		free(err);
		break;
	}
	case 'a': case 'A':
		t->autoplay = !t->autoplay;
		t->auto_at = tui_now_ms();
		break;
	case '+': case '=':
		if (t->speed + 1 < (int)(sizeof tui_speeds / sizeof tui_speeds[0]))
			t->speed++;
		break;
	case '-': case '_':
		if (t->speed > 0)
			t->speed--;
		break;
	case '\t':
		t->focus = t->focus == VIEW_PANE_NONE ? VIEW_PANE_STDIO :
		           t->focus + 1 < VIEW_PANE__COUNT ? t->focus + 1 : VIEW_PANE_NONE;
		tui_details(t);
		break;
	case CRT_K_BTAB:
		t->focus = t->focus == VIEW_PANE_NONE ? VIEW_PANE_LOG : t->focus - 1;
		tui_details(t);
		break;
	case CRT_K_ESC:
		t->focus = VIEW_PANE_NONE;
		t->show_detail = false;
		t->show_crash = false;
		break;
	case 'x': case 'X':
		tui_crash(t);
		break;
	case '?': case 'h': case CRT_K_F1:
		t->help = 1;
		break;
	case 'c': case 'C':
		t->program_toggled = !t->program_toggled;
		break;
	case 0x0c:      /* Ctrl-L */
		return TUI_KEY_HANDLED | TUI_KEY_REPAINT | TUI_KEY_REDRAW;
	default:
		return 0;           /* not a key of ours: nothing to draw */
	}
	return TUI_KEY_HANDLED | TUI_KEY_REDRAW;
}

/* How long to wait for input: short while animating, until the next autoplay step, or
 * forever (no busy loop: an idle TUI uses no CPU). */
static int
tui_timeout(struct tui *t)
{
	if (t->anim != VIEW_ANIM_NONE)
		return TUI_TICK_MS;
	if (t->autoplay && !t->finished && !t->asking) {
		uint64_t now = tui_now_ms();
		return t->auto_at > now ? (int)(t->auto_at - now) : 0;
	}
	return -1;
}

/* Run the scenario in the terminal. */
int
tui_run(const struct scenario *s, const struct app_opts *o)
{
	struct tui *t = calloc(1, sizeof *t);
	char *err = NULL;
	int rc = APP_EXIT_OK, w, h;

	if (t == NULL) {
		fprintf(stderr, "iobufviz: out of memory\n");
		return APP_EXIT_ENV;
	}
	t->s = s;
	t->ask_q = -1;
	t->o = o;
	t->consent = o->consent;
	t->speed = TUI_SPEED_DEFAULT;
	t->focus = VIEW_PANE_NONE;
	t->detail_cell = -1;
	t->program = program_new(s);
	if (tui_start(t, &err) != 0) {
		text_fline(stderr, "iobufviz: ", err != NULL ? err : strerror(errno), "\n");
		free(err);
		program_free(t->program);
		free(t);
		return APP_EXIT_ENV;
	}
	/* --record: a file that cannot be made is said before the screen is taken. */
	if (o->record != NULL && (t->cast = cast_open(o->record, 0, 0, s->title)) == NULL) {
		text_fline(stderr, "iobufviz: --record: cannot create ", o->record, ": ");
		fprintf(stderr, "%s\n", strerror(errno));
		rc = APP_EXIT_USAGE;
	} else if (crt_init(o->color, o->mouse) != 0) {
		fprintf(stderr, "iobufviz: cannot use this terminal\n");
		rc = APP_EXIT_ENV;
	}
	if (rc != APP_EXIT_OK) {
		cast_close(t->cast);
		lesson_free(t->l);
		program_free(t->program);
		free(t);
		return rc;
	}
	crt_size(&w, &h);
	t->g = grid_new(w, h);
	for (bool redraw = true; t->g != NULL && !t->quit;) {
		struct crt_event ev;
		unsigned did;

		if (redraw)
			tui_draw(t);
		redraw = true;
		crt_read(tui_timeout(t), &ev);
		switch (ev.kind) {
		case CRT_EV_KEY:
			did = tui_key(t, ev.key);
			if (did & TUI_KEY_REPAINT)
				crt_redraw();
			if (did & TUI_KEY_QUIT)
				t->quit = true;     /* as a q read while a long step runs does */
			redraw = (did & TUI_KEY_REDRAW) != 0;
			break;
		case CRT_EV_MOUSE:
			if (o->mouse)
				tui_click(t, ev.x, ev.y);
			break;
		case CRT_EV_RESIZE:
			break;      /* tui_draw() lays out again for the new size */
		case CRT_EV_TIMEOUT:
			if (t->anim != VIEW_ANIM_NONE)
				tui_tick(t);
			else if (t->autoplay && !t->finished && tui_now_ms() >= t->auto_at)
				tui_next(t);
			break;
		}
	}
	crt_done();
	if (cast_close(t->cast) != 0)
		text_fline(stderr, "iobufviz: writing ", o->record, " failed\n");
	if (o->quiz && t->asked > 0)
		printf("quiz: %d of %d predictions right\n", t->right, t->asked);
	/* Past --timeout the environment's bound ended the run: 3, as headless says. */
	rc = t->l == NULL ? APP_EXIT_OK : lesson_timed_out(t->l) ? APP_EXIT_ENV :
	     lesson_failures(t->l) > 0 ? APP_EXIT_FAILED : APP_EXIT_OK;
	lesson_free(t->l);
	program_free(t->program);
	grid_free(t->g);
	text_buf_free(&t->prompt);
	free(t);
	return rc;
}
