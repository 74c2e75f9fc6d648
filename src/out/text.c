/* SPDX-License-Identifier: MIT */
/* out/text.c: the text transcript: a header, each step's call, calls, state and narration, a
 * verdict; every untrusted string made safe for a terminal (base/text.c). */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/units.h"
#include "crash/crash.h"
#include "crash/hazard.h"
#include "lesson/expect.h"
#include "lesson/narrate.h"
#include "out/transcript.h"
#include "prog/srcloc.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "table/print.h"

/* Glyph of a page-cache cell of s in plain text: '+' is cached, dirty unknown or (tmpfs) not
 * a thing the file can be. */
static char
out_text_cell_glyph(const struct snapshot *s, const struct snap_cell *cell)
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
out_text_wrap_words(FILE *f, const char *indent, const char *p, size_t n)
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
out_text_wrap(FILE *f, const char *indent, const char *text)
{
	char *safe = text_safe_dup(text, TEXT_BLOCK);
	const char *p = safe, *run = NULL;

	if (safe == NULL)
		return;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		bool verbatim = p[0] == ' ' || p[0] == '\t', blank = len == 0;

		if ((verbatim || blank) && run != NULL) {
			out_text_wrap_words(f, indent, run, (size_t)(p - run));
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
		out_text_wrap_words(f, indent, run, (size_t)(p - run));
	free(safe);
}

/* Print prefix, then s as one escaped record (TEXT_LINE), then suffix. */
static void
out_text_line(FILE *f, const char *prefix, const char *s, const char *suffix)
{
	fputs(prefix, f);
	text_fput(s, TEXT_LINE, f);
	fputs(suffix, f);
}

/* The stdio, cache and disk lines of a snapshot. */
static void
out_text_state(FILE *f, const struct snapshot *s)
{
	char a[32], b[32], c[32];

	if (!s->stdio.open)
		fprintf(f, "  stdio   no FILE* open\n");
	else if (s->stdio.size == 0)
		fprintf(f, "  stdio   FILE* on fd %d, %s, buffer not allocated yet (glibc allocates "
		        "it at the first I/O)\n", s->stdio.fd, scenario_bufmode_name(s->stdio.mode));
	else {
		fprintf(f, "  stdio   FILE* on fd %d, %s, buffer %" PRIu64 " B, pending %" PRIu64 " B",
		        s->stdio.fd, scenario_bufmode_name(s->stdio.mode), s->stdio.size, s->stdio.pending);
		if (s->stdio.read_avail > 0)
			fprintf(f, ", %" PRIu64 " B read ahead", s->stdio.read_avail);
		fputc('\n', f);
	}
	/* Where the lesson acts on more than one file: which one the cache and disk show. */
	if (s->file_name[0] != '\0')
		out_text_line(f, "  file    ", s->file_name, "\n");
	if (s->cache.source == SNAP_SRC_NONE)
		out_text_line(f, "  cache   not observable: ", s->cache.note, "\n");
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
				putc(out_text_cell_glyph(s, &s->cache.cells[i]), f);
			putc(']', f);
		}
		fputc('\n', f);
	}
	if (s->disk.source == SNAP_SRC_NONE)
		out_text_line(f, "  disk    ", s->disk.note, "\n");
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

/* Both crashes at a step: what each left of the file, what reached the device, what the
 * kernel said while it recovered the copy. */
static void
out_text_crash(const struct transcript *t, FILE *f, const struct crash_view *v)
{
	char line[512];

	if (v->after_s >= 1.0)
		fprintf(f, "  crash   made %.1f s after the step before\n", v->after_s);
	text_fline(f, "  crash   ", transcript_crash_line(v, false, line, sizeof line), "\n");
	if (!transcript_crash_said(t, v))
		text_fline(f, "  crash   ", transcript_crash_line(v, true, line, sizeof line), "\n");
	/* The lines that tell what recovery did (the JSON transcript has them all). */
	for (size_t i = 0; i < v->power.n_recovery; i++)
		if (crash_recovery_tells(v->power.recovery[i]))
			text_fline(f, "  crash   kernel: ", v->power.recovery[i], "\n");
}

