/* SPDX-License-Identifier: MIT */
/* crash/mount.c: a filesystem mounted where only file descriptors reach it (fsmount(2)). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "crash/mount.h"

/* The new mount API's constants (<linux/mount.h>), spelled out for C libraries without them. */
#define CRASH_FSOPEN_CLOEXEC 0x00000001
#define CRASH_FSMOUNT_CLOEXEC 0x00000001
#define CRASH_FSCONFIG_SET_FLAG 0
#define CRASH_FSCONFIG_SET_STRING 1
#define CRASH_FSCONFIG_CMD_CREATE 6
#define CRASH_MOUNT_ATTR_NOATIME 0x00000010

/* What went wrong, for people: the filesystem's own words from the context fd if it left any
 * ("e xfs: Filesystem has duplicate UUID"), else errno's, after what. */
static void
crash_mount_why(int fsfd, const char *what, int e, char *msg, size_t len)
{
	char log[256];
	ssize_t n = fsfd >= 0 ? read(fsfd, log, sizeof log - 1) : -1;

	if (n > 2) {
		log[n] = '\0';
		log[strcspn(log, "\n")] = '\0';
		snprintf(msg, len, "%s: %s (%s)", what, log + 2, strerror(e));
	} else {
		snprintf(msg, len, "%s: %s", what, strerror(e));
	}
}

/* Mount device's fs where only descriptors reach it (see crash/mount.h). */
int
crash_mount(enum crash_fs fs, const char *device, bool copy, char *msg, size_t len)
{
	const struct crash_fs_info *fi = &crash_fs_table[fs];
	char path[48];
	int fsfd, mfd, e;

	msg[0] = '\0';
	if (fs <= CRASH_FS_NONE || fs >= CRASH_FS__COUNT) {
		snprintf(msg, len, "no such filesystem");
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof path, "/dev/%s", device);
	fsfd = (int)syscall(SYS_fsopen, fi->name, CRASH_FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		e = errno;
		crash_mount_why(-1, e == ENODEV ? "this kernel has no such filesystem" :
		                "fsopen", e, msg, len);
		errno = e;
		return -1;
	}
	if (syscall(SYS_fsconfig, fsfd, CRASH_FSCONFIG_SET_STRING, "source", path, 0) != 0 ||
	    (copy && fi->copy_flag != NULL &&
	     syscall(SYS_fsconfig, fsfd, CRASH_FSCONFIG_SET_FLAG, fi->copy_flag, NULL, 0) != 0) ||
	    syscall(SYS_fsconfig, fsfd, CRASH_FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0) {
		e = errno;
		crash_mount_why(fsfd, path, e, msg, len);
		close(fsfd);
		errno = e;
		return -1;
	}
	/* noatime: what iobufviz reads there (a probe, a crash view) changes nothing on it. */
	mfd = (int)syscall(SYS_fsmount, fsfd, CRASH_FSMOUNT_CLOEXEC, CRASH_MOUNT_ATTR_NOATIME);
	e = errno;
	if (mfd < 0)
		crash_mount_why(fsfd, "fsmount", e, msg, len);
	close(fsfd);
	errno = e;
	return mfd;
}
