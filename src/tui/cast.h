/* SPDX-License-Identifier: MIT */
/* tui/cast.h: record what the TUI shows as an asciicast v2 file (--record). */
#ifndef IOBUFVIZ_CAST_H
#define IOBUFVIZ_CAST_H

#include <stdbool.h>

#include "tui/grid.h"

struct cast;

/* Create path (never overwriting: O_EXCL) and write the header for a w x h terminal (w or h
 * 0: the first frame's size, the header then written with it). NULL with errno on failure. */
struct cast *cast_open(const char *path, int w, int h, const char *title);

/* Record g as an output event if it differs from the last one recorded (a resize too). */
int cast_frame(struct cast *c, const struct grid *g, bool color);

/* Record a marker named label now (asciicast v2's "m" event: a player lists them, and jumps
 * to one), after the frames so far; none before the first frame (no header yet). NULL is
 * fine. 0 or -1 (a write failed). */
int cast_marker(struct cast *c, const char *label);

/* Finish and close. NULL is fine. 0 or -1 (a write failed). */
int cast_close(struct cast *c);

#endif
