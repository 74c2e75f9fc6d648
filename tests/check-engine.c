/* SPDX-License-Identifier: MIT */
/* check-engine.c: the runner, worker, ops and tracer against the real kernel. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lesson/expect.h"
#include "engine/runner.h"
#include "scenario/scenario.h"
#include "scratch/scratch.h"
#include "test-util.h"

#define STEP(o, ...) { .op = (o), .args = { __VA_ARGS__ } }
#define N(a) (sizeof (a) / sizeof (a)[0])
#define MAX_STEPS 32

/* One run of a scenario built from steps: every step's result, and the runner. */
struct run {
	struct scenario sc;
	struct runner *r;
	struct step_result res[MAX_STEPS];
	size_t n;
	char dir[PATH_MAX];
	unsigned long blksize;     /* st_blksize of the scratch file */
};

/* Start a runner on steps (file size/fs as given) and run every step. */
static void
run_all(struct run *run, struct scn_step *steps, size_t n, uint64_t size, enum scn_fs on,
        enum runner_trace trace)
{
	struct runner_opts o = { .dir = NULL, .trace = trace };
	struct stat sb;
	char *err = NULL;

	memset(run, 0, sizeof *run);
	ck_assert_uint_le(n, MAX_STEPS);
	run->sc.title = "test";
	run->sc.file.size = size;
	run->sc.file.on = on;
	run->sc.file.fill = SCN_FILL_LINES;
	run->sc.steps = steps;
	run->sc.n_steps = n;
	run->r = runner_new(&run->sc, &o, &err);
	ck_assert_msg(run->r != NULL, "runner_new: %s", err ? err : "?");
	snprintf(run->dir, sizeof run->dir, "%s", runner_file_path(run->r));
	*strrchr(run->dir, '/') = '\0';
	/* The dir: a lesson that makes its file itself has none before its first open. */
	ck_assert_int_eq(stat(run->dir, &sb), 0);
	run->blksize = (unsigned long)sb.st_blksize;
	for (;;) {
		int rc = runner_step(run->r, &run->res[run->n]);
		ck_assert_int_ge(rc, 0);
		if (rc == 0)
			break;
		run->n++;
	}
	ck_assert_uint_eq(run->n, n);
}

/* Free a run; check that the scratch dir went away with it. */
static void
run_free(struct run *run)
{
	struct stat sb;

	for (size_t i = 0; i < run->n; i++)
		step_result_clear(&run->res[i]);
	runner_free(run->r);
	ck_assert_int_eq(stat(run->dir, &sb), -1);
	ck_assert_int_eq(errno, ENOENT);
}

/* Assert event e is call(fd, bytes) = result, made by origin. */
static void
check_event(const struct event *e, const char *call, int fd, uint64_t bytes, int64_t result,
            enum ev_origin origin)
{
	char buf[200];

	event_format(e, buf, sizeof buf);
	ck_assert_msg(strcmp(e->call, call) == 0, "want %s, got %s", call, buf);
	ck_assert_msg(e->fd == fd, "fd: %s", buf);
	ck_assert_msg(e->bytes == bytes, "bytes: %s", buf);
	ck_assert_msg(e->result == result, "result: %s", buf);
	ck_assert_int_eq(e->origin, origin);
}

/* fopen "w", fwrite 5000, fflush: glibc writes 4096 at once and keeps 904 until the fflush,
 * seen call by call. */
START_TEST(test_fwrite_fflush_ptrace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 5000),
		STEP(SCN_OP_FFLUSH),
		STEP(SCN_OP_FCLOSE),
	};
	struct run run;
	const struct step_result *fo, *fw, *ff, *fc;
	unsigned long b;
	char detail[32];

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PTRACE);
	ck_assert_int_eq(runner_trace_source(run.r), EV_SRC_PTRACE);
	b = run.blksize;
	fo = &run.res[0];
	fw = &run.res[1];
	ff = &run.res[2];
	fc = &run.res[3];

	ck_assert_int_eq(fo->ret, 3);
	ck_assert_uint_eq(fo->events.n, 1);
	check_event(&fo->events.v[0], "openat", -1, 0, 3, EV_STDIO);
	ck_assert_str_eq(fo->events.v[0].detail, "O_WRONLY|O_CREAT|O_TRUNC, 0666");
	ck_assert(fo->after.stdio.open);
	ck_assert_uint_eq(fo->after.stdio.size, 0);

	/* glibc learns st_blksize, writes whole blocks from the caller's data, keeps the rest. */
	ck_assert_int_eq(fw->ret, 5000);
	ck_assert_uint_eq(fw->events.n, 2);
	check_event(&fw->events.v[0], "newfstatat", 3, 0, 0, EV_STDIO);
	snprintf(detail, sizeof detail, "st_blksize=%lu", b);
	ck_assert_str_eq(fw->events.v[0].detail, detail);
	check_event(&fw->events.v[1], "write", 3, 5000 - 5000 % b, (int64_t)(5000 - 5000 % b),
	            EV_STDIO);
	ck_assert(fw->events.v[1].ns_traced);
	ck_assert_uint_eq(fw->events.n_write, 1);
	ck_assert_uint_eq(fw->events.bytes_written, 5000 - 5000 % b);
	ck_assert_uint_eq(fw->events.syscw, 1);
	ck_assert_uint_eq(fw->events.wchar, 5000 - 5000 % b);
	ck_assert_uint_eq(fw->after.stdio.size, b);
	ck_assert_uint_eq(fw->after.stdio.pending, 5000 % b);
	ck_assert(fw->after.fd.open);
	ck_assert_int_eq(fw->after.fd.pos, (int64_t)(5000 - 5000 % b));

	ck_assert_int_eq(ff->ret, 0);
	ck_assert_uint_eq(ff->events.n, 1);
	check_event(&ff->events.v[0], "write", 3, 5000 % b, (int64_t)(5000 % b), EV_STDIO);
	ck_assert_uint_eq(ff->after.stdio.pending, 0);
	ck_assert_int_eq(ff->after.fd.pos, 5000);

	ck_assert_int_eq(fc->ret, 0);
	ck_assert_uint_eq(fc->events.n, 1);
	check_event(&fc->events.v[0], "close", 3, 0, 0, EV_STDIO);
	ck_assert(!fc->after.stdio.open);
	ck_assert(!fc->after.fd.open);
	ck_assert_uint_eq(fc->after.cache.file_size, 5000);
	run_free(&run);
}
END_TEST

/* The same in the fallback: the totals agree, and no per-call event is invented. */
START_TEST(test_fwrite_fflush_procio)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 5000),
		STEP(SCN_OP_FFLUSH),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 100),
	};
	struct run run;
	const struct step_result *fw, *ff, *w;
	unsigned long b;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PROCIO);
	ck_assert_int_eq(runner_trace_source(run.r), EV_SRC_PROCIO);
	b = run.blksize;
	fw = &run.res[1];
	ff = &run.res[2];
	w = &run.res[3];

	ck_assert_int_eq(run.res[0].events.n, 0);
	ck_assert_int_eq(fw->events.source, EV_SRC_PROCIO);
	ck_assert_uint_eq(fw->events.n, 0);
	ck_assert_uint_eq(fw->events.n_write, 1);
	ck_assert_uint_eq(fw->events.bytes_written, 5000 - 5000 % b);
	ck_assert_uint_eq(fw->events.n_read, 0);
	ck_assert_uint_eq(fw->events.bytes_read, 0);
	ck_assert_ptr_nonnull(strstr(text_str(&fw->note), "counts and totals only"));
	ck_assert_uint_eq(fw->after.stdio.pending, 5000 % b);

	ck_assert_uint_eq(ff->events.n, 0);
	ck_assert_uint_eq(ff->events.n_write, 1);
	ck_assert_uint_eq(ff->events.bytes_written, 5000 % b);
	ck_assert_uint_eq(ff->after.stdio.pending, 0);

	/* A direct op is exact even here: the worker made the call itself. */
	ck_assert_uint_eq(w->events.n, 1);
	check_event(&w->events.v[0], "write", 3, 100, 100, EV_DIRECT);
	ck_assert(!w->events.v[0].ns_traced);
	ck_assert_uint_eq(w->events.syscw, 1);
	ck_assert_uint_eq(w->events.wchar, 100);
	ck_assert_str_eq(text_str(&w->note), "");
	run_free(&run);
}
END_TEST

/* fwrite 10000 on a fresh buffer: one write of whole blocks; setvbuf 1000: one write(2000). */
static void
check_big_and_setvbuf(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 10000),
		STEP(SCN_OP_FCLOSE),
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_SETVBUF, .has = SCN_HAS_MODE | SCN_HAS_SIZE | SCN_HAS_BUFFER,
		     .bufmode = SCN_BUF_FULL, .size = 1000, .buffer = SCN_BUFFER_OWN),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 2500),
		STEP(SCN_OP_FCLOSE),
	};
	struct run run;
	unsigned long b;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	b = run.blksize;
	ck_assert_uint_eq(run.res[1].events.n_write, 1);
	ck_assert_uint_eq(run.res[1].events.bytes_written, 10000 - 10000 % b);
	ck_assert_uint_eq(run.res[1].after.stdio.pending, 10000 % b);
	ck_assert_uint_eq(run.res[2].events.bytes_written, 10000 % b);

	ck_assert_int_eq(run.res[4].ret, 0);
	ck_assert_uint_eq(run.res[4].after.stdio.size, 1000);
	ck_assert_uint_eq(run.res[5].events.n_write, 1);
	ck_assert_uint_eq(run.res[5].events.bytes_written, 2000);
	ck_assert_uint_eq(run.res[5].after.stdio.pending, 500);
	if (trace == RUNNER_TRACE_PTRACE) {
		/* The buffer is ours, so stdio never asks for st_blksize: one write only. */
		ck_assert_uint_eq(run.res[1].events.n, 2);
		check_event(&run.res[1].events.v[1], "write", 3, 10000 - 10000 % b,
		            (int64_t)(10000 - 10000 % b), EV_STDIO);
		ck_assert_uint_eq(run.res[5].events.n, 1);
		check_event(&run.res[5].events.v[0], "write", 3, 2000, 2000, EV_STDIO);
	} else {
		ck_assert_uint_eq(run.res[1].events.n, 0);
		ck_assert_uint_eq(run.res[5].events.n, 0);
	}
	run_free(&run);
}