/* The calls of a step, one a line. */
static void
out_text_events(FILE *f, const struct step_result *sr)
{
	const struct event_list *l = &sr->events;
	char line[256], safe[512], t[32], tag[32];

	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		event_format(e, line, sizeof line);
		text_safe(line, TEXT_LINE, safe, sizeof safe);
		snprintf(tag, sizeof tag, "[%s]", scenario_names_of(scn_origin_words, (int)e->origin));
		fprintf(f, "  %-52s %-*s %s%s\n", safe, scenario_names_width(scn_origin_words) + 2, tag,
		        units_format_ns(e->ns, t, sizeof t),
		        e->ns_traced ? "*" : "");
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

/* The told sentences of V (N) after INDENT, each unchecked one marked [?K] with its reason on
 * "  ? [?K] not observable here: ..." below; each false one (not told) as a failure line
 * "  FALSE here: "..." (why; PATH:LINE:COL)", or "  FALSE here, by another writer: ..." when
 * another writer made it false (sentence_result.by_other). */
static void
out_text_said(struct transcript *t, const char *indent, const struct sentence_result *v,
              size_t n)
{
	char *marked = narrate_marked(v, n);
	unsigned k = 0;

	if (marked != NULL && marked[0] != '\0')
		out_text_wrap(t->f, indent, marked);
	free(marked);
	for (size_t i = 0; i < n; i++) {
		char tag[48];
		if (v[i].outcome == SENTENCE_UNCHECKED) {
			snprintf(tag, sizeof tag, "  ? [?%u] not observable here: ", ++k);
			out_text_line(t->f, tag, text_str(&v[i].why), "\n");
		} else if (v[i].outcome == SENTENCE_FALSE) {
			char *line = narrate_line(v[i].text);
			/* False by what another writer did is not the lesson's failure: said so. */
			out_text_line(t->f, v[i].by_other ? "  FALSE here, by another writer: \"" :
			              "  FALSE here: \"", line != NULL ? line : v[i].text, "\"");
			out_text_line(t->f, " (", text_str(&v[i].why), "; ");
			out_text_line(t->f, "", t->path, "");
			fprintf(t->f, ":%d:%d)\n", v[i].line, v[i].col);
			free(line);
		}
	}
}

/* Each expectation: ok / FAIL / skip, the key, what was wanted, what was seen and where. */
static void
out_text_expects(struct transcript *t, const struct step_result *sr)
{
	/* The outcomes as text shows them, beside TAP's ok / not ok. */
	static const char *const label[] = {
		[EXPECT_HELD] = "ok  ", [EXPECT_FAILED] = "FAIL", [EXPECT_NOT_OBSERVABLE] = "skip",
	};
	FILE *f = t->f;
	char want[300];

	for (size_t i = 0; i < sr->n_expects; i++) {
		const struct expect_result *x = &sr->expects[i];
		enum expect_outcome oc = transcript_outcome(t, x);

		fprintf(f, "  %s %s ", label[oc], scenario_key_name(x->want->key));
		text_fput(expect_format_want(x->want, want, sizeof want), TEXT_LINE, f);
		if (x->outcome == EXPECT_NOT_OBSERVABLE)
			out_text_line(f, "  (not observable here: ", text_str(&x->got_text),
			              oc == EXPECT_FAILED ? "; --strict" : ")");
		else if (oc == EXPECT_FAILED)
			out_text_line(f, "  (got ", text_str(&x->got_text), "");
		if (oc == EXPECT_FAILED) {
			out_text_line(f, "; ", t->path, "");
			fprintf(f, ":%d:%d)", x->want->line, x->want->col);
		}
		fputc('\n', f);
	}
}

/* A lesson's step: the call and its result, its calls, state, what changed, narration,
 * expectations. */
static void
out_text_lesson_step(struct transcript *t, const struct transcript_step *st)
{
	const struct step_result *sr = st->sr;
	FILE *f = t->f;
	char tm[32], pause[640];

	fprintf(f, "\nstep %zu/%zu  ", sr->index + 1, t->n_steps);
	text_fput(st->call, TEXT_LINE, f);
	if (sr->step->op != SCN_OP_NOTE) {
		/* No errno (a worker killed mid-call, seen without ptrace): the note says why. */
		if (sr->ret < 0 && sr->err == 0)
			fputs("  -> -1", f);
		else if (sr->ret < 0)
			fprintf(f, "  -> -1 %s (%s)", scenario_errno_name(sr->err), strerror(sr->err));
		else
			fprintf(f, "  -> %" PRId64, sr->ret);
		fprintf(f, "  [%s%s]", units_format_ns(sr->op_ns, tm, sizeof tm), st->traced ? "*" : "");
	}
	fputc('\n', f);
	/* What the kernel did while the person paused before this step. */
	if (transcript_pause_text(sr, pause, sizeof pause) != NULL)
		out_text_line(f, "  pause   ", pause, "\n");
	out_text_events(f, sr);
	if (sr->note.len > 0)
		out_text_line(f, "  note    ", text_str(&sr->note), "\n");
	if (sr->sweep != NULL) {
		fputc('\n', f);
		sweep_print_text(f, sr->sweep, t->sweep_flags);
	} else if (sr->step->op != SCN_OP_NOTE && sr->step->op != SCN_OP_SWEEP)
		out_text_state(f, &sr->after);
	if (sr->crash != NULL)
		out_text_crash(t, f, sr->crash);
	for (size_t i = 0; i < sr->changes.n; i++)
		out_text_wrap(f, "  > ", sr->changes.v[i].text);
	if (sr->origins.valid) {
		char o[512], line[600];
		snapshot_origins_text(&sr->origins, scenario_names_of(scn_sources,
		                      (int)sr->after.cache.source), o, sizeof o);
		snprintf(line, sizeof line, "The pages cached: %s.", o);
		out_text_wrap(f, "  > ", line);
	}
	if (sr->output != NULL)
		out_text_line(f, "  output  ", sr->output, "\n");
	if (sr->output_file != NULL)
		out_text_line(f, "  file    ", sr->output_file, "\n");
	/* A note step's own text, when it has a say of its own (shown below): without one, its
	 * text is its say (load/step.c), shown below with its marks rendered. */
	if (sr->step->op == SCN_OP_NOTE && sr->step->args.text != NULL &&
	    (sr->step->say == NULL || strcmp(sr->step->say, sr->step->args.text) != 0))
		out_text_wrap(f, "  | ", sr->step->args.text);
	if (sr->n_sentences > 0)
		out_text_said(t, "  | ", sr->sentences, sr->n_sentences);
	else if (step_result_say(sr) != NULL)
		out_text_wrap(f, "  | ", step_result_say(sr));
	out_text_expects(t, sr);
}

/* What a program step's own stream holds, and every other stream of its process that has a
 * buffer and is new or changed since the transcript last showed it, or is gone (own: the
 * step has a file, whose stream the state shows). */
static void
out_text_streams(FILE *f, const struct transcript_prog_step *p, bool own_shown)
{
	const struct prog_run_step *s = p->run;
	const struct snap_stdio *own = &s->sr.after.stdio;
	char q[300];

	if (own_shown && own->open && own->head_len > 0)
		fprintf(f, "  holds   %s%s\n", text_quote(own->head, own->head_len, q, sizeof q),
		        (own->pending > 0 ? own->pending : own->read_avail) > own->head_len ? "..." : "");
	for (size_t i = 0; i < s->n_streams; i++) {
		const struct prog_run_stream *x = &s->streams[i];
		/* The step's own stream is on the stdio line (another FILE on its fd is not). */
		if (x->st.buf_size == 0 || (own_shown && own->open && x->st.fd == own->fd &&
		                            (s->ps.file == 0 || x->st.addr == s->ps.file)))
			continue;
		if (p->stream_changed != NULL && !p->stream_changed[i])
			continue;
		fprintf(f, "  FILE    %s on fd %d: %s, buffer %" PRIu64 " B, pending %" PRIu64 " B",
		        x->name != NULL ? x->name : "fp", x->st.fd,
		        x->st.mode == PROG_STREAM_UNBUFFERED ? "unbuffered" :
		        x->st.mode == PROG_STREAM_LINE ? "line buffered" : "fully buffered",
		        x->st.buf_size, x->st.pending);
		if (x->st.read_ahead > 0)
			fprintf(f, ", %" PRIu64 " B read ahead", x->st.read_ahead);
		if (x->head_len > 0)
			fprintf(f, ": %s%s", text_quote(x->head, x->head_len, q, sizeof q),
			        (x->st.pending > 0 ? x->st.pending : x->st.read_ahead) > x->head_len ?
			        "..." : "");
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->n_streams_closed; i++)
		if (p->streams_closed[i].st.buf_size > 0)
			fprintf(f, "  FILE    %s on fd %d: gone (closed)\n",
			        p->streams_closed[i].name != NULL ? p->streams_closed[i].name : "fp",
			        p->streams_closed[i].st.fd);
}

/* The line of the program that made a step: "line 13 in save(), called from line 26
 * (/tmp/lines.c)"; without -g, the function and address, and once a hint. */
static void
out_text_source(struct transcript *t, const struct prog_src *src)
{
	char buf[PROG_SRC_FILE + 3 * PROG_SRC_FUNC];

	if (src->pc == 0)
		return;
	prog_srcloc_format(src, buf, sizeof buf);
	out_text_line(t->f, "  source  ", buf, "");
	if (src->file[0] != '\0')
		out_text_line(t->f, " (", src->file, ")");
	if (src->line == 0 && !t->src_hint_said) {
		fputs("  (no line: build the program with -g to see its source lines)", t->f);
		t->src_hint_said = true;
	}
	fputc('\n', t->f);
}

/* A program's step: its call, the file it touched, the state it left, what changed. */
static void
out_text_prog_step(struct transcript *t, const struct transcript_step *st)
{
	const struct transcript_prog_step *p = st->prog;
	const struct step_result *sr = st->sr;
	FILE *f = t->f;

	/* Known at the first look at its memory: said once, where it was found. */
	if (p->stdio_note != NULL)
		out_text_line(f, "\nnote     ", p->stdio_note, "\n");
	fprintf(f, "\nstep %zu  ", sr->index + 1);
	/* Its strings are C literals already (text_quote): their backslashes stay single. */
	text_fput(st->call, TEXT_BLOCK, f);
	fputs(p->reaches_disk ? "  [reaches the disk]\n" : "\n", f);
	out_text_source(t, &p->ps->src);
	if (p->path != NULL) {
		out_text_line(f, "  file    ", p->name != NULL ? p->name : p->path, "");
		if (p->label != NULL)
			fprintf(f, "  (the program's %s, kept by iobufviz)", p->label);
		fputc('\n', f);
	}
	if (sr->note.len > 0)
		out_text_line(f, "  note    ", text_str(&sr->note), "\n");
	if (p->path != NULL)
		out_text_state(f, &sr->after);
	if (p->run != NULL)
		out_text_streams(f, p, p->path != NULL);
	if (sr->crash != NULL)
		out_text_crash(t, f, sr->crash);
	for (size_t i = 0; i < sr->changes.n; i++)
		out_text_line(f, "  > ", sr->changes.v[i].text, "\n");
}

/* One step. */
static void
out_text_step(struct transcript *t, const struct transcript_step *st)
{
	if (st->prog != NULL)
		out_text_prog_step(t, st);
	else
		out_text_lesson_step(t, st);
}

/* How the calls were seen, and what that does to the times shown. */
static void
out_text_trace(FILE *f, const struct out_env *e)
{
	const struct runner_overhead *o = e->tracing;
	char a[32], b[32];

	if (e->trace != EV_SRC_PTRACE) {
		fputs("trace    /proc/PID/io: stdio's calls as counts and totals only; times are "
		      "the calls' own\n", f);
		return;
	}
	fputs("trace    ptrace: every call, exact; times marked * include tracing\n", f);
	/* On a line of its own: the header fits 100 columns. */
	if (o != NULL)
		fprintf(f, "         (tracing adds about %s to each system call here; a null call "
		        "takes %s untraced)\n",
		        units_format_ns((uint64_t)(o->traced_ns - o->bare_ns), a, sizeof a),
		        units_format_ns((uint64_t)o->bare_ns, b, sizeof b));
}

/* The head: what runs, where, how it is traced; a lesson's notes and intro. */
static void
out_text_begin(struct transcript *t)
{
	FILE *f = t->f;

	if (t->prog != NULL) {
		out_text_line(f, "program  ", t->title, "\n");
		out_text_line(f, "dir      ", t->file, "\n");
		if (t->place_note != NULL)
			out_text_line(f, "lab      ", t->place_note, "\n");
		fputs("trace    ptrace + seccomp: every call on a regular file; stdio calls through "
		      "the shim\n", f);
		if (t->prog->confined != NULL)
			out_text_line(f, "confined ", t->prog->confined, "\n");
		return;
	}
	text_fput(t->title, TEXT_LINE, f);
	/* The source on a line of its own, so that the header fits 100 columns. */
	if (t->source != NULL)
		out_text_line(f, "\nsource   ", t->source, "");
	out_text_line(f, "\nscenario ", t->path, "\n");
	out_text_line(f, "file     ", t->file, " on ");
	text_fput(t->env.fs, TEXT_LINE, f);
	out_text_line(f, t->env.device[0] ? " " : "", t->env.device, ", kernel ");
	out_text_line(f, "", t->env.kernel, "\n");
	out_text_trace(f, &t->env);
	if (t->place_note != NULL)
		out_text_line(f, "scratch  ", t->place_note, "\n");
	for (size_t i = 0; i < sizeof t->notes / sizeof t->notes[0]; i++)
		if (t->notes[i] != NULL)
			out_text_line(f, "note     ", t->notes[i], "\n");
	if (t->intro_n > 0) {
		fputc('\n', f);
		out_text_said(t, "  ", t->intro_v, t->intro_n);
	} else if (t->intro != NULL) {
		fputc('\n', f);
		out_text_wrap(f, "  ", t->intro);
	}
}

/* The end: a program's output and totals, or a lesson's counts and verdict. */
static void
out_text_end(struct transcript *t)
{
	const struct transcript_program *p = t->prog;
	FILE *f = t->f;
	char ended[96];

	if (p != NULL && p->output[0] != NULL)
		out_text_line(f, "\noutput   ", p->output[0], "\n");
	if (t->error != NULL)
		out_text_line(f, "\nerror: ", t->error, "\n");
	if (p != NULL) {
		fprintf(f, "\nprogram  %s; %zu steps: %" PRIu64 " read calls (%" PRIu64 " B), %"
		        PRIu64 " write calls (%" PRIu64 " B), %" PRIu64 " stdio calls; %" PRIu64
		        " calls of the dynamic loader on its libraries not shown\n",
		        transcript_ended(p, ended, sizeof ended), t->n_written, p->n_read, p->b_read,
		        p->n_write, p->b_written, p->n_stdio, p->n_loader);
		if (p->unseen_note != NULL && p->unseen_note[0] != '\0')
			out_text_line(f, "note     ", p->unseen_note, "\n");
		if (p->n_hazards > 0)
			fputs("\ndurability: what a power cut could do to the files of this run\n", f);
		for (size_t i = 0; i < p->n_hazards; i++)
			out_text_wrap(f, "  ", p->hazards[i].text);
		return;
	}
	fprintf(f, "\n%zu held, %zu failed, %zu not observable here%s\n", t->n_held, t->n_failed,
	        t->n_unobservable, t->strict && t->n_unobservable > 0 ?
	        " (--strict: counted as failed)" : "");
	fprintf(f, "sentences: %zu held, %zu unchecked here, %zu false here", t->n_said,
	        t->n_unchecked, t->n_false);
	if (t->n_false_other > 0)
		fprintf(f, " (%zu by another writer, not the lesson: the kernel's writeback or a "
		        "sync elsewhere)", t->n_false_other);
	if (t->n_background > 0)
		fprintf(f, ", %zu background (not about this run)", t->n_background);
	fputc('\n', f);
	fprintf(f, "%s\n", !t->ok && t->n_failed == 0 && t->n_false > 0 ?
	        "SOME SENTENCES ARE FALSE HERE" : !t->ok ? "SOME EXPECTATIONS FAILED" :
	        t->n_unobservable > 0 ? "no expectation failed; some could not be observed here" :
	        "all expectations held");
}

const struct transcript_format out_text_format = {
	.name = "text",
	.begin = out_text_begin,
	.step = out_text_step,
	.end = out_text_end,
};
