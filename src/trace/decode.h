/* SPDX-License-Identifier: MIT */
/* trace/decode.h: names of syscall flags and constants, spelled as strace prints them. */
#ifndef IOBUFVIZ_DECODE_H
#define IOBUFVIZ_DECODE_H

#include <stddef.h>
#include <stdint.h>

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

/* A sync_file_range detail: "len=N, SYNC_FILE_RANGE_WRITE|..." into buf. Return buf. */
char *decode_sync_file_range(unsigned flags, uint64_t len, char *buf, size_t size);

#endif