START_TEST(test_big_setvbuf_ptrace)
{
	check_big_and_setvbuf(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_big_setvbuf_procio)
{
	check_big_and_setvbuf(RUNNER_TRACE_PROCIO);
}
END_TEST

/* What happens between two steps (here our own fsync() on another descriptor, in class
 * the kernel's 30 s writeback) is in the next step's "before", not put down to its call. */
START_TEST(test_before_observed)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 8192),
		STEP(SCN_OP_LSEEK, .has = SCN_HAS_OFFSET | SCN_HAS_WHENCE, .offset = 0,
		     .whence = SEEK_SET),
	};
	struct scenario sc = { .title = "test", .steps = steps, .n_steps = N(steps) };
	struct runner_opts o = { .trace = RUNNER_TRACE_AUTO };
	struct step_result res[3];
	struct runner *r;
	char *err = NULL;
	int fd;

	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(runner_step(r, &res[i]), 1);
	fd = open(runner_file_path(r), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fsync(fd), 0);
	close(fd);
	ck_assert_int_eq(runner_step(r, &res[2]), 1);
	if (res[1].after.cache.has_dirty && res[1].after.cache.dirty > 0) {
		ck_assert_uint_eq(res[2].before.cache.dirty, 0);
		ck_assert_uint_eq(res[2].after.cache.dirty, 0);
	}
	/* Allocation made by the fsync() shows before the lseek, not as the lseek's. */
	ck_assert_uint_eq(res[2].before.disk.allocated_bytes, res[2].after.disk.allocated_bytes);
	for (int i = 0; i < 3; i++)
		step_result_clear(&res[i]);
	runner_free(r);
}
END_TEST

/* fsync leaves no dirty page; fsync + DONTNEED leaves no cached page; extents get blocks. */
START_TEST(test_fsync_dontneed)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 65536),
		STEP(SCN_OP_FSYNC),
		STEP(SCN_OP_FADVISE, .has = SCN_HAS_ADVICE, .advice = POSIX_FADV_DONTNEED),
	};
	struct run run;
	bool ext4;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_AUTO);
	ext4 = strcmp(runner_fs_name(run.r), "ext4") == 0;
	ck_assert_int_eq(run.res[1].ret, 65536);
	ck_assert_uint_eq(run.res[1].after.cache.file_size, 65536);
	ck_assert_int_eq(run.res[2].ret, 0);
	if (run.res[2].after.cache.has_dirty) {
		ck_assert_uint_eq(run.res[2].after.cache.dirty, 0);
		ck_assert_uint_eq(run.res[2].after.cache.writeback, 0);
	}
	ck_assert_int_eq(run.res[3].ret, 0);
	ck_assert_uint_eq(run.res[3].after.cache.cached, 0);
	if (ext4 && run.res[1].after.disk.source == SNAP_SRC_FIEMAP) {
		/* ext4 delays allocation until writeback; fsync forces it. */
		ck_assert_uint_eq(run.res[2].after.disk.delalloc_bytes, 0);
		ck_assert_uint_ge(run.res[2].after.disk.allocated_bytes, 65536);
	}
	if (runner_trace_source(run.r) == EV_SRC_PTRACE) {
		ck_assert_uint_eq(run.res[2].events.n, 1);
		check_event(&run.res[2].events.v[0], "fsync", 3, 0, 0, EV_DIRECT);
		ck_assert_uint_eq(run.res[3].events.n, 1);
		ck_assert_str_eq(run.res[3].events.v[0].call, "fadvise64");
		ck_assert_ptr_nonnull(strstr(run.res[3].events.v[0].detail, "POSIX_FADV_DONTNEED"));
	}
	run_free(&run);
}
END_TEST

/* The O_DIRECT alignment the kernel wants for files in dir (statx), 512 if unknown. */
static unsigned
dio_align(const char *dir)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	memset(&stx, 0, sizeof stx);
	if (syscall(SYS_statx, AT_FDCWD, dir, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0)
		return stx.stx_dio_offset_align;
#else
	(void)dir;
#endif
	return 512;
}

/* Listing 13-1: O_DIRECT with a misaligned buffer or length is EINVAL; aligned works. */
static void
check_direct(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR | O_DIRECT),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES | SCN_HAS_ALIGN, .bytes = 4096, .align = 1),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 100),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 4096),
		STEP(SCN_OP_PWRITE, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 4096,
		     .offset = 4096),
	};
	struct run run;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	ck_assert_int_ge(run.res[0].ret, 0);
	ck_assert_ptr_nonnull(strstr(run.res[0].events.v[0].detail, "O_DIRECT"));
	if (strcmp(runner_fs_name(run.r), "tmpfs") != 0 && dio_align(run.dir) > 1) {
		for (int i = 1; i <= 2; i++) {
			ck_assert_int_eq(run.res[i].ret, -1);
			ck_assert_int_eq(run.res[i].err, EINVAL);
			ck_assert_uint_eq(run.res[i].events.n, 1);
			ck_assert_int_eq(run.res[i].events.v[0].result, -1);
			ck_assert_int_eq(run.res[i].events.v[0].err, EINVAL);
		}
	}
	ck_assert_int_eq(run.res[3].ret, 4096);
	ck_assert_int_eq(run.res[4].ret, 4096);
	ck_assert_uint_eq(run.res[4].events.n, 1);
	ck_assert_str_eq(run.res[4].events.v[0].call, "pwrite64");
	ck_assert_int_eq(run.res[4].events.v[0].offset, 4096);
	run_free(&run);
}

START_TEST(test_direct_ptrace)
{
	check_direct(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_direct_procio)
{
	check_direct(RUNNER_TRACE_PROCIO);
}
END_TEST

/* O_DIRECT with a 512-byte transfer, where the filesystem's alignment allows it. */
START_TEST(test_direct_512)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR | O_DIRECT),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 512),
	};
	struct run run;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_AUTO);
	ck_assert_int_ge(run.res[0].ret, 0);
	ck_assert_int_eq(run.res[1].ret, 512);
	run_free(&run);
}
END_TEST

/* tmpfs: everything runs; the probes say what is missing, nothing fails. */
START_TEST(test_tmpfs)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 5000),
		STEP(SCN_OP_FFLUSH),
		STEP(SCN_OP_FILENO),
		STEP(SCN_OP_FSYNC),
		STEP(SCN_OP_FADVISE, .has = SCN_HAS_ADVICE, .advice = POSIX_FADV_DONTNEED),
	};
	struct run run;

	run_all(&run, steps, N(steps), 0, SCN_FS_TMPFS, RUNNER_TRACE_AUTO);
	ck_assert_str_eq(runner_fs_name(run.r), "tmpfs");
	ck_assert_ptr_nonnull(strstr(runner_file_path(run.r), "/dev/shm/"));
	for (size_t i = 0; i < run.n; i++)
		ck_assert_msg(run.res[i].ret >= 0, "step %zu: ret %lld err %d", i,
		              (long long)run.res[i].ret, run.res[i].err);
	ck_assert_uint_eq(run.res[1].after.stdio.pending, 5000 % run.blksize);
	ck_assert_int_eq(run.res[3].ret, 3);
	ck_assert_uint_eq(run.res[5].after.cache.file_size, 5000);
	if (run.res[5].after.disk.source != SNAP_SRC_FIEMAP)
		ck_assert_str_ne(run.res[5].after.disk.note, "");
	run_free(&run);
}
END_TEST

/* Calls on nothing: EBADF from the kernel (closed fd) or from us (no FILE*), no crash. */
static void
check_ebadf(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 10),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 10),
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY),
		STEP(SCN_OP_CLOSE),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 10),
		STEP(SCN_OP_FSYNC),
		STEP(SCN_OP_FCLOSE),
		STEP(SCN_OP_NOTE),
	};
	struct run run;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	ck_assert_int_eq(run.res[0].ret, -1);
	ck_assert_int_eq(run.res[0].err, EBADF);
	ck_assert_uint_eq(run.res[0].events.n, 0);
	ck_assert_int_eq(run.res[1].ret, -1);
	ck_assert_int_eq(run.res[1].err, EBADF);
	ck_assert_int_eq(run.res[2].ret, 3);
	ck_assert_int_eq(run.res[3].ret, 0);
	ck_assert(!run.res[3].after.fd.open);
	for (int i = 4; i <= 6; i++) {
		ck_assert_int_eq(run.res[i].ret, -1);
		ck_assert_int_eq(run.res[i].err, EBADF);
	}
	/* The kernel's answer on the closed fd is an event like any other. */
	ck_assert_uint_eq(run.res[4].events.n, 1);
	check_event(&run.res[4].events.v[0], "write", 3, 10, -1, EV_DIRECT);
	ck_assert_int_eq(run.res[4].events.v[0].err, EBADF);
	ck_assert_int_eq(run.res[7].ret, 0);
	ck_assert_str_eq(text_str(&run.res[7].note), "");
	run_free(&run);
}

