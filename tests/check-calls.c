/* SPDX-License-Identifier: MIT */
/* check-calls.c: the one syscall table and its decoder. Recorded stops (number, arguments,
 * result, the memory they point to) of every row go through the lesson tracer's path and the
 * program tracer's path: both must give the same event, decoded as strace decodes the call. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "shim/protocol.h"
#include "prog/trace.h"
#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/event.h"
#include "trace/peek.h"
#include "trace/tracer.h"
#include "test-util.h"

/* The recorded program's addresses: its buffers, paths, iovecs, offsets, structs. */
enum {
	A_BUF = 0x30000, A_PATH = 0x10000, A_EMPTY = 0x10100, A_IOV_R = 0x20000,
	A_IOV_W = 0x20100, A_OFF_IN = 0x40000, A_OFF_OUT = 0x40008, A_SF_OFF = 0x40010,
	A_SP_IN = 0x40018, A_SP_OUT = 0x40020, A_STAT = 0x50000, A_STATX = 0x51000,
	A_HOW = 0x60000, A_PARAMS = 0x61000, A_PATH2 = 0x10200,
};
#define A_MAP 0x7f0000000000ULL

/* When a region holds its bytes: from entry to exit, or only at one of them (the kernel
 * moved a copy's offsets in between). */
enum rec_phase { REC_BOTH, REC_ENTRY, REC_EXIT };

/* A piece of the recorded program's memory. */
struct rec_mem {
	uint64_t addr;
	const void *data;
	size_t len;
	enum rec_phase phase;
};

static const char rec_path[] = "a", rec_path2[] = "b", rec_empty[] = "";
static const struct iovec rec_iov_r[2] = { { (void *)A_BUF, 10 }, { (void *)(A_BUF + 10), 20 } };
static const struct iovec rec_iov_w[2] = { { (void *)A_BUF, 30 }, { (void *)(A_BUF + 30), 40 } };
static const int64_t rec_off_in[2] = { 1000, 4000 }, rec_off_out[2] = { 10000, 13000 },
	rec_sf_off[2] = { 0, 2000 }, rec_sp_in[2] = { 512, 1512 }, rec_sp_out[2] = { 20000, 21000 };
static const struct stat rec_stat = { .st_blksize = 4096, .st_mode = S_IFREG | 0644 };
static const struct statx rec_statx = { .stx_blksize = 4096, .stx_mode = S_IFREG | 0644 };
static const struct open_how rec_how = { .flags = O_RDONLY };

static const struct rec_mem rec_mem[] = {
	{ A_PATH, rec_path, sizeof rec_path, REC_BOTH },
	{ A_PATH2, rec_path2, sizeof rec_path2, REC_BOTH },
	{ A_EMPTY, rec_empty, sizeof rec_empty, REC_BOTH },
	{ A_IOV_R, rec_iov_r, sizeof rec_iov_r, REC_BOTH },
	{ A_IOV_W, rec_iov_w, sizeof rec_iov_w, REC_BOTH },
	{ A_OFF_IN, &rec_off_in[0], 8, REC_ENTRY }, { A_OFF_IN, &rec_off_in[1], 8, REC_EXIT },
	{ A_OFF_OUT, &rec_off_out[0], 8, REC_ENTRY }, { A_OFF_OUT, &rec_off_out[1], 8, REC_EXIT },
	{ A_SF_OFF, &rec_sf_off[0], 8, REC_ENTRY }, { A_SF_OFF, &rec_sf_off[1], 8, REC_EXIT },
	{ A_SP_IN, &rec_sp_in[0], 8, REC_ENTRY }, { A_SP_IN, &rec_sp_in[1], 8, REC_EXIT },
	{ A_SP_OUT, &rec_sp_out[0], 8, REC_ENTRY }, { A_SP_OUT, &rec_sp_out[1], 8, REC_EXIT },
	{ A_STAT, &rec_stat, sizeof rec_stat, REC_EXIT },
	{ A_STATX, &rec_statx, sizeof rec_statx, REC_EXIT },
	{ A_HOW, &rec_how, sizeof rec_how, REC_BOTH },
};

