/* SPDX-License-Identifier: MIT */
/* sweep.h: the runtime of a sweep step: timed runs in forked children, shown beside the books. */
#ifndef IOBUFVIZ_BENCH_H
#define IOBUFVIZ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sweep/programs.h"
#include "scenario/scenario.h"
#include "sweep/stats.h"

/* Defaults when neither the scenario nor the options say. */
#define SWEEP_DEFAULT_BUDGET 2.0   /* seconds per row (all its runs) before it is scaled down */
#define SWEEP_DEFAULT_REPEAT 5
#define SWEEP_DEFAULT_WARMUP 1     /* used when repeat was 0 too, i.e. nothing was said */

/* What a sweep is doing when it reports progress. */
enum sweep_phase {
	SWEEP_PHASE_PREPARE,   /* writing the row's input file (not timed) */
	SWEEP_PHASE_PROBE,     /* short runs that estimate the row's time, for scaling */
	SWEEP_PHASE_WARMUP,    /* a run that is not counted */
	SWEEP_PHASE_RUN,       /* a counted run finished */
	SWEEP_PHASE_ROW_DONE,  /* the row's statistics are ready */
};

/*
 * Progress of a sweep: reported between runs, and about once a second while a long one goes
 * (running >= 0: the parent wakes from poll(), the child's timing is not disturbed).
 */
struct sweep_progress {
	enum sweep_phase phase;
	const char *variant;          /* variant name */
	size_t variant_idx, n_variants;
	size_t row, n_rows;           /* 0-based row of this variant, rows per variant */
	size_t step, n_steps;         /* 1-based row over all variants ("row k/N") */
	unsigned run, n_runs;         /* 1-based counted run ("run j/M"): the one that finished,
	                                 or (running >= 0) the one going */
	unsigned n_warmup;            /* warm-up runs per row (run is then j of n_warmup) */
	uint64_t buf_size;
	uint64_t bytes;               /* bytes each run moves (after scaling) */
	double last_elapsed;          /* seconds of the run just finished; < 0 if none */
	double running;               /* seconds the run going has taken so far; < 0 between runs */
	double row_left;              /* seconds this row has still to take, estimated from its
	                                 runs so far (or the probe's rate); < 0 unknown */
	double sweep_left;            /* seconds the whole sweep has still to take, estimated
	                                 from the rows done so far; < 0 unknown */
};

/* Called between runs. Return non-zero to stop the sweep (sweep_run then returns -2). */
typedef int (*sweep_progress_fn)(const struct sweep_progress *p, void *user);

/* Parent dirs one sweep may compare side by side. */
#define SWEEP_MAX_DIRS 8

struct sweep_opts {
	const char *dir;              /* parent of the private scratch dir; NULL: $TMPDIR or /tmp */
	const char *const *dirs;      /* n_dirs > 1: every disk variant runs under each of these
	                                 (exercise 13-1c); dir still places tmpfs fallbacks */
	size_t n_dirs;
	double budget;                /* seconds per row; 0: the scenario's, then SWEEP_DEFAULT_BUDGET */
	unsigned repeat;              /* counted runs; 0: the scenario's, then SWEEP_DEFAULT_REPEAT */
	sweep_progress_fn progress;   /* may be NULL */
	void *user;
};

/* Whether a run started with its input out of the page cache. */
enum sweep_cold {
	SWEEP_COLD_NA,                /* the program reads no input (write, fwrite): a new file each run */
	SWEEP_COLD_VERIFIED,          /* fsync + DONTNEED, then probe_cache saw 0 pages cached */
	SWEEP_COLD_FAILED,            /* pages stayed cached after DONTNEED */
	SWEEP_COLD_IMPOSSIBLE,        /* tmpfs: the page cache is the file */
	SWEEP_COLD_WARM,              /* cache: warm was asked for */
};

