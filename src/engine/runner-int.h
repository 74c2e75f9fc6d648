/* SPDX-License-Identifier: MIT */
/* engine/runner-int.h: the runner's state and the helpers its two files share (engine/runner.c runs the
 * worker's steps; engine/runner-steps.c the steps that run in the runner: sweep, pty, wait, run). */
#ifndef IOBUFVIZ_RUNNER_INT_H
#define IOBUFVIZ_RUNNER_INT_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "base/text.h"
#include "engine/runner.h"
#include "trace/tracer.h"
#include "engine/worker.h"
#include "probe/jwatch.h"
#include "probe/wbwatch.h"

/* A wait sleeps at most this long between two looks at the cache. */
#define RUNNER_WAIT_SLICE_NS 200000000L
/* runner_crash_settle: how often it looks at the device, how long it must stay quiet, and how
 * long it waits at most. */
#define RUNNER_SETTLE_SLICE_NS 2000000L
#define RUNNER_SETTLE_QUIET_MS 10.0
#define RUNNER_SETTLE_MAX_MS 1000.0
/* The scratch file's name in its private dir (the worker opens it relative to the dir). */
#define RUNNER_FILE_NAME "scratch"
/* Null system calls timed for the tracing overhead, untraced and traced. */
#define RUNNER_NULL_CALLS 101

struct crash_lab;

/* Files besides the lesson's own whose state the panes can show. */
#define RUNNER_MAX_OTHER 8

struct runner {
	const struct scenario *s;
	struct runner_opts o;
	int scratch;                 /* scratch dir index, -1 if none */
	struct crash_lab *lab;       /* the crash lab the file is on (--crash-fs), or NULL */
	char lab_why[192];           /* without a lab: why a power cut is not observable here */
	int dirfd;                   /* the dir the file is in: the lab's root, or the scratch dir */
	char path[PATH_MAX];         /* the scratch file */
	char fs[32];                 /* its filesystem */
	struct text_buf place_note;  /* why the scratch dir is where it is; "" if as asked */
	int probe_fd;                /* our own read-only fd on it, for the probes */
	dev_t dev;
	ino_t ino;
	/* The other files the steps act on ("b", "data.new"): our read-only fds on them, kept
	 * open to the end as probe_fd is. The panes show the file of the last step's fd: shown
	 * indexes other[], -1 the lesson's own file. */
	struct runner_other { int fd; dev_t dev; ino_t ino; } other[RUNNER_MAX_OTHER];
	size_t other_next;           /* the next of other[] to give up for a new file, when full */
	size_t n_other;
	int shown;
	struct worker w;
	struct tracer *tracer;       /* NULL: procio fallback */
	enum ev_source source;
	char source_why[96];         /* why procio: "ptrace refused: EPERM", "--trace=procio" */
	bool dead;                   /* the worker ended; later steps run nothing */
	char dead_note[96];
	int cur_fd;                  /* the worker's current fd, from its last reply */
	bool cur_fd_open;
	struct snap_stdio stdio;     /* the worker's last stdio probe */
	struct snapshot initial;
	size_t next;                 /* index of the next step */
	struct runner_overhead overhead;
	bool stop;                   /* the poll or progress callback asked to stop the step */
	bool timed_out;              /* ... or the run reached its timeout (then stop too) */
	double timeout;              /* seconds the run may spend in all (runner_opts) */
	double used;                 /* seconds spent before the current step */
	struct timespec busy;        /* when the current step (or runner_new) began */
	/* What reached the crash lab's device (engine/runner-device.c): its counters when the
	 * last step ended, the writes between steps and during waits since the lesson began
	 * (strays), and those its own steps started. */
	struct snap_device dev_last;
	uint64_t stray_writes, own_writes;
	/* Strays before the lesson last made a file durable (its fsync() or fdatasync(), a
	 * sync()) cannot change what a power cut keeps of it: the stray count then, per file
	 * (NULL: the scratch file), and at the last sync(); handle_file[h]: the file the open
	 * of handle h named (runner_crash_synced). */
	const char *handle_file[SCN_MAX_NAMES + 1];
	/* Per file too: whether its data and its name are as the lesson last made them
	 * durable (clean), else the stray count when they first changed since (dirty_at):
	 * strays matter to what a power cut keeps of it only from then (crash_half.kept_strays,
	 * name_strays). A file first seen is dirty since the lab's birth. */
	struct runner_synced {
		const char *name;
		uint64_t strays;
		bool data_clean, name_clean;
		uint64_t data_dirty_at, name_dirty_at;
	} synced[SCN_MAX_NAMES + 2];
	size_t n_synced;
	uint64_t strays_at_sync;
	bool handle_dir[SCN_MAX_NAMES + 1];  /* handle h was opened O_DIRECTORY */
	bool handle_sync[SCN_MAX_NAMES + 1]; /* ... O_SYNC or O_DSYNC: its writes are durable */
	struct timespec step_end;    /* when the last step (not a crash step) ended */
	struct timespec last_end;    /* when the last step of any kind ended */
	uint64_t wb_last;            /* the writeback count then (engine/runner-device.c) */
	size_t dev_step;             /* the last pause with device writes: after this step */
	double dev_at;               /* ... seconds after it (step_pause) */
	struct wbwatch *wb;          /* the kernel's writebacks of the file, counted; NULL:
	                                not countable here (probe/wbwatch.c) */
	bool wb_open;                /* the worker started: count writebacks once the file is */
	uint64_t wb_clean;           /* their count when a step that waits for the disk last
	                                left the file clean (no page dirty or under writeback),
	                                none of them running */
	bool delalloc_seen;          /* FIEMAP showed delalloc after the last step that was not
	                                a wait: where dirty pages cannot be counted, delalloc
	                                gone since says that writeback began (runner_op_wait) */
	/* The lab's journal (engine/runner-device.c): a commit its timer makes is the kernel's,
	 * and one that came due in a pause is waited for before the next step. */
	struct jwatch *jw;           /* ext4's jbd2 in a lab; NULL: none, or not countable */
	double jw_interval;          /* its commit interval, seconds */
	struct jwatch_counts jw_last; /* its counts at the last look */
	double jw_at;                /* when that was (runner_clock) */
	double jw_tx;                /* since when a transaction may be running uncommitted
	                                (runner_clock; the earliest it can have begun); -1: none */
};

