/* SPDX-License-Identifier: MIT */
/* tui/view-stdio.c: the stdio pane: the FILE*'s buffer as a bar filled to what it holds. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/names.h"
#include "base/units.h"
#include "tui/view.h"

/* Bytes held by the buffer: output waiting, or input read ahead. */
static uint64_t
view_stdio_held(const struct snap_stdio *s)
{
	return s->pending > 0 || !s->reading ? s->pending : s->read_avail;
}

/* The buffered bytes as printable text in quotes, cut to width columns. */
static void
view_stdio_data(const struct snap_stdio *s, char *buf, size_t len, int width, bool ascii)
{
	size_t n = 0, shown = s->head_len;
	uint64_t held = view_stdio_held(s);

	if (width < 4 || len < 8) {
		buf[0] = '\0';
		return;
	}
	if (shown > (size_t)width - 3)
		shown = (size_t)width - 3;
	if (shown > held)
		shown = held;
	buf[n++] = '"';
	for (size_t i = 0; i < shown && n + 6 < len; i++) {
		unsigned char c = s->head[i];
		buf[n++] = c >= 0x20 && c < 0x7f ? (char)c : '.';
	}
	buf[n++] = '"';
	if (held > shown && n + 4 < len)
		n += (size_t)text_encode(view_glyph(VG_DOTS, ascii), buf + n);
	buf[n] = '\0';
}

/* Draw the bar: [ filled to held/size ] in width columns. */
static void
view_stdio_bar(struct grid *g, int x, int y, int width, const struct snap_stdio *s, bool flash,
               bool ascii)
{
	int inner = width - 2, fill;
	uint64_t held = view_stdio_held(s);

	if (inner < 1)
		return;
	grid_put(g, x, y, '[', GS_STDIO);
	grid_put(g, x + width - 1, y, ']', GS_STDIO);
	if (s->size == 0) {
		grid_print(g, x + 1, y, inner, GS_DIM, s->open ? "not allocated yet" : "no FILE*");
		return;
	}
	fill = (int)((held * (uint64_t)inner + s->size / 2) / s->size);
	if (held > 0 && fill == 0)
		fill = 1;       /* one byte is still something */
	if (fill > inner)
		fill = inner;
	for (int i = 0; i < fill; i++)
		grid_put(g, x + 1 + i, y, view_glyph(VG_STDIO, ascii), GS_STDIO);
	if (flash)
		grid_attr(g, (struct grid_rect){ x + 1, y, fill > 0 ? fill : inner, 1 },
		          GRID_A_REVERSE);
}

/* Draw the stdio pane. */
void
view_stdio_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                const struct snapshot *prev, const struct event *last, bool ascii)
{
	const struct snap_stdio *s = &now->stdio;
	bool changed = prev != NULL && (prev->stdio.pending != s->pending ||
	                                 prev->stdio.size != s->size ||
	                                 prev->stdio.read_avail != s->read_avail ||
	                                 prev->stdio.open != s->open);
	uint64_t held = view_stdio_held(s);
	const char *what = s->pending == 0 && s->reading ? "unread" : "pending";
	char line[256], size[32], ev[160], data[128];
	int y = r.y, w = r.w;
	bool tall = r.h >= 6;

	if (r.w < 8 || r.h < 1)
		return;
	/* Size 0: glibc allocates the buffer at the first read or write; the bar says so. */
	snprintf(size, sizeof size, "%" PRIu64, s->size);
	if (!s->open) {
		grid_print(g, r.x, y++, w, GS_DIM, "no FILE* open");
		if (now->fd.open && y < r.y + r.h)
			grid_printf(g, r.x, y++, w, GS_NORMAL, "fd %d, offset %" PRId64, now->fd.fd,
			            now->fd.pos);
		if (last != NULL && y < r.y + r.h) {
			event_format(last, ev, sizeof ev);
			grid_printf(g, r.x, y, w, GS_DIM, "last stdio call: %s", ev);
		}
		return;
	}
	if (tall) {
		grid_printf(g, r.x, y++, w, GS_STDIO, "FILE* fd %d   %s", s->fd,
		            scenario_bufmode_name(s->mode));
		snprintf(line, sizeof line, "size %s   %s %" PRIu64, size, what, held);
	} else {
		snprintf(line, sizeof line, "FILE* %s   size %s   %s %" PRIu64,
		         scenario_bufmode_name(s->mode), size, what, held);
	}
	grid_print(g, r.x, y, w, GS_NORMAL, line);
	if (changed)
		grid_attr(g, (struct grid_rect){ r.x, y, text_width(line) < w ?
		                                 text_width(line) : w, 1 }, GRID_A_BOLD);
	y++;
	if (y >= r.y + r.h)
		return;
	view_stdio_bar(g, r.x, y++, w, s, changed, ascii);
	if (tall && s->size > 0) {
		snprintf(line, sizeof line, "%" PRIu64, s->size);
		grid_print(g, r.x + 1, y, 2, GS_DIM, "0");
		grid_print(g, r.x + w - 1 - text_width(line), y, w, GS_DIM, line);
		y++;
	}
	if (y < r.y + r.h && held > 0 && (tall || r.h >= 4)) {
		view_stdio_data(s, data, sizeof data, w - 6, ascii);
		grid_printf(g, r.x, y++, w, GS_NORMAL, "data %s", data);
	}
	if (y < r.y + r.h) {
		if (last != NULL) {
			event_format(last, ev, sizeof ev);
			/* "write(3, 904)": the result only when it differs from what was asked. */
			if (last->result >= 0 && (uint64_t)last->result == last->bytes &&
			    strstr(ev, ") = ") != NULL)
				strstr(ev, ") = ")[1] = '\0';
			grid_printf(g, r.x, y++, w, GS_NORMAL, "last %s: %s",
			            event_is_read(last) ? "fill" : "flush", ev);
		} else {
			grid_print(g, r.x, y++, w, GS_DIM, "stdio: no write()/read() yet");
		}
	}
	if (y < r.y + r.h && now->fd.open && tall)
		grid_printf(g, r.x, y++, w, GS_DIM, "fd offset %" PRId64, now->fd.pos);
}