START_TEST(test_ebadf_ptrace)
{
	check_ebadf(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_ebadf_procio)
{
	check_ebadf(RUNNER_TRACE_PROCIO);
}
END_TEST

/*
 * Two named descriptors on one file (as:/on:), writes with text, fcntl and the file's own
 * content: the second fd overwrites the first's bytes, O_APPEND set later appends, and the
 * content read after a step is what the calls wrote.
 */
static void
check_named(enum runner_trace trace)
{
	struct scn_expect content[] = {
		{ .key = SCN_KEY_FILE_CONTENT, .str = "B WAS HERErom a\n" },
	};
	struct scn_expect whole[] = {
		{ .key = SCN_KEY_FILE_CONTENT, .str = "B WAS HERErom a\ntwo\n" },
		{ .key = SCN_KEY_FILE_PREFIX, .str = "B WAS" },
		{ .key = SCN_KEY_FILE_SIZE, .num = 20 },
	};
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY | O_CREAT | O_TRUNC),
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_TEXT, .text = "line one from a\n"),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_TEXT, .text = "B WAS HERE"),
		STEP(SCN_OP_FCNTL, .has = SCN_HAS_FLAGS, .cmd = F_SETFL, .flags = O_APPEND),
		STEP(SCN_OP_FCNTL, .cmd = F_GETFL),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_TEXT, .text = "two\n"),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 3),
	};
	struct run run;
	int64_t num;
	struct text_buf flags = { 0 };

	/* Steps 0, 2 and 6 on "a" (handle 1), 1, 3, 4 and 5 on "b" (handle 2); 7 unnamed. */
	steps[0].handle = steps[2].handle = 1;
	steps[1].handle = steps[3].handle = steps[4].handle = steps[5].handle = steps[6].handle = 2;
	steps[0].name = steps[2].name = "a";
	steps[1].name = steps[3].name = steps[4].name = steps[5].name = steps[6].name = "b";
	steps[3].expects = content;
	steps[3].n_expects = N(content);
	steps[6].expects = whole;
	steps[6].n_expects = N(whole);
	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	for (size_t i = 0; i < 7; i++)
		ck_assert_msg(run.res[i].ret >= 0, "step %zu: err %d", i, run.res[i].err);
	ck_assert_int_eq(run.res[0].ret, 3);
	ck_assert_int_eq(run.res[1].ret, 4);
	ck_assert_int_eq(run.res[2].ret, 16);
	ck_assert_int_eq(run.res[3].ret, 10);
	if (trace == RUNNER_TRACE_PTRACE) {
		check_event(&run.res[2].events.v[0], "write", 3, 16, 16, EV_DIRECT);
		check_event(&run.res[3].events.v[0], "write", 4, 10, 10, EV_DIRECT);
		check_event(&run.res[6].events.v[0], "write", 4, 4, 4, EV_DIRECT);
	}
	ck_assert_str_eq(run.res[3].file_content, "B WAS HERErom a\n");
	ck_assert_ptr_null(run.res[2].file_content); /* read only when expected */
	ck_assert(expect_observe(&run.res[5], SCN_KEY_RESULT_FLAGS, &num, &flags));
	ck_assert_str_eq(text_str(&flags), "O_WRONLY|O_APPEND|O_LARGEFILE");
	text_buf_free(&flags);
	/* O_APPEND: "two\n" lands at the end (16), not at b's offset 10. */
	ck_assert_int_eq(expect_eval(&run.res[6]), 0);
	ck_assert_msg(run.res[6].ok, "file after the append: %s", run.res[6].file_content);
	ck_assert_uint_eq(run.res[6].after.cache.file_size, 20);
	/* The unnamed fd was never opened: its write fails with EBADF, the named ones untouched. */
	ck_assert_int_eq(run.res[7].ret, -1);
	ck_assert_int_eq(run.res[7].err, EBADF);
	run_free(&run);
}

START_TEST(test_named_ptrace)
{
	check_named(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_named_procio)
{
	check_named(RUNNER_TRACE_PROCIO);
}
END_TEST

/*
 * fork with unflushed output: a child ending with _exit writes nothing, one ending with exit
 * writes its copy (a call marked as the child's), and the parent's exit writes it again.
 */
START_TEST(test_fork_exit)
{
	struct scn_expect twice[] = {
		{ .key = SCN_KEY_FILE_CONTENT, .str = "hello\nhello\n" },
	};
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FPUTS, .has = SCN_HAS_TEXT, .text = "hello\n"),
		STEP(SCN_OP_FORK, .child_flushes = false),
		STEP(SCN_OP_FORK, .child_flushes = true),
		STEP(SCN_OP_EXIT),
	};
	struct run run;
	const struct event_list *l;

	steps[4].expects = twice;
	steps[4].n_expects = N(twice);
	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PTRACE);
	/* fork returns the child's pid in the parent. */
	ck_assert_int_gt(run.res[2].ret, 0);
	ck_assert_int_gt(run.res[3].ret, 0);
	ck_assert_uint_eq(run.res[2].events.n_write, 0);
	ck_assert_uint_eq(run.res[2].after.cache.file_size, 0);
	ck_assert_uint_eq(run.res[2].after.stdio.pending, 6);
	l = &run.res[3].events;
	ck_assert_uint_eq(l->n_write, 1);
	for (size_t i = 0; i < l->n; i++)
		ck_assert_msg(l->v[i].child, "step 3 event %zu is not the child's", i);
	ck_assert_uint_eq(run.res[3].after.cache.file_size, 6);
	ck_assert_uint_eq(run.res[3].after.stdio.pending, 6); /* the parent's copy is still there */
	l = &run.res[4].events;
	ck_assert_uint_eq(l->n_write, 1);
	ck_assert_uint_eq(l->bytes_written, 6);
	ck_assert_uint_eq(run.res[4].after.cache.file_size, 12);
	ck_assert(!run.res[4].after.stdio.open);
	ck_assert_int_eq(expect_eval(&run.res[4]), 0);
	ck_assert(run.res[4].ok);
	/* The step before the fork was the parent's own. */
	ck_assert(run.res[0].events.n > 0 && !run.res[0].events.v[0].child);
	run_free(&run);
}
END_TEST

/* _exit drops what the buffer holds: only what fflush wrote reaches the file. */
static void
check_uexit(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FPUTS, .has = SCN_HAS_TEXT, .text = "kept\n"),
		STEP(SCN_OP_FFLUSH),
		STEP(SCN_OP_FPUTS, .has = SCN_HAS_TEXT, .text = "lost\n"),
		STEP(SCN_OP_UEXIT),
	};
	struct run run;

	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	ck_assert_uint_eq(run.res[3].after.stdio.pending, 5);
	ck_assert_int_eq(run.res[4].ret, 0);
	ck_assert_uint_eq(run.res[4].events.n_write, 0);
	ck_assert_uint_eq(run.res[4].after.cache.file_size, 5);
	ck_assert(!run.res[4].after.stdio.open);
	run_free(&run);
}

START_TEST(test_uexit_ptrace)
{
	check_uexit(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_uexit_procio)
{
	check_uexit(RUNNER_TRACE_PROCIO);
}
END_TEST

/* A worker killed by SIGXFSZ (ftruncate past RLIMIT_FSIZE): a note, and no crash. */
static void
check_killed(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_WRONLY),
		STEP(SCN_OP_FTRUNCATE, .has = SCN_HAS_LEN, .len = 1 << 20),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 10),
	};
	struct rlimit rl = { 65536, 65536 }, old;
	struct run run;

	/* The worker inherits the limit; the test process gets its own back (CK_FORK=no). */
	signal(SIGXFSZ, SIG_DFL);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	rl.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	run_all(&run, steps, N(steps), 0, SCN_FS_DEFAULT, trace);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(run.res[1].ret, -1);
	ck_assert_ptr_nonnull(strstr(text_str(&run.res[1].note), "worker killed by SIGXFSZ"));
	if (trace == RUNNER_TRACE_PTRACE) {
		ck_assert_uint_eq(run.res[1].events.n, 1);
		ck_assert_str_eq(run.res[1].events.v[0].call, "ftruncate");
		ck_assert_int_eq(run.res[1].events.v[0].err, EFBIG);
		ck_assert_int_eq(run.res[1].err, EFBIG);
	}
	ck_assert(!run.res[1].after.stdio.open);
	ck_assert_int_eq(run.res[2].ret, -1);
	ck_assert_ptr_nonnull(strstr(text_str(&run.res[2].note), "SIGXFSZ"));
	run_free(&run);
}

