/* SPDX-License-Identifier: MIT */
/* tui/grid.c: cells in memory; views draw here so tests can read a screen without a terminal. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/grid.h"
#include "base/text.h"

/* ANSI colours: 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan (same as COLOR_*). */
const struct grid_style_def grid_styles[GS__COUNT] = {
	[GS_NORMAL]    = { -1, false, false, false },
	[GS_DIM]       = { -1, false, true,  false },
	[GS_BOLD]      = { -1, true,  false, false },
	[GS_TITLE]     = { -1, true,  false, true  },
	[GS_BORDER]    = { -1, false, false, false },
	[GS_FOCUS]     = {  6, true,  false, false },
	[GS_STDIO]     = {  6, false, false, false },
	/* Clean, dirty and writeback never differ by red against green alone: cyan, bold yellow
	 * and bold magenta, and their glyphs (░ ▓ ≋) differ too (tests/check-views.c). */
	[GS_CLEAN]     = {  6, false, false, false },
	[GS_DIRTY]     = {  3, true,  false, false },
	[GS_WRITEBACK] = {  5, true,  false, false },
	[GS_DISK]      = {  4, true,  false, false },
	[GS_ERROR]     = {  1, true,  false, false },
	[GS_OK]        = {  2, false, false, false },
	[GS_KEY]       = { -1, true,  false, false },
};

/* Make a grid. */
struct grid *
grid_new(int w, int h)
{
	struct grid *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	if (grid_resize(g, w, h) != 0) {
		free(g);
		return NULL;
	}
	return g;
}

/* Free a grid. */
void
grid_free(struct grid *g)
{
	if (g == NULL)
		return;
	free(g->cells);
	free(g);
}

/* Resize and blank. */
int
grid_resize(struct grid *g, int w, int h)
{
	struct grid_cell *c;

	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	c = calloc((size_t)w * (size_t)h, sizeof *c);
	if (c == NULL)
		return -1;
	free(g->cells);
	g->cells = c;
	g->w = w;
	g->h = h;
	grid_clear(g);
	return 0;
}

/* Blank every cell. */
void
grid_clear(struct grid *g)
{
	grid_fill(g, (struct grid_rect){ 0, 0, g->w, g->h }, ' ', GS_NORMAL);
}

/* Fill a rectangle with one glyph. */
void
grid_fill(struct grid *g, struct grid_rect r, uint32_t ch, int style)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			grid_put(g, x, y, ch, style);
}

