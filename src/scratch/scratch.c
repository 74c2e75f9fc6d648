/* SPDX-License-Identifier: MIT */
/* scratch/scratch.c: private scratch directories, removed at exit and on fatal signals. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/signals.h"
#include "base/text.h"
#include "scratch/scratch.h"

/* At most this many children of scratch_fork are watched at once (worker, sweep run, pty). */
#define SCRATCH_MAX_CHILDREN 8

/* The lock file in every scratch dir: held (flock) by the run that made the dir, for as long
 * as it lives, so that a later run can prove the dir's owner is gone (scratch_reap). */
#define SCRATCH_LOCK ".iobufviz-lock"
/* The lock file's name while it is made, before it is locked. */
#define SCRATCH_LOCK_NEW ".iobufviz-lock.new"
/* A dir without its lock file (empty, or holding SCRATCH_LOCK_NEW alone) is a run's setup, a
 * few system calls long while the run lives: older than this, its run was killed there. */
#define SCRATCH_SETUP_SECONDS 60

/* waitid()'s P_PIDFD (Linux 5.4), spelled out for C libraries that predate it. */
#define SCRATCH_P_PIDFD ((idtype_t)3)

/*
 * Global state, because a signal handler must find it: the dirs to remove, the pid
 * that owns them (forked children must not remove their parent's files), and
 * the live children (as pidfds, so that a reaped child's pid reused by a stranger is
 * never signalled) to kill before removing the dirs they may still be writing in.
 */
static char scratch_dirs[SCRATCH_MAX_DIRS][PATH_MAX];
/* Each dir stays open, and its parent too: removal and creation go through these fds, never
 * through a path whose components (TMPDIR, --dir, a symlink) someone could swap meanwhile. */
static int scratch_dfd[SCRATCH_MAX_DIRS];
static int scratch_pfd[SCRATCH_MAX_DIRS];
static int scratch_lfd[SCRATCH_MAX_DIRS];
/* The process that made each dir: only it removes the dir. A child of scratch_fork sees its
 * parent's dirs (and works in them) but never removes them; a dir it makes itself (a run
 * step's helper tracing a program) is its own to remove. */
static volatile sig_atomic_t scratch_dir_pid[SCRATCH_MAX_DIRS];
static int scratch_installed;
static volatile sig_atomic_t scratch_child_pid[SCRATCH_MAX_CHILDREN];
static volatile sig_atomic_t scratch_child_fd[SCRATCH_MAX_CHILDREN];
/* The process that forked each (a plain fork() of it inherits the table: not its to kill). */
static volatile sig_atomic_t scratch_child_parent[SCRATCH_MAX_CHILDREN];
static int scratch_child_init;

/*
 * Remove every entry of the dir open as dfd, its lock file last (a kill on the way leaves a
 * dir that still says whose it was), then the dir (NAME in the dir open as pfd), and close
 * both fds (the dir's lock goes only once it is gone). Async-signal-safe: raw getdents64,
 * lseek, unlinkat, close. 0 if the dir was removed, else -1.
 */
static int
scratch_rmtree_at(int dfd, int pfd, const char *name)
{
	char buf[4096];
	int rc = -1;

	/* A dir fd opened before its entries were made may not list them until it is rewound
	 * (btrfs keeps the cursor's view of the directory): start from the top. */
	if (dfd >= 0)
		lseek(dfd, 0, SEEK_SET);
	for (int removed = 1; dfd >= 0 && removed > 0;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof buf);
		if (n <= 0)
			break;
		removed = 0;
		for (long off = 0; off < n;) {
			struct {
				unsigned long long d_ino;
				long long d_off;
				unsigned short d_reclen;
				unsigned char d_type;
				char d_name[];
			} *d = (void *)(buf + off);
			if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0 &&
			    strcmp(d->d_name, SCRATCH_LOCK) != 0)
				if (unlinkat(dfd, d->d_name, 0) == 0)
					removed++;
			off += d->d_reclen;
		}
		/* Entries went away under the cursor: read again from the top, but
		 * only while a pass removes something (a subdirectory never goes). */
		lseek(dfd, 0, SEEK_SET);
	}
	if (dfd >= 0)
		unlinkat(dfd, SCRATCH_LOCK, 0);
	/* If someone renamed our dir meanwhile, this fails: their entry is not ours to remove. */
	if (pfd >= 0 && name != NULL)
		rc = unlinkat(pfd, name, AT_REMOVEDIR);
	if (dfd >= 0)
		close(dfd);
	if (pfd >= 0)
		close(pfd);
	return rc;
}

