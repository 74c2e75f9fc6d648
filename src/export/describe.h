/* SPDX-License-Identifier: MIT */
/* export/describe.h: a step as the line of C a student would write. */
#ifndef IOBUFVIZ_DESCRIBE_H
#define IOBUFVIZ_DESCRIBE_H

#include <stddef.h>

#include "scenario/scenario.h"

/* Write the step's call as C ("fwrite(buf, 1, 5000, fp)") into buf (cut to fit). Return buf.
 * Its texts are as written: whatever shows it escapes it (base/text.c, base/json.c). */
char *describe_step(const struct scn_step *st, char *buf, size_t len);

#endif
