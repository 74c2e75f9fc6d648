/* SPDX-License-Identifier: MIT */
/* tui/crt.h: the terminal (curses) behind the TUI: init, restore, draw a grid, read keys. */
#ifndef IOBUFVIZ_CRT_H
#define IOBUFVIZ_CRT_H

#include <stdbool.h>

#include "tui/grid.h"

/* Keys other than plain characters. */
enum crt_key {
	CRT_K_RIGHT = 0x110000, CRT_K_LEFT, CRT_K_UP, CRT_K_DOWN, CRT_K_F1, CRT_K_F10,
	CRT_K_ENTER, CRT_K_BACKSPACE, CRT_K_ESC, CRT_K_BTAB, CRT_K_PGUP, CRT_K_PGDN, CRT_K_HOME,
	CRT_K_END,
};

/* What crt_read() saw. */
enum crt_ev { CRT_EV_TIMEOUT, CRT_EV_KEY, CRT_EV_MOUSE, CRT_EV_RESIZE };

struct crt_event {
	enum crt_ev kind;
	int key;          /* a character or a crt_key (CRT_EV_KEY) */
	int x, y;         /* where the click was (CRT_EV_MOUSE) */
};

/* Take the terminal: curses mode, colours if color, mouse clicks if mouse. 0 or -1. */
int crt_init(bool color, bool mouse);

/* Can $TERM draw the screen (set, not dumb, in terminfo, with cursor motion)? 0, or -1 with
 * the reason in why. Call it before crt_init. */
int crt_check(char *why, size_t len);

/* Give the terminal back (endwin). Safe to call twice and from a signal handler. */
void crt_done(void);

/* Current terminal size. */
void crt_size(int *w, int *h);

/* Show g (its size is the terminal's) and flush to the terminal. */
void crt_blit(const struct grid *g);

/* Forget what the terminal shows, so the next crt_blit() repaints everything (Ctrl-L). */
void crt_redraw(void);

/* Wait up to timeout_ms (-1: forever) for input; fill ev. */
void crt_read(int timeout_ms, struct crt_event *ev);

#endif