START_TEST(test_killed_ptrace)
{
	check_killed(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_killed_procio)
{
	check_killed(RUNNER_TRACE_PROCIO);
}
END_TEST

/* The pid of this process's only child (the worker), by its parent in /proc/PID/stat. */
static pid_t
only_child(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = -1;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		char path[300], comm[64];
		int pid, ppid;
		FILE *f;
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fscanf(f, "%d %63s %*c %d", &pid, comm, &ppid) == 3 && ppid == getpid()) {
			found = pid;
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n == 1 ? found : -1;
}

/* A worker killed from outside between two steps: the next step says so, nothing hangs. */
static void
check_killed_outside(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
		STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 100),
		STEP(SCN_OP_FFLUSH),
	};
	struct scenario sc = { .title = "kill", .steps = steps, .n_steps = N(steps) };
	struct runner_opts o = { .trace = trace };
	struct step_result res;
	struct runner *r = runner_new(&sc, &o, NULL);
	pid_t w;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(runner_step(r, &res), 1);
	step_result_clear(&res);
	w = only_child();
	ck_assert_int_gt(w, 0);
	ck_assert_int_eq(kill(w, SIGKILL), 0);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, -1);
	ck_assert_ptr_nonnull(strstr(text_str(&res.note), "worker killed by SIGKILL"));
	ck_assert(!res.after.stdio.open);
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, -1);
	ck_assert_int_eq(res.err, ECHILD);
	step_result_clear(&res);
	runner_free(r);
}

START_TEST(test_killed_outside_ptrace)
{
	check_killed_outside(RUNNER_TRACE_PTRACE);
}
END_TEST

START_TEST(test_killed_outside_procio)
{
	check_killed_outside(RUNNER_TRACE_PROCIO);
}
END_TEST

/* The prefill: numbered lines, exactly the size asked, clean and cold; reads see them. */
START_TEST(test_prefill_read)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "r"),
		STEP(SCN_OP_FGETS),
		STEP(SCN_OP_FREAD, .has = SCN_HAS_BYTES, .bytes = 10),
		STEP(SCN_OP_FCLOSE),
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDONLY),
		STEP(SCN_OP_PREAD, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 100,
		     .offset = 8000),
		STEP(SCN_OP_LSEEK, .has = SCN_HAS_OFFSET | SCN_HAS_WHENCE, .offset = 0,
		     .whence = SEEK_END),
	};
	const struct snapshot *init;
	char buf[64];
	struct run run;
	int fd;

	run_all(&run, steps, N(steps), 8100, SCN_FS_DEFAULT, RUNNER_TRACE_AUTO);
	init = runner_initial(run.r);
	ck_assert_uint_eq(init->cache.file_size, 8100);
	ck_assert_uint_eq(init->cache.cached, 0);
	ck_assert(!init->stdio.open);
	fd = open(runner_file_path(run.r), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, buf, 24, 0), 24);
	ck_assert(memcmp(buf, "line 000001\nline 000002\n", 24) == 0);
	ck_assert_int_eq(pread(fd, buf, 1, 8099), 1);
	ck_assert_int_eq(buf[0], '\n');
	close(fd);
	ck_assert_int_eq(run.res[1].ret, 12);
	ck_assert_int_eq(run.res[2].ret, 10);
	ck_assert_uint_eq(run.res[2].after.stdio.read_avail + 22, run.res[2].after.stdio.size);
	ck_assert_int_eq(run.res[5].ret, 100);
	ck_assert_int_eq(run.res[6].ret, 8100);
	if (runner_trace_source(run.r) == EV_SRC_PTRACE) {
		/* fgets fills the buffer with one read of st_blksize. */
		ck_assert_uint_eq(run.res[1].events.n_read, 1);
		ck_assert_uint_eq(run.res[2].events.n_read, 0);
	}
	ck_assert_uint_eq(run.res[1].events.syscr, 1);
	ck_assert_uint_eq(run.res[2].events.syscr, 0);
	run_free(&run);
}
END_TEST

static int progress_calls;

/* Count progress reports. */
static int
count_progress(const struct snapshot *now, double el, void *user)
{
	(void)now;
	(void)el;
	(void)user;
	progress_calls++;
	return 0;
}

/* wait: a fixed time with progress reports; until clean on a clean file returns at once. */
START_TEST(test_wait_and_unimplemented)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_WAIT, .has = SCN_HAS_SECONDS, .seconds = 0.45),
		STEP(SCN_OP_WAIT, .has = SCN_HAS_UNTIL, .until_clean = true, .timeout = 60),
		STEP(SCN_OP_SWEEP),  /* no sweep data: sweep_run refuses, the step reports it */
	};
	struct runner_opts o = { .progress = count_progress };
	struct step_result res;
	struct scenario sc = { .title = "wait", .steps = steps, .n_steps = N(steps) };
	char *err = NULL;
	struct runner *r = runner_new(&sc, &o, &err);

	ck_assert_ptr_nonnull(r);
	progress_calls = 0;
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, 0);
	ck_assert_int_ge(progress_calls, 3);
	ck_assert_uint_ge(res.op_ns, 450000000u);
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, 0);
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, -1);
	ck_assert_int_eq(res.err, EIO);
	ck_assert_ptr_null(res.sweep);
	ck_assert_msg(strncmp(text_str(&res.note), "the sweep could not run: ", 25) == 0,
	              "note '%s'", text_str(&res.note));
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 0);
	runner_free(r);
}
END_TEST

/* How many times the stop callbacks were asked; they say stop from the second time on. */
static int stop_asked;

/* A poll that stops the step the second time it is asked. */
static int
stop_poll(void *user)
{
	(void)user;
	return ++stop_asked >= 2;
}

/* A wait's progress that stops it the second time. */
static int
stop_progress(const struct snapshot *now, double el, void *user)
{
	(void)now;
	(void)el;
	(void)user;
	return ++stop_asked >= 2;
}

/* Stop a long worker step (tail 1 byte at a time through 4 MiB of one line) and a wait. */
static void
stop_steps(enum runner_trace trace)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDONLY),
		STEP(SCN_OP_TAIL, .has = SCN_HAS_LINES | SCN_HAS_SIZE, .lines = 1, .size = 1),
		STEP(SCN_OP_CLOSE),
	};
	struct scn_step waits[] = { STEP(SCN_OP_WAIT, .has = SCN_HAS_SECONDS, .seconds = 20),
	                            STEP(SCN_OP_SYNC) };
	struct scenario sc = { .title = "stop", .steps = steps, .n_steps = N(steps),
	                       .file = { .size = 4u << 20, .fill = SCN_FILL_ZERO } };
	struct runner_opts o = { .trace = trace, .poll = stop_poll, .progress = stop_progress };
	struct step_result res;
	struct timespec t0, t1;
	char *err = NULL;
	struct runner *r = runner_new(&sc, &o, &err);

	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_ge(res.ret, 0);
	step_result_clear(&res);
	stop_asked = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(runner_step(r, &res), 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(res.ret, -1);
	ck_assert_int_eq(res.err, ECANCELED);
	ck_assert(res.stopped);
	ck_assert_str_eq(text_str(&res.note), "stopped by the user");
	/* Asked every RUNNER_POLL_MS: stopped on the second, well before the tail's end. */
	ck_assert_int_ge(stop_asked, 2);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 3);
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.err, ECANCELED);
	ck_assert(res.stopped);
	step_result_clear(&res);
	runner_free(r);

	sc.steps = waits;
	sc.n_steps = N(waits);
	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	stop_asked = 0;
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, -1);
	ck_assert_int_eq(res.err, ECANCELED);
	ck_assert(res.stopped);
	ck_assert_uint_lt(res.op_ns, 2000000000u);
	step_result_clear(&res);
	/* The run is over: the next step runs nothing. */
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.err, ECANCELED);
	step_result_clear(&res);
	runner_free(r);
}

/* q while a step runs: traced. */
START_TEST(test_stop_ptrace)
{
	stop_steps(RUNNER_TRACE_PTRACE);
}
END_TEST

/* q while a step runs: untraced. */
START_TEST(test_stop_procio)
{
	stop_steps(RUNNER_TRACE_PROCIO);
}
END_TEST

/*
 * The run's timeout, without a poll or progress callback: a worker step (tail) and a wait
 * are stopped at it, say so, and no later step runs.
 */
START_TEST(test_run_timeout)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDONLY),
		STEP(SCN_OP_TAIL, .has = SCN_HAS_LINES | SCN_HAS_SIZE, .lines = 1, .size = 1),
		STEP(SCN_OP_WAIT, .has = SCN_HAS_SECONDS, .seconds = 20),
	};
	struct scenario sc = { .title = "timeout", .steps = steps, .n_steps = N(steps),
	                       .file = { .size = 16u << 20, .fill = SCN_FILL_ZERO } };
	struct runner_opts o = { .timeout = 1 };
	struct step_result res;
	char *err = NULL;
	struct runner *r;

	for (int k = 0; k < 2; k++) {
		struct timespec t0, t1;
		/* Second time: the tail is left out; the wait runs into the timeout. */
		sc.steps = k == 0 ? steps : steps + 2;
		sc.n_steps = k == 0 ? N(steps) : 1;
		r = runner_new(&sc, &o, &err);
		ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (size_t i = 0; i < sc.n_steps; i++) {
			ck_assert_int_eq(runner_step(r, &res), 1);
			if (i + 1 < sc.n_steps && k == 0 && i == 0) {
				ck_assert_int_ge(res.ret, 0);
				step_result_clear(&res);
				continue;
			}
			ck_assert_int_eq(res.ret, -1);
			ck_assert_int_eq(res.err, ETIMEDOUT);
			ck_assert(res.stopped && res.timed_out);
			ck_assert_msg(strstr(text_str(&res.note), "--timeout") != NULL, "note '%s'",
			              text_str(&res.note));
			step_result_clear(&res);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 4);
		runner_free(r);
	}
}
END_TEST

