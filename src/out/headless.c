/* SPDX-License-Identifier: MIT */
/* out/headless.c: run a scenario without a terminal and print a transcript (text, JSON, TAP). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/app.h"
#include "sweep/print.h"
#include "export/describe.h"
#include "lesson/expect.h"
#include "out/headless.h"
#include "base/json.h"
#include "lesson/lesson.h"
#include "out/said.h"
#include "engine/ops.h"
#include "probe/probe.h"
#include "engine/runner.h"
#include "scenario/names.h"
#include "base/text.h"
#include "base/units.h"

/* The JSON transcript's format (doc/json.md): raise it when a field changes meaning or goes. */
#define HEADLESS_JSON_VERSION 1

/* State of one transcript. */
struct headless {
	const struct scenario *s;
	const struct app_opts *o;
	struct lesson *l;
	FILE *f;
	size_t n_points;        /* TAP test points so far */
	bool ok;                /* nothing failed (with --strict: nothing was unobservable) */
	size_t n_held, n_failed, n_unobservable;
	size_t n_said, n_unchecked, n_false; /* sentences held, unchecked and false here */
	char kernel[128];
};

/* Glyph of a page-cache cell of s in plain text: '+' is cached, dirty unknown or (tmpfs) not
 * a thing the file can be. */
static char
headless_cell_glyph(const struct snapshot *s, const struct snap_cell *cell)
{
	bool states = s->cache.has_dirty && !snapshot_in_memory(s);

	if (states && cell->writeback > 0)
		return '~';
	if (states && cell->dirty > 0)
		return '#';
	if (cell->cached > 0)
		return states ? '-' : '+';
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
	char *safe = text_safe_dup(text, TEXT_BLOCK);
	const char *p = safe, *run = NULL;

	if (safe == NULL)
		return;

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
	free(safe);
}

/* Print prefix, then s as one escaped record (TEXT_LINE), then suffix. */
static void
headless_line(FILE *f, const char *prefix, const char *s, const char *suffix)
{
	fputs(prefix, f);
	text_fput(s, TEXT_LINE, f);
	fputs(suffix, f);
}

/* True if the step's time includes ptrace stops: the traced worker ran it. */
static bool
headless_op_traced(const struct headless *h, const struct step_result *sr)
{
	return lesson_trace_source(h->l) == EV_SRC_PTRACE && ops_has(sr->step->op);
}

