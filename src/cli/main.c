/* SPDX-License-Identifier: MIT */
/* cli/main.c: the command line. It parses the options and runs the mode they ask for (modes[]):
 * a front end on a scenario, a traced program, a practice problem, a list or a check. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "headless/app.h"
#include "cli/catalog.h"
#include "crash/crash.h"
#include "tui/crt.h"
#include "tui/tui.h"
#include "practice/practice-run.h"
#include "practice/practice.h"
#include "probe/probe.h"
#include "prog/op.h"
#include "prog/run.h"
#include "export/program.h"
#include "out/transcript.h"
#include "scenario/scenario.h"
#include "scratch/scratch.h"
#include "base/units.h"
#include "base/text.h"

static const char *progname = "iobufviz";
static char progname_buf[64];

/* Print the usage summary to f. */
static void
usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... SCENARIO\n"
"       %s [OPTION]... -- PROGRAM [ARG]...\n"
"       %s --practice [TOPIC [--seed N] [--answers]]\n"
"       %s --list | --check FILE... | --help | --version\n"
"Show where file data is, step by step: stdio buffer, kernel page cache, disk.\n"
"Every step makes real calls on a real scratch file and shows what the kernel reports.\n"
"\n"
"SCENARIO is a YAML file, - for standard input, or the name of a bundled scenario\n"
"(\"13-3\"; see --list).\n"
"After --, PROGRAM (a path or a name in PATH) runs under the tracer instead: a step is one\n"
"system call on a regular file, or one stdio call (glibc programs linked dynamically).\n"
"\n"
"  -H, --headless         no terminal UI: print a transcript, exit 1 if an expectation fails\n"
"      --strict           an expectation on a fact this run cannot observe fails\n"
"                         (default: it is reported as not observable, and skipped)\n"
"  -f, --format=FMT       headless output: text (default), json, tap, html (a web\n"
"                         page) or gradescope (Gradescope's results.json)\n"
"  -l, --list             list the bundled scenarios\n"
"  -c, --check            validate the scenario file(s) only; errors as FILE:LINE:COL\n"
"  -d, --dir=DIR          make the private scratch directory under DIR\n"
"                         (default $TMPDIR, else /tmp); given again, sweeps run\n"
"                         on each DIR side by side (up to 8); with a PROGRAM: its\n"
"                         working directory (default: a private scratch dir)\n"
"      --timeout=SECONDS  stop a scenario's run after this long (exit 3; default and\n"
"                         maximum 3600, see BOUNDS in iobufviz(1)); kill the PROGRAM\n"
"                         after this long (default 60; 0: never)\n"
"      --stdin=FILE       the PROGRAM's standard input (default /dev/null)\n"
"      --max-output=SIZE  a PROGRAM's transcript takes at most SIZE (default 64MiB): past\n"
"                         it the run stops, exit 3, and the transcript says where\n"
"      --allow-run[=PROG] let the scenario's run steps run PROG (repeat it), or any\n"
"                         program it names; without it they run nothing (headless: exit 2;\n"
"                         the TUI asks first)\n"
"      --trace=HOW        how stdio's system calls are seen: auto (default), ptrace, procio\n"
"      --probe=SOURCE     page cache source: auto (default: the first that works of)\n"
"                         cachestat, kpageflags (root), mincore (no dirty counts)\n"
"      --crash-fs=FS      put the scratch file on a crash lab: an FS image of its own\n"
"                         (ext4, xfs or btrfs) on a loop device of its own (root),\n"
"                         for the power cut; made and removed by the run; with --\n"
"                         PROGRAM, the program's working directory\n"
"      --no-color         no colours (also when NO_COLOR is set)\n"
"      --ascii            ASCII glyphs only (default when the locale is not UTF-8)\n"
"      --quiz             ask for a prediction before each step that has expectations\n"
"      --no-mouse         ignore the mouse\n"
"      --big              projector mode: larger page-cache cells (on from 160 columns)\n"
"      --record=FILE      record the TUI session as an asciicast v2 file\n"
"      --export=FMT       write sweep results as csv, json or md to standard output,\n"
"                         or svg: a log-log plot of each sweep; c: the scenario as\n"
"                         one C program (no run); html: the run (a scenario's or a\n"
"                         PROGRAM's) as one web page to step through offline\n"
"                         (--headless --format=html)\n"
"      --budget=SECONDS   time budget per sweep row before it is scaled down\n"
"      --pace=SECONDS     headless: wait this long between two steps, as a person\n"
"                         stepping through would; each step says what the kernel did\n"
"      --practice         the argument is a practice TOPIC: a generated problem, run for\n"
"                         real and quizzed (headless: printed); alone: list the topics\n"
"      --seed=N           the practice problem of seed N (default: a new one each time)\n"
"      --answers          headless practice: run the problem and print the answers\n"
"      --guess=ANSWER     headless practice: your answer to the next question (repeat it\n"
"                         per question); implies --answers and scores them\n"
"      --wide             sweeps: the full table (mean, min...max, user, the books'\n"
"                         user and sys), wider than 100 columns\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Exit status: 0 no expectation failed, 1 an expectation failed,\n"
"2 bad usage or bad scenario, 3 the environment cannot run it.\n"
"See iobufviz(1) and doc/scenarios.md.\n",
	        progname, progname, progname, progname);
}

