/* SPDX-License-Identifier: MIT */
/* export/html.c: the run as one web page (--export=html): every step written as HTML (readable
 * and printable with JavaScript off), the JSON transcript and the page's own data (the lesson
 * as C, the glossary, the marks and questions) in data blocks, and one inline script that adds
 * stepping with DOM calls only; a Content-Security-Policy allows that script and style alone,
 * by their hashes (made when iobufviz is built: mk/export.am). */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/units.h"
#include "crash/crash.h"
#include "export/program.h"
#include "lesson/expect.h"
#include "lesson/narrate.h"
#include "export/html.h"
#include "export/page-tpl.h"
#include "out/transcript.h"
#include "scenario/glossary.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "table/print.h"

/*
 * Nothing but the constant text below, the run's text escaped as HTML text (base/text.c's
 * controls shown as \uXXXX, then & < > " as entities) and the two JSON texts reaches the page:
 * every byte of the run in JSON is written with JSON_HTML (no <, > or & in it, so no
 * "</script>"), and the script shows it with textContent. The policy: nothing loads
 * (default-src 'none'), the one script and the one style run by their hashes, and innerHTML
 * and the like throw (require-trusted-types-for): a mistake in the script cannot turn data
 * into markup.
 */
static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'sha256-%s'; style-src 'sha256-%s'; base-uri 'none'; form-action 'none'; "
	"require-trusted-types-for 'script'; trusted-types 'none'\">\n"
	"<meta name=\"referrer\" content=\"no-referrer\">\n"
	"<meta name=\"generator\" content=\"iobufviz " PACKAGE_VERSION "\">\n"
	"<title>";

/* Where page.html takes the written head (title, source, the lesson's question and intro)
 * and the written steps. */
#define OUT_HTML_AT_HEAD "<!--head-->"
#define OUT_HTML_AT_STEPS "<!--steps-->"

/* What the page keeps while the steps are written: the steps as HTML and each step's marks
 * and question as JSON, both written into the page at the end. */
struct html {
	FILE *steps;                   /* the steps as HTML (a memory stream) */
	char *steps_buf;
	size_t steps_len;
	struct json dj;                /* an array of [marks, legend, question] per step (a
	                                * buffer writer) */
	bool failed;
};

/* s as HTML text: its controls shown as base/text.c shows them (m: TEXT_BLOCK keeps newlines
 * and tabs), then & < > " ' as entities. */
static void
html_text(FILE *f, const char *s, enum text_mode m)
{
	char *safe = text_safe_dup(s != NULL ? s : "", m);

	if (safe == NULL)
		return;
	for (const char *p = safe; *p != '\0'; p++)
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: putc(*p, f);
		}
	free(safe);
}

/* pre, s as HTML text, post (a backslash stays one, as page.js shows it: a line break in
 * HTML text is a space). */
static void
html_line(FILE *f, const char *pre, const char *s, const char *post)
{
	fputs(pre, f);
	html_text(f, s, TEXT_BLOCK);
	fputs(post, f);
}

/* Narration as HTML: the lines of a paragraph flow together in a <p class=cls>; a line that
 * starts with a space (code) is a <pre> of its own; a blank line ends a paragraph (as
 * out/text.c's out_text_wrap and page.js's prose). */
static void
html_prose(FILE *f, const char *text, const char *cls)
{
	const char *p = text;
	bool para = false;

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, "\n");
		bool verbatim = p[0] == ' ' || p[0] == '\t';
		char *line = strndup(p, len);

		if (line == NULL)
			return;
		if ((verbatim || len == 0) && para) {
			fputs("</p>\n", f);
			para = false;
		}
		if (verbatim) {
			html_line(f, "<pre class=\"data\">", line, "</pre>\n");
		} else if (len > 0) {
			fputs(para ? " " : cls != NULL ? "<p class=\"data " : "<p class=\"data\">", f);
			if (!para && cls != NULL)
				fprintf(f, "%s\">", cls);
			html_text(f, line, TEXT_BLOCK);
			para = true;
		}
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
	if (para)
		fputs("</p>\n", f);
}

/* Sentences V (N): the told text with each unchecked one marked [?K], the reason of each
 * below it, and each false one (not told) quoted with what was seen instead. */
