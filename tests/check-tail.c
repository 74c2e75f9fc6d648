/* SPDX-License-Identifier: MIT */
/* check-tail.c: exercise 13-5: tail_lines() prints the real last N lines, for every block size. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/runner.h"
#include "scratch/scratch.h"
#include "engine/tail.h"
#include "test-util.h"

/* The block sizes the exercise compares. */
static const size_t blocks[] = { 1, 7, 4096, 65536 };
#define N_BLOCKS (sizeof blocks / sizeof blocks[0])

/* Make a scratch file holding data (len bytes), open for reading. */
static int
mkfile(const char *data, size_t len, int *idx)
{
	int fd;

	*idx = scratch_mkdir(NULL);
	ck_assert_msg(*idx >= 0, "scratch_mkdir: %s", strerror(errno));
	fd = scratch_create(*idx, "f", O_RDWR);
	ck_assert_msg(fd >= 0, "scratch_create: %s", strerror(errno));
	if (len > 0)
		ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	/* tail must find the end itself, not rely on where the offset happens to be. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* The last n lines of data, worked out forwards (the obvious way), each cut to its first
 * TAIL_LINE_MAX bytes, as a heap string. */
static char *
reference(const char *data, size_t len, unsigned long n)
{
	size_t lines = 0, from = 0, seen = 0, at = 0, col = 0;
	char *r;

	for (size_t i = 0; i < len; i++)
		if (data[i] == '\n' || i == len - 1)
			lines++;
	if (lines > n) {
		for (size_t i = 0; i < len; i++) {
			if (data[i] == '\n' && ++seen == lines - n) {
				from = i + 1;
				break;
			}
		}
	}
	if (n == 0)
		from = len;
	r = malloc(len - from + 1);
	ck_assert_ptr_nonnull(r);
	for (size_t i = from; i < len; i++) {
		if (data[i] == '\n') {
			r[at++] = '\n';
			col = 0;
		} else if (col++ < TAIL_LINE_MAX) {
			r[at++] = data[i];
		}
	}
	r[at] = '\0';
	return r;
}

/* Lines "line 1 ...\n" of varying length, total about len bytes; trailing '\n' or not. */
static char *
numbered(size_t len, int trailing_nl, size_t *out_len)
{
	char *d = malloc(len + 64);
	size_t at = 0;

	ck_assert_ptr_nonnull(d);
	for (unsigned i = 1; at < len; i++)
		at += (size_t)sprintf(d + at, "line %u%.*s\n", i, (int)(i % 37), "....................................");
	if (!trailing_nl)
		d[--at] = '\0';
	*out_len = at;
	return d;
}

/* Check tail_lines() against the reference for every block size and several n. */
static void
check_all(const char *data, size_t len)
{
	static const unsigned long ns[] = { 0, 1, 2, 10, 100, TAIL_LINES_MAX };
	int idx, fd = mkfile(data, len, &idx);

	for (size_t b = 0; b < N_BLOCKS; b++) {
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
			struct tail_stats st;
			char *got = NULL, *want = reference(data, len, ns[k]);

			ck_assert_int_eq(tail_lines(fd, ns[k], blocks[b], &got, &st), 0);
			ck_assert_msg(strcmp(got, want) == 0,
			              "n=%lu block=%zu: got %zu bytes, want %zu", ns[k], blocks[b],
			              strlen(got), strlen(want));
			/* Never more bytes read than the file has, never a read past what is needed. */
			ck_assert_uint_le(st.bytes_read, len);
			free(got);
			free(want);
		}
	}
	close(fd);
	scratch_remove(idx);
}

START_TEST(test_trailing_newline)
{
	size_t len;
	char *d = numbered(64 * 1024, 1, &len);
	check_all(d, len);
	free(d);
}
END_TEST

START_TEST(test_no_trailing_newline)
{
	size_t len;
	char *d = numbered(64 * 1024, 0, &len);
	check_all(d, len);
	free(d);
}
END_TEST

START_TEST(test_fewer_lines_than_n)
{
	check_all("one\ntwo\nthree\n", 14);
	check_all("one\ntwo\nthree", 13);
	check_all("\n\n\n", 3);
	check_all("x", 1);
}
END_TEST

