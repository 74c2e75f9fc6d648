/* SPDX-License-Identifier: MIT */
/* check-cli.c: the real binary's options, messages and exit codes. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test-util.h"

/* Output of one run of the binary. */
struct run {
	int status;      /* exit code, or 128 + signal */
	char out[65536];
	char err[65536];
};

/* Read all of fd into buf (NUL-terminated, truncated to len - 1; the rest is read and
 * dropped, so that a long transcript cannot block the program on a full pipe). */
static void
slurp(int fd, char *buf, size_t len)
{
	char drop[4096];
	size_t n = 0;
	ssize_t r;
	while ((r = n + 1 < len ? read(fd, buf + n, len - 1 - n) : read(fd, drop, sizeof drop)) > 0)
		if (n + 1 < len)
			n += (size_t)r;
	buf[n] = '\0';
}

/* Run $IOBUFVIZ_BIN with args (NULL-terminated), stdin from the file in, no terminal. */
static void
run_from(struct run *r, const char *in, const char *const *args)
{
	const char *bin = getenv("IOBUFVIZ_BIN");
	char *argv[32];
	int o[2], e[2], st;
	size_t n = 0;

	ck_assert_msg(bin != NULL, "IOBUFVIZ_BIN not set (run through make check)");
	argv[n++] = (char *)bin;
	for (; args[n - 1] != NULL && n < 31; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open(in, O_RDONLY);
		dup2(null, 0);
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execv(bin, argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	/* Outputs are small here; read stdout fully, then stderr. */
	slurp(o[0], r->out, sizeof r->out);
	slurp(e[0], r->err, sizeof r->err);
	close(o[0]);
	close(e[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run $IOBUFVIZ_BIN with args (NULL-terminated) and no terminal; fill r. */
static void
run(struct run *r, const char *const *args)
{
	run_from(r, "/dev/null", args);
}

/* The first byte of s a terminal would act on (C0 but '\n', DEL, C1 in UTF-8), or NULL. */
static const char *
control_byte(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u != '\0'; u++)
		if ((*u < 0x20 && *u != '\n') || *u == 0x7f ||
		    (*u == 0xc2 && u[1] >= 0x80 && u[1] < 0xa0) || (*u >= 0x80 && *u < 0xa0))
			return (const char *)u;
	return NULL;
}

START_TEST(test_help_version)
{
	static struct run r;
	run(&r, (const char *[]){ "--help", NULL });
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "Usage: iobufviz"));
	ck_assert_ptr_nonnull(strstr(r.out, "--headless"));
	run(&r, (const char *[]){ "--version", NULL });
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, PACKAGE_NAME " " PACKAGE_VERSION "\n");
}
END_TEST

START_TEST(test_usage_errors)
{
	static const char *const cases[][5] = {
		{ NULL },
		{ "--bogus", NULL },
		{ "-Z", NULL },
		{ "--format=xml", "x.yaml", NULL },
		{ "--trace=magic", "x.yaml", NULL },
		{ "--export=pdf", "x.yaml", NULL },
		{ "--budget=-1", "x.yaml", NULL },
		{ "--dir", NULL },
		{ "--check", NULL },
		{ "a.yaml", "b.yaml", NULL },
		{ "/nonexistent/scenario.yaml", NULL },
		{ "no-such-bundled-scenario", NULL },
		{ "/", NULL },
		{ "--headless", "--record=x.cast", "13-3", NULL },
		{ "--headless", "--quiz", "13-3", NULL },
		{ "--export=csv", "13-3", NULL },
	};
	static struct run r;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run(&r, cases[i]);
		ck_assert_msg(r.status == 2, "case %zu (%s): exit %d, want 2", i,
		              cases[i][0] ? cases[i][0] : "(none)", r.status);
		/* A file that cannot be a scenario is a scenario error: FILE:LINE:COL, like
		 * every other; the rest are usage errors, said by the program. */
		if (cases[i][0] != NULL && cases[i][0][0] == '/') {
			char want[256];
			snprintf(want, sizeof want, "%s:1:1: ", cases[i][0]);
			ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "case %zu: stderr '%s'",
			              i, r.err);
		} else {
			ck_assert_msg(strncmp(r.err, "iobufviz: ", 10) == 0, "case %zu: stderr '%s'", i,
			              r.err);
		}
		ck_assert_str_eq(r.out, "");
	}
}
END_TEST

