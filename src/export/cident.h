/* SPDX-License-Identifier: MIT */
/* export/cident.h: whole C identifiers in the C text that export/emit*.c write. */
#ifndef IOBUFVIZ_CIDENT_H
#define IOBUFVIZ_CIDENT_H

#include <stdbool.h>
#include <stddef.h>

/* True if text holds word as a whole C identifier (outside string and character literals and
 * comments). */
bool cident_has(const char *text, const char *word);

/* Replace every whole C identifier word outside literals and comments in buf (len bytes,
 * kept terminated) with with. */
void cident_replace(char *buf, size_t len, const char *word, const char *with);

#endif
