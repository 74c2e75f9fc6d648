/* SPDX-License-Identifier: MIT */
/* tui/view-screen.c: the layout: where each pane goes for a terminal size, and the animation. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "tui/view.h"

/* The hops of data a step shows, from what was observed before and after it. */
size_t
view_screen_hops(const struct step_result *sr, struct view_hop *hops, size_t max)
{
	const struct snapshot *b = &sr->before, *a = &sr->after;
	uint64_t wrote = 0, got = 0;
	char s[32];
	size_t n = 0;

	for (size_t i = 0; i < sr->events.n; i++) {
		const struct event *e = &sr->events.v[i];
		if (e->result <= 0)
			continue;
		if (event_is_write(e))
			wrote += (uint64_t)e->result;
		else if (event_is_read(e))
			got += (uint64_t)e->result;
	}
	if (sr->events.source == EV_SRC_PROCIO && wrote == 0 && got == 0) {
		wrote = sr->events.bytes_written;
		got = sr->events.bytes_read;
	}
	if (wrote > 0 && n < max) {
		units_format_size(wrote, s, sizeof s);
		hops[n++] = (struct view_hop){ VIEW_PANE_STDIO, VIEW_PANE_CACHE, "" };
		snprintf(hops[n - 1].label, sizeof hops[n - 1].label, "%s", s);
	}
	/* Dirty pages that left the cache's dirty set went to the disk (or are going). */
	if ((b->cache.dirty > a->cache.dirty && a->cache.has_dirty) ||
	    a->disk.allocated_bytes > b->disk.allocated_bytes) {
		uint64_t pages = b->cache.dirty > a->cache.dirty ? b->cache.dirty - a->cache.dirty : 0;
		if (n < max) {
			hops[n++] = (struct view_hop){ VIEW_PANE_CACHE, VIEW_PANE_DISK, "" };
			if (pages > 0)
				snprintf(hops[n - 1].label, sizeof hops[n - 1].label, "%" PRIu64 " page%s",
				         pages, pages == 1 ? "" : "s");
			else
				units_format_size(a->disk.allocated_bytes - b->disk.allocated_bytes,
				                  hops[n - 1].label, sizeof hops[n - 1].label);
		}
	}
	/* Pages that came into the cache were read from the disk. */
	if (a->cache.cached > b->cache.cached && n < max) {
		uint64_t pages = a->cache.cached - b->cache.cached;
		hops[n++] = (struct view_hop){ VIEW_PANE_DISK, VIEW_PANE_CACHE, "" };
		snprintf(hops[n - 1].label, sizeof hops[n - 1].label, "%" PRIu64 " page%s", pages,
		         pages == 1 ? "" : "s");
		/* A write that only dirtied new pages did not come from the disk. */
		if (wrote > 0 && a->cache.dirty >= b->cache.dirty + pages)
			n--;
	}
	if (got > 0 && n < max) {
		hops[n++] = (struct view_hop){ VIEW_PANE_CACHE, VIEW_PANE_STDIO, "" };
		units_format_size(got, hops[n - 1].label, sizeof hops[n - 1].label);
	}
	return n;
}

/* Centre of a pane's inside. */
static void
view_screen_centre(const struct grid_rect *r, int *x, int *y)
{
	*x = r->x + r->w / 2;
	*y = r->y + r->h / 2;
}

/* Whether the len columns at x, y are all blank. */
static bool
view_screen_blank(struct grid *g, int x, int y, int len)
{
	for (int i = 0; i < len; i++) {
		const struct grid_cell *c = grid_at(g, x + i, y);
		if (c == NULL || c->ch != ' ')
			return false;
	}
	return true;
}

/* Move the packet at *x, *y (len columns) inside pane r, off its border, onto the blank row
 * nearest *y: a packet never hides a border or a count. False when no row is free. */
