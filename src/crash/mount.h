/* SPDX-License-Identifier: MIT */
/* crash/mount.h: a filesystem mounted where only file descriptors reach it. */
#ifndef IOBUFVIZ_CRASH_MOUNT_H
#define IOBUFVIZ_CRASH_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "crash/crash.h"

/*
 * Mount the fs on block device /dev/DEVICE ("loop5") with the new mount API (fsopen,
 * fsconfig, fsmount) and attach it nowhere: no path, no mount table, no other process sees
 * it. It lives as long as a descriptor under it does, and goes (unmounted, and its device
 * released) when the last one closes, this process's death included. It is mounted noatime:
 * reading a file there (a probe, a crash view) changes nothing on the filesystem. copy: the
 * device holds a copy of a mounted filesystem (crash_fs_info.copy_flag). The mount's root
 * (an O_PATH fd, O_CLOEXEC), or -1 with errno and why, for people, in msg (len bytes).
 */
int crash_mount(enum crash_fs fs, const char *device, bool copy, char *msg, size_t len);

#endif
