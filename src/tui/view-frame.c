/* SPDX-License-Identifier: MIT */
/* tui/view-frame.c: what surrounds the panes: title bar, footer, narration, expectations, help. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/describe.h"
#include "lesson/expect.h"
#include "lesson/lesson.h"
#include "lesson/narrate.h"
#include "base/units.h"
#include "scenario/glossary.h"
#include "tui/view.h"

/* The title bar tells the time since the step before only past this many seconds: a person
 * reading, not a key held down. */
#define VIEW_FRAME_SINCE_MIN_S 1.0

/* Speed as shown: "1×", "0.5×". */
static void
view_frame_speed(double speed, bool ascii, char *buf, size_t len)
{
	snprintf(buf, len, speed >= 1 ? "%.0f%s" : "%.2g%s", speed, ascii ? "x" : "×");
}

/* The time a person took before the shown step, when it is long enough for the kernel to
 * have acted on its own ("+31 s since step 3"), in buf; "" when not (a step run at once, the
 * first, a long step still running). */
static void
view_frame_since(const struct view_frame *f, char *buf, size_t len)
{
	const struct step_result *sr;
	double s;

	buf[0] = '\0';
	if (f->live != NULL || f->running || f->cur < 1 || (size_t)f->cur >= f->n_results)
		return;
	sr = &f->results[f->cur];
	s = sr->pause.seconds;
	if (s <= VIEW_FRAME_SINCE_MIN_S)
		return;
	snprintf(buf, len, s < 10 ? "   +%.1f s since step %zu" : "   +%.0f s since step %zu", s,
	         f->first + (size_t)f->cur);
}

/* Draw the title bar. */
void
view_frame_title(struct grid *g, int y, const struct view_frame *f)
{
	char right[200], sp[16], step[48], left[512], since[64];
	int rw, lw;

	grid_fill(g, (struct grid_rect){ 0, y, g->w, 1 }, ' ', GS_TITLE);
	view_frame_speed(f->speed, f->ascii, sp, sizeof sp);
	if (f->live != NULL || f->running)   /* a long step is running: it is the one shown */
		snprintf(step, sizeof step, "step %zu/%zu", f->first + f->n_results + 1,
		         f->first + f->scn->n_steps);
	else if (f->cur < 0)
		snprintf(step, sizeof step, "step 0/%zu", f->first + f->scn->n_steps);
	else
		snprintf(step, sizeof step, "step %zu/%zu", f->first + (size_t)f->cur + 1,
		         f->first + f->scn->n_steps);
	view_frame_since(f, since, sizeof since);
	snprintf(right, sizeof right, "%s%s%s%s   speed %s   ? help ",
	         f->replay ? "REPLAY   " : "", f->autoplay ? "autoplay   " : "", step, since, sp);
	rw = text_width(right);
	snprintf(left, sizeof left, " iobufviz %s %s%s%s", f->ascii ? "-" : "\xe2\x94\x80",
	         f->scn->title != NULL ? f->scn->title : "", f->scn->source != NULL ? "   " : "",
	         f->scn->source != NULL ? f->scn->source : "");
	lw = g->w - rw - 1;
	if (lw > 0)
		grid_print(g, 0, y, lw, GS_TITLE, left);
	grid_print(g, g->w - rw > 0 ? g->w - rw : 0, y, g->w, GS_TITLE, right);
	if (f->replay) {
		int x = g->w - rw;
		for (int i = 0; i < 6; i++) {
			struct grid_cell *c = grid_at(g, x + i, y);
			if (c != NULL)
				c->style = GS_ERROR;
		}
	}
}

/*
 * The lesson's keys, each with the one meaning the help, the footer, the man page's KEYS and
 * the README give it: the help lists them all, the footer those with a word. An ascii label
 * of NULL: the same as the Unicode one.
 */
