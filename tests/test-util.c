/* SPDX-License-Identifier: MIT */
/* test-util.c: what every Check program here does the same way. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/seccomp.h>

#include "probe/probe.h"
#include "scratch/scratch.h"
#include "test-util.h"

/* cachestat(2), as src/probe/cache.c declares it (Debian 12's headers lack it). */
#define TU_NR_CACHESTAT 451

/* Path of a file of the source tree. */
const char *
test_util_src_path(const char *rel, char *buf, size_t len)
{
	const char *top = getenv("IOBUFVIZ_SRCDIR");

	snprintf(buf, len, "%s/%s", top != NULL && *top != '\0' ? top : IOBUFVIZ_SRCDIR, rel);
	return buf;
}

/* Run a suite the way make check wants it (CK_VERBOSITY picks the verbosity). */
int
test_util_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	scratch_cleanup();
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Add t to tc, or leave it out and print why (one SKIP line). */
void
test_util_add(TCase *tc, const TTest *t, const char *why)
{
	if (why == NULL) {
		tcase_add_test(tc, t);
		return;
	}
	printf("SKIP: %s: %s: %s\n", program_invocation_short_name, t->name, why);
	/* Flushed now: Check forks for each test, and a child must not print it again. */
	fflush(stdout);
}

/* The first reason given. */
const char *
test_util_or(const char *why, const char *why2)
{
	return why != NULL ? why : why2;
}

/* Size of the buffer each probe keeps its reason in. */
#define TU_WHY 192

/* Format a reason into buf (TU_WHY bytes, the probe's own); return buf. */
static const char *
tu_because(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, TU_WHY, fmt, ap);
	va_end(ap);
	return buf;
}

/* Where scratch_mkdir(parent) makes its dirs. */
static const char *
tu_parent(const char *parent)
{
	if (parent == NULL || *parent == '\0')
		parent = getenv("TMPDIR");
	return parent != NULL && *parent != '\0' ? parent : "/tmp";
}

/*
 * A fresh scratch dir under parent with the file "probe" in it, opened with flags: the fd
 * and *idx, or -1 with errno (and nothing left behind).
 */
static int
tu_probe_file(const char *parent, int flags, int *idx)
{
	int fd, e;

	*idx = scratch_mkdir(parent);
	if (*idx < 0)
		return -1;
	fd = scratch_create(*idx, "probe", flags);
	if (fd < 0) {
		e = errno;
		scratch_remove(*idx);
		*idx = -1;
		errno = e;
	}
	return fd;
}

/* Filesystem of scratch files under parent, as the probes name it, into fs; -1 if unknown. */
static int
tu_fs(const char *parent, char *fs, size_t len)
{
	int idx, fd = tu_probe_file(parent, O_RDWR, &idx);

	if (fd < 0)
		return -1;
	probe_fs(fd, fs, len, NULL, 0);
	close(fd);
	scratch_remove(idx);
	return 0;
}

/* Disk-backed scratch files. */
const char *
test_util_need_disk(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	char fs[32];

	if (!done && tu_fs(NULL, fs, sizeof fs) == 0 &&
	    (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0))
		why = tu_because(buf, "scratch files under %s are in memory (%s), no disk "
		                 "behind them", tu_parent(NULL), fs);
	done = true;
	return why;
}

/* ext4 scratch files. */
const char *
test_util_need_ext4(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	char fs[32];

	if (!done && tu_fs(NULL, fs, sizeof fs) == 0 && strcmp(fs, "ext4") != 0)
		why = tu_because(buf, "scratch files under %s are on %s, not ext4",
		                 tu_parent(NULL), fs);
	done = true;
	return why;
}

/* FIEMAP on a scratch file. */
const char *
test_util_need_fiemap(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	struct fiemap fm;
	char fs[32];
	int idx, fd;

	if (done)
		return why;
	done = true;
	fd = tu_probe_file(NULL, O_RDWR, &idx);
	if (fd < 0)
		return why;
	memset(&fm, 0, sizeof fm);
	fm.fm_length = FIEMAP_MAX_OFFSET;
	/* The errors probe_disk takes for "no disk here"; any other is the test's to report. */
	if (write(fd, "x", 1) == 1 && ioctl(fd, FS_IOC_FIEMAP, &fm) != 0 &&
	    (errno == EOPNOTSUPP || errno == ENOTTY)) {
		probe_fs(fd, fs, sizeof fs, NULL, 0);
		why = tu_because(buf, "no FIEMAP for scratch files under %s (%s)",
		                 tu_parent(NULL), fs);
	}
	close(fd);
	scratch_remove(idx);
	return why;
}

