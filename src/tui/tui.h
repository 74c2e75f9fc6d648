/* SPDX-License-Identifier: MIT */
/* tui/tui.h: the terminal front end's two ways in, for main(). */
#ifndef IOBUFVIZ_TUI_H
#define IOBUFVIZ_TUI_H

struct app_opts;
struct prog_run_opts;
struct scenario;

/* tui/tui.c: run s in the terminal; return an app_exit. */
int tui_run(const struct scenario *s, const struct app_opts *o);

/* tui/prog-tui.c: trace program argv in the terminal, step by step; return an app_exit. */
int prog_tui_run(char *const argv[], const struct app_opts *o, const struct prog_run_opts *ro);

#endif
