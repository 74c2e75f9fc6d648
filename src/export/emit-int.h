/* SPDX-License-Identifier: MIT */
/* export/emit-int.h: what the files of export/emit*.c share: the ways a call becomes a statement. */
#ifndef IOBUFVIZ_EMIT_INT_H
#define IOBUFVIZ_EMIT_INT_H

#include <stddef.h>

#include "export/emit.h"
#include "scenario/scenario.h"

/* Columns a line of a step's code may take before its arguments go on on the next line (the
 * program indents it one tab more: 108). */
#define EMIT_LINE_MAX 100

/* The statement is the call, with before and after around it. */
void emit_around(struct emit *e, const char *before, const char *after);

/* The statement reports the call's failure (-1 and errno) with check(): check("name", call);. */
void emit_checked(struct emit *e, const char *name);

/* Append the text s to the call as a student reads it: quoted, its first 40 bytes, "…" if
 * there are more (shown as written: whatever shows the line escapes it). */
void emit_call_text(struct ctext *t, const char *s);

/* The file a step names (file:): "NAME" in the line and sibling(path, "NAME") in the
 * program; path in both when it names none. */
void emit_file(struct ctext *line, struct ctext *code, const char *name);

/* The buffer argument: name, or name + skew for a misaligned O_DIRECT buffer. */
const char *emit_buf(const struct scn_args *a, const char *name, char *buf, size_t len);

#endif