static bool
view_screen_packet_place(struct grid *g, const struct grid_rect *r, int len, int *x, int *y)
{
	int ix = r->x + 1, iy = r->y + 1, iw = r->w - 2, ih = r->h - 2;

	if (len > iw || ih < 1)
		return false;
	if (*x < ix)
		*x = ix;
	if (*x + len > ix + iw)
		*x = ix + iw - len;
	/* A row blank across the pane first (a label beside a line would read as part of
	 * it), then any row with room. */
	for (int whole = 1; whole >= 0; whole--)
		for (int d = 0; d < ih * 2; d++) {
			int yy = *y + (d % 2 ? -(d + 1) / 2 : d / 2);
			if (yy >= iy && yy < iy + ih &&
			    view_screen_blank(g, whole ? ix : *x, yy, whole ? iw : len)) {
				*y = yy;
				return true;
			}
		}
	return false;
}

/* Draw the packet of a hop at fraction t of its way. */
static void
view_screen_packet(struct grid *g, const struct view_layout *lay, const struct view_frame *f)
{
	static const int style[] = { [VIEW_PANE_STDIO] = GS_STDIO, [VIEW_PANE_CACHE] = GS_DIRTY,
	                             [VIEW_PANE_DISK] = GS_DISK, [VIEW_PANE_LOG] = GS_NORMAL };
	int x0, y0, x1, y1, x, y, len;
	char label[64], arrow[8];
	double t = f->t < 0 ? 0 : f->t > 1 ? 1 : f->t;
	uint32_t a;

	view_screen_centre(&lay->pane[f->hop.from], &x0, &y0);
	view_screen_centre(&lay->pane[f->hop.to], &x1, &y1);
	if (lay->wide)
		a = x1 > x0 ? view_glyph(VG_ARROW, f->ascii) : (f->ascii ? '<' : 0x25c0);
	else
		a = y1 > y0 ? (f->ascii ? 'v' : 0x25bc) : (f->ascii ? '^' : 0x25b2);
	arrow[text_encode(a, arrow)] = '\0';
	if (lay->wide && x1 < x0)
		snprintf(label, sizeof label, " %s %s ", arrow, f->hop.label);
	else
		snprintf(label, sizeof label, " %s %s ", f->hop.label, arrow);
	len = text_width(label);
	x = x0 + (int)((x1 - x0) * t) - len / 2;
	y = y0 + (int)((y1 - y0) * t);
	if (!view_screen_packet_place(g, &lay->pane[t < 0.5 ? f->hop.from : f->hop.to], len,
	                              &x, &y))
		return;
	grid_print(g, x, y, len, style[f->hop.from], label);
	grid_attr(g, (struct grid_rect){ x, y, len, 1 }, GRID_A_REVERSE | GRID_A_BOLD);
}

/* The latest stdio-made transfer up to result n (for "last flush") by the FILE* open now
 * on fd: the search stops at the step that opened it, so that a new stream never shows an
 * older one's read or write, and passes over other streams' (a program's stderr pane never
 * shows its file's write). */
static const struct event *
view_screen_last_stdio(const struct step_result *results, size_t n, int fd)
{
	for (size_t i = n; i-- > 0;) {
		for (size_t k = results[i].events.n; k-- > 0;) {
			const struct event *e = &results[i].events.v[k];
			if (e->origin == EV_STDIO && (event_is_write(e) || event_is_read(e)) &&
			    (fd < 0 || e->fd == fd))
				return e;
		}
		if (!results[i].before.stdio.open)
			break;
	}
	return NULL;
}

/* The cache pane's remark on a step: its large folio, if the diff saw one. */
static const char *
view_screen_folio(const struct step_result *sr)
{
	for (size_t i = 0; sr != NULL && i < sr->changes.n; i++)
		if (sr->changes.v[i].kind == SNAPSHOT_CHANGE_LARGE_FOLIO)
			return sr->changes.v[i].text;
	return NULL;
}

/* The cache pane's view of the whole run: the largest file any state of it had (the scale
 * then holds from step to step), and where the pages of sr came from (NULL: none). */
