/* SPDX-License-Identifier: MIT */
/* engine/ticker.c: a timer that interrupts a tracer's waitpid() every few milliseconds: the
 * runner's while the worker runs a step, a pty step's while its children are traced. */
#include <config.h>

#include <signal.h>
#include <time.h>

#include "engine/ticker.h"

/*
 * Set by SIGURG from the timer. Global because a signal handler sets it; nothing else does.
 */
static volatile sig_atomic_t ticker_tick;

/* SIGURG from the timer: a tick. */
static void
ticker_on_tick(int sig)
{
	(void)sig;
	ticker_tick = 1;
}

/* Arm the timer. */
int
ticker_arm(struct ticker *t, long ms)
{
	struct sigaction sa = { .sa_handler = ticker_on_tick };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGURG };
	struct itimerspec its = {
		.it_interval = { ms / 1000, ms % 1000 * 1000000L },
		.it_value = { ms / 1000, ms % 1000 * 1000000L },
	};
	sigset_t urg;

	t->armed = false;
	sigemptyset(&sa.sa_mask);
	ticker_tick = 0;
	if (sigaction(SIGURG, &sa, &t->old) != 0)
		return -1;
	/* A mask inherited across exec (a test harness's) must not hold the ticks back: without
	 * them neither a stop nor the run's timeout is seen during one long step. */
	sigemptyset(&urg);
	sigaddset(&urg, SIGURG);
	sigprocmask(SIG_UNBLOCK, &urg, NULL);
	if (timer_create(CLOCK_MONOTONIC, &sev, &t->timer) != 0) {
		sigaction(SIGURG, &t->old, NULL);
		return -1;
	}
	if (timer_settime(t->timer, 0, &its, NULL) != 0) {
		timer_delete(t->timer);
		sigaction(SIGURG, &t->old, NULL);
		return -1;
	}
	t->armed = true;
	return 0;
}

/* Stop the timer. */
void
ticker_disarm(struct ticker *t)
{
	if (!t->armed)
		return;
	timer_delete(t->timer);
	sigaction(SIGURG, &t->old, NULL);
	ticker_tick = 0;
	t->armed = false;
}

/* Whether a tick came. */
bool
ticker_take(void)
{
	if (!ticker_tick)
		return false;
	ticker_tick = 0;
	return true;
}
