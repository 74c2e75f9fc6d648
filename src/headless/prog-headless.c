/* SPDX-License-Identifier: MIT */
/* headless/prog-headless.c: trace a student's own program without a terminal and write its
 * transcript (out/transcript.c), a step per call. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/units.h"
#include "headless/app.h"
#include "crash/hazard.h"
#include "out/transcript.h"
#include "prog/launch.h"
#include "prog/run.h"

/* Room kept under the bound for the transcript's end: the program's output (bounded by
 * prog/run.c) and the closing notes. */
#define PROG_HEADLESS_END_ROOM ((uint64_t)4 << 20)

/* The transcript's stream: stdout, its bytes counted. */
struct prog_headless_out {
	FILE *to;
	uint64_t wrote;
};

/* fopencookie's write: to stdout, counted. */
static ssize_t
prog_headless_write(void *cookie, const char *buf, size_t n)
{
	struct prog_headless_out *o = cookie;
	size_t put = fwrite(buf, 1, n, o->to);

	o->wrote += put;
	return put == 0 && n > 0 ? -1 : (ssize_t)put;
}

/* The step's op name in the transcript. */
static const char *
prog_headless_op(const struct prog_run_step *s)
{
	static const char *const names[] = {
		[PROG_STEP_CALL] = "call", [PROG_STEP_STDIO] = "stdio", [PROG_STEP_EXIT] = "exit",
		[PROG_STEP_STORES] = "stores",
	};

	if (s->ps.kind == PROG_STEP_STORES && !s->ps.stored)
		return "may_store";
	return (unsigned)s->ps.kind < sizeof names / sizeof names[0] ? names[s->ps.kind] : "call";
}

/* The command line as one string, whole, into b. */
static const char *
prog_headless_cmd(char *const *argv, struct text_buf *b)
{
	for (size_t i = 0; argv[i] != NULL; i++)
		text_addf(b, "%s%s", i ? " " : "", argv[i]);
	return text_str(b);
}

/* Count a step into the program's totals, the environment and the durability hazards, and
 * write it. */
static void
prog_headless_step(struct transcript *t, struct transcript_program *p, struct prog_run *r,
                   const struct prog_run_step *s, bool note, bool *note_said,
                   struct crash_hazards *hz)
{
	const struct event_list *l = &s->sr.events;
	size_t n;
	const struct prog_run_file *v = prog_run_files(r, &n);
	bool has_file = s->file >= 0 && (size_t)s->file < n;
	struct transcript_prog_step ps = {
		.ps = &s->ps,
		.run = s,
		.path = has_file ? v[s->file].path : NULL,
		.name = has_file ? v[s->file].name : NULL,
		.label = has_file ? v[s->file].label : NULL,
		.reaches_disk = s->disk,
	};
	struct transcript_step st = {
		.sr = &s->sr,
		.op = prog_headless_op(s),
		.call = text_str(&s->text),
		.line = 1,
		/* A system call's time is the tracer's; a stdio call's or an exit's is not. */
		.traced = s->ps.kind == PROG_STEP_CALL,
		.prog = &ps,
	};

	p->n_read += l->n_read;
	p->n_write += l->n_write;
	p->b_read += l->bytes_read;
	p->b_written += l->bytes_written;
	p->n_stdio += prog_run_stdio_calls(s);
	if (s->file >= 0 && s->sr.after.disk.fs[0] != '\0')
		out_env_observe(&t->env, NULL, &s->sr.after);
	if (s->sr.ret < 0 && s->sr.err == 0)
		st.errno_why = "a library call's own result, not a system call's";
	/* Each call of the step: a stdio function's too (fopen's openat makes a file as open's
	 * does), and each of a folded run. */
	for (size_t i = 0; i < l->n; i++)
		crash_hazards_call(hz, &l->v[i], has_file ? s->file : -1, !has_file ? s->ps.path :
		                   v[s->file].in_lab ? v[s->file].name : v[s->file].path, s->disk);
	if (s->sr.crash != NULL) {
		char where[96];
		if (s->ps.src.line > 0)
			snprintf(where, sizeof where, "line %u (%s)", s->ps.src.line,
			         s->sr.label != NULL ? s->sr.label : "?");
		else
			snprintf(where, sizeof where, "step %zu (%s)", s->sr.index + 1,
			         s->sr.label != NULL ? s->sr.label : "?");
		crash_hazards_view(hz, s->sr.crash, s->crash_file, where);
	}
	/* Known at the first look at its memory (note: by this step): said once, where it was
	 * found. */
	if (!*note_said && note) {
		ps.stdio_note = prog_run_stdio_note(r);
		*note_said = true;
	}
	transcript_step(t, &st);
}

