/* SPDX-License-Identifier: MIT */
/* engine/runner-device.c: the crash lab's device as the run counts it: its counters since the
 * lab was made, the writes that reached it that no step waited for, and which steps wait for
 * it. Below runner.c (which observes the device) and runner-crash.c (which says how many writes
 * a power cut's copy holds). */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>

#include "crash/lab.h"
#include "engine/runner-int.h"
#include "probe/probe.h"

/* The lab's device's counters since the lab was made (see engine/runner-int.h). */
void
runner_crash_device(struct runner *r, struct snap_device *out)
{
	const struct snap_device *b = crash_lab_birth(r->lab);

	if (probe_device(crash_lab_device(r->lab), out) != 0)
		return;
	out->reads -= b->reads;
	out->read_bytes -= b->read_bytes;
	out->writes -= b->writes;
	out->write_bytes -= b->write_bytes;
	out->discards -= b->discards;
	out->discard_bytes -= b->discard_bytes;
	out->flushes -= b->flushes;
}

/* Count what reached the device since the last counters (see engine/runner-int.h). */
void
runner_crash_account(struct runner *r, const struct snap_device *now, bool waited)
{
	if (now->source == SNAP_SRC_NONE)
		return;
	/* Requests that carried data: an empty flush puts nothing on the device. */
	if (r->dev_last.source != SNAP_SRC_NONE && now->writes > r->dev_last.writes &&
	    now->write_bytes > r->dev_last.write_bytes) {
		if (waited)
			r->waited_writes += now->writes - r->dev_last.writes;
		else
			r->stray_writes += now->writes - r->dev_last.writes;
	}
	r->dev_last = *now;
}

/* True if step waits for the device (see engine/runner-int.h). */
bool
runner_crash_waits(const struct scn_step *step, const struct step_result *out)
{
	const struct snap_fd *a = &out->before.fd, *b = &out->after.fd;

	if ((unsigned)step->op < SCN_OP__COUNT && scn_op_table[step->op].layer == SCN_LAYER_DISK)
		return true;
	/* A run step's program that called fsync(), sync() ... waited for what it wrote. */
	for (size_t i = 0; i < out->events.n; i++)
		if (event_is_sync(&out->events.v[i]) && out->events.v[i].result == 0)
			return true;
	/* O_SYNC holds O_DSYNC's bit: either makes each write wait for the device. */
	return (a->open && (a->flags & O_DSYNC)) || (b->open && (b->flags & O_DSYNC));
}