static void
html_said(FILE *f, const struct sentence_result *v, size_t n)
{
	char *marked = narrate_marked(v, n);
	unsigned k = 0;

	if (marked != NULL)
		html_prose(f, marked, "said");
	free(marked);
	for (size_t i = 0; i < n; i++) {
		char tag[64];
		if (v[i].outcome == SENTENCE_HELD)
			continue;
		if (v[i].outcome == SENTENCE_UNCHECKED) {
			snprintf(tag, sizeof tag, "<p class=\"why small unchecked\">[?%u] not observable "
			         "here: ", ++k);
			html_line(f, tag, text_str(&v[i].why), "</p>\n");
		} else {
			html_line(f, "<p class=\"why small false\">false here: \u201c", v[i].text,
			              "\u201d (");
			html_text(f, text_str(&v[i].why), TEXT_LINE);
			fputs(")</p>\n", f);
		}
	}
}

/* The class page.js gives cache cell c of s. */
static const char *
html_cell_kind(const struct snap_cache *s, const struct snap_cell *c)
{
	if (s->has_dirty && c->writeback > 0)
		return "writeback";
	if (s->has_dirty && c->dirty > 0)
		return "dirty";
	if (c->cached > 0)
		return s->has_dirty ? "clean" : "resident";
	return "absent";
}

/* Where the pages of cache cell i of sr came from, as one letter: a(sked), r(ead ahead),
 * b(efore, or an earlier step's WILLNEED seen now), '.' none or not told (as the TUI marks
 * them: asked first, then read ahead, else dim). */
static char
html_cell_from(const struct step_result *sr, size_t i)
{
	uint64_t v[SNAPSHOT_FROM__COUNT];

	if (!sr->origins.valid || i >= sr->before.cache.n_cells ||
	    sr->before.cache.pages_per_cell != sr->after.cache.pages_per_cell)
		return '.';
	snapshot_origins_cell(&sr->before.cache, &sr->after.cache, &sr->origins, i, v, NULL);
	if (v[SNAPSHOT_FROM_ASKED] > 0)
		return 'a';
	if (v[SNAPSHOT_FROM_AHEAD] > 0)
		return 'r';
	if (v[SNAPSHOT_FROM_BEFORE] + v[SNAPSHOT_FROM_EARLIER] > 0)
		return 'b';
	return '.';
}

/* The marks' legend of o, with their counts, as the TUI words it (tui/view-cache.c): each
 * entry's mark letter and words into marks[] and words[]; return the entries. */
static size_t
html_origins_legend(const struct snapshot_origins *o, char marks[4], char (*words)[96])
{
	const uint64_t *pg = o->pages;
	size_t n = 0;

	marks[n] = 'a';
	if (pg[SNAPSHOT_FROM_ASKED] == 0 && o->asked_cached > 0)
		snprintf(words[n++], sizeof words[0], "asked for: cached already (%" PRIu64 ")",
		         o->asked_cached);
	else
		snprintf(words[n++], sizeof words[0], "%" PRIu64 " asked for", pg[SNAPSHOT_FROM_ASKED]);
	marks[n] = 'r';
	snprintf(words[n++], sizeof words[0], "%" PRIu64 " read ahead", pg[SNAPSHOT_FROM_AHEAD]);
	if (pg[SNAPSHOT_FROM_EARLIER] > 0) {
		marks[n] = 'b';
		snprintf(words[n++], sizeof words[0], "%" PRIu64 " asked at step %zu, seen now",
		         pg[SNAPSHOT_FROM_EARLIER], o->earlier_step);
	}
	marks[n] = 'b';
	if (o->n_by > 0 && o->by[0] > 0 && pg[SNAPSHOT_FROM_BEFORE] > 0)
		snprintf(words[n++], sizeof words[0], "%" PRIu64 " cached before (step %zu%s%s)",
		         pg[SNAPSHOT_FROM_BEFORE], o->by[0], o->by_willneed[0] ? ": WILLNEED" : "",
		         o->n_by > 1 ? ", ..." : "");
	else
		snprintf(words[n++], sizeof words[0], "%" PRIu64 " cached before",
		         pg[SNAPSHOT_FROM_BEFORE]);
	return n;
}