static void
view_screen_look(const struct view_frame *f, const struct step_result *sr,
                 struct view_cache_look *look)
{
	if (f->initial != NULL)
		look->scale_pages = f->initial->cache.pages;
	if (f->live != NULL && f->live->cache.pages > look->scale_pages)
		look->scale_pages = f->live->cache.pages;
	for (size_t i = 0; i < f->n_results; i++) {
		if (f->results[i].before.cache.pages > look->scale_pages)
			look->scale_pages = f->results[i].before.cache.pages;
		if (f->results[i].after.cache.pages > look->scale_pages)
			look->scale_pages = f->results[i].after.cache.pages;
	}
	if (sr == NULL)
		return;
	look->before = &sr->before;
	look->origins = &sr->origins;
}

/* Draw the three state panes (or the sweep) into the rects of lay. */
static void
view_screen_panes(struct grid *g, struct view_layout *lay, const struct view_frame *f)
{
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	const struct snapshot *now, *prev = NULL;
	char title[128];
	size_t shown = f->cur >= 0 ? (size_t)f->cur + (f->anim == VIEW_ANIM_TRAVEL ? 0 : 1) : 0;
	static const char *titles[] = { "stdio buffer (user space)", "page cache (kernel)", NULL };
	struct grid_rect in[3];

	if (f->live != NULL)
		now = f->live;
	else if (sr != NULL && f->anim == VIEW_ANIM_TRAVEL)
		now = &sr->before;
	else
		now = sr != NULL ? &sr->after : f->initial;
	if (sr != NULL && f->anim == VIEW_ANIM_FLASH && f->live == NULL)
		prev = &sr->before;
	for (int p = 0; p < 3; p++) {
		struct grid_rect r = lay->pane[p];
		int style = f->focus == p ? GS_FOCUS : GS_BORDER;
		const char *t = titles[p] != NULL ? titles[p] :
		                view_disk_title(now, f->fs, title, sizeof title);
		/* A lesson of more than one file: the cache pane names the one it shows. */
		char named[64 + NAME_MAX];
		if (p == 1 && now != NULL && now->file_name[0] != '\0') {
			snprintf(named, sizeof named, "%s: %s", t, now->file_name);
			t = named;
		}
		if (lay->wide) {
			grid_box(g, r, t, style, f->ascii);
			in[p] = (struct grid_rect){ r.x + 2, r.y + 1, r.w - 4, r.h - 2 };
		} else {
			/* Stacked: one box, a separator above each pane but the first. */
			if (p == 0)
				grid_box(g, (struct grid_rect){ r.x, r.y, r.w,
				         lay->pane[2].y + lay->pane[2].h - r.y }, t, style, f->ascii);
			else
				grid_hsep(g, (struct grid_rect){ r.x, r.y, r.w, 1 }, r.y, t, style,
				          f->ascii);
			if (style == GS_FOCUS)
				grid_printf(g, r.x + 2, r.y, r.w - 4, GS_FOCUS, "%s", t);
			in[p] = (struct grid_rect){ r.x + 2, r.y + 1, r.w - 4, r.h - 1 };
		}
	}
	if (f->sweep != NULL) {
		/* A sweep replaces the panes with its table (the sweep module fills the lines). */
		struct grid_rect r = { lay->pane[0].x, lay->pane[0].y,
		                       lay->pane[2].x + lay->pane[2].w - lay->pane[0].x,
		                       lay->pane[2].y + lay->pane[2].h - lay->pane[0].y };
		grid_fill(g, r, ' ', GS_NORMAL);
		grid_box(g, r, sr != NULL && sr->step->sweep != NULL && sr->step->sweep->title != NULL ?
		         sr->step->sweep->title : "sweep", GS_BORDER, f->ascii);
		/* Taller than the box: scrolled by the keys the bottom border names. */
		size_t rows = r.h > 2 ? (size_t)r.h - 2 : 0, top = f->sweep_top;
		if (top + rows > f->n_sweep)
			top = f->n_sweep > rows ? f->n_sweep - rows : 0;
		for (size_t i = 0; i + top < f->n_sweep && i < rows; i++)
			grid_print(g, r.x + 2, r.y + 1 + (int)i, r.w - 4, GS_NORMAL, f->sweep[top + i]);
		if (f->n_sweep > rows && rows > 0) {
			char more[96];
			int w;
			snprintf(more, sizeof more, " lines %zu-%zu of %zu  %s PgUp PgDn ", top + 1,
			         top + rows, f->n_sweep,
			         f->ascii ? "Up Down" : "\xe2\x86\x91\xe2\x86\x93");
			w = text_width(more);
			grid_print(g, r.x + r.w - 2 - w, r.y + r.h - 1, w, GS_BOLD, more);
		}
		lay->sweep_rows = (int)rows;
		lay->sweep_top = top;
		lay->cache = (struct view_cache_geom){ 0 };
		return;
	}
	if (now == NULL)
		return;
	if (sr != NULL && f->live == NULL && f->anim != VIEW_ANIM_TRAVEL &&
	    (sr->output != NULL || sr->output_file != NULL)) {
		/* What a pty or tail step printed goes under the stdio state (which keeps two
		 * rows: "no FILE* open", the fd's offset), a row a line when there is room. */
		struct grid_rect st = in[0], out = in[0];
		int streams = (sr->output != NULL) + (sr->output_file != NULL);
		int oh = view_stdio_output_rows(sr->output, sr->output_file, sr->output_len,
		                                in[0].w);
		if (oh > in[0].h - (now->stdio.open ? 3 : 2))
			oh = in[0].h - (now->stdio.open ? 3 : 2);
		if (oh < streams)
			oh = streams < in[0].h ? streams : in[0].h;
		st.h = in[0].h - oh - (in[0].h - oh >= 3);
		if (!now->stdio.open && st.h > 2)
			st.h = 2;
		out.y = in[0].y + st.h + (in[0].h - oh > st.h);
		out.h = oh;
		if (st.h > 0)
			view_stdio_draw(g, st, now, prev, view_screen_last_stdio(f->results, shown, now->stdio.fd),
			                f->ascii);
		view_stdio_output(g, out, sr->output, sr->output_file, sr->output_len, f->ascii);
	} else {
		view_stdio_draw(g, in[0], now, prev, view_screen_last_stdio(f->results, shown, now->stdio.fd),
		                f->ascii);
	}
	{
		struct view_cache_look look = { .big = f->big || g->w >= 160 };
		const char *note = f->anim == VIEW_ANIM_TRAVEL ? NULL : view_screen_folio(sr);
		view_screen_look(f, f->anim == VIEW_ANIM_TRAVEL || f->live != NULL ? NULL : sr,
		                 &look);
		view_cache_draw(g, in[1], now, prev, note, f->ascii, &look, &lay->cache);
	}
	view_disk_draw(g, in[2], now, prev, sr != NULL && now == &sr->after ? &sr->before : NULL,
	               f->ascii);
}

