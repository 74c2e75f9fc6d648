/* SPDX-License-Identifier: MIT */
/* headless.c: run a scenario without a terminal and print a transcript (text, JSON, TAP). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "app.h"
#include "bench-print.h"
#include "describe.h"
#include "expect.h"
#include "json.h"
#include "lesson.h"
#include "probe.h"
#include "runner.h"
#include "scenario-names.h"
#include "units.h"

/* State of one transcript. */
struct headless {
	const struct scenario *s;
	const struct app_opts *o;
	struct lesson *l;
	FILE *f;
	size_t n_points;        /* TAP test points so far */
	bool ok;                /* nothing failed (with --strict: nothing was unobservable) */
	size_t n_held, n_failed, n_unobservable;
	char kernel[128];
};

/* Glyph of a page-cache cell in plain text. */
static char
headless_cell_glyph(const struct snap_cache *c, const struct snap_cell *cell)
{
	if (cell->writeback > 0)
		return '~';
	if (cell->dirty > 0)
		return '#';
	if (cell->cached > 0)
		return c->has_dirty ? '-' : '+';
	return '.';
}

/* Print one run of words wrapped at 78 columns, each line prefixed by indent. */
static void
headless_wrap_words(FILE *f, const char *indent, const char *p, size_t n)
{
	size_t width = 78 - strlen(indent), col = 0;
	const char *end = p + n;

	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\n'))
			p++;
		size_t w = 0;
		while (p + w < end && p[w] != ' ' && p[w] != '\n')
			w++;
		if (w == 0)
			break;
		if (col > 0 && col + 1 + w > width) {
			putc('\n', f);
			col = 0;
		}
		fputs(col == 0 ? indent : " ", f);
		fwrite(p, 1, w, f);
		col += w + (col > 0);
		p += w;
	}
	if (col > 0)
		putc('\n', f);
}

/*
 * Print narration: lines of a paragraph flow together and wrap; an empty line separates
 * paragraphs; a line that starts with a space (code, a table) is kept as it is.
 */
static void
headless_wrap(FILE *f, const char *indent, const char *text)
{
	const char *p = text, *run = NULL;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		bool verbatim = p[0] == ' ' || p[0] == '\t', blank = len == 0;

		if ((verbatim || blank) && run != NULL) {
			headless_wrap_words(f, indent, run, (size_t)(p - run));
			run = NULL;
		}
		if (verbatim)
			fprintf(f, "%s%.*s\n", indent, (int)len, p);
		else if (blank)
			fprintf(f, "%s\n", indent);
		else if (run == NULL)
			run = p;
		p += len;
		if (*p == '\n')
			p++;
	}
	if (run != NULL)
		headless_wrap_words(f, indent, run, (size_t)(p - run));
}