/* The cell at x, y. */
struct grid_cell *
grid_at(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* Make cell c (at x, y) free to hold a glyph: the wide character it is half of loses its
 * other half (a blank stays in its place). */
static void
grid_unpair(struct grid *g, int x, int y, struct grid_cell *c)
{
	struct grid_cell *o;

	if (c->ch == GRID_WIDE_TAIL && (o = grid_at(g, x - 1, y)) != NULL)
		o->ch = ' ', o->comb = 0;
	else if (c->ch != GRID_WIDE_TAIL && text_cp_width(c->ch) == 2 &&
	         (o = grid_at(g, x + 1, y)) != NULL && o->ch == GRID_WIDE_TAIL)
		o->ch = ' ';
}

/* Put one glyph; return the columns it took: 2 for a wide one (this cell and the next), 0 for
 * a combining mark (drawn on the glyph before it, at x - 1), else 1. */
int
grid_put(struct grid *g, int x, int y, uint32_t ch, int style)
{
	struct grid_cell *c = grid_at(g, x, y), *t;
	int w;

	/* Control characters would move a real terminal's cursor: never store them. */
	if (text_is_control(ch))
		ch = '?';
	w = text_cp_width(ch);
	if (w == 0) {
		if ((t = grid_at(g, x - 1, y)) != NULL && t->ch == GRID_WIDE_TAIL)
			t = grid_at(g, x - 2, y);
		if (t != NULL && t->comb == 0)
			t->comb = ch;
		return 0;
	}
	if (c == NULL)
		return w;
	grid_unpair(g, x, y, c);
	/* A wide character at the right edge has no room for its second half. */
	if (w == 2 && (t = grid_at(g, x + 1, y)) == NULL)
		ch = ' ', w = 1;
	c->ch = ch;
	c->comb = 0;
	c->style = (uint8_t)style;
	c->attr = 0;
	if (w == 2) {
		grid_unpair(g, x + 1, y, t);
		t->ch = GRID_WIDE_TAIL;
		t->comb = 0;
		t->style = (uint8_t)style;
		t->attr = 0;
	}
	return w;
}

/* Whether ch is an ASCII digit. */
static bool
grid_is_digit(uint32_t ch)
{
	return ch >= '0' && ch <= '9';
}

/* Whether ch is part of a word: letters, digits, and non-ASCII letters ("µs"), but not the
 * punctuation, arrows and box lines of U+2000-U+2BFF. */
static bool
grid_is_word(uint32_t ch)
{
	if (ch >= 0x80)
		return ch < 0x2000 || ch > 0x2bff;
	return grid_is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '_';
}

/* Whether keeping cp[0..k) of n code points would cut a number ("100" of "1004", "1." of
 * "1.5"). */
static bool
grid_in_number(const uint32_t *cp, int n, int k)
{
	if (k <= 0 || k >= n)
		return false;
	if (grid_is_digit(cp[k - 1]) && grid_is_digit(cp[k]))
		return true;
	if (grid_is_digit(cp[k]) && (cp[k - 1] == '.' || cp[k - 1] == ',') && k >= 2 &&
	    grid_is_digit(cp[k - 2]))
		return true;
	return grid_is_digit(cp[k - 1]) && k + 1 < n && (cp[k] == '.' || cp[k] == ',') &&
	       grid_is_digit(cp[k + 1]);
}

/* Columns the code points cp[0..n) take. */
static int
grid_cols(const uint32_t *cp, int n)
{
	int w = 0;

	for (int i = 0; i < n; i++)
		w += text_cp_width(cp[i]);
	return w;
}

/* Code points to keep of cp[0..n) in room columns: at a word boundary unless that loses
 * more than half the room (a long path), and never inside a number; no trailing blanks. */
static int
grid_fit_keep_cp(const uint32_t *cp, int n, int room)
{
	int k = 0, w, cols = 0;

	/* The most code points that fit the room (a combining mark rides on its base). */
	while (k < n && cols + text_cp_width(cp[k]) <= room)
		cols += text_cp_width(cp[k++]);
	while (k < n && text_cp_width(cp[k]) == 0)
		k++;
	if (k >= n)
		return n;
	w = k;
	while (w > 0 && (grid_in_number(cp, n, w) ||
	                 (grid_is_word(cp[w - 1]) && grid_is_word(cp[w]))))
		w--;
	if (w * 2 < k) {
		w = k;
		while (w > 0 && grid_in_number(cp, n, w))
			w--;
	}
	while (w > 0 && (cp[w - 1] == ' ' || cp[w - 1] == '\t'))
		w--;
	return w;
}

/* Decode s into a heap array of code points; *n is set to their count. NULL on ENOMEM. */
static uint32_t *
grid_decode_all(const char *s, int *n)
{
	uint32_t *cp = malloc(((size_t)text_width(s) + 1) * sizeof *cp);
	int len;

	*n = 0;
	if (cp == NULL)
		return NULL;
	while (*s != '\0') {
		cp[(*n)++] = text_decode(s, &len);
		s += len;
	}
	return cp;
}

/* Code points to keep of s before an ellipsis in room columns. */
int
grid_fit_keep(const char *s, int room)
{
	int n, k;
	uint32_t *cp = grid_decode_all(s, &n);

	if (cp == NULL)
		return room < 0 ? 0 : room;
	k = grid_fit_keep_cp(cp, n, room);
	free(cp);
	return k;
}

/* Put code points cp[0..n) at x, y: a tab shows as a blank, a newline as ⏎. Return the
 * columns they took. */
static int
grid_put_run(struct grid *g, int x, int y, int style, const uint32_t *cp, int n)
{
	int at = x;

	for (int i = 0; i < n; i++) {
		uint32_t ch = cp[i];
		if (ch == '\t')
			ch = ' ';
		else if (ch == '\n')
			ch = 0x23ce;      /* ⏎: a newline inside one line of text */
		at += grid_put(g, at, y, ch, style);
	}
	return at - x;
}

/* Write text in at most maxw columns, shortened as fit says. */
int
grid_print_fit(struct grid *g, int x, int y, int maxw, int style, enum grid_fit fit,
               const char *s)
{
	static const uint32_t dots[] = { '.', '.', '.' }, ell = 0x2026;
	int n, k, ew;
	uint32_t *cp;

	if (maxw <= 0 || *s == '\0')
		return 0;
	cp = grid_decode_all(s, &n);
	if (cp == NULL)
		return 0;
	if (grid_cols(cp, n) <= maxw) {
		k = grid_put_run(g, x, y, style, cp, n);
		free(cp);
		return k;
	}
	if (fit == GRID_FIT_CLIP) {
		for (k = 0; k < n && grid_cols(cp, k + 1) <= maxw; k++)
			;
		while (k < n && text_cp_width(cp[k]) == 0)
			k++;
		grid_put_run(g, x, y, style, cp, k);
		if (g->on_cut != NULL)
			g->on_cut(g, s, k, false, g->cut_arg);
		free(cp);
		return maxw;
	}
	ew = g->ascii ? (maxw < 3 ? maxw : 3) : 1;
	k = grid_fit_keep_cp(cp, n, maxw - ew);
	int cols = grid_put_run(g, x, y, style, cp, k);
	if (g->ascii)
		grid_put_run(g, x + cols, y, style, dots, ew);
	else
		grid_put_run(g, x + cols, y, style, &ell, 1);
	if (g->on_cut != NULL)
		g->on_cut(g, s, k, true, g->cut_arg);
	free(cp);
	return cols + ew;
}

/* Write text with an ellipsis where it is cut. */
int
grid_print(struct grid *g, int x, int y, int maxw, int style, const char *s)
{
	return grid_print_fit(g, x, y, maxw, style, GRID_FIT_ELLIPSIS, s);
}

/* printf into the grid: the text whole, cut only where grid_print cuts it, with "…". */
int
grid_printf(struct grid *g, int x, int y, int maxw, int style, const char *fmt, ...)
{
	struct text_buf b = { 0 };
	va_list ap;
	int cols;

	va_start(ap, fmt);
	text_vaddf(&b, fmt, ap);
	va_end(ap);
	cols = grid_print(g, x, y, maxw, style, text_str(&b));
	text_buf_free(&b);
	return cols;
}

/* Word-wrap text into r; newlines in the text start a new line. */
int
grid_wrap(struct grid *g, struct grid_rect r, int style, const char *s)
{
	int line = 0;

	if (r.w <= 0)
		return 0;
	while (*s != '\0') {
		/* Find the longest prefix of whole words that fits in r.w columns. */
		const char *p = s, *brk = NULL;
		int cols = 0, len;

		while (*p != '\0' && *p != '\n') {
			int w = text_cp_width(text_decode(p, &len));
			if (cols + w > r.w)
				break;
			if (*p == ' ')
				brk = p;
			p += len;
			cols += w;
		}
		if (p == s && *p != '\0' && *p != '\n') {
			text_decode(p, &len);
			p += len;         /* a glyph wider than the room: alone on its line */
		}
		if (*p != '\0' && *p != '\n' && *p != ' ' && brk != NULL)
			p = brk;          /* break at the last space */
		if (line < r.h) {
			int n = 0;
			for (const char *q = s; q < p; q += len)
				n += grid_put(g, r.x + n, r.y + line, text_decode(q, &len), style);
		}
		line++;
		s = p;
		while (*s == ' ')
			s++;
		if (*s == '\n')
			s++;
	}
	return line;
}

/* Box line glyphs: h, v, tl, tr, bl, br, left tee, right tee. */
static const uint32_t grid_lines_utf8[] = { 0x2500, 0x2502, 0x250c, 0x2510, 0x2514, 0x2518,
                                            0x251c, 0x2524 };
static const uint32_t grid_lines_ascii[] = { '-', '|', '+', '+', '+', '+', '+', '+' };

/* Draw a box with a title. */
void
grid_box(struct grid *g, struct grid_rect r, const char *title, int style, bool ascii)
{
	const uint32_t *l = ascii ? grid_lines_ascii : grid_lines_utf8;

	if (r.w < 2 || r.h < 2)
		return;
	for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
		grid_put(g, x, r.y, l[0], style);
		grid_put(g, x, r.y + r.h - 1, l[0], style);
	}
	for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
		grid_put(g, r.x, y, l[1], style);
		grid_put(g, r.x + r.w - 1, y, l[1], style);
	}
	grid_put(g, r.x, r.y, l[2], style);
	grid_put(g, r.x + r.w - 1, r.y, l[3], style);
	grid_put(g, r.x, r.y + r.h - 1, l[4], style);
	grid_put(g, r.x + r.w - 1, r.y + r.h - 1, l[5], style);
	if (title != NULL && *title != '\0' && r.w > 4) {
		int n = grid_print(g, r.x + 2, r.y, r.w - 4, style == GS_FOCUS ? GS_FOCUS : GS_BOLD,
		                   title);
		grid_put(g, r.x + 1, r.y, ' ', style);
		grid_put(g, r.x + 2 + n, r.y, ' ', style);
	}
}

