/* SPDX-License-Identifier: MIT */
/* iobufviz-shim.c: an LD_PRELOAD library that logs each stdio call of a traced program, with
 * its stream as the call left it, for the tracer to read (shim/protocol.h). */
#undef _FORTIFY_SOURCE
#include <config.h>
/* The shim defines both fopen and fopen64 (fseeko, ftello ...): on i386 _FILE_OFFSET_BITS=64
 * would make the plain names the 64 ones. */
#undef _FILE_OFFSET_BITS

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <dlfcn.h>

#include "shim/protocol.h"

#undef getc
#undef putc
#undef putchar
#undef getchar
#undef fgetc_unlocked
#undef fputc_unlocked
#undef getc_unlocked
#undef putc_unlocked
#undef getchar_unlocked
#undef putchar_unlocked
#undef fwrite_unlocked
#undef fread_unlocked
#undef fgets_unlocked
#undef fputs_unlocked
#undef fflush_unlocked

/* The _FORTIFY_SOURCE forms and the old names, which no public header declares. */
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __printf_chk(int flag, const char *fmt, ...);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
char *__fgets_chk(char *s, size_t size, int n, FILE *f);
char *__fgets_unlocked_chk(char *s, size_t size, int n, FILE *f);
size_t __fread_chk(void *p, size_t buflen, size_t size, size_t n, FILE *f);
size_t __fread_unlocked_chk(void *p, size_t buflen, size_t size, size_t n, FILE *f);
/* <stdio.h> names C99's scanf family __isoc99_...: these define the plain names, which
 * programs built in older modes call. */
int iobufviz_shim_fscanf(FILE *f, const char *fmt, ...) __asm__("fscanf");
int iobufviz_shim_scanf(const char *fmt, ...) __asm__("scanf");
int iobufviz_shim_vfscanf(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");
int iobufviz_shim_vscanf(const char *fmt, va_list ap) __asm__("vscanf");
int __isoc99_fscanf(FILE *f, const char *fmt, ...);
int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap);
int __isoc99_scanf(const char *fmt, ...);
int __isoc99_vscanf(const char *fmt, va_list ap);
int __isoc23_fscanf(FILE *f, const char *fmt, ...);
int __isoc23_vfscanf(FILE *f, const char *fmt, va_list ap);
int __isoc23_scanf(const char *fmt, ...);
int __isoc23_vscanf(const char *fmt, va_list ap);
ssize_t __getdelim(char **line, size_t *n, int delim, FILE *f);
int _IO_getc(FILE *f);
int _IO_putc(int c, FILE *f);
FILE *fopen64(const char *path, const char *mode);
FILE *freopen64(const char *path, const char *mode, FILE *f);
FILE *tmpfile64(void);
int fseeko64(FILE *f, off64_t off, int whence);
off64_t ftello64(FILE *f);
int fgetpos64(FILE *f, fpos64_t *pos);
int fsetpos64(FILE *f, const fpos64_t *pos);

/*
 * Global state, because a preloaded wrapper has nowhere else to keep it: each thread's log
 * and call under way (the tracer reads them: initial-exec, so that the address it is told is
 * the thread's block for good), and the program's read-only data (set once by the
 * constructor, before main).
 */
static __thread struct prog_mark_tls iobufviz_shim_tls __attribute__((tls_model("initial-exec")));

#define IOBUFVIZ_SHIM_RO 8
static struct { uintptr_t lo, hi; } iobufviz_shim_ro[IOBUFVIZ_SHIM_RO];
static int iobufviz_shim_nro;

/* Make the marker system call prctl(PROG_MARK_OPTION, kind, value). */
static void
iobufviz_shim_mark(long kind, uintptr_t value)
{
	syscall(SYS_prctl, PROG_MARK_OPTION, kind, (long)value, 0L, 0L);
}

/* Tell the tracer where this thread's state is, with a log of its own. 0, or -1 (no log:
 * this thread's calls are not logged). */
