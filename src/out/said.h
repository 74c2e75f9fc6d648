/* SPDX-License-Identifier: MIT */
/* out/said.h: a narration's sentences in each transcript format: the told text, each sentence
 * unchecked here marked with its reason, each one false here named as a failure. */
#ifndef IOBUFVIZ_SAID_H
#define IOBUFVIZ_SAID_H

#include <stddef.h>
#include <stdio.h>

#include "lesson/step.h"

/* Why a tmpfs file's dirty pages are null, not 0. */
#define SAID_NO_DISK "no disk below this file: nothing is ever waiting to be written back"

/* How a text transcript wraps a paragraph after an indent. */
typedef void said_wrap_fn(FILE *f, const char *indent, const char *text);

/* Text: the told sentences of V (N), after INDENT, wrapped by WRAP, each unchecked one marked
 * [?K] with "  ? [?K] not observable here: why" below; each false one as a failure line
 * "  FALSE here: "..." (why; PATH:LINE:COL)". */
void said_text(FILE *f, const char *indent, said_wrap_fn *wrap, const char *path,
	       const struct sentence_result *v, size_t n);

/* JSON: ,"sentences":[{"text","outcome","why","line","col"}...] for V (N). */
void said_json(FILE *f, const char *name, const struct sentence_result *v, size_t n);

/* TAP: s on one line, escaped, '#' too (it starts a directive). */
void said_tap_text(FILE *f, const char *s);

/* "path:line:col" as a JSON (YAML) string: where a failure is written. */
void said_at(FILE *f, const char *path, int line, int col);

/* TAP: a test point per sentence of V (N) that rests on a fact, for step STEP (1-based)
 * doing CALL, numbered from *points + 1: unchecked ones "# SKIP not observable here: why",
 * false ones "not ok" with why and where (PATH). */
void said_tap(FILE *f, size_t *points, size_t step, const char *call, const char *path,
	      const struct sentence_result *v, size_t n);

#endif