/* Draw a separator line inside a box. */
void
grid_hsep(struct grid *g, struct grid_rect r, int y, const char *title, int style, bool ascii)
{
	const uint32_t *l = ascii ? grid_lines_ascii : grid_lines_utf8;

	for (int x = r.x + 1; x < r.x + r.w - 1; x++)
		grid_put(g, x, y, l[0], style);
	grid_put(g, r.x, y, l[6], style);
	grid_put(g, r.x + r.w - 1, y, l[7], style);
	if (title != NULL && *title != '\0' && r.w > 4) {
		int n = grid_print(g, r.x + 2, y, r.w - 4, GS_BOLD, title);
		grid_put(g, r.x + 1, y, ' ', style);
		grid_put(g, r.x + 2 + n, y, ' ', style);
	}
}

/* Add attributes to a rectangle. */
void
grid_attr(struct grid *g, struct grid_rect r, unsigned attr)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++) {
			struct grid_cell *c = grid_at(g, x, y);
			if (c != NULL)
				c->attr |= (uint8_t)attr;
		}
}

/* ASCII look-alike of a code point. */
static uint32_t
grid_ascii_of(uint32_t ch)
{
	static const struct { uint32_t from, to; } map[] = {
		{ 0x00b5, 'u' }, { 0x00d7, 'x' }, { 0x00b7, '.' }, { 0x2026, '.' }, { 0x2018, '\'' },
		{ 0x2019, '\'' }, { 0x201c, '"' }, { 0x201d, '"' }, { 0x2013, '-' }, { 0x2014, '-' },
		{ 0x2192, '>' }, { 0x2190, '<' }, { 0x2713, '+' }, { 0x2717, 'x' }, { 0x2264, '<' },
		{ 0x2265, '>' }, { 0x2260, '!' }, { 0x00a0, ' ' }, { 0x23ce, '|' },
	};

	if (ch < 0x80)
		return ch;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].from == ch)
			return map[i].to;
	if (ch == 0x2500 || ch == 0x2504)
		return '-';
	if (ch == 0x2502)
		return '|';
	if (ch >= 0x250c && ch <= 0x254b)
		return '+';
	return '?';
}

