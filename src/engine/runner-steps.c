/* SPDX-License-Identifier: MIT */
/* runner-steps.c: a step run: in the worker, or in the runner itself (a sweep's timed runs, the
 * pty exercise, a wait that watches the cache, a program run under the tracer). */
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "scenario/names.h"
#include "probe/probe.h"
#include "engine/pty-run.h"
#include "engine/runner-int.h"
#include "scratch/scratch.h"

/* Between a sweep's runs: the caller's progress, then the run's timeout. */
static int
runner_sweep_check(const struct sweep_progress *p, void *user)
{
	struct runner *r = user;

	if (r->o.sweep_progress != NULL && r->o.sweep_progress(p, r->o.user) != 0)
		return 1;
	return runner_check_timeout(r);
}

/*
 * sweep: timed runs in children forked from the runner (sweep/sweep.c), never in the traced
 * worker; their files live in bench's own private scratch dirs under the same parent.
 */
static void
runner_op_sweep(struct runner *r, const struct scn_step *step, struct step_result *out)
{
	struct sweep_opts bo = {
		.dir = r->o.dir,
		.budget = r->o.budget,
		.dirs = r->o.sweep_dirs,
		.n_dirs = r->o.n_sweep_dirs,
		.progress = runner_sweep_check,
		.user = r,
	};
	struct timespec start;
	char *err = NULL;
	int rc;

	out->events.source = r->source;
	out->sweep = calloc(1, sizeof *out->sweep);
	if (out->sweep == NULL) {
		out->ret = -1;
		out->err = ENOMEM;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	rc = sweep_run(step->sweep, &bo, out->sweep, &err);
	out->op_ns = (uint64_t)(runner_since(&start) * 1e9);
	out->ret = rc == 0 ? 0 : -1;
	out->err = rc == 0 ? 0 : rc == -2 ? ECANCELED : EIO;
	if (rc == -1) {
		runner_note(out, "the sweep could not run: %s", err != NULL ? err : "out of memory");
		sweep_result_clear(out->sweep);
		free(out->sweep);
		out->sweep = NULL;
	} else if (rc == -2) {
		out->stopped = true;
		runner_note(out, "sweep stopped: the rows finished so far are shown");
		if (r->timed_out)
			runner_note_timeout(r, out);
	}
	free(err);
}

/* --- curriculum: exercise 13-4 (engine/pty-run.c) --- */

/* Name of a stdio buffering mode, for the pty note. */
static const char *
runner_pty_mode(const struct pty_side *s)
{
	if (!s->stdio_ok)
		return "not reported";
	return scenario_bufmode_name(s->stdio.mode);
}

/*
 * pty: the snippet runs in two fresh children of the runner (not the worker: its stdout must
 * be a terminal, then a file), the file run's stdout being the scenario's file, which the
 * panes then show. Each child is traced as the worker is: its calls on its stdout are the
 * step's events, the terminal run's first, each named by its run.
 */
static void
runner_op_pty(struct runner *r, const struct scn_step *step, struct step_result *out)
{
	struct pty_where w = { .file_path = r->path, .trace = r->tracer != NULL,
	                       .poll = runner_poll_check, .user = r };
	struct pty_result pr;
	struct timespec start;
	int rc;

	/* The file run's stdout: "> file" makes it when the lesson has not. */
	w.file_fd = openat(r->dirfd, RUNNER_FILE_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	                   0600);
	if (w.file_fd < 0) {
		out->ret = -1;
		out->err = errno;
		runner_note(out, "cannot open the scenario's file for the file run: %s",
		            strerror(errno));
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	rc = pty_run(&step->args, &w, &pr);
	close(w.file_fd);
	out->op_ns = (uint64_t)(runner_since(&start) * 1e9);
	out->events.source = r->source;
	for (int k = 0; k < 2; k++) {
		const struct event_list *l = k == 0 ? &pr.term.events : &pr.file.events;
		for (size_t i = 0; i < l->n; i++)
			(void)event_list_add(&out->events, &l->v[i]);
	}
	out->ret = rc;
	out->err = rc < 0 ? errno : 0;
	if (r->stop) {
		out->ret = -1;
		out->err = r->timed_out ? ETIMEDOUT : ECANCELED;
		out->stopped = true;
		if (r->timed_out)
			runner_note_timeout(r, out);
		else
			runner_note(out, "stopped");
	}
	out->output = pr.term.output;
	out->output_file = pr.file.output;
	pr.term.output = pr.file.output = NULL;
	runner_note(out, "after printf(): terminal stdout %s, %" PRIu64 "-byte buffer, %" PRIu64
	            " pending; file stdout %s, %" PRIu64 "-byte buffer, %" PRIu64 " pending",
	            runner_pty_mode(&pr.term), pr.term.stdio.size, pr.term.stdio.pending,
	            runner_pty_mode(&pr.file), pr.file.stdio.size, pr.file.stdio.pending);
	pty_result_clear(&pr);
}

/* The page cache sources that count dirty pages, tried in turn where the probe asked for
 * cannot (mincore): the wait's end is theirs, the panes stay the probe's. */
static const enum snap_source runner_wait_sources[] = { SNAP_SRC_CACHESTAT, SNAP_SRC_KPAGEFLAGS };

/*
 * wait until: clean where the probe cannot count dirty pages (mincore), looking at NOW: true
 * when the wait is over, with why in out's note (and *ret, *err set when it cannot be told).
 * A file in memory (tmpfs) has nothing to write back. Else a source that counts dirty pages,
 * where one works here (cachestat; kpageflags as root), says when none is left. Without one,
 * only delalloc is seen go (FIEMAP): writeback gives the data its blocks first, so delalloc
 * seen during the wait (saw_delalloc) and gone says writeback began, not that the pages are
 * clean; an overwrite of allocated blocks has no delalloc at all, and then nothing here can
 * tell: the wait says so (ENOTSUP) rather than end as if clean.
 */
static bool
runner_wait_blind(struct runner *r, const struct snapshot *now, bool saw_delalloc,
                  struct step_result *out, int64_t *ret, int *err)
{
	const char *why = now->cache.note[0] ? now->cache.note : "no cachestat";
	const char *probe = probe_cache_source_name(now->cache.source);
	struct snap_cache *c;

	if (snapshot_in_memory(now)) {
		runner_note(out, "%s has no disk: nothing is ever waiting to be written back",
		            now->disk.fs);
		return true;
	}
	if ((c = malloc(sizeof *c)) != NULL) {
		for (size_t i = 0; i < sizeof runner_wait_sources / sizeof runner_wait_sources[0];
		     i++) {
			enum snap_source src = runner_wait_sources[i];

			if (probe_cache_as(r->probe_fd, now->cache.file_size, src, c) != 0 ||
			    !c->has_dirty)
				continue;
			if (c->dirty > 0 || c->writeback > 0) {
				free(c);
				return false;
			}
			runner_note(out, "%s cannot see dirty pages: the wait asked %s, which saw "
			            "none dirty and none under writeback", probe,
			            probe_cache_source_name(src));
			free(c);
			return true;
		}
		free(c);
	}
	if (now->disk.source == SNAP_SRC_NONE) {
		*ret = -1;
		*err = ENOTSUP;
		runner_note(out, "dirty pages cannot be seen here (%s), nor the file's blocks (%s)",
		            why, now->disk.note[0] ? now->disk.note : "no FIEMAP");
		return true;
	}
	if (now->disk.delalloc_bytes > 0)
		return false;
	if (saw_delalloc) {
		runner_note(out, "%s cannot see dirty pages: waited until no byte of the file waited "
		            "for its disk block (FIEMAP), which writeback does first; whether the "
		            "pages are clean yet cannot be seen", probe);
		return true;
	}
	*ret = -1;
	*err = ENOTSUP;
	runner_note(out, "%s cannot see dirty pages, nor FIEMAP any delalloc to watch instead (an "
	            "overwrite of blocks on the disk has none): whether the pages are clean "
	            "cannot be told here", probe);
	return true;
}

/* wait: sleep in slices, looking at the cache after each, until time or clean. */
static void
runner_op_wait(struct runner *r, const struct scn_step *step, struct step_result *out)
{
	const struct scn_args *a = &step->args;
	bool until_clean = a->until_clean || (a->has & SCN_HAS_UNTIL);
	double limit = a->seconds;
	struct timespec start;
	struct snapshot now;
	bool saw_delalloc = r->delalloc_seen;
	int64_t ret = 0;
	int err = 0;

	/* The loader gives every wait its timeout (the default too): it is used as it is. */
	assert(!until_clean || a->timeout > 0);
	if (until_clean)
		limit = a->timeout;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		double el = runner_since(&start), left;
		struct timespec ts;

		runner_observe(r, &now);
		if (runner_check_timeout(r)) {
			ret = -1;
			err = ETIMEDOUT;
			runner_note_timeout(r, out);
			break;
		}
		if (r->o.progress != NULL && r->o.progress(&now, el, r->o.user) != 0) {
			ret = -1;
			err = ECANCELED;
			out->stopped = true;
			r->stop = true;
			runner_note(out, "stopped by the user after %.1f s", el);
			break;
		}
		/* Where dirty pages cannot be counted, wait on what can be seen: writeback gives
		 * delayed allocations their blocks first (FIEMAP), on a filesystem that has them. */
		saw_delalloc |= now.disk.delalloc_bytes > 0;
		if (until_clean && !now.cache.has_dirty &&
		    runner_wait_blind(r, &now, saw_delalloc, out, &ret, &err))
			break;
		if (until_clean && now.cache.has_dirty && now.cache.dirty == 0 &&
		    now.cache.writeback == 0)
			break;
		if (el >= limit) {
			if (until_clean) {
				ret = -1;
				err = ETIMEDOUT;
				runner_note(out, "still dirty after %.1f s", el);
			}
			break;
		}
		left = limit - el;
		if (left * 1e9 > RUNNER_WAIT_SLICE_NS) {
			ts.tv_sec = 0;
			ts.tv_nsec = RUNNER_WAIT_SLICE_NS;
		} else {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		nanosleep(&ts, NULL);
	}
	/* The worker's half: a fresh look at its stdio after the wait. */
	if (!r->dead && !r->stop)
		runner_exchange(r, out->index, out);
	out->ret = ret;
	out->err = err;
	out->op_ns = (uint64_t)(runner_since(&start) * 1e9);
}

/* While a run step's program runs: the caller's poll and the run's timeout (prog/op.h). */
static int
runner_run_poll(void *arg)
{
	return runner_poll_now(arg);
}

/* run: the student's program, to its end, as one step (runner_opts.run_op: prog/op.c),
 * within what is left of the run's time; q in the TUI stops it. */
static void
runner_op_run(struct runner *r, const struct scn_step *step, struct step_result *out)
{
	char real[PATH_MAX], *slash;
	bool lesson = r->s->path != NULL && realpath(r->s->path, real) != NULL &&
	              (slash = strrchr(real, '/')) != NULL;
	struct runner_program_ctx c = {
		.dir = scratch_dir(r->scratch), .file = r->path, .file_arg = r->path,
		.lesson_dir = NULL,
		.consent = r->o.consent, .seconds = r->timeout - r->used - runner_since(&r->busy),
		.poll = runner_run_poll, .poll_arg = r,
	};
	struct timespec start;
	int rc;

	/* In a crash lab, the program works in the lab's root and names the file there: the
	 * lab's path (/proc/<iobufviz>/fd/N) is not the program's to follow (prog/launch.c). */
	if (r->lab != NULL) {
		c.dir_fd = r->dirfd;
		c.file_arg = RUNNER_FILE_NAME;
	}
	if (lesson) {
		/* The scenario file's directory ("/" for a file at the root). */
		if (slash == real)
			real[1] = '\0';
		else
			*slash = '\0';
		c.lesson_dir = real;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	out->events.source = EV_SRC_PTRACE;
	out->ret = -1;
	if (r->o.run_op == NULL) {
		runner_note(out, "not run: the run op is not bound in this build of the runner");
		out->err = ENOSYS;
		return;
	}
	rc = r->o.run_op(&step->args, &c, out);
	if (rc == -2)           /* refused before it ran: not allowed, or its stdin */
		return;
	if (rc != 0 && out->err == 0)
		out->err = ECHILD;
	out->op_ns = (uint64_t)(runner_since(&start) * 1e9);
	/* The program killed at the run's deadline (the helper's bound) is stopped by it too,
	 * as the TUI, which runs no next step after q, must know (its exit status 3). */
	if (runner_check_timeout(r))
		runner_note_timeout(r, out);
	else if (r->stop)
		out->stopped = true;
}

/* The runner's parts that ops may run in (their op table entry says which); NULL: the worker. */
typedef void (*runner_op_fn)(struct runner *, const struct scn_step *, struct step_result *);
static const runner_op_fn runner_ops[SCN_RUNS__COUNT] = {
	[SCN_RUNS_RUNNER_WAIT] = runner_op_wait,
	[SCN_RUNS_RUNNER_PTY] = runner_op_pty,       /* curriculum */
	[SCN_RUNS_RUNNER_SWEEP] = runner_op_sweep,   /* sweep/sweep.c */
	[SCN_RUNS_RUNNER_RUN] = runner_op_run,       /* runner_opts.run_op */
	[SCN_RUNS_RUNNER_CRASH] = runner_op_crash,   /* engine/runner-crash.c */
};

/*
 * The scratch file's first bytes, through our read-only fd, when the step expects them
 * (file.content, file.prefix); else NULL. Only then: reading can bring pages into the cache.
 */
static char *
runner_file_content(struct runner *r, const struct scn_step *step)
{
	enum { MAX = 4096 };
	bool want = false;
	char *buf;
	ssize_t n;

	for (size_t i = 0; i < step->n_expects; i++)
		want = want || step->expects[i].key == SCN_KEY_FILE_CONTENT ||
		       step->expects[i].key == SCN_KEY_FILE_PREFIX;
	if (!want || (buf = malloc(MAX + 1)) == NULL)
		return NULL;
	n = runner_file_find(r) ? pread(r->probe_fd, buf, MAX, 0) : 0;
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* How long a step's reads may still be arriving in the cache after it, at most. */
#define RUNNER_SETTLE_MAX_NS 1000000000L
/* Between two looks at them. */
#define RUNNER_SETTLE_SLICE_NS 2000000L
/* Without cachestat to say how many pages were added: unchanged this long is settled. */
#define RUNNER_SETTLE_QUIET_NS 50000000L

/* True if the step's calls asked for pages of the file: a read, or posix_fadvise(WILLNEED),
 * which reads its range in the background. */
static bool
runner_asked_pages(const struct event_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if ((event_is_read(&l->v[i]) && l->v[i].result > 0) ||
		    (event_is_willneed(&l->v[i]) && l->v[i].result == 0))
			return true;
	return false;
}

/*
 * After a step that asked for pages, where the probe counts a page only once its read has
 * completed (mincore, kpageflags): the reads it started (WILLNEED's, read-ahead) may still
 * be arriving, so the count right after it is not what it brought in. Wait, at most
 * RUNNER_SETTLE_MAX_NS, until every page the kernel added to the cache has been read (as
 * cachestat counts them, where it works), else until the count stops growing; the note
 * says what was seen when the call returned and after how long it settled, or that it was
 * still growing. The step's after is observed then.
 */
static void
runner_settle(struct runner *r, struct step_result *out)
{
	struct snap_cache *c = NULL, *added = NULL;
	struct timespec start, quiet;
	uint64_t first = 0, last = 0, size;
	bool have_added = false, settled = false;
	struct stat sb;

	if (r->dead || r->stop || !runner_asked_pages(&out->events) || !runner_file_find(r) ||
	    fstat(r->probe_fd, &sb) != 0 || (c = malloc(sizeof *c)) == NULL ||
	    (added = malloc(sizeof *added)) == NULL)
		goto done;
	size = (uint64_t)sb.st_size;
	if (probe_cache_as(r->probe_fd, size, r->o.probe, c) != 0 ||
	    (c->source != SNAP_SRC_MINCORE && c->source != SNAP_SRC_KPAGEFLAGS))
		goto done;
	first = last = c->cached;
	clock_gettime(CLOCK_MONOTONIC, &start);
	quiet = start;
	for (;;) {
		struct timespec ts = { 0, RUNNER_SETTLE_SLICE_NS };

		have_added = probe_cache_as(r->probe_fd, size, SNAP_SRC_CACHESTAT, added) == 0;
		if (have_added && c->cached >= added->cached) {
			settled = true;
			break;
		}
		if (c->cached != last) {
			last = c->cached;
			clock_gettime(CLOCK_MONOTONIC, &quiet);
		}
		if (!have_added && runner_since(&quiet) * 1e9 >= RUNNER_SETTLE_QUIET_NS) {
			settled = true;
			break;
		}
		if (runner_since(&start) * 1e9 >= RUNNER_SETTLE_MAX_NS)
			break;
		nanosleep(&ts, NULL);
		if (probe_cache_as(r->probe_fd, size, r->o.probe, c) != 0)
			break;
	}
	if (!settled)
		runner_note(out, "its reads were still arriving: %s saw %" PRIu64 " page%s cached "
		            "as it returned, %" PRIu64 " after %.0f ms, still growing (%s counts a "
		            "page once its read has completed)", probe_cache_source_name(c->source),
		            first, first == 1 ? "" : "s", c->cached, runner_since(&start) * 1e3,
		            probe_cache_source_name(c->source));
	else if (c->cached != first)
		runner_note(out, "its reads were still arriving as it returned: %s saw %" PRIu64
		            " page%s cached then, %" PRIu64 " once they had all been read, %.1f ms "
		            "later (it counts a page once its read has completed)",
		            probe_cache_source_name(c->source), first, first == 1 ? "" : "s",
		            c->cached, runner_since(&start) * 1e3);
done:
	free(c);
	free(added);
}

/* Run the next step. */
int
runner_step(struct runner *r, struct step_result *out)
{
	const struct scn_step *step;
	bool wb_running, wb_late, own, disk;
	uint64_t wb, wb_before;
	struct jwatch_counts jw_before, jw_after;

	memset(out, 0, sizeof *out);
	if (r == NULL || r->next >= r->s->n_steps)
		return 0;
	out->index = r->next++;
	step = &r->s->steps[out->index];
	out->step = step;
	/* A person's pace: the time between two steps is not the run's (--timeout). */
	runner_pause(r, out);
	clock_gettime(CLOCK_MONOTONIC, &r->busy);
	(void)runner_check_timeout(r);
	/* Observed now, not the last step's after: at a person's pace the kernel may write
	 * pages back between two steps, and that must not be shown as this step's doing; what
	 * it is still writing is waited for, so that it lands before the step, not in it. */
	runner_crash_quiet(r);
	/* The kernel's counts first: a writeback or commit that begins while the step's before
	 * is observed is then seen as the kernel's, never taken for the step's own. */
	wb_before = wbwatch_count(r->wb, &wb_running);
	jwatch_read(r->jw, &jw_before);
	runner_observe(r, &out->before);
	/* What reached the device since the last step: nothing of this lesson's doing. */
	runner_crash_account(r, &out->before.device, false);
	out->events.source = r->source;
	if ((unsigned)step->op >= SCN_OP__COUNT) {
		out->ret = -1;
		out->err = EINVAL;
		runner_note(out, "unknown op");
	} else if (r->stop) {
		out->ret = -1;
		out->err = r->timed_out ? ETIMEDOUT : ECANCELED;
		out->stopped = true;
		out->timed_out = r->timed_out;
		runner_note(out, "nothing was run: the run was %s", r->timed_out ?
		            "stopped by its timeout (--timeout)" : "stopped");
	} else if (r->dead) {
		out->ret = -1;
		out->err = ECHILD;
		runner_note(out, "nothing was run: %s earlier", r->dead_note);
	} else if (runner_ops[scn_op_table[step->op].runs] != NULL) {
		runner_ops[scn_op_table[step->op].runs](r, step, out);
	} else {
		runner_exchange(r, out->index, out);
	}
	runner_settle(r, out);
	runner_observe(r, &out->after);
	/* Delalloc seen since the file was last written: only a wait writes nothing (a step of
	 * any other kind may have, over blocks it already had: no delalloc). */
	r->delalloc_seen = out->after.disk.delalloc_bytes > 0 ||
	                   ((unsigned)step->op < SCN_OP__COUNT &&
	                    scn_op_table[step->op].runs == SCN_RUNS_RUNNER_WAIT && r->delalloc_seen);
	runner_journal_look(r);
	/* The kernel's writebacks of the file since the lesson last wrote it back itself (a step
	 * that waits for the disk left it clean, none of them running), or since it began: any
	 * of them, during a step or between two, may have taken pages the lesson made dirty
	 * since (a file seen clean after one of them may be clean because it took them). */
	wb = wbwatch_count(r->wb, &wb_running);
	out->kernel_writeback = wb - r->wb_clean;
	out->writeback_unwatched = r->wb == NULL && r->probe_fd >= 0;
	disk = (unsigned)step->op < SCN_OP__COUNT && scn_op_table[step->op].layer == SCN_LAYER_DISK;
	/* A run: step whose program asked for the disk itself (fsync() ...) waited for it, as a
	 * step of the disk's layer does: what its calls sent to the device is its own. */
	if (!disk && (unsigned)step->op < SCN_OP__COUNT &&
	    scn_op_table[step->op].runs == SCN_RUNS_RUNNER_RUN)
		for (size_t i = 0; i < out->events.n && !disk; i++)
			disk = out->events.v[i].sync && out->events.v[i].err == 0;
	if (disk && !wb_running && out->after.cache.has_dirty && out->after.cache.dirty == 0 &&
	    out->after.cache.writeback == 0)
		r->wb_clean = wb;
	/* What the step started reaches the device as it returns, or just after (close() after
	 * O_TRUNC, rename()): the lesson's, not a stray of the next pause. */
	/* Unless the kernel wrote the file back on its own during a step that does not wait for
	 * the disk (a sync() elsewhere, the flusher: wbwatch saw it): then whose they were is
	 * not known, and they are strays. */
	own = runner_crash_own(step) && (disk || wb == wb_before);
	/* Read again once the device has settled: a writeback of the kernel's that began while it
	 * settled (a sync() elsewhere just after the step) wrote in that time, not the step. */
	if (own) {
		runner_crash_settle(r, &out->after.device);
		if (!disk && wbwatch_count(r->wb, &wb_late) != wb_before)
			own = false;
	}
	/* Nor when the journal committed during a step that commits nothing itself (a rename(),
	 * a close(): no wait for the disk, no write that could be O_SYNC): the journal's timer or
	 * a sync() elsewhere took that moment, and its writes are not the step's. */
	jwatch_read(r->jw, &jw_after);
	if (own && jw_after.commits != jw_before.commits && (unsigned)step->op < SCN_OP__COUNT &&
	    !disk &&
	    !scenario_op_has(step->op, SCN_OPF_WRITES))
		own = false;
	runner_crash_account(r, &out->after.device, own);
	runner_crash_synced(r, out);
	out->device_stray = r->stray_writes;
	r->used += runner_since(&r->busy);
	if ((unsigned)step->op < SCN_OP__COUNT &&
	    scn_op_table[step->op].runs != SCN_RUNS_RUNNER_CRASH) {
		clock_gettime(CLOCK_MONOTONIC, &r->step_end);
		/* Both crashes right after the step, when asked (a crash step is one). */
		if (r->o.crash_each && (out->crash = malloc(sizeof *out->crash)) != NULL)
			runner_crash(r, NULL, out->crash);
	}
	out->file_content = runner_file_content(r, step);
	/* The next pause starts here. */
	clock_gettime(CLOCK_MONOTONIC, &r->last_end);
	r->wb_last = wbwatch_count(r->wb, &wb_running);
	return 1;
}
