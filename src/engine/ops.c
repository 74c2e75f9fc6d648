/* SPDX-License-Identifier: MIT */
/* engine/ops.c: one function per op, each making the real call on the scratch file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/calls.h"
#include "trace/decode.h"
#include "trace/event.h"
#include "trace/peek.h"
#include "engine/ops.h"
#include "engine/ops-int.h"
#include "scenario/scenario.h"
#include "engine/tail.h"


static const char ops_alphabet[] = "abcdefghijklmnopqrstuvwxyz";

/* Fill buf with "abc...z" repeating: printable, no newlines. */
void
ops_pattern(unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)ops_alphabet[i % 26];
}

/*
 * Alignments O_DIRECT wants for the file at path (statx STATX_DIOALIGN): of the buffer in
 * memory (4096 if unknown) and of offsets and sizes (0 if unknown). Asked by path, once,
 * before any step: a call on the file's fd during a step would show up among the student's
 * calls.
 */
static void
ops_dio_align(const char *path, size_t *mem, unsigned *offset)
{
	*mem = 4096;
	*offset = 0;
#ifdef STATX_DIOALIGN
	struct statx stx;

	memset(&stx, 0, sizeof stx);
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_mem_align > 0) {
		*mem = stx.stx_dio_mem_align;
		*offset = stx.stx_dio_offset_align;
	}
#else
	(void)path;
#endif
}

/* Start a fresh "program": nothing open yet. */
void
ops_init(struct ops_state *st, const char *path)
{
	memset(st, 0, sizeof *st);
	st->path = path;
	st->fd = -1;
	for (size_t i = 0; i < SCN_MAX_NAMES; i++)
		st->named[i].fd = -1;
	ops_dio_align(path, &st->dio_align, &st->dio_offset_align);
}

/*
 * After an O_DIRECT transfer failed with EINVAL: say which of O_DIRECT's rules it broke,
 * checked against this file's real alignments (the loader knows only the least of them).
 */
static void
ops_dio_note(const struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned bad;

	if (!st->direct || out->err != EINVAL || st->dio_offset_align == 0)
		return;
	bad = scenario_dio_misfit(a, st->dio_offset_align, (unsigned)st->dio_align);
	if (bad == 0)
		return;
	snprintf(out->note, sizeof out->note, "O_DIRECT here (statx): sizes and offsets in "
	         "multiples of %u, buffers aligned to %zu; the %s is not",
	         st->dio_offset_align, st->dio_align,
	         (bad & SCN_HAS_BYTES) ? "size" : (bad & SCN_HAS_OFFSET) ? "offset" : "buffer");
}

/* Free the own stdio buffers (only once no FILE* can use them) and the transfer buffer. */
void
ops_fini(struct ops_state *st)
{
	for (size_t i = 0; i < st->n_bufs; i++)
		free(st->bufs[i]);
	st->n_bufs = 0;
	free(st->mem);
	st->mem = NULL;
	st->mem_cap = 0;
}

/* Record ret/err from a call returning -1 and setting errno. */
void
ops_set(struct ops_result *out, int64_t ret)
{
	out->ret = ret;
	out->err = ret < 0 ? errno : 0;
}

/* Describe the one syscall nr (arguments a0..a3) a direct op made, as the tracer would (the
 * procio fallback shows it as is). */
static void
ops_event(struct ops_result *out, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct decode_stop s = { .nr = (uint64_t)nr, .args = { a0, a1, a2, a3 },
	                         .rval = out->ret < 0 ? -out->err : out->ret,
	                         .is_error = out->ret < 0 };
	const struct call_row *c = calls_find(s.nr);
	/* Our own memory: the names a call gave (trace/decode.h). */
	struct peek self = peek_pid(getpid());

	if (c == NULL)
		return;
	event_decode(c, &s, &self, &out->ev);
	out->ev.ns = out->ns;
	out->ev.ns_traced = false;
	out->ev.origin = EV_DIRECT;
	out->has_event = true;
}

/*
 * A transfer buffer of len bytes starting misaligned by skew bytes from an address
 * aligned for O_DIRECT (at least 4096), so that only skew decides the lesson of 13-1.
 */
unsigned char *
ops_buffer(struct ops_state *st, size_t len, size_t skew)
{
	size_t align = st->dio_align;
	size_t need;
	void *p;

	if (align < 4096)
		align = 4096;
	if (len > SIZE_MAX - skew - align) {
		errno = ENOMEM;
		return NULL;
	}
	need = len + skew + 1;
	if (st->mem == NULL || st->mem_cap < need || ((uintptr_t)st->mem % align) != 0) {
		free(st->mem);
		st->mem = NULL;
		st->mem_cap = 0;
		need = (need + align - 1) / align * align;
		if (posix_memalign(&p, align, need) != 0) {
			errno = ENOMEM;
			return NULL;
		}
		st->mem = p;
		st->mem_cap = need;
	}
	return st->mem + skew;
}

