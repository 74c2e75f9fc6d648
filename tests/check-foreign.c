/* SPDX-License-Identifier: MIT */
/* check-foreign.c: Check tests of tracing a student's own program (prog/trace.c, prog/streams.c, the shim). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "base/text.h"
#include "prog/streams.h"
#include "prog/format.h"
#include "shim/protocol.h"
#include "prog/run.h"
#include "prog/trace.h"
#include "scratch/scratch.h"
#include "test-util.h"

/* At most this many steps or lines are compared. */
#define FG_MAX 512

/* Path of a built test program (tests/foreign/NAME) into buf. */

/* The next step of t into *s, freeing the calls of the one s held (zeroed at first). */
static int
fg_next(struct prog_trace *t, struct prog_step *s)
{
	event_list_clear(&s->calls);
	return prog_trace_next(t, s);
}

static const char *
fg_prog(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/tests/foreign/%s", IOBUFVIZ_BUILDDIR, name);
	return buf;
}

/* Path of the built shim. */
static const char *
fg_shim(void)
{
	return IOBUFVIZ_BUILDDIR "/src/shim/iobufviz-shim.so";
}

/* st_blksize of path: the buffer glibc gives a stream on it. */
static uint64_t
fg_blksize(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (uint64_t)st.st_blksize;
}

/* A scratch dir for one test; its index. */
static int
fg_dir(void)
{
	int idx = scratch_mkdir(NULL);

	ck_assert_msg(idx >= 0, "scratch_mkdir: %s", strerror(errno));
	return idx;
}

/* Write len bytes of a pattern to a new file NAME in scratch dir idx; its path into buf. */
static const char *
fg_file(int idx, const char *name, size_t len, char *buf, size_t blen)
{
	int fd = scratch_create(idx, name, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < len; i++) {
		char c = (char)('a' + i % 26);
		ck_assert_int_eq(write(fd, &c, 1), 1);
	}
	close(fd);
	ck_assert_ptr_nonnull(scratch_path(idx, name, buf, blen));
	return buf;
}

/* "read 3 4096 4096", "openat PATH 3", "close 3 0": one call, as both sides are compared. */
static void
fg_key(const char *name, const char *path, int fd, uint64_t size, int64_t result, char *buf,
       size_t len)
{
	if (strcmp(name, "openat") == 0)
		snprintf(buf, len, "openat %.4000s %" PRId64, path, result);
	else if (strcmp(name, "close") == 0)
		snprintf(buf, len, "close %d %" PRId64, fd, result);
	else
		snprintf(buf, len, "%.32s %d %" PRIu64 " %" PRId64, name, fd, size, result);
}

/* Run argv under strace -f -e trace=read,write,openat,close; its calls as keys into v. */
static size_t
fg_strace(char *const argv[], int idx, char v[][PATH_MAX + 64], size_t max)
{
	char log[PATH_MAX], line[8192];
	size_t n = 0;
	pid_t pid;
	FILE *f;
	int st;

	ck_assert_ptr_nonnull(scratch_path(idx, "strace.log", log, sizeof log));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *args[16] = { "strace", "-f", "-qq", "-e", "trace=read,write,openat,close",
		                   "-o", log };
		int k = 7, null = open("/dev/null", O_RDWR);
		for (int i = 0; argv[i] != NULL && k < 15; i++)
			args[k++] = argv[i];
		args[k] = NULL;
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		execv("/usr/bin/strace", args);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "strace status %#x", st);
	f = fopen(log, "re");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL && n < max) {
		char *p = line, *name, *eq = NULL, *q, path[PATH_MAX] = "";
		long long size = 0, result;
		int fd = -1;

		while (*p >= '0' && *p <= '9')
			p++;
		while (*p == ' ')
			p++;
		name = p;
		p = strchr(p, '(');
		if (p == NULL || strstr(line, "resumed>") != NULL || strstr(line, "<unfinished") != NULL)
			continue;
		*p++ = '\0';
		/* "...) = 3", or "close(3)     = 0": strace pads the result to a column. */
		for (q = p; (q = strstr(q, " = ")) != NULL; q++)
			eq = q;
		ck_assert_msg(eq != NULL, "strace line: %s", p);
		result = strtoll(eq + 3, NULL, 10);
		while (eq > p && eq[-1] == ' ')
			eq--;
		ck_assert_msg(eq > p && eq[-1] == ')', "strace line: %s", p);
		eq--;
		if (strcmp(name, "openat") == 0) {
			char *a = strchr(p, '"'), *b = a ? strchr(a + 1, '"') : NULL;
			ck_assert_ptr_nonnull(b);
			snprintf(path, sizeof path, "%.*s", (int)(b - a - 1), a + 1);
		} else {
			fd = atoi(p);
			if (strcmp(name, "close") != 0) {
				*eq = '\0';
				q = strrchr(p, ',');
				ck_assert_ptr_nonnull(q);
				size = strtoll(q + 1, NULL, 10);
			}
		}
		fg_key(name, path, fd, (uint64_t)size, result, v[n++], PATH_MAX + 64);
	}
	fclose(f);
	return n;
}

