/* SPDX-License-Identifier: MIT */
/* tui/tui-int.h: a session's state, shared by tui.c (the loop, the keys, the quiz) and
 * tui-draw.c (its screen, animation and progress while a step runs), which is below it. */
#ifndef IOBUFVIZ_TUI_INT_H
#define IOBUFVIZ_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"
#include "headless/app.h"
#include "export/program.h"
#include "lesson/lesson.h"
#include "table/print.h"
#include "tui/cast.h"
#include "tui/view.h"

/* Animation speeds offered by + and -. */
extern const double tui_speeds[5];
#define TUI_SPEED_DEFAULT 2

/* Milliseconds, at speed 1, for one hop, for the flash, and between autoplay steps. */
#define TUI_HOP_MS 450
#define TUI_FLASH_MS 600
#define TUI_BLINK_MS 150
#define TUI_AUTO_MS 1800
#define TUI_TICK_MS 33

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
	struct text_buf prompt;    /* the quiz's question, or the command lines to allow */
	size_t consent_n;          /* how many command lines the consent prompt is about */
	bool consent_whole;        /* the prompt shows them all (else y is not taken) */
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


/* tui-draw.c: monotonic milliseconds. */
uint64_t tui_now_ms(void);

/* tui-draw.c: how many results the lesson has kept. */
size_t tui_count(const struct tui *t);

/* tui-draw.c: result i (below tui_count). */
const struct step_result *tui_result(const struct tui *t, long i);

/* tui-draw.c: draw the current state into the grid and on the terminal (and the recording). */
void tui_draw(struct tui *t);

/* tui-draw.c: a long step's progress (runner_opts.progress): the state so far; q stops it. */
int tui_progress(const struct snapshot *now, double elapsed_s, void *user);

/* tui-draw.c: while the worker runs a step (runner_opts.poll): q or F10 stops it. */
int tui_poll(void *user);

/* tui-draw.c: between a sweep's timed runs (runner_opts.sweep_progress): q stops the sweep. */
int tui_sweep_progress(const struct sweep_progress *p, void *user);

/* tui-draw.c: begin showing result t->cur: travel along its hops (if any), then flash. */
void tui_animate(struct tui *t);

/* tui-draw.c: advance the animation; true while it still runs. */
bool tui_tick(struct tui *t);

/* The consent prompt's title (tui-draw.c; tui.c measures the popup with it). */
#define TUI_CONSENT_TITLE "this lesson runs programs"

#endif
