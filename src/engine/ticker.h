/* SPDX-License-Identifier: MIT */
/* engine/ticker.h: a timer that interrupts a tracer's waitpid() every few milliseconds, so
 * that its poll callback is asked even while the tracee sits in one long system call. */
#ifndef IOBUFVIZ_TICKER_H
#define IOBUFVIZ_TICKER_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

/* The ticker while it is armed: its timer and the SIGURG handler to put back. */
struct ticker {
	timer_t timer;
	struct sigaction old;
	bool armed;
};

/* Send SIGURG every ms milliseconds (a handler without SA_RESTART: a blocked call returns
 * EINTR). 0, or -1 (then t->armed is false and nothing changed). */
int ticker_arm(struct ticker *t, long ms);

/* Stop it and put SIGURG's handler back. An unarmed ticker is fine. */
void ticker_disarm(struct ticker *t);

/* True once a tick came since the last call (which it clears). */
bool ticker_take(void);

#endif