static const struct view_frame_key {
	const char *keys, *keys_ascii;   /* as the help lists them */
	const char *foot, *foot_ascii;   /* as the footer shows them; NULL: not in the footer */
	const char *word;                /* what the footer says it does */
	const char *help;                /* what the help says it does */
} view_frame_keys[] = {
	{ "\xe2\x86\x92 space n", "-> space n", "n/\xe2\x86\x92", "n/->", "next",
	  "run the next step" },
	{ "\xe2\x86\x90 p", "<- p", "p/\xe2\x86\x90", "p/<-", "back",
	  "go back (replays the recorded snapshot)" },
	{ "a", NULL, "a", NULL, "autoplay", "autoplay on/off" },
	{ "+ -", NULL, "+/-", NULL, "speed", "faster / slower animation" },
	{ "Tab", NULL, "Tab", NULL, "details",
	  "the next pane's details (a click on a cell: that cell's)" },
	{ "Shift-Tab", NULL, NULL, NULL, NULL,
	  "the previous pane's details (first the log: all the step)" },
	{ "c", NULL, "c", NULL, "program",
	  "the program pane: the lesson as C (beside from 120 cols)" },
	{ "x", NULL, "x", NULL, "crash",
	  "what a crash leaves now: kill -9, and a power cut (--crash-fs)" },
	{ "q F10", NULL, "q", NULL, "quit", "quit" },
	{ "r", NULL, "r", NULL, "restart", "restart (a new scratch file)" },
	{ "\xe2\x86\x91\xe2\x86\x93 PgUp PgDn", "^v PgUp PgDn", NULL, NULL, NULL,
	  "scroll a sweep's table and chart" },
	{ "Ctrl-L", NULL, NULL, NULL, NULL, "redraw" },
	{ "? F1", NULL, "?", NULL, "help",
	  "this help; again: the words on the screen, explained" },
};

#define VIEW_FRAME_KEYS (sizeof view_frame_keys / sizeof view_frame_keys[0])

/* Draw the footer: keys in bold, what they do in plain. */
void
view_frame_footer(struct grid *g, int y, const struct view_frame *f)
{
	int x = 1;

	grid_fill(g, (struct grid_rect){ 0, y, g->w, 1 }, ' ', GS_NORMAL);
	if (f->status != NULL && *f->status != '\0') {
		grid_print(g, 1, y, g->w - 2, GS_BOLD, f->status);
		return;
	}
	/* A mode with keys of its own (a traced program's) gives them; else the lesson's. */
	for (size_t i = 0; f->keys != NULL && i < f->n_keys; i++) {
		int need = text_width(f->keys[i][0]) + 1 + text_width(f->keys[i][1]);
		if (x + need > g->w)
			return;
		x += grid_print(g, x, y, g->w - x, GS_KEY, f->keys[i][0]) + 1;
		x += grid_print(g, x, y, g->w - x, GS_DIM, f->keys[i][1]) + 2;
	}
	for (size_t i = 0; f->keys == NULL && i < VIEW_FRAME_KEYS; i++) {
		const struct view_frame_key *k = &view_frame_keys[i];
		const char *key = f->ascii && k->foot_ascii != NULL ? k->foot_ascii : k->foot;
		/* a's word says what it will do: stop a running autoplay */
		const char *word = k->word != NULL && strcmp(k->word, "autoplay") == 0 &&
		                   f->autoplay ? "stop" : k->word;
		int need;

		if (key == NULL)
			continue;
		need = text_width(key) + 1 + text_width(word);
		if (x + need > g->w)
			break;
		x += grid_print(g, x, y, g->w - x, GS_KEY, key) + 1;
		x += grid_print(g, x, y, g->w - x, GS_DIM, word) + 2;
	}
}

/*
 * Reflow scenario prose into buf: a single line break inside a paragraph becomes a space
 * (YAML "|" blocks are wrapped for an editor, not for this terminal), while blank lines and
 * indented lines (code) keep their breaks.
 */
static const char *
view_frame_reflow(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = s; *p != '\0' && n + 1 < len; p++) {
		if (*p == '\n' && p[1] != '\0' && p[1] != '\n' && p[1] != ' ' && p[1] != '\t' &&
		    p > s && p[-1] != '\n') {
			/* Keep the break after an indented (code) line. */
			const char *bol = p;
			while (bol > s && bol[-1] != '\n')
				bol--;
			if (*bol != ' ' && *bol != '\t') {
				buf[n++] = ' ';
				continue;
			}
		}
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return buf;
}

