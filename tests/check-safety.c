/* SPDX-License-Identifier: MIT */
/* check-safety.c: nothing outside the private scratch dir is written, even if its parent's entries are swapped. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/runner.h"
#include "scenario/scenario.h"
#include "scratch/scratch.h"
#include "test-util.h"

#define STEP(o, ...) { .op = (o), .args = { __VA_ARGS__ } }
#define PRECIOUS "a user's file: never to be truncated\n"

/* This test's parent dir (an attacker-writable place, as a shared --dir or TMPDIR could be). */
static char parent[PATH_MAX / 2];

/* Make the parent dir. */
static void
setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(parent, sizeof parent, "%s/check-safety.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(parent));
}

/* Remove what the test planted, then the parent (empty by then, or rmdir fails). */
static void
teardown(void)
{
	char cmd[PATH_MAX + 16];

	scratch_cleanup();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", parent);
	ck_assert_int_eq(system(cmd), 0);
}

/* Size of path's own file (not following a link), or -1. */
static long long
size_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* A file with PRECIOUS in it at parent/victim; its path into buf. */
static void
make_victim(char *buf, size_t len)
{
	snprintf(buf, len, "%s/victim", parent);
	FILE *f = fopen(buf, "w");
	ck_assert_ptr_nonnull(f);
	fputs(PRECIOUS, f);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * Move scratch dir "dir" aside (to parent/moved) and put a stranger's dir in its place,
 * holding a symlink named name to the victim: what someone who can write the parent
 * can do at any time after the dir is made.
 */
static void
swap_dir(const char *dir, const char *name, const char *victim, char *moved, size_t len)
{
	char link[PATH_MAX];

	snprintf(moved, len, "%s/moved", parent);
	ck_assert_int_eq(rename(dir, moved), 0);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(link, sizeof link, "%s/%s", dir, name);
	ck_assert_int_eq(symlink(victim, link), 0);
}

START_TEST(test_scratch_by_fd)
{
	char victim[PATH_MAX], moved[PATH_MAX], dir[PATH_MAX], p[PATH_MAX + 8];
	int idx = scratch_mkdir(parent), fd;

	ck_assert_int_ge(idx, 0);
	make_victim(victim, sizeof victim);
	snprintf(dir, sizeof dir, "%s", scratch_dir(idx));
	swap_dir(dir, "f", victim, moved, sizeof moved);
	/* The file is made in our dir, wherever it went, never through the stranger's link. */
	fd = scratch_create(idx, "f", O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	snprintf(p, sizeof p, "%s/f", moved);
	ck_assert_int_eq(size_of(p), 1);
	ck_assert_int_eq(size_of(victim), (long long)strlen(PRECIOUS));
	/* Removal empties our dir and leaves the stranger's entries alone. */
	scratch_remove(idx);
	ck_assert_int_eq(size_of(p), -1);
	snprintf(p, sizeof p, "%s/f", dir);
	ck_assert_int_ne(size_of(p), -1);
	ck_assert_int_eq(size_of(victim), (long long)strlen(PRECIOUS));
}
END_TEST

START_TEST(test_worker_by_fd)
{
	/* Every way a step can truncate or create its file by name. */
	static struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 10),
		STEP(SCN_OP_FCLOSE),
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY | O_TRUNC | O_CREAT),
		STEP(SCN_OP_CLOSE),
	};
	struct scenario sc;
	struct runner_opts o = { .dir = parent, .trace = _i == 0 ? RUNNER_TRACE_AUTO : RUNNER_TRACE_PROCIO };
	struct step_result res;
	char victim[PATH_MAX], moved[PATH_MAX], dir[PATH_MAX], *err = NULL;
	struct runner *r;

	memset(&sc, 0, sizeof sc);
	sc.title = "swap";
	sc.steps = steps;
	sc.n_steps = sizeof steps / sizeof steps[0];
	sc.file.size = 4096;
	sc.file.fill = SCN_FILL_LINES;
	make_victim(victim, sizeof victim);
	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	snprintf(dir, sizeof dir, "%s", runner_file_path(r));
	*strrchr(dir, '/') = '\0';
	swap_dir(dir, "scratch", victim, moved, sizeof moved);
	for (size_t i = 0; i < sc.n_steps; i++) {
		ck_assert_int_eq(runner_step(r, &res), 1);
		ck_assert_msg(res.ret >= 0, "step %zu failed: %s", i, strerror(res.err));
		step_result_clear(&res);
	}
	runner_free(r);
	ck_assert_int_eq(size_of(victim), (long long)strlen(PRECIOUS));
}
END_TEST

/* However many steps write, the scratch file stays within SCN_MAX_SIZE: a short write, then SIGXFSZ. */
START_TEST(test_file_size_bound)
{
	static struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY),
		STEP(SCN_OP_PWRITE, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 100,
		     .offset = (int64_t)SCN_MAX_SIZE - 10),
		STEP(SCN_OP_PWRITE, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 100,
		     .offset = (int64_t)SCN_MAX_SIZE),
	};
	struct scenario sc;
	struct runner_opts o = { .dir = parent, .trace = _i == 0 ? RUNNER_TRACE_AUTO : RUNNER_TRACE_PROCIO };
	struct step_result res[3];
	struct stat st;
	char *err = NULL;
	struct runner *r;

	memset(&sc, 0, sizeof sc);
	sc.title = "bound";
	sc.steps = steps;
	sc.n_steps = 3;
	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(runner_step(r, &res[i]), 1);
	ck_assert_int_eq(res[1].ret, 10);  /* up to the bound, not past it */
	ck_assert_int_eq(res[2].ret, -1);
	ck_assert_msg(strstr(text_str(&res[2].note), "SIGXFSZ") != NULL, "note: %s",
	              text_str(&res[2].note));
	ck_assert_int_eq(stat(runner_file_path(r), &st), 0);
	ck_assert_int_eq((long long)st.st_size, (long long)SCN_MAX_SIZE);
	for (int i = 0; i < 3; i++)
		step_result_clear(&res[i]);
	runner_free(r);
}
END_TEST

/* A parent one may write and enter but not list (mode 0333) is a fine place for a dir. */
START_TEST(test_parent_not_readable)
{
	char sub[PATH_MAX];
	int idx;

	snprintf(sub, sizeof sub, "%s/wx", parent);
	ck_assert_int_eq(mkdir(sub, 0333), 0);
	ck_assert_int_eq(chmod(sub, 0333), 0);
	idx = scratch_mkdir(sub);
	ck_assert_msg(idx >= 0, "scratch_mkdir under a 0333 dir: %s", strerror(errno));
	scratch_remove(idx);
	ck_assert_int_eq(rmdir(sub), 0);
}
END_TEST

/* The suite. */
static Suite *
safety_suite(void)
{
	Suite *s = suite_create("safety");
	TCase *tc = tcase_create("swapped parent");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_scratch_by_fd);
	test_util_add(tc, test_parent_not_readable, test_util_need_dir_perms());
	tcase_add_loop_test(tc, test_file_size_bound, 0, 2);
	tcase_add_loop_test(tc, test_worker_by_fd, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(safety_suite());
}
