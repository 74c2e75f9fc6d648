/* SPDX-License-Identifier: MIT */
/* foreign-cost.c: cost of prog-trace per traced call against strace -f, and slowdown of untraced calls. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prog/trace.h"
#include "scratch/scratch.h"
#include "sweep/stats.h"

#define RUNS 3
#define COPY_BYTES 50000          /* copy with 1-byte calls: 100,000 traced calls */
#define GETPIDS "10000000"        /* untraced calls of the second program */

/* Seconds of CLOCK_MONOTONIC. */

/* The next step of t into *s, freeing the calls of the one s held (zeroed at first). */
static int
fc_next(struct prog_trace *t, struct prog_step *s)
{
	event_list_clear(&s->calls);
	return prog_trace_next(t, s);
}

static double
foreign_cost_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds argv takes to run, untraced (strace 0) or under strace -f (1). -1 on failure. */
static double
foreign_cost_exec(char *const argv[], int strace)
{
	char *args[16] = { "strace", "-f", "-qq", "-o", "/dev/null" };
	double t0 = foreign_cost_now();
	pid_t pid;
	int st, k = 5;

	for (int i = 0; argv[i] != NULL && k < 15; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		if (strace)
			execv("/usr/bin/strace", args);
		else
			execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return foreign_cost_now() - t0;
}

/* Seconds argv takes under prog_trace, every step taken; *calls gets the traced calls. */
static double
foreign_cost_traced(char *const argv[], double *calls)
{
	struct prog_opts o = { .stdout_path = "/dev/null", .stderr_path = "/dev/null" };
	double t0 = foreign_cost_now();
	struct prog_trace *t;
	struct prog_stats st;
	struct prog_step s = { 0 };
	char *err = NULL;
	int rc;

	if (prog_trace_start(argv, &o, &t, &err) != 0) {
		fprintf(stderr, "foreign-cost: %s\n", err ? err : "cannot start");
		free(err);
		return -1;
	}
	while ((rc = fc_next(t, &s)) == 1)
		;
	prog_trace_stats(t, &st);
	prog_trace_free(t);
	*calls = (double)(st.steps + st.other_calls);
	return rc == 0 ? foreign_cost_now() - t0 : -1;
}

/* The fastest of RUNS runs of each way; 0, or -1 if one failed. */
static int
foreign_cost_measure(char *const argv[], bool with_strace, double *plain, double *ours,
                     double *strace, double *calls)
{
	double p[RUNS], o[RUNS], s[RUNS];

	for (int i = 0; i < RUNS; i++) {
		p[i] = foreign_cost_exec(argv, 0);
		o[i] = foreign_cost_traced(argv, calls);
		s[i] = with_strace ? foreign_cost_exec(argv, 1) : 0;
		if (p[i] < 0 || o[i] < 0 || s[i] < 0)
			return -1;
	}
	*plain = stats_min(p, RUNS);
	*ours = stats_min(o, RUNS);
	*strace = stats_min(s, RUNS);
	return 0;
}

/*
 * Run both programs three ways and print the costs. strace -f is not run on the getpid
 * program: it stops on every one of the 10 million calls (minutes per run).
 */
int
main(void)
{
	char copy[512], getpids[512], in[512], out[512];
	double plain, ours, strace, calls;
	int idx = scratch_mkdir(NULL), fd;

	setvbuf(stdout, NULL, _IOLBF, 0);

	snprintf(copy, sizeof copy, "%s/tests/foreign/copy", IOBUFVIZ_BUILDDIR);
	snprintf(getpids, sizeof getpids, "%s/tests/foreign/getpids", IOBUFVIZ_BUILDDIR);
	if (idx < 0 || access(copy, X_OK) != 0 || access(getpids, X_OK) != 0 ||
	    access("/usr/bin/strace", X_OK) != 0) {
		fprintf(stderr, "foreign-cost: needs a scratch dir, tests/foreign/{copy,getpids} and strace\n");
		return 77;
	}
	fd = scratch_create(idx, "in", O_WRONLY);
	if (fd < 0 || ftruncate(fd, COPY_BYTES) != 0 || close(fd) != 0 ||
	    scratch_path(idx, "in", in, sizeof in) == NULL ||
	    scratch_path(idx, "out", out, sizeof out) == NULL)
		return 1;

	char *copy_argv[] = { copy, in, out, "1", NULL };
	if (foreign_cost_measure(copy_argv, true, &plain, &ours, &strace, &calls) != 0) {
		fprintf(stderr, "foreign-cost: a run failed (ptrace refused?)\n");
		return 77;
	}
	printf("copy, 1-byte read/write, %.0f traced calls (fastest of %d):\n", calls, RUNS);
	printf("  untraced %.3f s, prog-trace %.3f s, strace -f %.3f s\n", plain, ours, strace);
	printf("  per traced call: prog-trace %.1f us, strace -f %.1f us\n",
	       (ours - plain) / calls * 1e6, (strace - plain) / calls * 1e6);

	char *getpid_argv[] = { getpids, out, GETPIDS, NULL };
	if (foreign_cost_measure(getpid_argv, false, &plain, &ours, &strace, &calls) != 0)
		return 1;
	printf("getpids, %s untraced getpid() and 10 writes (%.0f traced calls):\n", GETPIDS, calls);
	printf("  untraced %.3f s, prog-trace %.3f s (%+.1f %%): %.0f ns more per untraced call\n",
	       plain, ours, (ours / plain - 1) * 100, (ours - plain) / atof(GETPIDS) * 1e9);
	printf("  target: prog-trace slowdown < 5 %%: %s\n",
	       ours / plain - 1 < 0.05 ? "met" : "NOT met (any seccomp filter costs this)");
	scratch_remove(idx);
	return 0;
}
