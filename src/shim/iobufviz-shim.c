/* SPDX-License-Identifier: MIT */
/* iobufviz-shim.c: an LD_PRELOAD library that marks each stdio call with a prctl the tracer stops on. */
#include <config.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prog/mark.h"

#undef getc
#undef putc
#undef putchar

/*
 * Global state, because a preloaded wrapper has nowhere else to keep it: how deep this
 * thread is in wrapped calls (only the outermost call is marked: fputs called by a
 * wrapper, or a wrapper reached again from a callback, is not a step of its own).
 */
static __thread int iobufviz_shim_depth;

/* Make the marker system call: prctl(PROG_MARK_OPTION, phase | id << 8, file, a, b). */
static void
iobufviz_shim_mark(int phase, int id, const void *file, long a, long b)
{
	syscall(SYS_prctl, PROG_MARK_OPTION, (long)(phase | id << 8), (long)file, a, b);
}

/* Enter a wrapper: mark "before" with the call's arguments a, b if outermost. Return
 * whether this call is marked. */
static int
iobufviz_shim_enter(int id, const void *file, long a, long b)
{
	if (iobufviz_shim_depth++ > 0)
		return 0;
	iobufviz_shim_mark(PROG_MARK_BEFORE, id, file, a, b);
	return 1;
}

/* Leave a wrapper: mark "after" with the bytes moved and the result if it was marked. */
static void
iobufviz_shim_leave(int marked, int id, const void *file, unsigned long size, long ret)
{
	iobufviz_shim_depth--;
	if (marked)
		iobufviz_shim_mark(PROG_MARK_AFTER, id, file, (long)size, ret);
}

/* exit() runs the atexit handlers, then flushes every stream: mark where that begins. The
 * handler is registered when the shim is loaded, before main, so it runs after the
 * program's own handlers (they run last registered first). */
static void
iobufviz_shim_exit(void)
{
	if (iobufviz_shim_depth++ == 0)
		iobufviz_shim_mark(PROG_MARK_BEFORE, PROG_MARK_EXIT, NULL, 0, 0);
}

/* Register the exit marker when the shim is loaded. */
__attribute__((constructor)) static void
iobufviz_shim_init(void)
{
	atexit(iobufviz_shim_exit);
}

/* The next definition of name (libc's), looked up once per wrapper. */
#define IOBUFVIZ_SHIM_REAL(name) \
	static __typeof__(name) *real; \
	if (real == NULL) \
		*(void **)&real = dlsym(RTLD_NEXT, #name)

/* Define a wrapper int name(int c, FILE *f) (fputc, putc) marked with size 1. */
#define IOBUFVIZ_SHIM_PUT(name, id) \
	int \
	name(int c, FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, c, 0); \
		int r = real(c, f); \
		iobufviz_shim_leave(m, id, f, r != EOF, r); \
		return r; \
	}

/* Define a wrapper int name(FILE *f) (fgetc, getc, fflush) marked with size. */
#define IOBUFVIZ_SHIM_GET(name, id, size) \
	int \
	name(FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, 0, 0); \
		int r = real(f); \
		iobufviz_shim_leave(m, id, f, size && r != EOF, r); \
		return r; \
	}

IOBUFVIZ_SHIM_PUT(fputc, 3)
IOBUFVIZ_SHIM_PUT(putc, 4)
IOBUFVIZ_SHIM_GET(fgetc, 11, 1)
IOBUFVIZ_SHIM_GET(getc, 12, 1)
/* fflush(NULL) flushes every stream: its marker then carries no FILE. */
IOBUFVIZ_SHIM_GET(fflush, 13, 0)

/* Wrap fwrite: the bytes moved are size * the items written. */
size_t
fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fwrite);
	int m = iobufviz_shim_enter(1, f, (long)size, (long)n);
	size_t r = real(p, size, n, f);

	iobufviz_shim_leave(m, 1, f, size * r, (long)r);
	return r;
}

/* Wrap fputs: the bytes are strlen(s) (when it did not fail). */
int
fputs(const char *s, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fputs);
	int m = iobufviz_shim_enter(2, f, (long)s, 0);
	int r = real(s, f);

	iobufviz_shim_leave(m, 2, f, r != EOF ? strlen(s) : 0, r);
	return r;
}

/* Wrap putchar: putc on stdout. */
int
putchar(int c)
{
	IOBUFVIZ_SHIM_REAL(putchar);
	int m = iobufviz_shim_enter(20, stdout, c, 0);
	int r = real(c);

	iobufviz_shim_leave(m, 20, stdout, r != EOF, r);
	return r;
}

