/* SPDX-License-Identifier: MIT */
/* tui/tui-int.h: what the TUI's files share (tui/tui.c: the loop, keys, steps and drawing;
 * tui/tui-quiz.c: the quiz, which asks before a step and scores after it): the session's
 * state and the functions each calls of the other. */
#ifndef IOBUFVIZ_TUI_INT_H
#define IOBUFVIZ_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/app.h"
#include "export/program.h"
#include "lesson/lesson.h"
#include "prog/consent.h"
#include "tui/cast.h"
#include "tui/grid.h"
#include "tui/view.h"

/* What a key handler did (htop's handler results): the main loop draws, repaints and
 * quits on these, so that no handler has to. */
enum tui_key_flag {
	TUI_KEY_HANDLED = 1 << 0,  /* the key meant something here */
	TUI_KEY_REDRAW = 1 << 1,   /* the state changed: draw again */
	TUI_KEY_REPAINT = 1 << 2,  /* the terminal may be garbled: repaint all of it */
	TUI_KEY_QUIT = 1 << 3,     /* leave the program */
};

/* The whole state of a session (one per tui_run; nothing global). */
struct tui {
	bool sweep_stop;            /* q while a sweep runs: stop it, keep the rows done */
	const struct scenario *s;
	const struct app_opts *o;
	struct program *program;   /* the scenario as C, for the program pane (NULL: no memory) */
	bool program_toggled;      /* c: its default for the width flipped */
	struct lesson *l;          /* NULL after a failed restart */
	struct snapshot initial;
	long cur;                  /* shown result; -1: before the first step */
	bool finished;             /* the runner has no more steps */
	int speed;                 /* index into tui_speeds */
	bool autoplay;
	uint64_t auto_at;          /* when autoplay takes the next step (ms) */
	enum view_anim anim;
	struct view_hop hops[VIEW_MAX_HOPS];
	size_t n_hops;
	uint64_t anim_t0;
	int help;                  /* 0: closed; 1: the keys; N: the glossary's page N - 1 */
	size_t sweep_top;          /* first line of a sweep's table shown */
	enum view_pane focus;
	bool show_detail;          /* the details popup of focus (tui/view-details.c) */
	bool show_crash;           /* x: what a crash leaves (tui/view-crash.c) */
	long detail_cell;          /* ... or of this clicked cache cell; -1: the pane's */
	char status[512];
	struct prog_consent consent; /* the programs run steps may run: o->consent, or a y */
	bool consenting, declined; /* asking (with asking) if they may; n said: asked no more */
	/* quiz */
	bool asking;
	size_t ask_expect;         /* which expectation of the next step is asked */
	char answer[24];
	char prompt[8192];         /* the quiz's question, or the command lines to allow */
	bool guessed;
	int64_t guess;
	int asked, right;
	long ask_q;                /* --practice: the choice question asked; -1: a number */
	/* screen */
	struct grid *g;
	struct view_layout lay;
	const struct snapshot *live;
	bool running;              /* runner_step() is under way (progress callbacks draw) */
	uint64_t step_t0;          /* when the running step started (ms) */
	uint64_t poll_drawn;       /* when tui_poll last drew (ms) */
	long stopped;              /* the step the user stopped, -1: none */
	struct cast *cast;
	bool quit;
};

/* tui/tui.c: monotonic milliseconds; the results kept; result i; draw now; run the next step. */
uint64_t tui_now_ms(void);
size_t tui_count(const struct tui *t);
const struct step_result *tui_result(const struct tui *t, long i);
void tui_draw(struct tui *t);
void tui_run_step(struct tui *t);

/* tui/tui-quiz.c: score the guess for the step just run (its status line). */
void tui_score(struct tui *t);

/* tui/tui-quiz.c: ask the quiz question for the next step, if it has one; true if asking. */
bool tui_ask(struct tui *t);

/* tui/tui-quiz.c: a key while the quiz asks; what it did (TUI_KEY_*). */
unsigned tui_key_quiz(struct tui *t, int k);

#endif
