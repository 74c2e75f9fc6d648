/* SPDX-License-Identifier: MIT */
/* engine/runner-device.c: the crash lab's device as the run counts it: its counters since the
 * lab was made, the writes that reached it between the lesson's steps or during its waits
 * (strays: the kernel's timers, writeback, a sync() elsewhere) and those its own steps started.
 * Below runner.c (which observes the device) and runner-crash.c (which says how many writes a
 * power cut's copy holds). */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <time.h>

#include "crash/lab.h"
#include "engine/runner-int.h"
#include "probe/probe.h"
#include "probe/wbwatch.h"

/* The lab's device's counters since the lab was made (see engine/runner-int.h). */
void
runner_crash_device(struct runner *r, struct snap_device *out)
{
	crash_lab_since_birth(r->lab, out);
}

/* Count what reached the device since the last counters (see engine/runner-int.h). */
void
runner_crash_account(struct runner *r, const struct snap_device *now, bool own)
{
	if (now->source == SNAP_SRC_NONE)
		return;
	/* Requests that carried data: an empty flush puts nothing on the device. */
	if (r->dev_last.source != SNAP_SRC_NONE && now->writes > r->dev_last.writes &&
	    now->write_bytes > r->dev_last.write_bytes) {
		if (own)
			r->own_writes += now->writes - r->dev_last.writes;
		else
			r->stray_writes += now->writes - r->dev_last.writes;
	}
	r->dev_last = *now;
}

/* True if the writes that reach the device during step are the lesson's own: those of any step
 * but a wait, whose time is the kernel's (see engine/runner-int.h). */
bool
runner_crash_own(const struct scn_step *step)
{
	return (unsigned)step->op >= SCN_OP__COUNT ||
	       scn_op_table[step->op].runs != SCN_RUNS_RUNNER_WAIT;
}

/* Milliseconds since t0 (runner.c's runner_since would make the two files call each other). */
static double
runner_device_ms(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) * 1e3 + (now.tv_nsec - t0->tv_nsec) / 1e6;
}

/* True while the kernel has work of its own on the lab in progress: the file's writeback, a
 * journal commit (when kernel is true), requests on the device (d). */
static bool
runner_busy(const struct runner *r, const struct snap_device *d, bool kernel)
{
	struct jwatch_counts c;
	bool running = false;

	if (d->in_flight != 0)
		return true;
	if (!kernel)
		return false;
	(void)wbwatch_count(r->wb, &running);
	jwatch_read(r->jw, &c);
	return running || c.commits > c.committed;
}

/* Wait while runner_busy(r, kernel) or the device's counters move, until they have been still
 * for RUNNER_SETTLE_QUIET_MS, at most RUNNER_SETTLE_MAX_MS; *now becomes the counters then. */
static void
runner_wait_still(struct runner *r, struct snap_device *now, bool kernel)
{
	struct timespec t0, quiet;
	struct snap_device d;
	const struct timespec slice = { 0, RUNNER_SETTLE_SLICE_NS };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	quiet = t0;
	while (runner_device_ms(&t0) < RUNNER_SETTLE_MAX_MS) {
		nanosleep(&slice, NULL);
		runner_crash_device(r, &d);
		if (d.source == SNAP_SRC_NONE)
			return;
		if (runner_busy(r, &d, kernel) || d.writes != now->writes ||
		    d.flushes != now->flushes) {
			*now = d;
			clock_gettime(CLOCK_MONOTONIC, &quiet);
		} else if (runner_device_ms(&quiet) >= RUNNER_SETTLE_QUIET_MS) {
			return;
		}
	}
}

/* Wait for what the step started to reach the device (see engine/runner-int.h). */
void
runner_crash_settle(struct runner *r, struct snap_device *now)
{
	/* Nothing in flight: the step started nothing it did not wait for. Waiting anyway would
	 * make a foreign sync() of these milliseconds the lesson's. */
	if (r->lab == NULL || now->source == SNAP_SRC_NONE || now->in_flight == 0)
		return;
	runner_wait_still(r, now, false);
}

/* Wait for the kernel's own work on the lab to end before a step (see engine/runner-int.h). */
void
runner_crash_quiet(struct runner *r)
{
	struct snap_device last;

	if (r->lab == NULL)
		return;
	runner_crash_device(r, &last);
	if (last.source != SNAP_SRC_NONE && runner_busy(r, &last, true))
		runner_wait_still(r, &last, true);
}

/* Seconds on the monotonic clock (see engine/runner-int.h). */
double
runner_clock(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + now.tv_nsec / 1e9;
}

/* Look at the lab's journal now (see engine/runner-int.h). The counts say only how many, not
 * in which order: a handle and a commit both seen since the last look may be a transaction
 * the commit took, or one begun after it. It is taken to be running, since the last look:
 * the worst that does is a pause that waits for a commit that does not come, at most
 * RUNNER_JOURNAL_LATE_S past its due time. */
