/* SPDX-License-Identifier: MIT */
/* prog/consent.h: a scenario runs a program only with the user's consent: the command lines it
 * would run, shown escaped, and whether the command line (--allow-run) allows each. */
#ifndef IOBUFVIZ_PROG_CONSENT_H
#define IOBUFVIZ_PROG_CONSENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario/scenario.h"

/* At most this many --allow-run=PROG. */
#define PROG_CONSENT_MAX 16

/* What the user allowed. All zero: nothing. */
struct prog_consent {
	const char *progs[PROG_CONSENT_MAX];   /* --allow-run=PROG, each */
	size_t n;
	bool all;                 /* --allow-run alone, or a yes in the TUI: every program the
	                             scenario names */
};

/*
 * Run step st's command line into buf (len bytes, always terminated), for people: the
 * command of scenario_run_command with every control, bidi control and byte that is not
 * UTF-8 escaped (base/text.c). Return buf.
 */
char *prog_consent_cmdline(const struct scn_step *st, char *buf, size_t len);

/* Run step st's command line as prog_consent_cmdline shows it, in full, in a new heap
 * string (NULL: out of memory). */
char *prog_consent_cmdline_dup(const struct scn_step *st);

/*
 * True if c allows the program a run step names: c->all, or an --allow-run=PROG that is the
 * same text, or that names the same file once both are found as execvp would (where
 * iobufviz runs: relative paths from there, bare names in PATH).
 */
bool prog_consent_allows(const struct prog_consent *c, const char *program);

/*
 * Print to f, a line each, the steps of s that run a program c does not allow (every one
 * when c is NULL): "PATH:LINE:COL: step N runs: COMMAND LINE". Return how many.
 */
size_t prog_consent_print(const struct scenario *s, const struct prog_consent *c, FILE *f);

/*
 * If step from of s runs a program c does not allow: the question to ask a person in the
 * TUI, in buf (len bytes): the keys (y, n, q), then every such command line from there on,
 * in full and escaped; *whole true. When they do not all fit in buf, the refusal instead
 * (prog_consent_prompt_refusal) and *whole false: y must not be taken. Return how many
 * command lines there are (0: nothing to ask, buf "").
 */
size_t prog_consent_prompt(const struct scenario *s, const struct prog_consent *c, size_t from,
                           char *buf, size_t len, bool *whole);

/* The prompt for n command lines that cannot all be shown: "N commands, too long to show
 * here: run --check to read them", and the keys n and q only. */
void prog_consent_prompt_refusal(size_t n, char *buf, size_t len);

/*
 * If s has steps that run a program c does not allow: print them (prog_consent_print) to f,
 * then "iobufviz: nothing was WHAT: ..." and how to allow them. Return how many (0: all
 * allowed, nothing printed). Whatever runs or writes a program that runs them asks this
 * first: a headless run ("run"), --export=c ("exported ...").
 */
size_t prog_consent_refuse(const struct scenario *s, const struct prog_consent *c,
                           const char *what, FILE *f);

/* How many steps of s run a program that c does not allow. */
size_t prog_consent_missing(const struct scenario *s, const struct prog_consent *c);

/*
 * The standard input a run step may give its program, into buf (len bytes): /dev/null when
 * it names none (or /dev/null), the scratch file for "{file}", else the file it names only
 * if that is a regular file inside the scratch dir or the lesson's own directory
 * (lesson_dir, NULL if none: a lesson read from stdin; a relative name is taken there):
 * a scenario must not read the user's other files into its output, and --dir, where
 * scratch files go, grants nothing more. 0, or -1 with the reason, for people, in buf.
 */
int prog_consent_stdin(const char *given, const char *scratch_dir, const char *scratch_file,
                       const char *lesson_dir, char *buf, size_t len);

#endif
