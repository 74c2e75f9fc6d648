/* SPDX-License-Identifier: MIT */
/* prog/guard.h: a watchdog the traced program cannot reach, which enforces the tracer's
 * deadline whatever state the tracer is in (stopped, ptrace-stopped, stuck). */
#ifndef IOBUFVIZ_PROG_GUARD_H
#define IOBUFVIZ_PROG_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* After the tracer's own deadline, the watchdog waits this long (ms) before it acts: the
 * tracer, when it runs, ends the program itself and says so. */
#define PROG_GUARD_GRACE_MS 1000

/* What the tracer and its watchdog share (a MAP_SHARED page, never the program's). */
struct prog_guard_page {
	int64_t deadline_ns;      /* CLOCK_MONOTONIC; 0: none now (no timeout, or held) */
	int32_t fired;            /* set by the watchdog once it killed the traced tree */
	int32_t done;             /* set by the tracer: the watchdog ends */
};

/* One watchdog: its pid (0: none), a pidfd of it, the shared page. */
struct prog_guard {
	pid_t pid;
	int pidfd;
	struct prog_guard_page *page;
};

/*
 * Start the watchdog of the calling process (the tracer): a child in a session of its own,
 * not dumpable, its signals at their defaults, no fd of ours but /dev/null as 0-2. Every
 * ~50 ms it reads the page; once deadline_ns + PROG_GUARD_GRACE_MS has passed it kills
 * (SIGKILL) every process the tracer traces (their TracerPid), sends SIGCONT to the tracer
 * and to the tracer's parent if that is the same executable (a lesson's run step), sets
 * fired, and does so again every half second until the tracer ends or says done. It ends
 * with the tracer (PR_SET_PDEATHSIG). 0, or -1 with errno.
 */
int prog_guard_start(struct prog_guard *g);

/* Set the deadline the watchdog enforces (0: none for now). */
void prog_guard_set(struct prog_guard *g, int64_t deadline_ns);

/* True once the watchdog fired. */
bool prog_guard_fired(const struct prog_guard *g);

/* End the watchdog and reap it (by its pidfd: never a stranger). g is then empty. */
void prog_guard_stop(struct prog_guard *g);

#endif