static int
iobufviz_shim_hello(struct prog_mark_tls *t)
{
	if (t->log == 0) {
		void *log = mmap(NULL, PROG_MARK_LOG * sizeof(struct prog_mark_call),
		                 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (log == MAP_FAILED) {
			t->off = 1;
			return -1;
		}
		t->log = (uintptr_t)log;
	}
	t->written = t->read = 0;
	t->stop = 0;
	t->magic = PROG_MARK_MAGIC;
	iobufviz_shim_mark(PROG_MARK_HELLO, (uintptr_t)t);
	return 0;
}

/* Copy the string s (cut to len - 1 bytes) into dst. */
static void
iobufviz_shim_str(char *dst, const char *s, size_t len)
{
	size_t n = s != NULL ? strnlen(s, len - 1) : 0;

	memcpy(dst, s != NULL ? s : "", n);
	dst[n] = '\0';
}

/*
 * Enter a wrapper of function id on stream f with arguments a, b (and the strings s1, s2
 * they name). Only the outermost call is a call of the program's (fputs called by a
 * wrapper, or a wrapper reached again from a signal handler, is not). Return whether this
 * call is logged; every enter has its leave.
 */
static int
iobufviz_shim_enter_at(void *ra, void *frame, int id, FILE *f, long a, long b, const char *s1,
                       const char *s2)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	if (t->depth++ > 0 || t->off)
		return 0;
	if (t->magic != PROG_MARK_MAGIC && iobufviz_shim_hello(t) != 0)
		return 0;
	t->cur.seq++;
	t->cur.id = (uint16_t)id;
	t->cur.flags = 0;
	t->cur.file = (uintptr_t)f;
	t->cur.fd = f != NULL ? f->_fileno : -1;
	t->cur.a = a;
	t->cur.b = b;
	t->cur.caller = (uintptr_t)ra;
	t->cur.frame = (uintptr_t)frame;
	t->cur.up = 0;
	/* The same frame as a walk the tracer made from this call site: the word it found the
	 * caller's return address in is still this thread's stack (above this frame). */
	for (int i = 0; i < PROG_MARK_UPS; i++)
		if ((uintptr_t)ra > t->up[i].lo && (uintptr_t)ra <= t->up[i].hi &&
		    t->up[i].frame == (uintptr_t)frame && t->up[i].off < PROG_MARK_UP_MAX) {
			t->cur.up = *(const uintptr_t *)((const char *)frame + t->up[i].off);
			t->cur.up_off = (uint32_t)t->up[i].off;
			break;
		}
	iobufviz_shim_str(t->cur.str, s1, sizeof t->cur.str);
	iobufviz_shim_str(t->cur.str2, s2, sizeof t->cur.str2);
	return 1;
}

/* Enter from a wrapper: its return address is where the program called it (exact and
 * cheap: the tracer maps it to the line), its frame where the program's stack was then (the
 * tracer checks its caller's return address there instead of walking the stack again). A
 * macro, so that they are the wrapper's own. */
#define iobufviz_shim_enter(...) \
	iobufviz_shim_enter_at(__builtin_return_address(0), __builtin_frame_address(0), __VA_ARGS__)

/* p if its n bytes are a C string of the program's read-only data (a literal), else NULL. */
static const char *
iobufviz_shim_literal(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;

	for (int i = 0; i < iobufviz_shim_nro; i++)
		if (a >= iobufviz_shim_ro[i].lo && a + n < iobufviz_shim_ro[i].hi)
			return ((const char *)p)[n] == '\0' && memchr(p, '\0', n) == NULL ? p : NULL;
	return NULL;
}

/* The state of stream f after the call into the entry c. */
static void
iobufviz_shim_state(struct prog_mark_call *c, FILE *f)
{
	uint64_t at, n;

	c->fd = f->_fileno;
	c->st_flags = (uint32_t)f->_flags;
	c->buf_base = (uintptr_t)f->_IO_buf_base;
	c->buf_end = (uintptr_t)f->_IO_buf_end;
	c->write_base = (uintptr_t)f->_IO_write_base;
	c->write_ptr = (uintptr_t)f->_IO_write_ptr;
	c->read_ptr = (uintptr_t)f->_IO_read_ptr;
	c->read_end = (uintptr_t)f->_IO_read_end;
	n = prog_mark_head(c->st_flags, c->write_base, c->write_ptr, c->read_ptr, c->read_end, &at);
	if (n > PROG_HEAD_MAX)
		n = PROG_HEAD_MAX;
	memcpy(c->head, (const void *)(uintptr_t)at, n);
	c->head_len = (uint8_t)n;
	c->flags |= PROG_MARK_F_STATE;
}