/* Text: the stdio, cache and disk lines of a snapshot. */
void
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
		headless_line(f, "  cache   not observable: ", s->cache.note, "\n");
	else {
		fprintf(f, "  cache   %s file, %" PRIu64 " page%s cached", 
		        units_format_size(s->cache.file_size, a, sizeof a), s->cache.cached,
		        s->cache.cached == 1 ? "" : "s");
		/* On tmpfs "0 dirty" would be a count of something that cannot happen. */
		if (snapshot_in_memory(s))
			fprintf(f, ", nothing to write back (%s has no disk)", s->disk.fs);
		else if (s->cache.has_dirty)
			fprintf(f, ", %" PRIu64 " dirty, %" PRIu64 " writeback", s->cache.dirty,
			        s->cache.writeback);
		if (s->cache.n_cells > 0 && s->cache.n_cells <= 64) {
			fputs("  [", f);
			for (size_t i = 0; i < s->cache.n_cells; i++)
				putc(headless_cell_glyph(s, &s->cache.cells[i]), f);
			putc(']', f);
		}
		fputc('\n', f);
	}
	if (s->disk.source == SNAP_SRC_NONE)
		headless_line(f, "  disk    ", s->disk.note, "\n");
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
	char line[256], safe[512], t[32];

	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		event_format(e, line, sizeof line);
		text_safe(line, TEXT_LINE, safe, sizeof safe);
		fprintf(f, "  %-52s [%s] %s%s\n", safe, e->origin == EV_STDIO ? "stdio" : "direct",
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

	fprintf(f, "\nstep %zu/%zu  ", sr->index + 1, h->s->n_steps);
	text_fput(describe_step(sr->step, call, sizeof call), TEXT_LINE, f);
	if (sr->step->op != SCN_OP_NOTE) {
		/* No errno (a worker killed mid-call, seen without ptrace): the note says why. */
		if (sr->ret < 0 && sr->err == 0)
			fputs("  -> -1", f);
		else if (sr->ret < 0)
			fprintf(f, "  -> -1 %s (%s)", describe_errno(sr->err), strerror(sr->err));
		else
			fprintf(f, "  -> %" PRId64, sr->ret);
		fprintf(f, "  [%s%s]", units_format_ns(sr->op_ns, t, sizeof t),
		        headless_op_traced(h, sr) ? "*" : "");
	}
	fputc('\n', f);
	headless_text_events(f, sr);
	if (sr->note[0] != '\0')
		headless_line(f, "  note    ", sr->note, "\n");
	if (sr->sweep != NULL) {
		fputc('\n', f);
		sweep_print_text(f, sr->sweep, (h->o->ascii ? SWEEP_PRINT_ASCII : 0) |
		                 (h->o->wide ? SWEEP_PRINT_WIDE : 0));
	} else if (sr->step->op != SCN_OP_NOTE && sr->step->op != SCN_OP_SWEEP)
		headless_text_state(f, &sr->after);
	for (size_t i = 0; i < sr->changes.n; i++)
		headless_wrap(f, "  > ", sr->changes.v[i].text);
	if (sr->output != NULL)
		headless_line(f, "  output  ", sr->output, "\n");
	if (sr->output_file != NULL)
		headless_line(f, "  file    ", sr->output_file, "\n");
	/* A note step's own text, when its say (shown below) is another text. */
	if (sr->step->op == SCN_OP_NOTE && sr->step->args.text != NULL &&
	    (step_result_say(sr) == NULL || strcmp(step_result_say(sr), sr->step->args.text) != 0))
		headless_wrap(f, "  | ", sr->step->args.text);
	if (sr->n_sentences > 0)
		said_text(f, "  | ", headless_wrap, h->s->path, sr->sentences, sr->n_sentences);
	else if (step_result_say(sr) != NULL)
		headless_wrap(f, "  | ", step_result_say(sr));
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = headless_outcome(h, x);

		fprintf(f, "  %s %s ", oc == EXPECT_HELD ? "ok  " : oc == EXPECT_FAILED ? "FAIL" :
		        "skip", scenario_key_name(x->want->key));
		text_fput(expect_format_want(x->want, want, sizeof want), TEXT_LINE, f);
		if (x->outcome == EXPECT_NOT_OBSERVABLE)
			headless_line(f, "  (not observable here: ", x->got_text,
			              oc == EXPECT_FAILED ? "; --strict" : ")");
		else if (oc == EXPECT_FAILED)
			headless_line(f, "  (got ", x->got_text, "");
		if (oc == EXPECT_FAILED) {
			headless_line(f, "; ", h->s->path, "");
			fprintf(f, ":%d:%d)", x->want->line, x->want->col);
		}
		fputc('\n', f);
	}
}

/* JSON: the name of where a disk fact came from (probe/snapshot.h; the cache's: probe/probe.h). */
static const char *
headless_source_name(enum snap_source src)
{
	static const char *const names[] = {
		[SNAP_SRC_NONE] = "none",
		[SNAP_SRC_STDIO_EXT] = "stdio_ext",
		[SNAP_SRC_CACHESTAT] = "cachestat",
		[SNAP_SRC_MINCORE] = "mincore",
		[SNAP_SRC_FIEMAP] = "fiemap",
		[SNAP_SRC_PROCIO] = "procio",
		[SNAP_SRC_KPAGEFLAGS] = "kpageflags",
	};

	if ((unsigned)src < sizeof names / sizeof names[0] && names[src] != NULL)
		return names[src];
	return "unknown";
}

/* JSON: the name of errno value err, or null for none. */
static void
headless_json_errno(FILE *f, int err)
{
	json_string(f, err != 0 ? describe_errno(err) : NULL);
}

/* JSON: ,"key":n when known, else ,"key":null,"key_why":why. */
static void
headless_json_count(FILE *f, const char *key, bool known, uint64_t n, const char *why)
{
	if (known) {
		fprintf(f, ",\"%s\":%" PRIu64, key, n);
		return;
	}
	fprintf(f, ",\"%s\":null,\"%s_why\":", key, key);
	json_string(f, why != NULL && why[0] != '\0' ? why : "not observable here");
}

