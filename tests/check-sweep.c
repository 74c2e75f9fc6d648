/* SPDX-License-Identifier: MIT */
/* check-sweep.c: the sweep runner on the real kernel: order of results, scaling, cache, cleanup. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export/sweep.h"
#include "table/print.h"
#include "scenario/scenario.h"
#include "scratch/scratch.h"
#include "test-util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Entries of dir other than . and .. (-1 if it cannot be opened). */
static int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		/* The run's lock file is part of its dir; any other entry is a leftover. */
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, ".iobufviz-lock") != 0)
			n++;
	closedir(d);
	return n;
}

/* A private parent for the runner's own scratch dir, so that the test can look inside it. */
static int parent_idx = -1;

/* Make the parent dir. */
static void
setup(void)
{
	parent_idx = scratch_mkdir(NULL);
	ck_assert_int_ge(parent_idx, 0);
}

/* Remove it. */
static void
teardown(void)
{
	scratch_remove(parent_idx);
	parent_idx = -1;
}

/* Scaling arithmetic: whole buffers, never more than the file, at least one buffer. */
START_TEST(test_scale_bytes)
{
	/* Fits: 1 MB at 100 MB/s takes 10 ms, budget 0.1 s per run. */
	ck_assert_uint_eq(sweep_scale_bytes(1000000, 1, 100e6, 0.1), 1000000);
	/* Does not fit: 100 MB at 1 MB/s, 0.5 s per run: 500000 bytes, a multiple of 4096 below. */
	ck_assert_uint_eq(sweep_scale_bytes(100000000, 4096, 1e6, 0.5), 122 * 4096);
	ck_assert_uint_eq(sweep_scale_bytes(100000000, 1, 1e6, 0.5), 500000);
	/* Too slow for even one buffer: one buffer. */
	ck_assert_uint_eq(sweep_scale_bytes(100000000, 65536, 10, 0.1), 65536);
	/* Unknown rate (probe too fast to time): no scaling. */
	ck_assert_uint_eq(sweep_scale_bytes(4096, 1, 0, 0.1), 4096);
	ck_assert_uint_eq(sweep_scale_bytes(4096, 1, 1.0 / 0.0, 0.1), 4096);
}
END_TEST

/* Extrapolation counts the fixed part once: fixed + (t - fixed) * scale. */
START_TEST(test_scale_time)
{
	struct sweep_row row = { .scale = 10, .fixed = 0.001 };

	ck_assert_double_eq_tol(sweep_row_scale_time(&row, 0.011), 0.101, 1e-12);
	row.elapsed.median = 0.021;
	ck_assert_double_eq_tol(sweep_row_extrapolated(&row), 0.201, 1e-12);
	row.scale = 1;
	row.fixed = 0;
	ck_assert_double_eq_tol(sweep_row_extrapolated(&row), 0.021, 1e-12);
}
END_TEST

/* Scaled CPU figures: the fixed part once, and nothing below a tick of the accounting. */
START_TEST(test_scale_cpu)
{
	struct sweep_row row = { .scale = 10, .n_runs = 1, .user = 0.5, .fixed_user = 0.01,
		.system = sweep_tick() / 2, .syscr = 101, .syscw = 100, .fixed_calls = 1,
		.buf_size = 1, .bytes = 100 };

	ck_assert_double_eq_tol(sweep_row_cpu(&row, false), 0.01 + 0.49 * 10, 1e-12);
	ck_assert_double_eq_tol(sweep_row_cpu(&row, true), -1, 1e-12);
	ck_assert_double_eq_tol(sweep_row_calls(&row), 1 + 200 * 10, 1e-9);
	/* A last, short buffer is a call too: 1 MB in 4096-byte writes is 245 of them. */
	row = (struct sweep_row){ .scale = 1e6 / (90 * 4096.0), .n_runs = 1, .syscw = 90,
		.buf_size = 4096, .bytes = 90 * 4096 };
	ck_assert_double_eq_tol(sweep_row_calls(&row), 245, 1e-9);
	row.scale = 1;
	row.fixed_calls = 0;
	ck_assert_double_eq_tol(sweep_row_calls(&row), 90, 1e-9);
}
END_TEST

/*
 * copy.c with BUF_SIZE 1 on 1 MiB, scaled: as strace -c -f counts one whole run, 1048577
 * read() (the last sees EOF) and 1048576 write(), not the final read times the scale.
 */
