/* SPDX-License-Identifier: MIT */
/* crash/loop.h: loop devices that detach themselves when their last user goes. */
#ifndef IOBUFVIZ_CRASH_LOOP_H
#define IOBUFVIZ_CRASH_LOOP_H

#include <stddef.h>

/*
 * Attach the regular file open (read-write) as filefd to a free loop device, buffered, with
 * LO_FLAGS_AUTOCLEAR: the kernel detaches it when its last opener closes it, so a mount on it
 * is the device's last user, and a process killed by SIGKILL cannot leave it attached. Write
 * its name ("loop5") into name (len bytes). The open device's fd (O_CLOEXEC; close it once
 * the mount holds the device), or -1 with errno.
 */
int crash_loop_attach(int filefd, char *name, size_t len);

#endif