/* A bad place for the scratch dir is a clear error, not a crash. */
START_TEST(test_bad_dir)
{
	struct scn_step steps[] = { STEP(SCN_OP_NOTE) };
	struct scenario sc = { .title = "bad", .steps = steps, .n_steps = 1 };
	struct runner_opts o = { .dir = "/nonexistent/iobufviz-test" };
	char *err = NULL;

	ck_assert_ptr_null(runner_new(&sc, &o, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/iobufviz-test"));
	free(err);

	/* Too big a file is refused before anything is written. */
	sc.file.size = SCN_MAX_SIZE + 1;
	err = NULL;
	ck_assert_ptr_null(runner_new(&sc, NULL, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err, "the limit is"));
	free(err);
}
END_TEST

/* Every worker op once: stdio buffering modes, reads, seeks, direct calls, syncs. */
static struct scn_step all_steps[] = {
	STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w+"),
	STEP(SCN_OP_SETBUF),                                                    /* NULL */
	STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 10),                 /* 2 */
	STEP(SCN_OP_SETVBUF, .has = SCN_HAS_MODE | SCN_HAS_SIZE | SCN_HAS_BUFFER,
	     .bufmode = SCN_BUF_LINE, .size = 64, .buffer = SCN_BUFFER_OWN),
	STEP(SCN_OP_FPUTS, .has = SCN_HAS_TEXT, .text = "one\ntwo"),           /* 4 */
	STEP(SCN_OP_PRINTF, .has = SCN_HAS_TEXT, .text = " 100%s\n"),          /* 5 */
	STEP(SCN_OP_SETBUFFER, .has = SCN_HAS_SIZE | SCN_HAS_BUFFER, .size = 64,
	     .buffer = SCN_BUFFER_OWN),
	STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 100),                /* 7 */
	STEP(SCN_OP_FSEEK, .has = SCN_HAS_OFFSET, .offset = 0),                 /* 8 */
	STEP(SCN_OP_FGETS, .has = SCN_HAS_BYTES, .bytes = 80),                  /* 9 */
	STEP(SCN_OP_FREAD, .has = SCN_HAS_BYTES, .bytes = 4),                   /* 10 */
	STEP(SCN_OP_FILENO),
	STEP(SCN_OP_PWRITE, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 4096,
	     .offset = 8192),                                                   /* 12 */
	STEP(SCN_OP_FALLOCATE, .has = SCN_HAS_LEN | SCN_HAS_OFFSET, .offset = 65536,
	     .len = 65536),                                                     /* 13 */
	STEP(SCN_OP_SYNC_FILE_RANGE, .has = SCN_HAS_FLAGS,
	     .flags = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
	              SYNC_FILE_RANGE_WAIT_AFTER),                              /* 14 */
	STEP(SCN_OP_FDATASYNC),
	STEP(SCN_OP_SYNC),
	STEP(SCN_OP_LSEEK, .has = SCN_HAS_OFFSET | SCN_HAS_WHENCE, .offset = -10,
	     .whence = SEEK_END),                                               /* 17 */
	STEP(SCN_OP_READ, .has = SCN_HAS_BYTES, .bytes = 100),                  /* 18 */
	STEP(SCN_OP_PREAD, .has = SCN_HAS_BYTES | SCN_HAS_OFFSET, .bytes = 50,
	     .offset = 0),                                                      /* 19 */
	STEP(SCN_OP_FTRUNCATE, .has = SCN_HAS_LEN, .len = 100),                 /* 20 */
	STEP(SCN_OP_FCLOSE),
};

/* The all-ops scenario with ptrace: each call, as stdio made it. */
START_TEST(test_all_ops_ptrace)
{
	struct run run;
	const struct step_result *v;

	run_all(&run, all_steps, N(all_steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PTRACE);
	v = run.res;
	for (size_t i = 0; i < run.n; i++)
		ck_assert_msg(v[i].ret >= 0, "step %zu (%s): ret %lld err %d %s", i,
		              scenario_op_name(v[i].step->op), (long long)v[i].ret, v[i].err,
		              text_str(&v[i].note));
	/* Unbuffered: fwrite(10) is write(10) at once. */
	ck_assert_int_eq(v[1].after.stdio.mode, SCN_BUF_NONE);
	ck_assert_uint_eq(v[2].events.n_write, 1);
	ck_assert_uint_eq(v[2].events.bytes_written, 10);
	ck_assert_uint_eq(v[2].after.stdio.pending, 0);
	/*
	 * Line buffered: when the lines go out is glibc's business (2.36 writes "one\ntwo"
	 * at once on a fresh buffer); what is certain: every byte is either written or
	 * pending, and a line ending in a newline leaves nothing behind.
	 */
	ck_assert_int_eq(v[3].after.stdio.mode, SCN_BUF_LINE);
	ck_assert_uint_eq(v[3].after.stdio.size, 64);
	ck_assert_uint_eq(v[4].events.bytes_written + v[4].after.stdio.pending, 7);
	ck_assert_uint_ge(v[4].events.bytes_written, 4);
	ck_assert_int_eq(v[5].ret, 7);
	ck_assert_uint_eq(v[4].events.bytes_written + v[5].events.bytes_written, 14);
	ck_assert_uint_eq(v[5].after.stdio.pending, 0);
	/*
	 * setbuffer 64: fwrite(100) makes one write (glibc 2.36 writes all 100 at once when
	 * the buffer is under 128 bytes); every byte is written or pending.
	 */
	ck_assert_uint_eq(v[6].after.stdio.size, 64);
	ck_assert_int_eq(v[6].after.stdio.mode, SCN_BUF_FULL);
	ck_assert_uint_eq(v[7].events.n_write, 1);
	ck_assert_uint_eq(v[7].events.bytes_written + v[7].after.stdio.pending, 100);
	/* fseek flushes what is pending, then lseek; fgets reads a buffer's worth. */
	ck_assert_uint_eq(v[8].events.bytes_written, v[7].after.stdio.pending);
	ck_assert_str_eq(v[8].events.v[v[8].events.n - 1].call, "lseek");
	ck_assert_int_eq(v[9].ret, 14);             /* "abcdefghij" + "one\n" */
	ck_assert_uint_eq(v[9].events.n_read, 1);
	ck_assert_uint_eq(v[9].events.v[0].bytes, 64);
	ck_assert_int_eq(v[10].ret, 4);
	ck_assert_uint_eq(v[10].events.n_read, 0);
	ck_assert_int_eq(v[11].ret, 3);
	/* Direct calls, one event each, with their arguments. */
	ck_assert_uint_eq(v[12].events.n, 1);
	ck_assert_int_eq(v[12].events.v[0].offset, 8192);
	ck_assert_str_eq(v[13].events.v[0].detail, "mode=0");
	ck_assert_int_eq(v[13].events.v[0].length, 65536);
	if (v[13].after.disk.source == SNAP_SRC_FIEMAP)
		ck_assert_uint_ge(v[13].after.disk.unwritten_bytes, 65536);
	ck_assert_str_eq(v[14].events.v[0].call, "sync_file_range");
	ck_assert_str_eq(v[14].events.v[0].detail, "SYNC_FILE_RANGE_WAIT_BEFORE|"
	                 "SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER");
	ck_assert_int_eq(v[14].events.v[0].length, 0);
	if (v[14].after.cache.has_dirty)
		ck_assert_uint_eq(v[14].after.cache.dirty, 0);
	ck_assert_str_eq(v[15].events.v[0].call, "fdatasync");
	ck_assert_str_eq(v[16].events.v[0].call, "sync");
	ck_assert_int_eq(v[16].events.v[0].fd, -1);
	ck_assert_int_eq(v[17].ret, 131072 - 10);
	ck_assert_str_eq(v[17].events.v[0].detail, "SEEK_END");
	ck_assert_int_eq(v[17].events.v[0].offset, -10);
	ck_assert_int_eq(v[18].ret, 10);
	ck_assert_int_eq(v[18].after.fd.pos, 131072);
	ck_assert_int_eq(v[19].ret, 50);
	ck_assert_int_eq(v[19].after.fd.pos, 131072);
	ck_assert_str_eq(v[20].events.v[0].detail, "");
	ck_assert_int_eq(v[20].events.v[0].length, 100);
	ck_assert_uint_eq(v[20].after.cache.file_size, 100);
	run_free(&run);
}
END_TEST

/* The fallback agrees with the tracer on every step's counts and totals, and on the state. */
START_TEST(test_all_ops_procio_agrees)
{
	struct run a, b;

	run_all(&a, all_steps, N(all_steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PTRACE);
	run_all(&b, all_steps, N(all_steps), 0, SCN_FS_DEFAULT, RUNNER_TRACE_PROCIO);
	for (size_t i = 0; i < a.n; i++) {
		const struct step_result *x = &a.res[i], *y = &b.res[i];
		const char *op = scenario_op_name(x->step->op);
		ck_assert_msg(x->ret == y->ret && x->err == y->err, "step %zu %s: ret", i, op);
		ck_assert_msg(x->events.n_write == y->events.n_write, "step %zu %s: n_write", i, op);
		ck_assert_msg(x->events.n_read == y->events.n_read, "step %zu %s: n_read", i, op);
		ck_assert_msg(x->events.bytes_written == y->events.bytes_written,
		              "step %zu %s: bytes_written", i, op);
		ck_assert_msg(x->events.bytes_read == y->events.bytes_read,
		              "step %zu %s: bytes_read", i, op);
		ck_assert_msg(x->events.syscw == y->events.syscw &&
		              x->events.syscr == y->events.syscr &&
		              x->events.wchar == y->events.wchar &&
		              x->events.rchar == y->events.rchar, "step %zu %s: /proc io", i, op);
		ck_assert_msg(x->after.stdio.pending == y->after.stdio.pending &&
		              x->after.stdio.size == y->after.stdio.size &&
		              x->after.fd.pos == y->after.fd.pos, "step %zu %s: state", i, op);
		if (scenario_op_is_stdio(x->step->op)) {
			ck_assert_uint_eq(y->events.n, 0);
			continue;
		}
		ck_assert_uint_eq(y->events.n, x->events.n);
		/* A direct op's one call: the same fields as the tracer decoded (trace/event.c). */
		for (size_t k = 0; k < x->events.n; k++) {
			const struct event *e = &x->events.v[k], *f = &y->events.v[k];
			ck_assert_msg(strcmp(e->call, f->call) == 0 && e->fd == f->fd &&
			              e->fd2 == f->fd2 && e->bytes == f->bytes &&
			              e->offset == f->offset && e->offset2 == f->offset2 &&
			              e->length == f->length && e->addr == f->addr &&
			              e->result == f->result && e->err == f->err &&
			              strcmp(e->detail, f->detail) == 0,
			              "step %zu %s: ptrace %s(fd %d, %s), procio %s(fd %d, %s)", i, op,
			              e->call, e->fd, e->detail, f->call, f->fd, f->detail);
		}
	}
	run_free(&a);
	run_free(&b);
}
END_TEST

/* The scenario the strace comparison runs: stdio writes, a read, direct calls. */
static struct scn_step truth_steps[] = {
	STEP(SCN_OP_FOPEN, .has = SCN_HAS_MODE, .mode = "w"),
	STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 5000),
	STEP(SCN_OP_FFLUSH),
	STEP(SCN_OP_FWRITE, .has = SCN_HAS_BYTES, .bytes = 10000),
	STEP(SCN_OP_FCLOSE),
	STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR),
	STEP(SCN_OP_FDOPEN, .has = SCN_HAS_MODE, .mode = "r+"),
	STEP(SCN_OP_FREAD, .has = SCN_HAS_BYTES, .bytes = 100),
	STEP(SCN_OP_FSYNC),
	STEP(SCN_OP_FCLOSE),
};

