/* SPDX-License-Identifier: MIT */
/* out/said.c: a narration's sentences in each transcript format (lesson/narrate.c decides
 * each one; this file only writes them): one function per format. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"
#include "lesson/narrate.h"
#include "out/said.h"

/* The name of each outcome, in JSON and TAP. */
static const char *const said_outcomes[] = {
	[SENTENCE_HELD] = "held", [SENTENCE_UNCHECKED] = "unchecked", [SENTENCE_FALSE] = "false",
};

/* A copy of sentence text T on one line, without its trailing space (heap; NULL: no memory). */
static char *
said_line(const char *t)
{
	char *c = strdup(t);
	size_t n = c != NULL ? strlen(c) : 0;

	while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\n'))
		c[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		c[i] = c[i] == '\n' ? ' ' : c[i];
	return c;
}

/* Text. */
void
said_text(FILE *f, const char *indent, said_wrap_fn *wrap, const char *path,
	  const struct sentence_result *v, size_t n)
{
	char *marked = narrate_marked(v, n);
	unsigned k = 0;

	if (marked != NULL && marked[0] != '\0')
		wrap(f, indent, marked);
	free(marked);
	for (size_t i = 0; i < n; i++) {
		if (v[i].outcome == SENTENCE_UNCHECKED) {
			fprintf(f, "  ? [?%u] not observable here: ", ++k);
			text_fput(v[i].why, TEXT_LINE, f);
			fputc('\n', f);
		} else if (v[i].outcome == SENTENCE_FALSE) {
			char *t = said_line(v[i].text);
			fputs("  FALSE here: \"", f);
			text_fput(t != NULL ? t : v[i].text, TEXT_LINE, f);
			fputs("\" (", f);
			text_fput(v[i].why, TEXT_LINE, f);
			fputs("; ", f);
			text_fput(path, TEXT_LINE, f);
			fprintf(f, ":%d:%d)\n", v[i].line, v[i].col);
			free(t);
		}
	}
}

/* JSON. */
void
said_json(FILE *f, const char *name, const struct sentence_result *v, size_t n)
{
	fprintf(f, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		char *t = said_line(v[i].text);
		fputs(i ? ",{\"text\":" : "{\"text\":", f);
		json_string(f, t != NULL ? t : v[i].text);
		fprintf(f, ",\"outcome\":\"%s\",\"why\":", said_outcomes[v[i].outcome]);
		json_string(f, v[i].outcome == SENTENCE_HELD ? NULL : v[i].why);
		fprintf(f, ",\"line\":%d,\"col\":%d}", v[i].line, v[i].col);
		free(t);
	}
	fputc(']', f);
}

/* Write s on one TAP line: escaped as one record (base/text.c), '#' too (it starts a directive). */
void
said_tap_text(FILE *f, const char *s)
{
	char *safe = text_safe_dup(s, TEXT_LINE);

	for (const char *p = safe; p != NULL && *p != '\0'; p++) {
		if (*p == '#')
			fputs("\\#", f);
		else
			putc(*p, f);
	}
	free(safe);
}

/* "path:line:col" as a JSON (YAML) string. */
void
said_at(FILE *f, const char *path, int line, int col)
{
	char *at = NULL;

	if (asprintf(&at, "%s:%d:%d", path, line, col) < 0)
		at = NULL;
	json_string(f, at != NULL ? at : path);
	free(at);
}

/* TAP. */
void
said_tap(FILE *f, size_t *points, size_t step, const char *call, const char *path,
	 const struct sentence_result *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *t;
		if (!v[i].rests)
			continue;
		t = said_line(v[i].text);
		fprintf(f, "%sok %zu - step %zu ", v[i].outcome == SENTENCE_FALSE ? "not " : "",
			++*points, step);
		said_tap_text(f, call);
		fputs(": says \"", f);
		said_tap_text(f, t != NULL ? t : v[i].text);
		fputc('"', f);
		if (v[i].outcome == SENTENCE_UNCHECKED) {
			fputs(" # SKIP not observable here: ", f);
			said_tap_text(f, v[i].why);
		}
		fputc('\n', f);
		if (v[i].outcome == SENTENCE_FALSE) {
			fputs("  ---\n  false here: ", f);
			json_string(f, v[i].why);
			fputs("\n  at: ", f);
			said_at(f, path, v[i].line, v[i].col);
			fputs("\n  ...\n", f);
		}
		free(t);
	}
}
