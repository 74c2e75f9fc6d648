/* SPDX-License-Identifier: MIT */
/* trace/calls.c: the one table of system calls we decode (see trace/calls.h). */
#include <config.h>

#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

#include "trace/calls.h"
#include "trace/peek.h"

#define NO CALLS_NONE
#define RES CALLS_RESULT
#define FD CALL_FD
#define PATH CALL_PATH

/* One row per call: the argument that is each column (NO: none), its flags, its decoder. */
const struct call_row calls_table[] = {
	/*  nr                     name               fd fd2 path bytes off off2 len addr flg
	 *  flags, decoder */
	{ SYS_read,            "read",             0, NO, NO,   2, NO, NO, NO, NO, NO,
	  FD | CALL_READ, NULL },
	{ SYS_write,           "write",            0, NO, NO,   2, NO, NO, NO, NO, NO,
	  FD | CALL_WRITE, NULL },
	{ SYS_pread64,         "pread64",          0, NO, NO,   2,  3, NO, NO, NO, NO,
	  FD | CALL_READ, NULL },
	{ SYS_pwrite64,        "pwrite64",         0, NO, NO,   2,  3, NO, NO, NO, NO,
	  FD | CALL_WRITE, NULL },
	{ SYS_readv,           "readv",            0, NO, NO, RES, NO, NO, NO, NO, NO,
	  FD | CALL_READ, decode_iov },
	{ SYS_writev,          "writev",           0, NO, NO, RES, NO, NO, NO, NO, NO,
	  FD | CALL_WRITE, decode_iov },
	{ SYS_preadv,          "preadv",           0, NO, NO, RES,  3, NO, NO, NO, NO,
	  FD | CALL_READ, decode_iov },
	{ SYS_pwritev,         "pwritev",          0, NO, NO, RES,  3, NO, NO, NO, NO,
	  FD | CALL_WRITE, decode_iov },
	{ SYS_preadv2,         "preadv2",          0, NO, NO, RES,  3, NO, NO, NO,  5,
	  FD | CALL_READ, decode_iov2 },
	{ SYS_pwritev2,        "pwritev2",         0, NO, NO, RES,  3, NO, NO, NO,  5,
	  FD | CALL_WRITE | CALL_RWF, decode_iov2 },
	{ SYS_copy_file_range, "copy_file_range",  0,  2, NO,   4,  1,  3, NO, NO,  5,
	  FD | CALL_READ | CALL_WRITE2 | CALL_OFF_PTR, decode_copy },
	{ SYS_sendfile,        "sendfile",         0,  1, NO,   3, NO,  2, NO, NO, NO,
	  FD | CALL_WRITE | CALL_READ2 | CALL_OFF_PTR, NULL },
	{ SYS_splice,          "splice",           0,  2, NO,   4,  1,  3, NO, NO,  5,
	  FD | CALL_READ | CALL_WRITE2 | CALL_OFF_PTR, decode_splice },
	{ SYS_lseek,           "lseek",            0, NO, NO,  NO,  1, NO, NO, NO,  2,
	  FD | CALL_SEEK, decode_lseek },
	{ SYS_fsync,           "fsync",            0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_SYNC, NULL },
	{ SYS_fdatasync,       "fdatasync",        0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_SYNC, NULL },
	{ SYS_syncfs,          "syncfs",           0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_SYNC, NULL },
	{ SYS_sync,            "sync",            NO, NO, NO,  NO, NO, NO, NO, NO, NO,
	  CALL_SYNC | CALL_ALL_FILES, NULL },
	{ SYS_sync_file_range, "sync_file_range",  0, NO, NO,  NO,  1, NO,  2, NO,  3,
	  FD | CALL_SYNC, decode_sfr },
	{ SYS_fadvise64,       "fadvise64",        0, NO, NO,  NO,  1, NO,  2, NO,  3,
	  FD | CALL_ADVISE, decode_fadvise },
	{ SYS_fallocate,       "fallocate",        0, NO, NO,  NO,  2, NO,  3, NO,  1,
	  FD | CALL_RESIZE, decode_fallocate },
	{ SYS_ftruncate,       "ftruncate",        0, NO, NO,  NO, NO, NO,  1, NO, NO,
	  FD | CALL_RESIZE, NULL },
#if defined(__i386__)
	/* i386's SYS_mmap takes its arguments in memory; glibc calls mmap2 (calls_fold_args). */
	{ SYS_mmap2,           "mmap2",            4, NO, NO,  NO,  5, NO,  1,  0,  2,
	  FD | CALL_MAP, decode_mmap },
#else
	{ SYS_mmap,            "mmap",             4, NO, NO,  NO,  5, NO,  1,  0,  2,
	  FD | CALL_MAP, decode_mmap },
#endif
	{ SYS_msync,           "msync",           NO, NO, NO,  NO, NO, NO,  1,  0,  2,
	  CALL_MEM | CALL_SYNC, decode_msync },
	{ SYS_munmap,          "munmap",          NO, NO, NO,  NO, NO, NO,  1,  0, NO,
	  CALL_MEM, NULL },
	{ SYS_io_uring_setup,  "io_uring_setup",  NO, NO, NO,  NO, NO, NO, NO, NO, NO,
	  CALL_ASYNC | CALL_NEWFD, decode_uring_setup },
	{ SYS_io_uring_enter,  "io_uring_enter",   0, NO, NO,  NO, NO, NO, NO, NO,  3,
	  FD | CALL_ASYNC, decode_uring_enter },
	{ SYS_openat,          "openat",          NO, NO,  1,  NO, NO, NO, NO, NO,  2,
	  PATH | CALL_NEWFD, decode_open },
	{ SYS_openat2,         "openat2",         NO, NO,  1,  NO, NO, NO, NO, NO,  2,
	  PATH | CALL_NEWFD, decode_openat2 },
#ifdef SYS_open
	{ SYS_open,            "open",            NO, NO,  0,  NO, NO, NO, NO, NO,  1,
	  PATH | CALL_NEWFD, decode_open },
#endif
#ifdef SYS_creat
	{ SYS_creat,           "creat",           NO, NO,  0,  NO, NO, NO, NO, NO,  1,
	  PATH | CALL_NEWFD, decode_creat },
#endif
#ifdef SYS_rename
	{ SYS_rename,          "rename",          NO, NO,  0,  NO, NO, NO, NO, NO,  1,
	  PATH | CALL_NAMES, decode_rename },
#endif
	{ SYS_renameat,        "renameat",        NO, NO,  1,  NO, NO, NO, NO, NO,  3,
	  PATH | CALL_NAMES, decode_rename },
	{ SYS_renameat2,       "renameat2",       NO, NO,  1,  NO, NO, NO, NO, NO,  3,
	  PATH | CALL_NAMES, decode_rename },
	{ SYS_close,           "close",            0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_CLOSE, NULL },
	/* Closes fd to fd2, which need not be open: not an fd call. */
	{ SYS_close_range,     "close_range",      0,  1, NO,  NO, NO, NO, NO, NO,  2,
	  CALL_CLOSE, NULL },
	{ SYS_dup,             "dup",              0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_NEWFD, NULL },
#ifdef SYS_dup2
	{ SYS_dup2,            "dup2",             0,  1, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_NEWFD, NULL },
#endif
	{ SYS_dup3,            "dup3",             0,  1, NO,  NO, NO, NO, NO, NO,  2,
	  FD | CALL_NEWFD, decode_dup3 },
	{ SYS_fcntl,           "fcntl",            0, NO, NO,  NO, NO, NO, NO, NO,  1,
	  FD | CALL_NEWFD | CALL_CMD, decode_fcntl },
	{ SYS_ioctl,           "ioctl",            0, NO, NO,  NO, NO, NO, NO, NO,  1,
	  FD, decode_ioctl },
	{ SYS_flock,           "flock",            0, NO, NO,  NO, NO, NO, NO, NO,  1,
	  FD, decode_flock },
#ifdef SYS_fstat
	{ SYS_fstat,           "fstat",            0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_STAT, decode_fstat },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat,      "newfstatat",       0, NO,  1,  NO, NO, NO, NO, NO,  3,
	  FD | PATH | CALL_EMPTY_PATH | CALL_STAT, decode_newfstatat },
