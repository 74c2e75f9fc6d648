/* SPDX-License-Identifier: MIT */
/* prog/consent.c: what a scenario would run, and whether the user allowed it. */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/text.h"
#include "prog/consent.h"
#include "prog/launch.h"
#include "scenario/oplist.h"

/* The command line of a run step, for people, in full (see prog/consent.h). */
char *
prog_consent_cmdline_dup(const struct scn_step *st)
{
	char *cmd = scenario_run_command(st), *safe;

	if (cmd == NULL)
		return NULL;
	safe = text_safe_dup(cmd, TEXT_LINE);
	free(cmd);
	return safe;
}

/* The command line of a run step, for people. */
char *
prog_consent_cmdline(const struct scn_step *st, char *buf, size_t len)
{
	char *cmd = scenario_run_command(st);

	/* Quoted first, then escaped: an escape's backslash is inside quotes already, since a
	 * word with a byte to escape is never plain. */
	text_safe(cmd != NULL ? cmd : "?", TEXT_LINE, buf, len);
	free(cmd);
	return buf;
}

/* The file name found as execvp would, made absolute and without links, into buf; NULL if
 * there is none. */
static char *
prog_consent_real(const char *name, char *buf)
{
	char found[PATH_MAX];

	if (prog_launch_find(name, NULL, found, sizeof found, NULL) != 0)
		return NULL;
	return realpath(found, buf);
}

/* Is program allowed? */
bool
prog_consent_allows(const struct prog_consent *c, const char *program)
{
	char want[PATH_MAX], have[PATH_MAX];
	bool real;

	if (c == NULL || program == NULL)
		return false;
	if (c->all)
		return true;
	real = prog_consent_real(program, want) != NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (strcmp(c->progs[i], program) == 0)
			return true;
		if (real && prog_consent_real(c->progs[i], have) != NULL && strcmp(want, have) == 0)
			return true;
	}
	return false;
}

/* How many run steps of s are not allowed. */
size_t
prog_consent_missing(const struct scenario *s, const struct prog_consent *c)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_steps; i++)
		if (scenario_step_runs(&s->steps[i]) &&
		    !prog_consent_allows(c, s->steps[i].args.program))
			n++;
	return n;
}

/* True if path (made real) is dir (made real) or inside it. */
static bool
prog_consent_inside(const char *path, const char *dir)
{
	char d[PATH_MAX];
	size_t n;

	if (dir == NULL || realpath(dir, d) == NULL)
		return false;
	n = strlen(d);
	return strncmp(path, d, n) == 0 && (path[n] == '/' || path[n] == '\0' || n == 1);
}

/* The standard input a run step may give its program (see prog/consent.h). */
int
prog_consent_stdin(const char *given, const char *scratch_dir, const char *scratch_file,
                   const char *lesson_dir, char *buf, size_t len)
{
	char real[PATH_MAX], there[PATH_MAX * 2];
	struct stat st;

	if (given == NULL || strcmp(given, "/dev/null") == 0) {
		snprintf(buf, len, "/dev/null");
		return 0;
	}
	if (strcmp(given, "{file}") == 0) {
		snprintf(buf, len, "%s", scratch_file);
		return 0;
	}
	/* A relative name is the lesson's, as a file next to it. */
	if (given[0] != '/' && lesson_dir != NULL)
		snprintf(there, sizeof there, "%s/%s", lesson_dir, given);
	else
		snprintf(there, sizeof there, "%s", given);
	if (realpath(there, real) == NULL || stat(real, &st) != 0 || !S_ISREG(st.st_mode) ||
	    !(prog_consent_inside(real, scratch_dir) || prog_consent_inside(real, lesson_dir))) {
		/* Raw: whoever shows the reason escapes it, as every note. */
		snprintf(buf, len, "not run: its stdin %.200s%s is not a regular file inside the "
		         "scratch directory or the lesson's directory", given,
		         strlen(given) > 200 ? "…" : "");
		return -1;
	}
	if ((size_t)snprintf(buf, len, "%s", real) >= len)
		return -1;
	return 0;
}

/* If s runs a program c does not allow: say which and that nothing was done. */
size_t
prog_consent_refuse(const struct scenario *s, const struct prog_consent *c, const char *what,
                    FILE *f)
{
	if (prog_consent_missing(s, c) == 0)
		return 0;
	prog_consent_print(s, c, f);
	fprintf(f, "iobufviz: nothing was %s: a scenario runs a program only if you allow it "
	        "(--allow-run=PROGRAM, or --allow-run for every program it names)\n", what);
	return prog_consent_missing(s, c);
}

/* Print the run steps c does not allow (all of them if c is NULL), a line each. */
size_t
prog_consent_print(const struct scenario *s, const struct prog_consent *c, FILE *f)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		char *cmd;
		if (!scenario_step_runs(st) || (c != NULL && prog_consent_allows(c, st->args.program)))
			continue;
		text_fput(s->path, TEXT_LINE, f);
		/* In full, however long (no buffer of ours cuts it), escaped. */
		cmd = prog_consent_cmdline_dup(st);
		fprintf(f, ":%d:%d: step %zu runs: %s\n", st->line, st->col, i + 1,
		        cmd != NULL ? cmd : "(out of memory: not shown)");
		free(cmd);
		n++;
	}
	return n;
}

/* The question to ask before step from, if it runs a program c does not allow. */
size_t
prog_consent_prompt(const struct scenario *s, const struct prog_consent *c, size_t from,
                    char *buf, size_t len, bool *whole)
{
	size_t at, n = 0;

	buf[0] = '\0';
	*whole = true;
	if (from >= s->n_steps || !scenario_step_runs(&s->steps[from]) ||
	    prog_consent_allows(c, s->steps[from].args.program))
		return 0;
	at = (size_t)snprintf(buf, len, "Step %zu runs a program, with your rights.\ny: run "
	                      "them   n: run none (those steps do nothing)   q: quit\n"
	                      "(iobufviz --check lists them too)\n\n", from + 1);
	for (size_t i = from; i < s->n_steps; i++)
		if (scenario_step_runs(&s->steps[i]) && !prog_consent_allows(c, s->steps[i].args.program)) {
			char *cmd = prog_consent_cmdline_dup(&s->steps[i]);
			if (cmd == NULL)
				*whole = false;
			if (*whole)
				at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "  step %zu: %s\n",
				                       i + 1, cmd);
			if (at >= len)
				*whole = false;
			free(cmd);
			n++;
		}
	if (!*whole)
		prog_consent_prompt_refusal(n, buf, len);
	return n;
}

/* The prompt that cannot show every command line (see prog/consent.h). */
void
prog_consent_prompt_refusal(size_t n, char *buf, size_t len)
{
	snprintf(buf, len, "%zu command%s, too long to show here: run --check to read them.\n"
	         "n: run none (those steps do nothing)   q: quit\n", n, n == 1 ? "" : "s");
}
