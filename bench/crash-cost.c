/* SPDX-License-Identifier: MIT */
/* crash-cost.c: what one crash view (both crashes) costs on a crash lab of each filesystem, and
 * what the other way to cut the power would cost (make bench). Needs root; else exit 77.
 * Usage: bench/crash-cost [VIEWS]   (default 15 views per filesystem) */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "crash/crash.h"
#include "crash/lab.h"
#include "crash/power.h"
#include "engine/runner.h"
#include "scratch/scratch.h"
#include "sweep/stats.h"

#define VIEWS_DEFAULT 15
#define VIEWS_MAX 200
/* A view must cost less than this (issue 22). */
#define BUDGET_MS 1000.0

/* FS_IOC_SHUTDOWN and its flag that loses what the log has not written (xfstests' power cut). */
#define BENCH_FS_IOC_SHUTDOWN _IOR('X', 125, unsigned int)
#define BENCH_SHUTDOWN_NOLOGFLUSH 2u

/* Milliseconds since t0. */
static double
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* A half's outcome in a word: "4096", "none", "?". */
static const char *
outcome(const struct crash_half *h, char *buf, size_t len)
{
	if (!h->observed)
		snprintf(buf, len, "?");
	else if (!h->file.exists)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%llu", (unsigned long long)h->file.size);
	return buf;
}

/* The 13-3 calls up to fwrite 5000 (or on to fflush and fsync), as scenario steps. */
static void
steps_13_3(struct scn_step *st, size_t *n, bool to_fsync)
{
	memset(st, 0, 4 * sizeof *st);
	st[0].op = SCN_OP_FOPEN;
	strcpy(st[0].args.mode, "w");
	st[0].args.has = SCN_HAS_MODE;
	st[1].op = SCN_OP_FWRITE;
	st[1].args.has = SCN_HAS_BYTES;
	st[1].args.bytes = 5000;
	st[2].op = SCN_OP_FFLUSH;
	st[3].op = SCN_OP_FSYNC;
	*n = to_fsync ? 4 : 2;
}

/* Views crash views after 13-3's fwrite on a lab of fs: print their cost. 0, or -1. */
static int
bench_views(enum crash_fs fs, size_t views, double *worst_median)
{
	struct scn_step st[4];
	struct scenario sc = { .title = "crash-cost", .steps = st };
	struct runner_opts o = { .crash_fs = fs };
	double total[VIEWS_MAX], proc[VIEWS_MAX], power[VIEWS_MAX];
	struct step_result res;
	struct crash_view v;
	char a[16], b[16], *err = NULL;
	unsigned tries = 0;
	struct runner *r;

	steps_13_3(st, &sc.n_steps, false);
	r = runner_new(&sc, &o, &err);
	if (r == NULL) {
		fprintf(stderr, "%s: %s\n", crash_fs_table[fs].name, err != NULL ? err : "?");
		free(err);
		return -1;
	}
	while (runner_step(r, &res) == 1)
		step_result_clear(&res);
	for (size_t i = 0; i < views; i++) {
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		runner_crash(r, NULL, &v);
		total[i] = ms_since(&t0);
		proc[i] = v.process.ms;
		power[i] = v.power.ms;
		tries = v.power.tries > tries ? v.power.tries : tries;
	}
	runner_free(r);
	printf("%-6s view %6.1f [%5.1f..%6.1f]   process %5.1f   power %6.1f   "
	       "most copies %u   process %s, power %s\n", crash_fs_table[fs].name,
	       stats_median(total, views), stats_min(total, views), stats_max(total, views),
	       stats_median(proc, views), stats_median(power, views), tries,
	       outcome(&v.process, a, sizeof a), outcome(&v.power, b, sizeof b));
	if (stats_median(total, views) > *worst_median)
		*worst_median = stats_median(total, views);
	return 0;
}

