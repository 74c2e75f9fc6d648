/* SPDX-License-Identifier: MIT */
/* out/transcript.h: one transcript writer for lessons and traced programs: what a format is
 * given (the head, each step, the end) and the table of formats. */
#ifndef IOBUFVIZ_TRANSCRIPT_H
#define IOBUFVIZ_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "base/json.h"
#include "step/step.h"
#include "out/env.h"
#include "prog/run.h"
#include "prog/trace.h"

/*
 * A transcript is written by a walk (headless/headless.c walks a lesson,
 * headless/prog-headless.c a traced program) that fills the structures below and calls
 * transcript_begin, then transcript_step per step, then transcript_end. A format is one file
 * (out/text.c, json.c, tap.c, gradescope.c, export/html.c): three functions that write them,
 * and one line in headless/transcript-format.c's table. A format
 * that writes JSON uses t->j (on t->f; transcript_end finishes it); one that embeds another
 * format's output can call that format's functions with t->j made a buffer writer.
 */

/* A traced program, beyond what a lesson has. */
struct crash_hazard;
struct crash_view;

struct transcript_program {
	char *const *argv;
	const char *dir;                   /* its working directory */
	const char *confined;              /* what it cannot do (prog/launch.h), or NULL */
	/* Known at the end (the walk fills them before transcript_end). */
	const struct prog_step *exit;      /* how the first process ended; NULL: it did not */
	const char *stdio_note;            /* why its stdio cannot be seen; "" if it can */
	const char *unseen_note;           /* what it did that no tracer sees; "" or NULL if nothing */
	uint64_t n_read, n_write, b_read, b_written, n_stdio, n_other, n_loader;
	const struct prog_stats *tracer;   /* what the tracer did (its cost), or NULL */
	bool timed_out;                    /* --timeout passed: every process it made was killed
	                                    * (the first may have ended before, on its own) */
	char *output[2];                   /* stdout, stderr: the first bytes, or NULL */
	uint64_t output_bytes[2];          /* how many bytes in all */
	const struct crash_hazard *hazards; /* what its calls risk in a power cut (crash/hazard.h) */
	size_t n_hazards;
};

/* A program's step, beyond what a lesson's step has. */
struct transcript_prog_step {
	const struct prog_step *ps;        /* its kind, pid, stdio call or exit */
	const struct prog_run_step *run;   /* its calls folded, its streams */
	const char *path;                  /* the file it touched, or NULL */
	const char *name;                  /* that file as the program names it, or NULL */
	const char *label;                 /* "stdout"/"stderr" when iobufviz keeps it, else NULL */
	bool reaches_disk;                 /* it asks for the data to reach the disk */
	const char *stdio_note;            /* why stdio cannot be seen, first known at this step */
	/* Filled by transcript_step: which of run's streams the transcript has not yet shown as
	 * they are now (NULL: all of them), how many it leaves out as the last step showed
	 * them, and the streams of the process gone since its last step (fclose). */
	const bool *stream_changed;
	size_t streams_unchanged;
	const struct prog_run_stream *streams_closed;
	size_t n_streams_closed;
};

/* A stream of a program's process as the transcript last showed it. */
struct transcript_stream_seen {
	pid_t pid;
	struct prog_run_stream s;
	bool here;                         /* (during transcript_step) in the step's list */
};

/* One step, as every format is given it. */
struct transcript_step {
	const struct step_result *sr;      /* what it did and left behind */
	const char *op;                    /* "fwrite"; a program's "call", "stdio" or "exit" */
	const char *call;                  /* the step as a line of C, or the program's call */
	int line;                          /* its line in the scenario (1 for a program) */
	bool traced;                       /* its time includes ptrace stops */
	const char *errno_why;             /* it failed with no errno: why; else NULL */
	const struct transcript_prog_step *prog; /* a program's step; NULL for a lesson's */
};

struct transcript_format;
struct html;