/* A peek over the recording, at one phase (m->pid holds it). */
static ssize_t
rec_read(const struct peek *m, uint64_t addr, void *buf, size_t len)
{
	enum rec_phase phase = (enum rec_phase)m->pid;

	for (size_t i = 0; i < sizeof rec_mem / sizeof rec_mem[0]; i++) {
		const struct rec_mem *r = &rec_mem[i];
		size_t n;

		if ((r->phase != REC_BOTH && r->phase != phase) || addr < r->addr ||
		    addr >= r->addr + r->len)
			continue;
		n = r->addr + r->len - addr < len ? (size_t)(r->addr + r->len - addr) : len;
		memcpy(buf, (const char *)r->data + (addr - r->addr), n);
		return (ssize_t)n;
	}
	return -1;
}

/* One recorded stop: the call, its arguments, its result (-errno), and the line iobufviz
 * shows for it: strace's decoding, in iobufviz's form (fds and sizes as numbers, @offset,
 * len=N, flags by name). */
struct rec {
	long nr;
	uint64_t a[6];
	int64_t rval;
	const char *text;
};

#define U(x) ((uint64_t)(int64_t)(x))

static const struct rec recs[] = {
	{ SYS_read, { 3, A_BUF, 4096 }, 4096, "read(3, 4096) = 4096" },
	{ SYS_read, { 3, A_BUF, 4096 }, 0, "read(3, 4096) = 0" },
	{ SYS_write, { 3, A_BUF, 10000 }, 10000, "write(3, 10000) = 10000" },
	{ SYS_write, { 9, A_BUF, 10 }, -EBADF, "write(9, 10) = -1 EBADF" },
	{ SYS_pread64, { 3, A_BUF, 100, 8192 }, 100, "pread64(3, 100, @8192) = 100" },
	{ SYS_pread64, { 3, A_BUF, 10, U(-1) }, -EINVAL, "pread64(3, 10) = -1 EINVAL" },
	{ SYS_pwrite64, { 3, A_BUF, 100, 20000 }, 100, "pwrite64(3, 100, @20000) = 100" },
	/* The vector calls move what they return. */
	{ SYS_readv, { 3, A_IOV_R, 2 }, 30, "readv(3, 30, iov=[10, 20]) = 30" },
	{ SYS_readv, { 3, A_IOV_R, 2 }, 7, "readv(3, 7, iov=[10, 20]) = 7" },
	{ SYS_readv, { 3, A_IOV_R, 2 }, -EBADF, "readv(3, 0, iov=[10, 20]) = -1 EBADF" },
	{ SYS_writev, { 3, A_IOV_W, 2 }, 70, "writev(3, 70, iov=[30, 40]) = 70" },
	{ SYS_preadv, { 3, A_IOV_R, 2, 4096 }, 30, "preadv(3, 30, @4096, iov=[10, 20]) = 30" },
	{ SYS_pwritev, { 3, A_IOV_W, 2, 0 }, 70, "pwritev(3, 70, @0, iov=[30, 40]) = 70" },
	{ SYS_preadv2, { 3, A_IOV_R, 2, 100, 0, 0 }, 30, "preadv2(3, 30, @100, iov=[10, 20]) = 30" },
	{ SYS_pwritev2, { 3, A_IOV_W, 2, U(-1), 0, RWF_DSYNC }, 70,
	  "pwritev2(3, 70, iov=[30, 40], RWF_DSYNC) = 70" },
	/* Copies: both fds, the offsets as they were at entry. */
	{ SYS_copy_file_range, { 3, 0, 4, 0, 5000, 0 }, 5000, "copy_file_range(3, 4, 5000) = 5000" },
	{ SYS_copy_file_range, { 3, A_OFF_IN, 4, A_OFF_OUT, 3000, 0 }, 3000,
	  "copy_file_range(3, @1000, 4, @10000, 3000) = 3000" },
	{ SYS_sendfile, { 4, 3, A_SF_OFF, 2000 }, 2000, "sendfile(4, 3, @0, 2000) = 2000" },
	{ SYS_sendfile, { 4, 3, 0, 100 }, 100, "sendfile(4, 3, 100) = 100" },
	{ SYS_splice, { 3, A_SP_IN, 6, 0, 1000, 0 }, 1000, "splice(3, @512, 6, 1000) = 1000" },
	{ SYS_splice, { 5, 0, 4, A_SP_OUT, 1000, SPLICE_F_MOVE }, 1000,
	  "splice(5, 4, @20000, 1000, SPLICE_F_MOVE) = 1000" },
	/* lseek's offset is a field, negative too. */
	{ SYS_lseek, { 3, 0, SEEK_SET }, 0, "lseek(3, @0, SEEK_SET) = 0" },
	{ SYS_lseek, { 3, U(-10), SEEK_END }, 20090, "lseek(3, -10, SEEK_END) = 20090" },
	{ SYS_lseek, { 3, U(-1), SEEK_SET }, -EINVAL, "lseek(3, -1, SEEK_SET) = -1 EINVAL" },
	{ SYS_fsync, { 3 }, 0, "fsync(3) = 0" },
	{ SYS_fdatasync, { 3 }, 0, "fdatasync(3) = 0" },
	{ SYS_syncfs, { 3 }, 0, "syncfs(3) = 0" },
	{ SYS_sync, { 0 }, 0, "sync() = 0" },
	/* The lengths of a range are a field. */
	{ SYS_sync_file_range, { 3, 0, 4096, SYNC_FILE_RANGE_WRITE }, 0,
	  "sync_file_range(3, @0, len=4096, SYNC_FILE_RANGE_WRITE) = 0" },
	{ SYS_sync_file_range, { 3, 0, 0, 7 }, 0, "sync_file_range(3, @0, len=0, "
	  "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER) = 0" },
	{ SYS_fadvise64, { 3, 4096, 8192, POSIX_FADV_WILLNEED }, 0,
	  "fadvise64(3, @4096, len=8192, POSIX_FADV_WILLNEED) = 0" },
	{ SYS_fadvise64, { 3, 0, 0, POSIX_FADV_DONTNEED }, 0,
	  "fadvise64(3, @0, len=0, POSIX_FADV_DONTNEED) = 0" },
	{ SYS_fallocate, { 3, 0, 0, 24576 }, 0, "fallocate(3, @0, len=24576, mode=0) = 0" },
	{ SYS_fallocate, { 3, FALLOC_FL_KEEP_SIZE, 24576, 4096 }, 0,
	  "fallocate(3, @24576, len=4096, mode=FALLOC_FL_KEEP_SIZE) = 0" },
	{ SYS_ftruncate, { 3, 30000 }, 0, "ftruncate(3, len=30000) = 0" },
	/* Memory. */
	{ SYS_mmap, { 0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 4096 }, (int64_t)A_MAP,
	  "mmap(NULL, len=8192, PROT_READ|PROT_WRITE, MAP_SHARED, 3, @4096) = 0x7f0000000000" },
	{ SYS_mmap, { 0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, U(-1), 0 },
	  (int64_t)A_MAP, "mmap(NULL, len=8192, PROT_READ|PROT_WRITE, "
	  "MAP_PRIVATE|MAP_ANONYMOUS, -1, @0) = 0x7f0000000000" },
	{ SYS_msync, { A_MAP, 8192, MS_SYNC }, 0, "msync(0x7f0000000000, len=8192, MS_SYNC) = 0" },
	{ SYS_munmap, { A_MAP, 8192 }, 0, "munmap(0x7f0000000000, len=8192) = 0" },
	{ SYS_io_uring_setup, { 4, A_PARAMS }, 5, "io_uring_setup(entries=4) = 5" },
	{ SYS_io_uring_enter, { 5, 1, 1, IORING_ENTER_GETEVENTS }, 1,
	  "io_uring_enter(5, to_submit=1, min_complete=1, IORING_ENTER_GETEVENTS) = 1" },
	/* Opens: the file by the name it was given (a lesson's are names in its directory). */
	{ SYS_openat, { U(AT_FDCWD), A_PATH, O_RDWR | O_CREAT | O_TRUNC, 0644 }, 3,
	  "openat(a, O_RDWR|O_CREAT|O_TRUNC, 0644) = 3" },
	{ SYS_openat, { U(AT_FDCWD), A_PATH, O_RDONLY | O_DIRECT }, -EINVAL,
	  "openat(a, O_RDONLY|O_DIRECT) = -1 EINVAL" },
	{ SYS_openat2, { U(AT_FDCWD), A_PATH, A_HOW, sizeof rec_how }, 5,
	  "openat2(a, O_RDONLY) = 5" },
#ifdef SYS_open
	{ SYS_open, { A_PATH, O_WRONLY | O_APPEND }, 5, "open(a, O_WRONLY|O_APPEND) = 5" },
#endif
#ifdef SYS_creat
	{ SYS_creat, { A_PATH, 0644 }, 5, "creat(a, 0644) = 5" },
#endif
	/* Renames: the old name, then the new one. */
#ifdef SYS_rename
	{ SYS_rename, { A_PATH, A_PATH2 }, 0, "rename(a, b) = 0" },
#endif
	{ SYS_renameat, { U(AT_FDCWD), A_PATH, U(AT_FDCWD), A_PATH2 }, 0, "renameat(a, b) = 0" },
	{ SYS_renameat2, { U(AT_FDCWD), A_PATH, U(AT_FDCWD), A_PATH2, 0 }, -ENOENT,
	  "renameat2(a, b) = -1 ENOENT" },
	{ SYS_close, { 3 }, 0, "close(3) = 0" },
	{ SYS_close, { 3 }, -EBADF, "close(3) = -1 EBADF" },
	{ SYS_close_range, { 3, 10, 0 }, 0, "close_range(3, 10) = 0" },
	{ SYS_dup, { 3 }, 5, "dup(3) = 5" },
#ifdef SYS_dup2
	{ SYS_dup2, { 3, 20 }, 20, "dup2(3, 20) = 20" },
#endif
	{ SYS_dup3, { 3, 21, O_CLOEXEC }, 21, "dup3(3, 21, O_CLOEXEC) = 21" },
	{ SYS_fcntl, { 3, F_GETFL }, O_RDWR | O_APPEND, "fcntl(3, F_GETFL -> O_RDWR|O_APPEND) = 1026" },
	{ SYS_fcntl, { 3, F_SETFL, O_APPEND }, 0, "fcntl(3, F_SETFL, O_RDONLY|O_APPEND) = 0" },
	{ SYS_fcntl, { 3, F_SETFD, FD_CLOEXEC }, 0, "fcntl(3, F_SETFD, FD_CLOEXEC) = 0" },
	{ SYS_fcntl, { 3, F_DUPFD, 10 }, 11, "fcntl(3, F_DUPFD, 10) = 11" },
	{ SYS_ioctl, { 3, FIONREAD, A_BUF }, 0, "ioctl(3, FIONREAD) = 0" },
	{ SYS_ioctl, { 3, 0x1234, A_BUF }, -ENOTTY, "ioctl(3, 0x1234) = -1 ENOTTY" },
	{ SYS_flock, { 3, LOCK_EX | LOCK_NB }, 0, "flock(3, LOCK_EX|LOCK_NB) = 0" },
#ifdef SYS_fstat
	{ SYS_fstat, { 3, A_STAT }, 0, "fstat(3, st_blksize=4096) = 0" },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat, { 3, A_EMPTY, A_STAT, AT_EMPTY_PATH }, 0,
	  "newfstatat(3, st_blksize=4096) = 0" },