/* Run argv headless and print its transcript. */
int
prog_headless_run(char *const argv[], const struct app_opts *o, const struct prog_run_opts *ro)
{
	struct transcript_program p = { .argv = argv, .confined = PROG_LAUNCH_CONFINED };
	struct crash_hazards hz = { 0 };
	struct prog_run_step *s = malloc(sizeof *s);
	const char *error = NULL;
	bool note_said = false;
	struct transcript t;
	struct prog_stats stats;
	struct prog_run *r;
	char *err = NULL, cut[256];
	struct text_buf cmd = { 0 };
	uint64_t bound = o->max_output > 0 ? o->max_output : APP_MAX_OUTPUT;
	struct prog_headless_out count = { .to = stdout };
	cookie_io_functions_t io = { .write = prog_headless_write };
	FILE *out;
	bool over = false;
	size_t steps = 0;
	uint64_t room = bound / 8 < PROG_HEADLESS_END_ROOM ? bound / 8 : PROG_HEADLESS_END_ROOM;
	int rc, wrote;

	if (s == NULL) {
		fputs("iobufviz: out of memory\n", stderr);
		return APP_EXIT_ENV;
	}
	if (prog_run_new(argv, ro, &r, &err) != 0) {
		fputs("iobufviz: ", stderr);
		text_fput(err != NULL ? err : strerror(errno), TEXT_LINE, stderr);
		fputc('\n', stderr);
		rc = errno == ENOENT || errno == EACCES || errno == ENOEXEC ? APP_EXIT_USAGE :
		     APP_EXIT_ENV;
		free(err);
		free(s);
		return rc;
	}
	p.dir = prog_run_dir(r);
	/* Counted: the transcript has a bound (BOUNDS), however many steps the program makes or
	 * its shim's log claims. Full buffering: a step is many small writes. */
	out = fopencookie(&count, "w", io);
	if (out == NULL || setvbuf(out, NULL, _IOFBF, 1 << 16) != 0) {
		fputs("iobufviz: out of memory\n", stderr);
		if (out != NULL)
			fclose(out);
		prog_run_free(r);
		free(s);
		return APP_EXIT_ENV;
	}
	transcript_init(&t, transcript_format_or_default(o->format), out);
	t.prog = &p;
	t.title = prog_headless_cmd(argv, &cmd);
	t.path = argv[0];
	t.file = p.dir;
	t.place_note = prog_run_lab(r);
	out_env_init(&t.env, EV_SRC_PTRACE);
	out_env_tracing(&t.env, NULL);
	transcript_begin(&t);
	while ((rc = prog_run_next(r, s)) == 1) {
		bool note = prog_run_stdio_note(r)[0] != '\0';
		/* The program goes on while the step is written out. */
		prog_run_pump(r);
		prog_headless_step(&t, &p, r, s, note, &note_said, &hz);
		prog_run_step_clear(s);
		steps++;
		/* Room is kept for the end (the program's output, bounded on its own, and the
		 * notes): the whole stays under the bound. */
		if (fflush(out) != 0 || count.wrote + room >= bound) {
			over = true;
			break;
		}
	}
	if (over) {
		char b[32];
		snprintf(cut, sizeof cut, "the transcript reached its bound of %s (--max-output) "
		         "after step %zu: the program was stopped there, and the rest of its run is "
		         "not in this transcript", units_format_size(bound, b, sizeof b), steps);
		error = cut;
	} else if (rc < 0) {
		error = strerror(errno);
	}
	prog_run_stats(r, &stats);
	p.exit = prog_run_exit(r);
	p.stdio_note = prog_run_stdio_note(r);
	p.unseen_note = prog_run_unseen_note(r);
	p.n_other = stats.other_calls;
	p.n_loader = prog_run_loader_calls(r);
	p.tracer = &stats;
	p.timed_out = prog_run_timed_out(r);
	for (int k = 0; k < 2; k++)
		p.output[k] = prog_run_output(r, k + 1, false, &p.output_bytes[k]);
	p.n_hazards = crash_hazards_end(&hz);
	p.hazards = hz.v;
	wrote = transcript_end(&t, error);
	if (fclose(out) != 0)
		wrote = -1;
	text_buf_free(&cmd);
	crash_hazards_free(&hz);
	free(p.output[0]);
	free(p.output[1]);
	prog_run_free(r);
	free(s);
	if (wrote != 0 || fflush(stdout) != 0 || ferror(stdout)) {
		fputs("iobufviz: cannot write the transcript\n", stderr);
		return APP_EXIT_ENV;
	}
	if (over) {
		fprintf(stderr, "iobufviz: %s; raise the bound with --max-output\n", cut);
		return APP_EXIT_ENV;
	}
	return error != NULL ? APP_EXIT_ENV : APP_EXIT_OK;
}
