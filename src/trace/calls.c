/* SPDX-License-Identifier: MIT */
/* calls.c: the table of system calls a traced program stops on (see trace/calls.h). */
#include <config.h>

#include <sys/syscall.h>

#include "trace/calls.h"

/* The calls that stop the tracee; everything else runs untraced. */
const struct prog_call prog_calls[] = {
	{ SYS_read, "read", 0, 2, -1, PK_FD },
	{ SYS_write, "write", 0, 2, -1, PK_FD },
	{ SYS_pread64, "pread64", 0, 2, 3, PK_FD },
	{ SYS_pwrite64, "pwrite64", 0, 2, 3, PK_FD },
	{ SYS_readv, "readv", 0, -1, -1, PK_FD },
	{ SYS_writev, "writev", 0, -1, -1, PK_FD },
	{ SYS_preadv, "preadv", 0, -1, 3, PK_FD },
	{ SYS_pwritev, "pwritev", 0, -1, 3, PK_FD },
	{ SYS_preadv2, "preadv2", 0, -1, 3, PK_FD },
	{ SYS_pwritev2, "pwritev2", 0, -1, 3, PK_FD },
	{ SYS_lseek, "lseek", 0, -1, 1, PK_FD },
	{ SYS_fsync, "fsync", 0, -1, -1, PK_FD },
	{ SYS_fdatasync, "fdatasync", 0, -1, -1, PK_FD },
	{ SYS_sync_file_range, "sync_file_range", 0, 2, 1, PK_FD },
	{ SYS_fadvise64, "fadvise64", 0, 2, 1, PK_FD },
	{ SYS_fallocate, "fallocate", 0, 3, 2, PK_FD },
	{ SYS_ftruncate, "ftruncate", 0, -1, 1, PK_FD },
#ifdef SYS_open
	{ SYS_open, "open", -1, -1, -1, PK_OPEN },
#endif
#ifdef SYS_creat
	{ SYS_creat, "creat", -1, -1, -1, PK_OPEN },
#endif
	{ SYS_openat, "openat", -1, -1, -1, PK_OPENAT },
	{ SYS_openat2, "openat2", -1, -1, -1, PK_OPENAT },
	{ SYS_close, "close", 0, -1, -1, PK_CLOSE },
	{ SYS_mmap, "mmap", 4, 1, 5, PK_FD },
	{ SYS_msync, "msync", -1, 1, -1, PK_FD },
	{ SYS_munmap, "munmap", -1, 1, -1, PK_FD },
	{ SYS_dup, "dup", 0, -1, -1, PK_DUP },
#ifdef SYS_dup2
	{ SYS_dup2, "dup2", 0, -1, -1, PK_DUP },
#endif
	{ SYS_dup3, "dup3", 0, -1, -1, PK_DUP },
	{ SYS_fcntl, "fcntl", 0, -1, -1, PK_DUP },
#ifdef SYS_fstat
	{ SYS_fstat, "fstat", 0, -1, -1, PK_FD },
#endif
	{ SYS_newfstatat, "newfstatat", 0, -1, -1, PK_STATAT },
	{ SYS_statx, "statx", 0, -1, -1, PK_STATAT },
	{ SYS_execve, "execve", -1, -1, -1, PK_EXEC },
	{ SYS_exit_group, "exit_group", -1, -1, -1, PK_EXIT },
	{ SYS_prctl, "prctl", -1, -1, -1, PK_MARK },
};

/* How many. */
const size_t prog_calls_n = sizeof prog_calls / sizeof prog_calls[0];

/* The table entry of syscall nr, or NULL. */
const struct prog_call *
prog_calls_find(uint64_t nr)
{
	for (size_t i = 0; i < prog_calls_n; i++)
		if ((uint64_t)prog_calls[i].nr == nr)
			return &prog_calls[i];
	return NULL;
}

_Static_assert(sizeof prog_calls / sizeof prog_calls[0] <= PROG_CALLS_MAX,
               "the seccomp filter is built for at most PROG_CALLS_MAX calls");
