/* SPDX-License-Identifier: MIT */
/* trace/decode.h: names of syscall flags and constants, spelled as strace prints them, and the
 * decoders of a call's other arguments (the table's last column, trace/calls.h). */
#ifndef IOBUFVIZ_DECODE_H
#define IOBUFVIZ_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct peek;

/* One finished system call, as either tracer saw it (or a test recorded it). */
struct decode_stop {
	uint64_t nr;
	uint64_t args[6];         /* at entry */
	int64_t rval;             /* at exit: the result, or -errno */
	bool is_error;
	/* Read at entry, since the kernel moves them: the offsets that copy_file_range,
	 * sendfile and splice take by pointer (the table's off and off2), -1 for NULL. */
	int64_t ptr_off[2];
};

/*
 * A decoder: the arguments of s beyond its fds, sizes and offsets (flags by name, as strace
 * shows them) into buf ("" if none). flg is the argument holding its flags, command or
 * advice; m reads what the call pointed to (NULL: what needs memory is left out).
 */
typedef void decode_fn(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                       size_t len);

/* The decoders of trace/calls.c's rows. */
decode_fn decode_open, decode_creat, decode_openat2, decode_lseek, decode_fadvise, decode_sfr,
	decode_fallocate, decode_iov, decode_iov2, decode_copy, decode_splice, decode_fcntl,
	decode_ioctl, decode_flock, decode_mmap, decode_msync, decode_dup3, decode_fstat,
	decode_newfstatat, decode_statx, decode_uring_setup, decode_uring_enter, decode_rename,
	decode_llseek, decode_fstat64, decode_fstatat64;

/* The name a call gave at addr, into buf (len bytes) when it is a name in the current
 * directory made of letters, digits, '.', '-' and '_' (a lesson's files); else "". True if
 * it is one. */
bool decode_name(const struct peek *m, uint64_t addr, char *buf, size_t len);

/* "O_WRONLY|O_CREAT|O_TRUNC" (unknown bits as hex) into buf. Return buf. */
char *decode_open_flags(int flags, char *buf, size_t len);

/* The flags beside the access mode ("O_SYNC|O_DIRECT"; "" if none) into buf. Return buf. */
char *decode_open_flag_bits(int flags, char *buf, size_t len);

/* An open/openat detail: the flags, then ", 0666" when the mode is used. Return buf. */
char *decode_openat(int flags, unsigned mode, char *buf, size_t len);

/* "SEEK_SET", ... ("?" if unknown). */
const char *decode_whence(int whence);

/* "POSIX_FADV_DONTNEED", ... ("?" if unknown). */
const char *decode_advice(int advice);

/* "SYNC_FILE_RANGE_WRITE|..." ("0" if none) into buf. Return buf. */
char *decode_sync_file_range_flags(unsigned flags, char *buf, size_t size);

/* "len=N, SYNC_FILE_RANGE_WRITE|..." into buf. Return buf. */
char *decode_sync_file_range(unsigned flags, uint64_t len, char *buf, size_t size);

#endif
