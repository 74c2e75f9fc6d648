/* SPDX-License-Identifier: MIT */
/* out/transcript.c: one transcript writer for lessons and traced programs: counts what the
 * steps' expectations came to and hands the head, each step and the end to the format. */
#include <config.h>

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/grow.h"
#include "crash/crash.h"
#include "out/transcript.h"

/* Start t. */
void
transcript_init(struct transcript *t, const struct transcript_format *fmt, FILE *f)
{
	memset(t, 0, sizeof *t);
	t->fmt = fmt;
	t->f = f;
	t->ok = true;
	clock_gettime(CLOCK_MONOTONIC, &t->started);
	json_init(&t->j, f, 0);
}

/* True if stream a shows as b does: the same fd, mode, buffer, bytes held and first bytes. */
static bool
transcript_stream_same(const struct prog_run_stream *a, const struct prog_run_stream *b)
{
	return a->st.fd == b->st.fd && a->st.mode == b->st.mode &&
	       a->st.buf_size == b->st.buf_size && a->st.pending == b->st.pending &&
	       a->st.read_ahead == b->st.read_ahead && a->head_len == b->head_len &&
	       memcmp(a->head, b->head, a->head_len) == 0 &&
	       (a->name == b->name || (a->name != NULL && b->name != NULL &&
	                               strcmp(a->name, b->name) == 0));
}

/*
 * Step p's streams against what the transcript showed of its process: mark in changed[] the
 * ones to show (new, not as last shown, or on the fd of the step's own stream: a reader of
 * the step sees every FILE that shares its fd), count the rest, gather in *closed the ones
 * gone since (fclose), and remember them all as shown now. False if out of memory (then
 * every stream is shown, as before).
 */
static bool
transcript_streams_diff(struct transcript *t, struct transcript_prog_step *p, bool **changed,
                        struct prog_run_stream **closed)
{
	const struct prog_run_step *run = p->run;
	const struct snap_stdio *own = &run->sr.after.stdio;
	pid_t pid = p->ps->pid;
	size_t n_closed = 0, k;

	*changed = calloc(run->n_streams + 1, sizeof **changed);
	*closed = NULL;
	if (*changed == NULL)
		return false;
	for (size_t i = 0; i < t->n_seen; i++)
		t->seen[i].here = false;
	for (size_t i = 0; i < run->n_streams; i++) {
		const struct prog_run_stream *x = &run->streams[i];
		for (k = 0; k < t->n_seen; k++)
			if (t->seen[k].pid == pid && t->seen[k].s.st.addr == x->st.addr)
				break;
		if (k == t->n_seen) {
			void *v = grow(t->seen, &t->cap_seen, t->n_seen, sizeof *t->seen, 16);
			if (v == NULL) {
				free(*changed);
				*changed = NULL;
				return false;
			}
			t->seen = v;
			t->seen[t->n_seen++] = (struct transcript_stream_seen){ .pid = pid, .s = *x };
			(*changed)[i] = true;
		} else if (!transcript_stream_same(&t->seen[k].s, x) ||
		           (own->open && x->st.fd == own->fd)) {
			t->seen[k].s = *x;
			(*changed)[i] = true;
		} else {
			p->streams_unchanged++;
		}
		t->seen[k].here = true;
	}
	for (size_t i = 0; i < t->n_seen; i++)
		n_closed += t->seen[i].pid == pid && !t->seen[i].here;
	if (n_closed > 0 && (*closed = calloc(n_closed, sizeof **closed)) == NULL) {
		free(*changed);
		*changed = NULL;
		return false;
	}
	/* The gone ones leave the table, told once. */
	k = 0;
	for (size_t i = 0; i < t->n_seen; i++) {
		if (t->seen[i].pid == pid && !t->seen[i].here)
			(*closed)[p->n_streams_closed++] = t->seen[i].s;
		else
			t->seen[k++] = t->seen[i];
	}
	t->n_seen = k;
	p->streams_closed = *closed;
	p->stream_changed = *changed;
	return true;
}