/* Draw told sentences V (N of them) in r: the text, each unchecked sentence marked [?K] and
 * its reason below, dim. Rows used; 0 when nothing was told. */
static int
view_frame_said(struct grid *g, struct grid_rect r, const struct sentence_result *v, size_t n)
{
	char *marked = narrate_marked(v, n), text[4096], why[640];
	unsigned k = 0;
	int y = 0;

	if (marked == NULL || marked[0] == '\0') {
		free(marked);
		return 0;
	}
	y = grid_wrap(g, r, GS_NORMAL, view_frame_reflow(marked, text, sizeof text));
	free(marked);
	for (size_t i = 0; i < n; i++) {
		if (v[i].outcome != SENTENCE_UNCHECKED)
			continue;
		snprintf(why, sizeof why, "[?%u] not observable here: %s", ++k,
		         text_str(&v[i].why));
		y += grid_wrap(g, (struct grid_rect){ r.x, r.y + y, r.w, r.h - y > 0 ? r.h - y : 0 },
		               GS_DIM, why);
	}
	return y;
}

/* Step st as the line of C fn writes (NULL: describe_step). */
char *
view_step_line(char *(*fn)(const struct scn_step *, char *, size_t), const struct scn_step *st,
               char *buf, size_t len)
{
	return fn != NULL ? fn(st, buf, len) : describe_step(st, buf, len);
}

/* Draw the narration: the intro before step 1, then each step's say and remarks. */
int
view_frame_narration(struct grid *g, struct grid_rect r, const struct view_frame *f)
{
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	char call[256], text[4096], buf2[4096];
	const struct sentence_result *iv;
	size_t in;
	int y = 0;

	if (r.w < 4)
		return 0;
	if ((f->live != NULL || f->running) && f->n_results < f->scn->n_steps) {
		/* A long step (wait) is running: the panes show its state so far. */
		view_step_line(f->step_line, &f->scn->steps[f->n_results], call, sizeof call);
		grid_printf(g, r.x, r.y, r.w, GS_BOLD, "step %zu: %s%s", f->n_results + 1, call,
		            f->ascii ? " ... (running)" : " \xe2\x80\xa6 (running)");
		return 1;
	}
	if (sr == NULL && f->lesson != NULL && lesson_intro(f->lesson, &iv, &in) != NULL)
		return view_frame_said(g, r, iv, in);
	if (sr == NULL) {
		const char *intro = f->scn->intro != NULL ? f->scn->intro : f->scn->title;
		return grid_wrap(g, r, GS_NORMAL, view_frame_reflow(intro != NULL ? intro : "", text,
		                                                     sizeof text));
	}
	view_step_line(f->step_line, sr->step, call, sizeof call);
	if (f->anim == VIEW_ANIM_TRAVEL) {
		grid_printf(g, r.x, r.y, r.w, GS_BOLD, "step %zu: %s%s", sr->index + 1, call,
		            f->ascii ? " ..." : " \xe2\x80\xa6");
		return 1;
	}
	if (sr->stopped) {
		/* The user's doing (q) or the run's bound, not the call's failure. */
		if (y < r.h)
			grid_printf(g, r.x, r.y + y, r.w, GS_ERROR, "%s stopped (%s): %s", call,
			            sr->timed_out ? "--timeout" : "q", text_str(&sr->note));
		y++;
	} else if (sr->declined) {
		/* Not run, as the user said: no call failed (the note says why). */
		if (y < r.h)
			grid_printf(g, r.x, r.y + y, r.w, GS_DIM, "step %zu: %s was not run",
			            sr->index + 1, call);
		y++;
	} else if (sr->err != 0) {
		if (y < r.h)
			grid_printf(g, r.x, r.y + y, r.w, GS_ERROR, "%s failed: %s (%s)", call,
			            strerrorname_np(sr->err) != NULL ? strerrorname_np(sr->err) : "?",
			            strerror(sr->err));
		y++;
	}
	/* What the kernel did on its own between the steps (writeback, eviction) comes first:
	 * it is why an expectation about the cache may fail. */
	for (size_t i = 0; i < sr->changes.n; i++)
		if (sr->changes.v[i].between)
			y += grid_wrap(g, (struct grid_rect){ r.x, r.y + y, r.w,
			                                      r.h - y > 0 ? r.h - y : 0 },
			               GS_DIRTY, sr->changes.v[i].text);
	if (sr->n_sentences > 0 && sr->n_sentences > sr->n_false)
		y += view_frame_said(g, (struct grid_rect){ r.x, r.y + y, r.w,
		                                            r.h - y > 0 ? r.h - y : 0 },
		                     sr->sentences, sr->n_sentences);
	else if (step_result_say(sr) != NULL && sr->n_sentences == 0)
		y += grid_wrap(g, (struct grid_rect){ r.x, r.y + y, r.w, r.h - y > 0 ? r.h - y : 0 },
		               GS_NORMAL, view_frame_reflow(step_result_say(sr), text, sizeof text));
	else if (!sr->declined) {
		if (y < r.h)
			grid_printf(g, r.x, r.y + y, r.w, GS_DIM, "step %zu: %s returned %" PRId64,
			            sr->index + 1, call, sr->ret);
		y++;
	}
	/* A sentence false here is not told: it failed, like an expectation, and says why. */
	for (size_t i = 0; i < sr->n_sentences; i++) {
		if (sr->sentences[i].outcome != SENTENCE_FALSE)
			continue;
		snprintf(text, sizeof text, "false here, not told: \"%.1500s\" (%.1500s)",
		         sr->sentences[i].text, text_str(&sr->sentences[i].why));
		y += grid_wrap(g, (struct grid_rect){ r.x, r.y + y, r.w, r.h - y > 0 ? r.h - y : 0 },
		               GS_ERROR, view_frame_reflow(text, buf2, sizeof buf2));
	}
	/* What a pty or tail step printed is in the stdio pane (view_stdio_output). */
	if (sr->note.len > 0)
		y += grid_wrap(g, (struct grid_rect){ r.x, r.y + y, r.w, r.h - y > 0 ? r.h - y : 0 },
		               GS_DIM, text_str(&sr->note));
	return y;
}