/* Remove scratch dir idx and everything in it; its lock goes with its fd. */
static void
scratch_rmtree(int idx)
{
	const char *name = strrchr(scratch_dirs[idx], '/');

	scratch_rmtree_at(scratch_dfd[idx], scratch_pfd[idx], name != NULL ? name + 1 : NULL);
	if (scratch_lfd[idx] >= 0)
		close(scratch_lfd[idx]);
	scratch_dfd[idx] = scratch_pfd[idx] = scratch_lfd[idx] = -1;
}

/*
 * Kill and reap every watched child. Async-signal-safe: pidfd_send_signal, ptrace, waitid
 * and nanosleep. A child still in a system call finishes it first (SIGKILL acts on the way
 * back), so only once it is reaped can it no longer create a file in a scratch dir. A child
 * this process traces may stop on its way out (PTRACE_O_TRACEEXIT: SIGKILL does not wake
 * it) or be stopped already: it is resumed until it has exited.
 */
static void
scratch_kill_children(void)
{
	for (int i = 0; i < SCRATCH_MAX_CHILDREN; i++) {
		int fd = scratch_child_fd[i];
		siginfo_t si;

		if (scratch_child_pid[i] <= 0 || fd < 0 || scratch_child_parent[i] != getpid())
			continue;
		if (syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) == 0)
			for (;;) {
				static const struct timespec ms = { 0, 1000000 };
				ptrace(PTRACE_CONT, scratch_child_pid[i], 0, 0);
				si.si_pid = 0;
				if (waitid(SCRATCH_P_PIDFD, (id_t)fd, &si, WEXITED | WNOHANG | __WALL) < 0 &&
				    errno != EINTR)
					break;
				if (si.si_pid != 0 && (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED ||
				                       si.si_code == CLD_DUMPED))
					break;
				nanosleep(&ms, NULL);
			}
		scratch_child_pid[i] = 0;
		scratch_child_fd[i] = -1;
		close(fd);
	}
}

/* Remove the dirs this process made, after killing the children that could write there. */
static void
scratch_cleanup_owned(void)
{
	pid_t self = getpid();

	scratch_kill_children();
	for (int i = 0; i < SCRATCH_MAX_DIRS; i++)
		if (scratch_dirs[i][0] != '\0' && scratch_dir_pid[i] == self) {
			scratch_rmtree(i);
			scratch_dirs[i][0] = '\0';
		}
}

/* Remove the dirs at exit and on every fatal signal (base/signals.c), once. 0, or -1 (errno). */
static int
scratch_install(void)
{
	if (scratch_installed)
		return 0;
	/* A dir no signal would remove is not made. */
	if (signals_on_fatal(scratch_cleanup_owned) != 0)
		return -1;
	scratch_installed = 1;
	atexit(scratch_cleanup_owned);
	return 0;
}

/* A random name "iobufviz.XXXXXX" into name (16 bytes), as mkdtemp would choose. */
static void
scratch_name(char *name)
{
	static const char set[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[6];
	struct timespec ts;

	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)((unsigned long)ts.tv_nsec >> (i * 5)) ^ (unsigned char)getpid();
	}
	memcpy(name, "iobufviz.", 9);
	for (size_t i = 0; i < sizeof r; i++)
		name[9 + i] = set[r[i] % (sizeof set - 1)];
	name[15] = '\0';
}