/* Complain about usage and return the usage exit code. arg is the user's: shown escaped (an
 * ESC in it must not act on the terminal). */
static int
usage_error(const char *fmt, const char *arg)
{
	struct text_buf msg = { 0 };
	char *safe = text_safe_dup(arg, TEXT_LINE);

	text_addf(&msg, fmt, safe != NULL ? safe : "?");
	free(safe);
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", progname,
	        text_str(&msg), progname);
	text_buf_free(&msg);
	return APP_EXIT_USAGE;
}

/* True if arg is a number as the options take it: it starts with a digit (or the point of
 * ".5"): strtoull and strtod would skip leading blanks, and a trailing one is refused. */
static bool
number_arg(const char *arg)
{
	return (arg[0] >= '0' && arg[0] <= '9') || (arg[0] == '.' && arg[1] >= '0' && arg[1] <= '9');
}

/* The options of a practice problem given, for a message: "--seed", "--seed and --guess"
 * (--guess implies --answers: named alone). */
static const char *
practice_opts(const struct app_opts *o, char *buf, size_t len)
{
	bool answers = o->answers && o->n_guess == 0;
	const char *v[3];
	size_t n = 0;

	if (o->has_seed)
		v[n++] = "--seed";
	if (answers)
		v[n++] = "--answers";
	if (o->n_guess > 0)
		v[n++] = "--guess";
	snprintf(buf, len, "%s%s%s%s%s", n > 0 ? v[0] : "", n > 2 ? ", " : n > 1 ? " and " : "",
	         n > 1 ? v[1] : "", n > 2 ? " and " : "", n > 2 ? v[2] : "");
	return buf;
}

/* Load one scenario; print its errors. Return 0 or an exit code. */
static int
load(const char *arg, struct scenario **out)
{
	char why[512];
	/* "-" is standard input, as for any Unix tool (a file named "-" is "./-"). */
	char *path = strcmp(arg, "-") == 0 ? strdup(arg) : catalog_resolve(arg, why, sizeof why);
	char *err = NULL;

	if (path == NULL && strcmp(arg, "-") == 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return APP_EXIT_ENV;
	}
	if (path == NULL) {
		text_fline(stderr, progname, "", ": ");
		text_fline(stderr, "", arg, ": ");
		text_fline(stderr, "", why, "\n");
		return APP_EXIT_USAGE;
	}
	if (load_scenario(path, out, &err) != 0) {
		fputs(err != NULL ? err : "out of memory\n", stderr);
		free(err);
		free(path);
		return APP_EXIT_USAGE;
	}
	free(path);
	return 0;
}

