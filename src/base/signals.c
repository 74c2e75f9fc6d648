/* SPDX-License-Identifier: MIT */
/* base/signals.c: the process's fatal signals, in one place: the terminal given back first,
 * the registered cleanups run, then the process dies of the same signal. */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "base/signals.h"

/*
 * Global state, because a signal handler must find it (and only for that): what to run,
 * and the actions the crash signals had before ours, restored before such a signal is
 * raised again (so a sanitizer's own handler still reports the crash). Indexed by signal.
 */
static void (*volatile signals_terminal)(void);
static void (*volatile signals_cleanup[SIGNALS_MAX_CLEANUPS])(void);
static volatile sig_atomic_t signals_n_cleanups;
static struct sigaction signals_old_action[NSIG];
static bool signals_installed;

/* True if sig reports a fault of the process itself (it may have a sanitizer's handler). */
static bool
signals_is_crash(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS;
}

/* A fatal signal: the terminal back, the cleanups, then die of the same signal. */
static void
signals_handler(int sig)
{
	int saved = errno;
	void (*term)(void) = signals_terminal;

	if (term != NULL)
		term();
	for (sig_atomic_t i = 0; i < signals_n_cleanups; i++)
		signals_cleanup[i]();
	/* A crash goes on to the handler that was there before (a sanitizer's); any other
	 * signal to its default action, so the process dies of it as a shell expects. */
	if (signals_is_crash(sig))
		sigaction(sig, &signals_old_action[sig], NULL);
	else
		signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

/* True if sig's default action ends the process (SIGKILL and SIGSTOP aside: nobody can catch them). */
static bool
signals_terminates(int sig)
{
	switch (sig) {
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:          /* ignored */
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:          /* stop */
	case SIGKILL:                                                    /* uncatchable */
	/* Ignored on purpose (signals_install): a write of ours past "ulimit -f" fails with
	 * EFBIG and is reported, rather than killing us. */
	case SIGXFSZ:
		return false;
	}
	/* glibc keeps the two lowest real-time signals for itself; SIGRTMIN is above them. */
	if (sig >= SIGRTMIN)
		return sig <= SIGRTMAX;
	return sig < __SIGRTMIN;
}

/* Install the handlers once (see base/signals.h). */
void
signals_install(void)
{
	struct sigaction sa;

	if (signals_installed)
		return;
	signals_installed = true;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = signals_handler;
	sigfillset(&sa.sa_mask);
	/* Every signal whose default is to end the process (SIGPIPE too: "iobufviz --headless
	 * x | head" must not leave its dir behind; SIGSEGV and the like too, whose handler
	 * here only removes our files and gives the terminal back before dying as before). */
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction old;

		if (!signals_terminates(sig) || sigaction(sig, NULL, &old) != 0)
			continue;
		/* A signal ignored when we started stays ignored (nohup). */
		if (old.sa_handler == SIG_IGN && !(old.sa_flags & SA_SIGINFO))
			continue;
		signals_old_action[sig] = old;
		sigaction(sig, &sa, NULL);
	}
	/*
	 * Past RLIMIT_FSIZE ("ulimit -f"), a write of ours (the prefill, a sweep's files) must
	 * fail with EFBIG and be reported, not kill us with the dir still there. The worker
	 * sets every signal back to SIG_DFL: there, SIGXFSZ stays the lesson it is.
	 */
	signal(SIGXFSZ, SIG_IGN);
}

/* Run fn first on a fatal signal: it gives the terminal back. */
void
signals_on_fatal_terminal(void (*fn)(void))
{
	signals_terminal = fn;
	signals_install();
}

/* Run fn after the terminal on a fatal signal. */
int
signals_on_fatal(void (*fn)(void))
{
	sigset_t all, old;
	bool known = false;

	for (sig_atomic_t i = 0; i < signals_n_cleanups; i++)
		known = known || signals_cleanup[i] == fn;
	if (!known && signals_n_cleanups == SIGNALS_MAX_CLEANUPS) {
		errno = ENOSPC;
		return -1;
	}
	if (!known) {
		/* No signal between filling the slot and counting it. */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		signals_cleanup[signals_n_cleanups] = fn;
		signals_n_cleanups++;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	signals_install();
	return 0;
}