/* Keys of our steps of the four calls strace was asked for. */
static size_t
fg_our_keys(struct prog_trace *t, char v[][PATH_MAX + 64], size_t max, bool *stdio_ok)
{
	struct prog_step s = { 0 };
	size_t n = 0;
	int rc;

	while ((rc = fg_next(t, &s)) == 1) {
		if (s.kind != PROG_STEP_CALL)
			continue;
		if (strcmp(s.ev.call, "read") != 0 && strcmp(s.ev.call, "write") != 0 &&
		    strcmp(s.ev.call, "openat") != 0 && strcmp(s.ev.call, "close") != 0)
			continue;
		/* Once the program reads its input, its libc is loaded: stdio must be visible. */
		if (stdio_ok != NULL && strcmp(s.ev.call, "write") == 0 && !*stdio_ok) {
			struct prog_stream st[16];
			const char *why;
			size_t k;
			ck_assert_int_eq(prog_trace_stdio(t, s.pid, st, 16, &k, &why), PROG_STREAMS_OK);
			ck_assert_uint_ge(k, 3);
			*stdio_ok = true;
		}
		ck_assert_uint_lt(n, max);
		fg_key(s.ev.call, s.path, s.ev.fd, s.ev.bytes, s.ev.result, v[n++], PATH_MAX + 64);
	}
	ck_assert_int_eq(rc, 0);
	return n;
}

/* Start argv under the tracer (stdout and stderr to /dev/null unless o says otherwise). */
static struct prog_trace *
fg_start(char *const argv[], struct prog_opts *o)
{
	struct prog_opts none = { 0 };
	struct prog_trace *t = NULL;
	char *err = NULL;

	if (o == NULL)
		o = &none;
	if (o->stdout_path == NULL)
		o->stdout_path = "/dev/null";
	if (o->stderr_path == NULL)
		o->stderr_path = "/dev/null";
	o->stdin_path = "/dev/null";
	ck_assert_msg(prog_trace_start(argv, o, &t, &err) == 0, "start: %s", err ? err : "?");
	return t;
}

/* The copy program's steps are exactly strace's calls, in order, with sizes and results,
 * after the dynamic loader's (strace shows them; the tracer passes over the calls made from
 * the loader's code): those come first and are on its cache and libraries. */
