/* SPDX-License-Identifier: MIT */
/* check-portable.c: what the disk probe tells on other filesystems and outside the mount table. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/text.h"
#include "probe/probe.h"
#include "scratch/scratch.h"
#include "probe/snapshot.h"
#include "test-util.h"

/* The disk-backed scratch dir, made by main() before Check forks (see check-probes.c). */
static int disk_dir = -1;

/* "/dev/" and the kernel's name of the block device dev, straight from sysfs, or "". */
static void
portable_sysfs_name(dev_t dev, char *buf, size_t len)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	buf[0] = '\0';
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	snprintf(buf, len, "/dev/%.64s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

/*
 * In a chroot /proc/self/mountinfo is missing or names other paths: with /proc hidden under
 * an empty tmpfs (a private mount namespace), the device still comes from st_dev.
 */
START_TEST(test_device_without_mountinfo)
{
	char want[128], dev[64], fs[32];
	struct stat st;
	int fd = scratch_create(disk_dir, "dev", O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	portable_sysfs_name(st.st_dev, want, sizeof want);
	ck_assert_msg(want[0] != '\0', "no /sys/dev/block entry for %u:%u", major(st.st_dev),
	              minor(st.st_dev));
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("tmpfs", "/proc", "tmpfs", 0, "size=16k"), 0);
	ck_assert(access("/proc/self/mountinfo", F_OK) != 0);
	ck_assert_int_eq(probe_disk_device(fd, dev, sizeof dev), 0);
	ck_assert_str_eq(dev, want);
	probe_fs(fd, fs, sizeof fs, dev, sizeof dev);
	ck_assert_str_eq(dev, want);
	umount2("/proc", MNT_DETACH);
	close(fd);
}
END_TEST

/*
 * Blocks past the end of the file (fallocate KEEP_SIZE here; xfs's speculative
 * preallocation in life) are not the file's own allocation: they are counted apart.
 */
START_TEST(test_beyond_eof)
{
	struct snap_disk *d = calloc(1, sizeof *d);
	char buf[4096] = "x";
	int fd = scratch_create(disk_dir, "prealloc", O_RDWR);

	ck_assert_ptr_nonnull(d);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 1 << 20), 0);
	ck_assert_int_eq(probe_disk(fd, d), 0);
	ck_assert_uint_eq(d->allocated_bytes, sizeof buf);
	ck_assert_uint_eq(d->beyond_eof_bytes, (1 << 20) - sizeof buf);
	ck_assert_uint_eq(d->unwritten_bytes, 0);
	ck_assert_msg(strstr(d->note, "beyond the end of the file") != NULL, "note: %s", d->note);
	close(fd);
	free(d);
}
END_TEST

/* Run cmd (sh -c) and keep the first line it prints in out. 0 if it exited 0. */
static int
portable_run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	char line[256];
	int rc;

	if (out != NULL && len > 0)
		out[0] = '\0';
	if (p == NULL)
		return -1;
	/* Read it all: closing the pipe early would kill cmd with SIGPIPE. */
	while (fgets(line, sizeof line, p) != NULL)
		if (out != NULL && len > 0 && out[0] == '\0') {
			size_t n = strcspn(line, "\n");

			n = n < len - 1 ? n : len - 1;
			memcpy(out, line, n);
			out[n] = '\0';
		}
	rc = pclose(p);
	return rc == 0 ? 0 : -1;
}

/*
 * A btrfs made here on a loop device: its st_dev is anonymous, yet the device is named; a
 * 100-byte file is kept inline (no data block), measured with filefrag -v as
 * "last,not_aligned,inline,eof" over 4096 bytes at physical 0.
 */