/* Write the head. */
void
transcript_begin(struct transcript *t)
{
	t->fmt->begin(t);
}

/* How x counts in t. */
enum expect_outcome
transcript_outcome(const struct transcript *t, const struct expect_result *x)
{
	if (x->outcome == EXPECT_NOT_OBSERVABLE && t->strict)
		return EXPECT_FAILED;
	return x->outcome;
}

/* Sentence V of a step as a check: one false by another writer is not the lesson's failure
 * (not observable, as its expectation is); an unchecked one is failed under --strict, as a
 * fact not observable is. */
enum sentence_outcome
transcript_sentence_outcome(const struct transcript *t, const struct sentence_result *v)
{
	enum sentence_outcome oc = v->outcome == SENTENCE_FALSE && v->by_other ?
	                           SENTENCE_UNCHECKED : v->outcome;

	if (oc == SENTENCE_UNCHECKED && t->strict)
		return SENTENCE_FALSE;
	return oc;
}

/* An outcome's name in the transcript. */
const char *
transcript_outcome_name(enum expect_outcome oc)
{
	static const char *const names[] = {
		[EXPECT_HELD] = "held", [EXPECT_FAILED] = "failed",
		[EXPECT_NOT_OBSERVABLE] = "not_observable",
	};

	return (unsigned)oc < sizeof names / sizeof names[0] ? names[oc] : "failed";
}

/* A signal's name. */
const char *
transcript_signal_name(int sig, char *buf, size_t len)
{
	snprintf(buf, len, "SIG%s", sigabbrev_np(sig) != NULL ? sigabbrev_np(sig) : "?");
	return buf;
}

/* How a program ended, as one phrase. */
const char *
transcript_ended(const struct transcript_program *p, char *buf, size_t len)
{
	const struct prog_step *x = p->exit;
	char sig[32];

	if (x == NULL)
		snprintf(buf, len, "did not end (traced no further)");
	else if (x->signal != 0)
		snprintf(buf, len, "killed by %s%s", transcript_signal_name(x->signal, sig, sizeof sig),
		         x->timed_out ? " (timeout)" : "");
	else
		snprintf(buf, len, "exited %d%s", x->exit_code, p->timed_out ?
		         " (--timeout killed the processes it left)" : "");
	return buf;
}

/* One crash of a view as a line (see out/transcript.h). */
const char *
transcript_crash_line(const struct crash_view *v, bool power, char *buf, size_t len)
{
	char what[256], dev[192];

	snprintf(buf, len, "%s after %s: %s", v->file, power ? "a power cut" : "kill -9",
	         crash_half_phrase(power ? &v->power : &v->process, what, sizeof what));
	if (power && crash_half_device(&v->power, dev, sizeof dev)[0] != '\0')
		snprintf(buf + strlen(buf), len - strlen(buf), "  [%s]", dev);
	return buf;
}

/* True if v's power cut was not observed for the reason the head said once. */
bool
transcript_crash_said(const struct transcript *t, const struct crash_view *v)
{
	return !v->power.observed && v->power.why[0] != '\0' && t->place_note != NULL &&
	       strstr(t->place_note, v->power.why) != NULL;
}

/* Count what sr's expectations and sentences came to. */
void
transcript_count(struct transcript *t, const struct step_result *sr)
{
	size_t bg = 0;

	for (size_t i = 0; i < sr->n_expects; i++)
		switch (sr->expects[i].outcome) {
		case EXPECT_HELD: t->n_held++; break;
		case EXPECT_FAILED: t->n_failed++; break;
		case EXPECT_NOT_OBSERVABLE: t->n_unobservable++; break;
		}
	/* Background is not about this run: neither held nor checked. */
	for (size_t i = 0; i < sr->n_sentences; i++)
		bg += sr->sentences[i].background;
	t->n_background += bg;
	t->n_said += sr->n_sentences - sr->n_unchecked - sr->n_false - bg;
	t->n_unchecked += sr->n_unchecked;
	t->n_false += sr->n_false;
	t->n_false_other += sr->n_false_other;
	if (!sr->ok || (t->strict && (sr->n_unobservable > 0 || sr->n_unchecked > 0)))
		t->ok = false;
}