START_TEST(test_empty_file)
{
	int idx, fd = mkfile("", 0, &idx);
	struct tail_stats st;
	char *got = NULL;

	for (size_t b = 0; b < N_BLOCKS; b++) {
		ck_assert_int_eq(tail_lines(fd, 10, blocks[b], &got, &st), 0);
		ck_assert_str_eq(got, "");
		ck_assert_uint_eq(st.reads, 0);
		free(got);
	}
	close(fd);
	scratch_remove(idx);
}
END_TEST

/* One 200 KB line: tail -n 1 must read all of it, whatever the block size, and keeps its
 * first TAIL_LINE_MAX bytes, saying that it cut one line. */
START_TEST(test_one_huge_line)
{
	size_t len = 200 * 1000 + 1;
	char *d = malloc(len), *got = NULL;
	struct tail_stats st;
	int idx, fd;

	ck_assert_ptr_nonnull(d);
	for (size_t i = 0; i < len - 1; i++)
		d[i] = (char)('a' + i % 26);
	d[len - 1] = '\n';
	check_all(d, len);
	check_all(d, len - 1);
	fd = mkfile(d, len, &idx);
	ck_assert_int_eq(tail_lines(fd, 1, 4096, &got, &st), 0);
	ck_assert_uint_eq(strlen(got), TAIL_LINE_MAX + 1);
	ck_assert_int_eq(memcmp(got, d, TAIL_LINE_MAX), 0);
	ck_assert_uint_eq(st.cut, 1);
	ck_assert_uint_eq(st.bytes_read, len);
	free(got);
	close(fd);
	scratch_remove(idx);
	free(d);
}
END_TEST

/* Peak resident memory of this process (VmHWM), in KiB; -1 if unknown. */
static long
hwm_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * tail's memory does not grow with the file: 256 MiB of one line (a sparse file: no disk
 * needed) read backwards in the largest block raises the peak by the block and the kept
 * lines, about 2 MiB, not by the 256 MiB it reads. Each test runs in its own process.
 */
