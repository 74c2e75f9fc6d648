/* SPDX-License-Identifier: MIT */
/* tui/tui-draw.c: a session's screen: drawn from its state, animated step by step, and
 * redrawn while a long step or a sweep runs (where q and F10 are read). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "tui/crt.h"
#include "tui/tui-int.h"

/* Animation speeds offered by + and -. */
const double tui_speeds[5] = { 0.25, 0.5, 1, 2, 4 };

/* Monotonic milliseconds. */
uint64_t
tui_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* How many results the lesson has kept. */
size_t
tui_count(const struct tui *t)
{
	return t->l != NULL ? lesson_count(t->l) : 0;
}

/* Result i (below tui_count). */
const struct step_result *
tui_result(const struct tui *t, long i)
{
	return &lesson_results(t->l)[i];
}

/* Lines of a sweep's output, split in place into v (at most max). */
static size_t
tui_sweep_lines(char *text, const char **v, size_t max)
{
	size_t n = 0;

	for (char *p = text; p != NULL && *p != '\0' && n < max;) {
		char *nl = strchr(p, '\n');
		v[n++] = p;
		if (nl == NULL)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return n;
}

/* Draw the current state into the grid and on the terminal (and the recording). */
void
tui_draw(struct tui *t)
{
	struct view_frame f = {
		.scn = t->s, .results = t->l != NULL ? lesson_results(t->l) : NULL,
		.n_results = tui_count(t), .cur = t->cur, .lesson = t->l,
		.initial = &t->initial, .live = t->live, .running = t->running,
		.fs = t->l != NULL ? lesson_fs_name(t->l) : NULL,
		.replay = tui_count(t) > 0 && t->cur < (long)tui_count(t) - 1 && !t->asking,
		.speed = tui_speeds[t->speed], .autoplay = t->autoplay, .ascii = t->o->ascii,
		.big = t->o->big,
		.anim = t->anim, .help = t->help, .focus = t->focus,
		.details = t->show_detail, .detail_cell = t->detail_cell, .crash = t->show_crash,
		.prompt = t->asking ? text_str(&t->prompt) : NULL,
		.prompt_title = t->consenting ? TUI_CONSENT_TITLE : NULL,
		.status = t->status, .sweep_top = t->sweep_top, .step_line = t->o->step_line,
		.program = t->program, .program_toggled = t->program_toggled,
	};
	const char *sweep[256];
	char *sweep_text = NULL;
	int w, h;
	uint64_t el = tui_now_ms() - t->anim_t0;
	double sp = tui_speeds[t->speed];

	crt_size(&w, &h);
	if ((t->g->w != w || t->g->h != h) && grid_resize(t->g, w, h) != 0)
		return;
	if (t->anim == VIEW_ANIM_TRAVEL && t->n_hops > 0) {
		uint64_t hop = (uint64_t)(TUI_HOP_MS / sp);
		size_t i = (size_t)(el / hop);
		if (i >= t->n_hops)
			i = t->n_hops - 1;
		f.hop = t->hops[i];
		f.t = (double)(el - i * hop) / (double)hop;
	}
	/* Blink the cells that changed, then let them settle. */
	if (t->anim == VIEW_ANIM_FLASH && (el / (uint64_t)(TUI_BLINK_MS / sp)) % 2 == 1)
		f.anim = VIEW_ANIM_NONE;
	if (t->cur >= 0 && tui_result(t, t->cur)->sweep != NULL) {
		/* The sweep's table and chart, laid out for the width we have now. */
		size_t len = 0;
		FILE *mf = open_memstream(&sweep_text, &len);
		if (mf != NULL) {
			sweep_print_compact(mf, tui_result(t, t->cur)->sweep, w - 4,
			                    t->o->ascii ? SWEEP_PRINT_ASCII : 0);
			fclose(mf);
		}
		if (sweep_text != NULL) {
			f.n_sweep = tui_sweep_lines(sweep_text, sweep, sizeof sweep / sizeof sweep[0]);
			f.sweep = sweep;
		}
	}
	view_screen_draw(t->g, &f, &t->lay);
	t->sweep_top = t->lay.sweep_top;      /* as clamped to what there is */
	free(sweep_text);
	crt_blit(t->g);
	if (t->cast != NULL)
		cast_frame(t->cast, t->g, t->o->color);
}

/* True if a key waiting now is q or F10 (quit); other keys are dropped while a step runs. */
static bool
tui_quit_key(void)
{
	struct crt_event ev;

	crt_read(0, &ev);
	return ev.kind == CRT_EV_KEY && (ev.key == 'q' || ev.key == CRT_K_F10);
}

/* Progress of a long step (wait): show the state observed so far; q or F10 stops the run. */
int
tui_progress(const struct snapshot *now, double elapsed_s, void *user)
{
	struct tui *t = user;

	if (t->g == NULL)
		return 0;       /* not on the screen yet */
	if (tui_quit_key())
		t->quit = true;
	t->live = now;
	snprintf(t->status, sizeof t->status, "step %zu running: %.1f s%s", tui_count(t) + 1, elapsed_s,
	         t->quit ? "   (stopping)" : "   (q stops it and quits)");
	tui_draw(t);
	t->live = NULL;
	return t->quit;
}

/*
 * While the worker runs a step (runner_poll_fn): q or F10 stops it and quits. A step that
 * lasts says so after a second; drawing sooner would slow the calls being timed.
 */
int
tui_poll(void *user)
{
	struct tui *t = user;
	uint64_t now = tui_now_ms();

	if (t->g == NULL)
		return 0;
	if (tui_quit_key())
		t->quit = true;
	if (!t->quit && now - t->step_t0 >= 1000 && now - t->poll_drawn >= 500) {
		snprintf(t->status, sizeof t->status, "step %zu running: %.1f s   (q stops it and "
		         "quits)", tui_count(t) + 1, (double)(now - t->step_t0) / 1e3);
		tui_draw(t);
		t->poll_drawn = now;
	}
	return t->quit;
}

/* Between the timed runs of a sweep: say where it is; q stops the sweep. */
int
tui_sweep_progress(const struct sweep_progress *p, void *user)
{
	struct tui *t = user;
	struct crt_event ev;
	char line[160];

	if (t->g == NULL)
		return 0;
	/* Nothing runs while we draw: progress comes between runs, never during one. */
	crt_read(0, &ev);
	/* q stops the sweep and shows the rows done; F10 quits the program after it. */
	if (ev.kind == CRT_EV_KEY && ev.key == 'q')
		t->sweep_stop = true;
	if (ev.kind == CRT_EV_KEY && ev.key == CRT_K_F10)
		t->quit = true;
	snprintf(t->status, sizeof t->status, "sweep: %s%s", sweep_print_progress(p, line, sizeof line),
	         t->quit ? "   (quitting)" : t->sweep_stop ? "   (stopping)" :
	         "   (q stops the sweep, F10 quits)");
	tui_draw(t);
	return t->quit || t->sweep_stop ? 1 : 0;
}


/* Begin showing result cur: travel along its hops (if any), then flash. */
void
tui_animate(struct tui *t)
{
	t->n_hops = view_screen_hops(tui_result(t, t->cur), t->hops, VIEW_MAX_HOPS);
	t->anim = t->n_hops > 0 ? VIEW_ANIM_TRAVEL : VIEW_ANIM_FLASH;
	t->anim_t0 = tui_now_ms();
}

/* Advance the animation; return true while it still runs. */
bool
tui_tick(struct tui *t)
{
	double sp = tui_speeds[t->speed];
	uint64_t el = tui_now_ms() - t->anim_t0;

	if (t->anim == VIEW_ANIM_TRAVEL && el >= (uint64_t)(TUI_HOP_MS / sp) * t->n_hops) {
		t->anim = VIEW_ANIM_FLASH;
		t->anim_t0 = tui_now_ms();
	} else if (t->anim == VIEW_ANIM_FLASH && el >= (uint64_t)(TUI_FLASH_MS / sp)) {
		t->anim = VIEW_ANIM_NONE;
		t->auto_at = tui_now_ms() + (uint64_t)(TUI_AUTO_MS / sp);
	}
	return t->anim != VIEW_ANIM_NONE;
}
