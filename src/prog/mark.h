/* SPDX-License-Identifier: MIT */
/* mark.h: the marker system call by which the LD_PRELOAD shim tells the tracer about stdio calls. */
#ifndef IOBUFVIZ_PROG_MARK_H
#define IOBUFVIZ_PROG_MARK_H

/*
 * A marker is prctl(PROG_MARK_OPTION, phase | func << 8, (long)FILE*, size, result).
 * No kernel knows that option: the call fails with EINVAL at once and changes nothing,
 * so a program run without the tracer only pays for a system call. The seccomp filter
 * stops only on prctl with this option (every other prctl runs untraced). "IBV" + 0.
 */
#define PROG_MARK_OPTION 0x49425600L

/* arg2's low byte: before the real function is called, or after it returned. */
#define PROG_MARK_BEFORE 1
#define PROG_MARK_AFTER  2

/*
 * The wrapped functions, one line each: X(id, name). The id is the marker's func; the
 * shim defines a wrapper per line and the tracer names steps with the table.
 */
#define PROG_MARK_FUNCS(X) \
	X(1, fwrite) X(2, fputs) X(3, fputc) X(4, putc) X(5, fprintf) X(6, vfprintf) \
	X(7, printf) X(8, puts) X(9, fread) X(10, fgets) X(11, fgetc) X(12, getc) \
	X(13, fflush) X(14, fseek) X(15, fclose) X(16, setvbuf) X(17, setbuf) \
	X(18, fopen) X(19, fdopen) X(20, putchar) X(21, vprintf)

/* One past the largest id. */
#define PROG_MARK_NFUNCS 22

#endif
