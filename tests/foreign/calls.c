/* SPDX-License-Identifier: MIT */
/* calls.c: every system call of the trace table that a program can make on a file, on the two
 * files it is given: for tests/calls-truth.sh to trace with iobufviz and strace, side by side. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* Call A (a system call) and say on stderr which one failed if it did not return WANT. */
#define CALL(want, a) calls_check((long)(a), (long)(want), #a)

static int calls_bad;

/* Note a call whose result was not the one wanted. */
static void
calls_check(long got, long want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "calls: %s = %ld, wanted %ld (%m)\n", what, got, want);
		calls_bad = 1;
	}
}

/* Make the calls on argv[1] (created) and argv[2] (the copies' target). */
int
main(int argc, char **argv)
{
	static char buf[20000];
	struct iovec iov[2] = { { buf, 10 }, { buf + 10, 20 } };
	struct iovec wiov[2] = { { buf, 30 }, { buf + 30, 40 } };
	struct open_how how = { .flags = O_RDONLY };
	struct io_uring_params params;
	struct stat st;
	struct statx stx;
	loff_t in, out;        /* copy_file_range and splice take loff_t, on i386 too */
	off_t sf;
	int fd, fd2, ro, pipefd[2], ring, n;
	char *map;

	if (argc < 3)
		return 2;
	memset(buf, 'c', sizeof buf);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 2;
	CALL(10000, write(fd, buf, 10000));
	CALL(100, pwrite(fd, buf, 100, 20000));
	CALL(0, lseek(fd, 0, SEEK_SET));
	CALL(20090, lseek(fd, -10, SEEK_END));
	CALL(-1, lseek(fd, -1, SEEK_SET));
	CALL(0, lseek(fd, 0, SEEK_SET));
	CALL(4096, read(fd, buf, 4096));
	CALL(100, pread(fd, buf, 100, 8192));
	CALL(-1, pread(fd, buf, 10, -1));
	CALL(30, readv(fd, iov, 2));
	CALL(70, writev(fd, wiov, 2));
	CALL(30, preadv(fd, iov, 2, 4096));
	CALL(70, pwritev(fd, wiov, 2, 0));
	CALL(30, syscall(SYS_preadv2, fd, iov, 2, 100L, 0L, 0));
	CALL(70, syscall(SYS_pwritev2, fd, wiov, 2, -1L, 0L, RWF_DSYNC));
	CALL(0, posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL));
	CALL(0, posix_fadvise(fd, 4096, 8192, POSIX_FADV_WILLNEED));
	CALL(0, posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED));
	CALL(0, sync_file_range(fd, 0, 4096, SYNC_FILE_RANGE_WRITE));
	CALL(0, sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
	                                  SYNC_FILE_RANGE_WAIT_AFTER));
	CALL(0, fallocate(fd, 0, 0, 24576));
	CALL(0, fallocate(fd, FALLOC_FL_KEEP_SIZE, 24576, 4096));
	CALL(0, ftruncate(fd, 30000));
	CALL(0, fsync(fd));
	CALL(0, fdatasync(fd));
	CALL(0, syncfs(fd));
	CALL(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
	CALL(0, fcntl(fd, F_SETFL, O_APPEND));
	CALL(0, fcntl(fd, F_SETFL, 0));
	CALL(0, fcntl(fd, F_SETFD, FD_CLOEXEC));
	CALL(FD_CLOEXEC, fcntl(fd, F_GETFD));
	n = fcntl(fd, F_DUPFD, 10);
	CALL(0, close(n));
	CALL(0, fstat(fd, &st));
	CALL(0, statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	CALL(0, ioctl(fd, FIONREAD, &n));
	CALL(0, flock(fd, LOCK_EX | LOCK_NB));
	CALL(0, flock(fd, LOCK_UN));
	map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	if (map == MAP_FAILED)
		return 2;
	memcpy(map, "stored through the mapping", 26);
	CALL(0, msync(map, 8192, MS_SYNC));
	CALL(0, munmap(map, 8192));
	fd2 = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd2 < 0)
		return 2;
	CALL(0, lseek(fd, 0, SEEK_SET));
	CALL(5000, copy_file_range(fd, NULL, fd2, NULL, 5000, 0));
	in = 1000;
	out = 10000;
	CALL(3000, copy_file_range(fd, &in, fd2, &out, 3000, 0));
	sf = 0;
	CALL(2000, sendfile(fd2, fd, &sf, 2000));
	CALL(100, sendfile(fd2, fd, NULL, 100));
	if (pipe(pipefd) != 0)
		return 2;
	in = 512;
	CALL(1000, splice(fd, &in, pipefd[1], NULL, 1000, 0));
	out = 20000;
	CALL(1000, splice(pipefd[0], NULL, fd2, &out, 1000, SPLICE_F_MOVE));
	CALL(0, close(pipefd[0]));
	CALL(0, close(pipefd[1]));
	n = dup(fd);
	CALL(0, close(n));
	CALL(20, dup2(fd, 20));
	CALL(21, dup3(fd, 21, O_CLOEXEC));
	CALL(0, close(20));
	CALL(0, close(21));
	ro = (int)syscall(SYS_openat2, AT_FDCWD, argv[2], &how, sizeof how);
	if (ro >= 0)
		CALL(0, close(ro));
#ifdef SYS_open
	ro = (int)syscall(SYS_open, argv[2], O_RDONLY);
	CALL(0, close(ro));
#endif
#ifdef SYS_creat
	ro = (int)syscall(SYS_creat, argv[2], 0644);
	CALL(0, close(ro));
#endif
	/* io_uring: a ring, and one enter that submits nothing (it may be refused: ENOSYS, EPERM). */
	memset(&params, 0, sizeof params);
	ring = (int)syscall(SYS_io_uring_setup, 4, &params);
	if (ring >= 0) {
		CALL(0, syscall(SYS_io_uring_enter, ring, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0));
		CALL(0, close(ring));
	}
	CALL(0, close(fd2));
	CALL(0, close(fd));
	CALL(-1, close(fd));
	return calls_bad;
}
