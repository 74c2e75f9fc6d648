/* SPDX-License-Identifier: MIT */
/* check-transcript.c: the one transcript writer: every format in the table writes a lesson's
 * and a program's transcript whole; both kinds write an event and a state the same way. */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/app.h"
#include "out/transcript.h"
#include "test-util.h"

/* A made-up step: one write of 100 bytes on fd 3 by stdio, its state after. */
struct fake {
	struct scn_step scn;
	struct step_result sr;
	struct event ev;
	struct prog_step ps;
	struct transcript_prog_step tps;
};

/* Fill f: a step that wrote, as a lesson's (fwrite) or a program's (a write call). */
static void
fake_fill(struct fake *f)
{
	memset(f, 0, sizeof *f);
	f->scn.op = SCN_OP_FWRITE;
	f->scn.line = 7;
	f->scn.say = "a \033[31msay\033[0m";
	snprintf(f->ev.call, sizeof f->ev.call, "write");
	f->ev.fd = 3;
	f->ev.bytes = f->ev.result = 100;
	f->ev.offset = -1;
	f->ev.ns = 1500;
	f->ev.ns_traced = true;
	f->ev.origin = EV_STDIO;
	f->sr.step = &f->scn;
	f->sr.ret = 100;
	f->sr.op_ns = 2500;
	f->sr.events.source = EV_SRC_PTRACE;
	f->sr.events.v = &f->ev;
	f->sr.events.n = f->sr.events.cap = 1;
	f->sr.events.n_write = 1;
	f->sr.events.bytes_written = 100;
	f->sr.ok = true;
	f->sr.after.stdio.open = true;
	f->sr.after.stdio.fd = 3;
	f->sr.after.stdio.size = 4096;
	f->sr.after.stdio.mode = SCN_BUF_FULL;
	f->sr.after.cache.source = SNAP_SRC_CACHESTAT;
	f->sr.after.cache.has_dirty = true;
	f->sr.after.cache.file_size = 100;
	f->sr.after.cache.cached = f->sr.after.cache.dirty = 1;
	f->sr.after.cache.n_cells = 1;
	f->sr.after.cache.pages_per_cell = 1;
	f->sr.after.cache.cells[0].cached = f->sr.after.cache.cells[0].dirty = 1;
	f->sr.after.disk.source = SNAP_SRC_NONE;
	snprintf(f->sr.after.disk.note, sizeof f->sr.after.disk.note, "tmpfs has no disk");
	snprintf(f->sr.after.disk.fs, sizeof f->sr.after.disk.fs, "tmpfs");
	f->ps.kind = PROG_STEP_CALL;
	f->ps.pid = 42;
	f->ps.ev = f->ev;
	f->tps.ps = &f->ps;
	f->tps.path = "/tmp/x";
}

/* Write a transcript of one step in format fmt, as a program's (prog) or a lesson's; return
 * the text (the caller frees it). */
static char *
fake_transcript(const struct transcript_format *fmt, bool prog, int *rc)
{
	static char *const argv[] = { "./p", "x", NULL };
	struct transcript_program p = { .argv = argv, .dir = "/tmp", .stdio_note = "" };
	struct transcript t;
	struct fake *f = calloc(1, sizeof *f);
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(out);
	fake_fill(f);
	transcript_init(&t, fmt, out);
	t.title = prog ? "./p x" : "a \033]0;title\007";
	t.path = prog ? "./p" : "l.yaml";
	t.file = "/tmp/f";
	t.n_steps = prog ? 0 : 1;
	t.prog = prog ? &p : NULL;
	out_env_init(&t.env, EV_SRC_PTRACE);
	out_env_observe(&t.env, NULL, &f->sr.after);
	out_env_tracing(&t.env, NULL);
	transcript_begin(&t);
	struct transcript_step st = {
		.sr = &f->sr, .op = prog ? "call" : "fwrite", .call = "fwrite(buf, 1, 100, fp)",
		.line = prog ? 1 : 7, .traced = true, .prog = prog ? &f->tps : NULL,
	};
	transcript_step(&t, &st);
	*rc = transcript_end(&t, NULL);
	ck_assert_int_eq(fclose(out), 0);
	free(f);
	return buf;
}

START_TEST(test_every_format)
{
	/* Found by themselves: a format added to the table is tested here too. */
	size_t n = 0;

	for (const struct transcript_format *fmt; (fmt = transcript_format_at(n)) != NULL; n++) {
		ck_assert_ptr_eq(transcript_format_find(fmt->name), fmt);
		for (int prog = 0; prog <= 1; prog++) {
			int rc;
			char *text = fake_transcript(fmt, prog, &rc);
			ck_assert_msg(rc == 0, "%s (%s): the end failed", fmt->name,
			              prog ? "program" : "lesson");
			ck_assert_msg(strlen(text) > 0, "%s wrote nothing", fmt->name);
			/* Nothing of the scenario reaches a terminal raw. */
			ck_assert_msg(strchr(text, '\033') == NULL, "%s: a raw ESC", fmt->name);
			free(text);
		}
	}
	ck_assert_uint_ge(n, 3);
	ck_assert_ptr_null(transcript_format_find("xml"));
}
END_TEST

/* The text from the first occurrence of from to the end of its object (matching braces). */
static char *
json_part(const char *text, const char *from)
{
	const char *p = strstr(text, from), *q;
	int depth = 0;

	ck_assert_msg(p != NULL, "no %s in %s", from, text);
	for (q = p + strlen(from) - 1; *q != '\0'; q++) {
		depth += (*q == '{' || *q == '[') - (*q == '}' || *q == ']');
		if (depth == 0)
			break;
	}
	return strndup(p, (size_t)(q - p + 1));
}

START_TEST(test_same_parts)
{
	/* A lesson's step and a program's step with the same call and state write them alike:
	 * one event function, one state function. */
	int rc;
	char *lesson = fake_transcript(&out_json_format, false, &rc);
	char *prog = fake_transcript(&out_json_format, true, &rc);
	const char *parts[] = { "\"events\":[", "\"state\":{" };

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		char *a = json_part(lesson, parts[i]), *b = json_part(prog, parts[i]);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	ck_assert_ptr_nonnull(strstr(lesson, "\"child\":false,\"detail\":null}"));
	ck_assert_ptr_nonnull(strstr(prog, "\"pid\":42,\"file\":\"/tmp/x\""));
	/* One environment object for both. */
	char *a = json_part(lesson, "\"environment\":{"), *b = json_part(prog, "\"environment\":{");
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "\"cache_source\":\"cachestat\""));
	ck_assert_ptr_nonnull(strstr(a, "\"tracing\":null,\"tracing_why\":"));
	free(a);
	free(b);
	free(lesson);
	free(prog);
}
END_TEST

/* The suite. */
static Suite *
transcript_suite(void)
{
	Suite *s = suite_create("transcript");
	TCase *tc = tcase_create("formats");
	tcase_add_test(tc, test_every_format);
	tcase_add_test(tc, test_same_parts);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(transcript_suite());
}
