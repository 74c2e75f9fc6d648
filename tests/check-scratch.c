/* SPDX-License-Identifier: MIT */
/* check-scratch.c: scratch dirs are private and vanish at exit and on fatal signals. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/signals.h"
#include "scratch/scratch.h"
#include "test-util.h"

/* A parent dir for this test's scratch dirs, so that nothing else is looked at. */
static char parent[PATH_MAX];

/* Make the test's own parent dir under $TMPDIR or /tmp. */
static void
setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(parent, sizeof parent, "%s/check-scratch.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(parent));
}

/* Remove the parent dir (it must be empty by then). */
static void
teardown(void)
{
	scratch_cleanup();
	rmdir(parent);
}

/* True if path exists. */
static int
exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

START_TEST(test_private_dir)
{
	struct stat st;
	int idx = scratch_mkdir(parent);
	ck_assert_int_ge(idx, 0);
	const char *dir = scratch_dir(idx);
	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(strncmp(dir, parent, strlen(parent)), 0);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0700);

	int fd = scratch_create(idx, "scratch", O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	close(fd);
	/* Never reuse a file: a second create fails. */
	ck_assert_int_eq(scratch_create(idx, "scratch", O_RDWR), -1);
	ck_assert_int_eq(errno, EEXIST);
	/* Never follow a link planted in the dir, nor escape it. */
	char link[PATH_MAX];
	ck_assert_ptr_nonnull(scratch_path(idx, "evil", link, sizeof link));
	ck_assert_int_eq(symlink("/etc/passwd", link), 0);
	ck_assert_int_eq(scratch_create(idx, "evil", O_RDWR), -1);
	ck_assert_int_eq(scratch_create(idx, "../x", O_RDWR), -1);
	ck_assert_int_eq(scratch_create(idx, "..", O_RDWR), -1);

	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s", dir);
	scratch_remove(idx);
	ck_assert(!exists(path));
	ck_assert_ptr_null(scratch_dir(idx));
}
END_TEST

/*
 * In a child about to make a scratch dir: the signals a test sends back at their default
 * action. A background job (make check &, a script's job) starts with SIGINT and SIGQUIT
 * ignored, and the scratch code keeps an ignored signal ignored, as nohup wants.
 */
static void
default_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}

/* Fork a child that makes a scratch dir with files, reports its path, then does what. */
static pid_t
spawn(char *path, size_t len, int what)
{
	int p[2], go[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		close(go[1]);
		default_signals();
		int idx = scratch_mkdir(parent);
		if (idx < 0)
			_exit(99);
		close(scratch_create(idx, "a", O_WRONLY));
		close(scratch_create(idx, "b", O_WRONLY));
		/* A grandchild exiting must not remove its parent's dir. */
		pid_t g = fork();
		if (g == 0)
			exit(0);
		waitpid(g, NULL, 0);
		dprintf(p[1], "%s\n", scratch_dir(idx));
		close(p[1]);
		/* Wait until the parent has seen the dir. */
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(98);
		if (what == 0)
			exit(0);
		for (;;)
			pause();
	}
	close(p[1]);
	close(go[0]);
	ssize_t n = read(p[0], path, len - 1);
	close(p[0]);
	ck_assert_int_gt(n, 1);
	path[n - 1] = '\0';
	ck_assert_msg(exists(path), "child's dir %s missing", path);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	/* For a signal, let the child reach pause() first (a signal before is fine too:
	 * the handlers were installed by scratch_mkdir). */
	return pid;
}

START_TEST(test_cleanup_on_exit)
{
	char path[PATH_MAX];
	int st;
	pid_t pid = spawn(path, sizeof path, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_msg(!exists(path), "%s left behind after exit", path);
}
END_TEST

START_TEST(test_cleanup_on_signal)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	int sig = sigs[_i];
	char path[PATH_MAX];
	int st;
	pid_t pid = spawn(path, sizeof path, 1);
	ck_assert_int_eq(kill(pid, sig), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* It dies of the same signal (so a shell sees Ctrl-C), with nothing left behind. */
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), sig);
	ck_assert_msg(!exists(path), "%s left behind after signal %d", path, sig);
}
END_TEST

/* Where the fatal-signal callbacks below say that they ran. */
static int test_sig_fd = -1;

/* A fatal-signal cleanup: says "C". */
static void
test_sig_cleanup(void)
{
	(void)!write(test_sig_fd, "C", 1);
}

/* The terminal's restorer: says "T". */
static void
test_sig_terminal(void)
{
	(void)!write(test_sig_fd, "T", 1);
}

/* base/signals.c: on a fatal signal the terminal comes first, then each cleanup once (one
 * registered twice), and the process dies of that signal. */