/*
 * The other way: a fresh lab, the calls made again (here directly: fopen "w", fwrite 5000,
 * and for to_fsync fflush and fsync), FS_IOC_SHUTDOWN without log flush, then the image
 * recovered by a mount (crash_power_cut, of the shut-down filesystem). Its cost in ms and
 * outcome, or why not.
 */
static void
bench_replay(enum crash_fs fs, int scratch, bool to_fsync)
{
	static char buf[5000];
	unsigned int flag = BENCH_SHUTDOWN_NOLOGFLUSH;
	struct crash_half h;
	struct crash_lab *lab;
	struct timespec t0;
	char msg[192], o[16];
	FILE *fp;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	lab = crash_lab_new(fs, scratch, 0, msg, sizeof msg);
	if (lab == NULL) {
		printf("  %-6s %s\n", crash_fs_table[fs].name, msg);
		return;
	}
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)('a' + i % 26);
	fd = openat(crash_lab_dirfd(lab), "f", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp == NULL || fwrite(buf, 1, sizeof buf, fp) != sizeof buf ||
	    (to_fsync && (fflush(fp) != 0 || fsync(fd) != 0))) {
		printf("  %-6s the calls failed: %s\n", crash_fs_table[fs].name, strerror(errno));
	} else if (ioctl(fd, BENCH_FS_IOC_SHUTDOWN, &flag) != 0) {
		printf("  %-6s FS_IOC_SHUTDOWN: %s: this way cannot cut its power\n",
		       crash_fs_table[fs].name, strerrorname_np(errno));
	} else {
		crash_power_cut(lab, "f", &h);
		printf("  %-6s after %-6s %6.1f ms   power %s\n", crash_fs_table[fs].name,
		       to_fsync ? "fsync" : "fwrite", ms_since(&t0), outcome(&h, o, sizeof o));
	}
	if (fp != NULL) {
		__fpurge(fp);   /* the buffer of a process that died: never written */
		fclose(fp);
	} else if (fd >= 0) {
		close(fd);
	}
	crash_lab_free(lab);
}

int
main(int argc, char **argv)
{
	size_t views = argc > 1 ? strtoul(argv[1], NULL, 10) : VIEWS_DEFAULT;
	double worst = 0;
	int scratch;

	if (views == 0 || views > VIEWS_MAX)
		views = VIEWS_DEFAULT;
	if (geteuid() != 0) {
		printf("SKIP: crash-cost: needs root to make a crash lab (loop devices, mounts)\n");
		return 77;
	}
	printf("Crash view: both crashes at one step (runner_crash), after 13-3's fwrite(5000),\n"
	       "on a crash lab of each filesystem; median [min..max] of %zu views, ms.\n"
	       "command: bench/crash-cost %zu\n", views, views);
	for (int fs = CRASH_FS_NONE + 1; fs < CRASH_FS__COUNT; fs++)
		if (bench_views((enum crash_fs)fs, views, &worst) != 0)
			return 1;
	printf("(process: a copy of the worker killed, the file read; power: the image copied at a "
	       "quiet moment, mounted on a second loop device, recovered, read)\n");
	printf("Instead, the power cut by replay: a new lab, the calls again, FS_IOC_SHUTDOWN "
	       "(NOLOGFLUSH), the image recovered by a mount; one run each:\n");
	scratch = scratch_mkdir(NULL);
	if (scratch < 0) {
		perror("scratch");
		return 1;
	}
	for (int fs = CRASH_FS_NONE + 1; fs < CRASH_FS__COUNT; fs++) {
		bench_replay((enum crash_fs)fs, scratch, false);
		bench_replay((enum crash_fs)fs, scratch, true);
	}
	scratch_remove(scratch);
	printf("budget: a crash view in under %.0f ms: %s (slowest median %.1f ms)\n", BUDGET_MS,
	       worst < BUDGET_MS ? "ok" : "OVER", worst);
	return worst < BUDGET_MS ? 0 : 1;
}