/* Run truth_steps with --trace=auto and say how the calls were seen (under strace). */
static int
truth_child(void)
{
	struct scenario sc = { .title = "truth", .steps = truth_steps, .n_steps = N(truth_steps) };
	struct runner_opts o = { .trace = RUNNER_TRACE_AUTO };
	struct step_result res;
	char *err = NULL;
	struct runner *r = runner_new(&sc, &o, &err);

	if (r == NULL) {
		printf("error %s\n", err ? err : "?");
		return 1;
	}
	printf("source=%d\n", (int)runner_trace_source(r));
	while (runner_step(r, &res) == 1) {
		printf("step %zu note=%s\n", res.index, text_str(&res.note));
		step_result_clear(&res);
	}
	runner_free(r);
	return 0;
}

/* Run "strace -ff -qq -y -o prefix exe arg" with stdout to out; its wait status. */
static int
strace_run(const char *exe, const char *arg, const char *prefix, const char *out)
{
	pid_t pid = fork();
	int st;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		/* LeakSanitizer cannot work under ptrace: a sanitizer build would fail here. */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execl("/usr/bin/strace", "strace", "-ff", "-qq", "-y", "-o", prefix, exe, arg,
		      (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return st;
}

/* --ptrace-child: insist on ptrace (under strace: refused, runner_new must say so). */
static int
ptrace_child(void)
{
	struct scenario sc = { .title = "truth", .steps = truth_steps, .n_steps = N(truth_steps) };
	struct runner_opts o = { .trace = RUNNER_TRACE_PTRACE };
	char *err = NULL;
	struct runner *r = runner_new(&sc, &o, &err);

	if (r != NULL) {
		printf("ran\n");
		runner_free(r);
		return 0;
	}
	printf("error %s\n", err ? err : "(no message)");
	free(err);
	return 0;
}

/* One call as "name result", e.g. "write 4096". */
struct truth_call {
	char name[24];
	long long result;
};

/* From an strace -y log of the worker: its calls on the scratch file, once it is idle. */
static size_t
truth_parse(const char *path, struct truth_call *v, size_t cap)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	bool started = false;
	size_t n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		char *eq = NULL, *p;
		size_t len;
		if (!started) {
			started = strstr(line, "read(200<") != NULL;
			continue;
		}
		if (strstr(line, "/scratch>") == NULL && strstr(line, "/scratch\"") == NULL)
			continue;
		for (p = line; (p = strstr(p, " = ")) != NULL; p += 3)
			eq = p;
		len = strcspn(line, "(");
		if (eq == NULL || len >= sizeof v[0].name || n == cap)
			continue;
		memcpy(v[n].name, line, len);
		v[n].name[len] = '\0';
		v[n].result = strtoll(eq + 3, NULL, 0);
		n++;
	}
	fclose(f);
	return n;
}

/*
 * The truth test: under strace -f, ptrace is refused (EPERM), the run falls
 * back to /proc/PID/io, and what strace saw the worker do equals what our tracer records
 * for the same scenario.
 */
START_TEST(test_truth_strace)
{
	struct scenario sc = { .title = "truth", .steps = truth_steps, .n_steps = N(truth_steps) };
	struct truth_call theirs[64], ours[64];
	size_t n_theirs = 0, n_ours = 0;
	char exe[PATH_MAX], prefix[PATH_MAX], out[PATH_MAX], log[PATH_MAX], buf[512];
	struct runner_opts o = { .trace = RUNNER_TRACE_PTRACE };
	struct step_result res;
	struct dirent *de;
	struct runner *r;
	ssize_t len;
	FILE *f;
	DIR *d;
	int idx, st;

	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	ck_assert_int_gt(len, 0);
	exe[len] = '\0';
	idx = scratch_mkdir(NULL);
	ck_assert_int_ge(idx, 0);
	scratch_path(idx, "trace", prefix, sizeof prefix);
	scratch_path(idx, "out", out, sizeof out);
	st = strace_run(exe, "--truth-child", prefix, out);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "strace run failed: %#x", st);

	/* The fallback was taken, and said why. */
	f = fopen(out, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	ck_assert_str_eq(buf, "source=1\n");
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	ck_assert_msg(strstr(buf, "ptrace refused: EPERM") != NULL, "%s", buf);
	fclose(f);

	/* The worker's log is the one that waits on its command pipe. */
	d = opendir(scratch_dir(idx));
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "trace.", 6) != 0)
			continue;
		snprintf(log, sizeof log, "%s/%s", scratch_dir(idx), de->d_name);
		f = fopen(log, "r");
		ck_assert_ptr_nonnull(f);
		while (fgets(buf, sizeof buf, f) != NULL)
			if (strstr(buf, "read(200<") != NULL) {
				n_theirs = truth_parse(log, theirs, N(theirs));
				break;
			}
		fclose(f);
		if (n_theirs > 0)
			break;
	}
	closedir(d);

	/* --trace=ptrace where ptrace is refused: runner_new fails and says why. */
	st = strace_run(exe, "--ptrace-child", prefix, out);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "strace run failed: %#x", st);
	f = fopen(out, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	ck_assert_msg(strncmp(buf, "error ptrace refused (EPERM", 27) == 0, "%s", buf);
	fclose(f);
	scratch_remove(idx);
	ck_assert_uint_gt(n_theirs, 0);

	r = runner_new(&sc, &o, NULL);
	ck_assert_ptr_nonnull(r);
	while (runner_step(r, &res) == 1) {
		for (size_t i = 0; i < res.events.n && n_ours < N(ours); i++) {
			snprintf(ours[n_ours].name, sizeof ours[0].name, "%s", res.events.v[i].call);
			ours[n_ours++].result = res.events.v[i].result;
		}
		step_result_clear(&res);
	}
	runner_free(r);

	for (size_t i = 0; i < n_theirs && i < n_ours; i++)
		ck_assert_msg(strcmp(theirs[i].name, ours[i].name) == 0 &&
		              theirs[i].result == ours[i].result,
		              "call %zu: strace %s = %lld, ours %s = %lld", i, theirs[i].name,
		              theirs[i].result, ours[i].name, ours[i].result);
	ck_assert_uint_eq(n_theirs, n_ours);
}
END_TEST

