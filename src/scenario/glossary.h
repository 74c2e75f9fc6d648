/* SPDX-License-Identifier: MIT */
/* scenario/glossary.h: the words the panes, the log and the transcripts print, each with what
 * it means: one table for the TUI's help, the web page and the man page's GLOSSARY. */
#ifndef IOBUFVIZ_GLOSSARY_H
#define IOBUFVIZ_GLOSSARY_H

#include <stddef.h>

/* One word (or a few that name the same thing, "delalloc, no block yet") and its meaning. */
struct glossary_entry {
	const char *term;
	const char *meaning;
};

/* The i-th entry (from 0), or NULL past the last. */
const struct glossary_entry *glossary_at(size_t i);

/* The entry one of whose names (the term's comma-separated parts) is word, or NULL. */
const struct glossary_entry *glossary_find(const char *word);

#endif