START_TEST(test_copy_equals_strace)
{
	static char ours[FG_MAX][PATH_MAX + 64], theirs[FG_MAX][PATH_MAX + 64];
	char prog[PATH_MAX], in[PATH_MAX], out[PATH_MAX];
	int idx = fg_dir();
	bool stdio_ok = false;
	size_t n1, n2;

	fg_file(idx, "in", 10000, in, sizeof in);
	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("copy", prog, sizeof prog), in, out, "4096", NULL };
	struct prog_trace *t = fg_start(argv, NULL);

	n1 = fg_our_keys(t, ours, FG_MAX, &stdio_ok);
	prog_trace_free(t);
	n2 = fg_strace(argv, idx, theirs, FG_MAX);
	ck_assert(stdio_ok);
	/* 3 reads of data and the EOF read, 3 writes at least. */
	ck_assert_uint_ge(n1, 10);
	ck_assert_uint_gt(n2, n1);
	for (size_t i = 0; i < n2 - n1; i++)
		ck_assert_msg(strncmp(theirs[i], "openat ", 7) != 0 || strstr(theirs[i], ".so") != NULL ||
		              strstr(theirs[i], "ld.so.cache") != NULL, "not the loader's: %s", theirs[i]);
	for (size_t i = 0; i < n1; i++)
		ck_assert_str_eq(ours[i], theirs[n2 - n1 + i]);
	scratch_remove(idx);
}
END_TEST

/* After each fwrite step, its stream's pending bytes equal the program's own __fpending. */
START_TEST(test_fpending_matches)
{
	char prog[PATH_MAX], out[PATH_MAX], errp[PATH_MAX], line[128];
	uint64_t ours[32], theirs[32];
	size_t n1 = 0, n2 = 0, calls_in_stdio = 0;
	int idx = fg_dir(), rc;
	struct prog_opts o = { 0 };
	struct prog_step s = { 0 };
	FILE *f;

	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	ck_assert_ptr_nonnull(scratch_path(idx, "err", errp, sizeof errp));
	char *argv[] = { (char *)fg_prog("fwrite", prog, sizeof prog), out, NULL };
	o.preload = fg_shim();
	o.stderr_path = errp;
	struct prog_trace *t = fg_start(argv, &o);
	while ((rc = fg_next(t, &s)) == 1) {
		/* The calls stdio made are the stdio call's own: on its fd, origin stdio. */
		for (size_t i = 0; s.kind == PROG_STEP_STDIO && i < s.calls.n; i++)
			if (s.calls.v[i].fd == s.stdio_fd && s.calls.v[i].origin == EV_STDIO &&
			    strcmp(s.calls.v[i].call, "write") == 0)
				calls_in_stdio++;
		if (s.kind != PROG_STEP_STDIO || strcmp(s.func, "fwrite") != 0)
			continue;
		struct prog_stream v[16];
		const char *why;
		size_t k;
		bool found = s.logged;

		/* The stream as the call left it, as the step carries it ... */
		ck_assert(s.stream_known && s.stream.addr == s.file);
		ck_assert_uint_lt(n1, 32);
		ours[n1++] = s.stream.pending;
		ck_assert_int_eq(s.stream.fd, s.stdio_fd);
		ck_assert_uint_eq(s.stream.buf_size, fg_blksize(out));
		ck_assert_int_eq(s.stream.mode, PROG_STREAM_FULL);
		/* ... and as read from outside while the process is stopped right after it. */
		ck_assert_int_eq(prog_trace_stdio(t, s.pid, v, 16, &k, &why), PROG_STREAMS_OK);
		for (size_t i = 0; i < k && !s.logged; i++)
			if (v[i].addr == s.file) {
				ck_assert_uint_eq(v[i].pending, s.stream.pending);
				found = true;
			}
		ck_assert(found);
	}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	f = fopen(errp, "re");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned long long p;
		if (sscanf(line, "pending %llu", &p) == 1 && n2 < 32)
			theirs[n2++] = p;
	}
	fclose(f);
	ck_assert_uint_eq(n1, 7);
	ck_assert_uint_eq(n2, 7);
	for (size_t i = 0; i < n1; i++)
		ck_assert_uint_eq(ours[i], theirs[i]);
	/* The 3000 + 2000 + ... bytes reached the file from inside fwrite (or fclose). */
	ck_assert_uint_ge(calls_in_stdio, 3);
	scratch_remove(idx);
}
END_TEST

