/* SPDX-License-Identifier: MIT */
/* shim/protocol.h: how the LD_PRELOAD shim tells the tracer (prog/) about stdio calls: a log of
 * finished calls in each thread's memory, and a marker system call at the few moments the tracer
 * must stop. The shim and the tracer share this header and nothing else. */
#ifndef IOBUFVIZ_SHIM_PROTOCOL_H
#define IOBUFVIZ_SHIM_PROTOCOL_H

#include <stdint.h>

/*
 * A stdio call that makes no system call costs the program no stop: the shim appends it,
 * with its stream's state as the call left it, to a log in the thread's own memory
 * (struct prog_mark_tls, whose address the thread's first call tells), and the tracer reads
 * the log at the thread's next stop (a system call on a file, a signal, its end). A run of
 * like writes (sort's 1.5 M fwrite_unlocked of its lines) is one entry with their count
 * (prog_mark_tls.run): the log the tracer copies at each of sort's 11 k flushes is two
 * entries, not 136. At each
 * stop the tracer also reads the call under way (cur): a system call made while depth > 0 is
 * that stdio call's; the tracer then sets stop, and the shim, when the call returns, logs it
 * and stops with PROG_MARK_AFTER, so that the call's step is seen right after it. (Not for
 * a call that writes: its logged state is all its step needs, and the tracer reads it at the
 * next stop of any thread, or at the thread's end; a buffer flush is then two stops.)
 *
 * A marker is prctl(PROG_MARK_OPTION, kind, value). No kernel knows that option: the call
 * fails with EINVAL at once and changes nothing, so a program run without the tracer pays
 * a system call per marker (and a full log turns logging off). The seccomp filter stops only
 * on prctl with this option. "IBV" + 0.
 */
#define PROG_MARK_OPTION 0x49425600L

/* A marker's kind (prctl's arg2). */
#define PROG_MARK_HELLO 1         /* a thread's first call: value is its struct prog_mark_tls */
#define PROG_MARK_AFTER 2         /* the call the tracer set stop for has returned (logged) */
#define PROG_MARK_FULL  3         /* the log is full: read it (and set read) */
#define PROG_MARK_EXIT  4         /* exit() is about to flush every stream (cur says so) */

/* Call sites a thread keeps the caller's return address of (prog_mark_tls.up). */
#define PROG_MARK_UPS 4
/* How far above its frame a call's caller's return address may be (prog_mark_tls.up). */
#define PROG_MARK_UP_MAX 4096

/* Calls a thread's log holds before the tracer must read it. */
#define PROG_MARK_LOG 512

/* Room for a call's string argument (fputs's s, fprintf's format, fopen's path), cut, and
 * for its second (fopen's mode). */
#define PROG_STR_MAX 80
#define PROG_STR2_MAX 16

/* The bytes of a stream's buffer kept with each call (the head of what it holds). */
#define PROG_HEAD_MAX 64

/* prog_mark_call.flags */
#define PROG_MARK_F_STATE   1u    /* fd, st_flags, the pointers and head: the stream after it */
#define PROG_MARK_F_CALLS   2u    /* the tracer asked for PROG_MARK_AFTER (it follows) */
#define PROG_MARK_F_LITERAL 4u    /* fwrite(s, 1, strlen(s), fp) or puts(s) of a string in the
                                   * program's read-only data: what the compiler makes of
                                   * fputs("...", fp), fprintf(fp, "..."), printf("...\n") */
#define PROG_MARK_F_UPS     8u    /* a run whose calls had up words unlike its last's: theirs
                                   * are not known */

/* One call: as it began (prog_mark_tls.cur) or as it ended (an entry of the log). */
struct prog_mark_call {
	uint64_t seq;             /* the thread's outermost calls, numbered from 1 */
	uint64_t file;            /* the FILE* (fopen's new one once it returned; 0: none) */
	int64_t a, b;             /* its arguments, as the table below says */
	uint64_t size;            /* bytes it moved */
	int64_t ret;              /* its result (fopen: the new stream's fd, -1 for NULL) */
	uint16_t id;              /* PROG_MARK_FUNC_... */
	uint8_t flags;            /* PROG_MARK_F_... */
	uint8_t head_len;
	int32_t fd;               /* the stream's _fileno (fclose: the fd it closed) */
	uint32_t st_flags;        /* the stream's _flags after the call */
	uint32_t up_off;          /* where up was read, bytes above frame */
	uint32_t count;           /* the calls it stands for (a run: see prog_mark_tls.run) */
	uint32_t pad;
	uint64_t buf_base, buf_end, write_base, write_ptr, read_ptr, read_end;
	uint64_t caller;          /* the wrapper's return address: the program's call site */
	uint64_t frame;           /* the wrapper's frame address: where the program's stack was
	                           * at that call (the tracer finds the caller's caller from it) */
	uint64_t up;              /* the word at frame + off of the prog_mark_tls.up entry of this
	                           * caller and frame (0: none): where the tracer found the
	                           * caller's return address when it walked a call from there */
	char str[PROG_STR_MAX];
	char str2[PROG_STR2_MAX];
	unsigned char head[PROG_HEAD_MAX];
};