/* Text: the stdio, cache and disk lines of a snapshot. */
static void
headless_text_state(FILE *f, const struct snapshot *s)
{
	char a[32], b[32], c[32];

	if (!s->stdio.open)
		fprintf(f, "  stdio   no FILE* open\n");
	else if (s->stdio.size == 0)
		fprintf(f, "  stdio   FILE* on fd %d, %s, buffer not allocated yet (glibc allocates "
		        "it at the first I/O)\n", s->stdio.fd, describe_bufmode(s->stdio.mode));
	else {
		fprintf(f, "  stdio   FILE* on fd %d, %s, buffer %" PRIu64 " B, pending %" PRIu64 " B",
		        s->stdio.fd, describe_bufmode(s->stdio.mode), s->stdio.size, s->stdio.pending);
		if (s->stdio.read_avail > 0)
			fprintf(f, ", %" PRIu64 " B read ahead", s->stdio.read_avail);
		fputc('\n', f);
	}
	if (s->cache.source == SNAP_SRC_NONE)
		fprintf(f, "  cache   not observable: %s\n", s->cache.note);
	else {
		fprintf(f, "  cache   %s file, %" PRIu64 " page%s cached", 
		        units_format_size(s->cache.file_size, a, sizeof a), s->cache.cached,
		        s->cache.cached == 1 ? "" : "s");
		if (s->cache.has_dirty)
			fprintf(f, ", %" PRIu64 " dirty, %" PRIu64 " writeback", s->cache.dirty,
			        s->cache.writeback);
		if (s->cache.n_cells > 0 && s->cache.n_cells <= 64) {
			fputs("  [", f);
			for (size_t i = 0; i < s->cache.n_cells; i++)
				putc(headless_cell_glyph(&s->cache, &s->cache.cells[i]), f);
			putc(']', f);
		}
		fputc('\n', f);
	}
	if (s->disk.source == SNAP_SRC_NONE)
		fprintf(f, "  disk    %s\n", s->disk.note);
	else
		fprintf(f, "  disk    %s allocated, %s delalloc%s, %s unwritten; %zu extent%s\n",
		        units_format_size(s->disk.allocated_bytes, a, sizeof a),
		        units_format_size(s->disk.delalloc_bytes, b, sizeof b),
		        s->disk.delalloc_bytes > 0 ? " (no block yet)" : "",
		        units_format_size(s->disk.unwritten_bytes, c, sizeof c),
		        s->disk.n_extents, s->disk.n_extents == 1 ? "" : "s");
	/* Bytes that are the file's but in no data block, and blocks that are not the file's. */
	if (s->disk.source != SNAP_SRC_NONE && (s->disk.inline_bytes > 0 ||
	                                        s->disk.beyond_eof_bytes > 0))
		fprintf(f, "  disk    %s\n", s->disk.note);
}

/* Text: the events of a step. */
static void
headless_text_events(FILE *f, const struct step_result *sr)
{
	const struct event_list *l = &sr->events;
	char line[256], t[32];

	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		event_format(e, line, sizeof line);
		fprintf(f, "  %-52s [%s] %s%s\n", line, e->origin == EV_STDIO ? "stdio" : "direct",
		        units_format_ns(e->ns, t, sizeof t), e->ns_traced ? "*" : "");
	}
	if (l->dropped > 0)
		fprintf(f, "  ... and %zu more calls (not kept)\n", l->dropped);
	if (l->source == EV_SRC_PROCIO && scenario_op_is_stdio(sr->step->op) &&
	    (l->n_read > 0 || l->n_write > 0))
		fprintf(f, "  stdio made %" PRIu64 " write call%s (%" PRIu64 " B) and %" PRIu64
		        " read call%s (%" PRIu64 " B)  [counts from /proc/PID/io only]\n",
		        l->n_write, l->n_write == 1 ? "" : "s", l->bytes_written, l->n_read,
		        l->n_read == 1 ? "" : "s", l->bytes_read);
}

/* How x counts in this transcript: --strict makes a fact not observable here a failure. */
static enum expect_outcome
headless_outcome(const struct headless *h, const struct expect_result *x)
{
	if (x->outcome == EXPECT_NOT_OBSERVABLE && h->o->strict)
		return EXPECT_FAILED;
	return x->outcome;
}

/* Name of an outcome in the JSON transcript. */
static const char *
headless_outcome_name(enum expect_outcome oc)
{
	switch (oc) {
	case EXPECT_HELD: return "held";
	case EXPECT_FAILED: return "failed";
	case EXPECT_NOT_OBSERVABLE: return "not_observable";
	}
	return "failed";
}