void
runner_journal_look(struct runner *r)
{
	struct jwatch_counts c;
	double now = runner_clock();

	if (r->jw == NULL)
		return;
	jwatch_read(r->jw, &c);
	if (c.commits != r->jw_last.commits)
		r->jw_tx = c.handles != r->jw_last.handles ? r->jw_at : -1;
	else if (c.handles != r->jw_last.handles && r->jw_tx < 0)
		r->jw_tx = r->jw_at;
	r->jw_last = c;
	r->jw_at = now;
}

/*
 * The end of a pause of --pace seconds that ended at clock time end: true while the lab's
 * journal has work the pause gave it time for, not done yet: a commit running, or a
 * transaction whose timer came due by end (its start plus the interval) and has not fired,
 * up to RUNNER_JOURNAL_LATE_S past that. A transaction due after end is the next pause's.
 */
static bool
runner_journal_due(struct runner *r, double end)
{
	double due;

	runner_journal_look(r);
	if (r->jw == NULL)
		return false;
	if (r->jw_last.commits > r->jw_last.committed)
		return runner_clock() < end + RUNNER_JOURNAL_LATE_S;
	if (r->jw_tx < 0)
		return false;
	due = r->jw_tx + r->jw_interval;
	return due <= end && runner_clock() < due + RUNNER_JOURNAL_LATE_S;
}

/* The pause before a step (see engine/runner-int.h): --pace's wait, in slices, the first
 * writeback, journal commit and device write seen in it timed, then as long as a journal
 * commit that came due in it needs to be over; without a pace, only counted. */
void
runner_pause(struct runner *r, struct step_result *out)
{
	const struct timespec slice = { 0, RUNNER_PAUSE_SLICE_NS };
	struct snap_device d;
	bool running, over = false;
	uint64_t commits0 = r->jw_last.commits;
	double t, end = 0;

	out->pause.writeback_at = out->pause.device_at = out->pause.commit_at = -1;
	out->pause.dev_step = r->dev_step;
	out->pause.dev_at = r->dev_at;
	if (out->index == 0)
		return;
	for (;;) {
		t = runner_device_ms(&r->last_end) / 1e3;
		if (out->pause.writebacks == 0 && wbwatch_count(r->wb, &running) != r->wb_last) {
			out->pause.writebacks = wbwatch_count(r->wb, &running) - r->wb_last;
			out->pause.writeback_at = r->o.pace > 0 ? t : -1;
		}
		runner_journal_look(r);
		if (out->pause.commits == 0 && r->jw_last.commits != commits0) {
			out->pause.commits = r->jw_last.commits - commits0;
			out->pause.commit_at = r->o.pace > 0 ? t : -1;
		}
		if (out->pause.device_writes == 0 && r->lab != NULL && r->dev_last.source !=
		    SNAP_SRC_NONE) {
			runner_crash_device(r, &d);
			if (d.source != SNAP_SRC_NONE && d.writes > r->dev_last.writes &&
			    d.write_bytes > r->dev_last.write_bytes) {
				out->pause.device_writes = d.writes - r->dev_last.writes;
				out->pause.device_at = r->o.pace > 0 ? t : -1;
			}
		}
		if (r->stop)
			break;
		/* The pace is over: the journal may still owe the pause a commit. */
		if (!over && t >= r->o.pace) {
			over = true;
			end = runner_clock();
		}
		if (over && (r->o.pace <= 0 || !runner_journal_due(r, end)))
			break;
		nanosleep(&slice, NULL);
	}
	/* The totals at the pause's end, once what it sent has reached the device. */
	out->pause.seconds = t;
	out->pause.waited = over && r->o.pace > 0 ? runner_clock() - end : 0;
	if (out->pause.writebacks != 0)
		out->pause.writebacks = wbwatch_count(r->wb, &running) - r->wb_last;
	out->pause.commits = r->jw_last.commits - commits0;
	if (r->lab != NULL && r->dev_last.source != SNAP_SRC_NONE) {
		runner_crash_device(r, &d);
		runner_crash_settle(r, &d);
		if (d.source != SNAP_SRC_NONE && d.writes > r->dev_last.writes &&
		    d.write_bytes > r->dev_last.write_bytes) {
			if (out->pause.device_writes == 0)
				out->pause.device_at = r->o.pace > 0 ? t : -1;
			out->pause.device_writes = d.writes - r->dev_last.writes;
		}
	}
	if (out->pause.device_writes != 0) {
		out->pause.dev_step = r->dev_step = out->index;
		out->pause.dev_at = r->dev_at = out->pause.device_at;
	}
}