/* Make every glyph ASCII. */
void
grid_asciify(struct grid *g)
{
	/* A wide character's two cells become two '?' (or its ASCII and a blank). */
	for (size_t i = 0; i < (size_t)g->w * (size_t)g->h; i++) {
		g->cells[i].ch = g->cells[i].ch == GRID_WIDE_TAIL ? '?' : grid_ascii_of(g->cells[i].ch);
		g->cells[i].comb = 0;
	}
}

/* One row as text. */
char *
grid_row_text(const struct grid *g, int y, char *buf, size_t len)
{
	size_t n = 0, keep = 0;

	if (len == 0)
		return buf;
	for (int x = 0; x < g->w && y >= 0 && y < g->h; x++) {
		char u[8];
		const struct grid_cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
		int k;
		if (c->ch == GRID_WIDE_TAIL)
			continue;
		k = text_encode(c->ch, u);
		if (c->comb != 0)
			k += text_encode(c->comb, u + k);
		if (n + (size_t)k >= len)
			break;
		memcpy(buf + n, u, (size_t)k);
		n += (size_t)k;
		if (c->ch != ' ')
			keep = n;
	}
	buf[keep] = '\0';
	return buf;
}

/* The whole grid as text. */
char *
grid_text(const struct grid *g)
{
	size_t rowmax = (size_t)g->w * 8 + 2;
	char *out = malloc(rowmax * (size_t)g->h + 1), *p = out;

	if (out == NULL)
		return NULL;
	for (int y = 0; y < g->h; y++) {
		grid_row_text(g, y, p, rowmax);
		p += strlen(p);
		*p++ = '\n';
	}
	*p = '\0';
	return out;
}