/* One buffer size of one variant. */
struct sweep_row {
	uint64_t buf_size;
	uint64_t bytes;               /* bytes each counted run moved (measured) */
	double scale;                 /* file_size / bytes: 1 when not scaled */
	double fixed;                 /* scaled rows: time of a run moving one buffer (open,
	                                 create, first write, close), counted once; else 0 */
	double fixed_calls;           /* scaled rows: read+write calls a run makes whatever its
	                                 size (the final read that sees EOF), counted once */
	double fixed_user, fixed_system; /* scaled rows: CPU of a one-buffer run, counted once */
	struct sweep_sample *runs;    /* the counted runs, in order (warm-ups and probes excluded) */
	size_t n_runs;
	struct stats_summary elapsed; /* of the runs' measured elapsed times */
	double user, system;          /* medians, measured */
	double syscr, syscw;          /* medians, measured */
	double commits;               /* median jbd2 journal commits per run, measured (not
	                                 scaled); -1 if not counted */
	double wait;                  /* median seconds a run waited for a CPU (runnable, not
	                                 running), measured; -1 unknown */
	double relative, relative_sd; /* extrapolated median / the fastest row's (all variants) */
	enum sweep_cold cold;         /* VERIFIED only if every run was; FAILED if any was not */
	int err;                      /* errno if the row could not run (its runs are then empty) */
	char note[160];               /* why it failed, or what to know about it */
};

/* One variant: its rows, and the filesystem its files were on. */
struct sweep_variant {
	const struct scn_variant *v;
	char fs[32];                  /* "ext4", "tmpfs", ... */
	char dev[64];                 /* the device behind it ("/dev/vda", "tmpfs"), or "" */
	char given_dir[256];          /* the --dir it ran under when more than one was given */
	size_t place;                 /* sweep/sweep.c: which of its scratch dirs the files are in */
	char dir[256];                /* where its scratch files were */
	struct sweep_row *rows;       /* one per sw->buffer_sizes[] */
	size_t n_rows;
};

/*
 * A run that waited for a CPU this share of its time was slowed by another process: its
 * time says as much about the machine's load as about the program.
 */
#define SWEEP_BUSY_WAIT 0.10

/*
 * Whether the machine was busy while the sweep ran, and what says so: the load average
 * above the CPUs, runs that waited for a CPU (CPU time far from wall time for want of a
 * CPU, not for the disk), and runs hyperfine would flag as outliers.
 */
struct sweep_busy {
	bool busy;                    /* one of the signs below crossed its line */
	int cpus;                     /* online CPUs */
	double load_max;              /* highest 1-minute load average seen (at the start and
	                                 after each row); -1 unknown */
	double wait_max;              /* the largest share of a row's median run spent waiting
	                                 for a CPU; -1 unknown (no /proc/self/schedstat) */
	uint64_t wait_buf;            /* BUF_SIZE of that row */
	size_t rows_waiting;          /* rows whose median run waited SWEEP_BUSY_WAIT or more */
	size_t rows_outliers;         /* rows with outlier runs (modified Z-score, hyperfine's) */
};

/* A whole sweep. Points into the scenario's sweep, which must outlive it. */
struct sweep_result {
	const struct scn_sweep *sw;
	struct sweep_variant *variants;
	size_t n_variants;
	double budget;                /* seconds per row used */
	unsigned repeat, warmup;
	char machine[32];             /* uname -m */
	char kernel[96];              /* uname -s -r */
	char cpu[96];                 /* /proc/cpuinfo model name */
	char cold_probe[16];          /* what checked the cold cache: "cachestat", "mincore", "" */
	double wall;                  /* seconds the whole sweep took, probes and preparation included */
	struct sweep_busy busy;       /* was the machine busy? */
	char note[256];               /* sweep-wide remarks ("cold cache not possible on tmpfs") */
};

/*
 * Run the sweep sw: for each variant and buffer size, a short probe, then warm-up and
 * counted runs, each in a forked child on a new file in a private scratch dir (removed
 * before returning). Fills *out (free with sweep_result_clear). Return 0; -1 with *err
 * (a heap string, the caller frees it) if the sweep could not run at all (out is then
 * empty); -2 if the progress callback stopped it (out then holds the rows finished so far,
 * still to be freed). A row that fails (EINVAL under O_DIRECT) only
 * has its err and note set.
 */
