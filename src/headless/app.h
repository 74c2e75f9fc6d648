/* SPDX-License-Identifier: MIT */
/* headless/app.h: what main() decided, handed to the front ends (headless/, practice/, tui/):
 * the lowest of them holds it, so that each includes it from below; and the table of
 * transcript formats that --format names. */
#ifndef IOBUFVIZ_APP_H
#define IOBUFVIZ_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/runner.h"
#include "prog/consent.h"
#include "scenario/scenario.h"

/* Exit codes (iobufviz(1), EXIT STATUS). */
enum app_exit {
	APP_EXIT_OK = 0,        /* no expectation failed */
	APP_EXIT_FAILED = 1,    /* an expectation failed (or, with --strict, was not observable) */
	APP_EXIT_USAGE = 2,     /* bad usage or bad scenario */
	APP_EXIT_ENV = 3,       /* the environment cannot run it */
};

struct practice_problem;
struct transcript_format;

/* A PROGRAM's transcript takes at most this many bytes unless --max-output says more
 * (iobufviz(1), BOUNDS): past it the run stops (exit 3) and the transcript says where. */
#define APP_MAX_OUTPUT ((uint64_t)64 << 20)

struct app_opts {
	const char *dir;          /* --dir (the first one) */
	const char *dirs[8];      /* every --dir: sweeps run their disk variants under each */
	size_t n_dirs;
	const struct transcript_format *format; /* --format (headless/transcript-format.c); NULL: text */
	enum runner_trace trace;  /* --trace */
	bool color;               /* false with --no-color or NO_COLOR */
	bool ascii;               /* --ascii, or a non-UTF-8 locale */
	bool quiz;                /* --quiz */
	bool mouse;               /* false with --no-mouse */
	bool big;                 /* --big: projector mode (also from 160 columns) */
	const char *record;       /* --record FILE.cast */
	const char *export_fmt;   /* --export=csv|json|md */
	double budget;            /* --budget seconds per sweep row; 0 = default */
	double pace;              /* --pace: seconds between two steps, headless; 0: none */
	double timeout;           /* --timeout: seconds a run may take (SCN_MAX_RUN_SECONDS) */
	uint64_t max_output;      /* --max-output: bytes a PROGRAM's transcript may take (0: the
	                             default, APP_MAX_OUTPUT) */
	bool wide;                /* --wide: the full sweep table, not one that fits 100 columns */
	enum snap_source probe;   /* --probe: page cache source; SNAP_SRC_NONE = auto (the chain) */
	enum crash_fs crash_fs;   /* --crash-fs: a crash lab of this filesystem; NONE: none */
	bool strict;              /* --strict: an expectation not observable here fails */
	bool answers;             /* --answers: run the practice problem and print what happened */
	const char *guess[16];    /* --guess, in question order: a headless student's predictions */
	size_t n_guess;
	bool has_seed;            /* --seed given */
	uint64_t seed;            /* --seed N */
	const struct practice_problem *practice; /* the TUI quiz's choice questions, or NULL */
	/* A step as the screen's line of C (the practice listing's); NULL: describe_step. */
	char *(*step_line)(const struct scn_step *st, char *buf, size_t len);
	struct prog_consent consent; /* --allow-run[=PROG]: the programs run steps may run */
	runner_program_fn run_op;  /* the run op (main binds prog/op.c's prog_op_step) */
};

/* headless/headless.c: run s without a terminal, print the transcript; return an app_exit. */
int headless_run(const struct scenario *s, const struct app_opts *o);

struct prog_run_opts;

/* headless/prog-headless.c: trace program argv without a terminal, print its transcript; return an
 * app_exit (0 when it ran, whatever its own exit status). */
int prog_headless_run(char *const argv[], const struct app_opts *o,
                      const struct prog_run_opts *ro);

/* headless/transcript-format.c: the table of transcript formats (out/transcript.h), --format's
 * values. It stands above the formats, which call the writer back: the writer itself never
 * links to the table. */

/* The i-th format of the table (from 0), or NULL past the last. */
const struct transcript_format *transcript_format_at(size_t i);

/* The format named name, or NULL. */
const struct transcript_format *transcript_format_find(const char *name);

/* The formats' names as "a, b or c", into buf. */
const char *transcript_format_names(char *buf, size_t len);

/* fmt, or the default format (text) when fmt is NULL. */
const struct transcript_format *transcript_format_or_default(const struct transcript_format *fmt);

#endif
