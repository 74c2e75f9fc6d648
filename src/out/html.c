/* SPDX-License-Identifier: MIT */
/* out/html.c: the run as one web page (--export=html): the JSON transcript and the page's own
 * data (the lesson as C, the glossary) in data blocks, drawn by one inline script with DOM
 * calls only; a Content-Security-Policy allows that script and style alone, by their hashes. */
#include <config.h>

#include <stdio.h>

#include "base/sha256.h"
#include "export/program.h"
#include "out/page-tpl.h"
#include "out/transcript.h"
#include "scenario/glossary.h"
#include "scenario/names.h"
#include "probe/names.h"

/*
 * Nothing but the constant text below and the two JSON texts reaches the page: every byte of
 * the run is in JSON written with JSON_HTML (no <, > or & in it, so no "</script>"), and the
 * script shows it with textContent. The policy: nothing loads (default-src 'none'), the one
 * script and the one style run by their hashes, and innerHTML and the like throw
 * (require-trusted-types-for): a mistake in the script cannot turn data into markup.
 */
static const char out_html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'sha256-%s'; style-src 'sha256-%s'; base-uri 'none'; form-action 'none'; "
	"require-trusted-types-for 'script'; trusted-types 'none'\">\n"
	"<meta name=\"referrer\" content=\"no-referrer\">\n"
	"<meta name=\"generator\" content=\"iobufviz " PACKAGE_VERSION "\">\n"
	"<title>iobufviz</title>\n<style>%s</style>\n</head>\n<body>\n%s"
	"<script type=\"application/json\" id=\"transcript\">\n";

/* The head, the page's markup, and the transcript's data block opened. */
static void
out_html_begin(struct transcript *t)
{
	char js[45], css[45];

	sha256_base64(page_tpl_page_js, sizeof page_tpl_page_js - 1, js);
	sha256_base64(page_tpl_page_css, sizeof page_tpl_page_css - 1, css);
	fprintf(t->f, out_html_head, js, css, page_tpl_page_css, page_tpl_page_html);
	json_init(&t->j, t->f, JSON_HTML);
	out_json_format.begin(t);
}

/* One step, as the JSON transcript writes it. */
static void
out_html_step(struct transcript *t, const struct transcript_step *st)
{
	out_json_format.step(t, st);
}

/* The page's own data: the lesson as C with each step's lines, the call tags' words, the
 * glossary. */
static void
out_html_page(struct json *j, const struct transcript *t)
{
	struct program *p = t->scn != NULL ? program_new(t->scn) : NULL;
	const struct glossary_entry *g;

	json_begin_object(j, NULL);
	if (p != NULL) {
		json_begin_object(j, "program");
		json_begin_array(j, "lines");
		for (size_t i = 0; i < p->n_lines; i++)
			json_string(j, NULL, p->lines[i]);
		json_end_array(j);
		json_begin_array(j, "steps");
		for (size_t i = 0; i < p->n_steps; i++) {
			json_begin_array(j, NULL);
			json_uint(j, NULL, p->first[i]);
			json_uint(j, NULL, p->last[i]);
			json_end_array(j);
		}
		json_end_array(j);
		json_end_object(j);
	} else {
		json_null(j, "program");
	}
	/* Who made a call, as the screen and the text transcript say it. */
	json_begin_object(j, "origins");
	for (const struct scn_name *o = scn_origin_words; o->name != NULL; o++)
		json_string(j, scenario_names_of(scn_origins, o->value), o->name);
	json_end_object(j);
	json_begin_array(j, "glossary");
	for (size_t i = 0; (g = glossary_at(i)) != NULL; i++) {
		json_begin_object(j, NULL);
		json_string(j, "term", g->term);
		json_string(j, "meaning", g->meaning);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	program_free(p);
}

/* The transcript's end, the page's data, the script. */
static void
out_html_end(struct transcript *t)
{
	bool failed;

	out_json_format.end(t);
	failed = json_finish(&t->j) != 0;
	fputs("</script>\n<script type=\"application/json\" id=\"page\">\n", t->f);
	json_init(&t->j, t->f, JSON_HTML);
	out_html_page(&t->j, t);
	fprintf(t->f, "\n</script>\n<script>%s</script>\n</body>\n</html>\n", page_tpl_page_js);
	/* transcript_end asks this writer: it answers for both. */
	t->j.failed |= failed;
}

const struct transcript_format out_html_format = {
	.name = "html",
	.begin = out_html_begin,
	.step = out_html_step,
	.end = out_html_end,
};
