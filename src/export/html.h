/* SPDX-License-Identifier: MIT */
/* export/html.h: the run as one web page (--export=html): a transcript format (out/transcript.h)
 * that embeds the JSON one, in the table of formats (headless/transcript-format.c). */
#ifndef IOBUFVIZ_EXPORT_HTML_H
#define IOBUFVIZ_EXPORT_HTML_H

#include "out/transcript.h"

extern const struct transcript_format html_format;

#endif
