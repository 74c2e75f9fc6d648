/* SPDX-License-Identifier: MIT */
/* crash/kmsg.c: what the kernel says about one device (/dev/kmsg), from a point on. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "crash/kmsg.h"

/* Records read at most in one collect: the kernel's ring holds far fewer of a mount's. */
#define CRASH_KMSG_MAX_RECORDS 4096

/* Open /dev/kmsg at its end. */
int
crash_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Keep the records about device (see crash/kmsg.h). */
size_t
crash_kmsg_collect(int fd, const char *device, char (*lines)[CRASH_KMSG_LEN], size_t max)
{
	char rec[2048], paren[48], dev[56];
	size_t kept = 0;

	snprintf(paren, sizeof paren, "(%s)", device);
	snprintf(dev, sizeof dev, "(device %s)", device);
	for (int i = 0; fd >= 0 && i < CRASH_KMSG_MAX_RECORDS; i++) {
		/* One record per read: "PRIO,SEQ,USEC,FLAGS;text\n", then " KEY=value" lines. */
		ssize_t n = read(fd, rec, sizeof rec - 1);
		char *text;

		if (n < 0 && errno == EPIPE)
			continue;   /* records were overwritten before we read them: go on */
		if (n <= 0)
			break;      /* EAGAIN: none left */
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (text == NULL)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		if (kept < max && (strstr(text, paren) != NULL || strstr(text, dev) != NULL))
			snprintf(lines[kept++], CRASH_KMSG_LEN, "%s", text);
	}
	return kept;
}
