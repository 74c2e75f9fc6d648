/* SPDX-License-Identifier: MIT */
/* programs.c: the programs a sweep times (the books' copy.c, write_bytes.c...) in a child. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep/programs.h"
#include "base/fdio.h"
#include "probe/probe.h"
#include "scratch/scratch.h"

/* HP-UX Table 3-5's stdio buffer for fread+setvbuf. */
#define SWEEP_PROG_SETVBUF_SIZE 65536
/* Alignment of the user buffer: enough for O_DIRECT on any filesystem we meet. */
#define SWEEP_PROG_ALIGN 4096

/* What a child sends back over its pipe. */
struct sweep_prog_wire {
	int err;                   /* errno of the failed call, 0 if the work succeeded */
	char what[24];             /* the failed call */
	struct sweep_sample s;
};

/* What the child sets up for a program before the clock starts. */
struct sweep_prog_mem {
	char *buf;                 /* buf_size bytes (at least SWEEP_PROG_ALIGN), aligned */
	char *vbuf;                /* fread+setvbuf: the stdio buffer */
	int nullfd;                /* read: /dev/null, where each piece goes */
	int outfd;                 /* overwrite: the file made before the clock starts */
};

/* Seconds between two timespecs. */
double
sweep_prog_seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Seconds of a timeval. */
static double
sweep_prog_tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

/* syscr and syscw from an open /proc/self/io. 0 or -1. */
static int
sweep_prog_procio(int fd, uint64_t *syscr, uint64_t *syscw)
{
	char buf[512];
	struct probe_io_counters c;
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (probe_io_parse(buf, &c) < 6)
		return -1;
	*syscr = c.syscr;
	*syscw = c.syscw;
	return 0;
}

/*
 * Seconds this process has waited on a run queue (runnable, another task on the CPU), from
 * an open /proc/self/schedstat ("on-CPU ns, run-queue wait ns, timeslices"); -1 if unknown.
 */
static double
sweep_prog_waited(int fd)
{
	char buf[128];
	unsigned long long run, wait;
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return -1;
	return (double)wait / 1e9;
}

/* Follow a write with what the variant asks for. */
static int
sweep_prog_sync(const struct scn_variant *v, int fd)
{
	if (v->sync_each == SCN_SYNC_FSYNC)
		return fsync(fd);
	if (v->sync_each == SCN_SYNC_FDATASYNC)
		return fdatasync(fd);
	return 0;
}

/* Record a failed call; return its errno. */
static int
sweep_prog_fail(struct sweep_prog_wire *w, const char *what)
{
	int e = errno ? errno : EIO;

	snprintf(w->what, sizeof w->what, "%s", what);
	return e;
}

/* write() limit bytes in buf_size chunks to fd, each followed by the variant's sync if sync. */
static int
sweep_prog_fill(const struct sweep_prog_job *j, const struct sweep_prog_mem *m, int fd,
    bool sync, struct sweep_prog_wire *w)
{
	for (uint64_t done = 0; done < j->limit;) {
		size_t n = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if (write(fd, m->buf, n) != (ssize_t)n)
			return sweep_prog_fail(w, "write");
		if (sync && sweep_prog_sync(j->v, fd) != 0)
			return sweep_prog_fail(w, "fsync");
		done += n;
		w->s.bytes = done;
	}
	return 0;
}

/* TLPI write_bytes.c: write limit bytes in buf_size chunks to a new file. */
static int
sweep_prog_write(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int fd = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);
	int e;

	if (fd < 0)
		return sweep_prog_fail(w, "open");
	if ((e = sweep_prog_fill(j, m, fd, true, w)) != 0)
		return e;
	if (close(fd) != 0)
		return sweep_prog_fail(w, "close");
	return 0;
}

/*
 * The loop of copy.c and of APUE's figure 3.4: read() the input in buf_size chunks and
 * write() each to out, followed by the variant's sync if sync. 0 or errno.
 */