/* The shim's state in each thread (thread-local, in the program's memory). */
struct prog_mark_tls {
	uint64_t magic;           /* PROG_MARK_MAGIC once told to the tracer */
	uint32_t depth;           /* wrapped calls under way (only the outermost is a call) */
	uint32_t stop;            /* set by the tracer: mark PROG_MARK_AFTER when cur returns */
	uint64_t written;         /* calls put in the log, ever (entry i is at i % PROG_MARK_LOG) */
	uint64_t read;            /* calls the tracer has taken (the tracer writes it) */
	uint64_t log;             /* the log: PROG_MARK_LOG entries */
	uint32_t off;             /* no tracer took the log: logging is off */
	uint32_t pad;
	struct prog_mark_call cur;    /* the outermost call under way (or the last one) */
	/* Functions the tracer walked a call from, with a frame of this thread (it writes
	 * them): a call from a return address in (lo, hi] (the function's code; a call site
	 * alone when the symbol table has no size) with that same frame keeps in its entry's
	 * up the word off bytes above it, where the function's caller's return address was:
	 * the same frame of the same function has it in the same place. Equal to what the walk
	 * found, the call is from the same caller, logged without a stop. hi 0: empty. */
	struct prog_mark_up {
		uint64_t lo, hi, frame, off;
	} up[PROG_MARK_UPS];
	/* A run of calls, each like the one before it but one further on: the same function,
	 * arguments, result, stream and call site, a write that only added its bytes to the
	 * buffer (no flush, so no system call; puts, fwrite, fputc ... alike), logged as its
	 * last call with count = how many (they follow the entry logged before them, or the
	 * run the tracer took part of; the up word is the last call's, F_UPS when another call
	 * had another). Kept here, not in the log, while it goes on (count 0:
	 * none): the tracer reads it at the thread's stops, and remembers how many of it it
	 * took; the shim logs it when a call does not join it, or at PROG_MARK_RUN calls. */
	struct prog_mark_call run;
};

/* The most calls one run stands for. */
#define PROG_MARK_RUN 1024

#define PROG_MARK_MAGIC 0x4942562d6c6f6734ULL    /* "IBV-log4" */

/* _flags bits of glibc's FILE that say where its data is (libio.h, not installed). */
#define PROG_MARK_IO_CURRENTLY_PUTTING 0x0800u
#define PROG_MARK_IO_EOF_SEEN 0x0010u             /* feof() is true */
#define PROG_MARK_IO_ERR_SEEN 0x0020u             /* ferror() is true */

/*
 * Where the bytes a stream holds begin, and how many there are: what __fpending counts
 * (write_ptr - write_base), else the input read ahead and not yet consumed (while it is not
 * writing). Both the shim (in the program) and the tracer (from outside) ask this.
 */
static inline uint64_t
prog_mark_head(uint32_t st_flags, uint64_t wbase, uint64_t wptr, uint64_t rptr, uint64_t rend,
               uint64_t *at)
{
	if (wptr > wbase) {
		*at = wbase;
		return wptr - wbase;
	}
	if (!(st_flags & PROG_MARK_IO_CURRENTLY_PUTTING) && rend > rptr) {
		*at = rptr;
		return rend - rptr;
	}
	*at = 0;
	return 0;
}

/* What a function does with a stream's data: runs of PUT or GET calls fold into one step. */
#define PROG_MARK_CTL 0
#define PROG_MARK_PUT 1
#define PROG_MARK_GET 2

/* What a call's a and b are. */
#define PROG_MARK_ARG_NONE 0      /* nothing */
#define PROG_MARK_ARG_NUM  1      /* a number */
#define PROG_MARK_ARG_STR  2      /* a string (a: in str, b: in str2) */
#define PROG_MARK_ARG_CHAR 3      /* a character (fputc's c) */

/*
 * The wrapped functions, one line each: X(id, name, base, a, b, class). A call is shown by
 * its name, and rendered, folded and matched to a scenario op as its base (the function
 * with the same arguments: fwrite for fwrite_unlocked). The _FORTIFY_SOURCE forms
 * (__fprintf_chk), the 64-bit aliases (fopen64) and the old names (_IO_getc) are the call
 * the source wrote: they log the id of that call. id 22, "exit", is no function: exit()'s
 * flush of every stream (no entry in the log: the process then ends).
 */
