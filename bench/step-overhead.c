/* SPDX-License-Identifier: MIT */
/* step-overhead.c: what observing a step costs, beyond the call itself (make bench). */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/runner.h"
#include "scratch/scratch.h"
#include "sweep/stats.h"

#define STEPS 200

/* Nanoseconds of CLOCK_MONOTONIC. */
static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The same call with nothing watching: write(fd, 4096) in this process. */
static double
bare_write_ns(void)
{
	static char buf[4096];
	double t[STEPS];
	int idx = scratch_mkdir(NULL), fd;

	if (idx < 0 || (fd = scratch_create(idx, "bare", O_WRONLY)) < 0) {
		perror("scratch");
		exit(1);
	}
	memset(buf, 'x', sizeof buf);
	for (size_t i = 0; i < STEPS; i++) {
		double t0 = now_ns();
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
			perror("write");
			exit(1);
		}
		t[i] = now_ns() - t0;
	}
	close(fd);
	scratch_remove(idx);
	return stats_median(t, STEPS);
}

/* Run STEPS write(4096) steps through the runner; print the medians. */
static int
through_runner(enum runner_trace trace, const char *label, double bare)
{
	struct scn_step steps[STEPS + 1];
	struct scenario sc = { .title = "overhead", .steps = steps, .n_steps = STEPS + 1 };
	struct runner_opts o = { .trace = trace };
	double wall[STEPS], op[STEPS];
	struct step_result res;
	char *err = NULL;
	struct runner *r;

	memset(steps, 0, sizeof steps);
	steps[0].op = SCN_OP_OPEN;
	steps[0].args.has = SCN_HAS_FLAGS;
	steps[0].args.flags = O_WRONLY;
	for (size_t i = 1; i <= STEPS; i++) {
		steps[i].op = SCN_OP_WRITE;
		steps[i].args.has = SCN_HAS_BYTES;
		steps[i].args.bytes = 4096;
	}
	r = runner_new(&sc, &o, &err);
	if (r == NULL) {
		fprintf(stderr, "%s: %s\n", label, err != NULL ? err : "out of memory");
		free(err);
		return 1;
	}
	if (runner_step(r, &res) != 1) {
		fprintf(stderr, "%s: open failed\n", label);
		return 1;
	}
	step_result_clear(&res);
	for (size_t i = 0; i < STEPS; i++) {
		double t0 = now_ns();
		if (runner_step(r, &res) != 1 || res.ret != 4096) {
			fprintf(stderr, "%s: step %zu failed\n", label, i);
			return 1;
		}
		wall[i] = now_ns() - t0;
		op[i] = (double)res.op_ns;
		step_result_clear(&res);
	}
	runner_free(r);
	double w = stats_median(wall, STEPS), c = stats_median(op, STEPS);
	printf("%-8s  step %8.1f µs   call in the worker %6.1f µs   observing %8.1f µs\n", label,
	       w / 1e3, c / 1e3, (w - bare) / 1e3);
	return 0;
}

/* Time the bare call, then the same call through the runner with each tracer. */
int
main(void)
{
	double bare = bare_write_ns();

	printf("Per-step cost of iobufviz's instrumentation: %d steps of write(fd, 4096) on "
	       "ext4 or $TMPDIR, medians\n", STEPS);
	printf("bare      write(4096) in one process, nothing watching: %.1f µs\n", bare / 1e3);
	if (through_runner(RUNNER_TRACE_PTRACE, "ptrace", bare) != 0 ||
	    through_runner(RUNNER_TRACE_PROCIO, "procio", bare) != 0)
		return 1;
	printf("(step = runner_step() wall time: the call, its tracing, the worker's reply and "
	       "the cache, disk and /proc probes)\n");
	return 0;
}