/* The shim's steps name the stdio functions the program called, in order. */
START_TEST(test_shim_steps)
{
	char prog[PATH_MAX], out[PATH_MAX], seen[512] = "";
	int idx = fg_dir(), rc;
	struct prog_opts o = { 0 };
	struct prog_step s = { 0 };

	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("fwrite", prog, sizeof prog), out, NULL };
	o.preload = fg_shim();
	struct prog_trace *t = fg_start(argv, &o);
	while ((rc = fg_next(t, &s)) == 1)
		if (s.kind == PROG_STEP_STDIO && strcmp(s.func, "fprintf") != 0) {
			strncat(seen, s.func, sizeof seen - strlen(seen) - 2);
			strcat(seen, " ");
		}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert_str_eq(seen, "fopen fwrite fwrite fwrite fwrite fwrite fwrite fwrite fclose ");
	scratch_remove(idx);
}
END_TEST

/* fread reads ahead a whole buffer: the read step is inside fread, the rest waits in the
 * buffer; each fread's step carries its stream as the call left it (the two that made no
 * system call come from the shim's log at a later stop). */
START_TEST(test_fread_read_ahead)
{
	char prog[PATH_MAX], in[PATH_MAX], out[PATH_MAX];
	uint64_t ahead[3], bs;
	int idx = fg_dir(), rc, freads = 0, reads = 0;
	struct prog_opts o = { 0 };
	struct prog_step s = { 0 };

	fg_file(idx, "in", 10000, in, sizeof in);
	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	bs = fg_blksize(in);
	ck_assert_uint_ge(bs, 400);
	char *argv[] = { (char *)fg_prog("fread", prog, sizeof prog), in, NULL };
	o.preload = fg_shim();
	o.stdout_path = out;
	struct prog_trace *t = fg_start(argv, &o);
	while ((rc = fg_next(t, &s)) == 1) {
		/* The read is fread's own call, on its stream's fd. */
		ck_assert(s.kind != PROG_STEP_CALL || strcmp(s.ev.call, "read") != 0 ||
		          strcmp(s.path, in) != 0);
		for (size_t i = 0; s.kind == PROG_STEP_STDIO && i < s.calls.n; i++)
			if (strcmp(s.calls.v[i].call, "read") == 0 && s.calls.v[i].fd == s.stdio_fd) {
				reads++;
				ck_assert_uint_eq(s.calls.v[i].bytes, bs);
				ck_assert_int_eq(s.calls.v[i].result, (int64_t)bs);
				ck_assert_int_eq(s.calls.v[i].origin, EV_STDIO);
			}
		if (s.kind != PROG_STEP_STDIO || strcmp(s.func, "fread") != 0)
			continue;
		struct prog_stream v[16];
		const char *why;
		size_t k;

		ck_assert(s.stream_known);
		ck_assert(s.stream.addr == s.file && s.stream.fd == s.stdio_fd);
		ck_assert(s.stream.can_read && !s.stream.can_write);
		ck_assert_uint_eq(s.stream.buf_size, bs);
		ck_assert_uint_eq(s.head_len, PROG_HEAD_MAX);
		ck_assert_int_eq(s.logged, freads > 0);
		ahead[freads] = s.stream.read_ahead;
		ck_assert_int_eq(prog_trace_stdio(t, s.pid, v, 16, &k, &why), PROG_STREAMS_OK);
		for (size_t i = 0; i < k; i++) {
			if (v[i].fd == 1) {
				/* stdout is a file here: fully buffered, nothing written yet. */
				ck_assert_int_eq(v[i].mode, PROG_STREAM_FULL);
				ck_assert_uint_eq(v[i].pending, 0);
			} else if (v[i].fd == 2) {
				ck_assert_int_eq(v[i].mode, PROG_STREAM_UNBUFFERED);
			}
		}
		ck_assert_int_eq(s.ret, 100);
		freads++;
		ck_assert_int_le(freads, 3);
	}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert_int_eq(freads, 3);
	ck_assert_int_eq(reads, 1);
	ck_assert_uint_eq(ahead[0], bs - 100);
	ck_assert_uint_eq(ahead[1], bs - 200);
	ck_assert_uint_eq(ahead[2], bs - 300);
	scratch_remove(idx);
}
END_TEST

