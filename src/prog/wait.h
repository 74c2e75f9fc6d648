/* SPDX-License-Identifier: MIT */
/* prog/wait.h: waiting for a traced program, never without bound, and making sure every process
 * it made ends with the run (the tracer is their subreaper). */
#ifndef IOBUFVIZ_PROG_WAIT_H
#define IOBUFVIZ_PROG_WAIT_H

#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>
#include <time.h>

#include "prog/guard.h"

/* What bounds the waits of one traced program. */
struct prog_wait {
	struct timespec deadline; /* CLOCK_MONOTONIC; tv_sec 0: none */
	int (*poll)(void *);      /* asked after each quiet PROG_WAIT_POLL_MS; non-zero: stop */
	void *poll_arg;
	bool timed_out;           /* the deadline passed (and kill was called) */
	struct timespec held;     /* since when the program is held between steps (0: it is not) */
	bool wall;                /* the deadline is wall time: holding it does not move it */
	bool cancelled;           /* the poll said stop */
	/* The watchdog told of the deadline as it moves (prog/guard.h); pid 0: none. */
	struct prog_guard guard;
	int cpus;                 /* the CPUs we may run on (0: not asked yet) */
	bool no_spin;             /* the last spin found nothing, and no stop came that soon since */
};

/* How long a wait looks for a stop before it sleeps (us), when the program's stops come that
 * fast: a tracee stopped wakes a tracer asleep on another CPU in tens of microseconds on a
 * virtual machine (an interrupt to an idle virtual CPU), twice for each system call. */
#define PROG_WAIT_SPIN_US 200

/* Without news from the program, the poll is asked this often (ms). */
#define PROG_WAIT_POLL_MS 100

/* Set w's deadline ms milliseconds from now (0: none). */
void prog_wait_deadline(struct prog_wait *w, unsigned ms);

/* The deadline counts the program's time, not the time it is held stopped between steps
 * (a TUI waiting for a key, the caller's own work): hold says it is from now on, go that it
 * runs again (the deadline moves on by the time held). */
void prog_wait_hold(struct prog_wait *w);
void prog_wait_go(struct prog_wait *w);

/* Block SIGCHLD (the waits below need it blocked); the mask before into *old. */
void prog_wait_block(sigset_t *old);

/*
 * waitpid(-1, st, __WALL), bounded, with SIGCHLD blocked: at the deadline kill(arg) is
 * called once (every traced process killed: their ends then come as usual) and w->timed_out
 * set; after each PROG_WAIT_POLL_MS without news (not sooner: a TUI's poll reads the
 * keyboard) w->poll is asked, and a stop makes it -1 with ECANCELED (w->cancelled). A stop or
 * an end that comes between the look and the sleep is pending, and ends the sleep.
 */
pid_t prog_wait_any(struct prog_wait *w, int *st, void (*kill)(void *), void *arg);

/*
 * The end of a run: until the caller has no child and no tracee left (ECHILD), call
 * kill(arg) (every traced process) and kill every child of the caller (the orphans it is
 * subreaper for), and reap them, calling gone(pid, arg) for each; a tracee that stops is
 * killed. A process killed while it forked leaves a child, traced or an orphan: the next
 * sweep, made whenever nothing is left to reap, gets it. Bounded: one that never dies
 * (stuck in the kernel) is left after grace_s seconds.
 */
void prog_wait_reap_all(void (*kill)(void *), void (*gone)(pid_t, void *), void *arg,
                        int grace_s);

#endif
