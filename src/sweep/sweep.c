/* SPDX-License-Identifier: MIT */
/* sweep.c: the sweep runner: every timed run is a forked child on a new scratch file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "base/errmsg.h"
#include "base/fdio.h"
#include "probe/probe.h"
#include "scratch/scratch.h"
#include "base/units.h"

/* A probe shorter than this is mostly clock and fork noise: grow it. */
#define SWEEP_PROBE_MIN_S 0.02
/* The probe's input file (read programs) is at most this big. */
#define SWEEP_PROBE_MAX_BYTES ((uint64_t)8 << 20)

/* An input file kept for the rows that need the same size. */
struct sweep_input {
	char name[64];             /* in the scratch dir of its fs */
	uint64_t size;
	bool ok;
};

/* A place the files of some variants live: /dev/shm, or one of the --dir parents. */
struct sweep_place {
	int idx;                   /* its scratch dir, -1 if not made */
	struct sweep_input in, probe;
};

/* State of one sweep_run call (no globals: everything lives here). */
struct sweep_ctx {
	const struct scn_sweep *sw;
	const struct sweep_opts *o;
	struct sweep_result *r;
	/* places[0]: tmpfs; places[1 + k]: under the k-th dir (one, NULL, without dirs). */
	struct sweep_place places[1 + SWEEP_MAX_DIRS];
	unsigned seq;              /* makes every file name unique */
	struct sweep_progress p;
	bool stop;
	/* For the time left: this row's start, its finished runs' wall time, what the probe
	 * predicts of one run, and the rows finished so far. */
	struct timespec row_t0;
	double run_sum;
	unsigned run_n;
	double predict;
	double rows_time;
	size_t rows_done;
};

/*
 * Empty the page cache of file name in dir without root (fsync + DONTNEED) and check it
 * with the cache probe (cachestat, or mincore where cachestat is missing); method gets
 * which one answered.
 */