/* A static program: system calls only, and stdio says why it cannot be seen. */
START_TEST(test_static_only_syscalls)
{
	char prog[PATH_MAX], in[PATH_MAX], out[PATH_MAX];
	int idx = fg_dir(), rc, reads = 0;
	struct prog_opts o = { 0 };
	struct prog_step s = { 0 };
	bool asked = false;

	fg_file(idx, "in", 5000, in, sizeof in);
	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("copy-static", prog, sizeof prog), in, out, "4096", NULL };
	o.preload = fg_shim();
	struct prog_trace *t = fg_start(argv, &o);
	while ((rc = fg_next(t, &s)) == 1) {
		ck_assert_int_ne(s.kind, PROG_STEP_STDIO);
		if (s.kind == PROG_STEP_CALL && strcmp(s.ev.call, "read") == 0) {
			struct prog_stream v[4];
			const char *why;
			size_t k;
			reads++;
			ck_assert_int_eq(prog_trace_stdio(t, s.pid, v, 4, &k, &why), PROG_STREAMS_HIDDEN);
			ck_assert_str_eq(why, "stdio: not visible (static / not glibc), only system calls");
			asked = true;
		}
	}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert(asked);
	ck_assert_int_eq(reads, 3);
	scratch_remove(idx);
}
END_TEST

/* A program that forks: its steps carry both pids, and both exits are steps. */
START_TEST(test_fork_pids)
{
	char prog[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	pid_t parent, child = 0;
	int idx = fg_dir(), rc, exits = 0;
	struct prog_step s = { 0 };

	ck_assert_ptr_nonnull(scratch_path(idx, "a", a, sizeof a));
	ck_assert_ptr_nonnull(scratch_path(idx, "b", b, sizeof b));
	char *argv[] = { (char *)fg_prog("forks", prog, sizeof prog), a, b, NULL };
	struct prog_trace *t = fg_start(argv, NULL);
	parent = prog_trace_pid(t);
	bool wrote_a = false, wrote_b = false;
	while ((rc = fg_next(t, &s)) == 1) {
		if (s.kind == PROG_STEP_EXIT) {
			exits++;
			ck_assert_int_eq(s.exit_code, 0);
			continue;
		}
		if (s.kind != PROG_STEP_CALL || strcmp(s.ev.call, "write") != 0)
			continue;
		if (strcmp(s.path, a) == 0) {
			ck_assert_int_ne(s.pid, parent);
			child = s.pid;
			wrote_a = true;
		} else if (strcmp(s.path, b) == 0) {
			ck_assert_int_eq(s.pid, parent);
			wrote_b = true;
		}
	}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert(wrote_a && wrote_b);
	ck_assert_int_gt(child, 0);
	ck_assert_int_eq(exits, 2);
	scratch_remove(idx);
}
END_TEST

/* A program killed by a signal: its exit step says which. */
START_TEST(test_killed_by_signal)
{
	char prog[PATH_MAX], out[PATH_MAX], line[256];
	int idx = fg_dir(), rc, sig = 0;
	struct prog_step s = { 0 };

	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("killself", prog, sizeof prog), out, NULL };
	struct prog_trace *t = fg_start(argv, NULL);
	while ((rc = fg_next(t, &s)) == 1)
		if (s.kind == PROG_STEP_EXIT) {
			sig = s.signal;
			ck_assert_int_eq(s.exit_code, -1);
			ck_assert_str_eq(strchr(prog_format_step(&s, line, sizeof line), ' ') + 1,
			                 "killed by SIGUSR1");
		}
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert_int_eq(sig, SIGUSR1);
	scratch_remove(idx);
}
END_TEST

/* The line of a folded run of calls of func (base) on a stream on fd: each call's [arg,
 * ret] in v (n of them), bytes moved, the stream's _flags after the last, into buf. */