/* Count st's expectations, then write it. */
void
transcript_step(struct transcript *t, const struct transcript_step *st)
{
	struct transcript_step mine;
	struct transcript_prog_step prog;
	bool *changed = NULL;
	struct prog_run_stream *closed = NULL;

	transcript_count(t, st->sr);
	/* A program's step shows the streams that changed, not every stream of its process
	 * again (800 unbuffered streams written round robin were 600 MB of JSON). */
	if (st->prog != NULL && st->prog->run != NULL && st->prog->run->streams_known &&
	    st->prog->ps != NULL) {
		prog = *st->prog;
		prog.stream_changed = NULL;
		prog.streams_unchanged = prog.n_streams_closed = 0;
		prog.streams_closed = NULL;
		if (!transcript_streams_diff(t, &prog, &changed, &closed)) {
			prog.streams_unchanged = prog.n_streams_closed = 0;
			prog.stream_changed = NULL;
		}
		mine = *st;
		mine.prog = &prog;
		st = &mine;
	}
	t->fmt->step(t, st);
	t->n_written++;
	free(changed);
	free(closed);
}

/* Write the end. */
int
transcript_end(struct transcript *t, const char *error)
{
	t->error = error;
	t->fmt->end(t);
	free(t->seen);
	t->seen = NULL;
	t->n_seen = t->cap_seen = 0;
	if (json_finish(&t->j) != 0 || fflush(t->f) != 0 || ferror(t->f))
		return -1;
	return 0;
}

/* What the kernel did in the pause before a step (see out/transcript.h). */
const char *
transcript_pause_text(const struct step_result *sr, char *buf, size_t len)
{
	const struct step_pause *p = &sr->pause;
	char when[96];
	size_t n = 0;

	if (sr->index == 0 || len == 0 ||
	    (p->writebacks == 0 && p->device_writes == 0 && p->commits == 0 && p->waited < 0.05))
		return NULL;
	buf[0] = '\0';
	if (p->writebacks != 0) {
		if (p->writeback_at >= 0)
			snprintf(when, sizeof when, "%.1f s after step %zu", p->writeback_at, sr->index);
		else
			snprintf(when, sizeof when, "in the %.1f s after step %zu", p->seconds, sr->index);
		n += (size_t)snprintf(buf, len, "the kernel wrote the file back %s (%" PRIu64
		                      " writeback%s: its flusher threads or a sync() elsewhere)",
		                      when, p->writebacks, p->writebacks == 1 ? "" : "s");
	}
	if (p->commits != 0 && n < len) {
		if (p->commit_at >= 0)
			snprintf(when, sizeof when, "%.1f s after step %zu", p->commit_at, sr->index);
		else
			snprintf(when, sizeof when, "in the %.1f s after step %zu", p->seconds, sr->index);
		n += (size_t)snprintf(buf + n, len - n, "%sthe journal committed %s (%" PRIu64
		                      " commit%s: its timer, or a sync() elsewhere)", n ? "; " : "",
		                      when, p->commits, p->commits == 1 ? "" : "s");
	}
	if (p->device_writes != 0 && n < len) {
		if (p->device_at >= 0)
			snprintf(when, sizeof when, "%.1f s after step %zu", p->device_at, sr->index);
		else
			snprintf(when, sizeof when, "in the %.1f s after step %zu", p->seconds, sr->index);
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu64 " write%s reached the crash "
		                      "lab's device %s (a journal commit, writeback or a sync() "
		                      "elsewhere)", n ? "; " : "", p->device_writes,
		                      p->device_writes == 1 ? "" : "s", when);
	}
	/* Said, so that a pause longer than --pace is not taken for the person's. */
	if (p->waited >= 0.05 && n < len)
		snprintf(buf + n, len - n, "%sthe step waited %.1f s past the pace for %s",
		         n ? "; " : "", p->waited, p->commits != 0 ?
		         "the journal's commit that came due in the pause" :
		         "a journal commit that may have come due in the pause (none came)");
	return buf;
}
