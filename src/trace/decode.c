/* SPDX-License-Identifier: MIT */
/* trace/decode.c: names of syscall flags and constants, shared by ops (fallback) and tracer. */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "trace/decode.h"

/* The kernel's O_LARGEFILE: glibc defines it as 0 on 64-bit ABIs, where it is never passed. */
#if defined(__x86_64__)
#define DECODE_O_LARGEFILE 0100000
#elif defined(__aarch64__)
#define DECODE_O_LARGEFILE 0400000
#else
#define DECODE_O_LARGEFILE 0
#endif

/* Open flags: the access mode if asked, then each flag strace names, then leftover bits. */
static char *
decode_flags(int flags, bool access, char *buf, size_t len)
{
	static const struct { int bits; const char *name; } names[] = {
		{ O_CREAT, "O_CREAT" }, { O_EXCL, "O_EXCL" }, { O_NOCTTY, "O_NOCTTY" },
		{ O_TRUNC, "O_TRUNC" }, { O_APPEND, "O_APPEND" }, { O_NONBLOCK, "O_NONBLOCK" },
		/* O_SYNC contains O_DSYNC's bit: test the wider one first. */
		{ O_SYNC, "O_SYNC" }, { O_DSYNC, "O_DSYNC" }, { O_DIRECT, "O_DIRECT" },
		{ DECODE_O_LARGEFILE, "O_LARGEFILE" }, { O_DIRECTORY, "O_DIRECTORY" },
		{ O_NOFOLLOW, "O_NOFOLLOW" }, { O_NOATIME, "O_NOATIME" },
		{ O_CLOEXEC, "O_CLOEXEC" }, { O_PATH, "O_PATH" },
	};
	int acc = flags & O_ACCMODE;
	size_t n = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (access)
		n = (size_t)snprintf(buf, len, "%s", acc == O_WRONLY ? "O_WRONLY" :
		                     acc == O_RDWR ? "O_RDWR" : acc == O_RDONLY ? "O_RDONLY" :
		                     "O_ACCMODE");
	flags &= ~O_ACCMODE;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && n < len; i++) {
		if (names[i].bits == 0 || (flags & names[i].bits) != names[i].bits)
			continue;
		flags &= ~names[i].bits;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ? "|" : "", names[i].name);
	}
	if (flags != 0 && n < len)
		snprintf(buf + n, len - n, "%s%#x", n > 0 ? "|" : "", (unsigned)flags);
	return buf;
}

/* Open flags: the access mode, then each flag strace names, then leftover bits. */
char *
decode_open_flags(int flags, char *buf, size_t len)
{
	return decode_flags(flags, true, buf, len);
}

/* The flags beside the access mode ("O_SYNC|O_DIRECT"; "" if none). */
char *
decode_open_flag_bits(int flags, char *buf, size_t len)
{
	return decode_flags(flags, false, buf, len);
}

/* Flags, and the mode only when the kernel uses it (O_CREAT, O_TMPFILE). */
char *
decode_openat(int flags, unsigned mode, char *buf, size_t len)
{
	size_t n;

	decode_open_flags(flags, buf, len);
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		for (n = 0; n < len && buf[n] != '\0'; n++)
			;
		if (n < len)
			snprintf(buf + n, len - n, ", %#03o", mode & 07777);
	}
	return buf;
}

/* Name of a whence. */
const char *
decode_whence(int whence)
{
	switch (whence) {
	case SEEK_SET: return "SEEK_SET";
	case SEEK_CUR: return "SEEK_CUR";
	case SEEK_END: return "SEEK_END";
	case SEEK_DATA: return "SEEK_DATA";
	case SEEK_HOLE: return "SEEK_HOLE";
	default: return "?";
	}
}

/* Name of a posix_fadvise advice. */
const char *
decode_advice(int advice)
{
	switch (advice) {
	case POSIX_FADV_NORMAL: return "POSIX_FADV_NORMAL";
	case POSIX_FADV_RANDOM: return "POSIX_FADV_RANDOM";
	case POSIX_FADV_SEQUENTIAL: return "POSIX_FADV_SEQUENTIAL";
	case POSIX_FADV_WILLNEED: return "POSIX_FADV_WILLNEED";
	case POSIX_FADV_DONTNEED: return "POSIX_FADV_DONTNEED";
	case POSIX_FADV_NOREUSE: return "POSIX_FADV_NOREUSE";
	default: return "?";
	}
}

/* "len=N, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER". */
char *
decode_sync_file_range(unsigned flags, uint64_t len, char *buf, size_t size)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ SYNC_FILE_RANGE_WAIT_BEFORE, "SYNC_FILE_RANGE_WAIT_BEFORE" },
		{ SYNC_FILE_RANGE_WRITE, "SYNC_FILE_RANGE_WRITE" },
		{ SYNC_FILE_RANGE_WAIT_AFTER, "SYNC_FILE_RANGE_WAIT_AFTER" },
	};
	size_t n = (size_t)snprintf(buf, size, "len=%llu, ", (unsigned long long)len);
	const char *sep = "";

	if (flags == 0 && n < size)
		snprintf(buf + n, size - n, "0");
	for (size_t i = 0; i < sizeof names / sizeof names[0] && n < size; i++)
		if (flags & names[i].bit) {
			n += (size_t)snprintf(buf + n, size - n, "%s%s", sep, names[i].name);
			sep = "|";
		}
	return buf;
}