START_TEST(test_btrfs)
{
	struct snap_disk *d = calloc(1, sizeof *d);
	char img[PATH_MAX], mnt[PATH_MAX], path[PATH_MAX + 8], cmd[6 * PATH_MAX], loop[64];
	char dev[64] = "", fs[32] = "", lesson[PATH_MAX], direct[64] = "";
	int mounted = -1, fd, rc = -1;
	struct stat st = { 0 };

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(scratch_path(disk_dir, "btrfs.img", img, sizeof img));
	ck_assert_ptr_nonnull(scratch_path(disk_dir, "mnt", mnt, sizeof mnt));
	ck_assert_int_eq(mkdir(mnt, 0700), 0);
	snprintf(cmd, sizeof cmd, "truncate -s 128M '%.1000s' && mkfs.btrfs -q -f '%.1000s' >/dev/null 2>&1 "
	         "&& losetup -f --show '%.1000s'", img, img, img);
	ck_assert_msg(portable_run(cmd, loop, sizeof loop) == 0 && loop[0] == '/',
	              "could not make a btrfs image on a loop device");
	if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		mounted = mount(loop, mnt, "btrfs", 0, NULL);
	if (mounted == 0) {
		snprintf(path, sizeof path, "%s/small", mnt);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 && write(fd, "0123456789", 10) == 10 && pwrite(fd, cmd, 90, 10) == 90 &&
		    fsync(fd) == 0) {
			fstat(fd, &st);
			probe_fs(fd, fs, sizeof fs, dev, sizeof dev);
			rc = probe_disk(fd, d);
		}
		if (fd >= 0)
			close(fd);
		/* The O_DIRECT lesson: misaligned calls succeed, buffered (not a failure): the
		 * steps whose expectations or sentences say so, each counted once. */
		snprintf(cmd, sizeof cmd, "\"$IOBUFVIZ_BIN\" --headless --format=tap --dir '%.1000s' "
		         "'%.1000s' >'%.1000s.tap' 2>&1; rc=$?; echo \"$rc $(grep '# SKIP not "
		         "observable here: btrfs ran this O_DIRECT call as buffered I/O' "
		         "'%.1000s.tap' | sed 's/^ok [0-9]* - step \\([0-9]*\\) .*/\\1/' | sort -u | "
		         "wc -l) $(grep -c '^not ok' '%.1000s.tap')\"", mnt,
		         test_util_src_path("scenarios/13.6-direct-io.yaml", lesson, sizeof lesson),
		         img, img, img);
		portable_run(cmd, direct, sizeof direct);
		umount2(mnt, 0);
	}
	/* The scratch dir's cleanup removes files, never a directory: this one is ours to. */
	rmdir(mnt);
	snprintf(cmd, sizeof cmd, "losetup -d '%s'", loop);
	portable_run(cmd, NULL, 0);
	ck_assert_msg(mounted == 0, "mount %s on %s: %s", loop, mnt, strerror(errno));
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(major(st.st_dev), 0);
	ck_assert_str_eq(fs, "btrfs");
	ck_assert_str_eq(dev, loop);
	ck_assert_str_eq(d->device, loop);
	ck_assert_uint_eq(d->inline_bytes, 100);
	ck_assert_uint_eq(d->allocated_bytes, 0);
	ck_assert_msg(strstr(d->note, "inline") != NULL, "note: %s", d->note);
	/* Exit 0, the three calls the book expects EINVAL of named as buffered (their EINVAL not
	 * observable here), nothing failed; the 512-byte read (less than btrfs's 4 KiB sector)
	 * succeeds as the book's does, and the lesson's own words for btrfs say it went
	 * through the page cache. */
	ck_assert_str_eq(direct, "0 3 0");
	free(d);
}
END_TEST

/*
 * With /tmp on tmpfs and no $TMPDIR, the scratch file goes to /var/tmp and the transcript
 * says why; a disk lesson given a tmpfs --dir runs there and says once what it cannot show;
 * with /var/tmp on tmpfs too, to $XDG_CACHE_HOME, named whole however long.
 */
START_TEST(test_scratch_not_on_tmpfs)
{
	char cmd[3 * PATH_MAX], out[512], lesson[PATH_MAX], top[PATH_MAX], xdg[PATH_MAX];
	char cwd[1024], want[PATH_MAX + 64];
	struct text_buf why = { 0 };
	const char *parent;

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("tmpfs", "/tmp", "tmpfs", 0, "size=1m"), 0);
	unsetenv("TMPDIR");
	parent = scratch_default_parent(&why);
	ck_assert_str_eq(parent, "/var/tmp");
	ck_assert_str_eq(text_str(&why), "scratch on /var/tmp: /tmp is tmpfs");
	snprintf(cmd, sizeof cmd, "\"$IOBUFVIZ_BIN\" --headless '%.1000s' | grep -E "
	         "'^(scratch|file) ' | tr '\\n' '|'",
	         test_util_src_path("tests/cli-minimal.yaml", lesson, sizeof lesson));
	portable_run(cmd, out, sizeof out);
	ck_assert_msg(strncmp(out, "file     /var/tmp/iobufviz.", 27) == 0 &&
	              strstr(out, "|scratch  scratch on /var/tmp: /tmp is tmpfs|") != NULL,
	              "header: %s", out);
	/* $TMPDIR is the user's choice, even on tmpfs. */
	setenv("TMPDIR", "/tmp", 1);
	ck_assert_str_eq(scratch_default_parent(&why), "/tmp");
	ck_assert_str_eq(text_str(&why), "");
	/* A lesson about the disk, given a tmpfs --dir: it runs, and says what it cannot show. */
	snprintf(cmd, sizeof cmd, "\"$IOBUFVIZ_BIN\" --headless --dir /tmp '%.1000s' | grep -c "
	         "'^scratch  the scratch file is on tmpfs, which keeps data in memory; there is "
	         "no disk: this lesson.s disk facts cannot be shown here'",
	         test_util_src_path("scenarios/13.1-buffer-cache.yaml", lesson, sizeof lesson));
	portable_run(cmd, out, sizeof out);
	ck_assert_str_eq(out, "1");
	/* Neither /tmp nor /var/tmp with a disk: $XDG_CACHE_HOME, a path of about 3,000 bytes
	 * here, named whole in why and in the transcript's head. */
	ck_assert_int_eq(mount("tmpfs", "/var/tmp", "tmpfs", 0, "size=1m"), 0);
	unsetenv("TMPDIR");
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	snprintf(top, sizeof top, "%s/portable-xdg-%d", cwd, (int)getpid());
	snprintf(xdg, sizeof xdg, "%s", top);
	for (int i = 0; i < 14; i++)
		snprintf(xdg + strlen(xdg), sizeof xdg - strlen(xdg), "/%0200d", i);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", xdg);
	ck_assert_int_eq(portable_run(cmd, NULL, 0), 0);
	setenv("XDG_CACHE_HOME", xdg, 1);
	ck_assert_str_eq(scratch_default_parent(&why), xdg);
	snprintf(want, sizeof want, "scratch on %s ($XDG_CACHE_HOME): /tmp is tmpfs", xdg);
	ck_assert_str_eq(text_str(&why), want);
	snprintf(cmd, sizeof cmd, "\"$IOBUFVIZ_BIN\" --headless '%s' | grep -cxF 'scratch  %s'",
	         test_util_src_path("tests/cli-minimal.yaml", lesson, sizeof lesson), want);
	portable_run(cmd, out, sizeof out);
	ck_assert_str_eq(out, "1");
	text_buf_free(&why);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	portable_run(cmd, NULL, 0);
	umount2("/var/tmp", MNT_DETACH);
	umount2("/tmp", MNT_DETACH);
}
END_TEST

