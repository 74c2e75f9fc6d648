/* SPDX-License-Identifier: MIT */
/* tui/view.h: the panes, log and frame of the TUI, drawn into a grid (never a terminal). */
#ifndef IOBUFVIZ_VIEW_H
#define IOBUFVIZ_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "tui/grid.h"
#include "step/step.h"
#include "scenario/scenario.h"
#include "probe/snapshot.h"

/* Glyphs with a Unicode and an ASCII form; every state has its own, colour or not. */
enum view_glyph {
	VG_ABSENT,     /* page not in the cache */
	VG_CLEAN,      /* cached, clean */
	VG_DIRTY,      /* cached, dirty */
	VG_WRITEBACK,  /* being written back */
	VG_ONDISK,     /* allocated block on disk */
	VG_DELALLOC,   /* delayed allocation: no block yet */
	VG_UNWRITTEN,  /* allocated, reads as zeros (fallocate) */
	VG_STALE,      /* allocated, but dirty pages are newer */
	VG_UNKNOWN,    /* not observable */
	VG_STDIO,      /* a byte in the stdio buffer */
	VG_OK,
	VG_FAIL,
	VG_ARROW,      /* a packet travelling between panes */
	VG_DOTS,       /* ellipsis */
	VG_RESIDENT,   /* cached, dirty or clean unknown (mincore sees residency only) */
	VG_INLINE,     /* data kept in the filesystem's metadata: no block of its own */
	VG__COUNT
};

/* The code point of a glyph. */
uint32_t view_glyph(enum view_glyph v, bool ascii);

/* One entry of a legend: a glyph in its style (and attributes), then its name. */
struct view_legend {
	enum view_glyph v;
	int style;
	const char *name;
	unsigned attr;             /* GRID_A_* of the glyph (0: none) */
};

/* The size of a page, in bytes, as the probes count pages. */
uint64_t view_page_size(void);

/* Draw a legend at x, y in w columns and up to rows rows; return the rows used (g NULL:
 * only count them). */
int view_legend_draw(struct grid *g, int x, int y, int w, int rows, const struct view_legend *l,
                     size_t n, bool ascii);

/* The panes, in screen order. */
enum view_pane { VIEW_PANE_STDIO, VIEW_PANE_CACHE, VIEW_PANE_DISK, VIEW_PANE_LOG,
                 VIEW_PANE__COUNT, VIEW_PANE_NONE = -1 };

/* Where the cache grid's cells landed, for clicks and details. */
struct view_cache_geom {
	int x, y, cols, rows;      /* first cell on screen, cells per row, rows */
	size_t n;                  /* cells shown */
	size_t per;                /* snapshot cells merged into one shown cell */
	int cw, rh;                /* columns and rows a shown cell takes (projector mode: 2 and,
	                            * when the pane is tall enough, 2; 0: 1) */
};

/* What the cache pane takes from the whole run rather than from the snapshot it shows. */
struct view_cache_look {
	uint64_t scale_pages;      /* the run's largest file, in pages: it sets the scale, which
	                            * then holds for every step (0: this snapshot's file) */
	bool big;                  /* projector mode: cells two columns wide */
	const struct snapshot *before;    /* the shown step's state before it (NULL: none) */
	const struct snapshot_origins *origins; /* where its cached pages came from (NULL or
	                            * not valid: the step asked for no pages); the cells are then
	                            * marked: asked for (underlined), read ahead (bold), cached
	                            * before it (dim) */
};

/* State of one shown cache cell (merged from snapshot cells). */
struct view_cell_state {
	uint64_t first_page, pages, cached, dirty, writeback;
	bool dirty_unknown;       /* the source tells residency only: dirty is not 0, unknown */
};

/* tui/view-stdio.c: the FILE* buffer in r; prev non-NULL flashes what changed; last is the
 * latest write/read stdio made for the program (NULL: none yet). */
void view_stdio_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                     const struct snapshot *prev, const struct event *last, bool ascii);

/* What a pty step printed on the terminal (out) and in the file (file), or a tail step
 * printed (out; file NULL), in r: a row a line when they fit, else a row a stream.
 * out_total: bytes printed in all when out keeps only the first of them (else 0). */
void view_stdio_output(struct grid *g, struct grid_rect r, const char *out, const char *file,
                       uint64_t out_total, bool ascii);

/* Rows view_stdio_output() needs to show every line whole: a row a line, or with w > 0 the
 * rows of a line too long for w columns wrapped at its spaces. */
int view_stdio_output_rows(const char *out, const char *file, uint64_t out_total, int w);

/* tui/view-cache.c: the page-cache grid in r; note is an extra remark (NULL: none); look NULL:
 * everything from now. */