/*
 * Leave a wrapper: log the call (if logged) with the stream it left (f: the new one for
 * fopen; NULL for fclose, whose FILE is gone), the bytes moved, its result, and the string
 * literal it wrote (NULL: none); stop the program if the tracer asked to (the call made
 * system calls). errno is the call's.
 */
static void
iobufviz_shim_leave(int logged, FILE *f, uint64_t size, int64_t ret, const char *literal)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;
	struct prog_mark_call *c;
	int e = errno;

	t->depth--;
	if (!logged)
		return;
	if (t->written - t->read >= PROG_MARK_LOG) {
		iobufviz_shim_mark(PROG_MARK_FULL, 0);
		if (t->written - t->read >= PROG_MARK_LOG) {
			t->off = 1;        /* no tracer reads it */
			errno = e;
			return;
		}
	}
	c = &((struct prog_mark_call *)(uintptr_t)t->log)[t->written % PROG_MARK_LOG];
	memcpy(c, &t->cur, offsetof(struct prog_mark_call, head));
	if (f != NULL)
		c->file = (uintptr_t)f;
	c->size = size;
	c->ret = ret;
	c->head_len = 0;
	if (f != NULL && c->id != PROG_MARK_FUNC_fclose)
		iobufviz_shim_state(c, f);
	if (literal != NULL) {
		c->flags |= PROG_MARK_F_LITERAL;
		iobufviz_shim_str(c->str, literal, sizeof c->str);
	}
	if (t->stop)
		c->flags |= PROG_MARK_F_CALLS;
	__atomic_store_n(&t->written, t->written + 1, __ATOMIC_RELEASE);
	if (t->stop) {
		t->stop = 0;
		iobufviz_shim_mark(PROG_MARK_AFTER, (uintptr_t)c->seq);
	}
	errno = e;
}

/* exit() runs the atexit handlers, then flushes every stream: mark where that begins. The
 * handler is registered when the shim is loaded, before main, so it runs after the
 * program's own handlers (they run last registered first). What the program logged before
 * is read at this stop. */
static void
iobufviz_shim_exit(void)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	if (t->depth++ > 0 || t->off)
		return;
	if (t->magic != PROG_MARK_MAGIC && iobufviz_shim_hello(t) != 0)
		return;
	t->cur.seq++;
	t->cur.id = PROG_MARK_EXIT_ID;
	t->cur.caller = 0;        /* called by exit(): the tracer walks the stack to its caller */
	t->cur.frame = 0;
	t->cur.up = 0;
	t->cur.file = 0;
	t->cur.fd = -1;
	iobufviz_shim_mark(PROG_MARK_EXIT, 0);
}

/* After fork, in the child: its log is its own, and its address is told again. */
static void
iobufviz_shim_forked(void)
{
	struct prog_mark_tls *t = &iobufviz_shim_tls;

	t->magic = 0;
	t->written = t->read = 0;
	t->stop = 0;
	memset(t->up, 0, sizeof t->up);
}

/* Note the read-only segments of the program itself (the first object). */
static int
iobufviz_shim_phdr(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum && iobufviz_shim_nro < IOBUFVIZ_SHIM_RO; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W)) {
			iobufviz_shim_ro[iobufviz_shim_nro].lo = info->dlpi_addr + ph->p_vaddr;
			iobufviz_shim_ro[iobufviz_shim_nro].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
			iobufviz_shim_nro++;
		}
	}
	return 1;
}

/* Register the exit marker and the fork handler, and find the program's read-only data,
 * when the shim is loaded. */
__attribute__((constructor)) static void
iobufviz_shim_init(void)
{
	dl_iterate_phdr(iobufviz_shim_phdr, NULL);
	pthread_atfork(NULL, NULL, iobufviz_shim_forked);
	atexit(iobufviz_shim_exit);
}

/* The next definition of name (libc's), looked up once per wrapper. */
#define IOBUFVIZ_SHIM_REAL(name) \
	static __typeof__(name) *real; \
	if (real == NULL) \
		*(void **)&real = dlsym(RTLD_NEXT, #name)

/* A wrapper int name(int c, FILE *f) (fputc, putc, ...): one byte moved unless EOF. */
#define IOBUFVIZ_SHIM_PUT(name, id) \
	int \
	name(int c, FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, c, 0, NULL, NULL); \
		int r = real(c, f); \
		iobufviz_shim_leave(m, f, r != EOF, r, NULL); \
		return r; \
	}

