/* SPDX-License-Identifier: MIT */
/* crash/loop.c: loop devices that detach themselves when their last user goes. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/loop.h>

#include "crash/loop.h"

/* Other programs (losetup, other runs) take free devices too: try again this often. */
#define CRASH_LOOP_TRIES 16

/* Attach filefd to a free loop device (see crash/loop.h). */
int
crash_loop_attach(int filefd, char *name, size_t len)
{
	struct loop_config cfg;
	char path[32];
	int ctl, e = EBUSY;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -1;
	memset(&cfg, 0, sizeof cfg);
	cfg.fd = (unsigned)filefd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	for (int i = 0; i < CRASH_LOOP_TRIES; i++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE), fd;

		if (n < 0) {
			e = errno;
			break;
		}
		snprintf(path, sizeof path, "/dev/loop%d", n);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			if (e == ENOENT || e == ENXIO)
				continue;   /* udev has not made the node yet, or it went */
			break;
		}
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			close(ctl);
			snprintf(name, len, "loop%d", n);
			return fd;
		}
		e = errno;
		close(fd);
		if (e != EBUSY)
			break;      /* EBUSY: someone took this one between the two calls */
	}
	close(ctl);
	errno = e;
	return -1;
}
