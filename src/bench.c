/* SPDX-License-Identifier: MIT */
/* bench.c: the sweep runner: every timed run is a forked child on a new scratch file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "fdio.h"
#include "probe.h"
#include "scratch.h"
#include "units.h"

/* A probe shorter than this is mostly clock and fork noise: grow it. */
#define BENCH_PROBE_MIN_S 0.02
/* The probe's input file (read programs) is at most this big. */
#define BENCH_PROBE_MAX_BYTES ((uint64_t)8 << 20)
/* HP-UX Table 3-5's stdio buffer for fread+setvbuf. */
#define BENCH_SETVBUF_SIZE 65536
/* Alignment of the user buffer: enough for O_DIRECT on any filesystem we meet. */
#define BENCH_ALIGN 4096

/* What a child sends back over its pipe. */
struct bench_wire {
	int err;                   /* errno of the failed call, 0 if the work succeeded */
	char what[24];             /* the failed call */
	struct bench_sample s;
};

/* One run to do. */
struct bench_job {
	enum scn_program prog;
	const struct scn_variant *v;
	int dir;                   /* scratch dir index of the files */
	uint64_t buf_size;
	uint64_t limit;            /* bytes to move; read programs: UINT64_MAX = to EOF */
	const char *in_path;       /* the input (copy, read, fread) */
	char out_name[64];         /* a new output file (copy, write, fwrite) */
};

/* An input file kept for the rows that need the same size. */
struct bench_input {
	char path[PATH_MAX];
	uint64_t size;
	bool ok;
};

/* State of one bench_run call (no globals: everything lives here). */
struct bench_ctx {
	const struct scn_sweep *sw;
	const struct bench_opts *o;
	struct bench_result *r;
	int dirs[2];               /* scratch dir per enum scn_fs, -1 if not made */
	struct bench_input in[2], probe[2];
	unsigned seq;              /* makes every file name unique */
	struct bench_progress p;
	bool stop;
};

/* True if the program reads an input file (and so has a cache state to prepare). */
static bool
bench_reads(enum scn_program p)
{
	return p == SCN_PROG_COPY || p == SCN_PROG_READ || p == SCN_PROG_FREAD ||
	    p == SCN_PROG_FREAD_SETVBUF;
}

/* Seconds between two timespecs. */
static double
bench_ts(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Seconds of a timeval. */
static double
bench_tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

/* syscr and syscw from an open /proc/self/io. 0 or -1. */
static int
bench_procio(int fd, uint64_t *syscr, uint64_t *syscw)
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

/* The name of a scratch file in its dir, from its path (made by scratch_path). */
static const char *
bench_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* Follow a write with what the variant asks for. */
static int
bench_sync(const struct scn_variant *v, int fd)
{
	if (v->sync_each == SCN_SYNC_FSYNC)
		return fsync(fd);
	if (v->sync_each == SCN_SYNC_FDATASYNC)
		return fdatasync(fd);
	return 0;
}

/* Record a failed call; return its errno. */
static int
bench_fail(struct bench_wire *w, const char *what)
{
	int e = errno ? errno : EIO;

	snprintf(w->what, sizeof w->what, "%s", what);
	return e;
}

/* TLPI write_bytes.c: write limit bytes in buf_size chunks to a new file. */
static int
bench_do_write(const struct bench_job *j, char *buf, struct bench_wire *w)
{
	int fd = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);

	if (fd < 0)
		return bench_fail(w, "open");
	for (uint64_t done = 0; done < j->limit;) {
		size_t n = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if (write(fd, buf, n) != (ssize_t)n)
			return bench_fail(w, "write");
		if (bench_sync(j->v, fd) != 0)
			return bench_fail(w, "fsync");
		done += n;
		w->s.bytes = done;
	}
	if (close(fd) != 0)
		return bench_fail(w, "close");
	return 0;
}

/* TLPI copy.c: read the input in buf_size chunks, write each to a new file. */
static int
bench_do_copy(const struct bench_job *j, char *buf, struct bench_wire *w)
{
	int in = scratch_open(j->dir, bench_base(j->in_path), O_RDONLY);
	int out;
	ssize_t n = 0;

	if (in < 0)
		return bench_fail(w, "open input");
	out = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);
	if (out < 0)
		return bench_fail(w, "open");
	for (uint64_t done = 0; done < j->limit; done += (uint64_t)n) {
		size_t want = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if ((n = read(in, buf, want)) <= 0)
			break;
		if (write(out, buf, (size_t)n) != n)
			return bench_fail(w, "write");
		if (bench_sync(j->v, out) != 0)
			return bench_fail(w, "fsync");
		w->s.bytes = done + (uint64_t)n;
	}
	if (n < 0)
		return bench_fail(w, "read");
	if (close(in) != 0 || close(out) != 0)
		return bench_fail(w, "close");
	return 0;
}