/* Say on stderr that a stale scratch dir was removed. */
static void
reaped(const char *path, void *user)
{
	(void)user;
	text_fline(stderr, progname, "", ": removed ");
	text_fline(stderr, "", path, ", left by an iobufviz run that is gone\n");
}

/* Before a run: remove the scratch dirs that killed runs of ours left where this one works. */
static void
reap(const struct app_opts *o)
{
	scratch_reap(o->dir, reaped, NULL);
	/* Sweeps and "on: tmpfs" files live in /dev/shm: what is left there holds RAM. */
	scratch_reap("/dev/shm", reaped, NULL);
}

/* Standard input and output are a terminal. */
static bool
on_terminal(void)
{
	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* The terminal can be drawn on: 0, else say why and what to use instead; return the exit code. */
static int
screen_ok(const char *instead)
{
	char why[160];

	if (crt_check(why, sizeof why) == 0)
		return 0;
	fprintf(stderr, "%s: %s; use --headless %s\n", progname, why, instead);
	return APP_EXIT_ENV;
}

/* A terminal to show a run on: 0, else say why not and return the exit code. */
static int
terminal_ok(void)
{
	if (!on_terminal()) {
		fprintf(stderr, "%s: not a terminal: use --headless for a transcript\n", progname);
		return APP_EXIT_USAGE;
	}
	return screen_ok("for a transcript");
}

/* What the command line asks for: each bit picks a mode (modes[], below). */
enum {
	ASKS_LIST = 1u << 0,           /* -l */
	ASKS_CHECK = 1u << 1,          /* -c */
	ASKS_PRACTICE = 1u << 2,       /* --practice */
	ASKS_PROGRAM = 1u << 3,        /* the words are "-- PROGRAM ARG..." */
	ASKS_EXPORT_C = 1u << 4,       /* --export=c */
	ASKS_EXPORT = 1u << 5,         /* --export=csv|json|md|svg */
	ASKS_HEADLESS = 1u << 6,       /* -H */
};

/* What the command line said: the options, and the words after them. */
struct cmd {
	unsigned asks;                 /* ASKS_ bits */
	struct app_opts o;
	struct prog_run_opts ro;       /* a PROGRAM's own options */
	const char *timeout_arg;       /* --timeout as written, NULL if not given */
	char **words;                  /* what follows the options */
	int n_words;
};

/* -- PROGRAM ARG...: the student's own program, traced, in the TUI or headless. */
static int
mode_program(struct cmd *c, struct scenario *s)
{
	struct app_opts *o = &c->o;
	bool headless = c->asks & ASKS_HEADLESS;
	int rc;

	(void)s;
	if (c->n_words == 0)
		return usage_error("%s", "no program after --");
	if (o->export_fmt != NULL || o->quiz || o->record != NULL)
		return usage_error("%s", "--export, --quiz and --record are for scenarios");
	c->ro.dir = o->dir;
	c->ro.crash_fs = o->crash_fs;
	c->ro.probe = o->probe;
	/* Headless, nobody reads between two steps: --timeout bounds the wall time. */
	c->ro.timeout_wall = headless;
	if (!headless && (rc = terminal_ok()) != 0)
		return rc;
	/* Our own scratch dir is under $TMPDIR; --dir is the program's, not ours to reap. */
	struct app_opts mine = *o;
	mine.dir = NULL;
	reap(&mine);
	return headless ? prog_headless_run(c->words, o, &c->ro) : prog_tui_run(c->words, o, &c->ro);
}

/* --list: every bundled scenario, grouped as a course takes them (cli/catalog.c). */
static int
mode_list(struct cmd *c, struct scenario *unused)
{
	(void)unused;
	if (c->n_words != 0)
		return usage_error("--list takes no scenario ('%s')", c->words[0]);
	switch (catalog_print_list(stdout)) {
	case 0:
		return APP_EXIT_OK;
	case 1:
		return APP_EXIT_USAGE;
	case -1:
		text_fline(stderr, progname, "", ": cannot read the scenario directory ");
		text_fline(stderr, "", catalog_dir(), "\n");
		return APP_EXIT_ENV;
	default:
		fprintf(stderr, "%s: out of memory\n", progname);
		return APP_EXIT_ENV;
	}
}

/* --practice: list the topics, or generate one's problem and quiz it (TUI) or print it. */
static int
mode_practice(struct cmd *c, struct scenario *unused)
{
	const struct app_opts *o = &c->o;
	const struct practice_topic *t;
	struct practice_problem p;
	struct scenario *s;
	bool headless = c->asks & ASKS_HEADLESS;
	char *err = NULL;
	int rc;

	(void)unused;
	if (c->n_words == 0) {
		if (o->has_seed || o->answers) {
			char given[64];
			return usage_error("%s need a practice topic", practice_opts(o, given,
			                                                                  sizeof given));
		}
		practice_run_list(stdout);
		return APP_EXIT_OK;
	}
	if (c->n_words > 1)
		return usage_error("one practice topic at a time ('%s' is extra)", c->words[1]);
	if (o->format != NULL && o->format != transcript_format_find("text") &&
	    o->format != transcript_format_find("json"))
		return usage_error("--practice prints text or json, not %s", o->format->name);
	if ((t = practice_topic_find(c->words[0])) == NULL) {
		text_fline(stderr, progname, "", ": --practice: unknown topic '");
		text_fline(stderr, "", c->words[0], "'; the topics are:\n");
		practice_run_list(stderr);
		return APP_EXIT_USAGE;
	}
	/* Guesses given on the command line are a headless student's answers. */
	if (o->n_guess > 0 || !on_terminal())
		headless = true;
	if (!headless && (rc = screen_ok("for the problem as text")) != 0)
		return rc;
	reap(o);
	/* Without --seed, a new problem each time; the seed is printed to get it back. */
	if (practice_generate(t, o->has_seed ? o->seed :
	                      (uint64_t)time(NULL) * 1000003u + (uint64_t)getpid() % 1000003u,
	                      &p) != 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return APP_EXIT_ENV;
	}
	if (practice_load(&p, &s, &err) != 0) {
		/* The generator wrote something the loader refuses: our bug, shown as the loader says. */
		fputs(err != NULL ? err : "out of memory\n", stderr);
		free(err);
		practice_problem_clear(&p);
		return APP_EXIT_USAGE;
	}
	if (headless) {
		rc = practice_run_headless(&p, s, o->answers, o);
	} else {
		struct app_opts q = *o;
		q.quiz = true;
		q.practice = &p;
		q.step_line = practice_listing_line;
		rc = tui_run(s, &q);
	}
	load_scenario_free(s);
	practice_problem_clear(&p);
	return rc;
}

/* --check FILE...: load each, say it is well formed or why not. */
static int
mode_check(struct cmd *c, struct scenario *unused)
{
	int rc = APP_EXIT_OK;

	(void)unused;
	if (c->n_words == 0)
		return usage_error("%s", "--check needs at least one scenario file");
	for (int i = 0; i < c->n_words; i++) {
		struct scenario *s;
		if (load(c->words[i], &s) != 0) {
			rc = APP_EXIT_USAGE;
			continue;
		}
		text_fput(s->path, TEXT_LINE, stdout);
		printf(": ok, %zu step%s\n", s->n_steps, s->n_steps == 1 ? "" : "s");
		/* What it would run, so that the user knows before allowing it. */
		prog_consent_print(s, NULL, stdout);
		load_scenario_free(s);
	}
	return rc;
}

/* --export=c: print the scenario as one C program; nothing runs. */
static int
mode_export_c(struct cmd *c, struct scenario *s)
{
	struct program *p;

	/* The program runs the run steps' programs when the student runs it: the consent a run
	 * of them takes, and its opening comment names them. */
	if (prog_consent_refuse(s, &c->o.consent, "exported (the C program runs them)", stderr) > 0)
		return APP_EXIT_USAGE;
	if ((p = program_new(s)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return APP_EXIT_ENV;
	}
	/* A failed write is main()'s to report: it checks standard output at the end. */
	(void)program_print(p, stdout);
	program_free(p);
	return APP_EXIT_OK;
}

/* --headless: run the scenario without a terminal and print its transcript. */
static int
mode_headless(struct cmd *c, struct scenario *s)
{
	if (c->o.record != NULL || c->o.quiz)
		return usage_error("%s", c->o.record != NULL ?
		                   "--record records the terminal UI: not with --headless or --export" :
		                   "--quiz asks at the terminal: not with --headless or --export");
	reap(&c->o);
	return headless_run(s, &c->o);
}

/* --export=csv|json|md|svg: run the scenario headless and print its sweeps' tables. */
static int
mode_export(struct cmd *c, struct scenario *s)
{
	size_t sweeps = 0;

	for (size_t i = 0; i < s->n_steps; i++)
		sweeps += s->steps[i].op == SCN_OP_SWEEP;
	if (sweeps == 0) {
		text_fline(stderr, progname, "", ": --export: ");
		text_fline(stderr, "", s->path, " has no sweep step: nothing to export\n");
		return APP_EXIT_USAGE;
	}
	/* --export prints tables, not a screen. */
	return mode_headless(c, s);
}

/* The terminal UI: step through the scenario. */
static int
mode_tui(struct cmd *c, struct scenario *s)
{
	struct stat st;
	int rc;

	(void)s;
	if ((rc = terminal_ok()) != 0)
		return rc;
	/* The recorder opens with O_EXCL too; this says it before the screen is taken. */
	if (c->o.record != NULL && lstat(c->o.record, &st) == 0)
		return usage_error("--record: '%s' exists; iobufviz never overwrites a file",
		                   c->o.record);
	reap(&c->o);
	return tui_run(s, &c->o);
}

/* What a mode needs before it runs, checked in this order. */
enum {
	NEEDS_RUN_BOUNDS = 1u << 0,    /* --timeout within a scenario run's bounds */
	NEEDS_NO_PRACTICE = 1u << 1,   /* no --seed or --answers (they are --practice's) */
	NEEDS_SCENARIO = 1u << 2,      /* one scenario, loaded */
};

/* One thing iobufviz can do. */
struct mode {
	const char *name;                        /* for people reading the table */
	unsigned asks;                           /* the ASKS_ bit that picks it; 0: the rest */
	unsigned needs;
	int (*run)(struct cmd *c, struct scenario *s);   /* s: the scenario, if NEEDS_SCENARIO */
};

/* The modes: the first whose bit the command line set runs. */
static const struct mode modes[] = {
	{ "list", ASKS_LIST, NEEDS_RUN_BOUNDS, mode_list },
	{ "check", ASKS_CHECK, NEEDS_RUN_BOUNDS | NEEDS_NO_PRACTICE, mode_check },
	{ "practice", ASKS_PRACTICE, NEEDS_RUN_BOUNDS, mode_practice },
	{ "program", ASKS_PROGRAM, 0, mode_program },
	{ "export-c", ASKS_EXPORT_C, NEEDS_RUN_BOUNDS | NEEDS_NO_PRACTICE | NEEDS_SCENARIO,
	  mode_export_c },
	{ "export", ASKS_EXPORT, NEEDS_RUN_BOUNDS | NEEDS_NO_PRACTICE | NEEDS_SCENARIO,
	  mode_export },
	{ "headless", ASKS_HEADLESS, NEEDS_RUN_BOUNDS | NEEDS_NO_PRACTICE | NEEDS_SCENARIO,
	  mode_headless },
	{ "tui", 0, NEEDS_RUN_BOUNDS | NEEDS_NO_PRACTICE | NEEDS_SCENARIO, mode_tui },
};

/* Check what mode m needs, then run it; return the exit status. */
static int
mode_run(const struct mode *m, struct cmd *c)
{
	struct scenario *s = NULL;
	int rc;

	/* A scenario's run has bounds (iobufviz(1), BOUNDS): its timeout cannot be lifted. */
	if ((m->needs & NEEDS_RUN_BOUNDS) && c->timeout_arg != NULL &&
	    !(c->o.timeout > 0 && c->o.timeout <= SCN_MAX_RUN_SECONDS))
		return usage_error("--timeout: '%s': a scenario's run takes 0 < s <= 3600 seconds",
		                   c->timeout_arg);
	if ((m->needs & NEEDS_NO_PRACTICE) && (c->o.has_seed || c->o.answers)) {
		char given[64];
		return usage_error("%s: only with --practice", practice_opts(&c->o, given,
		                                                               sizeof given));
	}
	if (m->needs & NEEDS_SCENARIO) {
		if (c->n_words == 0)
			return usage_error("%s", "no scenario given (try --list)");
		if (c->n_words > 1)
			return usage_error("one scenario at a time ('%s' is extra)", c->words[1]);
		if ((rc = load(c->words[0], &s)) != 0)
			return rc;
	}
	rc = m->run(c, s);
	load_scenario_free(s);      /* freed before exit: the sanitizers' leak check is a test */
	return rc;
}

/* Parse the options into c; -1 to go on to a mode, else the exit status (--help, bad usage). */
static int
parse(int argc, char **argv, struct cmd *c)
{
	enum { OPT_TRACE = 256, OPT_NO_COLOR, OPT_ASCII, OPT_QUIZ, OPT_NO_MOUSE, OPT_RECORD,
	       OPT_EXPORT, OPT_BUDGET, OPT_PROBE, OPT_PRACTICE, OPT_SEED, OPT_ANSWERS, OPT_GUESS, OPT_WIDE,
	       OPT_STRICT, OPT_BIG, OPT_TIMEOUT, OPT_STDIN, OPT_CRASH_FS, OPT_ALLOW_RUN,
	       OPT_MAX_OUTPUT, OPT_PACE };
	static const struct option longopts[] = {
		{ "headless", no_argument, NULL, 'H' },
		{ "format", required_argument, NULL, 'f' },
		{ "list", no_argument, NULL, 'l' },
		{ "check", no_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "probe", required_argument, NULL, OPT_PROBE },
		{ "crash-fs", required_argument, NULL, OPT_CRASH_FS },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "quiz", no_argument, NULL, OPT_QUIZ },
		{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
		{ "big", no_argument, NULL, OPT_BIG },
		{ "record", required_argument, NULL, OPT_RECORD },
		{ "export", required_argument, NULL, OPT_EXPORT },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "pace", required_argument, NULL, OPT_PACE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "max-output", required_argument, NULL, OPT_MAX_OUTPUT },
		{ "stdin", required_argument, NULL, OPT_STDIN },
		{ "allow-run", optional_argument, NULL, OPT_ALLOW_RUN },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "practice", no_argument, NULL, OPT_PRACTICE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "answers", no_argument, NULL, OPT_ANSWERS },
		{ "guess", required_argument, NULL, OPT_GUESS },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct app_opts *o = &c->o;
	const char *format_given = NULL, *export_given = NULL;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":Hf:lcd:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'H': c->asks |= ASKS_HEADLESS; break;
		case 'l': c->asks |= ASKS_LIST; break;
		case 'c': c->asks |= ASKS_CHECK; break;
		case 'd':
			/* Again: sweeps compare the dirs side by side (exercise 13-1c). */
			if (o->n_dirs == sizeof o->dirs / sizeof o->dirs[0])
				return usage_error("%s", "--dir: at most 8 dirs");
			o->dirs[o->n_dirs++] = optarg;
			if (o->dir == NULL)
				o->dir = optarg;
			break;
		case 'f':
			format_given = optarg;
			o->format = transcript_format_find(optarg);
			if (o->format == NULL) {
				char names[64], msg[128];
				snprintf(msg, sizeof msg, "--format: '%%s': expected %s",
				         transcript_format_names(names, sizeof names));
				return usage_error(msg, optarg);
			}
			break;
		case OPT_TRACE:
			if (strcmp(optarg, "auto") == 0) o->trace = RUNNER_TRACE_AUTO;
			else if (strcmp(optarg, "ptrace") == 0) o->trace = RUNNER_TRACE_PTRACE;
			else if (strcmp(optarg, "procio") == 0) o->trace = RUNNER_TRACE_PROCIO;
			else return usage_error("--trace: '%s': expected auto, ptrace or procio", optarg);
			break;
		case OPT_PROBE:
			if (probe_cache_source_parse(optarg, &o->probe) != 0)
				return usage_error("--probe: '%s': expected auto, cachestat, kpageflags "
				                   "or mincore", optarg);
			break;
		case OPT_CRASH_FS:
			if (crash_fs_parse(optarg, &o->crash_fs) != 0) {
				char names[64];
				fprintf(stderr, "%s: --crash-fs: '", progname);
				text_fput(optarg, TEXT_LINE, stderr);
				fprintf(stderr, "': expected %s\nTry '%s --help' for more information.\n",
				        crash_fs_names(names, sizeof names), progname);
				return APP_EXIT_USAGE;
			}
			break;
		case OPT_NO_COLOR: o->color = false; break;
		case OPT_ASCII: o->ascii = true; break;
		case OPT_QUIZ: o->quiz = true; break;
		case OPT_NO_MOUSE: o->mouse = false; break;
		case OPT_BIG: o->big = true; break;
		case OPT_RECORD: o->record = optarg; break;
		case OPT_WIDE: o->wide = true; break;
		case OPT_EXPORT:
			export_given = optarg;
			/* html: the run as a web page, which is a transcript's format. */
			if (strcmp(optarg, "html") == 0) {
				o->format = transcript_format_find("html");
				c->asks |= ASKS_HEADLESS;
				break;
			}
			if (strcmp(optarg, "csv") != 0 && strcmp(optarg, "json") != 0 &&
			    strcmp(optarg, "md") != 0 && strcmp(optarg, "svg") != 0 &&
			    strcmp(optarg, "c") != 0)
				return usage_error("--export: '%s': expected csv, json, md, svg, c or html",
				                   optarg);
			o->export_fmt = optarg;
			c->asks |= strcmp(optarg, "c") == 0 ? ASKS_EXPORT_C : ASKS_EXPORT;
			break;
		case OPT_STRICT: o->strict = true; break;
		case OPT_BUDGET: {
			char *end;
			o->budget = strtod(optarg, &end);
			if (*end != '\0' || !number_arg(optarg) || !(o->budget > 0 && o->budget <= 3600))
				return usage_error("--budget: '%s': expected seconds, 0 < s <= 3600", optarg);
			break;
		}
		case OPT_PACE: {
			char *end;
			o->pace = strtod(optarg, &end);
			if (*end != '\0' || !number_arg(optarg) || !(o->pace >= 0 && o->pace <= 3600))
				return usage_error("--pace: '%s': expected seconds, 0 <= s <= 3600", optarg);
			break;
		}
		case OPT_TIMEOUT: {
			char *end;
			double t = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !number_arg(optarg) || !(t >= 0 && t <= 86400))
				return usage_error("--timeout: '%s': expected seconds, 0 <= s <= 86400",
				                   optarg);
			/* A PROGRAM's own bound; a scenario's run is checked by its mode. */
			c->ro.timeout_ms = (unsigned)(t * 1000);
			o->timeout = t;
			c->timeout_arg = optarg;
			break;
		}
		case OPT_STDIN: c->ro.stdin_path = optarg; break;
		case OPT_MAX_OUTPUT:
			if (units_parse_size(optarg, &o->max_output) != 0 || o->max_output < 4096)
				return usage_error("--max-output: '%s': expected a size of 4KiB or more "
				                   "(64MiB, 1GiB)", optarg);
			break;
		case OPT_ALLOW_RUN:
			if (optarg == NULL)
				o->consent.all = true;
			else if (o->consent.n == PROG_CONSENT_MAX)
				return usage_error("--allow-run: '%s': at most 16 programs", optarg);
			else
				o->consent.progs[o->consent.n++] = optarg;
			break;
		case OPT_PRACTICE: c->asks |= ASKS_PRACTICE; break;
		case OPT_ANSWERS: o->answers = true; break;
		case OPT_GUESS:
			if (o->n_guess == sizeof o->guess / sizeof o->guess[0])
				return usage_error("--guess: '%s': at most 16 answers", optarg);
			o->guess[o->n_guess++] = optarg;
			o->answers = true;
			break;
		case OPT_SEED: {
			char *end;
			errno = 0;
			o->seed = strtoull(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' || !number_arg(optarg) ||
			    optarg[0] == '.')
				return usage_error("--seed: '%s': expected a number, 0 to 2^64-1", optarg);
			o->has_seed = true;
			break;
		}
		case 'h': usage(stdout); return APP_EXIT_OK;
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return APP_EXIT_OK;
		case ':': return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt != 0) {
				char s[3] = { '-', (char)optopt, '\0' };
				return usage_error("unknown option '%s'", s);
			}
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	/* --export writes what it names instead of a transcript: a --format beside it would
	 * be silently dropped (or, before --export=html, overridden). */
	if (format_given != NULL && export_given != NULL) {
		/* Both were checked against their lists above: no '%' in either. */
		struct text_buf fmt = { 0 };
		int rc;
		text_setf(&fmt, "--export=%s and --format=%%s both say what to write: give one of "
		          "them", export_given);
		rc = usage_error(text_str(&fmt), format_given);
		text_buf_free(&fmt);
		return rc;
	}
	c->words = argv + optind;
	c->n_words = argc - optind;
	/* "-- PROGRAM ARG...": the student's own program instead of a scenario. */
	if (optind > 1 && optind <= argc && strcmp(argv[optind - 1], "--") == 0)
		c->asks |= ASKS_PROGRAM;
	return -1;
}