/* The classes of an origin's mark letter. */
static const char *
html_from_class(char c)
{
	return c == 'a' ? " o-asked" : c == 'r' ? " o-ahead" : c == 'b' ? " o-before" : "";
}

/* The page cache of sr as cells: each of its state, marked where it changed in the step and
 * by where its pages came from (13.5), with the marks' legend. */
static void
html_cells(FILE *f, const struct step_result *sr)
{
	const struct snap_cache *c = &sr->after.cache, *b = &sr->before.cache;
	bool same = b->source != SNAP_SRC_NONE && b->pages_per_cell == c->pages_per_cell;

	fprintf(f, "<div class=\"cells%s\">", c->n_cells > 96 ? " many" : "");
	for (size_t i = 0; i < c->n_cells; i++) {
		const char *k = html_cell_kind(c, &c->cells[i]);
		bool chg = same && i < b->n_cells && strcmp(k, html_cell_kind(b, &b->cells[i])) != 0;
		fprintf(f, "<span class=\"cell %s%s%s\" data-kind=\"%s\" title=\"cell %zu: %s\"></span>",
		        k, chg ? " chg" : "", html_from_class(html_cell_from(sr, i)), k, i, k);
	}
	fputs("</div>\n", f);
	if (sr->origins.valid) {
		char marks[4], words[4][96];
		size_t n = html_origins_legend(&sr->origins, marks, words);
		fputs("<ul class=\"legend origins\">", f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "<li><span class=\"cell %s%s\"></span><span>%s</span></li>",
			        c->has_dirty ? "clean" : "resident", html_from_class(marks[i]),
			        words[i]);
		fputs("</ul>\n", f);
	}
}

/* The stdio, cache and disk panes of a step's state. */
static void
html_state(FILE *f, const struct step_result *sr)
{
	const struct snapshot *s = &sr->after;
	char a[32], b[32], q[300];

	fputs("<div class=\"pane\"><h4>stdio buffer (user space)</h4>", f);
	if (!s->stdio.open)
		fputs("<p class=\"dim\">no FILE* open</p>", f);
	else if (s->stdio.size == 0)
		fprintf(f, "<p>FILE* on fd %d, %s; buffer not allocated yet (glibc allocates it at "
		        "the first I/O)</p>", s->stdio.fd, scenario_bufmode_name(s->stdio.mode));
	else {
		fprintf(f, "<p>FILE* on fd %d, %s</p><p class=\"line\">size %" PRIu64 " B, pending "
		        "<b>%" PRIu64 " B</b>", s->stdio.fd, scenario_bufmode_name(s->stdio.mode),
		        s->stdio.size, s->stdio.pending);
		if (sr->before.stdio.open && sr->before.stdio.pending != s->stdio.pending)
			fprintf(f, " <span class=\"was\">%" PRIu64 "</span>", sr->before.stdio.pending);
		if (s->stdio.read_avail > 0)
			fprintf(f, ", read ahead %" PRIu64 " B", s->stdio.read_avail);
		fputs("</p>", f);
		if (s->stdio.head_len > 0)
			html_line(f, "<p class=\"small\">data <code class=\"data\">",
			              text_quote(s->stdio.head, s->stdio.head_len, q, sizeof q),
			              "</code></p>");
	}
	fputs("</div>\n<div class=\"pane\">", f);
	/* A lesson of more than one file: the file the cache and disk show, named. */
	if (s->file_name[0] != '\0')
		html_line(f, "<h4>page cache (kernel): ", s->file_name, "</h4>");
	else
		fputs("<h4>page cache (kernel)</h4>", f);
	if (s->cache.source == SNAP_SRC_NONE)
		html_line(f, "<p class=\"dim\">not observable: ", s->cache.note, "</p>");
	else {
		fprintf(f, "<p class=\"line\">file %s; cached <b>%" PRIu64 "</b>",
		        units_format_size(s->cache.file_size, a, sizeof a), s->cache.cached);
		if (s->cache.has_dirty && !snapshot_in_memory(s))
			fprintf(f, ", dirty <b>%" PRIu64 "</b>, writeback <b>%" PRIu64 "</b>",
			        s->cache.dirty, s->cache.writeback);
		fprintf(f, " <span class=\"dim small\">(1 cell = %" PRIu32 " page%s)</span></p>\n",
		        s->cache.pages_per_cell ? s->cache.pages_per_cell : 1,
		        s->cache.pages_per_cell > 1 ? "s" : "");
		if (s->cache.n_cells > 0)
			html_cells(f, sr);
	}
	fputs("</div>\n<div class=\"pane\"><h4>disk</h4>", f);
	if (s->disk.source == SNAP_SRC_NONE)
		html_line(f, "<p class=\"dim\">", s->disk.note, "</p>");
	else
		fprintf(f, "<p class=\"line\">allocated <b>%s</b>, delalloc <b>%s</b>%s; %zu "
		        "extent%s</p>", units_format_size(s->disk.allocated_bytes, a, sizeof a),
		        units_format_size(s->disk.delalloc_bytes, b, sizeof b),
		        s->disk.delalloc_bytes > 0 ? " (no block yet)" : "", s->disk.n_extents,
		        s->disk.n_extents == 1 ? "" : "s");
	fputs("</div>\n", f);
}