/* What a write sends: its text, or bytes of the pattern; *len its size (NULL: no memory). */
static unsigned char *
ops_source(struct ops_state *st, const struct scn_args *a, size_t *len)
{
	unsigned char *buf;

	*len = (a->has & SCN_HAS_TEXT) ? strlen(a->text) : a->bytes;
	if ((buf = ops_buffer(st, *len, a->align)) == NULL)
		return NULL;
	if (a->has & SCN_HAS_TEXT)
		memcpy(buf, a->text, *len);
	else
		ops_pattern(buf, *len);
	return buf;
}

/* Remember an own stdio buffer until fclose; the oldest is dropped only if all slots hold one. */
void *
ops_own_buffer(struct ops_state *st, size_t size)
{
	/*
	 * At least BUFSIZ bytes are allocated, though stdio is told (and uses) size: the
	 * sanitizers' setbuffer() interceptor marks BUFSIZ bytes as written whatever the size.
	 */
	void *b = malloc(size > BUFSIZ ? size : BUFSIZ);

	if (b == NULL)
		return NULL;
	if (st->n_bufs == OPS_MAX_BUFS) {
		/* Leak rather than free a buffer a FILE* may still use. */
		memmove(st->bufs, st->bufs + 1, (OPS_MAX_BUFS - 1) * sizeof st->bufs[0]);
		memmove(st->buf_fp, st->buf_fp + 1, (OPS_MAX_BUFS - 1) * sizeof st->buf_fp[0]);
		st->n_bufs--;
	}
	st->buf_fp[st->n_bufs] = st->fp;
	st->bufs[st->n_bufs++] = b;
	return b;
}

/* A stdio op with no FILE*: EBADF, without calling (glibc would crash on NULL). */
bool
ops_no_file(struct ops_state *st, struct ops_result *out)
{
	if (st->fp != NULL)
		return false;
	out->ret = -1;
	out->err = EBADF;
	snprintf(out->note, sizeof out->note, "no FILE* is open");
	return true;
}

/* The fd a direct op acts on: the current one, even if closed (the kernel then says EBADF). */
static int
ops_fd(const struct ops_state *st)
{
	return st->fd;
}

/* open(path, flags, 0600) on the scratch file, or on another file of its directory. */
void
ops_open(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	const char *path = a->file != NULL ? a->file : st->path;
	int fd;

	OPS_TIMED(out, fd = open(path, a->flags, 0600));
	ops_set(out, fd);
	if (fd >= 0) {
		st->fd = fd;
		st->fd_open = true;
		st->open_flags = a->flags;
		st->direct = (a->flags & O_DIRECT) != 0;
	}
	ops_event(out, SYS_openat, (uint64_t)AT_FDCWD, (uintptr_t)path, (uint64_t)a->flags, 0600);
}

/* rename(file, to): a name of the scratch file's directory (the scratch file's by default)
 * replaced by another, in one step (what replaces a file whole, atomically). */
void
ops_rename(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	const char *from = a->file != NULL ? a->file : st->path;
	int rc;

	OPS_TIMED(out, rc = rename(from, a->to));
	ops_set(out, rc);
	ops_event(out, SYS_renameat, (uint64_t)AT_FDCWD, (uintptr_t)from, (uint64_t)AT_FDCWD,
	          (uintptr_t)a->to);
}