/* A wrapper int name(FILE *f) (fgetc, getc, fflush, ...); size: it moves a byte. */
#define IOBUFVIZ_SHIM_GET(name, id, size) \
	int \
	name(FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, 0, 0, NULL, NULL); \
		int r = real(f); \
		iobufviz_shim_leave(m, f, size && r != EOF, r, NULL); \
		return r; \
	}

/* A wrapper int name(int c) on stdout (putchar). */
#define IOBUFVIZ_SHIM_PUTCHAR(name, id) \
	int \
	name(int c) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, stdout, c, 0, NULL, NULL); \
		int r = real(c); \
		iobufviz_shim_leave(m, stdout, r != EOF, r, NULL); \
		return r; \
	}

/* A wrapper int name(void) on stdin (getchar). */
#define IOBUFVIZ_SHIM_GETCHAR(name, id) \
	int \
	name(void) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, stdin, 0, 0, NULL, NULL); \
		int r = real(); \
		iobufviz_shim_leave(m, stdin, r != EOF, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_PUT(fputc, PROG_MARK_FUNC_fputc)
IOBUFVIZ_SHIM_PUT(putc, PROG_MARK_FUNC_putc)
IOBUFVIZ_SHIM_PUT(_IO_putc, PROG_MARK_FUNC_putc)
IOBUFVIZ_SHIM_PUT(fputc_unlocked, PROG_MARK_FUNC_fputc_unlocked)
IOBUFVIZ_SHIM_PUT(putc_unlocked, PROG_MARK_FUNC_putc_unlocked)
IOBUFVIZ_SHIM_PUTCHAR(putchar, PROG_MARK_FUNC_putchar)
IOBUFVIZ_SHIM_PUTCHAR(putchar_unlocked, PROG_MARK_FUNC_putchar_unlocked)
IOBUFVIZ_SHIM_GET(fgetc, PROG_MARK_FUNC_fgetc, 1)
IOBUFVIZ_SHIM_GET(getc, PROG_MARK_FUNC_getc, 1)
IOBUFVIZ_SHIM_GET(_IO_getc, PROG_MARK_FUNC_getc, 1)
IOBUFVIZ_SHIM_GET(fgetc_unlocked, PROG_MARK_FUNC_fgetc_unlocked, 1)
IOBUFVIZ_SHIM_GET(getc_unlocked, PROG_MARK_FUNC_getc_unlocked, 1)
IOBUFVIZ_SHIM_GETCHAR(getchar, PROG_MARK_FUNC_getchar)
IOBUFVIZ_SHIM_GETCHAR(getchar_unlocked, PROG_MARK_FUNC_getchar_unlocked)
/* fflush(NULL) flushes every stream: its call then carries no FILE. */
IOBUFVIZ_SHIM_GET(fflush, PROG_MARK_FUNC_fflush, 0)
IOBUFVIZ_SHIM_GET(fflush_unlocked, PROG_MARK_FUNC_fflush_unlocked, 0)

/* A wrapper of fwrite or fread (name, with the arguments args after the buffer's): the
 * bytes are size * the items moved. */
#define IOBUFVIZ_SHIM_RW(name, id, params, args, literal) \
	size_t \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, (long)size, (long)n, NULL, NULL); \
		size_t r = real args; \
		iobufviz_shim_leave(m, f, size * r, (long)r, literal); \
		return r; \
	}

IOBUFVIZ_SHIM_RW(fwrite, PROG_MARK_FUNC_fwrite,
                 (const void *p, size_t size, size_t n, FILE *f), (p, size, n, f),
                 m && size == 1 ? iobufviz_shim_literal(p, n) : NULL)
IOBUFVIZ_SHIM_RW(fwrite_unlocked, PROG_MARK_FUNC_fwrite_unlocked,
                 (const void *p, size_t size, size_t n, FILE *f), (p, size, n, f),
                 m && size == 1 ? iobufviz_shim_literal(p, n) : NULL)
IOBUFVIZ_SHIM_RW(fread, PROG_MARK_FUNC_fread,
                 (void *p, size_t size, size_t n, FILE *f), (p, size, n, f), NULL)