/* Load path (relative to the source tree), run it with trace, and check every expectation. */
static void
check_yaml(const char *rel, enum runner_trace trace)
{
	char path[PATH_MAX], buf[256], want[64];
	struct runner_opts o = { .trace = trace };
	struct scenario *sc = NULL;
	struct step_result res;
	struct runner *r;
	char *err = NULL;
	size_t steps = 0;

	test_util_src_path(rel, path, sizeof path);
	ck_assert_msg(load_scenario(path, &sc, &err) == 0, "%s", err ? err : "?");
	r = runner_new(sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	while (runner_step(r, &res) == 1) {
		ck_assert_int_eq(expect_eval(&res), 0);
		for (size_t i = 0; i < res.n_expects; i++) {
			const struct expect_result *x = &res.expects[i];
			ck_assert_msg(x->ok, "%s step %zu (%s): %s %s, got %s; events %zu%s%s",
			              rel, res.index + 1, scenario_op_name(res.step->op),
			              scenario_key_name(x->want->key),
			              expect_format_want(x->want, want, sizeof want), text_str(&x->got_text),
			              res.events.n, res.events.n ? ", first " : "",
			              res.events.n ? event_format(&res.events.v[0], buf, sizeof buf) : "");
		}
		ck_assert(res.ok);
		step_result_clear(&res);
		steps++;
	}
	ck_assert_uint_eq(steps, sc->n_steps);
	runner_free(r);
	load_scenario_free(sc);
}

/* How glibc splits fwrite into write calls (tests/engine-facts.yaml) holds with either way
 * of seeing calls. */
START_TEST(test_yaml_facts)
{
	check_yaml("tests/engine-facts.yaml", _i == 0 ? RUNNER_TRACE_PTRACE : RUNNER_TRACE_PROCIO);
}
END_TEST

/*
 * The loader's tmpfs fixture runs as it says (exercise 13-1c: no alignment rules there).
 * (odirect-lesson.yaml is a loading fixture: its misaligned read at end of file gets 0,
 * not EINVAL, since the kernel checks alignment only when there is data to move.)
 */
START_TEST(test_yaml_tmpfs_direct)
{
	check_yaml("tests/fixtures/good/tmpfs-direct.yaml", RUNNER_TRACE_AUTO);
}
END_TEST

/*
 * A fact this run cannot observe is its own outcome: neither held nor failed, with the
 * reason; a fact that is absent (no FILE*) still fails; known facts are compared.
 */
START_TEST(test_expect_not_observable)
{
	static struct step_result sr;
	struct scn_expect want[] = {
		{ .key = SCN_KEY_CACHE_DIRTY_PAGES, .cmp = SCN_CMP_EQ, .num = 0 },
		{ .key = SCN_KEY_DISK_ALLOCATED_BYTES, .cmp = SCN_CMP_EQ, .num = 0 },
		{ .key = SCN_KEY_STDIO_PENDING, .cmp = SCN_CMP_EQ, .num = 0 },
		{ .key = SCN_KEY_CACHE_PAGES, .cmp = SCN_CMP_EQ, .num = 2 },
		{ .key = SCN_KEY_CALLS_TOTAL, .cmp = SCN_CMP_EQ, .num = 0 },
		{ .key = SCN_KEY_CACHE_PAGES, .cmp = SCN_CMP_EQ, .num = 3 },
	};
	struct scn_step st = { .op = SCN_OP_WRITE, .expects = want, .n_expects = 6 };

	memset(&sr, 0, sizeof sr);
	sr.step = &st;
	sr.events.source = EV_SRC_PROCIO;
	sr.after.cache.source = SNAP_SRC_MINCORE;
	sr.after.cache.cached = 2;
	snprintf(sr.after.cache.note, sizeof sr.after.cache.note, "dirty pages: unknown, because "
	         "--probe=mincore sees residency only");
	sr.after.disk.source = SNAP_SRC_NONE;
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "ext4");
	ck_assert_int_eq(expect_eval(&sr), 0);
	ck_assert_int_eq(sr.expects[0].outcome, EXPECT_NOT_OBSERVABLE);
	ck_assert(!sr.expects[0].ok);
	ck_assert_str_eq(text_str(&sr.expects[0].got_text), "dirty pages: unknown, because --probe=mincore "
	                 "sees residency only");
	ck_assert_int_eq(sr.expects[1].outcome, EXPECT_NOT_OBSERVABLE);
	ck_assert_str_eq(text_str(&sr.expects[1].got_text), "disk: unknown, because FIEMAP did not answer");
	ck_assert_int_eq(sr.expects[2].outcome, EXPECT_FAILED);
	ck_assert_str_eq(text_str(&sr.expects[2].got_text), "no FILE* open");
	ck_assert_int_eq(sr.expects[3].outcome, EXPECT_HELD);
	ck_assert(sr.expects[3].ok);
	ck_assert_int_eq(sr.expects[4].outcome, EXPECT_NOT_OBSERVABLE);
	ck_assert_int_eq(sr.expects[5].outcome, EXPECT_FAILED);
	ck_assert_uint_eq(sr.n_unobservable, 3);
	ck_assert(!sr.ok);
	/* Without the absent and the false fact nothing failed: the step is ok. */
	st.n_expects = 2;
	ck_assert_int_eq(expect_eval(&sr), 0);
	ck_assert(sr.ok);
	ck_assert_uint_eq(sr.n_unobservable, 2);
	/* On tmpfs dirty pages do not apply: nothing waits for a disk, whatever the probe; the
	 * disk is not observable. */
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "tmpfs");
	ck_assert_int_eq(expect_eval(&sr), 0);
	ck_assert_int_eq(sr.expects[0].outcome, EXPECT_HELD);
	ck_assert_msg(strstr(text_str(&sr.expects[0].got_text), "do not apply on tmpfs") != NULL, "%s",
	              text_str(&sr.expects[0].got_text));
	ck_assert_str_eq(text_str(&sr.expects[1].got_text), "disk: unknown, because tmpfs keeps data in "
	                 "memory; there is no disk");
	expect_results_free(sr.expects, sr.n_expects);
}
END_TEST

/* --pace: the runner waits that long before each step but the first, outside the step's own
 * time, and says how long it was (step_result.pause). */
START_TEST(test_pace_waits)
{
	struct scn_step steps[] = {
		STEP(SCN_OP_OPEN, .has = SCN_HAS_FLAGS, .flags = O_RDWR),
		STEP(SCN_OP_WRITE, .has = SCN_HAS_BYTES, .bytes = 8192),
	};
	struct scenario sc = { .title = "test", .steps = steps, .n_steps = N(steps) };
	struct runner_opts o = { .trace = RUNNER_TRACE_AUTO, .pace = 0.4 };
	struct step_result res[2];
	struct timespec t0, t1;
	struct runner *r;
	char *err = NULL;
	double s;

	r = runner_new(&sc, &o, &err);
	ck_assert_msg(r != NULL, "runner_new: %s", err ? err : "?");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(runner_step(r, &res[i]), 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_double_eq(res[0].pause.seconds, 0);
	ck_assert_msg(res[1].pause.seconds >= 0.4 && res[1].pause.seconds < 2, "%g",
	              res[1].pause.seconds);
	ck_assert_msg(s >= 0.4, "two steps at a 0.4 s pace took %g s", s);
	/* The pause is not the step's: its op time is the write's alone. */
	ck_assert_uint_lt(res[1].op_ns, 400000000u);
	for (int i = 0; i < 2; i++)
		step_result_clear(&res[i]);
	runner_free(r);
}
END_TEST

/* expect_check into r again: what r held before is freed first (r starts zeroed). */
static enum expect_outcome
expect_again(const struct step_result *sr, const struct scn_expect *w, struct expect_result *r)
{
	text_buf_free(&r->got_text);
	return expect_check(sr, w, r);
}

/*
 * A power cut that kept the file after the kernel wrote to the lab's device between the
 * lesson's steps (ext4's 5 s journal commit at a person's pace): time's doing, not the
 * lesson's: not observable, with when the kernel wrote, and contradicted (a sentence on it is
 * false here, by another writer: held means true). A device count above the step's own with
 * no stray write is contradicted too.
 */
START_TEST(test_pace_power_cut)
{
	struct crash_view v = { .file = "scratch" };
	struct scn_step st = { .op = SCN_OP_FWRITE };
	struct step_result sr = { .step = &st, .crash = &v, .index = 3 };
	struct scn_expect w = { .key = SCN_KEY_CRASH_POWER_EXISTS, .cmp = SCN_CMP_EQ, .num = 0 };
	struct expect_result r = { 0 };

	v.power.observed = true;
	v.power.file.exists = true;
	v.power.stray_writes = 3;
	sr.pause.dev_step = 1;
	sr.pause.dev_at = 5.7;
	ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_NOT_OBSERVABLE);
	ck_assert(r.contradicted);
	ck_assert_msg(strstr(text_str(&r.got_text), "the kernel wrote to it 5.7 s after step 1") != NULL, "%s",
	              text_str(&r.got_text));
	/* No stray: the lesson's own doing, failed. */
	v.power.stray_writes = 0;
	ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_FAILED);
	/* The device counted more than wanted during the step, nothing between steps. */
	w = (struct scn_expect){ .key = SCN_KEY_DEVICE_WRITES, .cmp = SCN_CMP_EQ, .num = 0 };
	sr.after.device.source = SNAP_SRC_BLOCKSTAT;
	sr.before.device.source = SNAP_SRC_BLOCKSTAT;
	sr.after.device.writes = 2;
	sr.after.device.write_bytes = 8192;
	ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_NOT_OBSERVABLE);
	ck_assert_msg(r.contradicted, "%s", text_str(&r.got_text));
	text_buf_free(&r.got_text);
}
END_TEST

/* Collect the tests. */
/* Check key CMP want against a step (op) on ext4 that left dirty pages and allocated bytes,
 * with wb of the kernel's own writebacks of its file counted. */
