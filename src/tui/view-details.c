/* SPDX-License-Identifier: MIT */
/* tui/view-details.c: the details popup (Tab, a click): the shown state of one pane in full. */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "lesson/narrate.h"
#include "out/transcript.h"
#include "base/text.h"
#include "base/units.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "tui/view.h"

/* The FILE* and the file descriptor. */
static void
view_details_stdio(struct text_buf *b, const struct snapshot *s)
{
	const struct snap_stdio *x = &s->stdio;

	if (!x->open) {
		/* A closed stream has no buffer mode or fd: its fields would be leftovers. */
		text_addf(b, "no FILE* open\n");
		if (s->fd.open)
			text_addf(b, "fd %d: open, offset %" PRId64 ", flags %#o", s->fd.fd,
			          s->fd.pos, (unsigned)s->fd.flags);
		else
			text_addf(b, "no file descriptor open");
		return;
	}
	text_addf(b, "FILE*: open, fd %d, %s\n", x->fd, scenario_bufmode_name(x->mode));
	text_addf(b, "__fbufsize %" PRIu64 "   __fpending %" PRIu64 "   read ahead %" PRIu64
	          "\n", x->size, x->pending, x->read_avail);
	text_addf(b, "__fwriting %s   __freading %s\n", x->writing ? "yes" : "no",
	          x->reading ? "yes" : "no");
	text_addf(b, "first bytes:");
	for (size_t i = 0; i < x->head_len && i < 24; i++)
		text_addf(b, " %02x", x->head[i]);
	text_addf(b, "\nfd %d: %s, offset %" PRId64 ", flags %#o", s->fd.fd,
	          s->fd.open ? "open" : "closed", s->fd.pos, (unsigned)s->fd.flags);
}

/* The page cache: where the counts come from, the counts, where the step's pages came from
 * (sr: the step shown, or NULL), runs of cells. */
static void
view_details_cache(struct text_buf *b, const struct snapshot *s,
                   const struct step_result *sr, const struct view_cache_geom *geom)
{
	const struct snap_cache *c = &s->cache;
	char a[32], o[512], runs[2048];

	units_format_size(c->file_size, a, sizeof a);
	text_addf(b, "source: %s%s%s\n", c->source == SNAP_SRC_CACHESTAT ? "cachestat(2)" :
	          c->source == SNAP_SRC_KPAGEFLAGS ? "/proc/kpageflags, page by page" :
	          c->source == SNAP_SRC_MINCORE ? "mincore(2), residency only" : "none",
	          c->note[0] ? "; " : "", c->note);
	text_addf(b, "file %s, %" PRIu64 " page%s; cached %" PRIu64 ", dirty %" PRIu64
	          ", writeback %" PRIu64 "\n", a, c->pages, c->pages == 1 ? "" : "s",
	          c->cached, c->dirty, c->writeback);
	text_addf(b, "whole system: Dirty %" PRIu64 " kB, Writeback %" PRIu64 " kB\n",
	          c->sys_dirty_kb, c->sys_writeback_kb);
	if (sr != NULL && sr->origins.valid)
		text_addf(b, "step %zu's pages: %s\n", sr->index + 1,
		          snapshot_origins_text(&sr->origins, scenario_names_of(scn_sources,
		          (int)c->source), o, sizeof o));
	/* At most 12 lines of runs and "...": bounded, a fixed buffer holds them. */
	text_add(b, view_cache_runs_text(s, geom, 12, runs, sizeof runs));
	text_addf(b, "(click a cell for its own counts)");
}

/* The disk: each extent as the file's byte range, then where it is on the device
 * (FIEMAP's flags said in words); the worker's I/O counters. */
static void
view_details_disk(struct text_buf *b, const struct snapshot *s)
{
	const struct snap_disk *x = &s->disk;
	char a[32], e2[32];

	text_addf(b, "%s on %s; %s\n", x->fs[0] ? x->fs : "?", x->device[0] ? x->device : "?",
	          x->source == SNAP_SRC_FIEMAP ? "extents from FIEMAP" : x->note);
	for (size_t i = 0; i < x->n_extents && i < 12; i++) {
		const struct snap_extent *e = &x->extents[i];
		units_format_size(e->logical, a, sizeof a);
		units_format_size(e->logical + e->length, e2, sizeof e2);
		if (e->flags & SNAP_EXT_DELALLOC)
			text_addf(b, "[%s, %s): no disk block yet (delayed allocation)\n", a, e2);
		else if (e->flags & SNAP_EXT_UNKNOWN)
			text_addf(b, "[%s, %s): location not known yet\n", a, e2);
		else
			text_addf(b, "[%s, %s): at device byte %" PRIu64 "%s\n", a, e2,
			          e->physical, e->flags & SNAP_EXT_UNWRITTEN ?
			          ", allocated but unwritten (reads as zeros)" : "");
	}
	if (x->io_ok)
		text_addf(b, "/proc/PID/io: wchar %" PRIu64 ", write_bytes %" PRIu64
		          ", read_bytes %" PRIu64 "\n", x->wchar, x->write_bytes, x->read_bytes);
}