START_TEST(test_scaled_calls)
{
	uint64_t bufs[] = { 1 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_COPY, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 2, .warmup = 0, .cache = SCN_CACHE_WARM, .budget = 0.03 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;
	const struct sweep_row *row;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	row = &r.variants[0].rows[0];
	ck_assert_msg(row->scale > 1, "not scaled: %s", row->note);
	ck_assert_double_eq_tol(sweep_row_calls(row), 2.0 * (1 << 20) + 1, 0.5);
	sweep_result_clear(&r);
}
END_TEST

/*
 * overwrite: pwrite in place, one call per buffer (the last one short), the file made before
 * the clock; where the journal is counted, fdatasync commits no more often than fsync.
 */
START_TEST(test_overwrite)
{
	uint64_t bufs[] = { 4096 };
	struct scn_variant var[] = { { .name = "fsync", .sync_each = SCN_SYNC_FSYNC },
		{ .name = "fdatasync", .sync_each = SCN_SYNC_FDATASYNC } };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_OVERWRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 100000, .variants = var, .n_variants = 2,
		.repeat = 2, .warmup = 0, .budget = 2 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	for (size_t v = 0; v < 2; v++) {
		const struct sweep_row *row = &r.variants[v].rows[0];
		ck_assert_msg(row->n_runs == 2, "%s", row->note);
		ck_assert_uint_eq(row->runs[0].bytes, 100000);
		ck_assert_uint_eq(row->runs[0].syscw, 25);
		ck_assert_uint_eq(row->runs[0].syscr, 0);
	}
	if (r.variants[0].rows[0].commits >= 0)
		ck_assert(r.variants[1].rows[0].commits <= r.variants[0].rows[0].commits);
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/*
 * Exercise 13-1c: given several dirs, every disk variant runs under each, side by side,
 * each naming its filesystem and where it ran; a reference stands beside every copy.
 */
START_TEST(test_dirs)
{
	uint64_t bufs[] = { 4096 };
	struct scn_variant var = { .name = "disk" };
	struct scn_ref_row rows[] = { { 4096, 0.11, -1, -1 } };
	struct scn_reference ref = { .label = "TLPI 2010", .total_bytes = 1 << 20, .rows = rows,
		.n_rows = N(rows) };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 2, .warmup = 0, .budget = 0.5, .references = &ref, .n_references = 1 };
	const char *dirs[] = { scratch_dir(parent_idx), "/dev/shm" };
	struct sweep_opts o = { .dir = dirs[0], .dirs = dirs, .n_dirs = 2 };
	struct sweep_result r;
	char *err = NULL, *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	ck_assert_uint_eq(r.n_variants, 2);
	ck_assert_str_eq(r.variants[0].given_dir, dirs[0]);
	ck_assert_str_eq(r.variants[1].given_dir, "/dev/shm");
	ck_assert_str_eq(r.variants[1].fs, "tmpfs");
	ck_assert_uint_eq(r.variants[0].rows[0].n_runs, 2);
	ck_assert_uint_eq(r.variants[1].rows[0].n_runs, 2);
	ck_assert(sweep_ref_matches(&r, &ref, 0) && sweep_ref_matches(&r, &ref, 1));
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_print_text(f, &r, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "Variant \"disk\" on tmpfs"));
	ck_assert_ptr_nonnull(strstr(text, "under /dev/shm"));
	free(text);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "json"), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"dir\":\"/dev/shm\""));
	free(text);
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/* A tiny real sweep: 1 MiB written 1 byte at a time vs 4096 at a time. */
START_TEST(test_write_order)
{
	uint64_t bufs[] = { 1, 4096 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 3, .warmup = 1, .cache = SCN_CACHE_COLD, .budget = 0.6 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;
	const struct sweep_row *slow, *fast;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(r.n_variants, 1);
	slow = &r.variants[0].rows[0];
	fast = &r.variants[0].rows[1];
	ck_assert_uint_eq(slow->n_runs, 3);
	ck_assert_uint_eq(fast->n_runs, 3);
	/* Scaling is exact arithmetic: bytes * scale is the file size. */
	ck_assert_double_eq_tol(slow->scale * (double)slow->bytes, (double)sw.file_size, 1e-6);
	ck_assert_uint_eq(slow->runs[0].bytes, slow->bytes);
	/* One write() per buffer, counted by the kernel (/proc/self/io syscw). */
	ck_assert_uint_eq(slow->runs[0].syscw, slow->bytes);
	ck_assert_uint_eq(fast->runs[0].syscw, (1 << 20) / 4096);
	ck_assert_uint_eq(fast->runs[0].syscr, 0);
	ck_assert(sweep_row_extrapolated(slow) > 10 * sweep_row_extrapolated(fast));
	ck_assert_double_eq_tol(fast->relative, 1.0, 1e-12);
	ck_assert(slow->relative > 10);
	ck_assert_int_eq(fast->cold, SWEEP_COLD_NA);
	/* Everything the sweep made is gone. */
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/* Reading programs start cold, verified; syscall counts are exact. */
START_TEST(test_read_cold)
{
	uint64_t bufs[] = { 4096, 65536 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_READ, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 3, .warmup = 0, .cache = SCN_CACHE_COLD, .budget = 1 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	for (size_t i = 0; i < N(bufs); i++) {
		const struct sweep_row *row = &r.variants[0].rows[i];
		ck_assert_uint_eq(row->n_runs, 3);
		ck_assert_int_eq(row->cold, SWEEP_COLD_VERIFIED);
		for (size_t k = 0; k < row->n_runs; k++) {
			ck_assert_int_eq(row->runs[k].cold, SWEEP_COLD_VERIFIED);
			/* APUE 3.4: n reads of data, one read of EOF, n writes to /dev/null; of the
			 * whole file, or of fewer bytes (a multiple of the buffer) when a loaded
			 * machine made the row scale down to fit its budget. */
			ck_assert_uint_eq(row->runs[k].bytes, row->bytes);
			ck_assert_uint_eq(row->bytes % bufs[i], 0);
			ck_assert(row->bytes == 1 << 20 || row->scale > 1);
			ck_assert_uint_eq(row->runs[k].syscr, row->bytes / bufs[i] + 1);
			ck_assert_uint_eq(row->runs[k].syscw, row->bytes / bufs[i]);
		}
	}
	ck_assert_str_eq(r.cold_probe, "cachestat");
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/* Without cachestat (forced off), the next source verifies the cold cache instead. */
START_TEST(test_read_cold_mincore)
{
	uint64_t bufs[] = { 65536 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_FREAD, .buffer_sizes = bufs,
		.n_buffer_sizes = 1, .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 2, .cache = SCN_CACHE_COLD, .budget = 1 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;

	setenv("IOBUFVIZ_NO_CACHESTAT", "1", 1);
	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	unsetenv("IOBUFVIZ_NO_CACHESTAT");
	/* The chain after cachestat: kpageflags as root, else mincore. */
	ck_assert_msg(strcmp(r.cold_probe, "kpageflags") == 0 || strcmp(r.cold_probe, "mincore") == 0,
	              "cold_probe %s", r.cold_probe);
	ck_assert_int_eq(r.variants[0].rows[0].cold, SWEEP_COLD_VERIFIED);
	ck_assert_uint_eq(r.variants[0].rows[0].runs[0].bytes, 1 << 20);
	sweep_result_clear(&r);
}
END_TEST

/* tmpfs: no cold cache, said so; copy works there. */
START_TEST(test_tmpfs)
{
	uint64_t bufs[] = { 65536 };
	struct scn_variant var = { .name = "tmpfs", .on = SCN_FS_TMPFS };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_COPY, .buffer_sizes = bufs,
		.n_buffer_sizes = 1, .file_size = 256 << 10, .variants = &var, .n_variants = 1,
		.repeat = 2, .cache = SCN_CACHE_COLD, .budget = 1 };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, NULL, &r, &err), 0);
	ck_assert_str_eq(r.variants[0].fs, "tmpfs");
	ck_assert_int_eq(r.variants[0].rows[0].cold, SWEEP_COLD_IMPOSSIBLE);
	ck_assert_ptr_nonnull(strstr(r.note, "cold cache not possible on tmpfs"));
	ck_assert_uint_eq(r.variants[0].rows[0].runs[0].bytes, 256 << 10);
	/* The dir under /dev/shm is gone. */
	ck_assert_int_ne(access(r.variants[0].dir, F_OK), 0);
	sweep_result_clear(&r);
}
END_TEST

/* O_DIRECT with a 1-byte buffer: EINVAL for that row only, said why; the other row runs. */
START_TEST(test_odirect_row_error)
{
	uint64_t bufs[] = { 1, 4096 };
	struct scn_variant var = { .name = "direct", .flags = O_DIRECT };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 64 << 10, .variants = &var, .n_variants = 1,
		.repeat = 2, .budget = 1 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	ck_assert_int_eq(r.variants[0].rows[0].err, EINVAL);
	ck_assert_uint_eq(r.variants[0].rows[0].n_runs, 0);
	ck_assert_ptr_nonnull(strstr(r.variants[0].rows[0].note, "O_DIRECT"));
	ck_assert_int_eq(r.variants[0].rows[1].err, 0);
	ck_assert_uint_eq(r.variants[0].rows[1].n_runs, 2);
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/* Stop after the first counted run. */
static int
stop_early(const struct sweep_progress *p, void *user)
{
	int *calls = user;

	(*calls)++;
	return p->phase == SWEEP_PHASE_RUN;
}

/* The progress callback sees row k/N, run j/M, and can stop the sweep; nothing is left behind. */
START_TEST(test_progress_stop)
{
	uint64_t bufs[] = { 4096, 8192, 16384 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 64 << 10, .variants = &var, .n_variants = 1,
		.repeat = 4, .warmup = 1 };
	int calls = 0;
	struct sweep_opts o = { .dir = scratch_dir(parent_idx), .progress = stop_early,
		.user = &calls };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), -2);
	ck_assert_int_ge(calls, 3);   /* probe, warm-up, first run */
	ck_assert_uint_eq(r.variants[0].rows[0].n_runs, 1);
	ck_assert_uint_eq(r.variants[0].rows[1].n_runs, 0);
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
}
END_TEST

/* Tick: stop at the first call, remembering its seconds. */
static int
tick_stop(double seconds, void *user)
{
	double *seen = user;

	*seen = seconds;
	return 1;
}

/*
 * A long run is reported while it goes (its parent wakes about once a second) and can be
 * stopped then: the child is killed at once and its output removed. 16 Mi one-byte write()s
 * take seconds on any machine: stopped at the first tick, the run ends long before.
 */
START_TEST(test_tick_stop)
{
	struct scn_variant var = { .name = "default" };
	struct sweep_prog_job j = { .prog = SCN_PROG_WRITE, .v = &var, .dir = parent_idx,
		.buf_size = 1, .limit = 16 << 20, .out_name = "long-out", .tick = tick_stop };
	struct sweep_sample smp;
	char what[64] = "";
	double seen = -1;

	j.user = &seen;
	ck_assert_int_eq(sweep_prog_run(&j, &smp, what, sizeof what), ECANCELED);
	ck_assert_str_eq(what, "stopped");
	ck_assert(seen >= 0.9 && seen < 10);
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
}
END_TEST

/* The time left, as people read it: the run going, the row's and the sweep's. */
START_TEST(test_progress_left)
{
	struct sweep_progress p = { .phase = SWEEP_PHASE_RUN, .variant = "default", .n_variants = 1,
		.row = 0, .n_rows = 14, .step = 1, .n_steps = 14, .run = 2, .n_runs = 5,
		.buf_size = 1, .bytes = 4 << 20, .last_elapsed = -1, .running = 12.4, .row_left = 40,
		.sweep_left = 720 };
	char line[200];

	sweep_print_progress(&p, line, sizeof line);
	ck_assert_str_eq(line, "row 1/14  default  BUF 1  run 2/5  4 MiB/run  going 12 s  left: "
	                 "row ~40 s, all ~12 min");
	p.running = -1;
	p.last_elapsed = 0.5;
	p.row_left = 0.2;
	p.sweep_left = 0.4;
	sweep_print_progress(&p, line, sizeof line);
	ck_assert_str_eq(line, "row 1/14  default  BUF 1  run 2/5  4 MiB/run  0.500 s");
}
END_TEST

/* Progress: what a sweep reported (the time left once its probe has run). */
struct left_seen {
	int reports, with_left;
	bool sweep_covers_row;
};

/* Record the time left of each report. */
static int
record_left(const struct sweep_progress *p, void *user)
{
	struct left_seen *ls = user;

	ls->reports++;
	if (p->phase == SWEEP_PHASE_RUN && p->row_left >= 0) {
		ls->with_left++;
		ls->sweep_covers_row = ls->sweep_covers_row && p->sweep_left >= p->row_left;
	}
	return 0;
}

/* After its probe, every report of a counted run knows the row's and the sweep's time left. */
START_TEST(test_progress_estimates)
{
	uint64_t bufs[] = { 4096, 65536 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = &var, .n_variants = 1,
		.repeat = 3, .warmup = 1 };
	struct left_seen ls = { .sweep_covers_row = true };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx), .progress = record_left, .user = &ls };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	ck_assert_int_eq(ls.with_left, 2 * 3);
	ck_assert(ls.sweep_covers_row);
	sweep_result_clear(&r);
}
END_TEST