/* Text: one step. */
static void
headless_text_step(struct headless *h, const struct step_result *sr)
{
	FILE *f = h->f;
	char call[256], want[300], t[32];

	fprintf(f, "\nstep %zu/%zu  %s", sr->index + 1, h->s->n_steps,
	        describe_step(sr->step, call, sizeof call));
	if (sr->step->op != SCN_OP_NOTE) {
		/* No errno (a worker killed mid-call, seen without ptrace): the note says why. */
		if (sr->ret < 0 && sr->err == 0)
			fputs("  -> -1", f);
		else if (sr->ret < 0)
			fprintf(f, "  -> -1 %s (%s)", describe_errno(sr->err), strerror(sr->err));
		else
			fprintf(f, "  -> %" PRId64, sr->ret);
		fprintf(f, "  [%s]", units_format_ns(sr->op_ns, t, sizeof t));
	}
	fputc('\n', f);
	headless_text_events(f, sr);
	if (sr->note[0] != '\0')
		fprintf(f, "  note    %s\n", sr->note);
	if (sr->sweep != NULL) {
		fputc('\n', f);
		bench_print_text(f, sr->sweep, h->o->ascii ? BENCH_PRINT_ASCII : 0);
	} else if (sr->step->op != SCN_OP_NOTE && sr->step->op != SCN_OP_SWEEP)
		headless_text_state(f, &sr->after);
	for (size_t i = 0; i < sr->changes.n; i++)
		headless_wrap(f, "  > ", sr->changes.v[i].text);
	if (sr->output != NULL)
		fprintf(f, "  output  %s\n", sr->output);
	if (sr->output_file != NULL)
		fprintf(f, "  file    %s\n", sr->output_file);
	if (sr->step->say != NULL)
		headless_wrap(f, "  | ", sr->step->say);
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = headless_outcome(h, x);

		fprintf(f, "  %s %s %s", oc == EXPECT_HELD ? "ok  " : oc == EXPECT_FAILED ? "FAIL" :
		        "skip", scenario_key_name(x->want->key),
		        expect_format_want(x->want, want, sizeof want));
		if (x->outcome == EXPECT_NOT_OBSERVABLE)
			fprintf(f, "  (not observable here: %s%s", x->got_text,
			        oc == EXPECT_FAILED ? "; --strict" : ")");
		else if (oc == EXPECT_FAILED)
			fprintf(f, "  (got %s", x->got_text);
		if (oc == EXPECT_FAILED)
			fprintf(f, "; %s:%d:%d)", h->s->path, x->want->line, x->want->col);
		fputc('\n', f);
	}
}

/* JSON: one snapshot's state. */
static void
headless_json_state(FILE *f, const struct snapshot *s)
{
	fprintf(f, "{\"stdio\":{\"open\":%s,\"size\":%" PRIu64 ",\"pending\":%" PRIu64
	        ",\"read_avail\":%" PRIu64 ",\"mode\":",
	        s->stdio.open ? "true" : "false", s->stdio.size, s->stdio.pending,
	        s->stdio.read_avail);
	json_string(f, s->stdio.open ? scenario_names_of(scn_bufmodes, (int)s->stdio.mode) : NULL);
	fputs(",\"head\":", f);
	json_string_n(f, (const char *)s->stdio.head, s->stdio.head_len);
	fprintf(f, "},\"cache\":{\"source\":%d,\"file_size\":%" PRIu64 ",\"pages\":%" PRIu64
	        ",\"dirty_pages\":", (int)s->cache.source, s->cache.file_size, s->cache.cached);
	if (s->cache.has_dirty)
		fprintf(f, "%" PRIu64 ",\"writeback_pages\":%" PRIu64, s->cache.dirty,
		        s->cache.writeback);
	else
		fputs("null,\"writeback_pages\":null", f);
	fprintf(f, ",\"pages_per_cell\":%u,\"cells\":[", s->cache.pages_per_cell);
	for (size_t i = 0; i < s->cache.n_cells; i++)
		fprintf(f, "%s[%u,%u,%u]", i ? "," : "", s->cache.cells[i].cached,
		        s->cache.cells[i].dirty, s->cache.cells[i].writeback);
	fputs("],\"note\":", f);
	json_string(f, s->cache.note);
	fprintf(f, "},\"disk\":{\"fs\":");
	json_string(f, s->disk.fs);
	fprintf(f, ",\"allocated_bytes\":%" PRIu64 ",\"delalloc_bytes\":%" PRIu64
	        ",\"unwritten_bytes\":%" PRIu64 ",\"inline_bytes\":%" PRIu64
	        ",\"beyond_eof_bytes\":%" PRIu64 ",\"extents\":[",
	        s->disk.allocated_bytes, s->disk.delalloc_bytes, s->disk.unwritten_bytes,
	        s->disk.inline_bytes, s->disk.beyond_eof_bytes);
	for (size_t i = 0; i < s->disk.n_extents; i++) {
		const struct snap_extent *x = &s->disk.extents[i];
		fprintf(f, "%s{\"logical\":%" PRIu64 ",\"physical\":%" PRIu64 ",\"length\":%" PRIu64
		        ",\"delalloc\":%s,\"unwritten\":%s}", i ? "," : "", x->logical, x->physical,
		        x->length, x->flags & SNAP_EXT_DELALLOC ? "true" : "false",
		        x->flags & SNAP_EXT_UNWRITTEN ? "true" : "false");
	}
	fputs("],\"note\":", f);
	json_string(f, s->disk.note);
	if (s->disk.io_ok)
		fprintf(f, ",\"io\":{\"rchar\":%" PRIu64 ",\"wchar\":%" PRIu64 ",\"syscr\":%" PRIu64
		        ",\"syscw\":%" PRIu64 ",\"read_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64 "}",
		        s->disk.rchar, s->disk.wchar, s->disk.syscr, s->disk.syscw,
		        s->disk.read_bytes, s->disk.write_bytes);
	fputs("}}", f);
}