void view_cache_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                     const struct snapshot *prev, const char *note, bool ascii,
                     const struct view_cache_look *look, struct view_cache_geom *geom);

/* Merged state of shown cell i of geometry geom. */
struct view_cell_state view_cache_cell(const struct snapshot *s, const struct view_cache_geom *geom,
                                       size_t i);

/* One line describing shown cell i ("cell 2: pages 16-31 (64 KiB-128 KiB): dirty 16 ..."). */
char *view_cache_cell_text(const struct snapshot *s, const struct view_cache_geom *geom, size_t i,
                           char *buf, size_t len);

/* Runs of shown cells in one state, a line each ("pages 0-15 [0 B, 64 KiB) dirty: ..."),
 * at most max lines. */
char *view_cache_runs_text(const struct snapshot *s, const struct view_cache_geom *geom,
                           size_t max, char *buf, size_t len);

/* Which shown cell is at screen x, y; -1 if none. */
long view_cache_hit(const struct view_cache_geom *geom, int x, int y);

/* The cache pane's legend: every state (has_dirty), or what residency alone shows; *n
 * entries. */
const struct view_legend *view_cache_legend_of(bool has_dirty, size_t *n);

/* The disk pane's legend, with inline data's entry or without; *n entries. */
const struct view_legend *view_disk_legend_of(bool with_inline, size_t *n);

/* tui/view-disk.c: extents as a strip, and bytes on disk, in r; prev: the state to mark
 * changes against (NULL: none); before: the state before the step shown, for the device line
 * (what reached a crash lab's device in the step; NULL: no line). */
void view_disk_draw(struct grid *g, struct grid_rect r, const struct snapshot *now,
                    const struct snapshot *prev, const struct snapshot *before, bool ascii);

/* The disk pane's title ("disk (ext4, /dev/vda)"). */
char *view_disk_title(const struct snapshot *s, const char *fs, char *buf, size_t len);

/* tui/view-log.c: the system calls of results[0..n) (newest at the bottom) in r. */
void view_log_draw(struct grid *g, struct grid_rect r, const struct step_result *results,
                   size_t n, bool ascii);

/* One log line for event e of step idx (0-based) made by op. */
char *view_log_line(const struct event *e, size_t idx, enum scn_op op, char *buf, size_t len);

/* How many lines the log of one step takes. */
size_t view_log_lines(const struct step_result *sr);

/* The procio summary of a step ("2 calls, 8192 bytes (counts only)"). */
char *view_log_counts(const struct step_result *sr, char *buf, size_t len);

/* Animation phase of the current step. */
enum view_anim { VIEW_ANIM_NONE, VIEW_ANIM_TRAVEL, VIEW_ANIM_FLASH };

/* One hop of data between panes (stdio to cache, cache to disk, and back on reads). */
struct view_hop {
	enum view_pane from, to;
	char label[32];
};

#define VIEW_MAX_HOPS 4

/* The hops a step's observed before/after and events show; return how many. */
size_t view_screen_hops(const struct step_result *sr, struct view_hop *hops, size_t max);

/* Everything the screen shows at one moment. */
struct view_frame {
	const struct scenario *scn;
	const struct lesson *lesson; /* the run: its intro as it tells it (lesson_intro); NULL:
	                                scn->intro as written (a traced program) */
	const struct step_result *results;  /* history, oldest first */
	size_t n_results;
	long cur;                 /* shown result; -1: before the first step */
	const struct snapshot *initial;     /* shown when cur is -1 */
	const struct snapshot *live;        /* a long step's state so far; NULL: none */
	bool running;             /* step n_results + 1 is running (a wait, a sweep) */
	const char *fs;           /* filesystem name from the runner ("ext4") */
	bool replay;              /* cur is not the newest: a recorded snapshot */
	double speed;
	bool autoplay, ascii;
	bool big;                 /* projector mode (--big; on by itself from 160 columns) */
	enum view_anim anim;
	struct view_hop hop;      /* the hop travelling (anim TRAVEL) */
	double t;                 /* 0..1 along the hop */
	int help;                 /* 0: none; 1: the keys and the legend; N: the glossary's
	                             page N - 1 */
	enum view_pane focus;
	bool details;             /* show the details of the focused pane (tui/view-details.c) */
	bool crash;               /* show what a crash leaves at cur (tui/view-crash.c) */
	long detail_cell;         /* ... or of this shown cache cell; -1: the pane's */
	const char *prompt;       /* quiz question and the answer typed so far */
	const char *prompt_title; /* the prompt's title (NULL: "quiz") */
	const char *status;       /* one-line message (errors, quiz score) */
	const char *const *sweep; /* lines of a sweep's progress or table; NULL: none */
	size_t n_sweep;
	size_t sweep_top;         /* first sweep line shown (scrolled; clamped when drawn) */
	const struct program *program; /* the scenario as C (tui/view-program.c); NULL: none */
	bool program_toggled;     /* c: the program pane's default for this width, flipped */
	const char *const (*keys)[2];  /* the footer's keys and what they do for this mode
	                                  (a traced program's); NULL: a lesson's */
	size_t n_keys;
	const char *help_text;    /* the help for this mode; NULL: a lesson's */
	size_t first;             /* steps no longer kept before results[0]: they are numbered on */
	/* A step as the line of C shown for it (a practice problem's listing names its buffers
	 * apart); NULL: describe_step, as every transcript shows it. */
	char *(*step_line)(const struct scn_step *st, char *buf, size_t len);
};