/* JSON: one snapshot's state. */
void
headless_json_state(FILE *f, const struct snapshot *s)
{
	const struct snap_cache *c = &s->cache;
	const struct snap_disk *d = &s->disk;
	bool cache_ok = c->source != SNAP_SRC_NONE, disk_ok = d->source != SNAP_SRC_NONE;
	/* On tmpfs dirty and writeback pages do not apply (no disk): null with why, not 0. */
	bool states = c->has_dirty && !snapshot_in_memory(s);
	const char *nodirty = !snapshot_in_memory(s) && c->note[0] ? c->note : !snapshot_in_memory(s) ?
	                      "only which pages are cached is known here" : SAID_NO_DISK;

	fprintf(f, "{\"stdio\":{\"open\":%s,\"size\":%" PRIu64 ",\"pending\":%" PRIu64
	        ",\"read_avail\":%" PRIu64 ",\"mode\":",
	        s->stdio.open ? "true" : "false", s->stdio.size, s->stdio.pending,
	        s->stdio.read_avail);
	json_string(f, s->stdio.open ? scenario_names_of(scn_bufmodes, (int)s->stdio.mode) : NULL);
	fputs(",\"head\":", f);
	json_string_n(f, (const char *)s->stdio.head, s->stdio.head_len);
	fputs("},\"cache\":{\"source\":", f);
	json_string(f, probe_cache_source_name(c->source));
	fprintf(f, ",\"file_size\":%" PRIu64, c->file_size);
	headless_json_count(f, "pages", cache_ok, c->cached, c->note);
	headless_json_count(f, "dirty_pages", cache_ok && states, c->dirty, nodirty);
	headless_json_count(f, "writeback_pages", cache_ok && states, c->writeback, nodirty);
	fprintf(f, ",\"pages_per_cell\":%u,\"cells\":[", c->pages_per_cell);
	for (size_t i = 0; cache_ok && i < c->n_cells; i++) {
		if (states)
			fprintf(f, "%s[%u,%u,%u]", i ? "," : "", c->cells[i].cached, c->cells[i].dirty,
			        c->cells[i].writeback);
		else
			fprintf(f, "%s[%u,null,null]", i ? "," : "", c->cells[i].cached);
	}
	fputs("],\"note\":", f);
	json_string(f, c->note[0] ? c->note : NULL);
	fputs("},\"disk\":{\"source\":", f);
	json_string(f, headless_source_name(d->source));
	fputs(",\"fs\":", f);
	json_string(f, d->fs[0] ? d->fs : NULL);
	headless_json_count(f, "allocated_bytes", disk_ok, d->allocated_bytes, d->note);
	headless_json_count(f, "delalloc_bytes", disk_ok, d->delalloc_bytes, d->note);
	headless_json_count(f, "unwritten_bytes", disk_ok, d->unwritten_bytes, d->note);
	headless_json_count(f, "inline_bytes", disk_ok, d->inline_bytes, d->note);
	headless_json_count(f, "beyond_eof_bytes", disk_ok, d->beyond_eof_bytes, d->note);
	fputs(",\"extents\":[", f);
	for (size_t i = 0; disk_ok && i < d->n_extents; i++) {
		const struct snap_extent *x = &d->extents[i];
		fprintf(f, "%s{\"logical\":%" PRIu64 ",\"physical\":%" PRIu64 ",\"length\":%" PRIu64
		        ",\"delalloc\":%s,\"unwritten\":%s}", i ? "," : "", x->logical, x->physical,
		        x->length, x->flags & SNAP_EXT_DELALLOC ? "true" : "false",
		        x->flags & SNAP_EXT_UNWRITTEN ? "true" : "false");
	}
	fputs("],\"note\":", f);
	json_string(f, d->note[0] ? d->note : NULL);
	if (d->io_ok)
		fprintf(f, ",\"io\":{\"rchar\":%" PRIu64 ",\"wchar\":%" PRIu64 ",\"syscr\":%" PRIu64
		        ",\"syscw\":%" PRIu64 ",\"read_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64 "}",
		        d->rchar, d->wchar, d->syscr, d->syscw, d->read_bytes, d->write_bytes);
	else
		fputs(",\"io\":null,\"io_why\":\"/proc/PID/io of the worker could not be read\"", f);
	fputs("}}", f);
}

/*
 * JSON: a time as "call_usec" (the call's own cost, when nothing else was inside it) and
 * "usec_incl_tracing" (when ptrace stops were inside it), each null when it is the other.
 */