static enum expect_outcome
written_back_check(enum scn_op op, enum scn_key key, enum scn_cmp cmp, int64_t want,
                   uint64_t dirty, uint64_t allocated, uint64_t wb, char *why, size_t len)
{
	struct scn_step st = { .op = op };
	struct step_result sr = { .step = &st, .kernel_writeback = wb };
	struct scn_expect w = { .key = key, .cmp = cmp, .num = want };
	struct expect_result r;
	enum expect_outcome o;

	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "ext4");
	sr.after.disk.source = SNAP_SRC_FIEMAP;
	sr.after.disk.allocated_bytes = allocated;
	sr.after.cache.source = SNAP_SRC_CACHESTAT;
	sr.after.cache.has_dirty = true;
	sr.after.cache.cached = 2;
	sr.after.cache.dirty = dirty;
	sr.before = sr.after;
	o = expect_check(&sr, &w, &r);
	snprintf(why, len, "%s", text_str(&r.got_text));
	text_buf_free(&r.got_text);
	return o;
}

/*
 * The kernel guarantees nothing about how long a page stays dirty: a "still dirty" (or "not
 * on the disk yet") expectation that failed after the kernel's own writeback took the file
 * (a sync() elsewhere, its flusher threads; fclose-truncate's fflush() saw 0 dirty pages with
 * another test's sync() beside it) is not observable here, with why. Without such a
 * writeback, after the lesson's own sync, or when the pages are more than wanted, it fails.
 */
START_TEST(test_written_back_rule)
{
	char why[256];

	/* Fewer pages cached than wanted by what the kernel dropped in the pause (13.5-fadvise
	 * --pace=6: 63 of 64, 1 evicted): not observable; by more than that: failed. */
	{
		struct scn_step st = { .op = SCN_OP_PREAD };
		struct step_result sr = { .step = &st };
		struct scn_expect w = { .key = SCN_KEY_CACHE_PAGES, .cmp = SCN_CMP_GE, .num = 64 };
		struct expect_result r = { 0 };

		sr.after.cache.source = SNAP_SRC_CACHESTAT;
		sr.after.cache.cached = 63;
		sr.before = sr.after;
		ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_FAILED);
		sr.changes.n = 1;
		sr.changes.v[0] = (struct snapshot_change){ .kind = SNAPSHOT_CHANGE_EVICTED,
		                                            .between = true, .count = 1 };
		ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_NOT_OBSERVABLE);
		ck_assert(r.contradicted);
		sr.after.cache.cached = 62;
		ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_FAILED);
		/* Dropped in an earlier pause, none in this one (13.5-fadvise --pace=6, step 14:
		 * 62 of 64, 2 dropped before step 13): still missing, not observable; the
		 * lesson counts them in sr.evicted. More missing than dropped: failed. */
		sr.changes.n = 0;
		sr.evicted = 2;
		ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_NOT_OBSERVABLE);
		ck_assert_msg(strstr(text_str(&r.got_text), "between the steps up to this one the kernel "
		                     "dropped 2") != NULL, "%s", text_str(&r.got_text));
		sr.evicted = 1;
		ck_assert_int_eq(expect_again(&sr, &w, &r), EXPECT_FAILED);
		text_buf_free(&r.got_text);
	}

	/* Held: nothing to explain. */
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GE,
	                                    1, 2, 0, 1, why, sizeof why), EXPECT_HELD);
	/* Fewer dirty pages than wanted, the kernel's writeback took the file: not observable. */
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GE,
	                                    1, 0, 0, 1, why, sizeof why), EXPECT_NOT_OBSERVABLE);
	ck_assert_msg(strstr(why, "dirty pages: 0 seen; the kernel's writeback") != NULL &&
	              strstr(why, "nothing keeps pages dirty") != NULL, "%s", why);
	ck_assert_int_eq(written_back_check(SCN_OP_FCLOSE, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_EQ,
	                                    2, 1, 0, 3, why, sizeof why), EXPECT_NOT_OBSERVABLE);
	ck_assert_int_eq(written_back_check(SCN_OP_WRITE, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GT,
	                                    1, 1, 0, 1, why, sizeof why), EXPECT_NOT_OBSERVABLE);
	/* Blocks on disk where none were wanted yet (delayed allocation done by writeback). */
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_DISK_ALLOCATED_BYTES,
	                                    SCN_CMP_EQ, 0, 0, 8192, 1, why, sizeof why),
	                 EXPECT_NOT_OBSERVABLE);
	ck_assert_msg(strstr(why, "bytes with blocks on disk: 8192 seen") != NULL, "%s", why);
	/* No writeback of the kernel's counted (or none countable here): failed. */
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GE,
	                                    1, 0, 0, 0, why, sizeof why), EXPECT_FAILED);
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_DISK_ALLOCATED_BYTES,
	                                    SCN_CMP_EQ, 0, 0, 8192, 0, why, sizeof why),
	                 EXPECT_FAILED);
	/* The lesson's own sync is its writeback, not someone else's: failed. */
	ck_assert_int_eq(written_back_check(SCN_OP_SYNC, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GE,
	                                    1, 0, 0, 1, why, sizeof why), EXPECT_FAILED);
	/* Wrong the other way (more dirty than wanted, clean wanted): writeback explains nothing. */
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_EQ,
	                                    1, 2, 0, 1, why, sizeof why), EXPECT_FAILED);
	ck_assert_int_eq(written_back_check(SCN_OP_FCLOSE, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_EQ,
	                                    0, 2, 0, 1, why, sizeof why), EXPECT_FAILED);
	ck_assert_int_eq(written_back_check(SCN_OP_FCLOSE, SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_GE,
	                                    0, 0, 0, 1, why, sizeof why), EXPECT_HELD);
	ck_assert_int_eq(written_back_check(SCN_OP_FFLUSH, SCN_KEY_DISK_ALLOCATED_BYTES,
	                                    SCN_CMP_GE, 4096, 0, 0, 1, why, sizeof why),
	                 EXPECT_FAILED);
}
END_TEST

static Suite *
engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("kernel");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_expect_not_observable);
	tcase_add_test(tc, test_fwrite_fflush_ptrace);
	tcase_add_test(tc, test_before_observed);
	tcase_add_test(tc, test_fwrite_fflush_procio);
	tcase_add_test(tc, test_big_setvbuf_ptrace);
	tcase_add_test(tc, test_big_setvbuf_procio);
	tcase_add_test(tc, test_fsync_dontneed);
	test_util_add(tc, test_direct_ptrace, test_util_need_odirect(NULL, 4096));
	test_util_add(tc, test_direct_procio, test_util_need_odirect(NULL, 4096));
	test_util_add(tc, test_direct_512, test_util_need_odirect(NULL, 512));
	test_util_add(tc, test_tmpfs, test_util_need_shm());
	tcase_add_test(tc, test_ebadf_ptrace);
	tcase_add_test(tc, test_ebadf_procio);
	tcase_add_test(tc, test_named_ptrace);
	tcase_add_test(tc, test_named_procio);
	tcase_add_test(tc, test_fork_exit);
	tcase_add_test(tc, test_uexit_ptrace);
	tcase_add_test(tc, test_uexit_procio);
	tcase_add_test(tc, test_killed_ptrace);
	tcase_add_test(tc, test_killed_procio);
	tcase_add_test(tc, test_killed_outside_ptrace);
	tcase_add_test(tc, test_killed_outside_procio);
	tcase_add_test(tc, test_prefill_read);
	tcase_add_test(tc, test_wait_and_unimplemented);
	tcase_add_test(tc, test_stop_ptrace);
	tcase_add_test(tc, test_stop_procio);
	tcase_add_test(tc, test_run_timeout);
	tcase_add_test(tc, test_bad_dir);
	tcase_add_test(tc, test_written_back_rule);
	tcase_add_test(tc, test_pace_waits);
	tcase_add_test(tc, test_pace_power_cut);
	test_util_add(tc, test_truth_strace, test_util_need_strace());
	tcase_add_test(tc, test_all_ops_ptrace);
	tcase_add_test(tc, test_all_ops_procio_agrees);
	tcase_add_loop_test(tc, test_yaml_facts, 0, 2);
	/* The fixture writes 100 bytes with O_DIRECT on tmpfs (Linux 6.6 and later). */
	test_util_add(tc, test_yaml_tmpfs_direct,
	              test_util_or(test_util_need_shm(), test_util_need_odirect("/dev/shm", 100)));
	suite_add_tcase(s, tc);
	return s;
}

/* nftw callback: remove one entry (files first, then their directories). */
static int
remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

/* Run the suite (or, under strace, one of the child runs the truth test asks for). */
int
main(int argc, char **argv)
{
	char top[PATH_MAX];
	const char *parent;
	SRunner *sr;
	int failed;

	if (argc == 2 && strcmp(argv[1], "--truth-child") == 0)
		return truth_child();
	if (argc == 2 && strcmp(argv[1], "--ptrace-child") == 0)
		return ptrace_child();
	/*
	 * Every test's scratch dir goes under one private dir removed at the end: a failing
	 * test ends its forked process without running the scratch cleanup.
	 */
	parent = getenv("TMPDIR");
	snprintf(top, sizeof top, "%s/check-engine.XXXXXX", parent && *parent ? parent : "/tmp");
	if (mkdtemp(top) == NULL || setenv("TMPDIR", top, 1) != 0) {
		perror(top);
		return EXIT_FAILURE;
	}
	sr = srunner_create(engine_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	nftw(top, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
