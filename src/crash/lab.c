/* SPDX-License-Identifier: MIT */
/* crash/lab.c: a crash lab: a filesystem image of the run's own, on a loop device of its own,
 * mounted where only this run reaches it. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crash/lab-int.h"
#include "crash/loop.h"
#include "crash/mount.h"
#include "probe/probe.h"
#include "scratch/scratch.h"

/* Where mkfs programs are, besides $PATH (a user's PATH often lacks the sbin dirs). */
static const char *const crash_lab_sbin[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin" };

/* A new file with no name in scratch dir scratch (see crash/lab-int.h). */
int
crash_lab_tmpfile(int scratch, const char *name, uint64_t bytes)
{
	int fd = openat(scratch_dirfd(scratch), ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600), e;

	if (fd < 0) {
		/* No O_TMPFILE on this filesystem: a name for as long as it takes to remove it. */
		fd = scratch_create(scratch, name, O_RDWR);
		if (fd >= 0)
			scratch_unlink(scratch, name);
	}
	if (fd >= 0 && ftruncate(fd, (off_t)bytes) != 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The path of program prog (a name, no '/') in $PATH or the sbin dirs, into buf. 0, or -1. */
static int
crash_lab_find(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[PATH_MAX * 2];
	char *save = NULL;

	snprintf(dirs, sizeof dirs, "%s", path != NULL ? path : "");
	for (char *d = strtok_r(dirs, ":", &save); d != NULL; d = strtok_r(NULL, ":", &save))
		if (*d == '/' && (size_t)snprintf(buf, len, "%s/%s", d, prog) < len &&
		    access(buf, X_OK) == 0)
			return 0;
	for (size_t i = 0; i < sizeof crash_lab_sbin / sizeof crash_lab_sbin[0]; i++)
		if ((size_t)snprintf(buf, len, "%s/%s", crash_lab_sbin[i], prog) < len &&
		    access(buf, X_OK) == 0)
			return 0;
	errno = ENOENT;
	return -1;
}

/* Run the fs's mkfs on the lab's device, its output kept for the message. 0, or -1 + msg. */
static int
crash_lab_mkfs(const struct crash_lab *lab, char *msg, size_t len)
{
	const struct crash_fs_info *fi = &crash_fs_table[lab->fs];
	char prog[PATH_MAX], dev[48], out[512];
	const char *argv[8];
	size_t argc = 0, got = 0;
	int pipefd[2], st = 0;
	ssize_t n;
	pid_t pid;

	if (crash_lab_find(fi->mkfs, prog, sizeof prog) != 0) {
		snprintf(msg, len, "%s is not installed", fi->mkfs);
		return -1;
	}
	snprintf(dev, sizeof dev, "/dev/%s", lab->device);
	argv[argc++] = fi->mkfs;
	for (size_t i = 0; i < sizeof fi->mkfs_args / sizeof fi->mkfs_args[0]; i++)
		if (fi->mkfs_args[i] != NULL)
			argv[argc++] = fi->mkfs_args[i];
	argv[argc++] = dev;
	argv[argc] = NULL;
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(msg, len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = scratch_fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(pipefd[1], 2) < 0)
			_exit(127);
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	while (pid > 0 && got < sizeof out - 1 &&
	       ((n = read(pipefd[0], out + got, sizeof out - 1 - got)) > 0 || (n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	out[got] = '\0';
	close(pipefd[0]);
	if (pid < 0) {
		snprintf(msg, len, "cannot start %s: %s", fi->mkfs, strerror(errno));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	scratch_forget(pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		out[strcspn(out, "\n")] = '\0';
		snprintf(msg, len, "%s %s failed%s%s", fi->mkfs, dev, out[0] != '\0' ? ": " : "", out);
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Make a lab (see crash/lab.h). */
struct crash_lab *
crash_lab_new(enum crash_fs fs, int scratch, uint64_t file_bytes, char *msg, size_t len)
{
	struct crash_lab *lab;
	int loop_fd = -1, e;

	msg[0] = '\0';
	if (fs <= CRASH_FS_NONE || fs >= CRASH_FS__COUNT || scratch_dirfd(scratch) < 0) {
		snprintf(msg, len, "no such filesystem or scratch dir");
		errno = EINVAL;
		return NULL;
	}
	lab = calloc(1, sizeof *lab);
	if (lab == NULL) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	lab->fs = fs;
	lab->scratch = scratch;
	lab->mnt_fd = lab->dir_fd = -1;
	/* Room for the file twice over (a rewrite, a copy) beside the filesystem's own, in MiB. */
	lab->bytes = file_bytes * 2 + (256u << 20);
	if (lab->bytes < crash_fs_table[fs].min_bytes)
		lab->bytes = crash_fs_table[fs].min_bytes;
	lab->bytes = (lab->bytes + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	lab->image_fd = crash_lab_tmpfile(scratch, "crash-lab.img", lab->bytes);
	if (lab->image_fd < 0) {
		e = errno;
		snprintf(msg, len, "cannot make the image in %s: %s", scratch_dir(scratch),
		         strerror(e));
		goto fail;
	}
	loop_fd = crash_loop_attach(lab->image_fd, lab->device, sizeof lab->device);
	if (loop_fd < 0) {
		e = errno;
		snprintf(msg, len, "cannot attach a loop device: %s%s", strerror(e),
		         e == EACCES || e == EPERM ? " (needs root)" : "");
		goto fail;
	}
	if (crash_lab_mkfs(lab, msg, len) != 0) {
		e = errno;
		goto fail;
	}
	lab->mnt_fd = crash_mount(fs, lab->device, false, msg, len);
	if (lab->mnt_fd < 0) {
		e = errno;
		goto fail;
	}
	/* The mount holds the device now: ours may go, and the device goes with the mount. */
	close(loop_fd);
	loop_fd = -1;
	lab->dir_fd = openat(lab->mnt_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lab->dir_fd < 0) {
		e = errno;
		snprintf(msg, len, "cannot open the lab's root: %s", strerror(e));
		goto fail;
	}
	snprintf(lab->path, sizeof lab->path, "/proc/%ld/fd/%d", (long)getpid(), lab->dir_fd);
	if (probe_device(lab->device, &lab->birth) != 0) {
		e = errno;
		snprintf(msg, len, "cannot read the device's counters: %s", lab->birth.note);
		goto fail;
	}
	return lab;
fail:
	if (loop_fd >= 0)
		close(loop_fd);
	crash_lab_free(lab);
	errno = e;
	return NULL;
}

/* The lab's root directory fd. */
int
crash_lab_dirfd(const struct crash_lab *lab)
{
	return lab->dir_fd;
}

/* Its root as a path for other processes of this user. */
const char *
crash_lab_path(const struct crash_lab *lab)
{
	return lab->path;
}

/* Its loop device's name. */
const char *
crash_lab_device(const struct crash_lab *lab)
{
	return lab->device;
}

/* Its filesystem. */
enum crash_fs
crash_lab_fs(const struct crash_lab *lab)
{
	return lab->fs;
}

/* The image's size. */
uint64_t
crash_lab_bytes(const struct crash_lab *lab)
{
	return lab->bytes;
}

/* The device's counters when the lab was mounted. */
void
crash_lab_since_birth(const struct crash_lab *lab, struct snap_device *out)
{
	const struct snap_device *b = &lab->birth;

	if (probe_device(lab->device, out) != 0)
		return;
	out->reads -= b->reads;
	out->read_bytes -= b->read_bytes;
	out->writes -= b->writes;
	out->write_bytes -= b->write_bytes;
	out->discards -= b->discards;
	out->discard_bytes -= b->discard_bytes;
	out->flushes -= b->flushes;
}

/* Unmount (closing the last descriptors under the mount does it), detach, free. */
void
crash_lab_free(struct crash_lab *lab)
{
	if (lab == NULL)
		return;
	if (lab->dir_fd >= 0)
		close(lab->dir_fd);
	if (lab->mnt_fd >= 0)
		close(lab->mnt_fd);
	/* The loop device let go of the image with the mount; this is the image's last name. */
	if (lab->image_fd >= 0)
		close(lab->image_fd);
	free(lab);
}
