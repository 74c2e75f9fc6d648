/* SPDX-License-Identifier: MIT */
/* trace/tracer.h: ptrace the worker and record every system call it makes on the scratch file. */
#ifndef IOBUFVIZ_TRACER_H
#define IOBUFVIZ_TRACER_H

#include <stdbool.h>
#include <sys/types.h>

#include "trace/event.h"

struct tracer;
struct call_row;
struct decode_stop;
struct peek;

/*
 * Seize pid (PTRACE_O_TRACESYSGOOD|PTRACE_O_EXITKILL) and let it run until it enters
 * read(idle_fd, ...): its "idle" marker, where it waits for the next command. path,
 * dev and ino identify the scratch file. 0 and *out, or -1 with errno (EPERM: ptrace
 * refused, e.g. already traced by strace or gdb); *status is set if the worker ended.
 */
int tracer_attach(pid_t pid, int idle_fd, const char *path, dev_t dev, ino_t ino,
                  struct tracer **out, int *status);

/*
 * Resume the idle worker (its command must already be in the pipe) and record, until
 * it is idle again, the calls that concern the scratch file into out, each with origin.
 * watch_fd is the scenario's current fd (or -1): a call on it that fails with EBADF is
 * recorded too, since a closed fd no longer names the file. 0 = idle again; 1 = the
 * worker ended (*status from waitpid, already reaped); -1 = error with errno.
 */
int tracer_step(struct tracer *t, enum ev_origin origin, int watch_fd,
                struct event_list *out, int *status);

/*
 * While tracer_step runs, call fn(user) after every stop of the tracee and after every
 * signal that interrupts the wait for one (the caller may arm a timer for that); when fn
 * returns non-zero the tracee is killed and tracer_step returns 1. fn NULL: never.
 */
void tracer_set_poll(struct tracer *t, int (*fn)(void *), void *user);

/*
 * The event this tracer records for the finished call s of row c, its memory read through m:
 * every field but ns, origin and child (tests/check-calls holds it beside the program
 * tracer's prog_trace_event).
 */
void tracer_event(const struct call_row *c, const struct decode_stop *s, const struct peek *m,
                  struct event *e);

/* Forget the tracee (the caller kills and reaps it). NULL is fine. */
void tracer_free(struct tracer *t);

#endif