/*
 * Take the lock of the new dir NAME (open as dfd, st its fstat) under the dir open as pfd:
 * flock on the dir itself, held with dfd until the dir is gone. From mkdirat to here a kill
 * leaves a dir with no lock file, which a reaper takes once it is SCRATCH_SETUP_SECONDS old
 * by taking this lock: false if one did (the lock is taken, or the name is no longer this
 * dir), and this run, held here that long, makes another.
 */
static bool
scratch_mkdir_hold(int pfd, const char *name, int dfd, const struct stat *st)
{
	struct stat now;

	/* EWOULDBLOCK: a reaper's. A filesystem that cannot lock a directory (NFS: EBADF)
	 * has the lock file alone, as an older iobufviz had. */
	if (flock(dfd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
		return false;
	return fstatat(pfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == st->st_dev &&
	       now.st_ino == st->st_ino;
}

/*
 * Make a private scratch dir under parent. Like mkdtemp, but the dir is made and opened
 * relative to an fd of the parent, and checked to be the one we made (a new directory of
 * ours that nobody else can enter) before anything goes into it.
 */
int
scratch_mkdir(const char *parent)
{
	char tmpl[PATH_MAX], name[16];
	int idx = -1, pfd, dfd = -1, lfd = -1, e = EEXIST;
	sigset_t all, old;
	struct stat st;

	if (parent == NULL || *parent == '\0')
		parent = getenv("TMPDIR");
	if (parent == NULL || *parent == '\0')
		parent = "/tmp";
	for (int i = 0; i < SCRATCH_MAX_DIRS; i++)
		if (scratch_dirs[i][0] == '\0') {
			idx = i;
			break;
		}
	if (idx < 0) {
		errno = EMFILE;
		return -1;
	}
	if ((size_t)snprintf(tmpl, sizeof tmpl, "%s/iobufviz.XXXXXX", parent) >= sizeof tmpl) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* The parent is the user's choice: following a symlink to it is fine, once, here. */
	pfd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (scratch_install() != 0) {
		e = errno;
		close(pfd);
		errno = e;
		return -1;
	}
	/* No signal between mkdir and remembering the dir, or it would be left behind. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; tries < 100 && dfd < 0; tries++) {
		scratch_name(name);
		if (mkdirat(pfd, name, 0700) != 0) {
			e = errno;
			if (e == EEXIST)
				continue;
			break;
		}
		dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* Gone already: this run was held past SCRATCH_SETUP_SECONDS (stopped, traced)
		 * and a reaper took the dir. Another name. */
		if (dfd < 0 && errno == ENOENT)
			continue;
		/* Between mkdirat and openat a writer of the parent could have put another
		 * dir in its place: only ours (our uid, no access for others) is used. */
		if (dfd >= 0 && (fstat(dfd, &st) != 0 || st.st_uid != geteuid() ||
		                 (st.st_mode & 077) != 0)) {
			close(dfd);
			dfd = -1;
			e = EPERM;
			break;
		}
		if (dfd < 0) {
			e = errno;
			unlinkat(pfd, name, AT_REMOVEDIR);
			break;
		}
		if (!scratch_mkdir_hold(pfd, name, dfd, &st)) {
			close(dfd);
			dfd = -1;
			continue;
		}
		/* Our lock file, held until we go: a later run that can take it knows we are
		 * gone (and so does an older iobufviz, which knows no other lock). It is made
		 * and locked under another name, and only then renamed to the name a reaper
		 * looks for: a concurrent reaper never finds it unlocked. */
		lfd = openat(dfd, SCRATCH_LOCK_NEW, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		             O_CLOEXEC, 0600);
		if (lfd < 0 || flock(lfd, LOCK_EX | LOCK_NB) != 0 ||
		    renameat(dfd, SCRATCH_LOCK_NEW, dfd, SCRATCH_LOCK) != 0) {
			e = errno;
			if (lfd >= 0)
				close(lfd);
			scratch_rmtree_at(dfd, dup(pfd), name);
			dfd = lfd = -1;
			break;
		}
	}
	if (dfd < 0) {
		close(pfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	memcpy(tmpl + strlen(tmpl) - 6, name + 9, 6);
	memcpy(scratch_dirs[idx], tmpl, strlen(tmpl) + 1);
	scratch_dfd[idx] = dfd;
	scratch_pfd[idx] = pfd;
	scratch_lfd[idx] = lfd;
	scratch_dir_pid[idx] = getpid();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return idx;
}

/* True if name is one scratch_name() could have made ("iobufviz." and six letters or digits). */
static bool
scratch_is_name(const char *name)
{
	if (strncmp(name, "iobufviz.", 9) != 0 || strlen(name) != 15)
		return false;
	for (int i = 9; i < 15; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/*
 * True if the dir open as dfd (st its fstat) is what a run killed in its setup leaves: no
 * lock file, nothing in it but the lock file being made, and SCRATCH_SETUP_SECONDS old (its
 * last change: the lock file's creation, or mkdirat).
 */
static bool
scratch_setup_left(int dfd, const struct stat *st)
{
	struct timespec now;
	struct dirent *de;
	bool empty = true;
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
		        strcmp(de->d_name, SCRATCH_LOCK_NEW) == 0;
	closedir(d);
	clock_gettime(CLOCK_REALTIME, &now);
	return empty && now.tv_sec - st->st_mtim.tv_sec > SCRATCH_SETUP_SECONDS;
}

/*
 * If NAME in the dir open as pfd is a scratch dir of ours whose owner is gone, remove it
 * and return 1; else 0. Ours: our uid, mode 0700, holding our lock file, or left by a run
 * killed in its setup (scratch_setup_left). Gone: the lock file's lock and the dir's own can
 * be taken (flock locks die with the last process that held the file open).
 */
static int
scratch_reap_one(int pfd, const char *name)
{
	struct stat st, lst;
	int dfd, lfd, removed;

	dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	if (fstat(dfd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		close(dfd);
		return 0;
	}
	lfd = openat(dfd, SCRATCH_LOCK, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (lfd >= 0 ? fstat(lfd, &lst) != 0 || !S_ISREG(lst.st_mode) ||
	               lst.st_uid != geteuid() || flock(lfd, LOCK_EX | LOCK_NB) != 0 :
	               errno != ENOENT || !scratch_setup_left(dfd, &st)) {
		if (lfd >= 0)
			close(lfd);
		close(dfd);
		return 0;
	}
	/* The dir's own lock: a live run holds it from its setup on (scratch_mkdir_hold). */
	if (flock(dfd, LOCK_EX | LOCK_NB) != 0) {
		if (lfd >= 0)
			close(lfd);
		close(dfd);
		return 0;
	}
	/* Holding the locks now, no other run can take the dir while we remove it, nor a run
	 * held in its setup take it back before it is gone. */
	removed = scratch_rmtree_at(dfd, dup(pfd), name) == 0;
	if (lfd >= 0)
		close(lfd);
	return removed;
}

/* Remove the stale scratch dirs of dead runs of ours under parent (see scratch/scratch.h). */
int
scratch_reap(const char *parent, void (*report)(const char *path, void *user), void *user)
{
	char path[PATH_MAX];
	struct dirent *de;
	int removed = 0, pfd;
	DIR *d;

	if (parent == NULL || *parent == '\0')
		parent = getenv("TMPDIR");
	if (parent == NULL || *parent == '\0')
		parent = "/tmp";
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return 0;
	d = fdopendir(dup(pfd));
	if (d == NULL) {
		close(pfd);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (!scratch_is_name(de->d_name) || !scratch_reap_one(pfd, de->d_name))
			continue;
		removed++;
		if (report != NULL &&
		    (size_t)snprintf(path, sizeof path, "%s/%s", parent, de->d_name) < sizeof path)
			report(path, user);
	}
	closedir(d);
	close(pfd);
	return removed;
}

/* True if dir is a writable directory on a filesystem with a disk behind it (not tmpfs,
 * ramfs or overlayfs); *fs names what it is on when it is not. */
static bool
scratch_disk_backed(const char *dir, const char **fs)
{
	struct statfs sfs;

	*fs = NULL;
	if (dir == NULL || *dir != '/' || statfs(dir, &sfs) != 0 || access(dir, W_OK | X_OK) != 0)
		return false;
	if ((uint32_t)sfs.f_type == 0x01021994u)
		*fs = "tmpfs";
	else if ((uint32_t)sfs.f_type == 0x858458F6u)
		*fs = "ramfs";
	else if ((uint32_t)sfs.f_type == 0x794C7630u)
		*fs = "overlay";
	return *fs == NULL;
}

/* Where scratch dirs go when neither --dir nor $TMPDIR says: see scratch/scratch.h. */
const char *
scratch_default_parent(struct text_buf *why)
{
	const char *tmp_fs, *fs, *xdg = getenv("XDG_CACHE_HOME");
	const char *tmpdir = getenv("TMPDIR");

	text_reset(why);
	if (tmpdir != NULL && *tmpdir != '\0')
		return tmpdir;
	if (scratch_disk_backed("/tmp", &tmp_fs) || tmp_fs == NULL)
		return "/tmp";
	if (scratch_disk_backed("/var/tmp", &fs)) {
		text_setf(why, "scratch on /var/tmp: /tmp is %s", tmp_fs);
		return "/var/tmp";
	}
	if (xdg != NULL && scratch_disk_backed(xdg, &fs)) {
		text_setf(why, "scratch on %s ($XDG_CACHE_HOME): /tmp is %s", xdg, tmp_fs);
		return xdg;
	}
	text_setf(why, "scratch on /tmp, which is %s: neither /var/tmp nor $XDG_CACHE_HOME is a "
	          "writable disk-backed directory", tmp_fs);
	return "/tmp";
}

/*
 * Make the scratch dir for need bytes of files: under /dev/shm (tmpfs) or dir, on a
 * filesystem with room for them. Its free space is read through the dir's fd.
 */
int
scratch_place(bool tmpfs, const char *dir, uint64_t need, char *msg, size_t len)
{
	const char *parent = tmpfs ? "/dev/shm" : dir;
	struct statvfs vfs;
	struct stat sb;
	uint64_t avail;
	int idx;

	if (tmpfs && (stat(parent, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
		snprintf(msg, len, "this scenario needs tmpfs, but /dev/shm does not exist");
		errno = ENOENT;
		return -1;
	}
	if ((idx = scratch_mkdir(parent)) < 0) {
		snprintf(msg, len, "cannot make a scratch directory under %s: %s",
		    parent != NULL && *parent != '\0' ? parent : "$TMPDIR or /tmp", strerror(errno));
		return -1;
	}
	if (fstatvfs(scratch_dfd[idx], &vfs) == 0 &&
	    (avail = (uint64_t)vfs.f_bavail * vfs.f_frsize) < need) {
		/* Name the parent: the scratch dir is removed before the message is read. */
		int plen = (int)(strrchr(scratch_dirs[idx], '/') - scratch_dirs[idx]);
		snprintf(msg, len, "not enough space under %.*s: %" PRIu64 " bytes of scratch files "
		    "needed, %" PRIu64 " free", plen > 0 ? plen : 1, scratch_dirs[idx], need, avail);
		scratch_remove(idx);
		errno = ENOSPC;
		return -1;
	}
	return idx;
}

/* Path of scratch dir idx. */
const char *
scratch_dir(int idx)
{
	if (idx < 0 || idx >= SCRATCH_MAX_DIRS || scratch_dirs[idx][0] == '\0')
		return NULL;
	return scratch_dirs[idx];
}

/* "DIR/NAME" into buf. */
char *
scratch_path(int idx, const char *name, char *buf, size_t len)
{
	const char *dir = scratch_dir(idx);

	if (dir == NULL || strchr(name, '/') != NULL)
		return NULL;
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		return NULL;
	return buf;
}

/* Create a new file in a scratch dir, never following a link, never reusing a file. */
int
scratch_create(int idx, const char *name, int flags)
{
	char path[PATH_MAX];

	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    scratch_path(idx, name, path, sizeof path) == NULL) {
		errno = EINVAL;
		return -1;
	}
	return openat(scratch_dfd[idx], name, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags,
	              0600);
}

/* The open fd of scratch dir idx, or -1. */
int
scratch_dirfd(int idx)
{
	return scratch_dir(idx) != NULL ? scratch_dfd[idx] : -1;
}

/* Open NAME in scratch dir idx (no '/', never following a link). */
int
scratch_open(int idx, const char *name, int flags)
{
	if (scratch_dirfd(idx) < 0 || *name == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return -1;
	}
	return openat(scratch_dfd[idx], name, O_NOFOLLOW | O_CLOEXEC | (flags & ~O_CREAT));
}

/* Remove NAME from scratch dir idx. */
int
scratch_unlink(int idx, const char *name)
{
	if (scratch_dirfd(idx) < 0 || *name == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return -1;
	}
	return unlinkat(scratch_dfd[idx], name, 0);
}

/* Remove one scratch dir. */
void
scratch_remove(int idx)
{
	if (scratch_dir(idx) == NULL)
		return;
	scratch_rmtree(idx);
	scratch_dirs[idx][0] = '\0';
}

/* Remove every scratch dir. */
void
scratch_cleanup(void)
{
	scratch_cleanup_owned();
}

/* Set up the child table once: no pidfd is 0, so mark every slot empty. */
static void
scratch_children_init(void)
{
	if (scratch_child_init)
		return;
	scratch_child_init = 1;
	for (int i = 0; i < SCRATCH_MAX_CHILDREN; i++) {
		scratch_child_pid[i] = 0;
		scratch_child_fd[i] = -1;
	}
}

/* Fork a child that is killed and reaped before the scratch dirs go (see scratch/scratch.h). */
pid_t
scratch_fork(void)
{
	pid_t parent = getpid(), pid;
	sigset_t all, old;
	int e;

	scratch_children_init();
	/* No signal between fork and watching the child, or it could outlive the cleanup. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	e = errno;
	if (pid == 0) {
		/* Die with the parent even if it gets no chance to clean up (SIGKILL). */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		/* The parent's children are not ours to kill. */
		for (int i = 0; i < SCRATCH_MAX_CHILDREN; i++) {
			scratch_child_pid[i] = 0;
			scratch_child_fd[i] = -1;
		}
		/* A tracer keeps SIGCHLD blocked for its waits: not a thing to inherit (a shell
		 * run here would never hear of its children). */
		sigdelset(&old, SIGCHLD);
	} else if (pid > 0) {
		int fd = (int)syscall(SYS_pidfd_open, pid, 0);
		for (int i = 0; fd >= 0 && i < SCRATCH_MAX_CHILDREN; i++)
			if (scratch_child_pid[i] == 0) {
				scratch_child_fd[i] = fd;
				scratch_child_parent[i] = parent;
				scratch_child_pid[i] = pid;
				fd = -1;
			}
		/* No pidfd (kernel < 5.3) or no free slot: PR_SET_PDEATHSIG is all there is. */
		if (fd >= 0)
			close(fd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

/* Stop watching a child of scratch_fork (reaped, or about to be). */
void
scratch_forget(pid_t pid)
{
	sigset_t all, old;

	if (pid <= 0 || !scratch_child_init)
		return;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < SCRATCH_MAX_CHILDREN; i++)
		if (scratch_child_pid[i] == pid) {
			int fd = scratch_child_fd[i];
			scratch_child_pid[i] = 0;
			scratch_child_fd[i] = -1;
			if (fd >= 0)
				close(fd);
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