/* Lines in text: a final newline ends the last line, it does not start another. */
static int
view_stdio_nlines(const char *text)
{
	int n = 0;

	for (const char *p = text; *p != '\0'; p++)
		if (*p == '\n' || p[1] == '\0')
			n++;
	return n;
}

/* Draw text from p at x, y in w columns up to its end or, if one_line is false, its next
 * newline; newlines shown as a return glyph, a cut line ends in an ellipsis at a word or
 * number boundary (grid_fit_keep). Return the character after the line. */
static const char *
view_stdio_line(struct grid *g, int x, int y, int w, const char *p, bool one_line, bool ascii)
{
	const char *end = one_line ? NULL : strchr(p, '\n');
	size_t n = end != NULL ? (size_t)(end - p) + 1 : strlen(p);
	char *line = strndup(p, n);
	int cols, keep, len, ew = ascii ? 3 : 1;

	if (line == NULL || w < 1) {
		free(line);
		return p + n;
	}
	cols = text_width(line);
	keep = cols <= w ? cols : grid_fit_keep(line, w - ew > 0 ? w - ew : 0);
	for (int col = 0; col < keep; col++) {
		uint32_t ch = text_decode(p, &len);
		grid_put(g, x + col, y, ch == '\n' ? (ascii ? '|' : 0x23ce) : ch,
		         ch == '\n' ? GS_DIM : GS_STDIO);     /* ⏎ */
		p += len;
	}
	if (keep < cols) {
		grid_print_fit(g, x + keep, y, w - keep, GS_BOLD, GRID_FIT_CLIP,
		               ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6");
		if (g->on_cut != NULL)
			g->on_cut(g, line, keep, true, g->cut_arg);
	}
	free(line);
	return end != NULL ? end + 1 : p + strlen(p);
}

/* Code points of the row that starts at p, in w columns: up to its newline (included), or
 * to its last space that fits when the line is longer. */
static int
view_stdio_wrap_cut(const char *p, int w)
{
	int n = 0, brk = 0, len;

	while (*p != '\0') {
		uint32_t ch = text_decode(p, &len);
		if (n == w)
			return brk > 0 ? brk : n;
		n++;
		p += len;
		if (ch == '\n')
			return n;
		if (ch == ' ')
			brk = n;
	}
	return n;
}

/* Draw the line at p wrapped in w columns from row *y, up to row end; return the character
 * after it. */
static const char *
view_stdio_wrapped(struct grid *g, int x, int *y, int end, int w, const char *p, bool ascii)
{
	do {
		int n = view_stdio_wrap_cut(p, w), len;
		for (int i = 0; i < n; i++) {
			uint32_t ch = text_decode(p, &len);
			grid_put(g, x + i, *y, ch == '\n' ? (ascii ? '|' : 0x23ce) : ch,
			         ch == '\n' ? GS_DIM : GS_STDIO);     /* ⏎ */
			p += len;
			if (ch == '\n') {
				(*y)++;
				return p;
			}
		}
		(*y)++;
	} while (*p != '\0' && *y < end);
	return p;
}

/* Rows the lines of text take wrapped in w columns. */
static int
view_stdio_wrap_rows(const char *text, int w)
{
	int rows = 0;

	while (*text != '\0') {
		int n = view_stdio_wrap_cut(text, w), len;
		for (int i = 0; i < n; i++) {
			text_decode(text, &len);
			text += len;
		}
		rows++;
	}
	return rows;
}

/* One stream under its label, a row a line (wrap: lines too long for a row go on over the
 * next rows): the first lines that fit, then how many more; total (when not 0) is how many
 * bytes were printed when text keeps only the first. */
static int
view_stdio_stream(struct grid *g, struct grid_rect r, const char *label, const char *text,
                  uint64_t total, bool wrap, bool ascii)
{
	int n = view_stdio_nlines(text), y = r.y;
	const char *p = text;

	grid_print(g, r.x, y++, r.w, GS_BOLD, label);
	if (total > strlen(text)) {
		/* Cut by the engine: say how much there was, not how many lines were kept. */
		char a[32], b[32];
		int last = r.y + r.h - 1;
		units_format_size(strlen(text), a, sizeof a);
		units_format_size(total, b, sizeof b);
		for (int i = 0; i < n && y < last; i++)
			p = view_stdio_line(g, r.x + 1, y++, r.w - 1, p, false, ascii);
		if (y <= last)
			grid_printf(g, r.x + 1, y++, r.w - 1, GS_DIM, "%s only %s of %s",
			            ascii ? "..." : "\xe2\x80\xa6", a, b);
		return y - r.y;
	}
	for (int i = 0; i < n && y < r.y + r.h; i++) {
		if (i + 1 < n && y + 1 == r.y + r.h) {
			grid_printf(g, r.x + 1, y++, r.w - 1, GS_DIM, "%s %d more line%s",
			            ascii ? "..." : "\xe2\x80\xa6", n - i, n - i == 1 ? "" : "s");
			break;
		}
		if (wrap)
			p = view_stdio_wrapped(g, r.x + 1, &y, r.y + r.h, r.w - 1, p, ascii);
		else
			p = view_stdio_line(g, r.x + 1, y++, r.w - 1, p, false, ascii);
	}
	return y - r.y;
}

/* Rows the program's output needs a line a row. */
int
view_stdio_output_rows(const char *out, const char *file, uint64_t out_total, int w)
{
	if (w > 1 && file != NULL)
		return (out != NULL ? 1 + view_stdio_wrap_rows(out, w - 1) +
		                      (out_total > strlen(out)) : 0) +
		       1 + view_stdio_wrap_rows(file, w - 1);
	return (out != NULL ? 1 + view_stdio_nlines(out) + (out_total > strlen(out)) : 0) +
	       (file != NULL ? 1 + view_stdio_nlines(file) : 0);
}

/* Draw what a pty or tail step printed. */
void
view_stdio_output(struct grid *g, struct grid_rect r, const char *out, const char *file,
                  uint64_t out_total, bool ascii)
{
	int streams = (out != NULL) + (file != NULL);

	if (r.w < 8 || r.h < 1 || streams == 0)
		return;
	if (file == NULL) {
		/* One stream (tail): its lines, or one row with a glyph for each newline. */
		if (r.h >= 2) {
			view_stdio_stream(g, r, "printed:", out, out_total, false, ascii);
		} else {
			grid_print(g, r.x, r.y, 9, GS_BOLD, "printed:");
			view_stdio_line(g, r.x + 9, r.y, r.w - 9, out, true, ascii);
		}
		return;
	}
	if (out == NULL)
		out = "";
	/* Both (pty): the order of the lines is the lesson, so each stream whole or one row. */
	if (r.h >= view_stdio_output_rows(out, file, out_total, 0)) {
		/* Lines wrapped rather than cut when the rows are there: they are the lesson. */
		bool wrap = r.h >= view_stdio_output_rows(out, file, out_total, r.w);
		int used = view_stdio_stream(g, r, "on the terminal (pty):", out, out_total, wrap,
		                             ascii);
		view_stdio_stream(g, (struct grid_rect){ r.x, r.y + used, r.w, r.h - used },
		                  "in the file:", file, 0, wrap, ascii);
		return;
	}
	grid_print(g, r.x, r.y, 10, GS_BOLD, "terminal:");
	view_stdio_line(g, r.x + 10, r.y, r.w - 10, out, true, ascii);
	if (r.h >= 2) {
		grid_print(g, r.x, r.y + 1, 10, GS_BOLD, "file:");
		view_stdio_line(g, r.x + 10, r.y + 1, r.w - 10, file, true, ascii);
	}
}