#endif
	{ SYS_statx, { 3, A_EMPTY, AT_EMPTY_PATH, 0x7ff, A_STATX }, 0, "statx(3, stx_blksize=4096) = 0" },
	{ SYS_statx, { 3, A_EMPTY, AT_EMPTY_PATH, 0x7ff, A_STATX }, -EFAULT, "statx(3) = -1 EFAULT" },
	{ SYS_fstatfs, { 3, A_BUF }, 0, "fstatfs(3) = 0" },
	{ SYS_execve, { A_PATH }, 0, "execve(a) = 0" },
	{ SYS_exit_group, { 0 }, 0, "exit_group() = 0" },
	{ SYS_prctl, { (uint64_t)PROG_MARK_OPTION, 1 }, 0, "prctl() = 0" },
};

#define NRECS (sizeof recs / sizeof recs[0])

/* The stop of recording r, its entry read from the recorded memory. */
static const struct call_row *
rec_stop(const struct rec *r, struct decode_stop *s)
{
	const struct call_row *c = calls_find((uint64_t)r->nr);
	struct peek entry = { .read = rec_read, .pid = REC_ENTRY };

	ck_assert_msg(c != NULL, "syscall %ld is not in the table", r->nr);
	memset(s, 0, sizeof *s);
	s->nr = (uint64_t)r->nr;
	memcpy(s->args, r->a, sizeof s->args);
	s->rval = r->rval;
	s->is_error = r->rval < 0;
	event_decode_entry(c, s, &entry);
	return c;
}

