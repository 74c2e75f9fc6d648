/* SPDX-License-Identifier: MIT */
/* probe/device.c: what reached a block device: its own request counters (/sys/block/NAME/stat). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "probe/probe.h"

/* /sys/block/NAME/stat counts sectors of 512 bytes, whatever the device's block size. */
#define PROBE_DEVICE_SECTOR 512u

/* The fields of /sys/block/NAME/stat (Documentation/block/stat.rst), in order. */
enum probe_device_field {
	PD_READS, PD_READ_MERGES, PD_READ_SECTORS, PD_READ_TICKS,
	PD_WRITES, PD_WRITE_MERGES, PD_WRITE_SECTORS, PD_WRITE_TICKS,
	PD_IN_FLIGHT, PD_IO_TICKS, PD_QUEUE_TICKS,
	PD_DISCARDS, PD_DISCARD_MERGES, PD_DISCARD_SECTORS, PD_DISCARD_TICKS,
	PD_FLUSHES, PD_FLUSH_TICKS,
	PD__COUNT
};

/* True if name is a kernel block device name we may put in a path ("loop5", "vda"). */
static bool
probe_device_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= sizeof ((struct snap_device *)0)->name)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/* Read the counters of block device name (see probe/probe.h). */
int
probe_device(const char *name, struct snap_device *out)
{
	uint64_t v[PD__COUNT] = { 0 };
	char path[80], text[512], *p, *end;
	size_t n = 0;

	memset(out, 0, sizeof *out);
	if (!probe_device_name_ok(name)) {
		snprintf(out->note, sizeof out->note, "no block device name");
		return -1;
	}
	snprintf(path, sizeof path, "/sys/block/%s/stat", name);
	if (fdio_read_text(path, text, sizeof text) < 0) {
		snprintf(out->note, sizeof out->note, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Kernels before 4.18 have 11 fields, before 5.5 15: the rest stay 0. */
	for (p = text; n < PD__COUNT; n++, p = end) {
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (end == p || errno != 0)
			break;
	}
	if (n <= PD_IN_FLIGHT) {
		snprintf(out->note, sizeof out->note, "%s: %zu fields, not the 11 or more expected",
		         path, n);
		return -1;
	}
	out->source = SNAP_SRC_BLOCKSTAT;
	snprintf(out->name, sizeof out->name, "%s", name);
	out->reads = v[PD_READS];
	out->read_bytes = v[PD_READ_SECTORS] * PROBE_DEVICE_SECTOR;
	out->writes = v[PD_WRITES];
	out->write_bytes = v[PD_WRITE_SECTORS] * PROBE_DEVICE_SECTOR;
	out->discards = v[PD_DISCARDS];
	out->discard_bytes = v[PD_DISCARD_SECTORS] * PROBE_DEVICE_SECTOR;
	out->flushes = v[PD_FLUSHES];
	out->in_flight = (uint32_t)v[PD_IN_FLIGHT];
	return 0;
}
