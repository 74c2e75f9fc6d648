/* SPDX-License-Identifier: MIT */
/* crash/kmsg.h: what the kernel says about one device (/dev/kmsg), from a point on. */
#ifndef IOBUFVIZ_CRASH_KMSG_H
#define IOBUFVIZ_CRASH_KMSG_H

#include <stddef.h>

#include "crash/crash.h"

/* Open /dev/kmsg after its last record: what the kernel says from now on. The fd (non-blocking,
 * O_CLOEXEC), or -1 with errno (EPERM: dmesg_restrict and no CAP_SYSLOG). */
int crash_kmsg_open(void);

/*
 * Read the records written since fd was opened (or last read) and keep, in order, the text of
 * those a filesystem wrote about device ("EXT4-fs (loop5): recovery complete", "BTRFS info
 * (device loop5): start tree-log replay"): at most max lines, each cut to CRASH_KMSG_LEN - 1
 * bytes. How many were kept.
 */
size_t crash_kmsg_collect(int fd, const char *device, char (*lines)[CRASH_KMSG_LEN], size_t max);

#endif