/* Text of one expectation: "stdio.pending = 904", "(got 0)" when it failed; short keeps
 * only the key of one that held. */
void
view_frame_expect_text(const struct expect_result *er, bool shrt, char *buf, size_t len)
{
	const struct scn_expect *w = er->want;
	char got[300], want[300];

	if (er->got_text.len > 0)
		snprintf(got, sizeof got, "%s", text_str(&er->got_text));
	else
		snprintf(got, sizeof got, "%" PRId64, er->got);
	expect_format_want(w, want, sizeof want);
	if (er->outcome == EXPECT_NOT_OBSERVABLE)
		snprintf(buf, len, "%s %s (not observable here: %s)", scenario_key_name(w->key), want,
		         text_str(&er->got_text));
	else if (er->ok && shrt)
		snprintf(buf, len, "%s", scenario_key_name(w->key));
	else if (er->ok)
		snprintf(buf, len, "%s %s", scenario_key_name(w->key), want);
	else
		snprintf(buf, len, "%s %s (got %s)", scenario_key_name(w->key), want, got);
}

/* Lay out the expectations; draw them when g is not NULL. Return the lines needed. Short
 * (when they do not all fit): failures first and in full, held ones by key, and "+N" for
 * what is left over. */
static int
view_frame_expect_flow(struct grid *g, struct grid_rect r, const struct step_result *sr,
                       bool shrt, bool reserve, bool ascii, size_t *hidden_out)
{
	int x = r.x, y = 0;
	size_t hidden = 0;
	char buf[800];
	/* Failed, held: a glyph, or a word an --ascii screen cannot mistake ("+" could be). */
	const char *const mark[2] = { ascii ? "FAIL" : "\xe2\x9c\x97",
	                              ascii ? "ok" : "\xe2\x9c\x93" };

	for (int pass = shrt ? 0 : 1; pass < 2; pass++)
		for (size_t i = 0; i < sr->n_expects; i++) {
			const struct expect_result *er = &sr->expects[i];
			bool unk = er->outcome == EXPECT_NOT_OBSERVABLE;
			const char *mk = unk ? "?" : mark[er->ok];
			int need;

			if (shrt && (pass == 0) == er->ok)
				continue;
			view_frame_expect_text(er, shrt, buf, sizeof buf);
			need = text_width(buf) + text_width(mk) + 1;
			/* On the last row, keep room for the "+N more". */
			if (x > r.x && x + need > r.x + r.w - (reserve && y == r.h - 1 ? 9 : 0)) {
				x = r.x;
				y++;
			}
			if (y >= r.h)
				hidden++;
			else if (g != NULL) {
				int st = unk ? GS_DIM : er->ok ? GS_OK : GS_ERROR;
				int mw = grid_print(g, x, r.y + y, r.x + r.w - x, st, mk) + 1;

				grid_print(g, x + mw, r.y + y, r.x + r.w - x - mw,
				           unk ? GS_DIM : er->ok ? GS_NORMAL : GS_ERROR, buf);
			}
			x += need + (shrt ? 2 : 4);
		}
	if (g != NULL && hidden > 0 && r.h > 0) {
		char more[32];
		int n = snprintf(more, sizeof more, " +%zu more", hidden);
		grid_print(g, r.x + r.w - n, r.y + r.h - 1, n, GS_BOLD, more);
	}
	if (hidden_out != NULL)
		*hidden_out = hidden;
	return y + 1;
}

