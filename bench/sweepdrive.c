/* SPDX-License-Identifier: MIT */
/* sweepdrive.c: run one sweep from the command line through sweep_run (no YAML needed). */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/sweep.h"
#include "table/print.h"
#include "scenario/scenario.h"
#include "base/units.h"

/* Print progress on stderr, one updating line. */
static int
sweepdrive_progress(const struct sweep_progress *p, void *user)
{
	char line[256];

	(void)user;
	fprintf(stderr, "\r%-78.78s", sweep_print_progress(p, line, sizeof line));
	return 0;
}

/* Run every sweep step of a scenario file and print each result with its narration. */
static int
sweepdrive_yaml(const char *path, const struct sweep_opts *o, const char *fmt)
{
	struct scenario *s = NULL;
	char *err = NULL;
	int rc = 0;

	if (load_scenario(path, &s, &err) != 0) {
		fprintf(stderr, "%s", err ? err : "sweepdrive: cannot load the scenario\n");
		free(err);
		return 2;
	}
	if (strcmp(fmt, "text") == 0)
		printf("%s\n%s\n\n%s\n", s->title, s->source ? s->source : "",
		    s->intro ? s->intro : "");
	for (size_t i = 0; i < s->n_steps && rc == 0; i++) {
		struct sweep_result r;
		if (s->steps[i].op != SCN_OP_SWEEP || s->steps[i].sweep == NULL)
			continue;
		if (sweep_run(s->steps[i].sweep, o, &r, &err) == -1) {
			fprintf(stderr, "sweepdrive: %s\n", err ? err : "failed");
			free(err);
			rc = 3;
			break;
		}
		if (o->progress)
			fputc('\n', stderr);
		if (strcmp(fmt, "text") == 0) {
			sweep_print_text(stdout, &r, 0);
			if (s->steps[i].say)
				printf("\n%s\n", s->steps[i].say);
		} else if (sweep_export(stdout, &r, fmt) != 0)
			rc = 2;
		sweep_result_clear(&r);
	}
	load_scenario_free(s);
	return rc;
}

/* Usage. */
static void
sweepdrive_usage(void)
{
	fprintf(stderr, "usage: sweepdrive [-p copy|write|read|fwrite|fread|fread+setvbuf] "
	    "[-s FILE_SIZE] [-b BUF,BUF,...] [-r REPEAT] [-w WARMUP] [-B BUDGET] [-c cold|warm]\n"
	    "                  [-o O_SYNC|O_DSYNC|O_DIRECT] [-y fsync|fdatasync] [-t] "
	    "[-f text|json|csv|md|median] [-d DIR]\n"
	    "       sweepdrive -S SCENARIO.yaml [-B BUDGET] [-f text|json|csv|md] [-d DIR]\n");
}

/* Run the sweep the options describe. */
int
main(int argc, char **argv)
{
	static const char *const progs[] = { "copy", "write", "read", "fwrite", "fread",
		"fread+setvbuf" };
	uint64_t bufs[64];
	struct scn_variant var = { .name = "default" };
	struct scn_sweep sw = { .title = "sweepdrive", .program = SCN_PROG_WRITE,
		.file_size = 1 << 20, .repeat = 5, .warmup = 1, .variants = &var, .n_variants = 1,
		.buffer_sizes = bufs };
	struct sweep_opts o = { .progress = sweepdrive_progress };
	struct sweep_result r;
	const char *fmt = "text", *yaml = NULL;
	char *err = NULL;
	int ch, rc;

	bufs[0] = 4096;
	sw.n_buffer_sizes = 1;
	while ((ch = getopt(argc, argv, "p:s:b:r:w:B:c:o:y:tf:d:qS:")) != -1) {
		switch (ch) {
		case 'p':
			for (size_t i = 0; i < 6; i++)
				if (strcmp(optarg, progs[i]) == 0)
					sw.program = (enum scn_program)i;
			break;
		case 's':
			if (units_parse_size(optarg, &sw.file_size) != 0)
				return 2;
			break;
		case 'b':
			sw.n_buffer_sizes = 0;
			for (char *t = strtok(optarg, ","); t && sw.n_buffer_sizes < 64; t = strtok(NULL, ","))
				if (units_parse_size(t, &bufs[sw.n_buffer_sizes++]) != 0)
					return 2;
			break;
		case 'r': sw.repeat = (unsigned)atoi(optarg); break;
		case 'w': sw.warmup = (unsigned)atoi(optarg); break;
		case 'B': sw.budget = o.budget = atof(optarg); break;
		case 'S': yaml = optarg; break;
		case 'c': sw.cache = strcmp(optarg, "warm") == 0 ? SCN_CACHE_WARM : SCN_CACHE_COLD; break;
		case 'o':
			var.flags |= strcmp(optarg, "O_SYNC") == 0 ? O_SYNC :
			    strcmp(optarg, "O_DSYNC") == 0 ? O_DSYNC : O_DIRECT;
			break;
		case 'y':
			var.sync_each = strcmp(optarg, "fsync") == 0 ? SCN_SYNC_FSYNC : SCN_SYNC_FDATASYNC;
			break;
		case 't': var.on = SCN_FS_TMPFS; break;
		case 'f': fmt = optarg; break;
		case 'd': o.dir = optarg; break;
		case 'q': o.progress = NULL; break;
		default: sweepdrive_usage(); return 2;
		}
	}
	if (yaml != NULL)
		return sweepdrive_yaml(yaml, &o, fmt);
	rc = sweep_run(&sw, &o, &r, &err);
	if (o.progress)
		fputc('\n', stderr);
	if (rc == -1) {
		fprintf(stderr, "sweepdrive: %s\n", err ? err : "failed");
		free(err);
		return 1;
	}
	if (strcmp(fmt, "median") == 0) {
		/* One line per row: BUF, measured median and min in seconds (bench/fidelity.sh). */
		for (size_t i = 0; i < r.variants[0].n_rows; i++)
			printf("%llu %.9f %.9f\n", (unsigned long long)r.variants[0].rows[i].buf_size,
			    r.variants[0].rows[i].elapsed.median, r.variants[0].rows[i].elapsed.min);
	} else if (strcmp(fmt, "text") == 0)
		sweep_print_text(stdout, &r, 0);
	else if (sweep_export(stdout, &r, fmt) != 0)
		fprintf(stderr, "sweepdrive: unknown format %s\n", fmt);
	sweep_result_clear(&r);
	return 0;
}