/* tmpfs in /dev/shm. */
const char *
test_util_need_shm(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	char fs[32];

	if (done)
		return why;
	done = true;
	if (tu_fs("/dev/shm", fs, sizeof fs) != 0)
		why = tu_because(buf, "cannot make a scratch dir in /dev/shm: %s", strerror(errno));
	else if (strcmp(fs, "tmpfs") != 0)
		why = tu_because(buf, "/dev/shm is %s, not tmpfs", fs);
	return why;
}

/* cachestat(2) on a scratch file. */
const char *
test_util_need_cachestat(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	struct { uint64_t off, len; } range = { 0, 0 };
	struct { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, recent; } cs;
	const char *off = getenv("IOBUFVIZ_NO_CACHESTAT");
	int idx, fd;

	if (done)
		return why;
	done = true;
	/* The same test as probe_cache_forced_off in src/probe/cache.c. */
	if (off != NULL && *off != '\0' && strcmp(off, "0") != 0)
		return why = tu_because(buf, "IOBUFVIZ_NO_CACHESTAT=%s turns cachestat(2) off",
		                        off);
	fd = tu_probe_file(NULL, O_RDWR, &idx);
	if (fd < 0)
		return why;
	/* The errors probe_cache takes for "not on this kernel": it falls back to mincore. */
	if (syscall(TU_NR_CACHESTAT, fd, &range, &cs, 0) != 0 &&
	    (errno == ENOSYS || errno == EPERM || errno == EOPNOTSUPP))
		why = tu_because(buf, "cachestat(2) not available: %s", strerror(errno));
	close(fd);
	scratch_remove(idx);
	return why;
}

/* PTRACE_SEIZE of a forked child. */
const char *
test_util_need_ptrace(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	pid_t pid;

	if (done)
		return why;
	done = true;
	pid = fork();
	if (pid < 0)
		return why;
	if (pid == 0)
		for (;;)
			pause();
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) != 0)
		why = tu_because(buf, "ptrace refused: %s (under strace or gdb? ptrace_scope?)",
		                 strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return why;
}

