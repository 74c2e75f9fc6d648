/* SPDX-License-Identifier: MIT */
/* practice/practice-run.h: the --practice front end (headless text/JSON, or the TUI's quiz). */
#ifndef IOBUFVIZ_PRACTICE_RUN_H
#define IOBUFVIZ_PRACTICE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/app.h"
#include "practice/practice.h"

/* Print the topics, one a line: name, then what it practises. */
void practice_run_list(FILE *f);

/*
 * Generate topic t's problem for seed; headless: print it (and with answers, run it and print
 * what the machine did); else run it in the TUI with the quiz on. Return an app_exit.
 */
int practice_run(const struct practice_topic *t, uint64_t seed, bool answers, bool headless,
                 const struct app_opts *o);

#endif