/* /proc/self/schedstat (run-queue wait) is there: NULL, else why not. */
static const char *
need_schedstat(void)
{
	return access("/proc/self/schedstat", R_OK) == 0 ? NULL :
	       "no /proc/self/schedstat (a kernel without CONFIG_SCHED_INFO)";
}

/*
 * A busy machine is flagged: with a process that spins on the same CPU as every run, the
 * runs wait for it (CFS shares one CPU between two runnable tasks), the rows say so and the
 * warning goes with the table and the JSON.
 */
START_TEST(test_busy)
{
	uint64_t bufs[] = { 4096 };
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 32 << 20, .variants = &var, .n_variants = 1,
		.repeat = 3, .warmup = 0, .budget = 60 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL, busy[512];
	cpu_set_t one, all;
	pid_t hog, parent;

	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	/* The hog and the sweep (its children inherit the mask) share one CPU. */
	ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
	parent = getpid();
	hog = fork();
	ck_assert_int_ge(hog, 0);
	if (hog == 0) {
		/* It dies with the test, whatever way the test ends. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(1);
		for (volatile unsigned long k = 0;; k++)
			;
	}
	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);

	ck_assert(r.variants[0].rows[0].wait >= SWEEP_BUSY_WAIT * r.variants[0].rows[0].elapsed.median);
	ck_assert(r.busy.busy);
	ck_assert_uint_eq(r.busy.rows_waiting, 1);
	ck_assert(r.busy.wait_max >= SWEEP_BUSY_WAIT);
	ck_assert_uint_eq(r.busy.wait_buf, 4096);
	ck_assert_ptr_nonnull(strstr(sweep_print_busy(&r, busy, sizeof busy),
	                             "runs waited for a CPU up to "));
	sweep_result_clear(&r);
}
END_TEST

/* Rows compared as a sweep's sentences compare them: the middle halves of their runs (first to
 * third quartile, extrapolated) apart or overlapping; a row that did not run, or places that
 * disagree, cannot tell. */
START_TEST(test_compare)
{
	uint64_t bufs[] = { 1, 4096 };
	struct scn_variant vars[] = { { .name = "plain" }, { .name = "O_SYNC" },
				      { .name = "shm", .on = SCN_FS_TMPFS } };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 1 << 20, .variants = vars, .n_variants = 3 };
	/* q1 and q3 in ms of plain@1, plain@4096, O_SYNC@1, O_SYNC@4096, shm@1, shm@4096. */
	static const double q[][2] = { { 10, 12 }, { 1, 2 }, { 50, 60 }, { 11, 13 }, { 9, 10 },
				       { 1, 2 } };
	struct sweep_row rows[6];
	struct sweep_variant bv[3];
	struct sweep_result r = { .sw = &sw, .variants = bv, .n_variants = 3 };
	char text[512];

	memset(rows, 0, sizeof rows);
	memset(bv, 0, sizeof bv);
	for (size_t i = 0; i < 6; i++) {
		rows[i].buf_size = bufs[i % 2];
		rows[i].scale = 1;
		rows[i].n_runs = 3;
		rows[i].elapsed.q1 = q[i][0] / 1e3;
		rows[i].elapsed.q3 = q[i][1] / 1e3;
		rows[i].elapsed.median = (q[i][0] + q[i][1]) / 2e3;
	}
	for (size_t v = 0; v < 3; v++) {
		bv[v].v = &vars[v];
		bv[v].rows = &rows[2 * v];
		bv[v].n_rows = 2;
		snprintf(bv[v].fs, sizeof bv[v].fs, "%s", v == 2 ? "tmpfs" : "ext4");
	}
#define CMP(a, ba, b, bb) sweep_compare(&r, (size_t[]){ a, b }, (uint64_t[]){ ba, bb }, text, \
					sizeof text)
	ck_assert_int_eq(CMP(1, 1, 0, 1), 1);            /* O_SYNC@1 > plain@1 */
	ck_assert_ptr_nonnull(strstr(text, "O_SYNC@1 (50.00 ms ... 60.00 ms) slower than plain@1"));
	ck_assert_int_eq(CMP(0, 1, 1, 1), -1);           /* plain@1 < O_SYNC@1 */
	ck_assert_int_eq(CMP(0, 1, 1, 4096), 0);         /* 10..12 overlaps 11..13 */
	ck_assert_int_eq(CMP(0, 1, 2, 1), 0);            /* 10..12 touches 9..10: alike */
	ck_assert_int_eq(CMP(0, 1, 0, 4096), 1);         /* one variant, two sizes */
	/* Extrapolated: a row scaled x10 from 1.1..1.3 ms is 11..13 ms, fixed cost counted once. */
	rows[1].scale = 10;
	rows[1].elapsed.q1 = 1.1e-3;
	rows[1].elapsed.q3 = 1.3e-3;
	ck_assert_int_eq(CMP(0, 1, 0, 4096), 0);
	ck_assert_int_eq(sweep_row_quote(&r, 0, 1, text, sizeof text), 0);
	ck_assert_str_eq(text, "11.00 ms");
	/* A row that did not run cannot tell. */
	rows[3].n_runs = 0;
	ck_assert_int_eq(CMP(1, 4096, 0, 1), -2);
	ck_assert_ptr_nonnull(strstr(text, "O_SYNC at BUF_SIZE 4096 did not run here"));
	ck_assert_int_eq(sweep_row_quote(&r, 1, 4096, text, sizeof text), -1);
	/* Two runs are too few to tell. */
	rows[3].n_runs = 2;
	ck_assert_int_eq(CMP(1, 4096, 0, 1), -2);
	ck_assert_ptr_nonnull(strstr(text, "too few to compare"));
	rows[3].n_runs = 3;
	/* Two dirs: plain and O_SYNC twice (the tmpfs variant once); the same order in both holds,
	 * orders that differ cannot tell; the tmpfs variant stands beside each copy. */
	struct sweep_row rows2[4];
	struct sweep_variant bv2[5] = { bv[0], bv[0], bv[1], bv[1], bv[2] };
	memcpy(rows2, rows, sizeof rows2);
	bv2[1].rows = rows2;
	bv2[3].rows = rows2 + 2;
	for (size_t v = 0; v < 4; v++)
		snprintf(bv2[v].given_dir, sizeof bv2[v].given_dir, "%s", v % 2 ? "/b" : "/a");
	r.variants = bv2;
	r.n_variants = 5;
	ck_assert_int_eq(CMP(1, 1, 0, 1), 1);
	ck_assert_int_eq(sweep_row_quote(&r, 1, 1, text, sizeof text), 0);
	ck_assert_str_eq(text, "55.00 ms on ext4, 55.00 ms on ext4");
	rows2[2].elapsed.q1 = 11e-3;                     /* O_SYNC@1 under /b: 11..60 ms */
	ck_assert_int_eq(CMP(1, 1, 0, 1), -2);
	ck_assert_ptr_nonnull(strstr(text, "slower than plain@1"));
	ck_assert_ptr_nonnull(strstr(text, "about as fast as plain@1"));
	ck_assert_int_eq(CMP(2, 1, 0, 4096), -1);        /* shm@1 (9..10) < plain@4096 (11..13), both */
#undef CMP
}
END_TEST

