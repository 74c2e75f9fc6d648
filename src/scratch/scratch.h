/* SPDX-License-Identifier: MIT */
/* scratch/scratch.h: private scratch directories, the only places iobufviz writes to. */
#ifndef IOBUFVIZ_SCRATCH_H
#define IOBUFVIZ_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct text_buf;

#define SCRATCH_MAX_DIRS 12

/*
 * Make a private directory "PARENT/iobufviz.XXXXXX" (mode 0700) and remember it for
 * cleanup at exit and on every signal whose default action ends the process. The dir is
 * locked (flock on the dir itself, and on a lock file in it) for as long as this process, or
 * a child it forked, lives; the lock file gets its name only once it is locked, so no reaper
 * ever finds it free while we live. A run held between mkdirat and its lock for longer than a
 * reaper waits (60 s) finds its dir taken, and makes another.
 * PARENT NULL means $TMPDIR or /tmp.
 * Return its index (>= 0), or -1 with errno set.
 */
int scratch_mkdir(const char *parent);

/*
 * Make the scratch dir for files of need bytes in all: under /dev/shm (tmpfs) if tmpfs,
 * else under dir (NULL: $TMPDIR or /tmp, as scratch_mkdir), and check that its filesystem
 * has need bytes free. Return its index, or -1 with errno set and why, for people, in msg
 * (len bytes); no dir is then left.
 */
int scratch_place(bool tmpfs, const char *dir, uint64_t need, char *msg, size_t len);

/*
 * The parent for scratch dirs when no --dir is given: $TMPDIR if set (the user's choice);
 * else /tmp, unless /tmp is tmpfs or overlayfs (no disk to show), then /var/tmp or
 * $XDG_CACHE_HOME, whichever is a writable disk-backed directory. why is set to say so,
 * whole, when it is not /tmp ("scratch on /var/tmp: /tmp is tmpfs"), else to "".
 */
const char *scratch_default_parent(struct text_buf *why);

/* Path of scratch dir IDX, or NULL. */
const char *scratch_dir(int idx);

/*
 * Create NAME (no '/') in scratch dir IDX with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC|FLAGS,
 * mode 0600. Return the fd, or -1 with errno set.
 */
int scratch_create(int idx, const char *name, int flags);

/*
 * The open directory fd of scratch dir IDX (O_CLOEXEC), or -1. Everything made, opened or
 * removed in the dir goes through it (openat, unlinkat, fchdir), never through the path:
 * its parent could be swapped for another (a symlink in TMPDIR, a writable --dir).
 */
int scratch_dirfd(int idx);

/* Open existing NAME (no '/') in scratch dir IDX with O_NOFOLLOW|O_CLOEXEC|FLAGS (no O_CREAT). */
int scratch_open(int idx, const char *name, int flags);

/* Remove NAME (no '/') from scratch dir IDX. 0, or -1 with errno set. */
int scratch_unlink(int idx, const char *name);

/* Write "DIR/NAME" into buf (len bytes). Return buf, or NULL if it does not fit. */
char *scratch_path(int idx, const char *name, char *buf, size_t len);

/* Remove dir IDX and everything in it, and forget it. */
void scratch_remove(int idx);

/* Remove every scratch dir this process made. Safe to call twice. */
void scratch_cleanup(void);

/*
 * fork(), for a child that may create or write files in a scratch dir (the worker, a
 * sweep's timed run, a pty snippet): on a fatal signal and at exit it is killed and reaped
 * before the dirs are removed, so it can neither leave a file behind nor go on writing;
 * it also gets PR_SET_PDEATHSIG(SIGKILL), and SIGCHLD unblocked (a tracer blocks it). Call
 * scratch_forget(pid) once it is reaped.
 * Returns as fork() does.
 */
pid_t scratch_fork(void);

/* Stop watching child pid of scratch_fork (it was reaped). Unknown pids are ignored. */
void scratch_forget(pid_t pid);

/*
 * Remove the scratch dirs under PARENT (NULL: $TMPDIR or /tmp) left by runs of ours that
 * are gone (killed by SIGKILL, the OOM killer, a power cut): only dirs named like ours,
 * owned by us, mode 0700, that nobody holds locked (the dir itself and its lock file), and
 * that hold their lock file or are what a kill before it leaves (empty, or the lock file
 * being made alone) and 60 s old. Call report (if not NULL) with each path removed. Return
 * how many were removed.
 */
int scratch_reap(const char *parent, void (*report)(const char *path, void *user), void *user);

#endif
