/* SPDX-License-Identifier: MIT */
/* export/program.h: a scenario as one C program (the program pane, --export=c): lines and step ranges. */
#ifndef IOBUFVIZ_PROGRAM_H
#define IOBUFVIZ_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario/scenario.h"

/* A scenario's whole program. */
struct program {
	char **lines;              /* without newlines; tabs for indentation */
	size_t n_lines;
	size_t *first, *last;      /* step i is lines [first[i], last[i]) */
	bool *runs;                /* step i runs another program (a run step): the opening
	                              comment names its command line, the pane marks its lines */
	size_t n_steps;
};

/* Make the program of s; NULL if out of memory. */
struct program *program_new(const struct scenario *s);

/* Free a program. NULL is fine. */
void program_free(struct program *p);

/* Print the program to f, a line each. 0, or -1 if writing failed. */
int program_print(const struct program *p, FILE *f);

#endif