/* Wrap vfprintf: the bytes are those printed. */
int
vfprintf(FILE *f, const char *fmt, va_list ap)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(6, f, (long)fmt, 0);
	int r = real(f, fmt, ap);

	iobufviz_shim_leave(m, 6, f, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap fprintf through libc's vfprintf. */
int
fprintf(FILE *f, const char *fmt, ...)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(5, f, (long)fmt, 0), r;
	va_list ap;

	va_start(ap, fmt);
	r = real(f, fmt, ap);
	va_end(ap);
	iobufviz_shim_leave(m, 5, f, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap vprintf: vfprintf on stdout. */
int
vprintf(const char *fmt, va_list ap)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(21, stdout, (long)fmt, 0);
	int r = real(stdout, fmt, ap);

	iobufviz_shim_leave(m, 21, stdout, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap printf: vfprintf on stdout. */
int
printf(const char *fmt, ...)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(7, stdout, (long)fmt, 0), r;
	va_list ap;

	va_start(ap, fmt);
	r = real(stdout, fmt, ap);
	va_end(ap);
	iobufviz_shim_leave(m, 7, stdout, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap puts: the bytes are strlen(s) + 1 (the newline). */
int
puts(const char *s)
{
	IOBUFVIZ_SHIM_REAL(puts);
	int m = iobufviz_shim_enter(8, stdout, (long)s, 0);
	int r = real(s);

	iobufviz_shim_leave(m, 8, stdout, r != EOF ? strlen(s) + 1 : 0, r);
	return r;
}

/* Wrap fread: the bytes are size * the items read. */
size_t
fread(void *p, size_t size, size_t n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fread);
	int m = iobufviz_shim_enter(9, f, (long)size, (long)n);
	size_t r = real(p, size, n, f);

	iobufviz_shim_leave(m, 9, f, size * r, (long)r);
	return r;
}

/* Wrap fgets: the result is the length read, or -1 for NULL. */
char *
fgets(char *s, int n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fgets);
	int m = iobufviz_shim_enter(10, f, n, 0);
	char *r = real(s, n, f);
	long len = r ? (long)strlen(r) : -1;

	iobufviz_shim_leave(m, 10, f, len > 0 ? (unsigned long)len : 0, len);
	return r;
}

/* Wrap fseek: before carries the offset and whence. */
int
fseek(FILE *f, long off, int whence)
{
	IOBUFVIZ_SHIM_REAL(fseek);
	int m = iobufviz_shim_enter(14, f, off, whence);
	int r = real(f, off, whence);

	iobufviz_shim_leave(m, 14, f, 0, r);
	return r;
}

/* Wrap fclose: the FILE is freed, so "after" carries no FILE; before carries its fd. */
int
fclose(FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fclose);
	int fd = fileno(f);
	int m = iobufviz_shim_enter(15, f, fd, 0);
	int r = real(f);

	iobufviz_shim_leave(m, 15, NULL, 0, r);
	return r;
}

/* Wrap setvbuf: before carries the mode (bit 8: a buffer of the program's) and size. */
int
setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	IOBUFVIZ_SHIM_REAL(setvbuf);
	int m = iobufviz_shim_enter(16, f, mode | (buf != NULL) << 8, (long)size);
	int r = real(f, buf, mode, size);

	iobufviz_shim_leave(m, 16, f, 0, r);
	return r;
}

/* Wrap setbuf: before carries whether a buffer was given (BUFSIZ) or none (unbuffered). */
void
setbuf(FILE *f, char *buf)
{
	IOBUFVIZ_SHIM_REAL(setbuf);
	int m = iobufviz_shim_enter(17, f, buf != NULL, 0);

	real(f, buf);
	iobufviz_shim_leave(m, 17, f, 0, 0);
}

/* Wrap fopen: before carries the path and the mode; after the new FILE (NULL on failure). */
FILE *
fopen(const char *path, const char *mode)
{
	IOBUFVIZ_SHIM_REAL(fopen);
	int m = iobufviz_shim_enter(18, NULL, (long)path, (long)mode);
	FILE *r = real(path, mode);

	iobufviz_shim_leave(m, 18, r, 0, r != NULL ? 0 : -1);
	return r;
}

/* Wrap fdopen: before carries the fd and the mode; after the new FILE. */
FILE *
fdopen(int fd, const char *mode)
{
	IOBUFVIZ_SHIM_REAL(fdopen);
	int m = iobufviz_shim_enter(19, NULL, fd, (long)mode);
	FILE *r = real(fd, mode);

	iobufviz_shim_leave(m, 19, r, 0, r != NULL ? 0 : -1);
	return r;
}