START_TEST(test_signals_order)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGPIPE };
	int p[2], st;
	char buf[16];
	ssize_t n, got = 0;

	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		default_signals();
		test_sig_fd = p[1];
		if (signals_on_fatal(test_sig_cleanup) != 0 || signals_on_fatal(test_sig_cleanup) != 0)
			_exit(99);
		signals_on_fatal_terminal(test_sig_terminal);
		(void)!write(p[1], "R", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], buf, 1), 1);
	ck_assert_int_eq(buf[0], 'R');
	ck_assert_int_eq(kill(pid, sigs[_i]), 0);
	while ((n = read(p[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(p[0]);
	ck_assert_str_eq(buf, "TC");
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), sigs[_i]);
}
END_TEST

/*
 * Fork a process that makes a scratch dir and a child (scratch_fork) that keeps creating
 * files in it; report the dir and the child's pid; then exit (sig 0) or wait for sig.
 */
static pid_t
spawn_busy(char *path, size_t len, pid_t *child, int sig)
{
	int p[2];
	char line[PATH_MAX + 32];
	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		default_signals();
		int idx = scratch_mkdir(parent);
		if (idx < 0)
			_exit(99);
		pid_t c = scratch_fork();
		if (c < 0)
			_exit(98);
		if (c == 0) {
			/* A sweep run or the worker: files appear in the dir until it is killed. */
			for (unsigned long i = 0;; i++) {
				char name[32];
				snprintf(name, sizeof name, "f%lu", i);
				close(scratch_create(idx, name, O_WRONLY));
			}
		}
		dprintf(p[1], "%d %s\n", (int)c, scratch_dir(idx));
		close(p[1]);
		usleep(20000);  /* let the child make files */
		if (sig == 0)
			exit(0);
		for (;;)
			pause();
	}
	close(p[1]);
	ssize_t n = read(p[0], line, sizeof line - 1);
	close(p[0]);
	ck_assert_int_gt(n, 1);
	line[n - 1] = '\0';
	int c;
	ck_assert_int_eq(sscanf(line, "%d %4095s", &c, path), 2);
	(void)len;
	*child = c;
	return pid;
}

START_TEST(test_children_killed_first)
{
	static const int sigs[] = { 0, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	int sig = sigs[_i], st;
	char path[PATH_MAX];
	pid_t child, pid = spawn_busy(path, sizeof path, &child, sig);

	usleep(50000);
	if (sig != 0)
		ck_assert_int_eq(kill(pid, sig), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (sig != 0)
		ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == sig);
	else
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* The child was killed and reaped before the dir was removed: it is gone, not a
	 * zombie and not still running, and it left no file behind. */
	ck_assert_msg(kill(child, 0) == -1 && errno == ESRCH,
	              "child %d outlived its parent (signal %d)", (int)child, sig);
	ck_assert_msg(!exists(path), "%s left behind (signal %d)", path, sig);
}
END_TEST

/*
 * A child of scratch_fork that makes a dir of its own (a run step's helper) and dies of a
 * signal removes its own dir, and never its parent's, in which it may also have worked.
 */
START_TEST(test_child_removes_its_own)
{
	char mine[PATH_MAX], its[PATH_MAX];
	int p[2], st, idx = scratch_mkdir(parent);
	ssize_t n;
	pid_t pid;

	ck_assert_int_ge(idx, 0);
	snprintf(mine, sizeof mine, "%s", scratch_dir(idx));
	ck_assert_int_eq(pipe(p), 0);
	pid = scratch_fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int own = scratch_mkdir(parent);
		close(p[0]);
		if (own < 0)
			_exit(99);
		dprintf(p[1], "%s\n", scratch_dir(own));
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	n = read(p[0], its, sizeof its - 1);
	close(p[0]);
	ck_assert_int_gt(n, 1);
	its[n - 1] = '\0';
	ck_assert(exists(its));
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	scratch_forget(pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	ck_assert_msg(!exists(its), "the child's own dir %s was left", its);
	ck_assert_msg(exists(mine), "the child removed its parent's dir %s", mine);
	scratch_remove(idx);
}
END_TEST

/* A child of scratch_fork starts with SIGCHLD unblocked, though its parent (a tracer)
 * blocks it; the rest of the mask is the parent's. */
START_TEST(test_child_hears_sigchld)
{
	sigset_t chld, old;
	int st;
	pid_t pid;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaddset(&chld, SIGUSR1);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid = scratch_fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sigset_t now;
		sigprocmask(SIG_SETMASK, NULL, &now);
		_exit(sigismember(&now, SIGCHLD) ? 1 : !sigismember(&now, SIGUSR1) ? 2 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	scratch_forget(pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	              "the child's mask: %s", WIFEXITED(st) && WEXITSTATUS(st) == 1 ?
	              "SIGCHLD blocked" : "SIGUSR1 not blocked as its parent's");
}
END_TEST

/* scratch_place: a dir under the given parent, and a clear refusal when there is no room. */
START_TEST(test_place)
{
	char msg[PATH_MAX + 128];
	int idx = scratch_place(false, parent, 4096, msg, sizeof msg);

	ck_assert_int_ge(idx, 0);
	ck_assert_int_eq(strncmp(scratch_dir(idx), parent, strlen(parent)), 0);
	scratch_remove(idx);
	/* No filesystem has UINT64_MAX bytes free: refused, and no dir is left in parent. */
	ck_assert_int_eq(scratch_place(false, parent, UINT64_MAX, msg, sizeof msg), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_ptr_nonnull(strstr(msg, "not enough space under"));
	ck_assert_ptr_nonnull(strstr(msg, parent));
	ck_assert_int_eq(rmdir(parent), 0);
	ck_assert_int_eq(mkdir(parent, 0700), 0);
}
END_TEST

/* The suite. */
static Suite *
scratch_suite(void)
{
	Suite *s = suite_create("scratch");
	TCase *tc = tcase_create("dirs");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_private_dir);
	tcase_add_test(tc, test_cleanup_on_exit);
	tcase_add_test(tc, test_place);
	tcase_add_loop_test(tc, test_cleanup_on_signal, 0, 5);
	tcase_add_loop_test(tc, test_signals_order, 0, 3);
	tcase_add_loop_test(tc, test_children_killed_first, 0, 6);
	tcase_add_test(tc, test_child_removes_its_own);
	tcase_add_test(tc, test_child_hears_sigchld);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(scratch_suite());
}