/* APUE figure 3.4: read the input in buf_size chunks and write each to /dev/null. */
static int
bench_do_read(const struct bench_job *j, char *buf, int nullfd, struct bench_wire *w)
{
	int in = scratch_open(j->dir, bench_base(j->in_path), O_RDONLY | j->v->flags);
	ssize_t n = 0;

	if (in < 0)
		return bench_fail(w, "open");
	for (uint64_t done = 0; done < j->limit; done += (uint64_t)n) {
		size_t want = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if ((n = read(in, buf, want)) <= 0)
			break;
		if (write(nullfd, buf, (size_t)n) != n)
			return bench_fail(w, "write");
		w->s.bytes = done + (uint64_t)n;
	}
	if (n < 0)
		return bench_fail(w, "read");
	if (close(in) != 0)
		return bench_fail(w, "close");
	return 0;
}

/* HP-UX Table 3-5: fread() buf_size records, with the default or a 64 KiB stdio buffer. */
static int
bench_do_fread(const struct bench_job *j, char *buf, char *vbuf, struct bench_wire *w)
{
	int fd = scratch_open(j->dir, bench_base(j->in_path), O_RDONLY | j->v->flags);
	FILE *fp;
	size_t n;

	if (fd < 0)
		return bench_fail(w, "open");
	if ((fp = fdopen(fd, "r")) == NULL)
		return bench_fail(w, "fdopen");
	if (j->prog == SCN_PROG_FREAD_SETVBUF &&
	    setvbuf(fp, vbuf, _IOFBF, BENCH_SETVBUF_SIZE) != 0)
		return bench_fail(w, "setvbuf");
	for (uint64_t done = 0; done < j->limit; done += n) {
		size_t want = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if ((n = fread(buf, 1, want, fp)) == 0)
			break;
		w->s.bytes = done + n;
	}
	if (ferror(fp))
		return bench_fail(w, "fread");
	if (fclose(fp) != 0)
		return bench_fail(w, "fclose");
	return 0;
}

/* stdio's write side: fwrite() buf_size records to a new file through the default buffer. */
static int
bench_do_fwrite(const struct bench_job *j, char *buf, struct bench_wire *w)
{
	int fd = scratch_create(j->dir, j->out_name, O_WRONLY | O_TRUNC | j->v->flags);
	FILE *fp;

	if (fd < 0)
		return bench_fail(w, "open");
	if ((fp = fdopen(fd, "w")) == NULL)
		return bench_fail(w, "fdopen");
	for (uint64_t done = 0; done < j->limit;) {
		size_t n = j->limit - done < j->buf_size ? j->limit - done : j->buf_size;
		if (fwrite(buf, 1, n, fp) != n)
			return bench_fail(w, "fwrite");
		/* Syncing each record means flushing stdio first, or fsync has nothing new. */
		if (j->v->sync_each != SCN_SYNC_NONE &&
		    (fflush(fp) != 0 || bench_sync(j->v, fd) != 0))
			return bench_fail(w, "fflush/fsync");
		done += n;
		w->s.bytes = done;
	}
	if (fclose(fp) != 0)
		return bench_fail(w, "fclose");
	return 0;
}

/*
 * The child: set everything up, then time the work alone (clock, rusage and /proc/self/io
 * read just before and after it), send the figures up the pipe and leave with _exit so
 * no atexit handler of the parent runs here.
 */