IOBUFVIZ_SHIM_RW(fread_unlocked, PROG_MARK_FUNC_fread_unlocked,
                 (void *p, size_t size, size_t n, FILE *f), (p, size, n, f), NULL)
IOBUFVIZ_SHIM_RW(__fread_chk, PROG_MARK_FUNC_fread,
                 (void *p, size_t buflen, size_t size, size_t n, FILE *f),
                 (p, buflen, size, n, f), NULL)
IOBUFVIZ_SHIM_RW(__fread_unlocked_chk, PROG_MARK_FUNC_fread_unlocked,
                 (void *p, size_t buflen, size_t size, size_t n, FILE *f),
                 (p, buflen, size, n, f), NULL)

/* A wrapper of fputs: the bytes are strlen(s) (when it did not fail). */
#define IOBUFVIZ_SHIM_FPUTS(name, id) \
	int \
	name(const char *s, FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, 0, 0, s, NULL); \
		int r = real(s, f); \
		iobufviz_shim_leave(m, f, r != EOF ? strlen(s) : 0, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_FPUTS(fputs, PROG_MARK_FUNC_fputs)
IOBUFVIZ_SHIM_FPUTS(fputs_unlocked, PROG_MARK_FUNC_fputs_unlocked)

/* Wrap puts: the bytes are strlen(s) + 1 (the newline). */
int
puts(const char *s)
{
	IOBUFVIZ_SHIM_REAL(puts);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_puts, stdout, 0, 0, s, NULL);
	int r = real(s);

	iobufviz_shim_leave(m, stdout, r != EOF ? strlen(s) + 1 : 0, r,
	                    m ? iobufviz_shim_literal(s, strlen(s)) : NULL);
	return r;
}

/* Wrap perror: it writes to stderr. */
void
perror(const char *s)
{
	IOBUFVIZ_SHIM_REAL(perror);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_perror, stderr, 0, 0, s, NULL);

	real(s);
	iobufviz_shim_leave(m, stderr, 0, 0, NULL);
}

/* The bytes a printf-like call printed (its result when positive). */
#define IOBUFVIZ_SHIM_PRINTED(r) ((r) > 0 ? (uint64_t)(r) : 0)

