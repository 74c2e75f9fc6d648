/* SPDX-License-Identifier: MIT */
/* tui/grid.h: a screen as a grid of cells (glyph + style), drawn by views, shown by tui/crt.c. */
#ifndef IOBUFVIZ_GRID_H
#define IOBUFVIZ_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"

/* What a cell means; tui/crt.c and the ANSI writer turn it into colour through grid_styles[]. */
enum grid_style {
	GS_NORMAL,
	GS_DIM,
	GS_BOLD,
	GS_TITLE,      /* title bar */
	GS_BORDER,
	GS_FOCUS,      /* border of the focused pane */
	GS_STDIO,      /* stdio buffer: cyan */
	GS_CLEAN,      /* clean cached page: cyan */
	GS_DIRTY,      /* dirty page: yellow */
	GS_WRITEBACK,  /* under writeback: magenta */
	GS_DISK,       /* on disk: blue */
	GS_ERROR,      /* errors, failed expectations: red */
	GS_OK,         /* held expectations: green */
	GS_KEY,        /* key names in the footer */
	GS__COUNT
};

/* Extra attributes of one cell. */
#define GRID_A_REVERSE 0x1u   /* flash: a cell that just changed */
#define GRID_A_BOLD    0x2u
#define GRID_A_UNDERLINE 0x4u /* the pages a read asked for (bold: read ahead; view-cache.c) */

/* How a style looks: an ANSI colour (0-7, -1 = default) and attributes. */
struct grid_style_def {
	int fg;
	bool bold, dim, reverse;
};

/* The one colour table, indexed by enum grid_style. */
extern const struct grid_style_def grid_styles[GS__COUNT];

struct grid_cell {
	uint32_t ch;        /* Unicode code point; a wide one (text_cp_width 2) takes this cell
	                     * and the next, which holds GRID_WIDE_TAIL */
	uint32_t comb;      /* a combining mark drawn on ch (text_cp_width 0), or 0 */
	uint8_t style;      /* enum grid_style */
	uint8_t attr;       /* GRID_A_* */
};

/* The second cell of a wide character: drawn by its first, never on its own. */
#define GRID_WIDE_TAIL 0xffffffffu

struct grid;

/* Told of every text that did not fit: the full text, the code points kept, and whether an
 * ellipsis marks the cut (tests use it to find cuts that hide or change something). */
typedef void (*grid_cut_fn)(const struct grid *g, const char *full, int kept, bool ellipsis,
                            void *arg);

struct grid {
	int w, h;
	struct grid_cell *cells;
	bool ascii;           /* the ellipsis is "..." (GRID_ELLIPSIS_ASCII) instead of U+2026 */
	grid_cut_fn on_cut;   /* NULL: nobody is told */
	void *cut_arg;
};

/* How text that does not fit is shortened: with an ellipsis at a word or number boundary
 * (never inside a number), or cut at the edge (glyph strips, where every column is a cell). */
enum grid_fit { GRID_FIT_ELLIPSIS, GRID_FIT_CLIP };

/* The ellipsis of --ascii terminals (U+2026 otherwise). */
#define GRID_ELLIPSIS_ASCII "..."


/* A rectangle on a grid. */
struct grid_rect {
	int x, y, w, h;
};

/* Make a w x h grid of blanks. NULL on ENOMEM. */
struct grid *grid_new(int w, int h);

/* Free a grid. NULL is fine. */
void grid_free(struct grid *g);

/* Change the size and blank everything. 0 or -1 (ENOMEM, grid unchanged). */
int grid_resize(struct grid *g, int w, int h);

/* Blank every cell. */
void grid_clear(struct grid *g);

/* Blank a rectangle. */
void grid_fill(struct grid *g, struct grid_rect r, uint32_t ch, int style);

/* The cell at x, y, or NULL outside the grid. */
struct grid_cell *grid_at(struct grid *g, int x, int y);

/* Put one code point at x, y (clipped); return the columns it took: 2 for a wide one (this
 * cell and the next), 0 for a combining mark (drawn on the glyph before it), else 1. */
int grid_put(struct grid *g, int x, int y, uint32_t ch, int style);

/* Write UTF-8 text at x, y, at most maxw columns (a newline shows as ⏎), shortened as fit
 * says when it is wider; return the columns used. The one place text is shortened. */
int grid_print_fit(struct grid *g, int x, int y, int maxw, int style, enum grid_fit fit,
                   const char *s);

/* grid_print_fit() with GRID_FIT_ELLIPSIS: what every view uses for words and numbers. */
int grid_print(struct grid *g, int x, int y, int maxw, int style, const char *s);

/* How many code points of s (width cols) to keep before an ellipsis when only room columns
 * are free: backs off to a word boundary, and always out of a number. */
int grid_fit_keep(const char *s, int room);

/* printf into the grid; same clipping as grid_print. */
int grid_printf(struct grid *g, int x, int y, int maxw, int style, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Word-wrap UTF-8 text into r, from its top; return the lines used (or needed, if more). */
int grid_wrap(struct grid *g, struct grid_rect r, int style, const char *s);

/* Draw a box on r's edge with a title in the top line; ascii picks +-| lines. */
void grid_box(struct grid *g, struct grid_rect r, const char *title, int style, bool ascii);

/* Draw a horizontal separator ├ title ───┤ across a box at row y. */
void grid_hsep(struct grid *g, struct grid_rect r, int y, const char *title, int style,
               bool ascii);

/* Set attr bits on the cells of r. */
void grid_attr(struct grid *g, struct grid_rect r, unsigned attr);

/* Replace every non-ASCII glyph by an ASCII look-alike ("µ" -> "u", box lines -> "-|+"),
 * or "?" (for --ascii terminals: text from scenarios may hold any UTF-8). */
void grid_asciify(struct grid *g);

/* Row y as UTF-8 text with trailing blanks removed, into buf. Return buf. */
char *grid_row_text(const struct grid *g, int y, char *buf, size_t len);

/* The whole grid as text, one line per row (heap string; NULL on ENOMEM). */
char *grid_text(const struct grid *g);

/* The grid as ANSI text (home, then every row with SGR codes); color false keeps only
 * bold/dim/reverse. Heap string; NULL on ENOMEM. */
char *grid_ansi(const struct grid *g, bool color);

#endif