/* Bad sweeps are refused with a message, not run. */
START_TEST(test_refuse)
{
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .program = SCN_PROG_WRITE, .file_size = 1024, .variants = &var,
		.n_variants = 1 };
	struct sweep_result r;
	char *err = NULL;

	ck_assert_int_eq(sweep_run(&sw, NULL, &r, &err), -1);
	ck_assert_ptr_nonnull(err);
	free(err);
}
END_TEST

/* Display column of p in its line of text (UTF-8: continuation bytes take none). */
static int
display_col(const char *text, const char *p)
{
	const char *bol = p;
	int col = 0;

	while (bol > text && bol[-1] != '\n')
		bol--;
	for (; bol < p; bol++)
		col += ((unsigned char)*bol & 0xC0) != 0x80;
	return col;
}

/* Every output names the scaling and the reference; export refuses unknown formats. */
START_TEST(test_outputs)
{
	uint64_t bufs[] = { 1, 65536 };
	struct scn_variant var = { .name = "default" };
	struct scn_ref_row rows[] = { { 1, 72.13, 5.00, 67.11 }, { 65536, 0.09, 0.00, 0.09 } };
	struct scn_reference ref = { .label = "TLPI 2010", .source = "TLPI Table 13-2",
		.total_bytes = 100000000, .rows = rows, .n_rows = N(rows) };
	struct scn_sweep sw = { .title = "t", .program = SCN_PROG_WRITE, .buffer_sizes = bufs,
		.n_buffer_sizes = N(bufs), .file_size = 4 << 20, .variants = &var, .n_variants = 1,
		.repeat = 2, .budget = 0.2, .references = &ref, .n_references = 1 };
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char *err = NULL, *text = NULL;
	size_t len = 0, n = 0;
	FILE *f;
	char **lines;

	ck_assert_int_eq(sweep_run(&sw, &o, &r, &err), 0);
	ck_assert(r.variants[0].rows[0].scale > 1);   /* 4 MiB at 1 byte cannot fit 0.1 s */
	/* A row that ran on a round number of kB: once shown "40384 kB" above "1.6 MiB". */
	r.variants[0].rows[0].bytes = 40384000;

	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_print_text(f, &r, SWEEP_PRINT_WIDE), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "measured "));
	/* One unit down the scaling column: the bytes a row ran on in KiB, whatever their size. */
	for (const char *m = strstr(text, "measured "); m != NULL; m = strstr(m + 1, "measured ")) {
		double v;
		char unit[8];
		if (m[9] < '0' || m[9] > '9')
			continue;   /* the note under the table: "measured - fixed" */
		ck_assert_msg(sscanf(m, "measured %lf %7s", &v, unit) == 2 &&
			      strcmp(unit, "KiB,") == 0, "%.40s", m);
	}
	ck_assert_ptr_nonnull(strstr(text, "→ 4 MiB"));
	ck_assert_ptr_nonnull(strstr(text, "TLPI 2010"));
	ck_assert_ptr_nonnull(strstr(text, "72.1 s"));
	ck_assert_ptr_nonnull(strstr(text, "ours@"));
	ck_assert_ptr_nonnull(strstr(text, r.kernel));
	free(text);

	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "json"), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"runs\":[{\"elapsed_s\":"));
	ck_assert_ptr_nonnull(strstr(text, "\"elapsed_s\":72.13"));
	free(text);

	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "csv"), 0);
	fclose(f);
	/* One header row first: no comment line for a spreadsheet to read as data. */
	ck_assert_int_eq(strncmp(text, "sweep,program,file_size,variant,fs,", 35), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"TLPI 2010 elapsed_s\""));
	free(text);

	/* Markdown: a title line; every time in seconds for file_size (the book's 100 MB scaled
	 * to our 4 MiB: 72.13 s x 0.0419 = 3.03 s), the unit in the titles; no empty column (the
	 * book gives user and sys here: their columns stay); every line as many cells. */
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "md"), 0);
	fclose(f);
	ck_assert_int_eq(strncmp(text, "## t\n", 5), 0);
	ck_assert_ptr_nonnull(strstr(text, "| BUF_SIZE | median (s) |"));
	ck_assert_ptr_nonnull(strstr(text, "| TLPI 2010 elapsed (s, ×0.0419) | TLPI 2010 user (s, "
	                                   "×0.0419) | TLPI 2010 sys (s, ×0.0419) |"));
	ck_assert_ptr_nonnull(strstr(text, "| 3.03 | 0.210 | 2.81 |"));
	ck_assert_ptr_null(strstr(text, " µs"));
	ck_assert_ptr_null(strstr(text, " ms "));
	{
		int cells = -1;
		for (char *p = strstr(text, "\n|"); p != NULL; p = strstr(p + 1, "\n|")) {
			int k = 0;
			for (char *q = p + 1; *q != '\n' && *q != '\0'; q++)
				k += *q == '|' && q[-1] != '\\';
			ck_assert(cells < 0 || k == cells);
			cells = k;
		}
		ck_assert_int_ge(cells, 10);
	}
	free(text);

	/* JSON says whether the machine was busy, with what says so. */
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "json"), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"busy\":{\"busy\":"));
	ck_assert_ptr_nonnull(strstr(text, "\"cpu_wait_s\":"));
	free(text);

	/* The plot is one SVG document. */
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "svg"), 0);
	fclose(f);
	ck_assert_int_eq(strncmp(text, "<?xml version=\"1.0\"", 19), 0);
	ck_assert_ptr_nonnull(strstr(text, "</svg>\n"));
	ck_assert_ptr_nonnull(strstr(text, "elapsed, TLPI 2010"));
	free(text);

	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_export(f, &r, "xml"), -1);
	fclose(f);
	free(text);

	/* The compact table: no line wider than the pane (count UTF-8 characters). */
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_print_compact(f, &r, 50, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "TLPI 2010"));
	for (char *p = text, *nl; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		int cols = 0;
		nl = strchr(p, '\n');
		for (char *q = p; q != nl && *q != '\0'; q++)
			cols += ((unsigned char)*q & 0xC0) != 0x80;
		ck_assert_int_le(cols, 50);
	}
	free(text);
	/* The lessons point at the syscalls and system CPU columns: the TUI's table has them
	 * (CPU when wide enough), with the same numbers as the full table. */
	for (int w = 76; w <= 96; w += 20) {
		char calls[64];
		const struct sweep_row *row = &r.variants[0].rows[0];
		f = open_memstream(&text, &len);
		ck_assert_int_eq(sweep_print_compact(f, &r, w, 0), 0);
		fclose(f);
		ck_assert_ptr_nonnull(strstr(text, " syscalls "));
		/* Left out, and said why, when no row used a tick of system CPU. */
		ck_assert_int_eq(strstr(text, " sys ") != NULL, w >= 96 && sweep_cols_sys_told(&r));
		ck_assert_int_eq(strstr(text, "sys left out") != NULL, w >= 96 && !sweep_cols_sys_told(&r));
		snprintf(calls, sizeof calls, "\non %s\n", r.variants[0].fs);
		ck_assert_ptr_nonnull(strstr(text, calls));
		snprintf(calls, sizeof calls, " %.0f ", sweep_row_calls(row));
		ck_assert_ptr_nonnull(strstr(text, calls));
		/* The header's columns sit over the rows' ("± σ" is 5 bytes, 3 columns). */
		ck_assert_int_eq(display_col(text, strstr(text, "syscalls")),
		                 display_col(text, strstr(text, calls) + 1));
		free(text);
	}
	/* A sys column of "< 1 tick" on every row says nothing: it is left out, with why. */
	{
		struct sweep_variant *bv = (struct sweep_variant *)&r.variants[0];
		double sys[64], fixed[64];
		for (size_t i = 0; i < bv->n_rows && i < 64; i++) {
			sys[i] = bv->rows[i].system;
			fixed[i] = bv->rows[i].fixed_system;
			bv->rows[i].system = 0;
			bv->rows[i].fixed_system = 0;
		}
		f = open_memstream(&text, &len);
		ck_assert_int_eq(sweep_print_compact(f, &r, 96, 0), 0);
		fclose(f);
		ck_assert_ptr_null(strstr(text, " sys "));
		/* "< 1 tick" once: in the line that says why, in no row. */
		ck_assert_ptr_nonnull(strstr(text, "(sys left out: < 1 tick of system CPU on every row"));
		ck_assert_ptr_null(strstr(strstr(text, "< 1 tick") + 1, "< 1 tick"));
		free(text);
		for (size_t i = 0; i < bv->n_rows && i < 64; i++) {
			bv->rows[i].system = sys[i];
			bv->rows[i].fixed_system = fixed[i];
		}
	}
	/* A reference label wider than its column widens the column: "scaling" stays over
	 * the scaling. */
	ref.label = "TLPI 2010 O_SYNC";
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sweep_print_compact(f, &r, 120, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "TLPI 2010 O_SYNC scaling"));
	ck_assert_int_eq(display_col(text, strstr(text, "scaling")),
	                 display_col(text, strstr(text, "×")));
	free(text);
	ref.label = "TLPI 2010";

	/* The chart: no line wider than asked (ASCII: one byte per column). */
	lines = sweep_chart_lines(&r, 60, SWEEP_PRINT_ASCII, &n);
	ck_assert_ptr_nonnull(lines);
	ck_assert_uint_ge(n, 1 + 2 * 2);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_le((int)strlen(lines[i]), 60);
	sweep_chart_free(lines, n);
	/* Like with like: the book's 100 MB is scaled to our 4 MiB, and the key says so. */
	/* One unit system: the table's "µs", never an ASCII "us" in a UTF-8 chart. */
	lines = sweep_chart_lines(&r, 100, 0, &n);
	ck_assert_ptr_nonnull(lines);
	ck_assert_ptr_nonnull(strstr(lines[0], "(100 MB scaled to 4 MiB)"));
	for (size_t i = 0; i < n; i++)
		ck_assert_ptr_null(strstr(lines[i], " us"));
	sweep_chart_free(lines, n);
	sweep_result_clear(&r);
}
END_TEST