/* The calls of a step, one a line, with who made each. */
static void
html_events(FILE *f, const struct step_result *sr)
{
	const struct event_list *l = &sr->events;
	char line[256], tm[32];

	fputs("<div class=\"pane calls\"><h4>system calls</h4><ul class=\"calls\">", f);
	for (size_t i = 0; i < l->n; i++) {
		event_format(&l->v[i], line, sizeof line);
		html_line(f, "<li><code class=\"data\">", line, "</code>");
		fprintf(f, " <span class=\"tag\">[%s] %s%s</span></li>",
		        scenario_names_of(scn_origin_words, (int)l->v[i].origin),
		        units_format_ns(l->v[i].ns, tm, sizeof tm), l->v[i].ns_traced ? "*" : "");
	}
	if (l->dropped > 0)
		fprintf(f, "<li class=\"dim\">... and %zu more calls (not kept)</li>", l->dropped);
	if (l->source == EV_SRC_PROCIO && (l->n_read > 0 || l->n_write > 0))
		fprintf(f, "<li>%" PRIu64 " write and %" PRIu64 " read calls, %" PRIu64 " bytes "
		        "(counts only)</li>", l->n_write, l->n_read, l->bytes_written + l->bytes_read);
	if (l->n == 0 && l->source != EV_SRC_PROCIO)
		fputs("<li class=\"dim\">no system call on the file</li>", f);
	fputs("</ul></div>\n", f);
}

/* A step's expectations: held, failed or not observable, each with what was seen. */
static void
html_expects(struct transcript *t, FILE *f, const struct step_result *sr)
{
	char want[300];

	if (sr->n_expects == 0)
		return;
	fputs("<div class=\"pane expect\"><h4>expected</h4><ul class=\"expects\">", f);
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = transcript_outcome(t, x);

		fprintf(f, "<li class=\"%s\" data-key=\"%s\">%s ", transcript_outcome_name(oc),
		        scenario_key_name(x->want->key), scenario_key_name(x->want->key));
		html_text(f, expect_format_want(x->want, want, sizeof want), TEXT_LINE);
		if (x->outcome == EXPECT_NOT_OBSERVABLE)
			html_line(f, " (not observable here: ", text_str(&x->got_text), ")");
		else if (oc == EXPECT_FAILED)
			html_line(f, " (got ", text_str(&x->got_text), ")");
		fputs("</li>", f);
	}
	fputs("</ul></div>\n", f);
}

/* The quiz's question of a step, as the TUI's --quiz asks it (tui/tui.c): the step's own ask,
 * else the question of its first key in the key table's order with an expectation of = that
 * this run observed; the answer is the value this run saw. Into j, or null. */
