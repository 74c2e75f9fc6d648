/* SPDX-License-Identifier: MIT */
/* export/emit-steps.c: the steps that are not one call (wait, pty, tail, sweep, note, run) as C:
 * each writes the line a student reads and the program's statements together. */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "export/emit-int.h"

/*
 * wait as C: a fixed time is a sleep; "until clean" waits for the kernel's own writeback,
 * asking cachestat(2) about the file as iobufviz's probe does (wait_clean() in the program).
 */
void
emit_wait(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	if (a->until_clean) {
		ctext_printf(&e->call, "wait until the file is clean (at most %.0f s)", a->timeout);
		ctext_printf(&e->code, "wait_clean(fd, %.0f);   /* until the kernel has written it back */",
		             a->timeout);
	} else {
		ctext_printf(&e->call, "wait %.1f s", a->seconds);
		ctext_printf(&e->code, "nap(%u);   /* %.1f s: the kernel works meanwhile */",
		             (unsigned)(a->seconds * 1000.0 + 0.5), a->seconds);
	}
}

/* pty as C: exercise 13-4's snippet, on a terminal and on a file (ex13_4() in the program). */
void
emit_pty(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	/* In the order the child makes the calls: setvbuf() comes before printf(). */
	ctext_printf(&e->call, "%sprintf(...); %swrite(STDOUT_FILENO, ...) with stdout on a terminal "
	             "and on a file",
	             a->between == SCN_PTY_UNBUFFERED ? "setvbuf(stdout, NULL, _IONBF, 0); " : "",
	             a->between == SCN_PTY_FFLUSH ? "fflush(stdout); " : "");
	ctext_printf(&e->code, "ex13_4(");
	ctext_literal(&e->code, a->text != NULL ? a->text : "", 1);
	ctext_printf(&e->code, ",\n\t");
	ctext_literal(&e->code, a->text2 != NULL ? a->text2 : "", 1);
	ctext_printf(&e->code, ", %s);", a->between == SCN_PTY_FFLUSH ? "BETWEEN_FFLUSH" :
	             a->between == SCN_PTY_UNBUFFERED ? "BETWEEN_UNBUFFERED" : "BETWEEN_NOTHING");
}

/* tail as C: exercise 13-5's loop (tail() in the program). */
void
emit_tail(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	ctext_printf(&e->call, "tail -n %" PRIu64 " (lseek + read backwards, %" PRIu64
	             "-byte blocks)", a->lines, a->size);
	ctext_printf(&e->code, "tail(fd, %" PRIu64 ", %zu);", (a->has & SCN_HAS_LINES) ? a->lines : 10,
	             (a->has & SCN_HAS_SIZE) && a->size > 0 ? (size_t)a->size : (size_t)4096);
}

/* sweep as C: the timed loop of its program (sweepN() in the program, N its line). */
void
emit_sweep(const struct scn_step *st, struct emit *e)
{
	/* The title is the scenario's: base/text.c makes it one safe line. */
	char *title = text_safe_dup(st->sweep != NULL && st->sweep->title != NULL ?
	                            st->sweep->title : "timing", TEXT_LINE);

	ctext_printf(&e->call, "sweep: %s", title != NULL ? title : "?");
	free(title);
	ctext_printf(&e->code, "sweep%zu(path);", e->n);
}

/* note as C: a comment, its text wrapped (export/ctext.c keeps it a comment). */
void
emit_note(const struct scn_step *st, struct emit *e)
{
	ctext_printf(&e->call, "(narration)");
	ctext_printf(&e->code, "/* ");
	ctext_comment(&e->code, st->args.text);
	ctext_printf(&e->code, " */");
}

/* Append item (C text: a literal, a name) to a list on t, after ", " unless it is the first;
 * if the line would pass EMIT_LINE_MAX (with the "});" that ends the list), on a new line. */
static void
emit_list_item(struct ctext *t, const char *item, bool first)
{
	if (ctext_column(t) + 2 + strlen(item) + 4 > EMIT_LINE_MAX)
		ctext_printf(t, "%s\n\t\t\t%s", first ? "" : ",", item);
	else
		ctext_printf(t, "%s %s", first ? "" : ",", item);
}

/* Append the literal of s to a list on t (emit_list_item). */
static void
emit_list_literal(struct ctext *t, const char *s, bool first)
{
	struct ctext lit = { 0 };

	ctext_literal(&lit, s, 3);
	emit_list_item(t, ctext_str(&lit), first);
	t->b.nomem |= lit.b.nomem;
	ctext_clear(&lit);
}

/* run as C: fork, execvp the program (the scratch file's path for "{file}"), wait. */
void
emit_run(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	const char *prog = a->program != NULL ? a->program : "";
	/* The command line as a shell reads it (each word quoted as it needs): "run sh -c
	 * 'echo hi > x'" and not sh -c echo hi > x. */
	char *cmd = scenario_run_command(st);

	if (cmd == NULL)
		e->call.b.nomem = true;
	else
		ctext_printf(&e->call, "run %s", cmd);
	free(cmd);

	ctext_printf(&e->code, "{\t/* run: the program, with the file's path for {file} */\n"
	             "\tpid_t pid = fork();\n\n\tif (pid == 0) {\n");
	if (a->stdin_path != NULL) {
		/* The mode on a line of its own: after a full piece of the path, ", "r", stdin)
		 * == NULL)" took a line to 123 columns (found by fuzz-export). */
		ctext_printf(&e->code, "\t\tif (freopen(");
		ctext_literal(&e->code, a->stdin_path, 3);
		ctext_printf(&e->code, ",\n\t\t            \"r\", stdin) == NULL)\n\t\t\t_exit(127);\n");
	}
	ctext_printf(&e->code, "\t\talarm(%u);   /* its timeout */\n\t\texecvp(",
	             (unsigned)(a->timeout > 0 ? a->timeout + 0.5 : 60));
	ctext_literal(&e->code, prog, 3);
	ctext_printf(&e->code, ", (char *[]){");
	emit_list_literal(&e->code, prog, true);
	for (size_t i = 0; i < a->n_argv; i++) {
		if (strcmp(a->argv[i], "{file}") == 0)
			emit_list_item(&e->code, "(char *)path", false);
		else
			emit_list_literal(&e->code, a->argv[i], false);
	}
	emit_list_item(&e->code, "NULL", false);
	ctext_printf(&e->code, " });\n\t\t_exit(127);\n\t}\n"
	             "\tif (pid > 0)\n\t\twaitpid(pid, NULL, 0);\n}");
}
