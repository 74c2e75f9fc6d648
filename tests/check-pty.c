/* SPDX-License-Identifier: MIT */
/* check-pty.c: exercise 13-4: order of printf() and write() output on a pty and on a file. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export/describe.h"
#include "engine/pty-run.h"
#include "engine/runner.h"
#include "scratch/scratch.h"
#include "test-util.h"

/* The exercise's two lines. */
#define PRINTF_TEXT "If I had more time, \n"
#define WRITE_TEXT "I would have written you a shorter letter.\n"

/* st_blksize of a fresh pty: what glibc sizes a terminal stdout's buffer by. */
static long
pty_blksize(void)
{
	int m, s;
	struct stat st;

	ck_assert_int_eq(openpty(&m, &s, NULL, NULL, NULL), 0);
	ck_assert_int_eq(fstat(s, &st), 0);
	close(m);
	close(s);
	return (long)st.st_blksize;
}

/* st_blksize of a regular file in scratch dir idx: a disk file's stdout buffer size. */
static long
file_blksize(int idx)
{
	struct stat st;
	int fd = scratch_create(idx, "probe-blksize", O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	close(fd);
	return (long)st.st_blksize;
}

/* Run the snippet with the given texts and between (the file run on "out" in scratch dir
 * idx; traced when trace); both children must exit 0. */
static void
run_as(const char *p, const char *w, enum scn_pty_between between, int idx, bool trace,
       struct pty_result *r)
{
	struct scn_args a;
	char path[4096];
	struct pty_where where = { .trace = trace, .file_path = path };

	memset(&a, 0, sizeof a);
	a.text = (char *)p;
	a.text2 = (char *)w;
	a.between = between;
	ck_assert_ptr_nonnull(scratch_path(idx, "out", path, sizeof path));
	where.file_fd = scratch_create(idx, "out", O_RDWR);
	if (where.file_fd < 0 && errno == EEXIST)
		where.file_fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(where.file_fd, 0);
	ck_assert_msg(pty_run(&a, &where, r) == 0, "pty_run: %s", strerror(errno));
	close(where.file_fd);
	ck_assert(WIFEXITED(r->term.status) && WEXITSTATUS(r->term.status) == 0);
	ck_assert(WIFEXITED(r->file.status) && WEXITSTATUS(r->file.status) == 0);
	ck_assert(r->term.stdio_ok);
	ck_assert(r->file.stdio_ok);
	ck_assert_ptr_nonnull(r->term.output);
	ck_assert_ptr_nonnull(r->file.output);
}

/* The same, untraced. */
static void
run(const char *p, const char *w, enum scn_pty_between between, int idx, struct pty_result *r)
{
	run_as(p, w, between, idx, false, r);
}

/* Nothing between: the terminal shows printf's line first, the file write()'s text first. */
START_TEST(test_plain)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	run(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_NOTHING, idx, &r);
	ck_assert_str_eq(r.term.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(r.file.output, WRITE_TEXT PRINTF_TEXT);
	/* Terminal: line buffered, sized by the pty's st_blksize, flushed at the '\n'. */
	ck_assert_int_eq(r.term.stdio.mode, SCN_BUF_LINE);
	ck_assert_int_eq((long)r.term.stdio.size, pty_blksize());
	ck_assert_uint_eq(r.term.stdio.pending, 0);
	/* File: fully buffered, the file's st_blksize, the whole line still pending. */
	ck_assert_int_eq(r.file.stdio.mode, SCN_BUF_FULL);
	ck_assert_int_eq((long)r.file.stdio.size, file_blksize(idx));
	ck_assert_uint_eq(r.file.stdio.pending, strlen(PRINTF_TEXT));
	ck_assert_int_eq(r.file.stdio.fd, STDOUT_FILENO);
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* fflush() after the printf: printf's text first in both. */
START_TEST(test_fflush)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	run(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_FFLUSH, idx, &r);
	ck_assert_str_eq(r.term.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(r.file.output, PRINTF_TEXT WRITE_TEXT);
	/* Measured after the printf, before the fflush: the file still had it pending then. */
	ck_assert_uint_eq(r.file.stdio.pending, strlen(PRINTF_TEXT));
	ck_assert_int_eq(r.file.stdio.mode, SCN_BUF_FULL);
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* setvbuf(_IONBF) before the printf: printf's text first in both, nothing ever pending. */
START_TEST(test_unbuffered)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	run(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_UNBUFFERED, idx, &r);
	ck_assert_str_eq(r.term.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(r.file.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_int_eq(r.term.stdio.mode, SCN_BUF_NONE);
	ck_assert_int_eq(r.file.stdio.mode, SCN_BUF_NONE);
	ck_assert_uint_eq(r.term.stdio.pending, 0);
	ck_assert_uint_eq(r.file.stdio.pending, 0);
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* The step's C says the calls in the order the child makes them: setvbuf() first. */
START_TEST(test_describe_order)
{
	struct scn_step st = { .op = SCN_OP_PTY };
	char buf[256];

	st.args.between = SCN_PTY_UNBUFFERED;
	describe_step(&st, buf, sizeof buf);
	ck_assert_msg(strncmp(buf, "setvbuf(stdout, NULL, _IONBF, 0); printf(", 41) == 0, "%s", buf);
	st.args.between = SCN_PTY_FFLUSH;
	describe_step(&st, buf, sizeof buf);
	ck_assert_msg(strncmp(buf, "printf(...); fflush(stdout); write(", 35) == 0, "%s", buf);
}
END_TEST

/* TLPI 13.7's text has no '\n': even on a terminal the line waits, and write() wins. */
START_TEST(test_no_newline_on_terminal)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;
	const char *p = "To man the world is twofold, ";
	const char *w = "in accordance with his twofold attitude.\n";
	char want[128];

	ck_assert_int_ge(idx, 0);
	run(p, w, SCN_PTY_NOTHING, idx, &r);
	snprintf(want, sizeof want, "%s%s", w, p);
	ck_assert_str_eq(r.term.output, want);
	ck_assert_str_eq(r.file.output, want);
	ck_assert_uint_eq(r.term.stdio.pending, strlen(p));
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* What the caller left in its own stdout buffer never leaks into the snippet's output. */
START_TEST(test_caller_buffer_not_inherited)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	/* Make our stdout fully buffered with bytes pending, as a headless transcript would. */
	setvbuf(stdout, NULL, _IOFBF, 8192);
	fputs("CALLER-PENDING", stdout);
	ck_assert_uint_gt(__fpending(stdout), 0);
	run(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_NOTHING, idx, &r);
	__fpurge(stdout);
	ck_assert_ptr_null(strstr(r.term.output, "CALLER"));
	ck_assert_ptr_null(strstr(r.file.output, "CALLER"));
	/* And the children still chose their own modes, not the caller's. */
	ck_assert_int_eq(r.term.stdio.mode, SCN_BUF_LINE);
	ck_assert_int_eq((long)r.term.stdio.size, pty_blksize());
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* The process that registered caller_atexit (the test itself stays quiet at its exit). */
static pid_t atexit_owner;

/* An atexit handler of the caller (the TUI restoring its terminal) runs in no child. */
static void
caller_atexit(void)
{
	if (getpid() == atexit_owner)
		return;
	fputs("CALLER-ATEXIT", stdout);
	fflush(stdout);
}

START_TEST(test_caller_atexit_not_run)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	atexit_owner = getpid();
	atexit(caller_atexit);
	run(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_NOTHING, idx, &r);
	ck_assert_str_eq(r.term.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(r.file.output, WRITE_TEXT PRINTF_TEXT);
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* The file run writes the file it is given, emptied first (as "> file" does): what the
 * file holds after is its output, whatever it held before. */
START_TEST(test_file_given)
{
	int idx = scratch_mkdir(NULL);
	struct pty_result r;
	char path[4096], got[256] = "";
	int fd;

	ck_assert_int_ge(idx, 0);
	fd = scratch_create(idx, "out", O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "an older and longer content\n", 28), 28);
	close(fd);
	run("a\n", "b\n", SCN_PTY_NOTHING, idx, &r);
	ck_assert_ptr_nonnull(scratch_path(idx, "out", path, sizeof path));
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, got, sizeof got - 1), 4);
	close(fd);
	ck_assert_str_eq(got, "b\na\n");
	ck_assert_str_eq(r.file.output, "b\na\n");
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* The write() calls on stdout of each run, named by the run, in order, with their sizes
 * and who made them: the lesson of exercise 13-4, from the tracer. */
START_TEST(test_traced_calls)
{
	static const struct { const char *run; uint64_t bytes; enum ev_origin origin; } want[] = {
		{ "terminal", sizeof PRINTF_TEXT - 1, EV_STDIO },  /* the '\n' flushed it */
		{ "terminal", sizeof WRITE_TEXT - 1, EV_DIRECT },
		{ "file", sizeof WRITE_TEXT - 1, EV_DIRECT },
		{ "file", sizeof PRINTF_TEXT - 1, EV_STDIO },      /* exit()'s flush */
	};
	int idx = scratch_mkdir(NULL);
	struct pty_result r;
	size_t k = 0;
	char line[256];

	ck_assert_int_ge(idx, 0);
	run_as(PRINTF_TEXT, WRITE_TEXT, SCN_PTY_NOTHING, idx, true, &r);
	for (int side = 0; side < 2; side++) {
		const struct event_list *l = side == 0 ? &r.term.events : &r.file.events;
		for (size_t i = 0; i < l->n; i++) {
			const struct event *e = &l->v[i];
			ck_assert_str_eq(e->run, side == 0 ? "terminal" : "file");
			ck_assert_int_eq(e->fd, STDOUT_FILENO);
			if (strcmp(e->call, "write") != 0)
				continue;
			ck_assert_uint_lt(k, sizeof want / sizeof want[0]);
			ck_assert_str_eq(e->run, want[k].run);
			ck_assert_uint_eq(e->bytes, want[k].bytes);
			ck_assert_int_eq((int)e->result, (int)want[k].bytes);
			ck_assert_int_eq(e->origin, want[k].origin);
			k++;
		}
	}
	ck_assert_uint_eq(k, sizeof want / sizeof want[0]);
	ck_assert_str_eq(event_format(&r.file.events.v[r.file.events.n - 1], line, sizeof line),
	                 "file: write(1, 21) = 21");
	/* Traced or not, the outputs are the same. */
	ck_assert_str_eq(r.term.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(r.file.output, WRITE_TEXT PRINTF_TEXT);
	pty_result_clear(&r);
	scratch_remove(idx);
}
END_TEST

/* Through the runner: a pty step's outputs land in step_result, the modes in its note. */
START_TEST(test_runner_pty)
{
	struct scn_step steps[1];
	struct scenario sc;
	struct step_result res;
	char *err = NULL;
	struct runner *r;

	memset(steps, 0, sizeof steps);
	memset(&sc, 0, sizeof sc);
	steps[0].op = SCN_OP_PTY;
	steps[0].args.text = (char *)PRINTF_TEXT;
	steps[0].args.text2 = (char *)WRITE_TEXT;
	sc.title = (char *)"pty";
	sc.steps = steps;
	sc.n_steps = 1;
	r = runner_new(&sc, NULL, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, 0);
	ck_assert_ptr_nonnull(res.output);
	ck_assert_ptr_nonnull(res.output_file);
	ck_assert_str_eq(res.output, PRINTF_TEXT WRITE_TEXT);
	ck_assert_str_eq(res.output_file, WRITE_TEXT PRINTF_TEXT);
	/* The scenario's file is the file run's stdout: the panes show its 64 bytes. */
	ck_assert_uint_eq(res.after.cache.file_size, strlen(WRITE_TEXT PRINTF_TEXT));
	ck_assert_ptr_nonnull(strstr(text_str(&res.note), "terminal stdout line buffered"));
	ck_assert_ptr_nonnull(strstr(text_str(&res.note), "file stdout fully buffered"));
	step_result_clear(&res);
	runner_free(r);
}
END_TEST

/* A printf() larger than a pty holds, traced: the terminal is read while its child is
 * stopped and resumed, so neither waits for the other; all of it arrives, in time. */
START_TEST(test_traced_big)
{
	int idx = scratch_mkdir(NULL);
	size_t n = 200000;
	char *big = malloc(n + 2);
	struct pty_result r;

	ck_assert_int_ge(idx, 0);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', n);
	big[n] = '\n';
	big[n + 1] = '\0';
	run_as(big, "w\n", SCN_PTY_NOTHING, idx, true, &r);
	ck_assert_uint_eq(strlen(r.term.output), n + 3);
	ck_assert_uint_eq(strlen(r.file.output), n + 3);
	ck_assert_uint_ge(r.term.events.n, 2);
	pty_result_clear(&r);
	free(big);
	scratch_remove(idx);
}
END_TEST

/* The suite. */
static Suite *
pty_suite(void)
{
	Suite *s = suite_create("pty");
	TCase *tc = tcase_create("pty");

	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_fflush);
	tcase_add_test(tc, test_unbuffered);
	tcase_add_test(tc, test_describe_order);
	tcase_add_test(tc, test_no_newline_on_terminal);
	tcase_add_test(tc, test_caller_buffer_not_inherited);
	tcase_add_test(tc, test_file_given);
	test_util_add(tc, test_traced_calls, test_util_need_ptrace());
	test_util_add(tc, test_traced_big, test_util_need_ptrace());
	tcase_add_test(tc, test_caller_atexit_not_run);
	tcase_add_test(tc, test_runner_pty);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(pty_suite());
}