/*
 * The screen with the program pane, when f has a program to show (wide enough, or asked
 * for): the other panes in a narrower grid beside it, or under it at 80 columns. Return
 * false if f shows no program (the caller draws the screen as usual).
 */
static bool
view_screen_program(struct grid *g, const struct view_frame *f, struct view_layout *lay)
{
	struct view_frame rest = *f;
	bool beside = g->w >= VIEW_PROGRAM_BESIDE;
	long step = f->live != NULL || f->running ? (long)f->n_results : f->cur;
	int pw;
	struct grid *sub;

	if (f->program == NULL || g->w < 80 || g->h < 24 || beside == f->program_toggled)
		return false;
	rest.program = NULL;
	if (!beside) {
		/* At 80 columns it takes the panes' place, between the title and the footer. */
		view_screen_draw(g, &rest, lay);
		view_program_draw(g, (struct grid_rect){ 0, 1, g->w, g->h - 2 }, f->program, step,
		                  f->ascii);
		if (f->help)
			view_frame_help(g, f->help - 1, f->ascii);
		if (f->ascii)
			grid_asciify(g);
		return true;
	}
	/* Projector mode by the whole screen's width, not the panes' beside the program. */
	rest.big = f->big || g->w >= 160;
	pw = g->w >= 160 ? g->w - 100 : g->w - 80;
	if (pw > 80)
		pw = 80;
	sub = grid_new(g->w - pw, g->h);
	if (sub == NULL)
		return false;
	view_screen_draw(sub, &rest, lay);
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < sub->w; x++)
			*grid_at(g, x, y) = *grid_at(sub, x, y);
	grid_free(sub);
	view_program_draw(g, (struct grid_rect){ g->w - pw, 1, pw, g->h - 2 }, f->program, step,
	                  f->ascii);
	view_frame_title(g, 0, f);
	view_frame_footer(g, g->h - 1, f);
	if (f->ascii)
		grid_asciify(g);
	return true;
}

