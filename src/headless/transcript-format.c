/* SPDX-License-Identifier: MIT */
/* headless/transcript-format.c: the transcript formats, --format's values, in one table (above
 * the formats, which call the writer back: the writer itself never links to the table). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "export/html.h"
#include "headless/app.h"
#include "out/transcript.h"

/* The formats, --format's values: adding one is its file and one line here. */
static const struct transcript_format *const transcript_formats[] = {
	&out_text_format,
	&out_json_format,
	&out_tap_format,
	&html_format,
	&out_gradescope_format,
};

#define TRANSCRIPT_N_FORMATS (sizeof transcript_formats / sizeof transcript_formats[0])

/* The i-th format. */
const struct transcript_format *
transcript_format_at(size_t i)
{
	return i < TRANSCRIPT_N_FORMATS ? transcript_formats[i] : NULL;
}

/* The format named name. */
const struct transcript_format *
transcript_format_find(const char *name)
{
	for (size_t i = 0; i < TRANSCRIPT_N_FORMATS; i++)
		if (strcmp(transcript_formats[i]->name, name) == 0)
			return transcript_formats[i];
	return NULL;
}

/* The formats' names, for a message. */
const char *
transcript_format_names(char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < TRANSCRIPT_N_FORMATS && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" :
		                       i + 1 == TRANSCRIPT_N_FORMATS ? " or " : ", ",
		                       transcript_formats[i]->name);
	return buf;
}

/* fmt, or the default format (text) when fmt is NULL. */
const struct transcript_format *
transcript_format_or_default(const struct transcript_format *fmt)
{
	return fmt != NULL ? fmt : transcript_formats[0];
}