static enum sweep_cold
sweep_make_cold(int dir, const char *name, uint64_t size, char *method, size_t len)
{
	int fd = scratch_open(dir, name, O_RDONLY);
	struct snap_cache *sc = malloc(sizeof *sc);
	int64_t left = -1;

	if (fd < 0 || sc == NULL) {
		if (fd >= 0)
			close(fd);
		free(sc);
		return SWEEP_COLD_FAILED;
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
	return left == 0 ? SWEEP_COLD_VERIFIED : SWEEP_COLD_FAILED;
}

/* Filesystem type and device of scratch dir idx, as the probes name them; "?" and "". */
static void
sweep_fs_name(int idx, char *buf, size_t len, char *dev, size_t devlen)
{
	int fd = openat(scratch_dirfd(idx), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	snprintf(buf, len, "?");
	dev[0] = '\0';
	if (fd < 0)
		return;
	probe_fs(fd, buf, len, dev, devlen);
	close(fd);
}

/* uname and the CPU model, for the table's header. */
static void
sweep_machine(struct sweep_result *r)
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
sweep_note(char *note, size_t len, const char *fmt, ...)
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

/* Seconds since t. */
static double
sweep_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return sweep_prog_seconds(t, &now);
}

/*
 * The time left, into the progress: this row's runs not finished at the mean wall time of
 * those that are (or the probe's prediction), less what the one going has done; the sweep's
 * rows after this one at the mean of the rows done (or this row's projection).
 */
static void
sweep_estimate(struct sweep_ctx *c)
{
	unsigned total = c->r->warmup + c->r->repeat;
	double per = c->run_n > 0 ? c->run_sum / c->run_n : c->predict, left = -1, row;
	size_t after = c->p.n_steps > c->p.step ? c->p.n_steps - c->p.step : 0;

	if (per > 0) {
		unsigned rest = total > c->run_n ? total - c->run_n : 0;
		left = rest * per;
		if (c->p.running > 0 && rest > 0)
			left -= c->p.running < per ? c->p.running : per;
	}
	c->p.row_left = left;
	row = c->rows_done > 0 ? c->rows_time / (double)c->rows_done :
	      left >= 0 ? sweep_since(&c->row_t0) + left : -1;
	c->p.sweep_left = left >= 0 && row >= 0 ? left + (double)after * row : -1;
}

/* Report progress; remember if the caller wants to stop. */
static void
sweep_report(struct sweep_ctx *c)
{
	sweep_estimate(c);
	if (c->o != NULL && c->o->progress != NULL && c->o->progress(&c->p, c->o->user) != 0)
		c->stop = true;
}

/* While a run goes: its seconds so far, reported; non-zero to stop it. */
static int
sweep_going(double seconds, void *user)
{
	struct sweep_ctx *c = user;

	c->p.running = seconds;
	sweep_report(c);
	c->p.running = -1;
	return c->stop;
}

/* The 1-minute load average, or -1. */
static double
sweep_loadavg(void)
{
	char buf[64];

	return fdio_read_text("/proc/loadavg", buf, sizeof buf) < 0 ? -1 : strtod(buf, NULL);
}

/* Note the load average now, keeping the highest seen. */
static void
sweep_load(struct sweep_result *r)
{
	double l = sweep_loadavg();

	if (l > r->busy.load_max)
		r->busy.load_max = l;
}

/* Make (or reuse) an input file of size bytes on fs; write it, fsync it. 0 or errno. */
static int
sweep_input(struct sweep_ctx *c, size_t place, bool probe, uint64_t size, const char **name)
{
	struct sweep_place *pl = &c->places[place];
	struct sweep_input *in = probe ? &pl->probe : &pl->in;
	char chunk[65536];
	int fd, e = 0;

	if (in->ok && in->size == size) {
		*name = in->name;
		return 0;
	}
	if (in->ok)
		scratch_unlink(pl->idx, in->name);
	in->ok = false;
	snprintf(in->name, sizeof in->name, "input-%u", c->seq++);
	if ((fd = scratch_create(pl->idx, in->name, O_WRONLY)) < 0)
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
		scratch_unlink(pl->idx, in->name);
		return e;
	}
	in->size = size;
	in->ok = true;
	*name = in->name;
	return 0;
}

/* Prepare the cache for a run of job: cold (verified) or warm; NA for write programs. */
static enum sweep_cold
sweep_prepare_cache(struct sweep_ctx *c, const struct sweep_prog_job *j, uint64_t in_size)
{
	if (!sweep_prog_reads(j->prog))
		return SWEEP_COLD_NA;
	if (c->sw->cache == SCN_CACHE_WARM)
		return SWEEP_COLD_WARM;
	if (j->v->on == SCN_FS_TMPFS)
		return SWEEP_COLD_IMPOSSIBLE;
	return sweep_make_cold(j->dir, j->in_name, in_size, c->r->cold_probe, sizeof c->r->cold_probe);
}

/* Run one job after preparing its cache; a unique output name each time. */
static int
sweep_once(struct sweep_ctx *c, struct sweep_prog_job *j, uint64_t in_size, struct sweep_sample *s,
    char *what, size_t len)
{
	enum sweep_cold cold = sweep_prepare_cache(c, j, in_size);
	int e;

	if (sweep_prog_writes(j->prog))
		snprintf(j->out_name, sizeof j->out_name, "out-%u", c->seq++);
	else
		j->out_name[0] = '\0';
	j->tick = sweep_going;
	j->user = c;
	e = sweep_prog_run(j, s, what, len);
	s->cold = (int)cold;
	return e;
}

/*
 * Choose how many bytes each run of a row moves: short probe runs (growing until one
 * lasts SWEEP_PROBE_MIN_S) give a rate; if the whole file_size would not fit the row's
 * budget, move fewer bytes, a multiple of buf_size. 0 or errno.
 */
