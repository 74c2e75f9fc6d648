/* SPDX-License-Identifier: MIT */
/* crash/lab.h: a crash lab: a filesystem image of the run's own, on a loop device of its own,
 * mounted where only this run reaches it. */
#ifndef IOBUFVIZ_CRASH_LAB_H
#define IOBUFVIZ_CRASH_LAB_H

#include <stddef.h>
#include <stdint.h>

#include "crash/crash.h"

struct crash_lab;

/*
 * Make a lab of filesystem fs for files of file_bytes in all: a sparse image (at least
 * crash_fs_info.min_bytes, room for twice file_bytes) made in scratch dir SCRATCH with no
 * name (O_TMPFILE, else created and unlinked at once), attached to a loop device that
 * detaches itself (crash/loop.h), made into fs by its mkfs, and mounted nowhere (crash/mount.h).
 * Nothing of it outlives the run, however it ends: the kernel unmounts, detaches and frees it
 * when this process's last descriptor under it closes. Needs root (loop devices, mounts).
 * The lab, or NULL with errno and why, for people, in msg (len bytes).
 */
struct crash_lab *crash_lab_new(enum crash_fs fs, int scratch, uint64_t file_bytes, char *msg,
                                size_t len);

/* The root directory of the lab's filesystem (O_RDONLY|O_DIRECTORY|O_CLOEXEC): make, open and
 * look at its files through it (openat, fchdir). */
int crash_lab_dirfd(const struct crash_lab *lab);

/* The same directory as a path another process of this user can open: "/proc/PID/fd/N". */
const char *crash_lab_path(const struct crash_lab *lab);

/* Its loop device ("loop5"), its filesystem, and the image's size in bytes. */
const char *crash_lab_device(const struct crash_lab *lab);
enum crash_fs crash_lab_fs(const struct crash_lab *lab);
uint64_t crash_lab_bytes(const struct crash_lab *lab);

struct snap_device;

/* What reached the lab's device since the lab was mounted, into out (the device's own
 * counters count from its attach: mkfs is in them); out untouched if it cannot be read. */
void crash_lab_since_birth(const struct crash_lab *lab, struct snap_device *out);

/* Unmount, detach and free the lab (close every descriptor under it first). NULL is fine. */
void crash_lab_free(struct crash_lab *lab);

#endif
