/* SPDX-License-Identifier: MIT */
/* test-util.h: what every Check program here does the same way. */
#ifndef IOBUFVIZ_TEST_UTIL_H
#define IOBUFVIZ_TEST_UTIL_H

#include <stddef.h>

#include <check.h>

/*
 * Path of rel in the source tree into buf: under $IOBUFVIZ_SRCDIR (set by make check),
 * else under the source dir configure saw. Return buf.
 */
const char *test_util_src_path(const char *rel, char *buf, size_t len);

/* Run every test of s, free it, remove leftover scratch dirs; return the exit status. */
int test_util_run(Suite *s);

/*
 * Skipping. Check has no way for a running test to say "skipped", so a test that needs
 * something this machine may lack is decided on before it is added: test_util_add(tc, t,
 * why) adds t when why is NULL; otherwise it leaves t out and prints, on stdout (the test's
 * .log), the one line "SKIP: PROGRAM: TEST: why" that tools/run-tests counts.
 *
 * The test_util_need_* probes try the real thing (the syscall, the open, the mount) and
 * return NULL when it works here, else the reason (valid until that probe is called again).
 * A probe that cannot tell (it could not even make its scratch dir) returns NULL too: the
 * test then runs and says what is wrong. Scratch dirs are made as scratch_mkdir(NULL) makes
 * them: under $TMPDIR or /tmp.
 */
void test_util_add(TCase *tc, const TTest *t, const char *why);

/* The first of two reasons that is not NULL (both NULL: NULL). */
const char *test_util_or(const char *why, const char *why2);

/* Scratch files are on a filesystem with a disk behind it (not tmpfs or ramfs). */
const char *test_util_need_disk(void);

/* Scratch files are on ext4 (delayed allocation, unwritten extents). */
const char *test_util_need_ext4(void);

/* FIEMAP answers for scratch files. */
const char *test_util_need_fiemap(void);

/* A scratch dir can be made in /dev/shm, and it is tmpfs. */
const char *test_util_need_shm(void);

/* cachestat(2) answers for scratch files and IOBUFVIZ_NO_CACHESTAT does not turn it off. */
const char *test_util_need_cachestat(void);

/* A process may ptrace (PTRACE_SEIZE) a child it forked, as the runner does its worker. */
const char *test_util_need_ptrace(void);

/* A process may load a seccomp filter (no_new_privs, SECCOMP_SET_MODE_FILTER) and the kernel
 * has SECCOMP_RET_TRACE, as the program tracer needs (prog/launch.c). */
const char *test_util_need_seccomp(void);

/* /usr/bin/strace is there and can trace a program here. */
const char *test_util_need_strace(void);

/* A write() of bytes with O_DIRECT works in a scratch dir under parent (NULL: $TMPDIR). */
const char *test_util_need_odirect(const char *parent, size_t bytes);

/* O_DIRECT opens in a scratch dir under parent, but a write() of bytes is EINVAL there. */
const char *test_util_need_odirect_refusal(const char *parent, size_t bytes);

/* A dir of mode 0333 cannot be listed by this process (not root, no CAP_DAC_READ_SEARCH). */
const char *test_util_need_dir_perms(void);

/* A new mount namespace can be made private (unshare, then / MS_PRIVATE): not so in a chroot,
 * whose / is no mount point, nor without CAP_SYS_ADMIN. Mounts there would reach the host. */
const char *test_util_need_private_mounts(void);

/* User nobody (65534) can run the iobufviz binary ($IOBUFVIZ_BIN) from where it was built. */
const char *test_util_need_nobody_exec(void);

#endif