/* The same tiny sweep, loaded from YAML: order holds, the reference is matched by BUF. */
START_TEST(test_yaml_sweep)
{
	struct scenario *s = NULL;
	struct sweep_opts o = { .dir = scratch_dir(parent_idx) };
	struct sweep_result r;
	char path[4096], *err = NULL;
	const struct scn_sweep *sw;

	test_util_src_path("tests/sweep-tiny.yaml", path, sizeof path);
	ck_assert_msg(load_scenario(path, &s, &err) == 0, "%s", err ? err : "load failed");
	ck_assert_uint_eq(s->n_steps, 1);
	sw = s->steps[0].sweep;
	ck_assert_ptr_nonnull(sw);
	ck_assert_int_eq(sweep_run(sw, &o, &r, &err), 0);
	ck_assert(sweep_row_extrapolated(&r.variants[0].rows[0]) >
	    10 * sweep_row_extrapolated(&r.variants[0].rows[1]));
	ck_assert_uint_eq(sweep_ref_variant(&r, &sw->references[0]), 0);
	ck_assert_ptr_nonnull(sweep_ref_row(&sw->references[0], 4096));
	ck_assert_double_eq_tol(sweep_ref_row(&sw->references[0], 1)->elapsed, 72.13, 1e-9);
	ck_assert_ptr_null(sweep_ref_row(&sw->references[0], 2));
	ck_assert_int_eq(count_entries(scratch_dir(parent_idx)), 0);
	sweep_result_clear(&r);
	load_scenario_free(s);
}
END_TEST