static int
sweep_probe(struct sweep_ctx *c, struct sweep_prog_job *j, size_t place, unsigned runs,
    uint64_t *bytes, char *what, size_t len)
{
	const struct scn_sweep *sw = c->sw;
	uint64_t cap = sw->file_size, n;
	struct sweep_sample s;
	double per_run = c->r->budget / runs, rate;
	int e;

	if (sweep_prog_reads(j->prog)) {
		const char *name;
		uint64_t psize = cap < SWEEP_PROBE_MAX_BYTES ? cap : SWEEP_PROBE_MAX_BYTES;
		if ((e = sweep_input(c, place, true, psize, &name)) != 0) {
			snprintf(what, len, "writing the probe input");
			return e;
		}
		j->in_name = name;
		cap = psize;
	}
	n = 16 * j->buf_size < cap ? 16 * j->buf_size : cap;
	for (;;) {
		j->limit = n;
		if ((e = sweep_once(c, j, cap, &s, what, len)) != 0)
			return e;
		if (s.elapsed >= SWEEP_PROBE_MIN_S || n >= cap || s.bytes < n)
			break;
		n = n * 4 < cap ? n * 4 : cap;
	}
	rate = s.elapsed > 0 && s.bytes > 0 ? (double)s.bytes / s.elapsed : INFINITY;
	*bytes = sweep_scale_bytes(sw->file_size, j->buf_size, rate, per_run);
	c->predict = isfinite(rate) ? (double)*bytes / rate : -1;
	return 0;
}

/* Bytes a run may move at rate bytes/s within per_run seconds (see sweep/sweep.h). */
uint64_t
sweep_scale_bytes(uint64_t file_size, uint64_t buf_size, double rate, double per_run)
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

/*
 * The fixed part of a scaled row: runs that move a single buffer, the way the counted runs
 * move many (read programs read a one-buffer input to its EOF). Their median time and CPU,
 * and their calls beyond the one buffer's own, are what a run costs whatever its size.
 */
static int
sweep_fixed(struct sweep_ctx *c, struct sweep_prog_job *j, size_t place, struct sweep_row *row,
    char *what, size_t len)
{
	double z[3], u[3], sy[3], calls[3];
	struct sweep_sample s;
	int e;

	j->limit = j->buf_size;
	if (sweep_prog_reads(j->prog)) {
		const char *name;
		if ((e = sweep_input(c, place, true, j->buf_size, &name)) != 0) {
			snprintf(what, len, "writing the one-buffer input");
			return e;
		}
		j->in_name = name;
		j->limit = UINT64_MAX;
	}
	for (int k = 0; k < 3; k++) {
		if ((e = sweep_once(c, j, j->buf_size, &s, what, len)) != 0)
			return e;
		z[k] = s.elapsed;
		u[k] = s.user;
		sy[k] = s.system;
		calls[k] = (double)(s.syscr + s.syscw);
	}
	row->fixed = stats_median(z, 3);
	row->fixed_user = stats_median(u, 3);
	row->fixed_system = stats_median(sy, 3);
	row->fixed_calls = stats_median(calls, 3);
	j->in_name = NULL;
	return 0;
}

/*
 * Once the counted runs are in: the per-buffer calls of a run of n buffers are
 * (measured - c1) / (n - 1) where c1 is a one-buffer run's; what is left of c1 is fixed.
 */
static void
sweep_fixed_calls(struct sweep_row *row)
{
	double n = ceil((double)row->bytes / (double)row->buf_size), c1 = row->fixed_calls;
	double per = n > 1 ? (row->syscr + row->syscw - c1) / (n - 1) : 0;

	row->fixed_calls = n > 1 ? c1 - per : 0;
	if (row->fixed_calls < 0)
		row->fixed_calls = 0;
	if (row->fixed_calls > row->syscr + row->syscw)
		row->fixed_calls = row->syscr + row->syscw;
	if (row->fixed_user > row->user)
		row->fixed_user = row->user;
	if (row->fixed_system > row->system)
		row->fixed_system = row->system;
}