static void
html_question(struct json *j, const struct step_result *sr)
{
	const struct scn_step *st = sr->step;

	for (size_t k = 0; k < SCN_KEY__COUNT; k++)
		for (size_t i = 0; i < sr->n_expects; i++) {
			const struct expect_result *x = &sr->expects[i];
			if (x->want->key != k || scn_key_table[k].question == NULL ||
			    x->want->cmp != SCN_CMP_EQ || x->outcome == EXPECT_NOT_OBSERVABLE ||
			    (scn_key_table[k].type != SCN_KT_NUMBER &&
			     scn_key_table[k].type != SCN_KT_SIGNED))
				continue;
			json_begin_object(j, NULL);
			json_string(j, "question", st->ask != NULL ? st->ask : scn_key_table[k].question);
			json_string(j, "key", scenario_key_name(x->want->key));
			json_int(j, "answer", x->got);
			json_end_object(j);
			return;
		}
	json_null(j, NULL);
}

/* Both crashes after a step, if it has them (a lesson's or a program's). */
static void
html_crash(const struct transcript *t, FILE *f, const struct step_result *sr)
{
	char line[512];

	if (sr->crash == NULL)
		return;
	fputs("<div class=\"crash\">", f);
	html_line(f, "<p class=\"data\">",
	              transcript_crash_line(sr->crash, false, line, sizeof line), "</p>");
	if (!transcript_crash_said(t, sr->crash))
		html_line(f, "<p class=\"data\">",
		              transcript_crash_line(sr->crash, true, line, sizeof line), "</p>");
	fputs("</div>\n", f);
}

/* A lesson's step as HTML. */
static void
html_lesson_step(struct transcript *t, FILE *f, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;
	char tm[32], pause[640];

	fprintf(f, "<section class=\"step\" id=\"s%zu\" data-step=\"%zu\"><h3>step %zu/%zu: "
	        "<code class=\"data\">", sr->index + 1, sr->index, sr->index + 1, t->n_steps);
	html_text(f, st->call, TEXT_BLOCK);
	fputs("</code>", f);
	if (sr->step->op != SCN_OP_NOTE) {
		if (sr->ret < 0 && sr->err != 0)
			fprintf(f, " \u2192 -1 %s", scenario_errno_name(sr->err));
		else
			fprintf(f, " \u2192 %" PRId64, sr->ret);
		fprintf(f, " <span class=\"dim small\">%s%s</span>",
		        units_format_ns(sr->op_ns, tm, sizeof tm), st->traced ? "*" : "");
	}
	fputs("</h3>\n<div class=\"narr\">", f);
	for (size_t i = 0; i < sr->changes.n; i++)
		if (sr->changes.v[i].between)
			html_line(f, "<p class=\"change between data\">", sr->changes.v[i].text,
			              "</p>\n");
	if (sr->n_sentences > 0)
		html_said(f, sr->sentences, sr->n_sentences);
	else if (step_result_say(sr) != NULL)
		html_prose(f, step_result_say(sr), NULL);
	for (size_t i = 0; i < sr->changes.n; i++)
		if (!sr->changes.v[i].between)
			html_line(f, "<p class=\"change data\">", sr->changes.v[i].text, "</p>\n");
	if (sr->origins.valid) {
		char o[512];
		snapshot_origins_text(&sr->origins, scenario_names_of(scn_sources,
		                      (int)sr->after.cache.source), o, sizeof o);
		html_line(f, "<p class=\"change\">The pages cached: ", o, ".</p>\n");
	}
	if (sr->note.len > 0)
		html_line(f, "<p class=\"note data\">", text_str(&sr->note), "</p>\n");
	/* What the kernel did while the person paused before this step (--pace). */
	if (transcript_pause_text(sr, pause, sizeof pause) != NULL)
		html_line(f, "<p class=\"note data\">Before this step, ", pause, ".</p>\n");
	html_crash(t, f, sr);
	if (sr->output != NULL)
		html_line(f, "<p class=\"small\">printed:</p><pre class=\"data\">", sr->output,
		              "</pre>\n");
	if (sr->output_file != NULL)
		html_line(f, "<p class=\"small\">in the file:</p><pre class=\"data\">",
		              sr->output_file, "</pre>\n");
	fputs("</div>\n<div class=\"panes\">", f);
	if (sr->sweep != NULL) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m != NULL) {
			sweep_print_text(m, sr->sweep, t->sweep_flags);
			fclose(m);
			fputs("<div class=\"pane wide\"><pre class=\"data\">", f);
			html_text(f, buf, TEXT_BLOCK);
			fputs("</pre></div>", f);
		}
		free(buf);
	} else if (sr->step->op != SCN_OP_NOTE && sr->step->op != SCN_OP_SWEEP) {
		html_events(f, sr);
		html_state(f, sr);
	}
	html_expects(t, f, sr);
	fputs("</div></section>\n", f);
}