/* Every bundled sweep scenario loads, and its references line up with its sweep. */
START_TEST(test_bundled_scenarios)
{
	static const char *const names[] = { "table-13-1", "table-13-2", "table-13-3",
		"ex-13-1b-osync", "ex-13-1c-tmpfs", "apue-fig-3-5", "hpux-table-3-5",
		"fsync-vs-fdatasync" };

	for (size_t i = 0; i < N(names); i++) {
		struct scenario *s = NULL;
		char rel[128], path[4096], *err = NULL;
		size_t sweeps = 0;

		snprintf(rel, sizeof rel, "scenarios/%s.yaml", names[i]);
		ck_assert_msg(load_scenario(test_util_src_path(rel, path, sizeof path), &s, &err) == 0,
		    "%s: %s", rel, err ? err : "load failed");
		ck_assert_ptr_nonnull(s->title);
		ck_assert_ptr_nonnull(s->source);
		ck_assert_ptr_nonnull(s->intro);
		for (size_t k = 0; k < s->n_steps; k++) {
			const struct scn_sweep *sw = s->steps[k].sweep;
			if (s->steps[k].op != SCN_OP_SWEEP)
				continue;
			sweeps++;
			ck_assert_msg(s->steps[k].say != NULL, "%s: a sweep without say", rel);
			ck_assert(sw->budget > 0 && sw->budget <= 2.0);
			for (size_t m = 0; m < sw->n_references; m++) {
				const struct scn_reference *ref = &sw->references[m];
				ck_assert_msg(ref->total_bytes > 0, "%s: reference without total", rel);
				/* Every book row is one of ours, or it would never be shown. */
				for (size_t q = 0; q < ref->n_rows; q++) {
					bool found = false;
					for (size_t b = 0; b < sw->n_buffer_sizes; b++)
						found = found || sw->buffer_sizes[b] == ref->rows[q].buf_size;
					ck_assert_msg(found, "%s: reference row %zu not swept", rel, q);
				}
			}
		}
		ck_assert_msg(sweeps > 0, "%s has no sweep", rel);
		load_scenario_free(s);
	}
}
END_TEST