/* JSON: one step. */
static void
headless_json_step(struct headless *h, const struct step_result *sr)
{
	FILE *f = h->f;
	const struct event_list *l = &sr->events;
	char call[256], want[300];

	fprintf(f, "%s\n{\"index\":%zu,\"op\":", sr->index ? "," : "", sr->index + 1);
	json_string(f, scenario_op_name(sr->step->op));
	fputs(",\"args\":", f);
	json_string(f, describe_step(sr->step, call, sizeof call));
	fprintf(f, ",\"line\":%d,\"result\":%" PRId64 ",\"errno\":", sr->step->line, sr->ret);
	json_string(f, describe_errno(sr->err));
	fprintf(f, ",\"usec\":%.3f,\"say\":", sr->op_ns / 1e3);
	json_string(f, sr->step->say);
	fputs(",\"note\":", f);
	json_string(f, sr->note[0] ? sr->note : NULL);
	fprintf(f, ",\"trace\":\"%s\",\"events\":[", l->source == EV_SRC_PTRACE ? "ptrace" : "procio");
	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		fprintf(f, "%s{\"call\":", i ? "," : "");
		json_string(f, e->call);
		fprintf(f, ",\"fd\":%d,\"bytes\":%" PRIu64 ",\"offset\":%" PRId64 ",\"result\":%" PRId64
		        ",\"errno\":", e->fd, e->bytes, e->offset, e->result);
		json_string(f, describe_errno(e->err));
		fprintf(f, ",\"usec\":%.3f,\"traced_time\":%s,\"origin\":\"%s\",\"detail\":", e->ns / 1e3,
		        e->ns_traced ? "true" : "false", e->origin == EV_STDIO ? "stdio" : "direct");
		json_string(f, e->detail);
		fputc('}', f);
	}
	fprintf(f, "],\"calls\":{\"write\":%" PRIu64 ",\"read\":%" PRIu64 ",\"bytes_written\":%" PRIu64
	        ",\"bytes_read\":%" PRIu64 ",\"dropped\":%zu},\"output\":",
	        l->n_write, l->n_read, l->bytes_written, l->bytes_read, l->dropped);
	json_string(f, sr->output);
	fputs(",\"output_file\":", f);
	json_string(f, sr->output_file);
	fputs(",\"state\":", f);
	headless_json_state(f, &sr->after);
	if (sr->sweep != NULL) {
		fputs(",\"sweep\":", f);
		bench_export_json(f, sr->sweep);
	}
	fputs(",\"changes\":[", f);
	for (size_t i = 0; i < sr->changes.n; i++) {
		const struct snapshot_change *c = &sr->changes.v[i];
		fprintf(f, "%s{\"kind\":\"%s\",\"between_steps\":%s,\"count\":%" PRIu64
		        ",\"text\":", i ? "," : "", snapshot_diff_kind_name(c->kind),
		        c->between ? "true" : "false", c->count);
		json_string(f, c->text);
		fputc('}', f);
	}
	fputs("],\"expect\":[", f);
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		fprintf(f, "%s{\"key\":", i ? "," : "");
		json_string(f, scenario_key_name(x->want->key));
		fputs(",\"want\":", f);
		json_string(f, expect_format_want(x->want, want, sizeof want));
		fputs(",\"got\":", f);
		json_string(f, x->outcome == EXPECT_NOT_OBSERVABLE ? NULL : x->got_text);
		fprintf(f, ",\"ok\":%s,\"outcome\":\"%s\",\"skipped\":%s,\"reason\":",
		        headless_outcome(h, x) == EXPECT_HELD ? "true" : "false",
		        headless_outcome_name(headless_outcome(h, x)),
		        headless_outcome(h, x) == EXPECT_NOT_OBSERVABLE ? "true" : "false");
		json_string(f, x->outcome == EXPECT_NOT_OBSERVABLE ? x->got_text : NULL);
		fprintf(f, ",\"line\":%d,\"col\":%d}", x->want->line, x->want->col);
	}
	fputs("]}", f);
}

