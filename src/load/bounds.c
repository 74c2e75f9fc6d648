/* SPDX-License-Identifier: MIT */
/* bounds.c: the loader's pass over a whole run's bounds: steps, time, bytes, tail. */
#include <config.h>

#include <stdio.h>

#include "sweep/programs.h"
#include "sweep/sweep.h"
#include "load/load-int.h"

/* Where KEY of mapping N was written (NULL if absent). */
#define AT(n, key) yamlpos_get(ld->ix, (n), (key))

/* What a run holds at once: the scratch file, and a sweep's files while it runs. */
struct scenario_bounds_bytes {
	uint64_t disk;        /* on disk, in one --dir */
	uint64_t ram;         /* in tmpfs (/dev/shm): RAM */
};

/*
 * Refuse more than SCN_MAX_STEPS steps before libcyaml maps them (its load grows faster
 * than the steps do). ROOT is the shape-checked tree. 0, or -1 after reporting.
 */
int
load_bounds_steps(struct scn_load *ld, const struct yamlpos_node *root)
{
	const struct yamlpos_node *n = AT(root, "steps"), *c;
	size_t i = 0;

	if (n == NULL || n->kind != YAMLPOS_SEQ || n->n_children <= SCN_MAX_STEPS)
		return 0;
	for (c = yamlpos_first(ld->ix, n); c != NULL && i < SCN_MAX_STEPS; i++)
		c = yamlpos_next(ld->ix, c);
	load_at(ld, c != NULL ? c : n, "step %d: a scenario may have at most %d steps "
		    "(this one has %zu)", SCN_MAX_STEPS + 1, SCN_MAX_STEPS, n->n_children);
	return -1;
}

/* Seconds step ST may take by its own numbers: a wait's seconds or timeout, a sweep's
 * budget per row times its rows; 0 for any other step. */
static double
load_step_seconds(const struct scn_step *st)
{
	const struct scn_sweep *sw = st->sweep;

	if (st->op == SCN_OP_WAIT) {
		if (st->args.until_clean || (st->args.has & SCN_HAS_UNTIL))
			return st->args.timeout > 0 ? st->args.timeout : SCN_WAIT_TIMEOUT;
		return st->args.seconds;
	}
	if (st->op == SCN_OP_SWEEP && sw != NULL)
		return (sw->budget > 0 ? sw->budget : SWEEP_DEFAULT_BUDGET) *
		       (double)(sw->n_buffer_sizes * sw->n_variants);
	return 0;
}

/* Seconds the steps of S may take by their own numbers (scenario/scenario.h). */
double
load_seconds_at_most(const struct scenario *s)
{
	double t = 0;

	for (size_t i = 0; i < s->n_steps; i++)
		t += load_step_seconds(&s->steps[i]);
	return t;
}

/* Seconds step ST may take by its own numbers; *at: the key to blame. */
static double
load_bounds_seconds(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *opnode, const struct yamlpos_node **at)
{
	*at = opnode;
	if (st->op == SCN_OP_WAIT)
		*at = st->args.until_clean || (st->args.has & SCN_HAS_UNTIL) ?
		      (AT(opnode, "timeout") ? AT(opnode, "timeout") : AT(opnode, "until")) :
		      AT(opnode, "seconds");
	else if (st->op == SCN_OP_SWEEP && st->sweep != NULL && AT(opnode, "budget") != NULL)
		*at = AT(opnode, "budget");
	return load_step_seconds(st);
}

/* Bytes a sweep keeps at once on the filesystem of each kind of its variants. */
static struct scenario_bounds_bytes
load_bounds_sweep_bytes(const struct scn_sweep *sw)
{
	struct scenario_bounds_bytes b = { 0, 0 };
	uint64_t need = 0;
	bool disk = false, ram = false;

	/* sweep/sweep.c keeps one input and one probe input per place, and one output at a time. */
	if (sweep_prog_reads(sw->program))
		need += sw->file_size + (sw->file_size < ((uint64_t)8 << 20) ?
					 sw->file_size : ((uint64_t)8 << 20));
	if (sweep_prog_writes(sw->program))
		need += sw->file_size;
	for (size_t v = 0; v < sw->n_variants; v++) {
		ram = ram || sw->variants[v].on == SCN_FS_TMPFS;
		disk = disk || sw->variants[v].on != SCN_FS_TMPFS;
	}
	b.disk = disk ? need : 0;
	b.ram = ram ? need : 0;
	return b;
}