/* The event the lesson tracer's path makes of recording r (and its stop, in *s). */
static const struct call_row *
rec_lesson(const struct rec *r, struct decode_stop *s, struct event *e)
{
	struct peek exit = { .read = rec_read, .pid = REC_EXIT };
	const struct call_row *c = rec_stop(r, s);

	tracer_event(c, s, &exit, e);
	return c;
}

/* Every row of the table has a recording here: a new row cannot go untested. */
START_TEST(test_every_row_recorded)
{
	for (size_t i = 0; i < calls_n; i++) {
		bool found = false;
		for (size_t k = 0; k < NRECS && !found; k++)
			found = recs[k].nr == calls_table[i].nr;
		ck_assert_msg(found, "no recorded stop of %s in tests/check-calls.c",
		              calls_table[i].name);
	}
}
END_TEST

/* The lesson tracer's path and the program tracer's path give the same event. */
START_TEST(test_same_event_both_paths)
{
	struct peek exit = { .read = rec_read, .pid = REC_EXIT };
	struct decode_stop s;
	struct prog_step step;
	struct event lesson;
	const struct call_row *c = rec_lesson(&recs[_i], &s, &lesson);
	const struct event *prog = &step.ev;

	prog_trace_event(c, &s, &exit, &step);
	ck_assert_int_eq(step.kind, PROG_STEP_CALL);
	ck_assert_str_eq(lesson.call, prog->call);
	ck_assert_int_eq(lesson.nr, prog->nr);
	ck_assert_int_eq(lesson.fd, prog->fd);
	ck_assert_int_eq(lesson.fd2, prog->fd2);
	ck_assert_uint_eq(lesson.bytes, prog->bytes);
	ck_assert_int_eq(lesson.offset, prog->offset);
	ck_assert_int_eq(lesson.offset2, prog->offset2);
	ck_assert_int_eq(lesson.length, prog->length);
	ck_assert_uint_eq(lesson.addr, prog->addr);
	ck_assert_int_eq(lesson.result, prog->result);
	ck_assert_int_eq(lesson.err, prog->err);
	ck_assert_str_eq(lesson.detail, prog->detail);
	/* Nothing else differs either (both start from a zeroed event). */
	ck_assert(memcmp(&lesson, prog, sizeof lesson) == 0);
}
END_TEST