/* Write s on one TAP line: newlines as \n, '#' escaped (it starts a directive). */
static void
headless_tap_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\r')
			fputs("\\r", f);
		else if (*s == '#')
			fputs("\\#", f);
		else
			putc(*s, f);
	}
}

/* TAP: one test point per expectation. */
static void
headless_tap_step(struct headless *h, const struct step_result *sr)
{
	char call[256], want[300];

	describe_step(sr->step, call, sizeof call);
	if (sr->note[0] != '\0') {
		fprintf(h->f, "# step %zu: ", sr->index + 1);
		headless_tap_text(h->f, sr->note);
		putc('\n', h->f);
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = headless_outcome(h, x);

		fprintf(h->f, "%sok %zu - step %zu ", oc == EXPECT_FAILED ? "not " : "",
		        ++h->n_points, sr->index + 1);
		headless_tap_text(h->f, call);
		fprintf(h->f, ": %s ", scenario_key_name(x->want->key));
		headless_tap_text(h->f, expect_format_want(x->want, want, sizeof want));
		if (oc == EXPECT_NOT_OBSERVABLE) {
			fputs(" # SKIP not observable here: ", h->f);
			headless_tap_text(h->f, x->got_text);
		}
		putc('\n', h->f);
		if (oc == EXPECT_FAILED) {
			fputs("  ---\n  got: ", h->f);
			json_string(h->f, x->got_text);
			fprintf(h->f, "\n  at: \"%s:%d:%d\"\n  ...\n", h->s->path, x->want->line,
			        x->want->col);
		}
	}
}

/* Start of the transcript. */
static void
headless_begin(struct headless *h)
{
	const struct scenario *s = h->s;
	const struct snapshot *init = lesson_initial(h->l);
	FILE *f = h->f;

	switch (h->o->format) {
	case APP_FORMAT_TEXT:
		fprintf(f, "%s", s->title);
		if (s->source != NULL)
			fprintf(f, "  [%s]", s->source);
		fprintf(f, "\nscenario %s\nfile     %s on %s%s%s, kernel %s\ntrace    %s\n", s->path,
		        lesson_file_path(h->l), lesson_fs_name(h->l),
		        init->disk.device[0] ? " " : "", init->disk.device, h->kernel,
		        lesson_trace_source(h->l) == EV_SRC_PTRACE ?
		        "ptrace: every call, exact (* = time measured by the tracer)" :
		        "/proc/PID/io: stdio's calls as counts and totals only");
		if (lesson_place_note(h->l)[0] != '\0')
			fprintf(f, "scratch  %s\n", lesson_place_note(h->l));
		if (init->cache.note[0] != '\0')
			fprintf(f, "note     %s\n", init->cache.note);
		if (init->disk.note[0] != '\0')
			fprintf(f, "note     %s\n", init->disk.note);
		if (s->intro != NULL) {
			fputc('\n', f);
			headless_wrap(f, "  ", s->intro);
		}
		break;
	case APP_FORMAT_JSON:
		fputs("{\"scenario\":{\"title\":", f);
		json_string(f, s->title);
		fputs(",\"source\":", f);
		json_string(f, s->source);
		fputs(",\"path\":", f);
		json_string(f, s->path);
		fputs(",\"file\":", f);
		json_string(f, lesson_file_path(h->l));
		fputs(",\"place_note\":", f);
		json_string(f, lesson_place_note(h->l)[0] ? lesson_place_note(h->l) : NULL);
		fputs(",\"intro\":", f);
		json_string(f, s->intro);
		fputs("},\"steps\":[", f);
		break;
	case APP_FORMAT_TAP:
		fprintf(f, "TAP version 13\n# %s\n", s->title);
		if (lesson_place_note(h->l)[0] != '\0')
			fprintf(f, "# %s\n", lesson_place_note(h->l));
		break;
	}
}