/* A seccomp filter, loaded in a child, and SECCOMP_RET_TRACE known to the kernel. */
const char *
test_util_need_seccomp(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	uint32_t action = SECCOMP_RET_TRACE;
	pid_t pid;
	int st;

	if (done)
		return why;
	done = true;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
		return why = tu_because(buf, "seccomp: SECCOMP_RET_TRACE not available: %s",
		                        strerror(errno));
	pid = fork();
	if (pid < 0)
		return why;
	if (pid == 0) {
		struct sock_filter f[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
		struct sock_fprog p = { .len = 1, .filter = f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			_exit(1);
		_exit(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p) == 0 ? 0 : 2);
	}
	if (waitpid(pid, &st, 0) == pid && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
		why = tu_because(buf, "seccomp filters refused here (%s)",
		                 WIFEXITED(st) && WEXITSTATUS(st) == 1 ? "no_new_privs" :
		                 "SECCOMP_SET_MODE_FILTER");
	return why;
}

/* strace, tracing true(1). */
const char *
test_util_need_strace(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	pid_t pid;
	int st;

	if (done)
		return why;
	done = true;
	if (access("/usr/bin/strace", X_OK) != 0)
		return why = tu_because(buf, "no /usr/bin/strace: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return why;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		execl("/usr/bin/strace", "strace", "-qq", "-o", "/dev/null", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == pid && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		why = tu_because(buf, "strace cannot trace here (status %#x): ptrace refused?", st);
	return why;
}

/*
 * Open a scratch file under parent with O_DIRECT and write bytes from page-aligned memory.
 * *open_err and *write_err get the errno of each (0: it worked, EINVAL: refused); fs names
 * the filesystem. -1 if that cannot be told (no scratch dir, another error).
 */
static int
tu_odirect(const char *parent, size_t bytes, int *open_err, int *write_err, char *fs,
           size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
	void *buf = NULL;
	int idx, fd;

	*open_err = *write_err = 0;
	snprintf(fs, len, "?");
	if (tu_fs(parent, fs, len) != 0)
		return -1;
	/* EINVAL is the filesystem saying no; any other error the test is left to meet. */
	fd = tu_probe_file(parent, O_RDWR | O_DIRECT, &idx);
	if (fd < 0) {
		*open_err = errno;
		return errno == EINVAL ? 0 : -1;
	}
	if (posix_memalign(&buf, (size_t)page, size) != 0) {
		close(fd);
		scratch_remove(idx);
		return -1;
	}
	memset(buf, 'd', size);
	errno = 0;
	if (write(fd, buf, bytes) != (ssize_t)bytes)
		*write_err = errno != 0 ? errno : EIO;
	free(buf);
	close(fd);
	scratch_remove(idx);
	return *write_err == 0 || *write_err == EINVAL ? 0 : -1;
}

/* An O_DIRECT write of bytes. */
const char *
test_util_need_odirect(const char *parent, size_t bytes)
{
	static char buf[TU_WHY];
	int oe, we;
	char fs[32];

	if (tu_odirect(parent, bytes, &oe, &we, fs, sizeof fs) != 0)
		return NULL;
	if (oe != 0)
		return tu_because(buf, "no O_DIRECT on %s (under %s): %s", fs, tu_parent(parent),
		                  strerror(oe));
	if (we != 0)
		return tu_because(buf, "O_DIRECT write of %zu bytes on %s (under %s): %s", bytes,
		                  fs, tu_parent(parent), strerror(we));
	return NULL;
}

/* An O_DIRECT write of bytes that the filesystem refuses. */
const char *
test_util_need_odirect_refusal(const char *parent, size_t bytes)
{
	static char buf[TU_WHY];
	int oe, we;
	char fs[32];

	if (tu_odirect(parent, bytes, &oe, &we, fs, sizeof fs) != 0)
		return NULL;
	if (oe != 0)
		return tu_because(buf, "no O_DIRECT on %s (under %s): %s", fs, tu_parent(parent),
		                  strerror(oe));
	if (we == 0)
		return tu_because(buf, "O_DIRECT on %s (under %s) takes a %zu-byte write: no "
		                  "alignment rule to see", fs, tu_parent(parent), bytes);
	return NULL;
}

/* A mode 0333 dir that we cannot list. */
const char *
test_util_need_dir_perms(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	char sub[PATH_MAX];
	int idx, fd;

	if (done)
		return why;
	done = true;
	idx = scratch_mkdir(NULL);
	if (idx < 0)
		return why;
	snprintf(sub, sizeof sub, "%s/wx", scratch_dir(idx));
	if (mkdir(sub, 0333) == 0 && chmod(sub, 0333) == 0) {
		fd = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			why = tu_because(buf, "mode 0333 does not keep this process out of a "
			                 "dir (root or CAP_DAC_READ_SEARCH): nothing to show");
		}
	}
	rmdir(sub);
	scratch_remove(idx);
	return why;
}

/* A child: unshare(CLONE_NEWNS), then / made private recursively. */
const char *
test_util_need_private_mounts(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	int st = 0;
	pid_t pid;

	if (done)
		return why;
	done = true;
	pid = fork();
	if (pid < 0)
		return why;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) != 0)
			_exit(10 + (errno & 0xff) % 100);
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(120);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 120)
		why = tu_because(buf, "/ cannot be made private in a new mount namespace (a chroot, "
		                 "whose / is no mount point?): a test mount could reach the host");
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		why = tu_because(buf, "no new mount namespace here (unshare refused: not root?)");
	return why;
}

/* A child as user nobody: access(X_OK) on the binary (every dir above it must be searchable). */
const char *
test_util_need_nobody_exec(void)
{
	static char buf[TU_WHY];
	static const char *why;
	static bool done;
	const char *bin = getenv("IOBUFVIZ_BIN");
	int st = 0;
	pid_t pid;

	if (done)
		return why;
	done = true;
	if (bin == NULL)
		return why;
	pid = fork();
	if (pid < 0)
		return why;
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)
			_exit(2);
		_exit(access(bin, X_OK) == 0 ? 0 : 1);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
		why = tu_because(buf, "user nobody cannot run %s (built under a directory only its "
		                 "owner may enter, such as /root)", bin);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		why = tu_because(buf, "cannot become user nobody here (not root?)");
	return why;
}
