/* SPDX-License-Identifier: MIT */
/* headless/headless.c: run a lesson without a terminal and write its transcript (out/transcript.c),
 * or with --export only its sweeps' tables. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/text.h"
#include "headless/app.h"
#include "export/describe.h"
#include "lesson/lesson.h"
#include "out/transcript.h"
#include "export/sweep.h"
#include "table/print.h"

/*
 * If a sweep step could not run, or one of its rows failed for want of room or rights
 * (ENOSPC, EFBIG, EDQUOT, EROFS, EIO, ENOMEM: the machine's limits, not the lesson's, unlike
 * EINVAL under O_DIRECT), say so in msg (whole: the note may name a path) and return true:
 * the run ends with exit status 3.
 */
static bool
headless_sweep_env(const struct step_result *sr, struct text_buf *msg)
{
	if (sr->step->op != SCN_OP_SWEEP)
		return false;
	if (sr->sweep == NULL) {
		text_setf(msg, "step %zu: %s", sr->index + 1,
		          sr->note.len > 0 ? text_str(&sr->note) : "the sweep could not run");
		return true;
	}
	for (size_t v = 0; v < sr->sweep->n_variants; v++) {
		const struct sweep_variant *bv = &sr->sweep->variants[v];
		for (size_t i = 0; i < bv->n_rows; i++) {
			int e = bv->rows[i].err;
			if (e != ENOSPC && e != EFBIG && e != EDQUOT && e != EROFS && e != EIO &&
			    e != ENOMEM)
				continue;
			text_setf(msg, "step %zu: the sweep's %" PRIu64 "-byte row%s%s%s could not "
			          "run: %s", sr->index + 1, bv->rows[i].buf_size,
			          bv->v->name ? " (variant " : "", bv->v->name ? bv->v->name : "",
			          bv->v->name ? ")" : "",
			          bv->rows[i].note[0] ? bv->rows[i].note : strerror(e));
			return true;
		}
	}
	return false;
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

/* The transcript's head: the lesson, its scratch file, and the machine it runs on. */
static void
headless_head(struct transcript *t, const struct scenario *s, const struct lesson *l,
              const struct app_opts *o)
{
	const struct snapshot *init = lesson_initial(l);

	t->title = s->title;
	t->source = s->source;
	t->path = s->path;
	t->intro = lesson_intro(l, &t->intro_v, &t->intro_n);
	t->scn = s;
	t->file = lesson_file_path(l);
	t->place_note = lesson_place_note(l)[0] ? lesson_place_note(l) : NULL;
	t->notes[0] = init->cache.note[0] ? init->cache.note : NULL;
	/* One note when both panes say the same (no file yet: the lesson has not made it). */
	t->notes[1] = init->disk.note[0] && strcmp(init->disk.note, init->cache.note) != 0 ?
		      init->disk.note : NULL;
	t->n_steps = s->n_steps;
	t->strict = o->strict;
	t->sweep_flags = (o->ascii ? SWEEP_PRINT_ASCII : 0) | (o->wide ? SWEEP_PRINT_WIDE : 0);
	out_env_init(&t->env, lesson_trace_source(l));
	out_env_observe(&t->env, lesson_fs_name(l), init);
	out_env_tracing(&t->env, lesson_tracing_overhead(l));
}

/* One step as the transcript gives it to its format. */
static void
headless_step(struct transcript *t, const struct lesson *l, const struct step_result *sr)
{
	char call[256];
	struct transcript_step st = {
		.sr = sr,
		.op = scenario_op_name(sr->step->op),
		.call = describe_step(sr->step, call, sizeof call),
		.line = sr->step->line,
		/* The step's time includes ptrace stops when the traced worker ran it. */
		.traced = lesson_trace_source(l) == EV_SRC_PTRACE && scenario_op_in_worker(sr->step->op),
	};

	if (sr->ret < 0 && sr->err == 0)
		st.errno_why = sr->note.len > 0 ? text_str(&sr->note) : "the call did not return";
	/* The probes are known from the first step that has a file to probe. */
	out_env_observe(&t->env, NULL, &sr->after);
	transcript_step(t, &st);
}

/* --export: a sweep step's table alone on stdout, or why it could not run on stderr. */
static void
headless_export(const struct step_result *sr, const char *fmt)
{
	if (sr->sweep != NULL) {
		sweep_export(stdout, sr->sweep, fmt);
	} else if (sr->ret < 0 && sr->step->op == SCN_OP_SWEEP) {
		fprintf(stderr, "iobufviz: step %zu: ", sr->index + 1);
		text_fput(text_str(&sr->note), TEXT_LINE, stderr);
		fputc('\n', stderr);
	}
}

/* Run the scenario headless. */
int
headless_run(const struct scenario *s, const struct app_opts *o)
{
	struct runner_opts ro = { .dir = o->dir, .trace = o->trace, .budget = o->budget,
	                          .sweep_dirs = o->dirs, .n_sweep_dirs = o->n_dirs,
	                          .probe = o->probe, .timeout = o->timeout,
	                          .crash_fs = o->crash_fs, .consent = &o->consent,
	                          .run_op = o->run_op, .pace = o->pace,
	                          /* --crash-fs: what each crash would leave, after every step */
	                          .crash_each = o->crash_fs != CRASH_FS_NONE };
	bool progress = isatty(STDERR_FILENO), sweep_failed = false, export = o->export_fmt != NULL;
	struct text_buf envmsg = { 0 };  /* why the environment failed the run */
	bool timed_out = false;
	struct transcript t;
	struct lesson *l;
	char *err = NULL;
	const char *fail = NULL;         /* why the run ended early */
	int rc = APP_EXIT_OK, wrote;

	/* Nobody is asked: a program runs only if the command line named it (--allow-run). */
	if (prog_consent_refuse(s, &o->consent, "run", stderr) > 0)
		return APP_EXIT_USAGE;
	if (progress)
		ro.sweep_progress = headless_sweep_progress;
	l = lesson_new(s, &ro, &err);
	if (l == NULL) {
		fputs("iobufviz: ", stderr);
		text_fput(err != NULL ? err : "out of memory", TEXT_LINE, stderr);
		fputc('\n', stderr);
		free(err);
		return APP_EXIT_ENV;
	}
	transcript_init(&t, transcript_format_or_default(o->format), stdout);
	headless_head(&t, s, l, o);
	if (!export)
		transcript_begin(&t);
	for (;;) {
		int got = lesson_step(l);
		const struct step_result *sr = lesson_last(l);
		if (got == 0)
			break;
		if (got < 0) {
			fail = "out of memory";
			break;
		}
		if (progress && sr->sweep != NULL)
			fputs("\r\033[K", stderr);
		/* A sweep that could not run (at all, or a row for want of space) is the
		 * environment's failure, not a lesson's. */
		if (!sweep_failed && headless_sweep_env(sr, &envmsg))
			sweep_failed = true;
		if (export) {
			transcript_count(&t, sr);
			headless_export(sr, o->export_fmt);
		} else
			headless_step(&t, l, sr);
		/* A run past its --timeout ends here: the environment's bound, not the lesson's. */
		if (sr->timed_out) {
			text_setf(&envmsg, "step %zu: the run took longer than its timeout of %g s "
			          "(--timeout): stopped, nothing left behind", sr->index + 1, o->timeout);
			fail = text_str(&envmsg);
			timed_out = true;
			break;
		}
	}
	wrote = export ? 0 : transcript_end(&t, fail != NULL ? fail :
	                                    sweep_failed ? text_str(&envmsg) : NULL);
	lesson_free(l);
	if (wrote != 0 || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "iobufviz: cannot write the transcript\n");
		text_buf_free(&envmsg);
		return APP_EXIT_ENV;
	}
	if (timed_out)
		fprintf(stderr, "iobufviz: %s\n", text_str(&envmsg));
	text_buf_free(&envmsg);
	if (fail != NULL || sweep_failed)
		rc = APP_EXIT_ENV;
	else if (!t.ok)
		rc = APP_EXIT_FAILED;
	return rc;
}