/* Parse the command line and run the mode it asks for; return the exit status. */
static int
run(int argc, char **argv)
{
	struct cmd c = {
		.o = { .color = true, .mouse = true, .timeout = SCN_MAX_RUN_SECONDS,
		       .run_op = prog_op_step },
		.ro = { .timeout_ms = 60000 },
	};
	const struct mode *m = modes;
	const char *nc;
	int rc;

	/* Our name as we were run, escaped: every message starts with it. */
	if (argv[0] != NULL && argv[0][0] != '\0') {
		const char *base = strrchr(argv[0], '/') != NULL ? strrchr(argv[0], '/') + 1 : argv[0];
		text_safe(base, TEXT_LINE, progname_buf, sizeof progname_buf);
		progname = progname_buf;
	}
	setlocale(LC_ALL, "");
	/* The user's characters and messages, but numbers as C writes them: a decimal comma
	 * (de_DE) would make the JSON invalid and the tables unlike the documented ones. */
	setlocale(LC_NUMERIC, "C");
	nc = getenv("NO_COLOR");
	if (nc != NULL && *nc != '\0')
		c.o.color = false;
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		c.o.ascii = true;
	if ((rc = parse(argc, argv, &c)) >= 0)
		return rc;
	while (m->asks != 0 && !(c.asks & m->asks))
		m++;
	return mode_run(m, &c);
}

/* Entry point: run, then make sure what was printed reached standard output. */
int
main(int argc, char **argv)
{
	int rc = run(argc, argv);

	/* "iobufviz --list >/dev/full" must not exit 0 with nothing written. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;
		fprintf(stderr, "%s: writing standard output: %s\n", progname,
		        e != 0 ? strerror(e) : "I/O error");
		if (rc == APP_EXIT_OK)
			rc = APP_EXIT_ENV;
	}
	return rc;
}