/* A wrapper of a va_list printf (vfprintf ...) on stream fp: call real(call). */
#define IOBUFVIZ_SHIM_VPRINTF(name, id, fp, params, call) \
	int \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, fp, 0, 0, fmt, NULL); \
		int r = real call; \
		iobufviz_shim_leave(m, fp, IOBUFVIZ_SHIM_PRINTED(r), r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_VPRINTF(vfprintf, PROG_MARK_FUNC_vfprintf, f,
                      (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))
IOBUFVIZ_SHIM_VPRINTF(__vfprintf_chk, PROG_MARK_FUNC_vfprintf, f,
                      (FILE *f, int flag, const char *fmt, va_list ap), (f, flag, fmt, ap))

/* A wrapper of vprintf through libc's va_list function on stdout (vcall). */
#define IOBUFVIZ_SHIM_VPRINTF_OUT(name, id, vname, params, vcall) \
	int \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(vname); \
		int m = iobufviz_shim_enter(id, stdout, 0, 0, fmt, NULL); \
		int r = real vcall; \
		iobufviz_shim_leave(m, stdout, IOBUFVIZ_SHIM_PRINTED(r), r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_VPRINTF_OUT(vprintf, PROG_MARK_FUNC_vprintf, vfprintf,
                          (const char *fmt, va_list ap), (stdout, fmt, ap))
IOBUFVIZ_SHIM_VPRINTF_OUT(__vprintf_chk, PROG_MARK_FUNC_vprintf, __vfprintf_chk,
                          (int flag, const char *fmt, va_list ap), (stdout, flag, fmt, ap))

/* A wrapper of a variadic printf or scanf (name) on stream fp through libc's va_list
 * function vname (vcall); size: the bytes it moved, of its result r. */
#define IOBUFVIZ_SHIM_VARIADIC(name, id, fp, vname, params, vcall, size) \
	int \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(vname); \
		int m = iobufviz_shim_enter(id, fp, 0, 0, fmt, NULL), r; \
		va_list ap; \
		va_start(ap, fmt); \
		r = real vcall; \
		va_end(ap); \
		iobufviz_shim_leave(m, fp, size, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_VARIADIC(fprintf, PROG_MARK_FUNC_fprintf, f, vfprintf,
                       (FILE *f, const char *fmt, ...), (f, fmt, ap), IOBUFVIZ_SHIM_PRINTED(r))
IOBUFVIZ_SHIM_VARIADIC(__fprintf_chk, PROG_MARK_FUNC_fprintf, f, __vfprintf_chk,
                       (FILE *f, int flag, const char *fmt, ...), (f, flag, fmt, ap),
                       IOBUFVIZ_SHIM_PRINTED(r))
IOBUFVIZ_SHIM_VARIADIC(printf, PROG_MARK_FUNC_printf, stdout, vfprintf,
                       (const char *fmt, ...), (stdout, fmt, ap), IOBUFVIZ_SHIM_PRINTED(r))
IOBUFVIZ_SHIM_VARIADIC(__printf_chk, PROG_MARK_FUNC_printf, stdout, __vfprintf_chk,
                       (int flag, const char *fmt, ...), (stdout, flag, fmt, ap),
                       IOBUFVIZ_SHIM_PRINTED(r))
/* scanf's bytes are not known (what it consumed): the stream's state says it. */
IOBUFVIZ_SHIM_VARIADIC(iobufviz_shim_fscanf, PROG_MARK_FUNC_fscanf, f, vfscanf,
                       (FILE *f, const char *fmt, ...), (f, fmt, ap), 0)
IOBUFVIZ_SHIM_VARIADIC(__isoc99_fscanf, PROG_MARK_FUNC_fscanf, f, __isoc99_vfscanf,
                       (FILE *f, const char *fmt, ...), (f, fmt, ap), 0)
IOBUFVIZ_SHIM_VARIADIC(__isoc23_fscanf, PROG_MARK_FUNC_fscanf, f, __isoc23_vfscanf,
                       (FILE *f, const char *fmt, ...), (f, fmt, ap), 0)
IOBUFVIZ_SHIM_VARIADIC(iobufviz_shim_scanf, PROG_MARK_FUNC_scanf, stdin, vfscanf,
                       (const char *fmt, ...), (stdin, fmt, ap), 0)
IOBUFVIZ_SHIM_VARIADIC(__isoc99_scanf, PROG_MARK_FUNC_scanf, stdin, __isoc99_vfscanf,
                       (const char *fmt, ...), (stdin, fmt, ap), 0)
IOBUFVIZ_SHIM_VARIADIC(__isoc23_scanf, PROG_MARK_FUNC_scanf, stdin, __isoc23_vfscanf,
                       (const char *fmt, ...), (stdin, fmt, ap), 0)

/* A wrapper of a va_list scanf on stream fp (libc's is rname). */
#define IOBUFVIZ_SHIM_VSCANF(name, rname, id, fp, params, call) \
	int \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(rname); \
		int m = iobufviz_shim_enter(id, fp, 0, 0, fmt, NULL); \
		int r = real call; \
		iobufviz_shim_leave(m, fp, 0, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_VSCANF(iobufviz_shim_vfscanf, vfscanf, PROG_MARK_FUNC_vfscanf, f,
                     (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))
IOBUFVIZ_SHIM_VSCANF(__isoc99_vfscanf, __isoc99_vfscanf, PROG_MARK_FUNC_vfscanf, f,
                     (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))
IOBUFVIZ_SHIM_VSCANF(__isoc23_vfscanf, __isoc23_vfscanf, PROG_MARK_FUNC_vfscanf, f,
                     (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))
IOBUFVIZ_SHIM_VSCANF(iobufviz_shim_vscanf, vscanf, PROG_MARK_FUNC_vscanf, stdin,
                     (const char *fmt, va_list ap), (fmt, ap))
IOBUFVIZ_SHIM_VSCANF(__isoc99_vscanf, __isoc99_vscanf, PROG_MARK_FUNC_vscanf, stdin,
                     (const char *fmt, va_list ap), (fmt, ap))
IOBUFVIZ_SHIM_VSCANF(__isoc23_vscanf, __isoc23_vscanf, PROG_MARK_FUNC_vscanf, stdin,
                     (const char *fmt, va_list ap), (fmt, ap))

/* A wrapper of fgets: the result is the length read, or -1 for NULL. */
#define IOBUFVIZ_SHIM_FGETS(name, id, params, args) \
	char * \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, n, 0, NULL, NULL); \
		char *r = real args; \
		long len = r != NULL ? (long)strlen(r) : -1; \
		iobufviz_shim_leave(m, f, len > 0 ? (uint64_t)len : 0, len, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_FGETS(fgets, PROG_MARK_FUNC_fgets, (char *s, int n, FILE *f), (s, n, f))
IOBUFVIZ_SHIM_FGETS(fgets_unlocked, PROG_MARK_FUNC_fgets_unlocked, (char *s, int n, FILE *f),
                    (s, n, f))
IOBUFVIZ_SHIM_FGETS(__fgets_chk, PROG_MARK_FUNC_fgets, (char *s, size_t size, int n, FILE *f),
                    (s, size, n, f))
IOBUFVIZ_SHIM_FGETS(__fgets_unlocked_chk, PROG_MARK_FUNC_fgets_unlocked,
                    (char *s, size_t size, int n, FILE *f), (s, size, n, f))

/* A wrapper of getdelim: a is the buffer's size before, b the delimiter. */
#define IOBUFVIZ_SHIM_GETDELIM(name, id, params, args, delim) \
	ssize_t \
	name params \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, n != NULL && line != NULL && *line != NULL ? \
		                            (long)*n : 0, delim, NULL, NULL); \
		ssize_t r = real args; \
		iobufviz_shim_leave(m, f, r > 0 ? (uint64_t)r : 0, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_GETDELIM(getline, PROG_MARK_FUNC_getline, (char **line, size_t *n, FILE *f),
                       (line, n, f), '\n')
IOBUFVIZ_SHIM_GETDELIM(getdelim, PROG_MARK_FUNC_getdelim,
                       (char **line, size_t *n, int delim, FILE *f), (line, n, delim, f), delim)
/* <stdio.h>'s inline getline (gcc -O1 and up) is __getdelim(line, n, '\n', f): the source
 * called getline (its getdelim is the plain name). */
IOBUFVIZ_SHIM_GETDELIM(__getdelim,
                       delim == '\n' ? PROG_MARK_FUNC_getline : PROG_MARK_FUNC_getdelim,
                       (char **line, size_t *n, int delim, FILE *f), (line, n, delim, f), delim)

/* Wrap ungetc: a byte back into the buffer. */
int
ungetc(int c, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(ungetc);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_ungetc, f, c, 0, NULL, NULL);
	int r = real(c, f);

	iobufviz_shim_leave(m, f, 0, r, NULL);
	return r;
}

/* A wrapper int name(FILE *f, T off, int whence) (fseek, fseeko). */
#define IOBUFVIZ_SHIM_SEEK(name, id, type) \
	int \
	name(FILE *f, type off, int whence) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, (long)off, whence, NULL, NULL); \
		int r = real(f, off, whence); \
		iobufviz_shim_leave(m, f, 0, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_SEEK(fseek, PROG_MARK_FUNC_fseek, long)
IOBUFVIZ_SHIM_SEEK(fseeko, PROG_MARK_FUNC_fseeko, off_t)
IOBUFVIZ_SHIM_SEEK(fseeko64, PROG_MARK_FUNC_fseeko, off64_t)

/* A wrapper T name(FILE *f) that reports where f is (ftell, ftello). */
#define IOBUFVIZ_SHIM_TELL(name, id, type) \
	type \
	name(FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, 0, 0, NULL, NULL); \
		type r = real(f); \
		iobufviz_shim_leave(m, f, 0, (int64_t)r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_TELL(ftell, PROG_MARK_FUNC_ftell, long)
IOBUFVIZ_SHIM_TELL(ftello, PROG_MARK_FUNC_ftello, off_t)
IOBUFVIZ_SHIM_TELL(ftello64, PROG_MARK_FUNC_ftello, off64_t)

/* Wrap rewind. */
void
rewind(FILE *f)
{
	IOBUFVIZ_SHIM_REAL(rewind);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_rewind, f, 0, 0, NULL, NULL);

	real(f);
	iobufviz_shim_leave(m, f, 0, 0, NULL);
}

/* A wrapper int name(FILE *f, T pos) (fgetpos, fsetpos). */
#define IOBUFVIZ_SHIM_POS(name, id, type) \
	int \
	name(FILE *f, type pos) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, 0, 0, NULL, NULL); \
		int r = real(f, pos); \
		iobufviz_shim_leave(m, f, 0, r, NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_POS(fgetpos, PROG_MARK_FUNC_fgetpos, fpos_t *)
IOBUFVIZ_SHIM_POS(fgetpos64, PROG_MARK_FUNC_fgetpos, fpos64_t *)
IOBUFVIZ_SHIM_POS(fsetpos, PROG_MARK_FUNC_fsetpos, const fpos_t *)
IOBUFVIZ_SHIM_POS(fsetpos64, PROG_MARK_FUNC_fsetpos, const fpos64_t *)

/* Wrap fclose: the FILE is freed, so the log has no state of it; cur has its fd. */
int
fclose(FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fclose);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_fclose, f, 0, 0, NULL, NULL);
	int r = real(f);

	iobufviz_shim_leave(m, NULL, 0, r, NULL);
	return r;
}

/* Wrap setvbuf: a carries the mode (bit 8: a buffer of the program's), b the size. */
int
setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	IOBUFVIZ_SHIM_REAL(setvbuf);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_setvbuf, f, mode | (buf != NULL) << 8,
	                            (long)size, NULL, NULL);
	int r = real(f, buf, mode, size);

	iobufviz_shim_leave(m, f, 0, r, NULL);
	return r;
}

