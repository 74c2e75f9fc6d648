/* SPDX-License-Identifier: MIT */
/* programs.h: the programs a sweep times, each run once in a forked child that measures it. */
#ifndef IOBUFVIZ_BENCH_PROG_H
#define IOBUFVIZ_BENCH_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "scenario/scenario.h"

/* One timed run, as the child measured it around the work only. */
struct sweep_sample {
	double elapsed;               /* CLOCK_MONOTONIC, seconds */
	double user, system;          /* getrusage(RUSAGE_SELF) deltas, seconds */
	uint64_t syscr, syscw;        /* /proc/self/io deltas: read and write system calls */
	uint64_t bytes;               /* bytes the program moved */
	int64_t commits;              /* ext4/ext3 journal (jbd2) commits of the file's filesystem
	                                 during the work; -1 if not counted or not a jbd2 journal */
	double wait;                  /* seconds the work was runnable but not running (another
	                                 process had the CPU): /proc/self/schedstat; -1 unknown */
	int cold;                     /* enum sweep_cold of this run's input (set by sweep/sweep.c) */
};

/*
 * Called about once a second while a run's child works, with the seconds since it was forked.
 * Return non-zero to stop the run: the child is killed, sweep_prog_run returns ECANCELED.
 */
typedef int (*sweep_prog_tick_fn)(double seconds, void *user);

/* One run to do: a program, its variant, and the files in a scratch dir. */
struct sweep_prog_job {
	enum scn_program prog;
	const struct scn_variant *v;  /* extra open flags, the sync after each write */
	int dir;                      /* scratch dir index of the files */
	uint64_t buf_size;
	uint64_t limit;               /* bytes to move; read programs: UINT64_MAX = to EOF */
	const char *in_name;          /* the input in dir (copy, read, fread) */
	char out_name[64];            /* a new output file in dir (copy, write, fwrite); "" if none */
	sweep_prog_tick_fn tick;      /* may be NULL */
	void *user;
};

/* True if program p reads an input file (and so has a cache state to prepare). */
bool sweep_prog_reads(enum scn_program p);

/* True if program p writes a new output file each run. */
bool sweep_prog_writes(enum scn_program p);

/* True if program p's runs count the journal commits of their filesystem. */
bool sweep_prog_commits(enum scn_program p);

/*
 * Run job j in a forked child and wait (calling j->tick about once a second); remove its
 * output after. The child times the work alone and fills *s (all but cold). Return 0, or an
 * errno with what (len bytes) naming the call that failed (ECANCELED: j->tick stopped it).
 */
int sweep_prog_run(const struct sweep_prog_job *j, struct sweep_sample *s, char *what, size_t len);

/* Seconds from a to b. */
double sweep_prog_seconds(const struct timespec *a, const struct timespec *b);

#endif
