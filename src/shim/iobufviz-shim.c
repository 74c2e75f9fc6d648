/* SPDX-License-Identifier: MIT */
/* iobufviz-shim.c: an LD_PRELOAD library that marks each stdio call with a prctl the tracer stops on. */
#include <config.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Make the marker system call: prctl(PROG_MARK_OPTION, phase | id << 8, file, size, ret). */
static void
iobufviz_shim_mark(int phase, int id, const void *file, unsigned long size, long ret)
{
	syscall(SYS_prctl, PROG_MARK_OPTION, (long)(phase | id << 8), (long)file, (long)size, ret);
}

/* Enter a wrapper: mark "before" if outermost. Return whether this call is marked. */
static int
iobufviz_shim_enter(int id, const void *file, unsigned long size)
{
	if (iobufviz_shim_depth++ > 0)
		return 0;
	iobufviz_shim_mark(PROG_MARK_BEFORE, id, file, size, 0);
	return 1;
}

/* Leave a wrapper: mark "after" with the result if it was marked. */
static void
iobufviz_shim_leave(int marked, int id, const void *file, unsigned long size, long ret)
{
	iobufviz_shim_depth--;
	if (marked)
		iobufviz_shim_mark(PROG_MARK_AFTER, id, file, size, ret);
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
		int m = iobufviz_shim_enter(id, f, 1); \
		int r = real(c, f); \
		iobufviz_shim_leave(m, id, f, 1, r); \
		return r; \
	}

/* Define a wrapper int name(FILE *f) (fgetc, getc, fflush) marked with size. */
#define IOBUFVIZ_SHIM_GET(name, id, size) \
	int \
	name(FILE *f) \
	{ \
		IOBUFVIZ_SHIM_REAL(name); \
		int m = iobufviz_shim_enter(id, f, size); \
		int r = real(f); \
		iobufviz_shim_leave(m, id, f, size, r); \
		return r; \
	}

IOBUFVIZ_SHIM_PUT(fputc, 3)
IOBUFVIZ_SHIM_PUT(putc, 4)
IOBUFVIZ_SHIM_GET(fgetc, 11, 1)
IOBUFVIZ_SHIM_GET(getc, 12, 1)
/* fflush(NULL) flushes every stream: its marker then carries no FILE. */
IOBUFVIZ_SHIM_GET(fflush, 13, 0)

/* Wrap fwrite: size is size * nmemb. */
size_t
fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fwrite);
	int m = iobufviz_shim_enter(1, f, size * n);
	size_t r = real(p, size, n, f);

	iobufviz_shim_leave(m, 1, f, size * n, (long)r);
	return r;
}

/* Wrap fputs: size is strlen(s). */
int
fputs(const char *s, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fputs);
	int m = iobufviz_shim_enter(2, f, strlen(s));
	int r = real(s, f);

	iobufviz_shim_leave(m, 2, f, strlen(s), r);
	return r;
}

/* Wrap putchar: putc on stdout. */
int
putchar(int c)
{
	IOBUFVIZ_SHIM_REAL(putchar);
	int m = iobufviz_shim_enter(20, stdout, 1);
	int r = real(c);

	iobufviz_shim_leave(m, 20, stdout, 1, r);
	return r;
}