int sweep_run(const struct scn_sweep *sw, const struct sweep_opts *o, struct sweep_result *out,
    char **err);

/* Free what a result owns. Safe on a zeroed or already cleared result. */
void sweep_result_clear(struct sweep_result *r);

/* sweep/row.c */

/* A row's statistics from its runs: elapsed, the medians of CPU, calls, commits and the wait
 * for a CPU (-1 if any run could not tell), and how cold its runs' input was. */
void sweep_row_summarize(struct sweep_row *row);

/* Every row's relative figure: its extrapolated median against the fastest row's. */
void sweep_row_relate(struct sweep_result *r);

/* r->busy from the rows (their waits for a CPU, their outliers) and the load seen. */
void sweep_row_busy(struct sweep_result *r);

/*
 * Scaling: bytes one run may move so that it lasts about per_run seconds at rate
 * bytes/s: file_size if it fits, else the largest whole number of buf_size buffers that
 * fits (at least one). Infinite or non-positive rate: file_size. Pure.
 */
uint64_t sweep_scale_bytes(uint64_t file_size, uint64_t buf_size, double rate, double per_run);

/*
 * A measured time of row extrapolated to the sweep's file_size: fixed + (t - fixed) * scale,
 * so the per-run fixed cost is counted once, as in one run over the whole file. Seconds.
 */
double sweep_row_scale_time(const struct sweep_row *row, double t);

/* The row's median, extrapolated (sweep_row_scale_time of the median). */
double sweep_row_extrapolated(const struct sweep_row *row);

/*
 * The row's read+write system calls for the whole file: fixed_calls + (measured -
 * fixed_calls) * scale, so a call every run makes once (the read that sees EOF) is counted
 * once, as strace -c of one run over the whole file counts it.
 */
double sweep_row_calls(const struct sweep_row *row);

/* Seconds of one tick of the kernel's user/system split (1 / sysconf(_SC_CLK_TCK)). */
double sweep_tick(void);

/*
 * The row's user (sys false) or system CPU seconds for the whole file, extrapolated as
 * times are; -1 when the measured median is under one tick: the kernel splits CPU time
 * between user and system by sampling at ticks, so such a figure (0, or a tick times the
 * scale) says nothing.
 */
double sweep_row_cpu(const struct sweep_row *row, bool sys);

/*
 * Sweep variant v's (an index into the sweep's variants) row of buf_size as this run timed it:
 * its extrapolated median into text ("460 ms"; "460 ms on ext4, 2.1 ms on tmpfs" when it ran
 * under several dirs). 0, or -1 with why in text when the row did not run.
 */
int sweep_row_quote(const struct sweep_result *r, size_t v, uint64_t buf_size, char *text,
    size_t len);

/* Counted runs a row needs before sweep_compare tells it from another. */
#define SWEEP_COMPARE_RUNS 3

/*
 * How sweep variant v[0]'s row of buf[0] timed against v[1]'s of buf[1]: 1 (slower) if the
 * middle half of the first's counted runs (first to third quartile) took longer than the middle
 * half of the second's, both extrapolated to file_size; -1 (faster) the other way round; 0
 * (alike) if they overlap. Over several
 * dirs, rows are compared in the same place (a tmpfs variant's one copy beside each). -2 when
 * it cannot tell: a row did not run, or has fewer than SWEEP_COMPARE_RUNS counted runs, or the
 * places disagree. Both rows' middle halves ("O_SYNC@1
 * (2.1 ms ... 2.4 ms) slower than plain@1 (...)"), or why, in text.
 */
int sweep_compare(const struct sweep_result *r, const size_t v[2], const uint64_t buf[2],
    char *text, size_t len);

/* The reference row for buf_size, or NULL. */
const struct scn_ref_row *sweep_ref_row(const struct scn_reference *ref, uint64_t buf_size);

/* Index of the variant a reference compares with (its named variant, else 0). */
size_t sweep_ref_variant(const struct sweep_result *r, const struct scn_reference *ref);

/* True if reference ref compares with result variant v (the same sweep variant, any dir). */
bool sweep_ref_matches(const struct sweep_result *r, const struct scn_reference *ref, size_t v);

#endif