/*
 * If a sweep step could not run, or one of its rows failed for want of room or rights
 * (ENOSPC, EFBIG, EDQUOT, EROFS, EIO, ENOMEM: the machine's limits, not the lesson's, unlike
 * EINVAL under O_DIRECT), say so in msg and return true: the run ends with exit status 3.
 */
static bool
headless_sweep_env(const struct step_result *sr, char *msg, size_t len)
{
	if (sr->step->op != SCN_OP_SWEEP)
		return false;
	if (sr->sweep == NULL) {
		snprintf(msg, len, "step %zu: %s", sr->index + 1,
		         sr->note[0] ? sr->note : "the sweep could not run");
		return true;
	}
	for (size_t v = 0; v < sr->sweep->n_variants; v++) {
		const struct bench_variant *bv = &sr->sweep->variants[v];
		for (size_t i = 0; i < bv->n_rows; i++) {
			int e = bv->rows[i].err;
			if (e != ENOSPC && e != EFBIG && e != EDQUOT && e != EROFS && e != EIO &&
			    e != ENOMEM)
				continue;
			snprintf(msg, len, "step %zu: the sweep's %" PRIu64 "-byte row%s%s%s could not "
			         "run: %s", sr->index + 1, bv->rows[i].buf_size,
			         bv->v->name ? " (variant " : "", bv->v->name ? bv->v->name : "",
			         bv->v->name ? ")" : "",
			         bv->rows[i].note[0] ? bv->rows[i].note : strerror(e));
			return true;
		}
	}
	return false;
}

/* End of the transcript. */
static void
headless_end(struct headless *h, const char *error)
{
	const struct snapshot *init = lesson_initial(h->l);
	FILE *f = h->f;

	switch (h->o->format) {
	case APP_FORMAT_TEXT:
		if (error != NULL)
			fprintf(f, "\nerror: %s\n", error);
		fprintf(f, "\n%zu held, %zu failed, %zu not observable here%s\n", h->n_held,
		        h->n_failed, h->n_unobservable, h->o->strict && h->n_unobservable > 0 ?
		        " (--strict: counted as failed)" : "");
		fprintf(f, "%s\n", !h->ok ? "SOME EXPECTATIONS FAILED" : h->n_unobservable > 0 ?
		        "no expectation failed; some could not be observed here" :
		        "all expectations held");
		break;
	case APP_FORMAT_JSON:
		fprintf(f, "\n],\"ok\":%s,\"counts\":{\"held\":%zu,\"failed\":%zu,"
		        "\"not_observable\":%zu},\"strict\":%s,\"error\":", h->ok ? "true" : "false",
		        h->n_held, h->n_failed, h->n_unobservable, h->o->strict ? "true" : "false");
		json_string(f, error);
		fputs(",\"environment\":{\"kernel\":", f);
		json_string(f, h->kernel);
		fputs(",\"fs\":", f);
		json_string(f, lesson_fs_name(h->l));
		fprintf(f, ",\"device\":");
		json_string(f, init->disk.device[0] ? init->disk.device : NULL);
		fprintf(f, ",\"cachestat\":%s,\"cache_source\":\"%s\",\"fiemap\":%s,\"trace\":\"%s\","
		        "\"version\":\"%s\"}}\n",
		        init->cache.source == SNAP_SRC_CACHESTAT ? "true" : "false",
		        probe_cache_source_name(init->cache.source),
		        init->disk.source == SNAP_SRC_FIEMAP ? "true" : "false",
		        lesson_trace_source(h->l) == EV_SRC_PTRACE ? "ptrace" : "procio",
		        PACKAGE_VERSION);
		break;
	case APP_FORMAT_TAP:
		if (error != NULL)
			fprintf(f, "Bail out! %s\n", error);
		/* TAP 13: a plan of no tests says why (a sweep, or narration only). */
		if (h->n_points == 0 && error == NULL)
			fputs("1..0 # SKIP no expectations in this scenario\n", f);
		else
			fprintf(f, "1..%zu\n", h->n_points);
		break;
	}
}

