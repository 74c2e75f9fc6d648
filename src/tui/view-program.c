/* SPDX-License-Identifier: MIT */
/* tui/view-program.c: the program pane: the scenario as one C program, the current step lit. */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/program.h"
#include "tui/view.h"

/* Columns a tab takes in the pane (the program's own indentation is a tab a level). */
#define VIEW_PROGRAM_TAB 4

/* Lexer state carried from line to line: inside a comment or not. */
struct view_program_lex {
	bool comment;
};

/* True if word (len bytes) is a C keyword or a type a student reads as one. */
static bool
view_program_keyword(const char *w, size_t len)
{
	static const char *const kw[] = {
		"break", "char", "const", "continue", "else", "enum", "for", "if", "int", "long",
		"return", "size_t", "ssize_t", "off_t", "pid_t", "static", "struct", "unsigned",
		"void", "while", "FILE", "NULL", "_Alignas", "double", "bool",
	};

	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (strlen(kw[i]) == len && memcmp(kw[i], w, len) == 0)
			return true;
	return false;
}

/* The style of a call named w: the colour of the pane its op's bytes go to (the op table's
 * layer), found by the C function the op's statement calls. */
static int
view_program_call_style(const char *w, size_t len)
{
	static const int styles[] = {
		[SCN_LAYER_NONE] = GS_NORMAL, [SCN_LAYER_STDIO] = GS_STDIO,
		[SCN_LAYER_DIRTY] = GS_DIRTY, [SCN_LAYER_CLEAN] = GS_CLEAN,
		[SCN_LAYER_DISK] = GS_DISK, [SCN_LAYER_WRITEBACK] = GS_WRITEBACK,
	};

	for (int op = 0; op < SCN_OP__COUNT; op++) {
		const struct scn_op_entry *o = &scn_op_table[op];
		const char *name = o->cname != NULL ? o->cname : o->name;
		if (strlen(name) == len && memcmp(name, w, len) == 0)
			return styles[o->layer];
	}
	return GS_NORMAL;
}

/*
 * Styles of line's bytes into st (one per byte), carrying comments across lines in lx:
 * comments dim, strings green, keywords bold, preprocessor lines as keys, and the calls in
 * the colour of the pane their data goes to.
 */
static void
view_program_lex(const char *line, unsigned char *st, struct view_program_lex *lx)
{
	size_t n = strlen(line), i = 0;
	const char *p = line;

	while (*p == '\t' || *p == ' ')
		p++;
	if (*p == '#' && !lx->comment) {
		memset(st, GS_KEY, n);
		return;
	}
	while (i < n) {
		if (lx->comment) {
			st[i] = GS_DIM;
			if (line[i] == '*' && line[i + 1] == '/') {
				st[++i] = GS_DIM;
				lx->comment = false;
			}
			i++;
		} else if (line[i] == '/' && line[i + 1] == '*') {
			lx->comment = true;
			st[i++] = GS_DIM;
			st[i++] = GS_DIM;
		} else if (line[i] == '"' || line[i] == '\'') {
			char q = line[i];
			st[i++] = GS_OK;
			while (i < n && line[i] != q) {
				if (line[i] == '\\' && i + 1 < n)
					st[i++] = GS_OK;
				st[i++] = GS_OK;
			}
			if (i < n)
				st[i++] = GS_OK;
		} else if (isalpha((unsigned char)line[i]) || line[i] == '_') {
			size_t j = i, k;
			int s;
			while (j < n && (isalnum((unsigned char)line[j]) || line[j] == '_'))
				j++;
			for (k = j; k < n && line[k] == ' '; k++)
				continue;
			s = view_program_keyword(line + i, j - i) ? GS_BOLD :
			    k < n && line[k] == '(' ? view_program_call_style(line + i, j - i) :
			    GS_NORMAL;
			memset(st + i, s, j - i);
			i = j;
		} else {
			st[i++] = GS_NORMAL;
		}
	}
}

/* The columns the character at line + i takes, at column col (a tab: to the next stop). */
static int
view_program_cols(const char *line, size_t i, int col, int *len)
{
	*len = 1;
	if (line[i] == '\t')
		return VIEW_PROGRAM_TAB - col % VIEW_PROGRAM_TAB;
	text_decode(line + i, len);
	return 1;
}

/*
 * Lay out one program line in w columns, wrapped rather than cut: a row that would overflow
 * ends at its last space (if that leaves it at least half full) and the line goes on in the
 * next row, indented past the line's own indentation, so that no two lines that differ look
 * the same. Draw the first rows of them at x, y when g is not NULL; return how many rows the
 * whole line takes.
 */
