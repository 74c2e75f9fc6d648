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
#include "shim/log.h"

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
 * The program's read-only data (set once by the constructor, before main): a literal written
 * is shown as the source has it.
 */
#define IOBUFVIZ_SHIM_RO 8
static struct { uintptr_t lo, hi; } iobufviz_shim_ro[IOBUFVIZ_SHIM_RO];
static int iobufviz_shim_nro;

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
