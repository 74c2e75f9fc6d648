/* SPDX-License-Identifier: MIT */
/* export/sweep.h: a sweep's results exported (--export=csv|json|md|svg): CSV, JSON with every
 * run (table/json.c, also the transcript's), Markdown for a course page, an SVG plot for slides. */
#ifndef IOBUFVIZ_EXPORT_SWEEP_H
#define IOBUFVIZ_EXPORT_SWEEP_H

#include <stdio.h>

#include "sweep/sweep.h"

/* export/csv-json.c */

/* CSV: one line per variant and row, measured and extrapolated, then the references. */
int sweep_export_csv(FILE *f, const struct sweep_result *r);

/* --export: fmt "csv", "json", "md" (Markdown) or "svg" (a plot). Return 0, or -1 (EINVAL:
 * unknown fmt). */
int sweep_export(FILE *f, const struct sweep_result *r, const char *fmt);

/* export/md.c */

/*
 * Markdown, for a course page: a title line, the header as a list, and per variant a table
 * whose times are all in seconds for the same bytes (the books' figures scaled to file_size
 * when they moved another amount), without a column that has nothing in it. Every string from
 * the scenario is made safe and escaped (no HTML, no Markdown of its own). Return 0 or -1.
 */
int sweep_md_print(FILE *f, const struct sweep_result *r);

/* export/svg.c */

/*
 * The sweep as an SVG image, drawn as the books' figures would be: per variant, time against
 * BUF_SIZE on log-log axes, one series per measure (elapsed, user, system; marker shape and
 * dash pattern, not colour, tell them apart) for ours and, hollow and grey, for each
 * reference (scaled to file_size). Standalone SVG 1.1; every text escaped. Return 0 or -1.
 */
int sweep_plot_svg(FILE *f, const struct sweep_result *r);

#endif
