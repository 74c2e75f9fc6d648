/* SPDX-License-Identifier: MIT */
/* step/step.h: what one step did and left behind, and how its expectations came out. */
#ifndef IOBUFVIZ_STEP_H
#define IOBUFVIZ_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"
#include "trace/event.h"
#include "scenario/scenario.h"
#include "step/snapshot-diff.h"
#include "probe/snapshot.h"

struct sweep_result;
struct crash_view;

/* How one expectation came out: held, failed, or about a fact this run cannot observe. */
enum expect_outcome {
	EXPECT_HELD,
	EXPECT_FAILED,
	EXPECT_NOT_OBSERVABLE,        /* got_text says why; neither held nor failed */
};

/* Outcome of one expectation. */
struct expect_result {
	const struct scn_expect *want;
	bool ok;                      /* outcome == EXPECT_HELD */
	int64_t got;                  /* numeric value observed (0 when not observable) */
	struct text_buf got_text;     /* as text, whole (outputs, errno names, modes); the
	                                 reason when not observable (expect_results_free) */
	enum expect_outcome outcome;
	bool contradicted;            /* not observable as an expectation (excused: writeback
	                                 took the file, btrfs ran O_DIRECT buffered, a crash lab's
	                                 stray writes, pages the kernel dropped), yet got was seen
	                                 and does not hold want: a sentence resting on it is
	                                 false here, by another writer (held means true) */
	bool by_strays;               /* not observable: a power cut kept what want says it
	                                 keeps, but stray writes had reached the device first
	                                 (expect_crash_kept); got_text is the reason, kept_text
	                                 what was got */
	struct text_buf kept_text;
};

/* How one sentence of narration came out here (doc/scenarios.md, section 5). */
enum sentence_outcome {
	SENTENCE_HELD,                /* every fact it rests on held: shown as written */
	SENTENCE_UNCHECKED,           /* a fact it rests on is not observable here: shown,
	                                 marked, with why */
	SENTENCE_FALSE,               /* a fact it rests on is false here and no alternative
	                                 held: not shown; the step fails */
};

/* One sentence as this run tells it. */
struct sentence_result {
	char *text;                   /* its facts filled in, made safe (base/text.c) */
	enum sentence_outcome outcome;
	struct text_buf why;          /* unchecked: the reason; false: the fact, and what was
	                                 seen instead; whole (sentence_result_clear) */
	int line, col;                /* where it is written in the scenario */
	bool rests;                   /* it names a fact (a sentence without marks is told as
	                                 written, checked by nothing) */
	bool background;              /* marked [background]: not about this run; shown as
	                                 background, never as held */
	bool by_other;                /* false here, by what another writer did (the kernel's
	                                 writeback, a sync() elsewhere: its expectation is not
	                                 observable here): shown false, not the lesson's failure */
};

/* What the kernel did to the file between the previous step's end and this step's start (a
 * person's pace: --pace, or the TUI's user thinking): seconds is that time; writebacks the
 * kernel's own of the file that began in it (probe/wbwatch.c), device_writes the crash lab's
 * device's write requests in it (a journal commit, writeback, a sync() elsewhere); each *_at
 * is when they were first seen, seconds after the previous step ended (-1: not known, only
 * that it was within seconds). All 0 for the first step. dev_step: the last pause up to this
 * one in which device writes were seen was after step dev_step (1-based; 0: none), its first
 * write dev_at seconds after it (-1: not timed). */
struct step_pause {
	double seconds;
	uint64_t writebacks;
	double writeback_at;
	uint64_t device_writes;
	double device_at;
	size_t dev_step;
	double dev_at;
	uint64_t commits;             /* the crash lab's journal's commits begun in it (ext4's
	                                 timer, or a sync() elsewhere) */
	double commit_at;             /* when the first began, as *_at above */
	double waited;                /* of seconds, how long the pause went on past --pace for a
	                                 journal commit that came due in it (late by its timer's
	                                 rounding or the machine's load), so that its writes are
	                                 the pause's, not the next step's; 0: none */
};