/* A sweep's bytes beside the scratch file's: report at its file_size if over a bound. */
static void
load_bounds_sweep(struct scn_load *ld, const struct scn_sweep *sw,
		  const struct yamlpos_node *opnode, struct scenario_bounds_bytes file)
{
	const struct yamlpos_node *at = AT(opnode, "file_size") ? AT(opnode, "file_size") : opnode;
	struct scenario_bounds_bytes b = load_bounds_sweep_bytes(sw);

	/* In whole MiB, rounded up: "2.0 GiB, at most 2 GiB" would not say what is wrong. */
#define MIB(x) ((uintmax_t)(((x) + (1u << 20) - 1) >> 20))
	if (b.disk > 0 && file.disk + b.disk > SCN_MAX_DISK)
		load_at(ld, at, "this sweep keeps %ju MiB on disk at once (its files %ju MiB, "
			    "the scratch file %ju MiB); a run may keep at most %ju MiB on disk in "
			    "one directory", MIB(file.disk + b.disk), MIB(b.disk), MIB(file.disk),
			    MIB(SCN_MAX_DISK));
	else if (b.ram > 0 && file.ram + b.ram > SCN_MAX_RAM)
		load_at(ld, at, "this sweep keeps %ju MiB in tmpfs, which is RAM, at once (its "
			    "files %ju MiB, the scratch file %ju MiB); a run may keep at most %ju MiB "
			    "there", MIB(file.ram + b.ram), MIB(b.ram), MIB(file.ram),
			    MIB(SCN_MAX_RAM));
#undef MIB
}

/* tail's bounds: the lines it keeps and the block it reads with (scenario/scenario.h). */
static void
load_bounds_tail(struct scn_load *ld, const struct scn_step *st,
		 const struct yamlpos_node *opnode)
{
	if ((st->args.has & SCN_HAS_LINES) && st->args.lines > TAIL_LINES_MAX)
		load_at(ld, AT(opnode, "lines"), "tail keeps at most %d lines (of at most %d "
			    "bytes each), not %ju", TAIL_LINES_MAX, TAIL_LINE_MAX,
			    (uintmax_t)st->args.lines);
	if ((st->args.has & SCN_HAS_SIZE) && st->args.size > TAIL_BLOCK_MAX)
		load_at(ld, AT(opnode, "block"), "tail reads in blocks of at most %d KiB, not %ju bytes",
			    TAIL_BLOCK_MAX / 1024, (uintmax_t)st->args.size);
}

/*
 * A whole run's bounds, on a converted scenario S whose tree is ROOT: the time its waits and
 * sweep budgets add up to, the bytes it keeps at once on disk and in tmpfs, and what tail
 * may keep. Each is reported at the step or key that crosses it.
 */
void
load_bounds_check(struct scn_load *ld, const struct scenario *s,
		  const struct yamlpos_node *root)
{
	const struct yamlpos_node *steps = AT(root, "steps");
	const struct yamlpos_node *c = steps != NULL ? yamlpos_first(ld->ix, steps) : NULL;
	struct scenario_bounds_bytes file = { 0, 0 };
	double total = 0, all = 0;
	bool told = false;

	/* Steps with errors are left out: their numbers are not known to be what was meant. */
	if (ld->oom || ld->step_bad == NULL)
		return;
	if (s->file.on == SCN_FS_TMPFS)
		file.ram = s->file.size;
	else
		file.disk = s->file.size;
	for (size_t i = 0; i < s->n_steps; i++)
		if (!ld->step_bad[i])
			all += load_step_seconds(&s->steps[i]);
	for (size_t i = 0; i < s->n_steps && c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		const struct scn_step *st = &s->steps[i];
		if (ld->step_bad[i])
			continue;
		const struct yamlpos_node *op = AT(c, scenario_op_name(st->op));
		const struct yamlpos_node *at;
		double t = load_bounds_seconds(ld, st, op, &at);

		total += t;
		if (!told && st->op == SCN_OP_SWEEP && t > SCN_MAX_RUN_SECONDS) {
			load_at(ld, at ? at : c, "this sweep's budget of %g s per row, for %zu "
				    "rows (buffer sizes x variants), adds up to %g s; a run may take at "
				    "most %d s (--timeout)",
				    st->sweep->budget > 0 ? st->sweep->budget : SWEEP_DEFAULT_BUDGET,
				    st->sweep->n_buffer_sizes * st->sweep->n_variants, t,
				    SCN_MAX_RUN_SECONDS);
			told = true;
		} else if (!told && total > SCN_MAX_RUN_SECONDS) {
			load_at(ld, at ? at : c, "this scenario's waits and sweep budgets add up "
				    "to %g s, past %d s at this step; a run may take at most %d s "
				    "(--timeout)", all, SCN_MAX_RUN_SECONDS, SCN_MAX_RUN_SECONDS);
			told = true;
		}
		if (st->op == SCN_OP_SWEEP && st->sweep != NULL)
			load_bounds_sweep(ld, st->sweep, op, file);
		if (st->op == SCN_OP_TAIL)
			load_bounds_tail(ld, st, op);
	}
}