/* The suite. */
static Suite *
sweep_suite(void)
{
	Suite *s = suite_create("bench");
	TCase *pure = tcase_create("pure");
	TCase *real = tcase_create("real");

	tcase_add_test(pure, test_scale_bytes);
	tcase_add_test(pure, test_scale_time);
	tcase_add_test(pure, test_scale_cpu);
	tcase_add_test(pure, test_refuse);
	tcase_add_test(pure, test_compare);
	tcase_add_test(pure, test_progress_left);
	tcase_add_test(pure, test_bundled_scenarios);
	suite_add_tcase(s, pure);
	tcase_add_checked_fixture(real, setup, teardown);
	tcase_set_timeout(real, 60);
	tcase_add_test(real, test_write_order);
	tcase_add_test(real, test_scaled_calls);
	tcase_add_test(real, test_overwrite);
	test_util_add(real, test_dirs, test_util_need_shm());
	/* A cold cache needs a disk (test_tmpfs shows what tmpfs does instead). */
	test_util_add(real, test_read_cold,
	              test_util_or(test_util_need_disk(), test_util_need_cachestat()));
	test_util_add(real, test_read_cold_mincore, test_util_need_disk());
	test_util_add(real, test_tmpfs, test_util_need_shm());
	test_util_add(real, test_odirect_row_error,
	              test_util_or(test_util_need_odirect(NULL, 4096),
	                           test_util_need_odirect_refusal(NULL, 1)));
	tcase_add_test(real, test_progress_stop);
	tcase_add_test(real, test_tick_stop);
	tcase_add_test(real, test_progress_estimates);
	test_util_add(real, test_busy, need_schedstat());
	tcase_add_test(real, test_outputs);
	tcase_add_test(real, test_yaml_sweep);
	suite_add_tcase(s, real);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(sweep_suite());
}
