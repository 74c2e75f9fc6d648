/* SPDX-License-Identifier: MIT */
/* practice/practice-run.h: --practice without a terminal: the problem as text or JSON, answered. */
#ifndef IOBUFVIZ_PRACTICE_RUN_H
#define IOBUFVIZ_PRACTICE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "headless/app.h"
#include "practice/practice.h"

/* Print the topics, one a line: name, then what it practises. */
void practice_run_list(FILE *f);

/*
 * Print problem p (its scenario loaded as s) as text or JSON (o->format); with answers, run it
 * first and print what the machine did beside each question. Return an app_exit.
 */
int practice_run_headless(const struct practice_problem *p, const struct scenario *s, bool answers,
                          const struct app_opts *o);

#endif