/* A traced program's step as HTML: its call, the file it touched, the state it left, what a
 * crash after it leaves. */
static void
html_prog_step(const struct transcript *t, FILE *f, const struct transcript_step *st)
{
	const struct transcript_prog_step *p = st->prog;
	const struct step_result *sr = st->sr;

	fprintf(f, "<section class=\"step\" id=\"s%zu\" data-step=\"%zu\"><h3>step %zu: "
	        "<code class=\"data\">", sr->index + 1, sr->index, sr->index + 1);
	html_text(f, st->call, TEXT_BLOCK);
	fputs(p->reaches_disk ? "</code> [reaches the disk]</h3>\n" : "</code></h3>\n", f);
	if (p->path != NULL)
		html_line(f, "<p class=\"small\">file <code class=\"data\">",
		              p->name != NULL ? p->name : p->path, "</code></p>\n");
	if (sr->note.len > 0)
		html_line(f, "<p class=\"note data\">", text_str(&sr->note), "</p>\n");
	for (size_t i = 0; i < sr->changes.n; i++)
		html_line(f, "<p class=\"change data\">", sr->changes.v[i].text, "</p>\n");
	fputs("<div class=\"panes\">", f);
	if (sr->events.n > 0)
		html_events(f, sr);
	if (p->path != NULL)
		html_state(f, sr);
	fputs("</div>", f);
	html_crash(t, f, sr);
	fputs("</section>\n", f);
}

/* The written head: the title, the source, the lesson's question and intro (with its
 * sentences' marks), on top of the page. */
static void
html_written_head(struct transcript *t, FILE *f)
{
	html_line(f, "<h1 id=\"title\" class=\"data\">", t->prog != NULL ? "your program: " : "",
	              "");
	html_text(f, t->title, TEXT_LINE);
	fputs("</h1>\n", f);
	html_line(f, "<p id=\"source\" class=\"data\">", t->source != NULL ? t->source :
	              t->prog != NULL ? t->file : "", "</p>\n");
	if (t->intro_n == 0 && t->intro == NULL)
		return;
	fputs("<section id=\"lesson\" aria-label=\"the lesson's question\">\n<div id=\"intro\">", f);
	if (t->intro_n > 0)
		html_said(f, t->intro_v, t->intro_n);
	else
		html_prose(f, t->intro, NULL);
	fputs("</div></section>\n", f);
}

/* The head, the page's markup up to its written steps, and the transcript's data block
 * opened; the steps and their data go to memory until the end. */
static void
html_begin(struct transcript *t)
{
	const char *html = page_tpl_page_html;
	const char *at_head = strstr(html, OUT_HTML_AT_HEAD);
	const char *at_steps = strstr(html, OUT_HTML_AT_STEPS);

	struct html *h = calloc(1, sizeof *h);

	fprintf(t->f, html_head, page_tpl_page_js_sha256, page_tpl_page_css_sha256);
	html_text(t->f, t->title, TEXT_LINE);
	fprintf(t->f, " \u2014 iobufviz</title>\n<style>%s</style>\n</head>\n<body>\n",
	        page_tpl_page_css);
	/* page.html has both places, the head's first (tests/html.sh reads every page). */
	if (at_head != NULL && at_steps != NULL && at_steps > at_head) {
		fwrite(html, 1, (size_t)(at_head - html), t->f);
		html_written_head(t, t->f);
		at_head += strlen(OUT_HTML_AT_HEAD);
		fwrite(at_head, 1, (size_t)(at_steps - at_head), t->f);
	} else {
		html_written_head(t, t->f);
		fputs(html, t->f);
	}
	t->html = h;
	if (h != NULL) {
		h->steps = open_memstream(&h->steps_buf, &h->steps_len);
		json_init(&h->dj, NULL, JSON_HTML);
		json_begin_array(&h->dj, NULL);
	}
	fputs("<script type=\"application/json\" id=\"transcript\">\n", t->f);
	json_init(&t->j, t->f, JSON_HTML);
	/* No memory for the written steps: the page would lack them; transcript_end fails. */
	if (h == NULL || h->steps == NULL)
		t->j.failed = true;
	out_json_format.begin(t);
}