/* Sweep progress on a terminal's stderr: one line, rewritten in place. */
static int
headless_sweep_progress(const struct bench_progress *p, void *user)
{
	char line[160];

	(void)user;
	fprintf(stderr, "\r\033[K%s", bench_print_progress(p, line, sizeof line));
	fflush(stderr);
	return 0;
}

/* Run the scenario headless. */
int
headless_run(const struct scenario *s, const struct app_opts *o)
{
	struct runner_opts ro = { .dir = o->dir, .trace = o->trace, .budget = o->budget,
	                          .probe = o->probe };
	bool progress = isatty(STDERR_FILENO), sweep_failed = false;
	char envmsg[320] = "";
	struct headless h = { .s = s, .o = o, .f = stdout, .ok = true };
	struct utsname u;
	char *err = NULL;
	int rc = APP_EXIT_OK;

	if (uname(&u) == 0)
		snprintf(h.kernel, sizeof h.kernel, "%s", u.release);
	if (progress)
		ro.sweep_progress = headless_sweep_progress;
	h.l = lesson_new(s, &ro, &err);
	if (h.l == NULL) {
		fprintf(stderr, "iobufviz: %s\n", err != NULL ? err : "out of memory");
		free(err);
		return APP_EXIT_ENV;
	}
	if (o->export_fmt == NULL)
		headless_begin(&h);
	for (;;) {
		int got = lesson_step(h.l);
		const struct step_result *sr = lesson_last(h.l);
		if (got == 0)
			break;
		if (got < 0) {
			err = "out of memory";
			break;
		}
		if (progress && sr->sweep != NULL)
			fputs("\r\033[K", stderr);
		for (size_t i = 0; i < sr->n_expects; i++)
			switch (sr->expects[i].outcome) {
			case EXPECT_HELD: h.n_held++; break;
			case EXPECT_FAILED: h.n_failed++; break;
			case EXPECT_NOT_OBSERVABLE: h.n_unobservable++; break;
			}
		if (!sr->ok || (o->strict && sr->n_unobservable > 0))
			h.ok = false;
		/* A sweep that could not run (at all, or a row for want of space) is the
		 * environment's failure, not a lesson's. */
		if (!sweep_failed && headless_sweep_env(sr, envmsg, sizeof envmsg))
			sweep_failed = true;
		if (o->export_fmt != NULL) {
			/* --export: the sweep tables alone, nothing else on stdout. */
			if (sr->sweep != NULL)
				bench_export(stdout, sr->sweep, o->export_fmt);
			else if (sr->ret < 0 && sr->step->op == SCN_OP_SWEEP)
				fprintf(stderr, "iobufviz: step %zu: %s\n", sr->index + 1, sr->note);
			continue;
		}
		switch (o->format) {
		case APP_FORMAT_TEXT: headless_text_step(&h, sr); break;
		case APP_FORMAT_JSON: headless_json_step(&h, sr); break;
		case APP_FORMAT_TAP: headless_tap_step(&h, sr); break;
		}
	}
	if (o->export_fmt == NULL)
		headless_end(&h, err != NULL ? err : sweep_failed ? envmsg : NULL);
	lesson_free(h.l);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "iobufviz: cannot write the transcript\n");
		return APP_EXIT_ENV;
	}
	if (err != NULL || sweep_failed)
		rc = APP_EXIT_ENV;
	else if (!h.ok)
		rc = APP_EXIT_FAILED;
	return rc;
}
