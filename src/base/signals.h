/* SPDX-License-Identifier: MIT */
/* base/signals.h: the process's fatal signals, handled in one place: the terminal given back
 * first, then every registered cleanup, then the process dies of the same signal. */
#ifndef IOBUFVIZ_SIGNALS_H
#define IOBUFVIZ_SIGNALS_H

/* At most this many cleanups are registered (scratch dirs, and what later areas add). */
#define SIGNALS_MAX_CLEANUPS 4

/*
 * Run fn first when a signal whose default action ends the process arrives: it gives the
 * terminal back (crt_done), so that whatever a cleanup or a sanitizer prints is readable.
 * Installs the handlers (signals_install). One terminal at a time: a second fn replaces it.
 */
void signals_on_fatal_terminal(void (*fn)(void));

/*
 * Run fn, after the terminal, when such a signal arrives (removing scratch dirs, killing the
 * children that write there). fn must be async-signal-safe and check that it runs in the
 * process it belongs to: a forked child inherits the handlers. Installs the handlers.
 * 0, or -1 (errno ENOSPC) if SIGNALS_MAX_CLEANUPS are registered already. fn registered
 * twice runs once.
 */
int signals_on_fatal(void (*fn)(void));

/*
 * Install the handlers once: every signal whose default action ends the process (SIGPIPE
 * too, SIGSEGV and the like too) unless it was ignored when we started (nohup); SIGXFSZ is
 * ignored, so that a write of ours past "ulimit -f" fails with EFBIG and is reported. A crash
 * signal goes on, after the cleanups, to the handler it had before (a sanitizer's); any other
 * to its default action.
 */
void signals_install(void);

#endif