/* Each recorded call reads as strace decodes it. */
START_TEST(test_decoded_as_strace)
{
	struct decode_stop s;
	struct event e;
	char line[256];

	rec_lesson(&recs[_i], &s, &e);
	ck_assert_str_eq(event_format(&e, line, sizeof line), recs[_i].text);
}
END_TEST

/* The event of the recording of call nr with arguments a and result rval. */
static void
event_of(long nr, const uint64_t a[6], int64_t rval, struct event *e)
{
	struct decode_stop s;

	for (size_t i = 0; i < NRECS; i++) {
		if (recs[i].nr != nr || memcmp(recs[i].a, a, sizeof recs[i].a) != 0 ||
		    recs[i].rval != rval)
			continue;
		rec_lesson(&recs[i], &s, e);
		return;
	}
	ck_abort_msg("no recording of syscall %ld", nr);
}

/* The values the text shows are fields (issue 21 item 5): lseek's offset, the lengths. */
START_TEST(test_values_are_fields)
{
	struct event e;

	event_of(SYS_lseek, (uint64_t[6]){ 3, U(-10), SEEK_END }, 20090, &e);
	ck_assert_int_eq(e.offset, -10);
	ck_assert_str_eq(e.detail, "SEEK_END");
	event_of(SYS_fadvise64, (uint64_t[6]){ 3, 4096, 8192, POSIX_FADV_WILLNEED }, 0, &e);
	ck_assert_int_eq(e.offset, 4096);
	ck_assert_int_eq(e.length, 8192);
	ck_assert_uint_eq(e.bytes, 0);
	ck_assert_str_eq(e.detail, "POSIX_FADV_WILLNEED");
	event_of(SYS_sync_file_range, (uint64_t[6]){ 3, 0, 4096, SYNC_FILE_RANGE_WRITE }, 0, &e);
	ck_assert_int_eq(e.length, 4096);
	event_of(SYS_fallocate, (uint64_t[6]){ 3, FALLOC_FL_KEEP_SIZE, 24576, 4096 }, 0, &e);
	ck_assert_int_eq(e.offset, 24576);
	ck_assert_int_eq(e.length, 4096);
	event_of(SYS_ftruncate, (uint64_t[6]){ 3, 30000 }, 0, &e);
	ck_assert_int_eq(e.length, 30000);
	ck_assert_int_eq(e.offset, -1);
	event_of(SYS_readv, (uint64_t[6]){ 3, A_IOV_R, 2 }, 7, &e);
	ck_assert_uint_eq(e.bytes, 7);
	event_of(SYS_copy_file_range, (uint64_t[6]){ 3, A_OFF_IN, 4, A_OFF_OUT, 3000, 0 }, 3000, &e);
	ck_assert_int_eq(e.fd, 3);
	ck_assert_int_eq(e.fd2, 4);
	ck_assert_int_eq(e.offset, 1000);
	ck_assert_int_eq(e.offset2, 10000);
	ck_assert_uint_eq(e.bytes, 3000);
	event_of(SYS_sendfile, (uint64_t[6]){ 4, 3, A_SF_OFF, 2000 }, 2000, &e);
	ck_assert_int_eq(e.fd, 4);
	ck_assert_int_eq(e.fd2, 3);
	ck_assert_int_eq(e.offset, -1);
	ck_assert_int_eq(e.offset2, 0);
	event_of(SYS_msync, (uint64_t[6]){ A_MAP, 8192, MS_SYNC }, 0, &e);
	ck_assert_uint_eq(e.addr, A_MAP);
	ck_assert_int_eq(e.length, 8192);
	ck_assert_int_eq(e.fd, -1);
}
END_TEST