/* Each unchecked sentence's reason ([?K]) and each false one, of the N sentences V. */
static void
view_details_reasons(struct text_buf *b, const struct sentence_result *v, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].outcome == SENTENCE_UNCHECKED)
			text_addf(b, "[?%u] not observable here: %s\n", ++k, text_str(&v[i].why));
		else if (v[i].outcome == SENTENCE_FALSE)
			text_addf(b, "false here, not told: \"%s\" (%s)\n", v[i].text,
			          text_str(&v[i].why));
}

/* The log: the intro before the first step; else the step's whole narration and calls. */
static void
view_details_log(struct text_buf *b, const struct view_frame *f)
{
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	char t[32];

	if (sr == NULL) {
		/* The intro, whole (a small screen cuts it). */
		const struct sentence_result *iv = NULL;
		size_t n_iv = 0;
		char *told = f->lesson != NULL && lesson_intro(f->lesson, &iv, &n_iv) != NULL ?
		             narrate_marked(iv, n_iv) : NULL;
		const char *in = told != NULL ? told : f->scn->intro != NULL ? f->scn->intro :
		                 f->scn->title != NULL ? f->scn->title : "";
		int il = (int)strlen(in);
		while (il > 0 && in[il - 1] == '\n')
			il--;
		text_addf(b, "%.*s\n", il, in);
		free(told);
		view_details_reasons(b, iv, n_iv);
		text_addf(b, "\nno step has run yet: n runs the first");
		return;
	}
	char *told = sr->n_sentences > 0 ? narrate_marked(sr->sentences, sr->n_sentences) : NULL;
	const char *say = told != NULL ? told : step_result_say(sr);
	if (say != NULL)
		text_addf(b, "%s%s", say, say[0] && say[strlen(say) - 1] == '\n' ? "" : "\n");
	free(told);
	view_details_reasons(b, sr->sentences, sr->n_sentences);
	if (sr->note.len > 0)
		text_addf(b, "%s\n", text_str(&sr->note));
	/* What the kernel did between the step before and this one, and when. */
	char pause[640];
	if (transcript_pause_text(sr, pause, sizeof pause) != NULL)
		text_addf(b, "Before this step, %s.\n", pause);
	/* Each expectation that did not hold, with its reason (the pane cuts a long one). */
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *er = &sr->expects[i];
		char x[800];
		if (er->outcome == EXPECT_HELD)
			continue;
		view_frame_expect_text(er, false, x, sizeof x);
		text_addf(b, "%s %s\n", er->outcome == EXPECT_NOT_OBSERVABLE ? "?" : "FAILED:", x);
	}
	text_addf(b, "\nstep %zu (%s), seen %s; op took %s inside the worker%s\n",
	          sr->index + 1, scenario_op_name(sr->step->op),
	          sr->events.source == EV_SRC_PTRACE ? "by the tracer" : "through /proc/PID/io",
	          units_format_ns(sr->op_ns, t, sizeof t),
	          sr->events.source == EV_SRC_PTRACE && scenario_op_in_worker(sr->step->op) ?
	          ", incl. tracing (two ptrace stops per system call)" : "");
	for (size_t i = 0; i < sr->events.n && i < 14; i++) {
		char line[256];
		event_format(&sr->events.v[i], line, sizeof line);
		text_addf(b, "%s  [%s]\n", line,
		          scenario_names_of(scn_origin_words, (int)sr->events.v[i].origin));
	}
	if (sr->events.n > 14)
		text_addf(b, "... %zu calls in all\n", sr->events.n);
}

/* The details f asks for (its focused pane, or its clicked cache cell) into b, emptied
 * first; their text, or NULL when there are none to show. */
const char *
view_details_text(const struct view_frame *f, const struct view_cache_geom *geom,
                  struct text_buf *b)
{
	const struct snapshot *s = f->cur >= 0 ? &f->results[f->cur].after : f->initial;
	char cell[512];

	text_reset(b);
	if (!f->details || s == NULL)
		return NULL;
	if (f->focus == VIEW_PANE_CACHE && f->detail_cell >= 0) {
		text_add(b, view_cache_cell_text(s, geom, (size_t)f->detail_cell, cell,
		                                 sizeof cell));
		return text_str(b);
	}
	switch (f->focus) {
	case VIEW_PANE_STDIO: view_details_stdio(b, s); break;
	case VIEW_PANE_CACHE:
		view_details_cache(b, s, f->cur >= 0 ? &f->results[f->cur] : NULL, geom);
		break;
	case VIEW_PANE_DISK: view_details_disk(b, s); break;
	case VIEW_PANE_LOG: view_details_log(b, f); break;
	default: return NULL;
	}
	return text_str(b);
}

/* Draw the details popup of f, if it asks for one. */
void
view_details_draw(struct grid *g, const struct view_frame *f, const struct view_cache_geom *geom)
{
	struct text_buf text = { 0 };
	const char *t = view_details_text(f, geom, &text);

	if (t != NULL)
		view_frame_popup(g, "details", t, f->ascii);
	text_buf_free(&text);
}