/* Run one row: input, probe, warm-ups, counted runs. 0 or -2 (stopped). */
static int
sweep_row(struct sweep_ctx *c, size_t vi, size_t ri)
{
	const struct scn_sweep *sw = c->sw;
	struct sweep_variant *bv = &c->r->variants[vi];
	struct sweep_row *row = &bv->rows[ri];
	struct sweep_prog_job j;
	struct sweep_sample s;
	unsigned runs = c->r->warmup + c->r->repeat;
	char what[64] = "", sz[32];
	int e;

	memset(&j, 0, sizeof j);
	j.prog = sw->program;
	j.v = bv->v;
	j.dir = c->places[bv->place].idx;
	j.buf_size = row->buf_size;

	c->p.row = ri;
	c->p.step = vi * bv->n_rows + ri + 1;
	c->p.variant_idx = vi;
	c->p.buf_size = row->buf_size;
	c->p.run = 0;
	c->p.n_runs = c->r->repeat;
	c->p.n_warmup = c->r->warmup;
	c->p.bytes = 0;
	c->p.last_elapsed = -1;
	c->p.running = -1;
	c->p.phase = SWEEP_PHASE_PROBE;
	clock_gettime(CLOCK_MONOTONIC, &c->row_t0);
	c->run_sum = 0;
	c->run_n = 0;
	c->predict = -1;
	sweep_report(c);
	if (c->stop)
		return -2;

	if ((e = sweep_probe(c, &j, bv->place, runs, &row->bytes, what, sizeof what)) != 0)
		goto fail;
	row->scale = (double)sw->file_size / (double)row->bytes;
	c->p.bytes = row->bytes;
	/*
	 * A scaled row would multiply the per-run fixed cost (open, create, the first block's
	 * allocation and journal commit, the first disk access, close) by scale too: measure
	 * it with runs that move a single buffer, and count it once.
	 */
	if (row->scale > 1 && (e = sweep_fixed(c, &j, bv->place, row, what, sizeof what)) != 0)
		goto fail;
	if (sweep_prog_reads(j.prog)) {
		const char *name;
		c->p.phase = SWEEP_PHASE_PREPARE;
		sweep_report(c);
		if ((e = sweep_input(c, bv->place, false, row->bytes, &name)) != 0) {
			snprintf(what, sizeof what, "writing the input");
			goto fail;
		}
		j.in_name = name;
	}
	/* Timed runs read to EOF, as the books' programs do; write programs write exactly. */
	j.limit = sweep_prog_reads(j.prog) ? UINT64_MAX : row->bytes;

	if ((row->runs = calloc(c->r->repeat, sizeof *row->runs)) == NULL) {
		e = ENOMEM;
		snprintf(what, sizeof what, "calloc");
		goto fail;
	}
	/* The warm-ups, then the counted runs; the one going is reported while it goes. */
	for (unsigned k = 0; k < c->r->warmup + c->r->repeat; k++) {
		bool warm = k < c->r->warmup;
		struct timespec t0;
		c->p.phase = warm ? SWEEP_PHASE_WARMUP : SWEEP_PHASE_RUN;
		c->p.run = warm ? k + 1 : k - c->r->warmup + 1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if ((e = sweep_once(c, &j, row->bytes, &s, what, sizeof what)) != 0)
			goto fail;
		c->run_sum += sweep_since(&t0);
		c->run_n++;
		if (!warm)
			row->runs[row->n_runs++] = s;
		c->p.last_elapsed = s.elapsed;
		sweep_report(c);
		if (c->stop) {
			sweep_row_summarize(row);
			return -2;
		}
	}
	sweep_row_summarize(row);
	/* The fixed part cannot exceed the fastest whole run. */
	if (row->fixed > row->elapsed.min)
		row->fixed = row->elapsed.min;
	if (row->scale > 1)
		sweep_fixed_calls(row);
	if (row->scale > 1)
		sweep_note(row->note, sizeof row->note, "measured %s per run, scaled x%.4g; "
		    "fixed cost %.3g ms counted once", units_format_size_round(row->bytes, sz, sizeof sz),
		    row->scale, row->fixed * 1e3);
	c->p.phase = SWEEP_PHASE_ROW_DONE;
	c->rows_time += sweep_since(&c->row_t0);
	c->rows_done++;
	sweep_load(c->r);
	sweep_report(c);
	return c->stop ? -2 : 0;
fail:
	/* Stopped while a run went: the rows finished so far stand, this one is not run. */
	if (e == ECANCELED && c->stop) {
		row->n_runs = 0;
		return -2;
	}
	row->err = e;
	row->n_runs = 0;
	sweep_note(row->note, sizeof row->note, "%s: %s%s", what, strerror(e),
	    e == EINVAL && (bv->v->flags & O_DIRECT) ?
	    " (O_DIRECT needs sizes and offsets aligned to the block size)" : "");
	c->p.phase = SWEEP_PHASE_ROW_DONE;
	sweep_report(c);
	return c->stop ? -2 : 0;
}

