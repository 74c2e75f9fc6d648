/* SPDX-License-Identifier: MIT */
/* crash/power.c: a power cut: the lab's device as it was at one instant, recovered by the kernel. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crash/file.h"
#include "crash/kmsg.h"
#include "crash/lab-int.h"
#include "crash/loop.h"
#include "crash/mount.h"
#include "crash/power.h"
#include "probe/probe.h"

/* Copies tried at most, and the pause between two when the device was busy. */
#define CRASH_POWER_TRIES 50
#define CRASH_POWER_PAUSE_NS 2000000L
/* Bytes moved per pread/pwrite where copy_file_range cannot copy. */
#define CRASH_POWER_BUF (1u << 20)

/* Milliseconds since t0. */
static double
crash_power_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Copy [off, end) of in to the same offsets of out with read and write. 0, or -1. */
static int
crash_power_rw(int in, int out, off_t off, off_t end)
{
	char *buf = malloc(CRASH_POWER_BUF);
	int rc = 0;

	if (buf == NULL)
		return -1;
	while (off < end && rc == 0) {
		size_t want = end - off < (off_t)CRASH_POWER_BUF ? (size_t)(end - off) : CRASH_POWER_BUF;
		ssize_t n = pread(in, buf, want, off);
		if (n <= 0 || pwrite(out, buf, (size_t)n, off) != n)
			rc = -1;
		off += n > 0 ? n : 0;
	}
	free(buf);
	return rc;
}

/*
 * Copy the data of in (bytes long) into out, leaving its holes holes: only what SEEK_DATA
 * finds is copied, by copy_file_range (a reflink where the filesystem shares blocks), else
 * by read and write. 0, or -1 with errno.
 */
static int
crash_power_copy_data(int in, int out, off_t bytes)
{
	for (off_t pos = 0; pos < bytes;) {
		off_t data = lseek(in, pos, SEEK_DATA), hole;
		if (data < 0)
			return errno == ENXIO ? 0 : -1;   /* ENXIO: no data past pos */
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			return -1;
		for (loff_t a = data, b = data; a < hole;) {
			ssize_t n = copy_file_range(in, &a, out, &b, (size_t)(hole - a), 0);
			if (n > 0)
				continue;
			if (n == 0 || crash_power_rw(in, out, a, hole) != 0)
				return -1;
			break;
		}
		pos = hole;
	}
	return 0;
}

/* True if no request reached the device between a and b, and none was under way at either. */
static bool
crash_power_quiet(const struct snap_device *a, const struct snap_device *b)
{
	return a->in_flight == 0 && b->in_flight == 0 && a->writes == b->writes &&
	       a->write_bytes == b->write_bytes && a->flushes == b->flushes &&
	       a->discards == b->discards && a->discard_bytes == b->discard_bytes;
}

/*
 * A copy of the lab's image as the device held it at one instant: copied while no write,
 * flush or discard completed and none was in flight. The copy's fd (no name), or -1 with
 * why in out.
 */
static int
crash_power_copy(struct crash_lab *lab, struct crash_half *out)
{
	struct timespec pause = { 0, CRASH_POWER_PAUSE_NS }, t0;
	struct snap_device a, b;
	int fd = crash_lab_tmpfile(lab->scratch, "crash-copy.img", 0);
	unsigned i;

	if (fd < 0) {
		crash_half_unobserved(out, "cannot make a copy of the image: %s", strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i <= CRASH_POWER_TRIES; i++) {
		if (probe_device(lab->device, &a) != 0) {
			crash_half_unobserved(out, "cannot read the device's counters: %s", a.note);
			break;
		}
		if (a.in_flight != 0) {
			nanosleep(&pause, NULL);
			continue;
		}
		if (ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)lab->bytes) != 0 ||
		    crash_power_copy_data(lab->image_fd, fd, (off_t)lab->bytes) != 0) {
			crash_half_unobserved(out, "cannot copy the image: %s", strerror(errno));
			break;
		}
		if (probe_device(lab->device, &b) == 0 && crash_power_quiet(&a, &b)) {
			out->tries = i;
			out->device_writes = b.writes - lab->birth.writes;
			out->device_write_bytes = b.write_bytes - lab->birth.write_bytes;
			out->device_flushes = b.flushes - lab->birth.flushes;
			return fd;
		}
		nanosleep(&pause, NULL);
	}
	if (i > CRASH_POWER_TRIES)
		crash_half_unobserved(out, "the device was never quiet for a copy (%d tries over "
		                      "%.0f ms): the kernel kept writing to it", CRASH_POWER_TRIES,
		                      crash_power_ms(&t0));
	out->tries = i > CRASH_POWER_TRIES ? CRASH_POWER_TRIES : i;
	close(fd);
	return -1;
}

/* Cut the lab's power now (see crash/power.h). */
int
crash_power_cut(struct crash_lab *lab, const char *name, struct crash_half *out)
{
	char device[32], msg[160];
	struct timespec t0;
	int kmsg, copy, loop, root = -1, rc = -1;
	struct crash_half got;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(out, 0, sizeof *out);
	/* Opened first: every line the kernel writes about the copy's device is after this. */
	kmsg = crash_kmsg_open();
	if (kmsg < 0)
		snprintf(out->recovery_why, sizeof out->recovery_why, "/dev/kmsg: %s",
		         strerror(errno));
	copy = crash_power_copy(lab, out);
	got = *out;   /* the copy's account, kept through what may reset out below */
	if (copy >= 0) {
		loop = crash_loop_attach(copy, device, sizeof device);
		if (loop < 0) {
			crash_half_unobserved(out, "cannot attach the copy to a loop device: %s",
			                      strerror(errno));
		} else {
			root = crash_mount(lab->fs, device, true, msg, sizeof msg);
			if (root < 0)
				crash_half_unobserved(out, "the copy did not mount: %s", msg);
			close(loop);
		}
	}
	if (root >= 0) {
		if (crash_file_read(root, name, -1, false, &out->file) == 0) {
			out->observed = true;
			rc = 0;
		} else {
			crash_half_unobserved(out, "cannot read %s in the copy: %s", name,
			                      strerror(errno));
		}
		if (kmsg >= 0) {
			out->recovery_known = true;
			out->n_recovery = crash_kmsg_collect(kmsg, device, out->recovery,
			                                     CRASH_KMSG_LINES);
		}
		/* The last descriptor under the copy's mount: unmounted, its device detached. */
		close(root);
	}
	if (copy >= 0)
		close(copy);
	if (kmsg >= 0)
		close(kmsg);
	out->tries = got.tries;
	out->device_writes = got.device_writes;
	out->device_write_bytes = got.device_write_bytes;
	out->device_flushes = got.device_flushes;
	out->ms = crash_power_ms(&t0);
	return rc;
}