/* Rows the expectations of sr need in w columns, in full. */
int
view_frame_expect_rows(const struct step_result *sr, int w)
{
	if (sr == NULL || sr->n_expects == 0 || w < 4)
		return 1;
	return view_frame_expect_flow(NULL, (struct grid_rect){ 0, 0, w, 1 }, sr, false, false,
	                              false, NULL);
}

/* True if the expectations of sr do not all show in full in h rows of w columns: one is
 * wider than a row (its reason cut), or they need more rows. */
bool
view_frame_expect_cut(const struct step_result *sr, int w, int h)
{
	char buf[800];

	if (sr == NULL || sr->n_expects == 0)
		return false;
	for (size_t i = 0; i < sr->n_expects; i++) {
		view_frame_expect_text(&sr->expects[i], false, buf, sizeof buf);
		if (text_width(buf) + 2 > w)
			return true;
	}
	return view_frame_expect_rows(sr, w) > h;
}

/* Draw the expectations of sr, as many per line as fit; shorten the ones that held if
 * they would not all fit. */
void
view_frame_expect(struct grid *g, struct grid_rect r, const struct step_result *sr, bool ascii)
{
	if (r.h < 1 || r.w < 4)
		return;
	if (sr == NULL || sr->n_expects == 0) {
		grid_print(g, r.x, r.y, r.w, GS_DIM, sr == NULL ? "" : "no expectations in this step");
		return;
	}
	/* In full if they fit; else short; the "+N more" room is kept only if still needed. */
	if (view_frame_expect_flow(NULL, r, sr, false, false, ascii, NULL) <= r.h) {
		view_frame_expect_flow(g, r, sr, false, false, ascii, NULL);
	} else {
		size_t hidden;
		view_frame_expect_flow(NULL, r, sr, true, false, ascii, &hidden);
		view_frame_expect_flow(g, r, sr, true, hidden > 0, ascii, NULL);
	}
}

/* The width (*w) and the wrapped height (the return) of view_frame_popup's text on a screen
 * gw columns wide; 0 if none fits. */
static int
view_frame_popup_size(int gw, const char *title, const char *text, int *w)
{
	int maxw = gw - 8 > 76 ? 76 : gw - 8, lines;
	const char *p = text;

	*w = 10;
	/* The widest line decides the width, up to maxw; then wrap. */
	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		if (text_width(line) > *w)
			*w = text_width(line);
		p += n + (nl != NULL);
	}
	if (title != NULL && text_width(title) + 4 > *w)
		*w = text_width(title) + 4;
	if (*w > maxw)
		*w = maxw;
	if (*w < 1)
		return 0;
	{
		struct grid *scratch = grid_new(*w, 1);
		lines = scratch != NULL ? grid_wrap(scratch, (struct grid_rect){ 0, 0, *w, 0 }, 0, text) : 1;
		grid_free(scratch);
	}
	return lines;
}