/* Wrap vfprintf: size is the bytes printed. */
int
vfprintf(FILE *f, const char *fmt, va_list ap)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(6, f, 0);
	int r = real(f, fmt, ap);

	iobufviz_shim_leave(m, 6, f, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap fprintf through libc's vfprintf. */
int
fprintf(FILE *f, const char *fmt, ...)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(5, f, 0), r;
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
	int m = iobufviz_shim_enter(21, stdout, 0);
	int r = real(stdout, fmt, ap);

	iobufviz_shim_leave(m, 21, stdout, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap printf: vfprintf on stdout. */
int
printf(const char *fmt, ...)
{
	IOBUFVIZ_SHIM_REAL(vfprintf);
	int m = iobufviz_shim_enter(7, stdout, 0), r;
	va_list ap;

	va_start(ap, fmt);
	r = real(stdout, fmt, ap);
	va_end(ap);
	iobufviz_shim_leave(m, 7, stdout, r > 0 ? (unsigned long)r : 0, r);
	return r;
}

/* Wrap puts: size is strlen(s) + 1 (the newline). */
int
puts(const char *s)
{
	IOBUFVIZ_SHIM_REAL(puts);
	int m = iobufviz_shim_enter(8, stdout, strlen(s) + 1);
	int r = real(s);

	iobufviz_shim_leave(m, 8, stdout, strlen(s) + 1, r);
	return r;
}

/* Wrap fread: size is size * nmemb. */
size_t
fread(void *p, size_t size, size_t n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fread);
	int m = iobufviz_shim_enter(9, f, size * n);
	size_t r = real(p, size, n, f);

	iobufviz_shim_leave(m, 9, f, size * n, (long)r);
	return r;
}

/* Wrap fgets: size is n; the result is the length read, or -1 for NULL. */
char *
fgets(char *s, int n, FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fgets);
	int m = iobufviz_shim_enter(10, f, n > 0 ? (unsigned long)n : 0);
	char *r = real(s, n, f);

	iobufviz_shim_leave(m, 10, f, n > 0 ? (unsigned long)n : 0, r ? (long)strlen(r) : -1);
	return r;
}

/* Wrap fseek: size is the offset. */
int
fseek(FILE *f, long off, int whence)
{
	IOBUFVIZ_SHIM_REAL(fseek);
	int m = iobufviz_shim_enter(14, f, (unsigned long)off);
	int r = real(f, off, whence);

	iobufviz_shim_leave(m, 14, f, (unsigned long)off, r);
	return r;
}

/* Wrap fclose: the FILE is freed, so "after" carries no FILE and size is its old fd. */
int
fclose(FILE *f)
{
	IOBUFVIZ_SHIM_REAL(fclose);
	int fd = fileno(f);
	int m = iobufviz_shim_enter(15, f, (unsigned long)fd);
	int r = real(f);

	iobufviz_shim_leave(m, 15, NULL, (unsigned long)fd, r);
	return r;
}

/* Wrap setvbuf: size is the buffer size asked for. */
int
setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	IOBUFVIZ_SHIM_REAL(setvbuf);
	int m = iobufviz_shim_enter(16, f, size);
	int r = real(f, buf, mode, size);

	iobufviz_shim_leave(m, 16, f, size, r);
	return r;
}

/* Wrap setbuf: size is BUFSIZ, or 0 for unbuffered. */
void
setbuf(FILE *f, char *buf)
{
	IOBUFVIZ_SHIM_REAL(setbuf);
	unsigned long size = buf != NULL ? BUFSIZ : 0;
	int m = iobufviz_shim_enter(17, f, size);

	real(f, buf);
	iobufviz_shim_leave(m, 17, f, size, 0);
}

/* Wrap fopen: "after" carries the new FILE (NULL on failure). */
FILE *
fopen(const char *path, const char *mode)
{
	IOBUFVIZ_SHIM_REAL(fopen);
	int m = iobufviz_shim_enter(18, NULL, 0);
	FILE *r = real(path, mode);

	iobufviz_shim_leave(m, 18, r, 0, r != NULL ? 0 : -1);
	return r;
}

/* Wrap fdopen: size is the fd; "after" carries the new FILE. */
FILE *
fdopen(int fd, const char *mode)
{
	IOBUFVIZ_SHIM_REAL(fdopen);
	int m = iobufviz_shim_enter(19, NULL, (unsigned long)fd);
	FILE *r = real(fd, mode);

	iobufviz_shim_leave(m, 19, r, (unsigned long)fd, r != NULL ? 0 : -1);
	return r;
}