static void
bench_child(const struct bench_job *j, int wfd)
{
	struct bench_wire w;
	size_t bsz = j->buf_size < BENCH_ALIGN ? BENCH_ALIGN : (size_t)j->buf_size;
	void *buf = NULL;
	char *vbuf = NULL;
	int iofd, nullfd = -1, err;
	uint64_t r0 = 0, w0 = 0, r1 = 0, w1 = 0;
	struct rusage ru0, ru1;
	struct timespec t0, t1;
	bool io_ok;

	memset(&w, 0, sizeof w);
	if (posix_memalign(&buf, BENCH_ALIGN, bsz) != 0) {
		w.err = ENOMEM;
		snprintf(w.what, sizeof w.what, "malloc");
		goto out;
	}
	for (size_t i = 0; i < bsz; i++)
		((char *)buf)[i] = (char)('a' + i % 26);
	if (j->prog == SCN_PROG_READ)
		nullfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (j->prog == SCN_PROG_FREAD_SETVBUF)
		vbuf = malloc(BENCH_SETVBUF_SIZE);
	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);

	io_ok = iofd >= 0 && bench_procio(iofd, &r0, &w0) == 0;
	getrusage(RUSAGE_SELF, &ru0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	switch (j->prog) {
	case SCN_PROG_WRITE: err = bench_do_write(j, buf, &w); break;
	case SCN_PROG_COPY: err = bench_do_copy(j, buf, &w); break;
	case SCN_PROG_READ: err = bench_do_read(j, buf, nullfd, &w); break;
	case SCN_PROG_FREAD:
	case SCN_PROG_FREAD_SETVBUF: err = bench_do_fread(j, buf, vbuf, &w); break;
	case SCN_PROG_FWRITE: err = bench_do_fwrite(j, buf, &w); break;
	default: err = EINVAL; break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru1);
	io_ok = io_ok && bench_procio(iofd, &r1, &w1) == 0;

	w.err = err;
	w.s.elapsed = bench_ts(&t0, &t1);
	w.s.user = bench_tv(&ru1.ru_utime) - bench_tv(&ru0.ru_utime);
	w.s.system = bench_tv(&ru1.ru_stime) - bench_tv(&ru0.ru_stime);
	/* The first pread of /proc/self/io is counted once it returns: it is not the work's. */
	if (io_ok && r1 > r0) {
		w.s.syscr = r1 - r0 - 1;
		w.s.syscw = w1 - w0;
	}
out:
	if (write(wfd, &w, sizeof w) != (ssize_t)sizeof w)
		_exit(2);
	_exit(0);
}

/*
 * Run one job in a forked child and wait: while the child works the parent is blocked in
 * read() on the pipe, so it takes no CPU from the measurement. Remove the output after.
 * Return 0, or an errno with what[] naming the call that failed.
 */
static int
bench_fork(const struct bench_job *j, struct bench_sample *s, char *what, size_t len)
{
	struct bench_wire w;
	int pfd[2], status = 0;
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
		bench_child(j, pfd[1]);
	}
	close(pfd[1]);
	n = fdio_read_all(pfd[0], &w, sizeof w);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	scratch_forget(pid);
	if (j->out_name[0] != '\0')
		scratch_unlink(j->dir, j->out_name);
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

/*
 * Empty the page cache of path without root (fsync + DONTNEED) and check it with the cache
 * probe (cachestat, or mincore where cachestat is missing); method gets which one answered.
 */
static enum bench_cold
bench_make_cold(int dir, const char *path, uint64_t size, char *method, size_t len)
{
	int fd = scratch_open(dir, bench_base(path), O_RDONLY);
	struct snap_cache *sc = malloc(sizeof *sc);
	int64_t left = -1;

	if (fd < 0 || sc == NULL) {
		if (fd >= 0)
			close(fd);
		free(sc);
		return BENCH_COLD_FAILED;
	}
	/* Dirty pages are not dropped: write them back first. Twice, in case writeback raced. */
	for (int i = 0; i < 2 && left != 0; i++) {
		fsync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		left = probe_cache(fd, size, sc) == 0 ? (int64_t)sc->cached : -1;
	}
	if (left >= 0)
		snprintf(method, len, "%s", probe_cache_source_name(sc->source));
	close(fd);
	free(sc);
	return left == 0 ? BENCH_COLD_VERIFIED : BENCH_COLD_FAILED;
}