/* One transcript being written. */
struct transcript {
	const struct transcript_format *fmt;
	FILE *f;
	struct json j;                     /* the JSON formats' writer on f */
	/* The head: what the run is of (a program when prog is set). */
	const char *title;                 /* a program: its command line */
	const char *source;                /* or NULL */
	const char *path;                  /* the scenario file; a program: argv[0] */
	const char *file;                  /* the scratch file; a program: its working dir */
	const char *place_note;            /* why the scratch file is where it is, or NULL */
	const char *intro;                 /* as the run tells it, or NULL */
	const struct sentence_result *intro_v; /* its sentences (intro_n; none for a program) */
	size_t intro_n;
	const struct scenario *scn;        /* the lesson (its program as C); NULL for a program */
	const char *notes[2];              /* the first observation's cache and disk notes, or NULL */
	size_t n_steps;                    /* the lesson's steps; 0 for a program */
	bool src_hint_said;                /* a program's "build with -g" said (once) */
	const struct transcript_program *prog;
	struct out_env env;
	bool strict;                       /* --strict: not observable counts as failed */
	unsigned sweep_flags;              /* SWEEP_PRINT_* for sweep tables in text */
	/* Counted by transcript_step. */
	size_t n_written;                  /* steps written so far */
	size_t n_held, n_failed, n_unobservable;
	size_t n_said, n_unchecked, n_false; /* sentences held, unchecked and false here */
	size_t n_background;          /* sentences marked [background]: not about this run */
	size_t n_false_other;         /* of the false ones, by another writer (not the lesson's
	                               * failure: sentence_result.by_other) */
	bool ok;                           /* nothing failed (strict: nor was unobservable) */
	size_t n_points;                   /* TAP: test points written */
	size_t n_scored;                   /* gradescope: the points its tests scored */
	const char *error;                 /* at the end: why the run could not finish, or NULL */
	struct timespec started;           /* when transcript_init ran (CLOCK_MONOTONIC) */
	struct html *html;                 /* export/html.c's own, between begin and end */
	/* A program's streams as the steps so far showed them (each step shows what changed). */
	struct transcript_stream_seen *seen;
	size_t n_seen, cap_seen;
};

/* A format: writes the head, each step, the end. */
struct transcript_format {
	const char *name;                  /* as --format spells it */
	void (*begin)(struct transcript *t);
	void (*step)(struct transcript *t, const struct transcript_step *st);
	void (*end)(struct transcript *t);
};

/* The formats of out/ (text.c, json.c, tap.c, gradescope.c); the web page is export/html.c's
 * (export/html.h), and headless/transcript-format.c holds the table of them all. */
extern const struct transcript_format out_text_format, out_json_format, out_tap_format,
                                      out_gradescope_format;

/* What the kernel did to the file between sr's step and the one before (sr->pause), told
 * ("the kernel wrote the file back 31.2 s after step 3"), in buf; NULL if nothing was seen. */
const char *transcript_pause_text(const struct step_result *sr, char *buf, size_t len);

/* Start t in format fmt (not NULL: see transcript_format_or_default) on f; the walk fills the
 * head before transcript_begin. */
void transcript_init(struct transcript *t, const struct transcript_format *fmt, FILE *f);

/* Write the head. */
void transcript_begin(struct transcript *t);

/* Count what sr's expectations and sentences came to (held, failed, not observable; held,
 * unchecked, false; ok), writing nothing. */
void transcript_count(struct transcript *t, const struct step_result *sr);

/* Count st's expectations and write it. */
void transcript_step(struct transcript *t, const struct transcript_step *st);

/* Write the end (error: why the run could not finish, or NULL). 0, or -1 if writing failed. */
int transcript_end(struct transcript *t, const char *error);

/* Why a tmpfs file's dirty pages are null in JSON and not counted in text: not "0 dirty". */
#define TRANSCRIPT_NO_DISK "no disk below this file: nothing is ever waiting to be written back"

/* How x counts in t: --strict makes a fact not observable here a failure. */
enum expect_outcome transcript_outcome(const struct transcript *t, const struct expect_result *x);
/* Sentence V's outcome as a check: unchecked is false under --strict. */
enum sentence_outcome transcript_sentence_outcome(const struct transcript *t,
                                                  const struct sentence_result *v);


/* One crash of v as a line into buf: "scratch after kill -9: 4096 B \"abc...\"", or after a
 * power cut, with what had reached the device. Unsafe bytes of a name are the caller's to
 * escape. Return buf. */
const char *transcript_crash_line(const struct crash_view *v, bool power, char *buf, size_t len);

/* True if v's power cut was not observed for the reason the head (place_note) already gave:
 * then the text formats leave its line out (said once). */
bool transcript_crash_said(const struct transcript *t, const struct crash_view *v);

/* An outcome's name: "held", "failed", "not_observable". */
const char *transcript_outcome_name(enum expect_outcome oc);

/* A signal's name ("SIGKILL") into buf. */
const char *transcript_signal_name(int sig, char *buf, size_t len);

/* How a program's first process ended, as a phrase ("exited 0", "killed by SIGKILL"), into buf. */
const char *transcript_ended(const struct transcript_program *p, char *buf, size_t len);

#endif