#endif
	{ SYS_statx,           "statx",            0, NO,  1,  NO, NO, NO, NO, NO,  2,
	  FD | PATH | CALL_EMPTY_PATH | CALL_STAT, decode_statx },
	{ SYS_fstatfs,         "fstatfs",          0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_STAT, NULL },
#if defined(__i386__)
	/* i386's calls with 64-bit offsets and structs (columns after calls_fold_args). */
	{ SYS__llseek,         "_llseek",          0, NO, NO,  NO,  1, NO, NO, NO,  3,
	  FD | CALL_SEEK, decode_llseek },
	{ SYS_fadvise64_64,    "fadvise64_64",     0, NO, NO,  NO,  1, NO,  2, NO,  3,
	  FD | CALL_ADVISE, decode_fadvise },
	{ SYS_ftruncate64,     "ftruncate64",      0, NO, NO,  NO, NO, NO,  1, NO, NO,
	  FD | CALL_RESIZE, NULL },
	{ SYS_sendfile64,      "sendfile64",       0,  1, NO,   3, NO,  2, NO, NO, NO,
	  FD | CALL_WRITE | CALL_READ2 | CALL_OFF_PTR, NULL },
	{ SYS_fcntl64,         "fcntl64",          0, NO, NO,  NO, NO, NO, NO, NO,  1,
	  FD | CALL_NEWFD | CALL_CMD, decode_fcntl },
	{ SYS_fstat64,         "fstat64",          0, NO, NO,  NO, NO, NO, NO, NO, NO,
	  FD | CALL_STAT, decode_fstat64 },
	{ SYS_fstatat64,       "fstatat64",        0, NO,  1,  NO, NO, NO, NO, NO,  3,
	  FD | PATH | CALL_EMPTY_PATH | CALL_STAT, decode_fstatat64 },
