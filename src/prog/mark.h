/* SPDX-License-Identifier: MIT */
/* mark.h: the marker system call by which the LD_PRELOAD shim tells the tracer about stdio calls. */
#ifndef IOBUFVIZ_PROG_MARK_H
#define IOBUFVIZ_PROG_MARK_H

/*
 * A marker is prctl(PROG_MARK_OPTION, phase | func << 8, file, a, b). No kernel knows that
 * option: the call fails with EINVAL at once and changes nothing, so a program run without
 * the tracer only pays for a system call. The seccomp filter stops only on prctl with this
 * option (every other prctl runs untraced). "IBV" + 0.
 *
 * "before" carries the call's arguments, as the table below says for each function (a and
 * b: numbers, or addresses of strings the tracer reads while the call is stopped there);
 * "after" carries the FILE (the new one for fopen/fdopen, none for fclose), the bytes the
 * call moved (a) and its result (b).
 */
#define PROG_MARK_OPTION 0x49425600L

/* arg2's low byte: before the real function is called, or after it returned. */
#define PROG_MARK_BEFORE 1
#define PROG_MARK_AFTER  2

/* Room for a string argument a marker points at (fopen's path, fprintf's format), cut. */
#define PROG_STR_MAX 96

/* What a "before" marker's a and b are. */
#define PROG_MARK_ARG_NONE 0      /* nothing */
#define PROG_MARK_ARG_NUM  1      /* a number */
#define PROG_MARK_ARG_STR  2      /* the address of a string of the program */
#define PROG_MARK_ARG_CHAR 3      /* a character (fputc's c) */

/*
 * The wrapped functions, one line each: X(id, name, a, b). The id is the marker's func;
 * the shim defines a wrapper per line and the tracer names and renders steps with the
 * table. id 22, "exit", is no function: the shim's atexit handler marks the start of
 * exit()'s flush of every stream (no "after": the process then ends).
 */
#define PROG_MARK_FUNCS(X) \
	X(1, fwrite, NUM, NUM) X(2, fputs, STR, NONE) X(3, fputc, CHAR, NONE) \
	X(4, putc, CHAR, NONE) X(5, fprintf, STR, NONE) X(6, vfprintf, STR, NONE) \
	X(7, printf, STR, NONE) X(8, puts, STR, NONE) X(9, fread, NUM, NUM) \
	X(10, fgets, NUM, NONE) X(11, fgetc, NONE, NONE) X(12, getc, NONE, NONE) \
	X(13, fflush, NONE, NONE) X(14, fseek, NUM, NUM) X(15, fclose, NUM, NONE) \
	X(16, setvbuf, NUM, NUM) X(17, setbuf, NUM, NONE) X(18, fopen, STR, STR) \
	X(19, fdopen, NUM, STR) X(20, putchar, CHAR, NONE) X(21, vprintf, STR, NONE) \
	X(22, exit, NONE, NONE)

/* The ids by name: PROG_MARK_FUNC_fwrite, ... */
#define PROG_MARK_ENUM(id, name, a, b) PROG_MARK_FUNC_##name = id,
enum prog_mark_func { PROG_MARK_FUNCS(PROG_MARK_ENUM) };
#undef PROG_MARK_ENUM

/* One past the largest id. */
#define PROG_MARK_NFUNCS 23

/* The id of the exit flush. */
#define PROG_MARK_EXIT PROG_MARK_FUNC_exit

#endif