static int
view_program_line(struct grid *g, int x, int y, int w, int rows, const char *line,
                  const unsigned char *st)
{
	int indent = 0, hang, row = 0, col = 0, len;
	size_t n = strlen(line), i = 0;

	for (size_t k = 0; line[k] == '\t' || line[k] == ' '; k++)
		indent += view_program_cols(line, k, indent, &len);
	hang = indent + VIEW_PROGRAM_TAB < w / 2 ? indent + VIEW_PROGRAM_TAB : w / 2;
	while (i < n) {
		/* One row: the bytes [i, end) from column col; end at a space when it fits. */
		size_t end = i, brk = 0;
		int c = col;

		while (end < n) {
			int cw = view_program_cols(line, end, c, &len);
			if (c + cw > w)
				break;
			c += cw;
			end += (size_t)len;
			if (line[end - 1] == ' ' && c >= w / 2)
				brk = end;
		}
		if (end < n && brk > i)
			end = brk;
		if (end == i)          /* a row must move on, however narrow */
			end = i + 1;
		if (g != NULL && row < rows) {
			int cc = col;
			for (size_t k = i; k < end; k += (size_t)len) {
				int cw = view_program_cols(line, k, cc, &len);
				uint32_t ch = line[k] == '\t' ? ' ' : text_decode(line + k, &len);
				for (int d = 0; d < cw && cc < w; d++, cc++)
					grid_put(g, x + cc, y + row, ch, st[k]);
			}
		}
		row++;
		i = end;
		col = hang;
	}
	return row > 0 ? row : 1;
}

/* True if line i of p is a line of a step that runs another program (a run step). */
static bool
view_program_runs(const struct program *p, size_t i)
{
	for (size_t k = 0; k < p->n_steps; k++)
		if (p->runs[k] && i >= p->first[k] && i < p->last[k])
			return true;
	return false;
}

/* Draw the program p in r, step (-1: none) lit and scrolled into view; the lines that run
 * another program marked "!" in the gutter. */
void
view_program_draw(struct grid *g, struct grid_rect r, const struct program *p, long step,
                  bool ascii)
{
	struct view_program_lex lx = { false };
	int ih = r.h - 2, iw = r.w - 2, gut = 4, tw = iw - gut, above = 0, y;
	size_t first, last, top, shown;
	bool more = false, runs = false;
	char title[64], at[32] = "";

	for (size_t k = 0; k < p->n_steps; k++)
		runs |= p->runs[k];
	if (step >= 0 && (size_t)step < p->n_steps)
		snprintf(at, sizeof at, ": step %ld", step + 1);
	snprintf(title, sizeof title, "program%s (c hides%s)", at, runs ? "; ! runs a program" : "");
	grid_box(g, r, title, GS_BORDER, ascii);
	if (ih < 1 || iw < gut + 4)
		return;
	grid_fill(g, (struct grid_rect){ r.x + 1, r.y + 1, iw, ih }, ' ', GS_NORMAL);
	first = step >= 0 && (size_t)step < p->n_steps ? p->first[step] :
	        p->n_steps > 0 ? p->first[0] : 0;
	last = step >= 0 && (size_t)step < p->n_steps ? p->last[step] : first;
	if (first > p->n_lines)
		first = last = p->n_lines;
	/* The step's lines a third of the way down (what led to it shows above), all of them
	 * if they fit; as many rows as the pane has, if the program has them. */
	top = first;
	while (top > 0 && above + view_program_line(NULL, 0, 0, tw, 0, p->lines[top - 1],
	                                            NULL) <= ih / 3)
		above += view_program_line(NULL, 0, 0, tw, 0, p->lines[--top], NULL);
	for (int rows = 0; ; ) {
		rows = 0;
		for (size_t i = top; i < last; i++)
			rows += view_program_line(NULL, 0, 0, tw, 0, p->lines[i], NULL);
		if (rows <= ih || top == first)
			break;
		top++;
	}
	for (int rows = 0; top > 0; ) {
		rows = 0;
		for (size_t i = top; i < p->n_lines && rows <= ih; i++)
			rows += view_program_line(NULL, 0, 0, tw, 0, p->lines[i], NULL);
		if (rows + view_program_line(NULL, 0, 0, tw, 0, p->lines[top - 1], NULL) > ih)
			break;
		top--;
	}
	y = r.y + 1;
	shown = top;
	for (size_t i = 0; i < p->n_lines && y < r.y + 1 + ih; i++) {
		/* A style per byte, however long the line (a scenario's text may be). */
		unsigned char *st = calloc(strlen(p->lines[i]) + 2, 1);
		bool lit = i >= first && i < last, mark = view_program_runs(p, i);
		int rows;

		if (st == NULL)
			break;
		view_program_lex(p->lines[i], st, &lx);   /* every line: comments span lines */
		if (i < top) {
			free(st);
			continue;
		}
		rows = view_program_line(g, r.x + 1 + gut, y, tw, r.y + 1 + ih - y, p->lines[i],
		                         st);
		free(st);
		if (rows > r.y + 1 + ih - y) {
			rows = r.y + 1 + ih - y;
			more = true;
		}
		grid_printf(g, r.x + 1, y, gut, lit ? GS_FOCUS : GS_DIM, "%3zu", i + 1);
		if (mark || lit)   /* past line 999, in place of the number's last digit */
			grid_put(g, r.x + gut, y, mark ? '!' : '>', mark ? GS_ERROR : GS_FOCUS);
		if (lit)
			grid_attr(g, (struct grid_rect){ r.x + 1 + gut, y, tw, rows }, GRID_A_REVERSE);
		y += rows;
		shown = i + 1;
	}
	if (top > 0)
		grid_put(g, r.x + r.w - 1, r.y + 1, ascii ? '^' : 0x2191, GS_BOLD);
	if (shown < p->n_lines || more)
		grid_put(g, r.x + r.w - 1, r.y + r.h - 2, ascii ? 'v' : 0x2193, GS_BOLD);
}