/* What a call is comes from its row's flags. */
START_TEST(test_flags)
{
	static const struct { const char *name; bool read, write, sync; } want[] = {
		{ "read", true, false, false }, { "pwrite64", false, true, false },
		{ "readv", true, false, false }, { "pwritev2", false, true, false },
		{ "copy_file_range", true, true, false }, { "sendfile", true, true, false },
		{ "splice", true, true, false }, { "mmap", false, false, false },
		{ "msync", false, false, true }, { "fsync", false, false, true },
		{ "sync", false, false, true }, { "syncfs", false, false, true },
		{ "sync_file_range", false, false, true }, { "fadvise64", false, false, false },
		{ "lseek", false, false, false },
	};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct event e = { .fd = 3 };
		snprintf(e.call, sizeof e.call, "%s", want[i].name);
		ck_assert_msg(event_is_read(&e) == want[i].read, "%s read", want[i].name);
		ck_assert_msg(event_is_write(&e) == want[i].write, "%s write", want[i].name);
		ck_assert_msg(event_is_sync(&e) == want[i].sync, "%s sync", want[i].name);
	}
	/* A copy counts as a read of one file and a write of the other. */
	{
		struct event_list l = { 0 };
		struct event e = { .call = "copy_file_range", .fd = 3, .fd2 = 4, .result = 100 };
		ck_assert_int_eq(event_list_add(&l, &e), 0);
		ck_assert_uint_eq(l.n_read, 1);
		ck_assert_uint_eq(l.n_write, 1);
		ck_assert_uint_eq(l.bytes_read, 100);
		ck_assert_uint_eq(l.bytes_written, 100);
		event_list_clear(&l);
	}
}
END_TEST

/* newfstatat and statx act on their fd only with "" and AT_EMPTY_PATH. */
START_TEST(test_empty_path)
{
	struct peek entry = { .read = rec_read, .pid = REC_ENTRY };
#ifdef SYS_newfstatat
	const struct call_row *c = calls_find(SYS_newfstatat);
#else
	const struct call_row *c = calls_find(SYS_fstatat64);   /* i386's, the same columns */
#endif

	ck_assert_int_eq(calls_fd(c, (uint64_t[6]){ 3, A_EMPTY, A_STAT, AT_EMPTY_PATH }, &entry), 3);
	ck_assert_int_eq(calls_fd(c, (uint64_t[6]){ 3, A_PATH, A_STAT, AT_EMPTY_PATH }, &entry), -1);
	ck_assert_int_eq(calls_fd(c, (uint64_t[6]){ 3, A_EMPTY, A_STAT, 0 }, &entry), -1);
	c = calls_find(SYS_statx);
	ck_assert_int_eq(calls_fd(c, (uint64_t[6]){ 3, A_EMPTY, AT_EMPTY_PATH, 0, A_STATX }, &entry),
	                 3);
	ck_assert_int_eq(calls_fd(calls_find(SYS_openat), (uint64_t[6]){ 3, A_PATH }, &entry), -1);
	ck_assert_int_eq(calls_fd(calls_find(SYS_write), (uint64_t[6]){ 7 }, &entry), 7);
}
END_TEST