/* Everything one step did and left behind. */
struct step_result {
	size_t index;                 /* 0-based */
	const struct scn_step *step;
	int64_t ret;                  /* the op's return value (-1 on error) */
	int err;                      /* errno of the op, 0 if none */
	uint64_t op_ns;               /* the whole op timed inside the worker (clock_gettime) */
	struct event_list events;
	struct snapshot before, after;
	struct expect_result *expects;
	size_t n_expects;
	bool ok;                      /* no expectation failed (set by expect_eval) */
	size_t n_unobservable;        /* expectations on facts this run cannot observe */
	bool stopped;                 /* stopped by the user (runner_poll_fn, progress): its
	                                 expectations are not checked */
	bool timed_out;               /* stopped (as above) by the run's --timeout */
	bool declined;                /* a run step the user did not allow: nothing ran (err
	                                 EPERM, ret -1; no call of the program's failed) */
	char *output;                 /* pty (terminal) / tail output; NULL if none */
	char *output_file;            /* pty: file output */
	char *file_content;           /* the scratch file after the step, read only when the step
	                                 expects file.content or file.prefix; else NULL */
	struct sweep_result *sweep;   /* sweep steps: the timed results (sweep/sweep.h); else NULL */
	uint64_t device_stray;        /* with a crash lab: write requests no step waited for that
	                                 had reached its device by the end of this step (a
	                                 journal's timer, writeback, a sync() elsewhere) */
	struct step_pause pause;      /* the kernel between the previous step and this one */
	uint64_t evicted;             /* pages of the file the kernel dropped from the cache
	                                 between two steps (memory pressure), in all the pauses
	                                 up to this step's (changes says this pause's); 0: none,
	                                 or not counted (lesson/lesson.c counts them) */
	bool writeback_unwatched;     /* the file exists and its writebacks cannot be counted
	                                 here (no tracefs for this user): kernel_writeback's 0
	                                 says nothing */
	uint64_t kernel_writeback;    /* writebacks of the file by the kernel's own (its flusher
	                                 threads, a sync() or syncfs() from anyone) begun since the
	                                 lesson began or last wrote the file back itself (a step
	                                 that waits for the disk left it clean, none of them
	                                 running), up to this step's snapshot; 0: none, or not
	                                 counted here (probe/wbwatch.c) */
	struct crash_view *crash;     /* both crashes at this step (crash/crash.h): a crash step's,
	                                 one made after the step (--crash-fs's headless run, the
	                                 TUI's x); NULL: none */
	char *say;                    /* the narration as shown: the sentences of the case's or
	                                 step's say that are not false here, their facts filled in
	                                 (lesson/narrate.c); NULL if none */
	struct sentence_result *sentences; /* each sentence told, in order, and each false one
	                                      (not in say), n_sentences of them */
	size_t n_sentences;
	size_t n_unchecked, n_false;  /* of them, unchecked here and false here */
	size_t n_false_other;         /* of the false ones, by another writer (by_other) */
	struct text_buf note;         /* the engine's own remark (fallbacks, worker death), its
	                                 sentences after "; " (runner_note), whole however long
	                                 the user text in it (step_result_clear) */
	uint64_t output_len;          /* bytes printed in all, when output keeps only the first
	                                 of them; 0: output is all of it */
	struct snapshot_diff changes; /* what the kernel did between steps and in this one */
	const char *label;            /* the log's name for the step (a traced program's call:
	                                 "openat", "fputc"); NULL: its op's name */
	bool folded;                  /* a traced program's run of calls folded into one step:
	                                 the log shows it as one line */
	struct snapshot_origins origins; /* where its cached pages came from, when it asked for
	                                 * pages (lesson_origins) */
};

/* The narration to show for sr: its filled-in say, else its step's as written; NULL: none. */
const char *step_result_say(const struct step_result *sr);

/* Free what one expectation result R owns (its texts). */
void expect_result_clear(struct expect_result *r);

/* Free N expectation results V (their texts and the array). NULL is fine. */
void expect_results_free(struct expect_result *v, size_t n);

/* Free what sentence result v owns (its text and why); v is empty again. */
void sentence_result_clear(struct sentence_result *v);

/* Free N sentence results V (their texts and the array). NULL is fine. */
void sentence_results_free(struct sentence_result *v, size_t n);

/* Free what a step_result owns. */
void step_result_clear(struct step_result *sr);

#endif