START_TEST(test_memory_bounded)
{
	const off_t size = (off_t)256 << 20;
	int idx, fd = mkfile("", 0, &idx);
	struct tail_stats st;
	char *got = NULL;
	long before, after;

	ck_assert_int_eq(ftruncate(fd, size), 0);
	before = hwm_kib();
	ck_assert_int_ge(before, 0);
	ck_assert_int_eq(tail_lines(fd, TAIL_LINES_MAX, TAIL_BLOCK_MAX, &got, &st), 0);
	after = hwm_kib();
	ck_assert_uint_eq(st.bytes_read, (uint64_t)size);
	ck_assert_uint_eq(st.cut, 1);
	ck_assert_msg(after - before < 8 * 1024, "VmHWM grew by %ld KiB reading a 256 MiB line",
	              after - before);
	free(got);
	/* Past the bounds: refused, not attempted. */
	ck_assert_int_eq(tail_lines(fd, TAIL_LINES_MAX + 1, 4096, &got, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(tail_lines(fd, 1, TAIL_BLOCK_MAX + 1, &got, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
	scratch_remove(idx);
}
END_TEST

/* Bigger blocks, fewer reads: exactly one read per block the lines touch. */
START_TEST(test_reads_shrink_with_block)
{
	size_t len;
	char *d = numbered(16 * 1024, 1, &len);  /* fewer than TAIL_LINES_MAX lines */
	int idx, fd = mkfile(d, len, &idx);
	uint64_t prev = UINT64_MAX;

	for (size_t b = 0; b < N_BLOCKS; b++) {
		struct tail_stats st;
		char *got = NULL;

		/* More lines than the file has: the whole file, read backwards. */
		ck_assert_int_eq(tail_lines(fd, TAIL_LINES_MAX, blocks[b], &got, &st), 0);
		ck_assert_uint_eq(strlen(got), len);
		ck_assert_uint_eq(st.bytes_read, len);
		ck_assert_uint_eq(st.reads, (len + blocks[b] - 1) / blocks[b]);
		ck_assert_uint_lt(st.reads, prev);
		prev = st.reads;
		free(got);
	}
	close(fd);
	scratch_remove(idx);
	free(d);
}
END_TEST

/* tail -n 10 reads only the end of the file, and the fd offset is left at the end read. */
START_TEST(test_reads_only_the_end)
{
	size_t len;
	char *d = numbered(64 * 1024, 1, &len);
	int idx, fd = mkfile(d, len, &idx);
	struct tail_stats st;
	char *got = NULL;

	ck_assert_int_eq(tail_lines(fd, 10, 4096, &got, &st), 0);
	ck_assert_uint_le(st.reads, 2);
	ck_assert_uint_lt(st.bytes_read, 8192 + 1);
	/* The last read was the block before the (partial) final one: it ended on a boundary. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR) % 4096, 0);
	free(got);
	ck_assert_int_eq(tail_lines(fd, 10, 0, &got, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	close(fd);
	scratch_remove(idx);
	free(d);
}
END_TEST

/* A write-only fd cannot be read: an error, not a crash. */
START_TEST(test_write_only_fd)
{
	int idx = scratch_mkdir(NULL);
	int fd = scratch_create(idx, "w", O_WRONLY);
	char *got = NULL;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "a\nb\n", 4), 4);
	ck_assert_int_eq(tail_lines(fd, 1, 4096, &got, NULL), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_ptr_null(got);
	close(fd);
	scratch_remove(idx);
}
END_TEST

/*
 * Through the runner: tail runs in the worker on its fd, so its lseek()/read() calls are
 * the step's events (ptrace) or counts (procio), and what it printed is the step's output.
 */
static void
check_runner_tail(enum runner_trace trace)
{
	struct scn_step steps[3];
	struct scenario sc;
	struct runner_opts o = { .trace = trace };
	struct step_result res;
	char *err = NULL;
	struct runner *r;

	memset(steps, 0, sizeof steps);
	memset(&sc, 0, sizeof sc);
	steps[0].op = SCN_OP_OPEN;
	steps[0].args.flags = O_RDONLY;
	steps[1].op = SCN_OP_TAIL;
	steps[1].args.has = SCN_HAS_LINES | SCN_HAS_SIZE;
	steps[1].args.lines = 2;
	steps[1].args.size = 4096;
	steps[2] = steps[1];
	steps[2].args.lines = 1000;
	sc.title = (char *)"tail";
	sc.file.size = 64 * 1024;
	sc.file.fill = SCN_FILL_LINES;
	sc.steps = steps;
	sc.n_steps = 3;
	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_ge(res.ret, 0);
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.err, 0);
	ck_assert_ptr_nonnull(res.output);
	/* The last two lines the runner's prefill wrote: the second is cut to 4 bytes. */
	ck_assert_str_eq(res.output, "line 005461\nlin\n");
	ck_assert_int_eq(res.ret, (int64_t)strlen(res.output));
	ck_assert_uint_eq(res.output_len, 0);       /* all of it is there */
	ck_assert_uint_eq(res.events.n_read, 1);
	ck_assert_uint_eq(res.events.bytes_read, 4096);
	if (res.events.source == EV_SRC_PTRACE) {
		size_t seeks = 0;
		for (size_t i = 0; i < res.events.n; i++)
			seeks += strcmp(res.events.v[i].call, "lseek") == 0;
		ck_assert_uint_eq(seeks, 2);
	}
	/* What it read is in the page cache now. */
	ck_assert_uint_ge(res.after.cache.cached, 1);
	step_result_clear(&res);
	/* 1000 lines are more than the engine carries back: the start is kept, and the
	 * result says how much there was (the TUI's pane says so). */
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.err, 0);
	ck_assert_ptr_nonnull(res.output);
	ck_assert_int_gt(res.ret, (int64_t)strlen(res.output));
	ck_assert_uint_eq(res.output_len, (uint64_t)res.ret);
	step_result_clear(&res);
	runner_free(r);
}

START_TEST(test_runner_tail_ptrace)
{
	check_runner_tail(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_runner_tail_procio)
{
	check_runner_tail(RUNNER_TRACE_PROCIO);
}
END_TEST

/* The suite. */
static Suite *
tail_suite(void)
{
	Suite *s = suite_create("tail");
	TCase *tc = tcase_create("tail");

	tcase_add_test(tc, test_trailing_newline);
	tcase_add_test(tc, test_no_trailing_newline);
	tcase_add_test(tc, test_fewer_lines_than_n);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_one_huge_line);
	tcase_add_test(tc, test_memory_bounded);
	tcase_add_test(tc, test_reads_shrink_with_block);
	tcase_add_test(tc, test_reads_only_the_end);
	tcase_add_test(tc, test_write_only_fd);
	test_util_add(tc, test_runner_tail_ptrace, test_util_need_ptrace());
	tcase_add_test(tc, test_runner_tail_procio);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(tail_suite());
}