static const char *
fg_fold(const char *func, int base, int fd, const struct prog_run_call *v, uint64_t n,
        uint64_t bytes, unsigned flags, char *buf, size_t len)
{
	struct prog_run_stream st = { .st = { .addr = 0x1000, .fd = fd, .flags = flags } };
	struct prog_run_call calls[8];
	struct prog_run_step s = {
		.ps = { .kind = PROG_STEP_STDIO, .pid = 7, .func = func, .func_base = base,
		        .file = 0x1000, .stdio_fd = fd, .arg = { v[n - 1].arg }, .ret = v[n - 1].ret },
		.count = n, .bytes = bytes, .calls = calls, .streams = &st, .n_streams = 1,
	};

	struct text_buf t = { 0 };

	memcpy(calls, v, n * sizeof *v);
	prog_format_fold(&s, &t);
	snprintf(buf, len, "%s", text_str(&t));
	text_buf_free(&t);
	return buf;
}

/* A folded step says what its calls did: how many, the lines and bytes, the calls that
 * failed with their result (the last, the last k, each, some), why the last failed as its
 * stream says; what every call passed alike is shown, what varies by its name. */
START_TEST(test_fold_words)
{
	const struct prog_run_call gl[] = { { 0, 30 }, { 0, 31 }, { 0, -1 } },
	                           gl2[] = { { 0, 4 }, { 0, -1 }, { 0, -1 } },
	                           eof[] = { { 0, -1 }, { 0, -1 } },
	                           mid[] = { { 0, 'a' }, { 0, -1 }, { 0, 'b' } },
	                           xs[] = { { 'x', 'x' }, { 'x', 'x' } },
	                           cs[] = { { 'x', 'x' }, { 'y', 'y' } },
	                           fw[] = { { 1, 5 }, { 1, 0 } };
	const unsigned at_eof = PROG_MARK_IO_EOF_SEEN, err = PROG_MARK_IO_ERR_SEEN;
	char b[256];

	ck_assert_str_eq(fg_fold("getline", PROG_MARK_FUNC_getline, 3, gl, 3, 61, at_eof, b,
	                         sizeof b),
	                 "[7] getline(&line, &n, fp) x 3: 2 lines, 61 B, then -1 (end of file)");
	ck_assert_str_eq(fg_fold("getline", PROG_MARK_FUNC_getline, 3, gl2, 3, 4, at_eof, b,
	                         sizeof b),
	                 "[7] getline(&line, &n, fp) x 3: 1 line, 4 B, then 2 returned -1 (end of "
	                 "file)");
	ck_assert_str_eq(fg_fold("fgetc", PROG_MARK_FUNC_fgetc, 0, eof, 2, 0, at_eof, b, sizeof b),
	                 "[7] fgetc(stdin) x 2: 0 B, each returned EOF (end of file)");
	ck_assert_str_eq(fg_fold("getc", PROG_MARK_FUNC_getc, 3, mid, 3, 2, 0, b, sizeof b),
	                 "[7] getc(fp) x 3: 2 B, 1 of them returned EOF");
	ck_assert_str_eq(fg_fold("fputc", PROG_MARK_FUNC_fputc, 3, xs, 2, 2, 0, b, sizeof b),
	                 "[7] fputc('x', fp) x 2: 2 B");
	ck_assert_str_eq(fg_fold("putc_unlocked", PROG_MARK_FUNC_putc, 1, cs, 2, 2, 0, b, sizeof b),
	                 "[7] putc_unlocked(c, stdout) x 2: 2 B");
	ck_assert_str_eq(fg_fold("fwrite", PROG_MARK_FUNC_fwrite, 3, fw, 2, 5, err, b, sizeof b),
	                 "[7] fwrite(buf, 1, n, fp) x 2: 5 B, then 0 (error)");
}
END_TEST