/* One step: as the JSON transcript writes it, as HTML, and its marks and question. */
static void
html_step(struct transcript *t, const struct transcript_step *st)
{
	struct html *h = t->html;
	const struct step_result *sr = st->sr;

	out_json_format.step(t, st);
	if (h == NULL || h->steps == NULL)
		return;
	if (st->prog != NULL)
		html_prog_step(t, h->steps, st);
	else
		html_lesson_step(t, h->steps, st);
	/* [the cells' origin marks ("" when none), the legend's words, the question] */
	json_begin_array(&h->dj, NULL);
	if (sr->origins.valid && sr->after.cache.source != SNAP_SRC_NONE) {
		char cells[SNAP_MAX_CELLS + 1], marks[4], words[4][96];
		size_t n = html_origins_legend(&sr->origins, marks, words);
		for (size_t i = 0; i < sr->after.cache.n_cells; i++)
			cells[i] = html_cell_from(sr, i);
		cells[sr->after.cache.n_cells] = '\0';
		json_string(&h->dj, NULL, cells);
		json_begin_array(&h->dj, NULL);
		for (size_t i = 0; i < n; i++) {
			char one[2] = { marks[i], '\0' };
			json_begin_array(&h->dj, NULL);
			json_string(&h->dj, NULL, one);
			json_string(&h->dj, NULL, words[i]);
			json_end_array(&h->dj);
		}
		json_end_array(&h->dj);
	} else {
		json_string(&h->dj, NULL, "");
		json_begin_array(&h->dj, NULL);
		json_end_array(&h->dj);
	}
	if (st->prog == NULL)
		html_question(&h->dj, sr);
	else
		json_null(&h->dj, NULL);
	json_end_array(&h->dj);
}

/* The page's own data: the lesson as C with each step's lines, the call tags' words, the
 * glossary; then steps, each step's marks and question (written by html_step, escaped
 * by the same rules). */
static void
html_page(struct json *j, const struct transcript *t, const char *steps)
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
	/* The steps' data, written by html_step with the same writer's escaping. */
	fprintf(j->f, "\n,%s", steps != NULL ? steps : "[]");
}

/* The transcript's end, the page's data, the written steps, the rest of the markup, the
 * script. */
static void
html_end(struct transcript *t)
{
	struct html *h = t->html;
	const char *at_steps = strstr(page_tpl_page_html, OUT_HTML_AT_STEPS);
	char *data = NULL;
	bool failed;

	out_json_format.end(t);
	failed = json_finish(&t->j) != 0;
	if (h != NULL) {
		json_end_array(&h->dj);
		data = json_take(&h->dj, NULL);
		failed |= data == NULL || json_finish(&h->dj) != 0;
	}
	if (h != NULL && h->steps != NULL) {
		failed |= fclose(h->steps) != 0;
		h->steps = NULL;
	}
	fputs("</script>\n<script type=\"application/json\" id=\"page\">\n[", t->f);
	json_init(&t->j, t->f, JSON_HTML);
	html_page(&t->j, t, data);
	free(data);
	fputs("]\n</script>\n<section id=\"steps\" aria-label=\"every step\">\n", t->f);
	if (h != NULL && h->steps_buf != NULL)
		fwrite(h->steps_buf, 1, h->steps_len, t->f);
	fputs("</section>\n", t->f);
	if (at_steps != NULL)
		fputs(at_steps + strlen(OUT_HTML_AT_STEPS), t->f);
	fprintf(t->f, "<script>%s</script>\n</body>\n</html>\n", page_tpl_page_js);
	if (h != NULL) {
		free(h->steps_buf);
		free(h);
		t->html = NULL;
	}
	/* transcript_end asks this writer: it answers for both. */
	t->j.failed |= failed;
}

const struct transcript_format html_format = {
	.name = "html",
	.begin = html_begin,
	.step = html_step,
	.end = html_end,
};