#define PROG_MARK_FUNCS(X) \
	X(1, fwrite, fwrite, NUM, NUM, PUT) X(2, fputs, fputs, STR, NONE, PUT) \
	X(3, fputc, fputc, CHAR, NONE, PUT) X(4, putc, putc, CHAR, NONE, PUT) \
	X(5, fprintf, fprintf, STR, NONE, PUT) X(6, vfprintf, vfprintf, STR, NONE, PUT) \
	X(7, printf, printf, STR, NONE, PUT) X(8, puts, puts, STR, NONE, PUT) \
	X(9, fread, fread, NUM, NUM, GET) X(10, fgets, fgets, NUM, NONE, GET) \
	X(11, fgetc, fgetc, NONE, NONE, GET) X(12, getc, getc, NONE, NONE, GET) \
	X(13, fflush, fflush, NONE, NONE, CTL) X(14, fseek, fseek, NUM, NUM, CTL) \
	X(15, fclose, fclose, NONE, NONE, CTL) X(16, setvbuf, setvbuf, NUM, NUM, CTL) \
	X(17, setbuf, setbuf, NUM, NONE, CTL) X(18, fopen, fopen, STR, STR, CTL) \
	X(19, fdopen, fdopen, NUM, STR, CTL) X(20, putchar, putchar, CHAR, NONE, PUT) \
	X(21, vprintf, vprintf, STR, NONE, PUT) X(22, exit, exit, NONE, NONE, CTL) \
	X(23, getline, getline, NUM, NONE, GET) X(24, getdelim, getdelim, NUM, CHAR, GET) \
	X(25, rewind, rewind, NONE, NONE, CTL) X(26, ftell, ftell, NONE, NONE, CTL) \
	X(27, ftello, ftello, NONE, NONE, CTL) X(28, fseeko, fseeko, NUM, NUM, CTL) \
	X(29, fgetpos, fgetpos, NONE, NONE, CTL) X(30, fsetpos, fsetpos, NONE, NONE, CTL) \
	X(31, fscanf, fscanf, STR, NONE, GET) X(32, vfscanf, vfscanf, STR, NONE, GET) \
	X(33, scanf, scanf, STR, NONE, GET) X(34, getchar, getchar, NONE, NONE, GET) \
	X(35, ungetc, ungetc, CHAR, NONE, CTL) X(36, freopen, freopen, STR, STR, CTL) \
	X(37, tmpfile, tmpfile, NONE, NONE, CTL) X(38, perror, perror, STR, NONE, PUT) \
	X(39, fwrite_unlocked, fwrite, NUM, NUM, PUT) \
	X(40, fputs_unlocked, fputs, STR, NONE, PUT) \
	X(41, fputc_unlocked, fputc, CHAR, NONE, PUT) \
	X(42, putc_unlocked, putc, CHAR, NONE, PUT) \
	X(43, putchar_unlocked, putchar, CHAR, NONE, PUT) \
	X(44, fread_unlocked, fread, NUM, NUM, GET) \
	X(45, fgets_unlocked, fgets, NUM, NONE, GET) \
	X(46, fgetc_unlocked, fgetc, NONE, NONE, GET) \
	X(47, getc_unlocked, getc, NONE, NONE, GET) \
	X(48, getchar_unlocked, getchar, NONE, NONE, GET) \
	X(49, fflush_unlocked, fflush, NONE, NONE, CTL) \
	X(50, vscanf, vscanf, STR, NONE, GET)

/* The ids by name: PROG_MARK_FUNC_fwrite, ... */
#define PROG_MARK_ENUM(id, name, base, a, b, cls) PROG_MARK_FUNC_##name = id,
enum prog_mark_func { PROG_MARK_FUNCS(PROG_MARK_ENUM) };
#undef PROG_MARK_ENUM

/* Whether function id writes to its stream (its class is PUT). */
#define PROG_MARK_PUT_CASE(id, name, base, a, b, cls) case id: return PROG_MARK_##cls == PROG_MARK_PUT;
static inline int
prog_mark_class_put(unsigned id)
{
	switch (id) {
	PROG_MARK_FUNCS(PROG_MARK_PUT_CASE)
	default:
		return 0;
	}
}
#undef PROG_MARK_PUT_CASE

/* One past the largest id. */
#define PROG_MARK_NFUNCS 51

/* The id of the exit flush. */
#define PROG_MARK_EXIT_ID PROG_MARK_FUNC_exit

#endif