/* Compose the whole screen. */
void
view_screen_draw(struct grid *g, const struct view_frame *f, struct view_layout *lay_out)
{
	struct view_layout lay = { 0 };
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	int W = g->w, H = g->h, avail = H - 2, top = 1, bottom_y, bh, narr, exp_h, log_h;
	bool cut;
	size_t shown = f->cur >= 0 ? (size_t)f->cur + (f->anim == VIEW_ANIM_TRAVEL ? 0 : 1) : 0;
	char logtitle[96];

	grid_clear(g);
	g->ascii = f->ascii;
	if (W < 80 || H < 24) {
		lay.too_small = true;
		view_frame_small(g);
		if (lay_out != NULL)
			*lay_out = lay;
		return;
	}
	if (view_screen_program(g, f, lay_out))
		return;
	lay.wide = W >= 100;
	if (f->sweep != NULL) {
		/* A sweep's table and chart take the panes' place and most of the height: its
		 * step makes no call on the file, so the log needs one line. */
		int ph = avail - 10, w1 = W / 3, w2 = (W - w1) / 2;
		if (ph < 11)
			ph = 11;
		lay.pane[0] = (struct grid_rect){ 0, top, w1, ph };
		lay.pane[1] = (struct grid_rect){ w1, top, w2, ph };
		lay.pane[2] = (struct grid_rect){ w1 + w2, top, W - w1 - w2, ph };
		bottom_y = top + ph;
	} else if (lay.wide) {
		/* The panes get a bit less than half: the log needs the rest on a tall screen. */
		int ph = avail * 45 / 100, w1 = W / 3, w2 = (W - w1) / 2;
		if (ph < 11)
			ph = 11;
		if (ph > 24)
			ph = 24;
		lay.pane[0] = (struct grid_rect){ 0, top, w1, ph };
		lay.pane[1] = (struct grid_rect){ w1, top, w2, ph };
		lay.pane[2] = (struct grid_rect){ w1 + w2, top, W - w1 - w2, ph };
		bottom_y = top + ph;
	} else {
		/* Stacked: stdio 3 lines, cache 3, disk 2, more as the terminal grows. */
		int extra = (avail - 22) / 2, sh = 3, ch = 3, dh = 2;
		if (extra > 0) {
			sh += extra / 3;
			dh += extra / 3;
			ch += extra - 2 * (extra / 3);
		}
		lay.pane[0] = (struct grid_rect){ 0, top, W, sh + 1 };
		lay.pane[1] = (struct grid_rect){ 0, top + sh + 1, W, ch + 1 };
		lay.pane[2] = (struct grid_rect){ 0, top + sh + ch + 2, W, dh + 2 };
		bottom_y = top + sh + ch + dh + 4;
	}
	view_screen_panes(g, &lay, f);

	/* Bottom box: narration (as tall as its text, leaving the log 3 lines, or fewer when
	 * the step made fewer calls), syscalls, expectations. */
	bh = H - 1 - bottom_y;
	exp_h = bh >= 16 ? 2 : 1;
	{
		struct grid *probe = grid_new(W - 4, 1);
		int want = probe != NULL ?
		           view_frame_narration(probe, (struct grid_rect){ 0, 0, W - 4, 0 }, f) : 2;
		int keep = sr != NULL && f->anim != VIEW_ANIM_TRAVEL ? (int)view_log_lines(sr) : 1;
		int most;
		if (keep > 3)
			keep = 3;
		/* A second row for the expectations (rather than their short form) when the
		 * narration and the log's rows still fit. */
		if (exp_h == 1 && sr != NULL && f->anim != VIEW_ANIM_TRAVEL && f->live == NULL &&
		    view_frame_expect_rows(sr, W - 4) > 1 &&
		    bh - 2 - 1 - 2 - 1 - keep >= (want < 2 ? 2 : want))
			exp_h = 2;
		most = bh - 2 - 1 - exp_h - 1 - keep;
		grid_free(probe);
		narr = want < 2 ? 2 : want;
		if (narr > most)
			narr = most > 1 ? most : 1;
	}
	log_h = bh - 2 - narr - 1 - exp_h - 1;
	if (log_h < 1)
		log_h = 1;
	lay.pane[VIEW_PANE_LOG] = (struct grid_rect){ 0, bottom_y + narr + 1, W, log_h + 1 };
	grid_box(g, (struct grid_rect){ 0, bottom_y, W, bh }, "what happened", GS_BORDER, f->ascii);
	/* Cut narration ends in an ellipsis; Tab on the log shows all of it. */
	cut = view_frame_narration(g, (struct grid_rect){ 2, bottom_y + 1, W - 4, narr }, f) > narr;
	if (cut)
		grid_print(g, W - (f->ascii ? 5 : 3), bottom_y + narr, 3, GS_BOLD,
		           f->ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6");
	snprintf(logtitle, sizeof logtitle, "%s", f->replay ? "syscalls (replay of recorded steps)" :
	         "syscalls (* timed by the tracer)");
	grid_hsep(g, (struct grid_rect){ 0, 0, W, 1 }, bottom_y + narr + 1, logtitle,
	          f->focus == VIEW_PANE_LOG ? GS_FOCUS : GS_BORDER, f->ascii);
	/* Say where the rest of a cut narration is (Tab to the log shows all of it). */
	if (cut)
		grid_print(g, W - 2 - 18, bottom_y + narr + 1, 18, GS_BOLD, " more: Shift-Tab ");
	if (shown == 0 && (f->running || f->live != NULL))
		grid_print(g, 2, bottom_y + narr + 2, W - 4, GS_DIM, "(the first step is running)");
	else
		view_log_draw(g, (struct grid_rect){ 2, bottom_y + narr + 2, W - 4, log_h }, f->results,
		              shown, f->ascii);
	grid_hsep(g, (struct grid_rect){ 0, 0, W, 1 }, bottom_y + narr + 2 + log_h, "expected",
	          GS_BORDER, f->ascii);
	view_frame_expect(g, (struct grid_rect){ 2, bottom_y + narr + 3 + log_h, W - 4, exp_h },
	                 f->anim == VIEW_ANIM_TRAVEL || f->live != NULL || f->running ? NULL : sr,
	                 f->ascii);
	/* A reason cut, or expectations left out: the log's details (Shift-Tab) say them all. */
	if (sr != NULL && f->anim != VIEW_ANIM_TRAVEL && f->live == NULL && !f->running &&
	    view_frame_expect_cut(sr, W - 4, exp_h))
		grid_print(g, W - 2 - 18, bottom_y + narr + 2 + log_h, 18, GS_BOLD, " more: Shift-Tab ");

	view_frame_title(g, 0, f);
	view_frame_footer(g, H - 1, f);
	if (f->anim == VIEW_ANIM_TRAVEL && sr != NULL && f->sweep == NULL)
		view_screen_packet(g, &lay, f);
	view_details_draw(g, f, &lay.cache);
	view_crash_draw(g, f);
	if (f->prompt != NULL)
		view_frame_popup(g, f->prompt_title != NULL ? f->prompt_title : "quiz", f->prompt,
		                 f->ascii);
	if (f->help && f->help_text != NULL)
		view_frame_popup(g, "help", f->help_text, f->ascii);
	else if (f->help)
		view_frame_help(g, f->help - 1, f->ascii);
	if (f->ascii)
		grid_asciify(g);
	if (lay_out != NULL)
		*lay_out = lay;
}