/* The parent dirs disk variants run under: the options' dirs, or their one dir. */
static size_t
sweep_parents(const struct sweep_opts *o, const char **out)
{
	size_t n = 0;

	for (size_t k = 0; o->dirs != NULL && k < o->n_dirs && n < SWEEP_MAX_DIRS; k++)
		out[n++] = o->dirs[k];
	if (n == 0)
		out[n++] = o->dir;
	return n;
}

/*
 * Make the scratch dirs the variants need, each with room for an input, an output and a
 * probe input; name each variant's filesystem and device.
 */
static int
sweep_dirs(struct sweep_ctx *c, char **err)
{
	const char *parents[SWEEP_MAX_DIRS];
	char msg[PATH_MAX + 128];

	sweep_parents(c->o, parents);
	for (size_t v = 0; v < c->r->n_variants; v++) {
		struct sweep_variant *bv = &c->r->variants[v];
		struct sweep_place *pl = &c->places[bv->place];
		if (pl->idx < 0) {
			pl->idx = scratch_place(bv->place == 0, bv->place == 0 ? c->o->dir :
			    parents[bv->place - 1], 3 * c->sw->file_size, msg, sizeof msg);
			if (pl->idx < 0) {
				errmsg_set(err, "%s", msg);
				return -1;
			}
		}
		snprintf(bv->dir, sizeof bv->dir, "%s", scratch_dir(pl->idx));
		sweep_fs_name(pl->idx, bv->fs, sizeof bv->fs, bv->dev, sizeof bv->dev);
	}
	return 0;
}

/*
 * The result's variants: each of the sweep's, once per parent dir when there are several
 * (a tmpfs variant once: it has one place). NULL if out of memory.
 */
static struct sweep_variant *
sweep_variants(const struct scn_sweep *sw, const struct sweep_opts *o, size_t *n)
{
	const char *parents[SWEEP_MAX_DIRS];
	size_t np = sweep_parents(o, parents), k = 0;
	struct sweep_variant *vs = calloc(sw->n_variants * np, sizeof *vs);

	if (vs == NULL)
		return NULL;
	/* A variant's dirs one after another: the same program, filesystem by filesystem. */
	for (size_t v = 0; v < sw->n_variants; v++)
		for (size_t d = 0; d < np; d++) {
			bool tmpfs = sw->variants[v].on == SCN_FS_TMPFS;
			if (tmpfs && d > 0)
				continue;
			vs[k].v = &sw->variants[v];
			vs[k].place = tmpfs ? 0 : 1 + d;
			if (np > 1 && !tmpfs && parents[d] != NULL)
				snprintf(vs[k].given_dir, sizeof vs[k].given_dir, "%s", parents[d]);
			k++;
		}
	*n = k;
	return vs;
}

