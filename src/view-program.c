/* SPDX-License-Identifier: MIT */
/* view-program.c: the program pane: the scenario as one C program, the current step lit. */
#include <config.h>