/* Wrap setbuf: a says whether a buffer was given (BUFSIZ) or none (unbuffered). */
void
setbuf(FILE *f, char *buf)
{
	IOBUFVIZ_SHIM_REAL(setbuf);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_setbuf, f, buf != NULL, 0, NULL, NULL);

	real(f, buf);
	iobufviz_shim_leave(m, f, 0, 0, NULL);
}

/* The result of a call that makes a stream: its fd, -1 for NULL. */
#define IOBUFVIZ_SHIM_NEWFD(r) ((r) != NULL ? (int64_t)(r)->_fileno : -1)

/* A wrapper of fopen (path and mode in the strings). */
#define IOBUFVIZ_SHIM_FOPEN(name) \
	FILE * \
	name(const char *path, const char *mode) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(PROG_MARK_FUNC_fopen, NULL, 0, 0, path, mode); \
		FILE *r = real(path, mode); \
		iobufviz_shim_leave(m, r, 0, IOBUFVIZ_SHIM_NEWFD(r), NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_FOPEN(fopen)
IOBUFVIZ_SHIM_FOPEN(fopen64)

/* A wrapper of freopen: f is the stream reopened (and the one it returns). */
#define IOBUFVIZ_SHIM_FREOPEN(name) \
	FILE * \
	name(const char *path, const char *mode, FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(PROG_MARK_FUNC_freopen, f, 0, 0, path, mode); \
		FILE *r = real(path, mode, f); \
		iobufviz_shim_leave(m, r, 0, IOBUFVIZ_SHIM_NEWFD(r), NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_FREOPEN(freopen)
IOBUFVIZ_SHIM_FREOPEN(freopen64)

/* Wrap fdopen: a carries the fd, the mode is in str2. */
FILE *
fdopen(int fd, const char *mode)
{
	IOBUFVIZ_SHIM_REAL(fdopen);
	int m = iobufviz_shim_enter(PROG_MARK_FUNC_fdopen, NULL, fd, 0, NULL, mode);
	FILE *r = real(fd, mode);

	iobufviz_shim_leave(m, r, 0, IOBUFVIZ_SHIM_NEWFD(r), NULL);
	return r;
}

/* A wrapper of tmpfile. */
#define IOBUFVIZ_SHIM_TMPFILE(name) \
	FILE * \
	name(void) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(PROG_MARK_FUNC_tmpfile, NULL, 0, 0, NULL, NULL); \
		FILE *r = real(); \
		iobufviz_shim_leave(m, r, 0, IOBUFVIZ_SHIM_NEWFD(r), NULL); \
		return r; \
	}

IOBUFVIZ_SHIM_TMPFILE(tmpfile)
IOBUFVIZ_SHIM_TMPFILE(tmpfile64)