#endif
	{ SYS_execve,          "execve",          NO, NO,  0,  NO, NO, NO, NO, NO, NO,
	  PATH | CALL_EXEC, NULL },
	{ SYS_exit_group,      "exit_group",      NO, NO, NO,  NO, NO, NO, NO, NO, NO,
	  CALL_EXIT, NULL },
	{ SYS_prctl,           "prctl",           NO, NO, NO,  NO, NO, NO, NO, NO,  0,
	  CALL_MARK, NULL },
};

/* How many. */
const size_t calls_n = sizeof calls_table / sizeof calls_table[0];

_Static_assert(sizeof calls_table / sizeof calls_table[0] <= CALLS_MAX,
               "the seccomp filter is built for at most CALLS_MAX calls");

#if defined(__i386__)
/* The 64-bit value in registers a[lo] (low half) and a[lo + 1] (high half). */
static uint64_t
calls_pair(const uint64_t *a, int lo)
{
	return (a[lo] & 0xffffffffu) | (a[lo + 1] << 32);
}
#endif

/* i386: register pairs made one argument (see trace/calls.h); elsewhere nothing. */
void
calls_fold_args(uint64_t nr, uint64_t *a)
{
#if defined(__i386__)
	switch (nr) {
	case SYS_pread64:          /* fd, buf, count, pos (lo, hi) */
	case SYS_pwrite64:
	case SYS_preadv:           /* fd, iov, n, pos (lo, hi) [, flags: stays 5th] */
	case SYS_pwritev:
	case SYS_preadv2:
	case SYS_pwritev2:
		a[3] = calls_pair(a, 3);
		a[4] = 0;
		break;
	case SYS_lseek:            /* fd, a 32-bit signed offset, whence */
		a[1] = (uint64_t)(int64_t)(int32_t)a[1];
		break;
	case SYS__llseek:          /* fd, offset (hi, lo), result, whence */
		a[1] = (a[2] & 0xffffffffu) | (a[1] << 32);
		a[2] = a[3];
		a[3] = a[4];
		a[4] = a[5] = 0;
		break;
	case SYS_fadvise64:        /* fd, offset (lo, hi), a 32-bit len, advice */
		a[1] = calls_pair(a, 1);
		a[2] = a[3];
		a[3] = a[4];
		a[4] = a[5] = 0;
		break;
	case SYS_fadvise64_64:     /* fd, offset (lo, hi), len (lo, hi), advice */
	case SYS_sync_file_range:  /* fd, offset (lo, hi), nbytes (lo, hi), flags */
		a[1] = calls_pair(a, 1);
		a[2] = calls_pair(a, 3);
		a[3] = a[5];
		a[4] = a[5] = 0;
		break;
	case SYS_fallocate:        /* fd, mode, offset (lo, hi), len (lo, hi) */
		a[2] = calls_pair(a, 2);
		a[3] = calls_pair(a, 4);
		a[4] = a[5] = 0;
		break;
	case SYS_ftruncate64:      /* fd, length (lo, hi) */
		a[1] = calls_pair(a, 1);
		a[2] = 0;
		break;
	case SYS_mmap2:            /* its offset counts 4096-byte units, whatever the page size */
		a[5] = (a[5] & 0xffffffffu) * 4096;
		break;
	default:
		break;
	}
#else
	(void)nr;
	(void)a;
#endif
}

/* i386: a result is a 32-bit register (an error's sign-extended, else unsigned). */
int64_t
calls_fold_rval(int64_t rval, bool is_error)
{
#if defined(__i386__)
	return is_error ? (int64_t)(int32_t)rval : (int64_t)(uint32_t)rval;
#else
	(void)is_error;
	return rval;
#endif
}

/* The row of syscall nr, or NULL. */
const struct call_row *
calls_find(uint64_t nr)
{
	for (size_t i = 0; i < calls_n; i++)
		if ((uint64_t)calls_table[i].nr == nr)
			return &calls_table[i];
	return NULL;
}

/* The row named name, or NULL. */
const struct call_row *
calls_named(const char *name)
{
	for (size_t i = 0; i < calls_n; i++)
		if (strcmp(calls_table[i].name, name) == 0)
			return &calls_table[i];
	return NULL;
}

/* A new fd: the result of an open, dup or io_uring_setup, and of fcntl's F_DUPFD*. */
bool
calls_made_fd(const struct call_row *c, const uint64_t *a, int64_t rval, bool is_error)
{
	if (c == NULL || is_error || rval < 0 || !(c->flags & CALL_NEWFD))
		return false;
	if (c->flags & CALL_CMD)
		return (int)a[c->flg] == F_DUPFD || (int)a[c->flg] == F_DUPFD_CLOEXEC;
	return true;
}

/* The fd argument, unless a path beside it names another file. */
int
calls_fd(const struct call_row *c, const uint64_t *a, const struct peek *m)
{
	char name[2];

	if (c == NULL || !(c->flags & CALL_FD))
		return -1;
	if (c->flags & CALL_EMPTY_PATH) {
		peek_str(m, a[c->path], name, sizeof name);
		if (name[0] != '\0' || !((int)a[c->flg] & AT_EMPTY_PATH))
			return -1;
	}
	return (int)a[c->fd];
}
