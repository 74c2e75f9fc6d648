/* SPDX-License-Identifier: MIT */
/* table/print.h: a sweep's results for people: its tables and chart in text, and the columns
 * they share with the Markdown export (export/md.c); and for programs, as JSON. */
#ifndef IOBUFVIZ_TABLE_PRINT_H
#define IOBUFVIZ_TABLE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/json.h"
#include "sweep/sweep.h"

/* Flags of sweep_print_text, sweep_print_compact and sweep_chart_lines. */
enum {
	SWEEP_PRINT_ASCII = 1u << 0,  /* no UTF-8 (µ, ×, …, block characters) */
	SWEEP_PRINT_NO_CHART = 1u << 1,
	SWEEP_PRINT_WIDE = 1u << 2,   /* sweep_print_text: the full table, not one that fits */
};

/* Display columns the default text of a sweep (sweep_print_text without WIDE) fits in. */
#define SWEEP_PRINT_COLUMNS 100

/* table/print.c */

/*
 * For people: by default the compact table and chart, no line wider than
 * SWEEP_PRINT_COLUMNS; with WIDE the full side-by-side table (mean, min … max, user, the
 * books' user and sys). The chart unless NO_CHART. Return 0 or -1.
 */
int sweep_print_text(FILE *f, const struct sweep_result *r, unsigned flags);

/*
 * A compact version for a pane width columns wide (the TUI's sweep pane, a narrow terminal):
 * one header line, per variant BUF | median | ± σ | sys (when width allows) | syscalls |
 * relative | first book column | scaling (times extrapolated, "×25 of 4 MB" when scaled),
 * then the chart unless NO_CHART. No line is wider than width display columns. Return 0 or -1.
 */
int sweep_print_compact(FILE *f, const struct sweep_result *r, int width, unsigned flags);

/* The header lines (the sweep, this machine, the references), each after lead; ours: the
 * text's "ours@SIZE" columns are explained. */
void sweep_print_header(FILE *f, const struct sweep_result *r, const char *lead, bool ours);

/* A variant's warnings and its cache state, one line each after lead. */
void sweep_print_warnings(FILE *f, const struct sweep_result *r, const struct sweep_variant *bv,
    const char *lead);

/* A variant's name line: name (made safe), filesystem, device, dir, flags, sync. Return buf. */
char *sweep_print_variant_name(const struct sweep_variant *bv, char *buf, size_t len);

/* True if some row ran on fewer bytes than file_size (and was extrapolated). */
bool sweep_print_scaled(const struct sweep_result *r);

/* The busy machine's warning (one paragraph, no newline), or "" if it was quiet. Return buf. */
char *sweep_print_busy(const struct sweep_result *r, char *buf, size_t len);

/* One line of progress for people ("row 3/14  BUF 4  run 2/5  1.23 ms", the time left when
 * there is some to wait: "left: row ~40 s, all ~12 min"). Return buf. */
char *sweep_print_progress(const struct sweep_progress *p, char *buf, size_t len);

/* table/json.c */

/* Everything as one JSON object, with every run's raw figures: the member key of j's open
 * object (NULL: a value of its array, or the document). */
void sweep_print_json(struct json *j, const char *key, const struct sweep_result *r);

/* Name of a cold-cache state ("verified", "warm"), as JSON and CSV write it. */
const char *sweep_cold_name(enum sweep_cold c);

/* table/cols.c: the columns of the tables, one function per cell; table/print.c lays them out. */

/* Where a cell is drawn from: a row of a variant (NULL for the header line), and how. */
struct sweep_print_at {
	const struct sweep_result *r;
	const struct sweep_row *row;       /* NULL: the header line */
	const struct scn_reference *ref;   /* the reference that reference columns show */
	bool ascii;                        /* no UTF-8 */
	bool wide;                         /* compact: the pane is wide enough for CPU time */
	bool short_scale;                  /* compact: "×25", not "×25 of 4 MB" */
	bool seconds;                      /* Markdown: every time a number of seconds (the unit
	                                      in the column's title) */
};

/* Flags of a column. */
enum {
	SWEEP_COL_RIGHT = 1u << 0,         /* right-aligned in text */
	SWEEP_COL_FIGURE = 1u << 1,        /* right-aligned in Markdown */
	SWEEP_COL_RUNS = 1u << 2,          /* empty for a row that did not run */
	SWEEP_COL_RULE = 1u << 3,          /* a rule ("│") before it in text */
};

/*
 * One column of a table: the header line and the rows both read it, so a width is
 * written once. A padded column is at least as wide as its title.
 */
struct sweep_print_col {
	const char *title;                 /* NULL: the cell function writes it (row NULL) */
	const char *ascii_title;           /* NULL: the title has no UTF-8 */
	int width;                         /* display columns at least; 0: never padded */
	int gap;                           /* spaces before it in text */
	unsigned flags;
	void (*cell)(const struct sweep_print_at *at, char *buf, size_t len);
	bool (*shown)(const struct sweep_print_at *at);   /* NULL: always */
};

/* True if some row of r that ran used a tick or more of system CPU (cols.c). */
bool sweep_cols_sys_told(const struct sweep_result *r);

/* The full table in text, the Markdown one, the per-reference columns of each, the compact one. */
extern const struct sweep_print_col sweep_cols_full[], sweep_cols_md[], sweep_cols_text_ref[],
	sweep_cols_md_ref[], sweep_cols_compact[];
extern const size_t sweep_cols_full_n, sweep_cols_md_n, sweep_cols_text_ref_n, sweep_cols_md_ref_n,
	sweep_cols_compact_n;

/* s (a scenario's string; NULL is "") as base/text.c makes one line safe, into buf. Return buf. */
char *sweep_cols_safe(const char *s, char *buf, size_t len);

/* A duration in three significant figures, in the units every sweep output uses. Return buf. */
char *sweep_cols_time(double s, bool ascii, char *buf, size_t len);

/* A duration in seconds, three significant figures, without the unit ("0.000450"). Return buf. */
char *sweep_cols_seconds(double s, char *buf, size_t len);

/* table/print.c: the text of column c for at: its title (at->row NULL) or its cell ("" for a
 * row that did not run, in a column of runs). */
void sweep_print_col_text(const struct sweep_print_col *c, const struct sweep_print_at *at,
    char *buf, size_t len);

/* The reference's label, made safe; "book" if it has none. Return buf. */
const char *sweep_cols_label(const struct scn_reference *ref, char *buf, size_t len);

/* True if the reference moved another amount than file_size (so ours is shown at its size). */
bool sweep_cols_resized(const struct sweep_result *r, const struct scn_reference *ref);

/* What a reference's figures are multiplied by to compare with ours on file_size. */
double sweep_cols_ref_scale(const struct sweep_result *r, const struct scn_reference *ref);

/* table/chart.c */

/*
 * The log-scale bar chart as text lines of at most width display columns (for the TUI
 * to draw, or for print). One line per row and variant, plus one per reference figure,
 * plus a scale line. Returns a heap array of *n heap strings (UTF-8 unless ASCII); NULL
 * if out of memory. Free with sweep_chart_free.
 */
char **sweep_chart_lines(const struct sweep_result *r, int width, unsigned flags, size_t *n);

/* Free lines from sweep_chart_lines (NULL is fine). */
void sweep_chart_free(char **lines, size_t n);

#endif