/* The table's rows: one per call, columns in range, names as strace's. */
START_TEST(test_table_sane)
{
	for (size_t i = 0; i < calls_n; i++) {
		const struct call_row *c = &calls_table[i];
		const signed char cols[] = { c->fd, c->fd2, c->path, c->off, c->off2, c->len, c->addr,
		                             c->flg };

		ck_assert_ptr_eq(calls_find((uint64_t)c->nr), c);
		ck_assert_ptr_eq(calls_named(c->name), c);
		for (size_t k = 0; k < sizeof cols; k++)
			ck_assert_msg(cols[k] >= CALLS_NONE && cols[k] < 6, "%s: column %zu", c->name, k);
		ck_assert_msg(c->bytes >= CALLS_RESULT && c->bytes < 6, "%s: bytes", c->name);
		ck_assert_msg(!(c->flags & CALL_FD) || c->fd >= 0, "%s: CALL_FD without fd", c->name);
		ck_assert_msg(!(c->flags & CALL_PATH) || c->path >= 0, "%s: CALL_PATH without path",
		              c->name);
		ck_assert_msg(!(c->flags & CALL_MEM) || c->addr >= 0, "%s: CALL_MEM without addr",
		              c->name);
		ck_assert_msg(!(c->flags & (CALL_READ2 | CALL_WRITE2)) || c->fd2 >= 0,
		              "%s: a second fd's data without fd2", c->name);
	}
}
END_TEST

/* The registers of a call made its row's arguments: on i386 the two halves of a 64-bit
 * offset joined (pread64, fadvise64_64, _llseek), elsewhere nothing moved. */
START_TEST(test_fold_args)
{
	uint64_t a[6] = { 3, A_BUF, 100, 0x2000, 0x1, 0 };

	calls_fold_args(SYS_pread64, a);
#if defined(__i386__)
	ck_assert_uint_eq(a[3], 0x100002000ULL);
	ck_assert_uint_eq(a[4], 0);
	{
		uint64_t f[6] = { 3, 0x1000, 0, 0x10, 0, POSIX_FADV_DONTNEED };
		uint64_t l[6] = { 3, 0x1, 0x10, A_BUF, SEEK_SET, 0 };

		calls_fold_args(SYS_fadvise64_64, f);
		ck_assert_uint_eq(f[1], 0x1000);
		ck_assert_uint_eq(f[2], 0x10);
		ck_assert_uint_eq(f[3], POSIX_FADV_DONTNEED);
		calls_fold_args(SYS__llseek, l);
		ck_assert_uint_eq(l[1], 0x100000010ULL);
		ck_assert_uint_eq(l[2], A_BUF);
		ck_assert_uint_eq(l[3], SEEK_SET);
	}
	ck_assert_int_eq(calls_fold_rval(0xb7f00000LL, false), 0xb7f00000LL);
	ck_assert_int_eq(calls_fold_rval(-EBADF, true), -EBADF);
#else
	ck_assert_uint_eq(a[3], 0x2000);
	ck_assert_uint_eq(a[4], 0x1);
	ck_assert_int_eq(calls_fold_rval(0x7f0000000000LL, false), 0x7f0000000000LL);
#endif
}
END_TEST

/* The suite. */
static Suite *
calls_suite(void)
{
	Suite *s = suite_create("calls");
	TCase *tc = tcase_create("calls");

	tcase_add_test(tc, test_every_row_recorded);
	tcase_add_loop_test(tc, test_same_event_both_paths, 0, (int)NRECS);
	tcase_add_loop_test(tc, test_decoded_as_strace, 0, (int)NRECS);
	tcase_add_test(tc, test_values_are_fields);
	tcase_add_test(tc, test_flags);
	tcase_add_test(tc, test_empty_path);
	tcase_add_test(tc, test_table_sane);
	tcase_add_test(tc, test_fold_args);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(calls_suite());
}