/* Why /var/tmp cannot stand in for a tmpfs /tmp here, or NULL. */
static const char *
portable_need_var_tmp(void)
{
	struct stat st;

	if (geteuid() != 0)
		return "mounting a tmpfs over /tmp in a mount namespace needs root";
	if (stat("/var/tmp", &st) != 0 || major(st.st_dev) == 0 || access("/var/tmp", W_OK) != 0)
		return "/var/tmp is not a writable directory on a block device";
	/* The test hides /tmp under a tmpfs: a build or source tree there would vanish. */
	for (size_t i = 0; i < 2; i++) {
		const char *p = getenv(i == 0 ? "IOBUFVIZ_BIN" : "IOBUFVIZ_SRCDIR");
		if (p != NULL && (strncmp(p, "/tmp/", 5) == 0 || strcmp(p, "/tmp") == 0))
			return "the build or source tree is under /tmp, which this test hides under a "
			       "tmpfs";
	}
	return NULL;
}

/* Why the btrfs test cannot run here, or NULL. */
static const char *
portable_need_btrfs(void)
{
	if (geteuid() != 0)
		return "making a btrfs on a loop device needs root";
	if (portable_run("command -v mkfs.btrfs && command -v losetup", NULL, 0) != 0)
		return "mkfs.btrfs or losetup is not installed";
	if (access("/dev/loop-control", F_OK) != 0)
		return "no /dev/loop-control: no loop devices";
	if (portable_run("grep -qw btrfs /proc/filesystems || modprobe btrfs", NULL, 0) != 0)
		return "this kernel has no btrfs";
	return NULL;
}

/* Why the scratch dir has no block device under it, or NULL. */
static const char *
portable_need_block(void)
{
	struct stat st;

	if (disk_dir < 0 || stat(scratch_dir(disk_dir), &st) != 0)
		return "no scratch dir";
	if (major(st.st_dev) == 0)
		return "the scratch dir ($TMPDIR?) has no block device under it";
	if (geteuid() != 0)
		return "hiding /proc in a mount namespace needs root";
	return NULL;
}

/* The tests. */
static Suite *
portable_suite(void)
{
	Suite *s = suite_create("portable");
	TCase *tc = tcase_create("disk");

	tcase_set_timeout(tc, 60);
	test_util_add(tc, test_device_without_mountinfo,
	              test_util_or(portable_need_block(), test_util_need_private_mounts()));
	test_util_add(tc, test_beyond_eof, test_util_need_fiemap());
	test_util_add(tc, test_scratch_not_on_tmpfs,
	              test_util_or(portable_need_var_tmp(), test_util_need_private_mounts()));
	test_util_add(tc, test_btrfs, test_util_or(test_util_or(test_util_need_disk(),
	              portable_need_btrfs()), test_util_need_private_mounts()));
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite in a scratch dir of its own. */
int
main(void)
{
	disk_dir = scratch_mkdir(NULL);
	if (disk_dir < 0) {
		perror("check-portable: scratch_mkdir");
		return EXIT_FAILURE;
	}
	return test_util_run(portable_suite());
}