/* A runner-side op: fills out (ret, err, note, events) and leaves snapshots to the caller. */

/* Observe the state now: stdio as the worker last reported it, the rest by the probes. */
void runner_observe(struct runner *r, struct snapshot *snap);

/* Append a sentence to the step's note. */
void runner_note(struct step_result *out, const char *fmt, ...);

/* Seconds since start. */
double runner_since(const struct timespec *start);

/*
 * True once the run has spent its timeout: the time of runner_new and of the steps, not the
 * time a person takes between two steps in the TUI. Remembers it: the step stops.
 */
bool runner_check_timeout(struct runner *r);

/* Ask the caller's poll (the TUI's q) and the run's timeout now: true (and remembered in
 * r->stop) if the step is to stop. */
bool runner_poll_now(struct runner *r);

/* A tracer's poll (arg: the runner): when the ticker (engine/ticker.c) has ticked,
 * runner_poll_now; non-zero when the step is to stop. */
int runner_poll_check(void *arg);

/* Say in the step's result that the run's timeout stopped it. */
void runner_note_timeout(struct runner *r, struct step_result *out);

/* Send step index to the worker and collect what it did (events, reply). */
void runner_exchange(struct runner *r, size_t index, struct step_result *out);

/* engine/runner-crash.c: crash: both crashes now, into out->crash. */
void runner_op_crash(struct runner *r, const struct scn_step *step, struct step_result *out);

/* engine/runner-device.c: the crash lab's device's counters since the lab was made (its own
 * count from its attach, mkfs and all). */
void runner_crash_device(struct runner *r, struct snap_device *out);

/* engine/runner-device.c: count the writes that reached the lab's device from r->dev_last to
 * now (the device's counters in now) as the lesson's own (own: a step of it made them) or as
 * strays, and make now the last counters. */
void runner_crash_account(struct runner *r, const struct snap_device *now, bool own);

/* engine/runner-device.c: true if the writes during step are the lesson's: a call of its own,
 * a close() after O_TRUNC, a rename(), another file's fsync(), a run step's program, a crash
 * (its dying copy's close); not a wait, which gives the kernel's timers their time. */
bool runner_crash_own(const struct scn_step *step);

/* A pause's slice: how often it looks at the writebacks and the device. */
#define RUNNER_PAUSE_SLICE_NS 100000000L
/* How late a journal commit that came due may be, past its transaction's start plus the
 * interval: its timer is rounded up to a whole second (1 s), fires as late as the timer
 * wheel's granularity (0.5 s at HZ=1000), and the commit takes its time (0.5 s, loaded). A
 * pause waits at most this long past the due time for it. */
#define RUNNER_JOURNAL_LATE_S 2.0

/* Seconds on the monotonic clock. */
double runner_clock(void);

/* engine/runner-device.c: look at the lab's journal now: note when a transaction may have
 * begun, and when the commits seen took it (r->jw_tx). Nothing without a journal watch. */
void runner_journal_look(struct runner *r);

/* engine/runner-device.c: the pause before step out->index (not the first): wait
 * r->o.pace seconds, if any, watching the kernel's writebacks of the file and the crash
 * lab's device; fill out->pause (step/step.h). */
void runner_pause(struct runner *r, struct step_result *out);

/* engine/runner-device.c: with a crash lab, wait until what a step started has reached the
 * device (ext4's and xfs's close() after O_TRUNC, a rename() over a file, start writeback
 * and return): when requests were in flight at the step's end, until none is and no new
 * one came for RUNNER_SETTLE_QUIET_MS, at most
 * RUNNER_SETTLE_MAX_MS; *now (the counters at the step's end) becomes the counters then. */
void runner_crash_settle(struct runner *r, struct snap_device *now);

/* engine/runner-device.c: with a crash lab, before a step: while the kernel has the file's
 * writeback running (wbwatch), a journal commit running (jwatch) or requests in flight on the
 * device, wait until none is and no new request came for RUNNER_SETTLE_QUIET_MS, at most
 * RUNNER_SETTLE_MAX_MS. What another writer began in the pause (a sync() elsewhere, the
 * journal's timer) then reaches the device before the step's counters are read: a stray,
 * never counted as the step's own. */
void runner_crash_quiet(struct runner *r);

/* After step sr: the file each handle names, and the strays counted when the lesson last made
 * a file durable (see struct runner). */
void runner_crash_synced(struct runner *r, const struct step_result *sr);

/*
 * engine/runner-file.c: make the scratch file (in a scratch dir, or in a crash lab when
 * --crash-fs asks and it can be made; prefilled, clean, cold), say why it is where it is,
 * open the probes' fd on it. 0, or -1 with *err set.
 */
int runner_make_file(struct runner *r, char **err);

/*
 * engine/runner-file.c: true once the lesson's file exists and the probes' fd (r->probe_fd)
 * is open on it; a lesson that makes its file itself has none before the step that does.
 */
bool runner_file_find(struct runner *r);

/* engine/runner.c: kill and reap the worker if it lives, drop the tracer. */
void runner_kill_worker(struct runner *r);

/* engine/runner.c: the worker ended with wait status st: remember why. */
void runner_mark_dead(struct runner *r, int st);

#endif
