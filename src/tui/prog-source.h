/* SPDX-License-Identifier: MIT */
/* tui/prog-source.h: a traced program's own source file for the program pane, each step's
 * line marked (the line prog/srcloc.c found in its DWARF). */
#ifndef IOBUFVIZ_TUI_PROG_SOURCE_H
#define IOBUFVIZ_TUI_PROG_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "export/program.h"
#include "prog/run.h"

/* The file shown: its lines (read-only, at most PROG_SOURCE_MAX bytes), and for each kept
 * step the line it was made on (first == last: none). */
#define PROG_SOURCE_MAX (1024 * 1024)

struct prog_source {
	char path[PATH_MAX];      /* the file read ("": none yet) */
	bool failed;              /* path could not be read */
	char *text;               /* its bytes, lines cut at each newline */
	struct program p;         /* lines into text; first/last/runs per step */
	size_t cap;               /* first/last/runs' room */
};

/* The program pane for steps[0..n) with step cur shown: the file of cur's source (else the
 * one shown before), each step's line marked. NULL: no file to show (no -g, none yet, not
 * readable). */
const struct program *prog_source_update(struct prog_source *s,
                                         struct prog_run_step *const *steps, size_t n,
                                         long cur);

/* Free what s holds. */
void prog_source_free(struct prog_source *s);

#endif