/* Programs that cannot be run give a clear message, not a crash. */
START_TEST(test_exec_errors)
{
	struct prog_trace *t = NULL;
	char *err = NULL, path[PATH_MAX];
	int idx = fg_dir(), fd;

	char *a1[] = { "/nonexistent/iobufviz-prog", NULL };
	ck_assert_int_eq(prog_trace_start(a1, NULL, &t, &err), -1);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err, "/nonexistent/iobufviz-prog: No such file or directory");
	free(err);
	char *a2[] = { "iobufviz-no-such-command", NULL };
	ck_assert_int_eq(prog_trace_start(a2, NULL, &t, &err), -1);
	ck_assert_str_eq(err, "iobufviz-no-such-command: command not found");
	free(err);
	fd = scratch_create(idx, "notexec", O_WRONLY);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_ptr_nonnull(scratch_path(idx, "notexec", path, sizeof path));
	char *a3[] = { path, NULL };
	ck_assert_int_eq(prog_trace_start(a3, NULL, &t, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, ": Permission denied"));
	free(err);
	/* Executable but not a program the kernel can run: the child's execve fails. */
	ck_assert_int_eq(chmod(path, 0700), 0);
	ck_assert_int_eq(prog_trace_start(a3, NULL, &t, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, ": Exec format error"));
	free(err);
	scratch_remove(idx);
}
END_TEST

/* The seccomp filter lets a million getpid() run untraced: only the file calls stop. */
START_TEST(test_seccomp_few_stops)
{
	char prog[PATH_MAX], out[PATH_MAX];
	int idx = fg_dir(), rc, writes = 0;
	struct prog_stats st;
	struct prog_step s = { 0 };

	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("getpids", prog, sizeof prog), out, "1000000", NULL };
	struct prog_trace *t = fg_start(argv, NULL);
	while ((rc = fg_next(t, &s)) == 1)
		if (s.kind == PROG_STEP_CALL && strcmp(s.ev.call, "write") == 0 &&
		    strcmp(s.path, out) == 0)
			writes++;
	ck_assert_int_eq(rc, 0);
	prog_trace_stats(t, &st);
	prog_trace_free(t);
	ck_assert_int_eq(writes, 10);
	/* 10 writes, the loader's ~20 calls, two stops each: far below 2,000,000. */
	ck_assert_msg(st.stops < 150, "%" PRIu64 " stops", st.stops);
	scratch_remove(idx);
}
END_TEST

/* A program past its time limit is killed, and its exit step says so. */
START_TEST(test_timeout)
{
	char prog[PATH_MAX], out[PATH_MAX];
	struct prog_opts o = { 0 };
	int idx = fg_dir(), rc;
	bool timed_out = false;
	struct prog_step s = { 0 };

	ck_assert_ptr_nonnull(scratch_path(idx, "out", out, sizeof out));
	char *argv[] = { (char *)fg_prog("getpids", prog, sizeof prog), out, "100000000000", NULL };
	o.timeout_ms = 200;
	struct prog_trace *t = fg_start(argv, &o);
	while ((rc = fg_next(t, &s)) == 1)
		if (s.kind == PROG_STEP_EXIT)
			timed_out = s.timed_out && s.signal == SIGKILL;
	ck_assert_int_eq(rc, 0);
	prog_trace_free(t);
	ck_assert(timed_out);
	scratch_remove(idx);
}
END_TEST

/* The suite. */
static Suite *
fg_suite(void)
{
	Suite *s = suite_create("foreign");
	TCase *tc = tcase_create("trace");
	/* What the tracer needs of this machine, probed directly: never by calling the tracer,
	 * whose failure would then be a skip instead of a failed test. */
	const char *why = test_util_or(test_util_need_ptrace(), test_util_need_seccomp());

	tcase_set_timeout(tc, 60);
	test_util_add(tc, test_copy_equals_strace, test_util_or(why, test_util_need_strace()));
	test_util_add(tc, test_fpending_matches, why);
	test_util_add(tc, test_shim_steps, why);
	test_util_add(tc, test_fread_read_ahead, why);
	test_util_add(tc, test_static_only_syscalls, why);
	test_util_add(tc, test_fork_pids, why);
	test_util_add(tc, test_killed_by_signal, why);
	tcase_add_test(tc, test_exec_errors);
	tcase_add_test(tc, test_fold_words);
	test_util_add(tc, test_seccomp_few_stops, why);
	test_util_add(tc, test_timeout, why);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(fg_suite());
}