/* Filesystem type of scratch dir idx, as the probes name it; "?" if it cannot be opened. */
static void
bench_fs_name(int idx, char *buf, size_t len)
{
	int fd = openat(scratch_dirfd(idx), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	snprintf(buf, len, "?");
	if (fd < 0)
		return;
	probe_fs(fd, buf, len, NULL, 0);
	close(fd);
}

/* uname and the CPU model, for the table's header. */
static void
bench_machine(struct bench_result *r)
{
	struct utsname u;
	char line[256];
	FILE *f;

	if (uname(&u) == 0) {
		snprintf(r->machine, sizeof r->machine, "%.31s", u.machine);
		snprintf(r->kernel, sizeof r->kernel, "%.15s %.79s", u.sysname, u.release);
	}
	if ((f = fopen("/proc/cpuinfo", "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(r->cpu, sizeof r->cpu, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* Append to a fixed-size note, separated by "; ". */
static void
bench_note(char *note, size_t len, const char *fmt, ...)
{
	size_t used = strlen(note);
	va_list ap;

	if (used + 3 >= len)
		return;
	if (used > 0) {
		memcpy(note + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(note + used, len - used, fmt, ap);
	va_end(ap);
}

/* Report progress; remember if the caller wants to stop. */
static void
bench_report(struct bench_ctx *c)
{
	if (c->o != NULL && c->o->progress != NULL && c->o->progress(&c->p, c->o->user) != 0)
		c->stop = true;
}

/* Make (or reuse) an input file of size bytes on fs; write it, fsync it. 0 or errno. */
static int
bench_input(struct bench_ctx *c, enum scn_fs fs, bool probe, uint64_t size, const char **path)
{
	struct bench_input *in = probe ? &c->probe[fs] : &c->in[fs];
	char name[64], chunk[65536];
	int fd, e = 0;

	if (in->ok && in->size == size) {
		*path = in->path;
		return 0;
	}
	if (in->ok)
		scratch_unlink(c->dirs[fs], bench_base(in->path));
	in->ok = false;
	snprintf(name, sizeof name, "input-%u", c->seq++);
	if (scratch_path(c->dirs[fs], name, in->path, sizeof in->path) == NULL)
		return ENAMETOOLONG;
	if ((fd = scratch_create(c->dirs[fs], name, O_WRONLY)) < 0)
		return errno;
	for (size_t i = 0; i < sizeof chunk; i++)
		chunk[i] = (i % 64 == 63) ? '\n' : (char)('A' + i % 26);
	for (uint64_t done = 0; done < size && e == 0;) {
		size_t n = size - done < sizeof chunk ? size - done : sizeof chunk;
		ssize_t w = write(fd, chunk, n);
		if (w <= 0)
			e = w < 0 ? errno : EIO;
		else
			done += (uint64_t)w;
	}
	if (e == 0 && fsync(fd) != 0)
		e = errno;
	close(fd);
	if (e != 0) {
		scratch_unlink(c->dirs[fs], name);
		return e;
	}
	in->size = size;
	in->ok = true;
	*path = in->path;
	return 0;
}

/* Prepare the cache for a run of job: cold (verified) or warm; NA for write programs. */
static enum bench_cold
bench_prepare_cache(struct bench_ctx *c, const struct bench_job *j, uint64_t in_size)
{
	if (!bench_reads(j->prog))
		return BENCH_COLD_NA;
	if (c->sw->cache == SCN_CACHE_WARM)
		return BENCH_COLD_WARM;
	if (j->v->on == SCN_FS_TMPFS)
		return BENCH_COLD_IMPOSSIBLE;
	return bench_make_cold(j->dir, j->in_path, in_size, c->r->cold_probe, sizeof c->r->cold_probe);
}

/* Run one job after preparing its cache; a unique output name each time. */
static int
bench_once(struct bench_ctx *c, struct bench_job *j, uint64_t in_size, struct bench_sample *s,
    char *what, size_t len)
{
	enum bench_cold cold = bench_prepare_cache(c, j, in_size);
	int e;

	if (bench_reads(j->prog) && j->prog != SCN_PROG_COPY)
		j->out_name[0] = '\0';
	else
		snprintf(j->out_name, sizeof j->out_name, "out-%u", c->seq++);
	e = bench_fork(j, s, what, len);
	s->cold = (int)cold;
	return e;
}

/*
 * Choose how many bytes each run of a row moves: short probe runs (growing until one
 * lasts BENCH_PROBE_MIN_S) give a rate; if the whole file_size would not fit the row's
 * budget, move fewer bytes, a multiple of buf_size. 0 or errno.
 */
static int
bench_probe(struct bench_ctx *c, struct bench_job *j, unsigned runs, uint64_t *bytes,
    char *what, size_t len)
{
	const struct scn_sweep *sw = c->sw;
	uint64_t cap = sw->file_size, n;
	struct bench_sample s;
	double per_run = c->r->budget / runs, rate;
	int e;

	if (bench_reads(j->prog)) {
		const char *path;
		uint64_t psize = cap < BENCH_PROBE_MAX_BYTES ? cap : BENCH_PROBE_MAX_BYTES;
		if ((e = bench_input(c, j->v->on, true, psize, &path)) != 0) {
			snprintf(what, len, "writing the probe input");
			return e;
		}
		j->in_path = path;
		cap = psize;
	}
	n = 16 * j->buf_size < cap ? 16 * j->buf_size : cap;
	for (;;) {
		j->limit = n;
		if ((e = bench_once(c, j, cap, &s, what, len)) != 0)
			return e;
		if (s.elapsed >= BENCH_PROBE_MIN_S || n >= cap || s.bytes < n)
			break;
		n = n * 4 < cap ? n * 4 : cap;
	}
	rate = s.elapsed > 0 && s.bytes > 0 ? (double)s.bytes / s.elapsed : INFINITY;
	*bytes = bench_scale_bytes(sw->file_size, j->buf_size, rate, per_run);
	return 0;
}

/* Bytes a run may move at rate bytes/s within per_run seconds (see bench.h). */
uint64_t
bench_scale_bytes(uint64_t file_size, uint64_t buf_size, double rate, double per_run)
{
	double fit;
	uint64_t n;

	if (!(rate > 0) || !isfinite(rate) || (double)file_size / rate <= per_run)
		return file_size;
	fit = rate * per_run;
	n = fit < 1 ? 0 : (uint64_t)fit;
	/* Whole buffers only: every call the same size, as in the book's program. */
	n -= n % buf_size;
	if (n < buf_size)
		n = buf_size;
	return n > file_size ? file_size : n;
}

/* Summarize a row's runs. */
static void
bench_row_stats(struct bench_row *row)
{
	size_t n = row->n_runs;
	double *el, *us, *sy, *cr, *cw;
	bool all_cold = n > 0, any_failed = false;

	if (n == 0 || (el = malloc(5 * n * sizeof *el)) == NULL)
		return;
	us = el + n;
	sy = us + n;
	cr = sy + n;
	cw = cr + n;
	for (size_t i = 0; i < n; i++) {
		el[i] = row->runs[i].elapsed;
		us[i] = row->runs[i].user;
		sy[i] = row->runs[i].system;
		cr[i] = (double)row->runs[i].syscr;
		cw[i] = (double)row->runs[i].syscw;
		all_cold = all_cold && row->runs[i].cold == BENCH_COLD_VERIFIED;
		any_failed = any_failed || row->runs[i].cold == BENCH_COLD_FAILED;
	}
	stats_summarize(el, n, &row->elapsed);
	row->user = stats_median(us, n);
	row->system = stats_median(sy, n);
	row->syscr = stats_median(cr, n);
	row->syscw = stats_median(cw, n);
	row->cold = any_failed ? BENCH_COLD_FAILED :
	    all_cold ? BENCH_COLD_VERIFIED : (enum bench_cold)row->runs[0].cold;
	free(el);
}

/* Run one row: input, probe, warm-ups, counted runs. 0 or -2 (stopped). */
static int
bench_row(struct bench_ctx *c, size_t vi, size_t ri)
{
	const struct scn_sweep *sw = c->sw;
	struct bench_variant *bv = &c->r->variants[vi];
	struct bench_row *row = &bv->rows[ri];
	struct bench_job j;
	struct bench_sample s;
	unsigned runs = c->r->warmup + c->r->repeat;
	char what[64] = "", sz[32];
	int e;

	memset(&j, 0, sizeof j);
	j.prog = sw->program;
	j.v = bv->v;
	j.dir = c->dirs[bv->v->on];
	j.buf_size = row->buf_size;

	c->p.row = ri;
	c->p.step = vi * bv->n_rows + ri + 1;
	c->p.buf_size = row->buf_size;
	c->p.run = 0;
	c->p.n_runs = c->r->repeat;
	c->p.n_warmup = c->r->warmup;
	c->p.bytes = 0;
	c->p.last_elapsed = -1;
	c->p.phase = BENCH_PHASE_PROBE;
	bench_report(c);
	if (c->stop)
		return -2;

	if ((e = bench_probe(c, &j, runs, &row->bytes, what, sizeof what)) != 0)
		goto fail;
	row->scale = (double)sw->file_size / (double)row->bytes;
	c->p.bytes = row->bytes;
	/*
	 * A scaled row would multiply the per-run fixed cost (open, create, the first block's
	 * allocation and journal commit, the first disk access, close) by scale too: measure
	 * it with runs that move a single buffer, and count it once.
	 */
	if (row->scale > 1) {
		double z[3];
		for (int k = 0; k < 3; k++) {
			j.limit = j.buf_size;
			if ((e = bench_once(c, &j, 0, &s, what, sizeof what)) != 0)
				goto fail;
			z[k] = s.elapsed;
		}
		row->fixed = stats_median(z, 3);
		j.in_path = NULL;
	}
	if (bench_reads(j.prog)) {
		const char *path;
		c->p.phase = BENCH_PHASE_PREPARE;
		bench_report(c);
		if ((e = bench_input(c, bv->v->on, false, row->bytes, &path)) != 0) {
			snprintf(what, sizeof what, "writing the input");
			goto fail;
		}
		j.in_path = path;
	}
	/* Timed runs read to EOF, as the books' programs do; write programs write exactly. */
	j.limit = bench_reads(j.prog) ? UINT64_MAX : row->bytes;

	for (unsigned k = 0; k < c->r->warmup; k++) {
		if ((e = bench_once(c, &j, row->bytes, &s, what, sizeof what)) != 0)
			goto fail;
		c->p.phase = BENCH_PHASE_WARMUP;
		c->p.run = k + 1;
		c->p.last_elapsed = s.elapsed;
		bench_report(c);
		if (c->stop)
			return -2;
	}
	if ((row->runs = calloc(c->r->repeat, sizeof *row->runs)) == NULL) {
		e = ENOMEM;
		snprintf(what, sizeof what, "calloc");
		goto fail;
	}
	for (unsigned k = 0; k < c->r->repeat; k++) {
		if ((e = bench_once(c, &j, row->bytes, &s, what, sizeof what)) != 0)
			goto fail;
		row->runs[row->n_runs++] = s;
		c->p.phase = BENCH_PHASE_RUN;
		c->p.run = k + 1;
		c->p.last_elapsed = s.elapsed;
		bench_report(c);
		if (c->stop) {
			bench_row_stats(row);
			return -2;
		}
	}
	bench_row_stats(row);
	/* The fixed part cannot exceed the fastest whole run. */
	if (row->fixed > row->elapsed.min)
		row->fixed = row->elapsed.min;
	if (row->scale > 1)
		bench_note(row->note, sizeof row->note, "measured %s per run, scaled x%.4g; "
		    "fixed cost %.3g ms counted once", bench_format_size(row->bytes, sz, sizeof sz),
		    row->scale, row->fixed * 1e3);
	c->p.phase = BENCH_PHASE_ROW_DONE;
	bench_report(c);
	return c->stop ? -2 : 0;
fail:
	row->err = e;
	row->n_runs = 0;
	bench_note(row->note, sizeof row->note, "%s: %s%s", what, strerror(e),
	    e == EINVAL && (bv->v->flags & O_DIRECT) ?
	    " (O_DIRECT needs sizes and offsets aligned to the block size)" : "");
	c->p.phase = BENCH_PHASE_ROW_DONE;
	bench_report(c);
	return c->stop ? -2 : 0;
}

/* A size the way scenarios write it: "100 MB" stays decimal, "4 MiB" binary. */
char *
bench_format_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1000000 && bytes % 1000000 == 0 && bytes % (1 << 20) != 0)
		snprintf(buf, len, "%" PRIu64 " MB", bytes / 1000000);
	else if (bytes >= 1000 && bytes % 1000 == 0 && bytes % 1024 != 0)
		snprintf(buf, len, "%" PRIu64 " kB", bytes / 1000);
	else
		units_format_size(bytes, buf, len);
	return buf;
}

/* Extrapolate one measured time of a row. */
double
bench_row_scale_time(const struct bench_row *row, double t)
{
	return row->fixed + (t - row->fixed) * row->scale;
}

/* Extrapolated median of a row. */
double
bench_row_extrapolated(const struct bench_row *row)
{
	return bench_row_scale_time(row, row->elapsed.median);
}

/* hyperfine's relative column: each row against the fastest, with propagated spread. */
static void
bench_relative(struct bench_result *r)
{
	double best = INFINITY, best_cv = 0;

	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			const struct bench_row *row = &r->variants[v].rows[i];
			double x = bench_row_extrapolated(row);
			if (row->n_runs > 0 && x > 0 && x < best) {
				best = x;
				best_cv = row->elapsed.mean > 0 ? row->elapsed.sd / row->elapsed.mean : 0;
			}
		}
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			struct bench_row *row = &r->variants[v].rows[i];
			double cv;
			if (row->n_runs == 0 || !isfinite(best))
				continue;
			cv = row->elapsed.mean > 0 ? row->elapsed.sd / row->elapsed.mean : 0;
			row->relative = bench_row_extrapolated(row) / best;
			row->relative_sd = row->relative * sqrt(cv * cv + best_cv * best_cv);
		}
}

/* Heap-allocated error message. */
static void
bench_err(char **err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
}

/* Make the scratch dirs the variants need and check there is room for input + output. */
static int
bench_dirs(struct bench_ctx *c, char **err)
{
	const struct scn_sweep *sw = c->sw;

	for (size_t v = 0; v < sw->n_variants; v++) {
		enum scn_fs fs = sw->variants[v].on;
		const char *parent = fs == SCN_FS_TMPFS ? "/dev/shm" : c->o->dir;
		struct statvfs st;

		if (c->dirs[fs] < 0 && (c->dirs[fs] = scratch_mkdir(parent)) < 0) {
			bench_err(err, "cannot make a scratch dir under %s: %s",
			    parent ? parent : "$TMPDIR", strerror(errno));
			return -1;
		}
		/* An input, an output and a probe input, with room to spare for everyone else. */
		if (statvfs(scratch_dir(c->dirs[fs]), &st) == 0 &&
		    (double)st.f_bavail * (double)st.f_frsize < 3.0 * (double)sw->file_size) {
			/* The parent's name: the scratch dir is gone by the time this is read. */
			const char *d = scratch_dir(c->dirs[fs]);
			int plen = (int)(strrchr(d, '/') - d);
			bench_err(err, "not enough free space under %.*s for a %" PRIu64 "-byte sweep "
			    "(%" PRIu64 " bytes needed: input, output and probe)", plen > 0 ? plen : 1,
			    d, sw->file_size, 3 * sw->file_size);
			return -1;
		}
	}
	return 0;
}

/* Run a sweep. */
int
bench_run(const struct scn_sweep *sw, const struct bench_opts *o, struct bench_result *out,
    char **err)
{
	static const struct bench_opts none;
	struct bench_ctx c;
	struct timespec t0, t1;
	int rc = 0;

	if (err != NULL)
		*err = NULL;
	memset(out, 0, sizeof *out);
	if (o == NULL)
		o = &none;
	if (sw == NULL || sw->n_buffer_sizes == 0 || sw->n_variants == 0 || sw->file_size == 0) {
		bench_err(err, "a sweep needs buffer_sizes, a variant and a file_size");
		return -1;
	}
	for (size_t i = 0; i < sw->n_buffer_sizes; i++)
		if (sw->buffer_sizes[i] == 0 || sw->buffer_sizes[i] > SCN_MAX_SIZE) {
			bench_err(err, "buffer size %" PRIu64 " out of range", sw->buffer_sizes[i]);
			return -1;
		}
	if (sw->file_size > SCN_MAX_SIZE) {
		bench_err(err, "file_size %" PRIu64 " is above the limit of 1 GiB", sw->file_size);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&c, 0, sizeof c);
	c.sw = sw;
	c.o = o;
	c.r = out;
	c.dirs[0] = c.dirs[1] = -1;
	out->sw = sw;
	out->budget = o->budget > 0 ? o->budget : sw->budget > 0 ? sw->budget : BENCH_DEFAULT_BUDGET;
	out->repeat = o->repeat > 0 ? o->repeat : sw->repeat > 0 ? sw->repeat : BENCH_DEFAULT_REPEAT;
	out->warmup = sw->repeat == 0 && sw->warmup == 0 ? BENCH_DEFAULT_WARMUP : sw->warmup;
	bench_machine(out);

	if ((out->variants = calloc(sw->n_variants, sizeof *out->variants)) == NULL) {
		bench_err(err, "out of memory");
		return -1;
	}
	out->n_variants = sw->n_variants;
	for (size_t v = 0; v < sw->n_variants; v++) {
		struct bench_variant *bv = &out->variants[v];
		bv->v = &sw->variants[v];
		if ((bv->rows = calloc(sw->n_buffer_sizes, sizeof *bv->rows)) == NULL) {
			bench_err(err, "out of memory");
			bench_result_clear(out);
			return -1;
		}
		bv->n_rows = sw->n_buffer_sizes;
		for (size_t i = 0; i < bv->n_rows; i++) {
			bv->rows[i].buf_size = sw->buffer_sizes[i];
			bv->rows[i].scale = 1;
		}
	}
	if (bench_dirs(&c, err) != 0) {
		rc = -1;
		goto done;
	}
	for (size_t v = 0; v < sw->n_variants; v++) {
		struct bench_variant *bv = &out->variants[v];
		snprintf(bv->dir, sizeof bv->dir, "%s", scratch_dir(c.dirs[bv->v->on]));
		bench_fs_name(c.dirs[bv->v->on], bv->fs, sizeof bv->fs);
		if (bench_reads(sw->program) && sw->cache == SCN_CACHE_COLD &&
		    bv->v->on == SCN_FS_TMPFS && strstr(out->note, "tmpfs") == NULL)
			bench_note(out->note, sizeof out->note,
			    "cold cache not possible on tmpfs: its files live in the page cache");
	}
	c.p.n_variants = sw->n_variants;
	c.p.n_rows = sw->n_buffer_sizes;
	c.p.n_steps = sw->n_variants * sw->n_buffer_sizes;
	for (size_t v = 0; v < sw->n_variants && rc == 0; v++) {
		c.p.variant = out->variants[v].v->name ? out->variants[v].v->name : "default";
		c.p.variant_idx = v;
		for (size_t i = 0; i < sw->n_buffer_sizes && rc == 0; i++)
			rc = bench_row(&c, v, i);
	}
	bench_relative(out);
done:
	for (int fs = 0; fs < 2; fs++)
		if (c.dirs[fs] >= 0)
			scratch_remove(c.dirs[fs]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->wall = bench_ts(&t0, &t1);
	if (rc == -1) {
		if (err != NULL && *err == NULL)
			bench_err(err, "sweep failed");
		bench_result_clear(out);
	}
	return rc;
}

/* Free a result. */
void
bench_result_clear(struct bench_result *r)
{
	if (r == NULL)
		return;
	for (size_t v = 0; v < r->n_variants; v++) {
		for (size_t i = 0; i < r->variants[v].n_rows; i++)
			free(r->variants[v].rows[i].runs);
		free(r->variants[v].rows);
	}
	free(r->variants);
	memset(r, 0, sizeof *r);
}

/* The reference's figure for buf_size. */
const struct scn_ref_row *
bench_ref_row(const struct scn_reference *ref, uint64_t buf_size)
{
	for (size_t i = 0; i < ref->n_rows; i++)
		if (ref->rows[i].buf_size == buf_size)
			return &ref->rows[i];
	return NULL;
}

/* The variant a reference stands beside. */
size_t
bench_ref_variant(const struct bench_result *r, const struct scn_reference *ref)
{
	if (ref->variant != NULL)
		for (size_t v = 0; v < r->n_variants; v++)
			if (r->variants[v].v->name != NULL &&
			    strcmp(r->variants[v].v->name, ref->variant) == 0)
				return v;
	return 0;
}

/* One line of progress. */
char *
bench_progress_text(const struct bench_progress *p, char *buf, size_t len)
{
	static const char *const phase[] = { "preparing input", "probing", "warm-up", "run",
		"done" };
	char sz[32];
	int n;

	n = snprintf(buf, len, "row %zu/%zu  %s  BUF %" PRIu64 "  %s", p->step, p->n_steps,
	    p->variant ? p->variant : "", p->buf_size, phase[p->phase]);
	if (n > 0 && (size_t)n < len && (p->phase == BENCH_PHASE_RUN || p->phase == BENCH_PHASE_WARMUP))
		n += snprintf(buf + n, len - (size_t)n, " %u/%u", p->run,
		    p->phase == BENCH_PHASE_RUN ? p->n_runs : p->n_warmup);
	if (n > 0 && (size_t)n < len && p->bytes > 0)
		n += snprintf(buf + n, len - (size_t)n, "  %s/run",
		    bench_format_size(p->bytes, sz, sizeof sz));
	if (n > 0 && (size_t)n < len && p->last_elapsed >= 0)
		snprintf(buf + n, len - (size_t)n, "  %.3f s", p->last_elapsed);
	return buf;
}

/* --export dispatcher. */
int
bench_export(FILE *f, const struct bench_result *r, const char *fmt)
{
	if (fmt == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(fmt, "json") == 0)
		return bench_print_json(f, r);
	if (strcmp(fmt, "csv") == 0)
		return bench_print_csv(f, r);
	if (strcmp(fmt, "md") == 0)
		return bench_print_md(f, r);
	errno = EINVAL;
	return -1;
}