/* Whether view_frame_popup shows all of text on a gw x gh screen. */
bool
view_frame_popup_fits(int gw, int gh, const char *title, const char *text)
{
	int w, lines = view_frame_popup_size(gw, title, text, &w);

	return lines > 0 && lines <= gh - 4;
}

/* Draw a centred box holding text. */
void
view_frame_popup(struct grid *g, const char *title, const char *text, bool ascii)
{
	int w, lines = view_frame_popup_size(g->w, title, text, &w), need;
	struct grid_rect r;

	if (lines == 0)
		return;
	need = lines;
	if (lines > g->h - 4)
		lines = g->h - 4;
	r = (struct grid_rect){ (g->w - w - 4) / 2, (g->h - lines - 2) / 2, w + 4, lines + 2 };
	grid_fill(g, r, ' ', GS_NORMAL);
	grid_box(g, r, title, GS_FOCUS, ascii);
	grid_wrap(g, (struct grid_rect){ r.x + 2, r.y + 1, w, lines }, GS_NORMAL, text);
	if (need > lines)       /* taller than the screen: say so on the bottom border */
		grid_print(g, r.x + r.w - 14, r.y + r.h - 1, 12, GS_BOLD,
		           ascii ? " ... more " : " \xe2\x80\xa6 more ");
}

/* The box the help and the glossary take on g: as wide as 76 columns, as tall as the screen. */
static struct grid_rect
view_frame_help_box(const struct grid *g)
{
	int w = g->w - 8 > 76 ? 76 : g->w - 8, h = g->h - 2;

	return (struct grid_rect){ (g->w - w - 4) / 2, 1, w + 4, h };
}

/* Rows the glossary entry e takes in w columns: its term, then its meaning indented. */
static int
view_frame_entry_rows(const struct glossary_entry *e, int w)
{
	struct grid *scratch = grid_new(w, 1);
	int rows = scratch != NULL ? grid_wrap(scratch, (struct grid_rect){ 0, 0, w - 2, 0 }, 0,
	                                       e->meaning) : 1;

	grid_free(scratch);
	return 1 + rows;
}

/* The first glossary entry of page (from 1), entries laid out in a box of w x rows; past
 * the last page: the count of entries. */
static size_t
view_frame_glossary_from(int w, int rows, int page)
{
	size_t i = 0;

	for (int p = 1; p < page && glossary_at(i) != NULL; p++) {
		int used = 0;
		do {
			used += view_frame_entry_rows(glossary_at(i), w) + (used > 0);
			i++;
		} while (glossary_at(i) != NULL &&
		         used + 1 + view_frame_entry_rows(glossary_at(i), w) <= rows);
	}
	return i;
}

/* How many pages the glossary takes on g. */
int
view_frame_help_pages(const struct grid *g)
{
	struct grid_rect r = view_frame_help_box(g);
	int pages = 0, rows = r.h - 3, w = r.w - 4;

	if (rows < 4 || w < 20)
		return 0;
	while (glossary_at(view_frame_glossary_from(w, rows, pages + 1)) != NULL)
		pages++;
	return pages;
}

/* The help's next page. */
int
view_frame_help_turn(const struct grid *g, int help)
{
	return help > 0 && help <= view_frame_help_pages(g) ? help + 1 : 0;
}

/* Draw one page of the glossary in r. */
static void
view_frame_glossary(struct grid *g, struct grid_rect r, int page, int pages, bool ascii)
{
	int w = r.w - 4, rows = r.h - 3, y = r.y + 1;
	size_t i = view_frame_glossary_from(w, rows, page);
	char title[64];

	snprintf(title, sizeof title, "words on the screen, %d/%d", page, pages);
	grid_fill(g, r, ' ', GS_NORMAL);
	grid_box(g, r, title, GS_FOCUS, ascii);
	for (int used = 0; glossary_at(i) != NULL; i++) {
		const struct glossary_entry *e = glossary_at(i);
		int need = view_frame_entry_rows(e, w) + (used > 0);
		if (used > 0 && used + need > rows)
			break;
		if (used > 0)
			y++;
		grid_print(g, r.x + 2, y++, w, GS_BOLD, e->term);
		y += grid_wrap(g, (struct grid_rect){ r.x + 4, y, w - 2, r.y + r.h - 2 - y },
		               GS_NORMAL, e->meaning);
		used += need;
	}
	grid_print(g, r.x + 2, r.y + r.h - 2, w, GS_DIM, page < pages ?
	           "? the next page; any other key closes" : "? or any other key closes");
}