/* Run a sweep. */
int
sweep_run(const struct scn_sweep *sw, const struct sweep_opts *o, struct sweep_result *out,
    char **err)
{
	static const struct sweep_opts none;
	struct sweep_ctx c;
	struct timespec t0, t1;
	int rc = 0;

	if (err != NULL)
		*err = NULL;
	memset(out, 0, sizeof *out);
	if (o == NULL)
		o = &none;
	if (sw == NULL || sw->n_buffer_sizes == 0 || sw->n_variants == 0 || sw->file_size == 0) {
		errmsg_set(err, "a sweep needs buffer_sizes, a variant and a file_size");
		return -1;
	}
	for (size_t i = 0; i < sw->n_buffer_sizes; i++)
		if (sw->buffer_sizes[i] == 0 || sw->buffer_sizes[i] > SCN_MAX_SIZE) {
			errmsg_set(err, "buffer size %" PRIu64 " out of range", sw->buffer_sizes[i]);
			return -1;
		}
	if (sw->file_size > SCN_MAX_SIZE) {
		errmsg_set(err, "file_size %" PRIu64 " is above the limit of 1 GiB", sw->file_size);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&c, 0, sizeof c);
	c.sw = sw;
	c.o = o;
	c.r = out;
	for (size_t k = 0; k < sizeof c.places / sizeof c.places[0]; k++)
		c.places[k].idx = -1;
	out->sw = sw;
	out->budget = o->budget > 0 ? o->budget : sw->budget > 0 ? sw->budget : SWEEP_DEFAULT_BUDGET;
	out->repeat = o->repeat > 0 ? o->repeat : sw->repeat > 0 ? sw->repeat : SWEEP_DEFAULT_REPEAT;
	out->warmup = sw->repeat == 0 && sw->warmup == 0 ? SWEEP_DEFAULT_WARMUP : sw->warmup;
	sweep_machine(out);
	out->busy.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	out->busy.load_max = -1;
	out->busy.wait_max = -1;
	sweep_load(out);

	if ((out->variants = sweep_variants(sw, o, &out->n_variants)) == NULL) {
		errmsg_set(err, "out of memory");
		return -1;
	}
	for (size_t v = 0; v < out->n_variants; v++) {
		struct sweep_variant *bv = &out->variants[v];
		if ((bv->rows = calloc(sw->n_buffer_sizes, sizeof *bv->rows)) == NULL) {
			errmsg_set(err, "out of memory");
			sweep_result_clear(out);
			return -1;
		}
		bv->n_rows = sw->n_buffer_sizes;
		for (size_t i = 0; i < bv->n_rows; i++) {
			bv->rows[i].buf_size = sw->buffer_sizes[i];
			bv->rows[i].scale = 1;
			bv->rows[i].commits = -1;
			bv->rows[i].wait = -1;
		}
	}
	if (sweep_dirs(&c, err) != 0) {
		rc = -1;
		goto done;
	}
	for (size_t v = 0; v < out->n_variants; v++) {
		struct sweep_variant *bv = &out->variants[v];
		if (sweep_prog_reads(sw->program) && sw->cache == SCN_CACHE_COLD &&
		    bv->v->on == SCN_FS_TMPFS && strstr(out->note, "tmpfs") == NULL)
			sweep_note(out->note, sizeof out->note,
			    "cold cache not possible on tmpfs: its files live in the page cache");
	}
	c.p.n_variants = out->n_variants;
	c.p.n_rows = sw->n_buffer_sizes;
	c.p.n_steps = out->n_variants * sw->n_buffer_sizes;
	for (size_t v = 0; v < out->n_variants && rc == 0; v++) {
		c.p.variant = out->variants[v].v->name ? out->variants[v].v->name : "default";
		for (size_t i = 0; i < sw->n_buffer_sizes && rc == 0; i++)
			rc = sweep_row(&c, v, i);
	}
	sweep_row_relate(out);
	sweep_row_busy(out);
done:
	for (size_t k = 0; k < sizeof c.places / sizeof c.places[0]; k++)
		if (c.places[k].idx >= 0)
			scratch_remove(c.places[k].idx);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->wall = sweep_prog_seconds(&t0, &t1);
	if (rc == -1) {
		if (err != NULL && *err == NULL)
			errmsg_set(err, "sweep failed");
		sweep_result_clear(out);
	}
	return rc;
}

/* Free a result. */
void
sweep_result_clear(struct sweep_result *r)
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