/* tui/view-frame.c: step st as the line of C fn writes (a frame's step_line; NULL:
 * describe_step, as every transcript shows it). */
char *view_step_line(char *(*fn)(const struct scn_step *, char *, size_t),
                     const struct scn_step *st, char *buf, size_t len);

/* What the layout put where. */
struct view_layout {
	bool too_small, wide;
	struct grid_rect pane[VIEW_PANE__COUNT];   /* boxes, borders included */
	struct view_cache_geom cache;
	int sweep_rows;            /* sweep lines that fit (0: no sweep shown) */
	size_t sweep_top;          /* the first sweep line shown */
};

/* From this many columns the program pane is on screen beside the others (c hides it). */
#define VIEW_PROGRAM_BESIDE 120

struct program;

/* tui/view-program.c: the scenario as one C program in r, step's lines lit (-1: none). */
void view_program_draw(struct grid *g, struct grid_rect r, const struct program *p, long step,
                       bool ascii);

/* tui/view-screen.c: compose the whole screen into g (its size is the terminal's). */
void view_screen_draw(struct grid *g, const struct view_frame *f, struct view_layout *lay);

/* tui/view-details.c: the details f asks for (its focused pane, or its clicked cache cell laid out
 * as geom says) into b, emptied first, whole however long; b's text, or NULL when there are
 * none to show. */
struct text_buf;
const char *view_details_text(const struct view_frame *f, const struct view_cache_geom *geom,
                              struct text_buf *b);

/* tui/view-crash.c: what a crash leaves at f's step (its crash view, or why there is
 * none) into buf; NULL when f does not ask for it. */
char *view_crash_text(const struct view_frame *f, char *buf, size_t len);

/* Draw the crash popup of f, if it asks for one. */
void view_crash_draw(struct grid *g, const struct view_frame *f);

/* Draw the details popup of f, if it asks for one. */
void view_details_draw(struct grid *g, const struct view_frame *f,
                       const struct view_cache_geom *geom);

/* tui/view-frame.c: title bar in row y. */
void view_frame_title(struct grid *g, int y, const struct view_frame *f);

/* Footer with the keys in row y. */
void view_frame_footer(struct grid *g, int y, const struct view_frame *f);

/* Narration (intro or the step's say, the engine's note, the op's error) in r; return the
 * lines it needs (more than r.h when cut). */
int view_frame_narration(struct grid *g, struct grid_rect r, const struct view_frame *f);

/* Rows the expectations of sr need, in full, in w columns. */
int view_frame_expect_rows(const struct step_result *sr, int w);

/* One expectation as a line into buf: "stdio.pending = 904", with "(got 0)" when it failed
 * or "(not observable here: why)"; shrt: only the key of one that held. */
void view_frame_expect_text(const struct expect_result *er, bool shrt, char *buf, size_t len);

/* True if the expectations of sr do not all show in full in h rows of w columns. */
bool view_frame_expect_cut(const struct step_result *sr, int w, int h);

/* The expectation line(s) of result sr in r. */
void view_frame_expect(struct grid *g, struct grid_rect r, const struct step_result *sr,
                      bool ascii);

/* The help overlay: the keys and the legend (page 0), or page N (from 1) of the glossary. */
void view_frame_help(struct grid *g, int page, bool ascii);

/* How many pages the glossary takes in the help on g. */
int view_frame_help_pages(const struct grid *g);

/* The help's next page on g after help (a view_frame's help: 1 the keys, N the glossary's
 * page N - 1); 0 past the last. */
int view_frame_help_turn(const struct grid *g, int help);

/* A centred box with lines of text (details, quiz); title may be NULL. */
void view_frame_popup(struct grid *g, const char *title, const char *text, bool ascii);
/* Whether view_frame_popup shows all of text, none of it cut, on a gw x gh screen. */
bool view_frame_popup_fits(int gw, int gh, const char *title, const char *text);

/* The "terminal too small" message. */
void view_frame_small(struct grid *g);

#endif