/* One legend line of the help: its name, then its entries, each whole (view_legend_draw
 * wraps by entry: a glyph never leaves its word). Return the rows it took. */
static int
view_frame_legend(struct grid *g, int x, int y, int w, int rows, const char *name,
                  const struct view_legend *l, size_t n, bool ascii)
{
	int lw = 13;

	grid_print(g, x, y, lw, GS_NORMAL, name);
	return view_legend_draw(g, x + lw, y, w - lw, rows, l, n, ascii);
}

/* Draw the help overlay: the keys and the legend (page 0), or a page of the glossary. */
void
view_frame_help(struct grid *g, int page, bool ascii)
{
	struct grid_rect r = view_frame_help_box(g);
	int pages = view_frame_help_pages(g), w = r.w - 4, y = r.y + 1, kw = 15, end;
	const struct view_legend stdio[] = { { .v = VG_STDIO, .style = GS_STDIO,
	                                      .name = "a buffered byte" } };
	struct view_legend cache[8];
	const struct view_legend *l;
	size_t n, nc;
	char line[160];

	if (w < 20 || r.h < 6)
		return;
	if (page > 0 && page <= pages) {
		view_frame_glossary(g, r, page, pages, ascii);
		return;
	}
	/* The cache's states: the full legend, and what residency alone shows. */
	l = view_cache_legend_of(true, &n);
	memcpy(cache, l, n * sizeof *l);
	nc = n;
	cache[nc++] = view_cache_legend_of(false, &n)[0];
	grid_fill(g, r, ' ', GS_NORMAL);
	grid_box(g, r, "help", GS_FOCUS, ascii);
	end = r.y + r.h - 2;
	for (size_t i = 0; i < VIEW_FRAME_KEYS && y < end; i++) {
		const struct view_frame_key *k = &view_frame_keys[i];
		grid_print(g, r.x + 2, y, kw, GS_KEY, ascii && k->keys_ascii != NULL ?
		           k->keys_ascii : k->keys);
		y += grid_wrap(g, (struct grid_rect){ r.x + 2 + kw, y, w - kw, end - y }, GS_NORMAL,
		               k->help);
	}
	if (y < end)
		y += view_frame_legend(g, r.x + 2, y, w, end - y, "page cache:", cache, nc, ascii);
	l = view_disk_legend_of(true, &n);
	if (y < end)
		y += view_frame_legend(g, r.x + 2, y, w, end - y, "disk:", l, n, ascii);
	if (y < end)
		y += view_frame_legend(g, r.x + 2, y, w, end - y, "stdio:", stdio, 1, ascii);
	if (y < end)
		y += grid_wrap(g, (struct grid_rect){ r.x + 2, y, w, end - y }, GS_DIM,
		               "after a read: underlined asked for, bold read ahead, dim cached before");
	if (y < end)
		y += grid_wrap(g, (struct grid_rect){ r.x + 2, y, w, end - y }, GS_DIM,
		               "[your call] the step's own call   [by stdio] made by stdio inside it");
	snprintf(line, sizeof line, "* a time with ptrace stops in it   %s text cut: Tab shows all",
	         ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6");
	if (y < end)
		y += grid_wrap(g, (struct grid_rect){ r.x + 2, y, w, end - y }, GS_DIM, line);
	snprintf(line, sizeof line, "? again: the words on screen, explained (%d page%s); other "
	         "keys close", pages, pages == 1 ? "" : "s");
	grid_print(g, r.x + 2, r.y + r.h - 2, w, GS_BOLD, line);
}

/* Draw the "terminal too small" message. */
void
view_frame_small(struct grid *g)
{
	char buf[96];
	int w;

	grid_clear(g);
	snprintf(buf, sizeof buf, "terminal too small (need 80x24, have %dx%d)", g->w, g->h);
	w = text_width(buf);
	grid_print(g, w < g->w ? (g->w - w) / 2 : 0, g->h / 2, g->w, GS_BOLD, buf);
}