void
headless_json_times(FILE *f, uint64_t ns, bool traced)
{
	if (traced)
		fprintf(f, ",\"call_usec\":null,\"call_usec_why\":\"under ptrace every system call "
		        "stops twice; see usec_incl_tracing and environment.tracing\","
		        "\"usec_incl_tracing\":%.3f", ns / 1e3);
	else
		fprintf(f, ",\"call_usec\":%.3f,\"usec_incl_tracing\":null", ns / 1e3);
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
	headless_json_errno(f, sr->err);
	if (sr->ret < 0 && sr->err == 0) {
		fputs(",\"errno_why\":", f);
		json_string(f, sr->note[0] ? sr->note : "the call did not return");
	}
	headless_json_times(f, sr->op_ns, headless_op_traced(h, sr));
	fputs(",\"say\":", f);
	json_string(f, step_result_say(sr));
	said_json(f, "sentences", sr->sentences, sr->n_sentences);
	fputs(",\"note\":", f);
	json_string(f, sr->note[0] ? sr->note : NULL);
	fprintf(f, ",\"trace\":\"%s\",\"events\":[", l->source == EV_SRC_PTRACE ? "ptrace" : "procio");
	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		fprintf(f, "%s{\"call\":", i ? "," : "");
		json_string(f, e->call);
		fprintf(f, ",\"fd\":%d,\"bytes\":%" PRIu64 ",\"offset\":%" PRId64 ",\"result\":%" PRId64
		        ",\"errno\":", e->fd, e->bytes, e->offset, e->result);
		headless_json_errno(f, e->err);
		headless_json_times(f, e->ns, e->ns_traced);
		fprintf(f, ",\"origin\":\"%s\",\"child\":%s,\"detail\":",
		        e->origin == EV_STDIO ? "stdio" : "direct", e->child ? "true" : "false");
		json_string(f, e->detail[0] ? e->detail : NULL);
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
		sweep_export_json(f, sr->sweep);
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
		/* Not observable: got is null and got_why says why (the transcript's rule). */
		fputs(",\"got\":", f);
		json_string(f, x->outcome == EXPECT_NOT_OBSERVABLE ? NULL : x->got_text);
		if (x->outcome == EXPECT_NOT_OBSERVABLE) {
			fputs(",\"got_why\":", f);
			json_string(f, x->got_text[0] ? x->got_text : "not observable here");
		}
		fprintf(f, ",\"ok\":%s,\"outcome\":\"%s\",\"skipped\":%s",
		        headless_outcome(h, x) == EXPECT_HELD ? "true" : "false",
		        headless_outcome_name(headless_outcome(h, x)),
		        headless_outcome(h, x) == EXPECT_NOT_OBSERVABLE ? "true" : "false");
		fprintf(f, ",\"line\":%d,\"col\":%d}", x->want->line, x->want->col);
	}
	fputs("]}", f);
}

/* TAP: one test point per expectation. */
static void
headless_tap_step(struct headless *h, const struct step_result *sr)
{
	char call[256], want[300];

	describe_step(sr->step, call, sizeof call);
	if (sr->note[0] != '\0') {
		fprintf(h->f, "# step %zu: ", sr->index + 1);
		said_tap_text(h->f, sr->note);
		putc('\n', h->f);
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = headless_outcome(h, x);

		fprintf(h->f, "%sok %zu - step %zu ", oc == EXPECT_FAILED ? "not " : "",
		        ++h->n_points, sr->index + 1);
		said_tap_text(h->f, call);
		fprintf(h->f, ": %s ", scenario_key_name(x->want->key));
		said_tap_text(h->f, expect_format_want(x->want, want, sizeof want));
		if (oc == EXPECT_NOT_OBSERVABLE) {
			fputs(" # SKIP not observable here: ", h->f);
			said_tap_text(h->f, x->got_text);
		}
		putc('\n', h->f);
		if (oc == EXPECT_FAILED) {
			fputs("  ---\n  got: ", h->f);
			json_string(h->f, x->got_text);
			fputs("\n  at: ", h->f);
			said_at(h->f, h->s->path, x->want->line, x->want->col);
			fputs("\n  ...\n", h->f);
		}
	}
	said_tap(h->f, &h->n_points, sr->index + 1, call, h->s->path, sr->sentences,
	         sr->n_sentences);
}

/* Text: how the calls were seen, and what that does to the times shown. */
static void
headless_text_trace(FILE *f, const struct lesson *l)
{
	const struct runner_overhead *o = lesson_tracing_overhead(l);
	char a[32], b[32];

	if (lesson_trace_source(l) != EV_SRC_PTRACE) {
		fputs("trace    /proc/PID/io: stdio's calls as counts and totals only; times are "
		      "the calls' own\n", f);
		return;
	}
	fputs("trace    ptrace: every call, exact; times marked * include tracing\n", f);
	/* On a line of its own: the header fits 100 columns. */
	if (o->measured)
		fprintf(f, "         (tracing adds about %s to each system call here; a null call "
		        "takes %s untraced)\n",
		        units_format_ns((uint64_t)(o->traced_ns - o->bare_ns), a, sizeof a),
		        units_format_ns((uint64_t)o->bare_ns, b, sizeof b));
}