/* write(fd, buf, bytes) of the pattern, from a buffer misaligned by align bytes. */
void
ops_write(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	size_t len;
	ssize_t n;

	if ((buf = ops_source(st, a, &len)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, n = write(ops_fd(st), buf, len));
	ops_set(out, n);
	ops_event(out, SYS_write, (uint64_t)ops_fd(st), (uintptr_t)buf, len, 0);
	ops_dio_note(st, a, out);
}

/* read(fd, buf, bytes). */
void
ops_read(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	ssize_t n;

	if ((buf = ops_buffer(st, a->bytes, a->align)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, n = read(ops_fd(st), buf, a->bytes));
	ops_set(out, n);
	ops_event(out, SYS_read, (uint64_t)ops_fd(st), (uintptr_t)buf, a->bytes, 0);
	ops_dio_note(st, a, out);
}

/* pread(fd, buf, bytes, offset). */
void
ops_pread(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	ssize_t n;

	if ((buf = ops_buffer(st, a->bytes, a->align)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, n = pread(ops_fd(st), buf, a->bytes, a->offset));
	ops_set(out, n);
	ops_event(out, SYS_pread64, (uint64_t)ops_fd(st), (uintptr_t)buf, a->bytes,
	          (uint64_t)a->offset);
	ops_dio_note(st, a, out);
}

/* pwrite(fd, buf, bytes, offset) of the pattern. */
void
ops_pwrite(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	size_t len;
	ssize_t n;

	if ((buf = ops_source(st, a, &len)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, n = pwrite(ops_fd(st), buf, len, a->offset));
	ops_set(out, n);
	ops_event(out, SYS_pwrite64, (uint64_t)ops_fd(st), (uintptr_t)buf, len, (uint64_t)a->offset);
	ops_dio_note(st, a, out);
}

/* lseek(fd, offset, whence). */
void
ops_lseek(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int whence = (a->has & SCN_HAS_WHENCE) ? a->whence : SEEK_SET;
	off_t r;

	OPS_TIMED(out, r = lseek(ops_fd(st), a->offset, whence));
	ops_set(out, r);
	ops_event(out, SYS_lseek, (uint64_t)ops_fd(st), (uint64_t)a->offset, (uint64_t)whence, 0);
}

/* fsync(fd). */
void
ops_fsync(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	(void)a;
	OPS_TIMED(out, rc = fsync(ops_fd(st)));
	ops_set(out, rc);
	ops_event(out, SYS_fsync, (uint64_t)ops_fd(st), 0, 0, 0);
}

/* fdatasync(fd). */
void
ops_fdatasync(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	(void)a;
	OPS_TIMED(out, rc = fdatasync(ops_fd(st)));
	ops_set(out, rc);
	ops_event(out, SYS_fdatasync, (uint64_t)ops_fd(st), 0, 0, 0);
}

/* sync_file_range(fd, offset, len, flags). */
void
ops_sync_file_range(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int64_t off = (a->has & SCN_HAS_OFFSET) ? a->offset : 0;
	int rc;

	OPS_TIMED(out, rc = sync_file_range(ops_fd(st), off, (off_t)a->len, (unsigned)a->flags));
	ops_set(out, rc);
	ops_event(out, SYS_sync_file_range, (uint64_t)ops_fd(st), (uint64_t)off, a->len,
	          (uint64_t)a->flags);
}

/* sync(): every dirty page of every filesystem. */
void
ops_sync(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	(void)st;
	(void)a;
	OPS_TIMED(out, sync());
	out->ret = 0;
	out->err = 0;
	ops_event(out, SYS_sync, 0, 0, 0, 0);
}

/* posix_fadvise(fd, offset, len, advice): it returns the error instead of setting errno. */
void
ops_fadvise(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int64_t off = (a->has & SCN_HAS_OFFSET) ? a->offset : 0;
	int rc;

	OPS_TIMED(out, rc = posix_fadvise(ops_fd(st), off, (off_t)a->len, a->advice));
	out->ret = rc == 0 ? 0 : -1;
	out->err = rc;
	ops_event(out, SYS_fadvise64, (uint64_t)ops_fd(st), (uint64_t)off, a->len,
	          (uint64_t)a->advice);
}

/* fallocate(fd, 0, offset, len). */
void
ops_fallocate(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int64_t off = (a->has & SCN_HAS_OFFSET) ? a->offset : 0;
	int rc;

	OPS_TIMED(out, rc = fallocate(ops_fd(st), 0, off, (off_t)a->len));
	ops_set(out, rc);
	ops_event(out, SYS_fallocate, (uint64_t)ops_fd(st), 0, (uint64_t)off, a->len);
}

/* ftruncate(fd, len). */
void
ops_ftruncate(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	uint64_t len = a->len;
	int rc;

	OPS_TIMED(out, rc = ftruncate(ops_fd(st), (off_t)len));
	ops_set(out, rc);
	ops_event(out, SYS_ftruncate, (uint64_t)ops_fd(st), len, 0, 0);
}

/* close(fd): the number is kept, so a later call on it gets the kernel's EBADF. */
void
ops_close(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	(void)a;
	OPS_TIMED(out, rc = close(ops_fd(st)));
	ops_set(out, rc);
	ops_event(out, SYS_close, (uint64_t)ops_fd(st), 0, 0, 0);
	st->fd_open = false;
}

/* note (and the worker's half of wait): no call, only a fresh look at the state. */
void
ops_nothing(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	(void)st;
	(void)a;
	out->ret = 0;
	out->err = 0;
}

/* --- curriculum: exercise 13-5 (engine/tail.c) --- */

/* tail -n lines, read backwards in blocks of block bytes on the current fd. */
void
ops_tail(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	size_t block = (a->has & SCN_HAS_SIZE) && a->size > 0 ? (size_t)a->size : 4096;
	uint64_t lines = (a->has & SCN_HAS_LINES) ? a->lines : 10;
	struct tail_stats ts;
	char *text = NULL;
	int rc;

	OPS_TIMED(out, rc = tail_lines(ops_fd(st), lines, block, &text, &ts));
	ops_set(out, rc == 0 ? (int64_t)strlen(text) : -1);
	out->output = text;
	snprintf(out->note, sizeof out->note,
	         "tail -n %llu, %zu-byte blocks: %llu lseek(), %llu read(), %llu bytes read",
	         (unsigned long long)lines, block, (unsigned long long)ts.seeks,
	         (unsigned long long)ts.reads, (unsigned long long)ts.bytes_read);
	if (rc == 0 && ts.cut > 0)
		snprintf(out->note + strlen(out->note), sizeof out->note - strlen(out->note),
		         "; %llu line(s) cut to their first %d bytes", (unsigned long long)ts.cut,
		         TAIL_LINE_MAX);
}

/*
 * Fork a child that ends at once, with exit(0) (which flushes its copy of every stdio
 * buffer) or _exit(0) (which drops it), and wait for it. The tracer follows the child and
 * marks its calls. Return the child's pid, or -1.
 */
static pid_t
ops_child_end(struct ops_result *out, bool flush)
{
	pid_t pid;
	int status = 0;

	OPS_TIMED(out, pid = fork());
	if (pid == 0) {
#ifdef __SANITIZE_ADDRESS__
		/* LeakSanitizer's exit check attaches with ptrace, which fails in a traced child,
		 * and dies before stdio's flush: a sanitizer build does exit()'s flush itself. */
		if (flush)
			fflush(NULL);
		_exit(0);
#endif
		if (flush)
			exit(0);
		_exit(0);
	}
	ops_set(out, pid);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return pid;
}

/* fork(): the child ends at once with exit() or _exit(); the parent goes on. */
void
ops_fork(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	(void)st;
	if (ops_child_end(out, a->child_flushes) > 0)
		snprintf(out->note, sizeof out->note, "in the child (pid %lld): %s(0)",
		         (long long)out->ret, a->child_flushes ? "exit" : "_exit");
}

/*
 * The program's end. It is played by a child with the same memory, so that the worker can
 * go on reporting: the child really calls exit() or _exit(); then the worker drops its own
 * stdio buffers unwritten (__fpurge) and forgets its FILE*s, as the ended program has none.
 */
static void
ops_end(struct ops_state *st, struct ops_result *out, bool flush)
{
	pid_t pid = ops_child_end(out, flush);

	if (pid < 0)
		return;
	out->ret = 0;
	snprintf(out->note, sizeof out->note, "played by a child (pid %lld) with the program's "
	         "memory", (long long)pid);
	for (size_t i = 0; i <= SCN_MAX_NAMES; i++) {
		FILE **fp = i == 0 ? &st->fp : &st->named[i - 1].fp;
		if (*fp != NULL)
			__fpurge(*fp);
		*fp = NULL; /* not closed: the close would be a call of ours among the program's */
	}
}

/* exit(0): stdio flushes every stream, then the process ends. */
void
ops_exit(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	(void)a;
	ops_end(st, out, true);
}

/* _exit(0): the process ends; what stdio still holds is lost. */
void
ops_uexit(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	(void)a;
	ops_end(st, out, false);
}

/* The FILE* and fd a step acts on: its name's, or the unnamed ones. */
void
ops_handle_of(const struct ops_state *st, const struct scn_step *step, FILE **fp, int *fd,
	      bool *fd_open)
{
	const struct ops_handle *h = step != NULL && step->handle > 0 &&
		step->handle <= SCN_MAX_NAMES ? &st->named[step->handle - 1] : NULL;

	*fp = h != NULL ? h->fp : st->fp;
	*fd = h != NULL ? h->fd : st->fd;
	*fd_open = h != NULL ? h->fd_open : st->fd_open;
}

/* fcntl(fd, F_GETFL) or fcntl(fd, F_SETFL, flags): what the kernel keeps of the flags. */
void
ops_fcntl(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int cmd = a->cmd == F_SETFL ? F_SETFL : F_GETFL;
	int rc;

	if (cmd == F_SETFL)
		OPS_TIMED(out, rc = fcntl(ops_fd(st), F_SETFL, a->flags));
	else
		OPS_TIMED(out, rc = fcntl(ops_fd(st), F_GETFL));
	ops_set(out, rc);
	if (cmd == F_GETFL && rc >= 0)
		decode_open_flags(rc, out->note, sizeof out->note);
	ops_event(out, SYS_fcntl, (uint64_t)ops_fd(st), (uint64_t)cmd,
	          cmd == F_SETFL ? (uint64_t)a->flags : 0, 0);
}