static int
sweep_prog_pump(const struct sweep_prog_job *j, const struct sweep_prog_mem *m, int in,
    int out, bool sync, struct sweep_prog_wire *w)
{
	ssize_t n = 0;

	for (uint64_t done = 0; done < j->limit; done += (uint64_t)n) {
		size_t want = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if ((n = read(in, m->buf, want)) <= 0)
			break;
		if (write(out, m->buf, (size_t)n) != n)
			return sweep_prog_fail(w, "write");
		if (sync && sweep_prog_sync(j->v, out) != 0)
			return sweep_prog_fail(w, "fsync");
		w->s.bytes = done + (uint64_t)n;
	}
	return n < 0 ? sweep_prog_fail(w, "read") : 0;
}

/* TLPI copy.c: read the input in buf_size chunks, write each to a new file. */
static int
sweep_prog_copy(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int in = scratch_open(j->dir, j->in_name, O_RDONLY);
	int out, e;

	if (in < 0)
		return sweep_prog_fail(w, "open input");
	out = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);
	if (out < 0)
		return sweep_prog_fail(w, "open");
	if ((e = sweep_prog_pump(j, m, in, out, true, w)) != 0)
		return e;
	if (close(in) != 0 || close(out) != 0)
		return sweep_prog_fail(w, "close");
	return 0;
}

/* APUE figure 3.4: read the input in buf_size chunks and write each to /dev/null. */
static int
sweep_prog_read(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int in = scratch_open(j->dir, j->in_name, O_RDONLY | j->v->flags);
	int e;

	if (in < 0)
		return sweep_prog_fail(w, "open");
	/* No sync: /dev/null has nothing to write back. */
	if ((e = sweep_prog_pump(j, m, in, m->nullfd, false, w)) != 0)
		return e;
	if (close(in) != 0)
		return sweep_prog_fail(w, "close");
	return 0;
}

/* HP-UX Table 3-5: fread() buf_size records, with the default or a 64 KiB stdio buffer. */
static int
sweep_prog_fread(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int fd = scratch_open(j->dir, j->in_name, O_RDONLY | j->v->flags);
	FILE *fp;
	size_t n;

	if (fd < 0)
		return sweep_prog_fail(w, "open");
	if ((fp = fdopen(fd, "r")) == NULL)
		return sweep_prog_fail(w, "fdopen");
	if (j->prog == SCN_PROG_FREAD_SETVBUF &&
	    setvbuf(fp, m->vbuf, _IOFBF, SWEEP_PROG_SETVBUF_SIZE) != 0)
		return sweep_prog_fail(w, "setvbuf");
	for (uint64_t done = 0; done < j->limit; done += n) {
		size_t want = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if ((n = fread(m->buf, 1, want, fp)) == 0)
			break;
		w->s.bytes = done + n;
	}
	if (ferror(fp))
		return sweep_prog_fail(w, "fread");
	if (fclose(fp) != 0)
		return sweep_prog_fail(w, "fclose");
	return 0;
}

/* stdio's write side: fwrite() buf_size records to a new file through the default buffer. */
static int
sweep_prog_fwrite(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int fd = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);
	FILE *fp;

	if (fd < 0)
		return sweep_prog_fail(w, "open");
	if ((fp = fdopen(fd, "w")) == NULL)
		return sweep_prog_fail(w, "fdopen");
	for (uint64_t done = 0; done < j->limit;) {
		size_t n = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if (fwrite(m->buf, 1, n, fp) != n)
			return sweep_prog_fail(w, "fwrite");
		/* Syncing each record means flushing stdio first, or fsync has nothing new. */
		if (j->v->sync_each != SCN_SYNC_NONE &&
		    (fflush(fp) != 0 || sweep_prog_sync(j->v, fd) != 0))
			return sweep_prog_fail(w, "fflush/fsync");
		done += n;
		w->s.bytes = done;
	}
	if (fclose(fp) != 0)
		return sweep_prog_fail(w, "fclose");
	return 0;
}