/* Start of the transcript. */
static void
headless_begin(struct headless *h)
{
	const struct scenario *s = h->s;
	const struct snapshot *init = lesson_initial(h->l);
	const struct sentence_result *iv;
	size_t in;
	const char *intro = lesson_intro(h->l, &iv, &in);
	FILE *f = h->f;

	switch (h->o->format) {
	case APP_FORMAT_TEXT:
		text_fput(s->title, TEXT_LINE, f);
		/* The source on a line of its own, so that the header fits 100 columns. */
		if (s->source != NULL)
			headless_line(f, "\nsource   ", s->source, "");
		headless_line(f, "\nscenario ", s->path, "\n");
		headless_line(f, "file     ", lesson_file_path(h->l), " on ");
		text_fput(lesson_fs_name(h->l), TEXT_LINE, f);
		headless_line(f, init->disk.device[0] ? " " : "", init->disk.device, ", kernel ");
		headless_line(f, "", h->kernel, "\n");
		headless_text_trace(f, h->l);
		if (lesson_place_note(h->l)[0] != '\0')
			headless_line(f, "scratch  ", lesson_place_note(h->l), "\n");
		if (init->cache.note[0] != '\0')
			headless_line(f, "note     ", init->cache.note, "\n");
		if (init->disk.note[0] != '\0')
			headless_line(f, "note     ", init->disk.note, "\n");
		if (intro != NULL) {
			fputc('\n', f);
			said_text(f, "  ", headless_wrap, s->path, iv, in);
		}
		break;
	case APP_FORMAT_JSON:
		fprintf(f, "{\"format_version\":%d,\"scenario\":{\"title\":", HEADLESS_JSON_VERSION);
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
		json_string(f, intro);
		said_json(f, "intro_sentences", iv, in);
		fputs("},\"steps\":[", f);
		break;
	case APP_FORMAT_TAP:
		fputs("TAP version 13\n# ", f);
		said_tap_text(f, s->title);
		fputc('\n', f);
		if (lesson_place_note(h->l)[0] != '\0') {
			fputs("# ", f);
			said_tap_text(f, lesson_place_note(h->l));
			fputc('\n', f);
		}
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
		const struct sweep_variant *bv = &sr->sweep->variants[v];
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

/* JSON: what tracing adds to a call here, or null and why. */
static void
headless_json_tracing(FILE *f, const struct lesson *l)
{
	const struct runner_overhead *o = lesson_tracing_overhead(l);

	if (o->measured)
		fprintf(f, ",\"tracing\":{\"null_call_usec\":%.3f,\"null_call_traced_usec\":%.3f}",
		        o->bare_ns / 1e3, o->traced_ns / 1e3);
	else if (lesson_trace_source(l) != EV_SRC_PTRACE)
		fputs(",\"tracing\":null,\"tracing_why\":\"not traced: the times are the calls' own\"", f);
	else
		fputs(",\"tracing\":null,\"tracing_why\":\"the null call could not be timed\"", f);
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
			headless_line(f, "\nerror: ", error, "\n");
		fprintf(f, "\n%zu held, %zu failed, %zu not observable here%s\n", h->n_held,
		        h->n_failed, h->n_unobservable, h->o->strict && h->n_unobservable > 0 ?
		        " (--strict: counted as failed)" : "");
		fprintf(f, "sentences: %zu held, %zu unchecked here, %zu false here\n", h->n_said,
		        h->n_unchecked, h->n_false);
		fprintf(f, "%s\n", !h->ok && h->n_failed == 0 && h->n_false > 0 ?
		        "SOME SENTENCES ARE FALSE HERE" : !h->ok ? "SOME EXPECTATIONS FAILED" :
		        h->n_unobservable > 0 ?
		        "no expectation failed; some could not be observed here" :
		        "all expectations held");
		break;
	case APP_FORMAT_JSON:
		fprintf(f, "\n],\"ok\":%s,\"counts\":{\"held\":%zu,\"failed\":%zu,"
		        "\"not_observable\":%zu},\"sentences\":{\"held\":%zu,\"unchecked\":%zu,"
		        "\"false\":%zu},\"strict\":%s,\"error\":", h->ok ? "true" : "false",
		        h->n_held, h->n_failed, h->n_unobservable, h->n_said, h->n_unchecked,
		        h->n_false, h->o->strict ? "true" : "false");
		json_string(f, error);
		fputs(",\"environment\":{\"kernel\":", f);
		json_string(f, h->kernel);
		fputs(",\"fs\":", f);
		json_string(f, lesson_fs_name(h->l));
		fprintf(f, ",\"device\":");
		json_string(f, init->disk.device[0] ? init->disk.device : NULL);
		fprintf(f, ",\"cachestat\":%s,\"cache_source\":\"%s\",\"fiemap\":%s,\"trace\":\"%s\","
		        "\"version\":\"%s\"",
		        init->cache.source == SNAP_SRC_CACHESTAT ? "true" : "false",
		        probe_cache_source_name(init->cache.source),
		        init->disk.source == SNAP_SRC_FIEMAP ? "true" : "false",
		        lesson_trace_source(h->l) == EV_SRC_PTRACE ? "ptrace" : "procio",
		        PACKAGE_VERSION);
		headless_json_tracing(f, h->l);
		fputs("}}\n", f);
		break;
	case APP_FORMAT_TAP:
		if (error != NULL) {
			fputs("Bail out! ", f);
			said_tap_text(f, error);
			fputc('\n', f);
		}
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
headless_sweep_progress(const struct sweep_progress *p, void *user)
{
	char line[160];

	(void)user;
	/* Ours the only control: the progress line itself may name a scenario's variant. */
	fputs("\r\033[K", stderr);
	text_fput(sweep_print_progress(p, line, sizeof line), TEXT_LINE, stderr);
	fflush(stderr);
	return 0;
}

/* Run the scenario headless. */
int
headless_run(const struct scenario *s, const struct app_opts *o)
{
	struct runner_opts ro = { .dir = o->dir, .trace = o->trace, .budget = o->budget,
	                          .sweep_dirs = o->dirs, .n_sweep_dirs = o->n_dirs,
	                          .probe = o->probe, .timeout = o->timeout };
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
		headless_line(stderr, "iobufviz: ", err != NULL ? err : "out of memory", "\n");
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
		h.n_said += sr->n_sentences - sr->n_unchecked - sr->n_false;
		h.n_unchecked += sr->n_unchecked;
		h.n_false += sr->n_false;
		if (!sr->ok || (o->strict && (sr->n_unobservable > 0 || sr->n_unchecked > 0)))
			h.ok = false;
		/* A sweep that could not run (at all, or a row for want of space) is the
		 * environment's failure, not a lesson's. */
		if (!sweep_failed && headless_sweep_env(sr, envmsg, sizeof envmsg))
			sweep_failed = true;
		if (o->export_fmt != NULL) {
			/* --export: the sweep tables alone, nothing else on stdout. */
			if (sr->sweep != NULL) {
				sweep_export(stdout, sr->sweep, o->export_fmt);
			} else if (sr->ret < 0 && sr->step->op == SCN_OP_SWEEP) {
				fprintf(stderr, "iobufviz: step %zu: ", sr->index + 1);
				headless_line(stderr, "", sr->note, "\n");
			}
		} else switch (o->format) {
		case APP_FORMAT_TEXT: headless_text_step(&h, sr); break;
		case APP_FORMAT_JSON: headless_json_step(&h, sr); break;
		case APP_FORMAT_TAP: headless_tap_step(&h, sr); break;
		}
		/* A run past its --timeout ends here: the environment's bound, not the lesson's. */
		if (sr->timed_out) {
			snprintf(envmsg, sizeof envmsg, "step %zu: the run took longer than its "
			         "timeout of %g s (--timeout): stopped, nothing left behind",
			         sr->index + 1, o->timeout);
			err = envmsg;
			break;
		}
	}
	if (o->export_fmt == NULL)
		headless_end(&h, err != NULL ? err : sweep_failed ? envmsg : NULL);
	lesson_free(h.l);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "iobufviz: cannot write the transcript\n");
		return APP_EXIT_ENV;
	}
	if (err == envmsg)
		fprintf(stderr, "iobufviz: %s\n", envmsg);
	if (err != NULL || sweep_failed)
		rc = APP_EXIT_ENV;
	else if (!h.ok)
		rc = APP_EXIT_FAILED;
	return rc;
}
