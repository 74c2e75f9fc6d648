/* SPDX-License-Identifier: MIT */
/* tui/crt.c: the one file that includes <curses.h>; every way out restores the terminal. */
#include <config.h>

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <wchar.h>

#include "tui/crt.h"
#include "base/signals.h"

/*
 * Global state, because a signal handler and atexit() must restore the terminal: whether
 * curses is active, in which process (a forked child that exit()s must not reset the
 * terminal its parent is drawing on), and whether colours are on.
 */
static volatile sig_atomic_t crt_active;
static pid_t crt_pid;
static bool crt_color;

/* Give the terminal back. */
void
crt_done(void)
{
	if (!crt_active || getpid() != crt_pid)
		return;
	crt_active = 0;
	/* endwin() is not async-signal-safe, but a terminal left in raw mode is worse
	 * (htop makes the same trade in its signal handler). */
	endwin();
}

/* Can the terminal named by $TERM draw the screen? 0, or -1 with why said in why. */
int
crt_check(char *why, size_t len)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0;

	if (term == NULL || *term == '\0') {
		snprintf(why, len, "TERM is not set: no terminal to draw on");
		return -1;
	}
	if (strcmp(term, "dumb") == 0) {
		snprintf(why, len, "TERM=dumb cannot move the cursor: the screen cannot be drawn");
		return -1;
	}
	/* setupterm writes nothing when given an error pointer; it only reads terminfo. */
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, len, "TERM=%.64s: %s", term, err == 0 ?
		         "no terminfo entry for this terminal" : "terminfo database not found");
		return -1;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup == NULL || cup == (char *)-1) {
		snprintf(why, len, "TERM=%.64s cannot move the cursor: the screen cannot be drawn",
		         term);
		return -1;
	}
	return 0;
}

/* Take the terminal. */
int
crt_init(bool color, bool mouse)
{
	/* newterm, not initscr: initscr prints "Error opening terminal" and exits by itself. */
	if (newterm(NULL, stdout, stdin) == NULL)
		return -1;
	crt_pid = getpid();
	crt_active = 1;
	atexit(crt_done);
	signals_on_fatal_terminal(crt_done);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	crt_color = color && has_colors();
	if (crt_color) {
		start_color();
		use_default_colors();
		for (int i = 0; i < GS__COUNT; i++)
			init_pair((short)(i + 1), (short)grid_styles[i].fg, -1);
	}
	if (mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
		mouseinterval(0);
	}
	return 0;
}

/* Terminal size. */
void
crt_size(int *w, int *h)
{
	getmaxyx(stdscr, *h, *w);
}

/* Draw the grid and refresh. */
void
crt_blit(const struct grid *g)
{
	int W, H;

	getmaxyx(stdscr, H, W);
	for (int y = 0; y < g->h && y < H; y++)
		for (int x = 0; x < g->w && x < W; x++) {
			const struct grid_cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			const struct grid_style_def *d = &grid_styles[c->style < GS__COUNT ? c->style : 0];
			attr_t a = A_NORMAL;
			wchar_t wc[3] = { (wchar_t)c->ch, (wchar_t)c->comb, L'\0' };
			cchar_t cc;

			/* A wide character's second cell: drawn by its first (two columns). */
			if (c->ch == GRID_WIDE_TAIL)
				continue;
			/* One whose second cell is past the terminal's edge would wrap: a blank. */
			if (x + 1 >= W && wcwidth(wc[0]) == 2)
				wc[0] = L' ', wc[1] = L'\0';

			if (d->bold || (c->attr & GRID_A_BOLD))
				a |= A_BOLD;
			if (d->dim)
				a |= A_DIM;
			if (d->reverse || (c->attr & GRID_A_REVERSE))
				a |= A_REVERSE;
			if (c->attr & GRID_A_UNDERLINE)
				a |= A_UNDERLINE;
			setcchar(&cc, wc, a, crt_color && d->fg >= 0 ? (short)(c->style + 1) : 0, NULL);
			/* The bottom-right cell makes curses report an error (it would scroll);
			 * the cell is drawn all the same. */
			mvadd_wch(y, x, &cc);
		}
	refresh();
}

/* Repaint everything on the next blit. */
void
crt_redraw(void)
{
	clearok(curscr, TRUE);
}

/* Read one input. */
void
crt_read(int timeout_ms, struct crt_event *ev)
{
	wint_t ch;
	int rc;

	ev->kind = CRT_EV_TIMEOUT;
	ev->key = 0;
	timeout(timeout_ms);
	rc = get_wch(&ch);
	if (rc == ERR)
		return;
	ev->kind = CRT_EV_KEY;
	if (rc == KEY_CODE_YES) {
		switch (ch) {
		case KEY_RESIZE: ev->kind = CRT_EV_RESIZE; return;
		case KEY_RIGHT: ev->key = CRT_K_RIGHT; return;
		case KEY_LEFT: ev->key = CRT_K_LEFT; return;
		case KEY_UP: ev->key = CRT_K_UP; return;
		case KEY_DOWN: ev->key = CRT_K_DOWN; return;
		case KEY_F(1): ev->key = CRT_K_F1; return;
		case KEY_F(10): ev->key = CRT_K_F10; return;
		case KEY_ENTER: ev->key = CRT_K_ENTER; return;
		case KEY_BACKSPACE: ev->key = CRT_K_BACKSPACE; return;
		case KEY_BTAB: ev->key = CRT_K_BTAB; return;
		case KEY_PPAGE: ev->key = CRT_K_PGUP; return;
		case KEY_NPAGE: ev->key = CRT_K_PGDN; return;
		case KEY_HOME: ev->key = CRT_K_HOME; return;
		case KEY_END: ev->key = CRT_K_END; return;
		case KEY_MOUSE: {
			MEVENT me;
			if (getmouse(&me) == OK && (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))) {
				ev->kind = CRT_EV_MOUSE;
				ev->x = me.x;
				ev->y = me.y;
				return;
			}
			ev->kind = CRT_EV_TIMEOUT;
			return;
		}
		default:
			ev->kind = CRT_EV_TIMEOUT;
			return;
		}
	}
	switch (ch) {
	case '\r': case '\n': ev->key = CRT_K_ENTER; return;
	case 0x7f: case 0x08: ev->key = CRT_K_BACKSPACE; return;
	case 0x1b: ev->key = CRT_K_ESC; return;
	default: ev->key = (int)ch; return;
	}
}