/*
 * overwrite, before the clock: the output file written in full (real blocks, not
 * fallocate's unwritten extents, whose first write is a metadata change) and fsync'd, so
 * the timed writes change no size and no block map.
 */
static int
sweep_prog_overwrite_prepare(const struct sweep_prog_job *j, struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	int fd = scratch_create(j->dir, j->out_name, O_RDWR | O_TRUNC);
	int e;

	if (fd < 0)
		return sweep_prog_fail(w, "open");
	if ((e = sweep_prog_fill(j, m, fd, false, w)) != 0)
		return e;
	w->s.bytes = 0;
	if (fsync(fd) != 0)
		return sweep_prog_fail(w, "fsync");
	close(fd);
	/* Opened again with the variant's flags (O_SYNC, O_DSYNC) for the timed part. */
	if ((m->outfd = scratch_open(j->dir, j->out_name, O_RDWR | j->v->flags)) < 0)
		return sweep_prog_fail(w, "open");
	return 0;
}

/* A database's page writes: pwrite() buf_size blocks in place, the variant's sync after each. */
static int
sweep_prog_overwrite(const struct sweep_prog_job *j, const struct sweep_prog_mem *m,
    struct sweep_prog_wire *w)
{
	for (uint64_t done = 0; done < j->limit;) {
		size_t n = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if (pwrite(m->outfd, m->buf, n, (off_t)done) != (ssize_t)n)
			return sweep_prog_fail(w, "pwrite");
		if (sweep_prog_sync(j->v, m->outfd) != 0)
			return sweep_prog_fail(w, "fsync");
		done += n;
		w->s.bytes = done;
	}
	if (close(m->outfd) != 0)
		return sweep_prog_fail(w, "close");
	return 0;
}

/*
 * The jbd2 journal of the filesystem that holds dir (ext4, ext3): the path of its
 * /proc/fs/jbd2/NAME-N/info into path; false if there is none (another filesystem, or a
 * device /sys does not name).
 */