/* Append an SGR sequence for a style and attributes. */
static size_t
grid_sgr(char *p, int style, unsigned attr, bool color)
{
	const struct grid_style_def *d = &grid_styles[style < GS__COUNT ? style : 0];
	size_t n = (size_t)sprintf(p, "\033[0");

	if (d->bold || (attr & GRID_A_BOLD))
		n += (size_t)sprintf(p + n, ";1");
	if (d->dim)
		n += (size_t)sprintf(p + n, ";2");
	if (d->reverse || (attr & GRID_A_REVERSE))
		n += (size_t)sprintf(p + n, ";7");
	if (attr & GRID_A_UNDERLINE)
		n += (size_t)sprintf(p + n, ";4");
	if (color && d->fg >= 0)
		n += (size_t)sprintf(p + n, ";%d", 30 + d->fg);
	p[n++] = 'm';
	return n;
}

/* The grid as ANSI text. */
char *
grid_ansi(const struct grid *g, bool color)
{
	/* Per cell: up to 8 bytes of glyph and mark, and one SGR (under 24 bytes). */
	size_t cap = (size_t)g->w * (size_t)g->h * 32 + (size_t)g->h * 16 + 64;
	char *out = malloc(cap), *p = out;

	if (out == NULL)
		return NULL;
	p += sprintf(p, "\033[H");
	for (int y = 0; y < g->h; y++) {
		int last_style = -1;
		unsigned last_attr = 0;
		p += sprintf(p, "\033[%d;1H", y + 1);
		for (int x = 0; x < g->w; x++) {
			const struct grid_cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			if (c->style != last_style || c->attr != last_attr) {
				p += grid_sgr(p, c->style, c->attr, color);
				last_style = c->style;
				last_attr = c->attr;
			}
			if (c->ch == GRID_WIDE_TAIL)
				continue;   /* the wide character before it took this column */
			p += text_encode(c->ch, p);
			if (c->comb != 0)
				p += text_encode(c->comb, p);
		}
	}
	p += sprintf(p, "\033[0m");
	*p = '\0';
	return out;
}
