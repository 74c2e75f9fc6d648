/* SPDX-License-Identifier: MIT */
/* tests/crash-report.c: what the crash lab reports after every step of a scenario, one line a
 * step, for tests/crash-oracle.sh to hold against its own recovery. Not installed.
 * Usage: crash-report FS SCENARIO.yaml    (FS: ext4, xfs, btrfs, or none: no lab)
 * Prints "STEP OP process=P power=Q device_writes=N" where P and Q are SIZE:HEAD (the first 16
 * bytes, '.' for what is not printable), "none" (no file), or "unobserved", and N the write
 * requests the lab's device had completed when the power was cut; then the reasons, costs
 * and the kernel's lines, indented. Exit 0, 2 bad usage, 3 the run could not start. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash.h"
#include "engine/runner.h"

/* One half as "SIZE:HEAD", "none" or "unobserved". */
static void
crash_report_half(const char *label, const struct crash_half *h)
{
	printf(" %s=", label);
	if (!h->observed) {
		printf("unobserved");
		return;
	}
	if (!h->file.exists) {
		printf("none");
		return;
	}
	printf("%llu:", (unsigned long long)h->file.size);
	for (size_t i = 0; i < h->file.head_len && i < 16; i++)
		putchar(h->file.head[i] > 0x20 && h->file.head[i] < 0x7f ? h->file.head[i] : '.');
}

/* What a half adds in words: why it was not observed, its cost, the kernel's lines. */
static void
crash_report_notes(const char *label, const struct crash_half *h)
{
	if (!h->observed) {
		printf("  %s: %s\n", label, h->why);
		return;
	}
	printf("  %s: %.1f ms", label, h->ms);
	if (h->tries > 0)
		printf(", %u cop%s; before it %llu writes (%llu bytes) and %llu flushes had reached "
		       "the device", h->tries, h->tries == 1 ? "y" : "ies",
		       (unsigned long long)h->device_writes, (unsigned long long)h->device_write_bytes,
		       (unsigned long long)h->device_flushes);
	printf("\n");
	for (size_t i = 0; i < h->n_recovery; i++)
		printf("  %s: kernel: %s\n", label, h->recovery[i]);
}

int
main(int argc, char **argv)
{
	struct runner_opts o = { .trace = RUNNER_TRACE_AUTO };
	struct scenario *s = NULL;
	struct step_result res;
	struct crash_view v;
	struct runner *r;
	char *err = NULL;

	if (argc != 3 || (strcmp(argv[1], "none") != 0 && crash_fs_parse(argv[1], &o.crash_fs) != 0)) {
		fprintf(stderr, "usage: crash-report ext4|xfs|btrfs|none SCENARIO.yaml\n");
		return 2;
	}
	if (scenario_load(argv[2], &s, &err) != 0) {
		fprintf(stderr, "%s\n", err != NULL ? err : "cannot load");
		free(err);
		return 2;
	}
	r = runner_new(s, &o, &err);
	if (r == NULL) {
		fprintf(stderr, "crash-report: %s\n", err != NULL ? err : "out of memory");
		free(err);
		scenario_free(s);
		return 3;
	}
	if (runner_place_note(r)[0] != '\0')
		printf("# %s\n", runner_place_note(r));
	while (runner_step(r, &res) == 1) {
		runner_crash(r, NULL, &v);
		printf("%zu %s", res.index + 1, scenario_op_name(res.step->op));
		crash_report_half("process", &v.process);
		crash_report_half("power", &v.power);
		printf(" device_writes=%llu\n", (unsigned long long)v.power.device_writes);
		crash_report_notes("process", &v.process);
		crash_report_notes("power", &v.power);
		step_result_clear(&res);
	}
	runner_free(r);
	scenario_free(s);
	return fflush(stdout) == 0 ? 0 : 1;
}