static bool
sweep_prog_jbd2_path(int dir, char *path, size_t len)
{
	struct stat st;
	char sys[64], link[256], *name;
	ssize_t n;

	if (fstat(scratch_dirfd(dir), &st) != 0)
		return false;
	snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if ((n = readlink(sys, link, sizeof link - 1)) <= 0)
		return false;
	link[n] = '\0';
	name = strrchr(link, '/') != NULL ? strrchr(link, '/') + 1 : link;
	/* The journal's inode is 8 unless the filesystem was made with another. */
	for (unsigned ino = 8; ino < 16; ino++) {
		snprintf(path, len, "/proc/fs/jbd2/%.64s-%u/info", name, ino);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

/*
 * Transactions the journal at path has committed ("582 transactions (569 requested), ...");
 * -1. Opened each time: the file is a snapshot taken when it is opened.
 */
static int64_t
sweep_prog_jbd2_count(const char *path)
{
	char buf[64];

	if (path[0] == '\0' || fdio_read_text(path, buf, sizeof buf) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* The programs, by enum scn_program: everything about one is its entry. */
static const struct sweep_prog_entry {
	bool reads;                /* reads an input file (so its cache state is prepared) */
	bool writes;               /* writes a new output file */
	bool commits;              /* counts its filesystem's journal commits */
	int (*loop)(const struct sweep_prog_job *, const struct sweep_prog_mem *,
	    struct sweep_prog_wire *);
	int (*prepare)(const struct sweep_prog_job *, struct sweep_prog_mem *,
	    struct sweep_prog_wire *);   /* before the clock starts; may be NULL */
} sweep_prog_table[] = {
	[SCN_PROG_COPY] = { true, true, false, sweep_prog_copy, NULL },
	[SCN_PROG_WRITE] = { false, true, false, sweep_prog_write, NULL },
	[SCN_PROG_READ] = { true, false, false, sweep_prog_read, NULL },
	[SCN_PROG_FWRITE] = { false, true, false, sweep_prog_fwrite, NULL },
	[SCN_PROG_FREAD] = { true, false, false, sweep_prog_fread, NULL },
	[SCN_PROG_FREAD_SETVBUF] = { true, false, false, sweep_prog_fread, NULL },
	[SCN_PROG_OVERWRITE] = { false, true, true, sweep_prog_overwrite,
	                         sweep_prog_overwrite_prepare },
};

/* The entry of program p, or NULL. */
static const struct sweep_prog_entry *
sweep_prog_find(enum scn_program p)
{
	if ((unsigned)p >= sizeof sweep_prog_table / sizeof sweep_prog_table[0] ||
	    sweep_prog_table[p].loop == NULL)
		return NULL;
	return &sweep_prog_table[p];
}

/* True if program p reads an input file. */
bool
sweep_prog_reads(enum scn_program p)
{
	const struct sweep_prog_entry *e = sweep_prog_find(p);

	return e != NULL && e->reads;
}

/* True if program p writes a new output file. */
bool
sweep_prog_writes(enum scn_program p)
{
	const struct sweep_prog_entry *e = sweep_prog_find(p);

	return e != NULL && e->writes;
}

/* True if program p counts journal commits. */
bool
sweep_prog_commits(enum scn_program p)
{
	const struct sweep_prog_entry *e = sweep_prog_find(p);

	return e != NULL && e->commits;
}

/*
 * The child: set everything up, then time the work alone (clock, rusage and /proc/self/io
 * read just before and after it), send the figures up the pipe and leave with _exit so
 * no atexit handler of the parent runs here.
 */
static void
sweep_prog_child(const struct sweep_prog_job *j, int wfd)
{
	const struct sweep_prog_entry *e = sweep_prog_find(j->prog);
	struct sweep_prog_wire w;
	struct sweep_prog_mem m = { .nullfd = -1, .outfd = -1 };
	size_t bsz = j->buf_size < SWEEP_PROG_ALIGN ? SWEEP_PROG_ALIGN : (size_t)j->buf_size;
	void *buf = NULL;
	int iofd, schedfd, err = 0;
	double q0, q1;
	char jpath[128] = "";
	int64_t c0 = -1, c1 = -1;
	uint64_t r0 = 0, w0 = 0, r1 = 0, w1 = 0;
	struct rusage ru0, ru1;
	struct timespec t0, t1;
	bool io_ok;

	memset(&w, 0, sizeof w);
	w.s.commits = -1;
	w.s.wait = -1;
	if (posix_memalign(&buf, SWEEP_PROG_ALIGN, bsz) != 0) {
		w.err = ENOMEM;
		snprintf(w.what, sizeof w.what, "malloc");
		goto out;
	}
	m.buf = buf;
	for (size_t i = 0; i < bsz; i++)
		m.buf[i] = (char)('a' + i % 26);
	if (j->prog == SCN_PROG_READ)
		m.nullfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (j->prog == SCN_PROG_FREAD_SETVBUF)
		m.vbuf = malloc(SWEEP_PROG_SETVBUF_SIZE);
	if (e != NULL && e->commits && !sweep_prog_jbd2_path(j->dir, jpath, sizeof jpath))
		jpath[0] = '\0';
	if (e != NULL && e->prepare != NULL && (err = e->prepare(j, &m, &w)) != 0) {
		w.err = err;
		goto out;
	}
	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	schedfd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);

	c0 = sweep_prog_jbd2_count(jpath);
	/* Outside the /proc/self/io window: its preads are not the work's read calls. */
	q0 = sweep_prog_waited(schedfd);
	io_ok = iofd >= 0 && sweep_prog_procio(iofd, &r0, &w0) == 0;
	getrusage(RUSAGE_SELF, &ru0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = e != NULL ? e->loop(j, &m, &w) : EINVAL;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru1);
	io_ok = io_ok && sweep_prog_procio(iofd, &r1, &w1) == 0;
	q1 = sweep_prog_waited(schedfd);
	/* A commit the work asked for may still be running: the count is read once it is done. */
	c1 = sweep_prog_jbd2_count(jpath);
	w.s.commits = c0 >= 0 && c1 >= c0 ? c1 - c0 : -1;

	w.err = err;
	w.s.elapsed = sweep_prog_seconds(&t0, &t1);
	w.s.user = sweep_prog_tv(&ru1.ru_utime) - sweep_prog_tv(&ru0.ru_utime);
	w.s.system = sweep_prog_tv(&ru1.ru_stime) - sweep_prog_tv(&ru0.ru_stime);
	w.s.wait = q0 >= 0 && q1 >= q0 ? q1 - q0 : -1;
	/* The first pread of /proc/self/io is counted once it returns: it is not the work's. */
	if (io_ok && r1 > r0) {
		w.s.syscr = r1 - r0 - 1;
		w.s.syscw = w1 - w0;
	}
	if (m.nullfd >= 0)
		close(m.nullfd);
	if (iofd >= 0)
		close(iofd);
	if (schedfd >= 0)
		close(schedfd);
out:
	/* fclose() has let go of the setvbuf buffer: free it and ours, so no run leaks. */
	free(m.vbuf);
	free(buf);
	if (write(wfd, &w, sizeof w) != (ssize_t)sizeof w)
		_exit(2);
	_exit(0);
}

/*
 * Until the child's result is ready on fd: wake about once a second to call j->tick (a
 * long run's progress, and the chance to stop it); kill the child if the tick says so.
 * Return true if it was stopped.
 */
static bool
sweep_prog_wait(const struct sweep_prog_job *j, int fd, pid_t pid)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timespec t0, now;

	if (j->tick == NULL)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int k = poll(&p, 1, 1000);
		if (k > 0 || (k < 0 && errno != EINTR))
			return false;
		if (k < 0)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (j->tick(sweep_prog_seconds(&t0, &now), j->user) != 0) {
			kill(pid, SIGKILL);
			return true;
		}
	}
}

/*
 * Run one job in a forked child and wait: while the child works the parent sleeps in poll()
 * on the pipe (waking once a second for j->tick), so it takes next to no CPU from the
 * measurement. Remove the output after.
 * Return 0, or an errno with what[] naming the call that failed.
 */
int
sweep_prog_run(const struct sweep_prog_job *j, struct sweep_sample *s, char *what, size_t len)
{
	struct sweep_prog_wire w;
	int pfd[2], status = 0;
	bool stopped;
	pid_t pid;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC) != 0) {
		snprintf(what, len, "pipe");
		return errno;
	}
	fflush(NULL);
	if ((pid = scratch_fork()) < 0) {
		int e = errno;
		close(pfd[0]);
		close(pfd[1]);
		snprintf(what, len, "fork");
		return e;
	}
	if (pid == 0) {
		close(pfd[0]);
		sweep_prog_child(j, pfd[1]);
	}
	close(pfd[1]);
	stopped = sweep_prog_wait(j, pfd[0], pid);
	n = stopped ? 0 : fdio_read_all(pfd[0], &w, sizeof w);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	scratch_forget(pid);
	if (j->out_name[0] != '\0')
		scratch_unlink(j->dir, j->out_name);
	if (stopped) {
		snprintf(what, len, "stopped");
		return ECANCELED;
	}
	if (n != (ssize_t)sizeof w) {
		if (WIFSIGNALED(status))
			snprintf(what, len, "child killed by signal %d", WTERMSIG(status));
		else
			snprintf(what, len, "child sent no result");
		return EIO;
	}
	*s = w.s;
	if (w.err != 0)
		snprintf(what, len, "%s", w.what);
	return w.err;
}