/* Issue 20.6: what a user typed comes back escaped; a message names the option given; a
 * number is refused with a blank on either side alike. */
START_TEST(test_small_items)
{
	static struct run r;

	/* A raw ESC from --seed and --practice comes back as \x1b, never as the byte. */
	run(&r, (const char *[]){ "--seed=\033[31mX", "13-3", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(control_byte(r.err) == NULL, "raw control in '%s'", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "'\\x1b[31mX'"));
	run(&r, (const char *[]){ "--practice", "\033]0;title\007", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(control_byte(r.err) == NULL, "raw control in '%s'", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "'\\x1b]0;title\\x07'"));
	run(&r, (const char *[]){ "--budget=\0331", "13-3", NULL });
	ck_assert_msg(control_byte(r.err) == NULL, "raw control in '%s'", r.err);
	/* --guess without --practice: the message is about --guess, not --seed and --answers. */
	run(&r, (const char *[]){ "--guess=1", "13-3", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--guess") != NULL && strstr(r.err, "--seed") == NULL &&
	              strstr(r.err, "--answers") == NULL, "stderr '%s'", r.err);
	run(&r, (const char *[]){ "--seed=7", "13-3", NULL });
	ck_assert_msg(r.status == 2 && strstr(r.err, "--seed: only with --practice") != NULL,
	              "stderr '%s'", r.err);
	/* A blank before or after a number: both refused, the same way. */
	for (int i = 0; i < 2; i++) {
		run(&r, (const char *[]){ "--practice", "stdio", i ? "--seed=5 " : "--seed= 5",
		                          "--headless", NULL });
		ck_assert_msg(r.status == 2 && strstr(r.err, "expected a number") != NULL,
		              "case %d: exit %d, stderr '%s'", i, r.status, r.err);
		run(&r, (const char *[]){ i ? "--timeout=5 " : "--timeout= 5", "13-3", NULL });
		ck_assert_msg(r.status == 2 && strstr(r.err, "--timeout") != NULL,
		              "timeout case %d: exit %d, stderr '%s'", i, r.status, r.err);
	}
	run(&r, (const char *[]){ "--practice", "stdio", "--seed=5", "--headless", NULL });
	ck_assert_int_eq(r.status, 0);
}
END_TEST

START_TEST(test_not_a_terminal)
{
	static struct run r;
	char path[PATH_MAX];
	test_util_src_path("tests/cli-minimal.yaml", path, sizeof path);
	run(&r, (const char *[]){ path, NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--headless"));
}
END_TEST

/* Every bad fixture: exit 2 and "PATH:LINE:COL: " on stderr, the one its first line names. */
START_TEST(test_check_bad_fixtures)
{
	static struct run r;
	char dir[PATH_MAX], path[PATH_MAX + 256];
	regex_t re;
	int seen = 0;
	DIR *d = opendir(test_util_src_path("tests/fixtures/bad", dir, sizeof dir));
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		if (strstr(e->d_name, ".yaml") == NULL)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		run(&r, (const char *[]){ "--check", path, NULL });
		ck_assert_msg(r.status == 2, "%s: exit %d, want 2", e->d_name, r.status);
		char pat[sizeof path + 64];
		snprintf(pat, sizeof pat, "^%s:[0-9]+:[0-9]+: [^\n]+", path);
		ck_assert_int_eq(regcomp(&re, pat, REG_EXTENDED | REG_NEWLINE), 0);
		ck_assert_msg(regexec(&re, r.err, 0, NULL, 0) == 0, "%s: no position in '%s'",
		              e->d_name, r.err);
		regfree(&re);
		/* A first line "# expect: L:C: message" names the exact error. */
		FILE *f = fopen(path, "r");
		char line[512];
		if (f != NULL && fgets(line, sizeof line, f) != NULL &&
		    strncmp(line, "# expect: ", 10) == 0) {
			char want[sizeof path + sizeof line];
			line[strcspn(line, "\n")] = '\0';
			snprintf(want, sizeof want, "%s:%s", path, line + 10);
			ck_assert_msg(strstr(r.err, want) != NULL, "%s: want '%s', got '%s'",
			              e->d_name, want, r.err);
		}
		if (f != NULL)
			fclose(f);
		seen++;
	}
	closedir(d);
	ck_assert_int_ge(seen, 25);
}
END_TEST

/* A scenario's ESC, BEL and C1 bytes in an unknown op or value are shown escaped: none of
 * them reaches the terminal that --check prints to. */
START_TEST(test_check_controls)
{
	static const char *const names[] = { "unknown-op-control.yaml", "value-control.yaml" };
	static struct run r;
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char rel[128];
		snprintf(rel, sizeof rel, "tests/fixtures/bad/%s", names[i]);
		test_util_src_path(rel, path, sizeof path);
		run(&r, (const char *[]){ "--check", path, NULL });
		ck_assert_int_eq(r.status, 2);
		ck_assert_ptr_nonnull(strstr(r.err, "\\x1b"));
		ck_assert_ptr_nonnull(strstr(r.err, "\\x07"));
		ck_assert_msg(control_byte(r.err) == NULL, "%s: a control byte on stderr: '%s'",
		              names[i], r.err);
		ck_assert_msg(control_byte(r.out) == NULL, "%s: a control byte on stdout", names[i]);
	}
}
END_TEST

/* "-" is standard input: checked and run like a file, named <stdin>, 1 MiB at most. */
START_TEST(test_stdin)
{
	static struct run r;
	char good[PATH_MAX], bad[PATH_MAX], big[] = "/tmp/iobufviz-cli-XXXXXX";
	static char junk[1 << 16];
	int fd;

	test_util_src_path("tests/cli-minimal.yaml", good, sizeof good);
	test_util_src_path("tests/fixtures/bad/unknown-op.yaml", bad, sizeof bad);
	run_from(&r, good, (const char *[]){ "--check", "-", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_str_eq(r.out, "<stdin>: ok, 1 step\n");
	run_from(&r, bad, (const char *[]){ "--check", "-", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.err, "<stdin>:4:5: unknown op 'fwrit' in step 1 (did you mean "
	                 "'fwrite'?)\n");
	run_from(&r, good, (const char *[]){ "--headless", "-", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "<stdin>"));
	/* More than the bound: refused, not read whole. */
	fd = mkstemp(big);
	ck_assert_int_ge(fd, 0);
	memset(junk, '#', sizeof junk);
	for (int i = 0; i < 17; i++)
		ck_assert_int_eq(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
	close(fd);
	run_from(&r, big, (const char *[]){ "--check", "-", NULL });
	unlink(big);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.err, "<stdin>:1:1: too large for a scenario (more than 1 MiB; the "
	                 "limit is 1 MiB)\n");
}
END_TEST

/* Seconds on the monotonic clock. */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* True if dir has nothing in it. */
static bool
dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	return empty;
}

/*
 * --timeout=2 stops a longer run in about 2 s with exit 3 and says why, whether the step
 * runs in the runner (wait) or in the traced worker (tail), and leaves nothing in --dir.
 */
START_TEST(test_timeout)
{
	static const char *const cases[][2] = {
		{ "tests/cli-timeout-wait.yaml", "--trace=auto" },
		{ "tests/cli-timeout-tail.yaml", "--trace=auto" },
		{ "tests/cli-timeout-tail.yaml", "--trace=procio" },
	};
	static struct run r;
	char path[PATH_MAX], dir[] = "/var/tmp/iobufviz-cli-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double t0 = now_s(), took;
		test_util_src_path(cases[i][0], path, sizeof path);
		run(&r, (const char *[]){ "--headless", "--timeout=2", cases[i][1], "--dir", dir,
		                          path, NULL });
		took = now_s() - t0;
		ck_assert_msg(r.status == 3, "%s %s: exit %d, want 3: %s", cases[i][0], cases[i][1],
		              r.status, r.err);
		ck_assert_msg(took >= 1.9 && took < 8, "%s %s: took %.1f s", cases[i][0],
		              cases[i][1], took);
		ck_assert_msg(strstr(r.err, "(--timeout)") != NULL, "stderr: %s", r.err);
		ck_assert_msg(dir_empty(dir), "%s %s: left something in %s", cases[i][0],
		              cases[i][1], dir);
	}
	run(&r, (const char *[]){ "--timeout=3601", "x.yaml", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--timeout"));
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_check_good)
{
	static struct run r;
	char path[PATH_MAX];
	test_util_src_path("tests/cli-minimal.yaml", path, sizeof path);
	run(&r, (const char *[]){ "--check", path, NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, ": ok, "));
}
END_TEST

START_TEST(test_list_and_names)
{
	static struct run r;
	run(&r, (const char *[]){ "--list", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "13-3"));
	/* A bundled scenario found by name validates. */
	run(&r, (const char *[]){ "--check", "13-3", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "/scenarios/13-3"));
	/* A near miss names the scenarios that contain it. */
	run(&r, (const char *[]){ "--check", "13-1", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "did you mean: "));
	ck_assert_ptr_nonnull(strstr(r.err, "table-13-1"));
	/* An exercise's number is a name: exercise 13-1a is table-13-1's lesson (its source says
	 * so), 13-3 the lesson named after it rather than the crash lesson that names it too. */
	run(&r, (const char *[]){ "--check", "ex-13-1a", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "/scenarios/table-13-1.yaml"));
	run(&r, (const char *[]){ "--check", "exercise-13-3", NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "/scenarios/13-3-fflush-fsync.yaml"));
	run(&r, (const char *[]){ "--check", "ex-13-9", NULL });
	ck_assert_int_eq(r.status, 2);
	/* A slip of a letter or two is a near miss too. */
	run(&r, (const char *[]){ "--check", "13-3-fflush-fsyc", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "did you mean: 13-3-fflush-fsync?"));
	run(&r, (const char *[]){ "--check", "tabel-13-1", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "table-13-1"));
	/* Two options that each say what to write are refused, in either order. */
	run(&r, (const char *[]){ "--export=html", "--format=json", "13-3", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--export=html and --format=json both say what to "
	                             "write: give one of them"));
	run(&r, (const char *[]){ "-f", "text", "--export=csv", "table-13-1", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--export=csv and --format=text both say"));
	/* A prefix shared by two lessons lists both. */
	run(&r, (const char *[]){ "--check", "13.3", NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "ambiguous: "));
	/* Every section of chapter 13 with a lesson, and the summary, is on the list. */
	run(&r, (const char *[]){ "--list", NULL });
	static const char *const lessons[] = { "13.1-", "13.2-", "13.3-", "13.4-", "13.5-", "13.6-",
	                                       "13.7-", "13-3-", "13-4-", "13-5-", "table-13-1",
	                                       "table-13-2", "table-13-3", "ex-13-1b", "ex-13-1c" };
	for (size_t i = 0; i < sizeof lessons / sizeof lessons[0]; i++)
		ck_assert_msg(strstr(r.out, lessons[i]) != NULL, "no %s in --list", lessons[i]);
	/* Grouped as a course takes them, each group in the book's order: the exercises, then
	 * the sections (5.4 before 13.1, 13.7 before 25.4), the crash lab, the sweeps (TLPI's
	 * tables before APUE's figure); a sweep says how long it may take, a lesson "seconds". */
	static const char *const order[] = { "\nExercises ", "\n  13-3-fflush-fsync ",
		"\n  13-5-tail ", "\nSections ", "\n  5.4-two-descriptors ", "\n  13.1-buffer-cache ",
		"\n  13.7-mixing ", "\n  25.4-", "\nThe crash lab", "\n  crash-13-3 ",
		"\n  crash-close ", "\nSweeps", "\n  table-13-1 ", "\n  table-13-3 ",
		"\n  apue-fig-3-5 " };
	static char nl[sizeof r.out + 1];
	const char *at = nl;
	snprintf(nl, sizeof nl, "\n%s", r.out);
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		const char *next = strstr(at, order[i]);
		ck_assert_msg(next != NULL, "--list: no '%s' after '%s'", order[i] + 1,
			      i > 0 ? order[i - 1] + 1 : "the start");
		at = next + 1;
	}
	ck_assert_msg(strstr(nl, "\n  13-3-fflush-fsync          seconds ") != NULL, "%s", r.out);
	ck_assert_msg(strstr(nl, "\n  table-13-1                 <= 21 s ") != NULL, "%s", r.out);
}
END_TEST

/* The suite. */
static Suite *
cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("options");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_help_version);
	tcase_add_test(tc, test_usage_errors);
	tcase_add_test(tc, test_not_a_terminal);
	tcase_add_test(tc, test_small_items);
	tcase_add_test(tc, test_check_bad_fixtures);
	tcase_add_test(tc, test_check_good);
	tcase_add_test(tc, test_check_controls);
	tcase_add_test(tc, test_stdin);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_list_and_names);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(cli_suite());
}
