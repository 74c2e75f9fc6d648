/* SPDX-License-Identifier: MIT */
/* export/csv-json.c: a sweep's results for programs (CSV; JSON is table/json.c's), and --export. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/sweep.h"
#include "table/print.h"
#include "base/json.h"
#include "scenario/names.h"
#include "base/text.h"

/*
 * A CSV field: made safe as one line (no control, no newline), quoted, quotes doubled. Every
 * such field is text (a scenario's string, a filesystem, a device, a directory, an error), never
 * a number iobufviz measured (those are bare, and never negative): one that starts with "=",
 * "+", "-", "@", a tab or a carriage return, which a spreadsheet would read as a formula, gets
 * a "'" first, inside the quotes, as OWASP's "CSV Injection" page recommends.
 */
static void
sweep_export_cstr(FILE *f, const char *str)
{
	char *safe = text_safe_dup(str != NULL ? str : "", TEXT_LINE);
	const char *s = safe;

	fputc('"', f);
	if (s != NULL && *s != '\0' && strchr("=+-@\t\r", *s) != NULL)
		fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
	free(safe);
}

/* A CSV number, empty when not known. */
static void
sweep_export_cnum(FILE *f, double v)
{
	if (isfinite(v) && v >= 0)
		fprintf(f, "%.9g", v);
}

/*
 * CSV: a header row, then one row per variant and BUF_SIZE, seconds throughout. No comment
 * line (a spreadsheet would read it as a row): what the sweep was is in its columns.
 */
int
sweep_export_csv(FILE *f, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;

	fputs("sweep,program,file_size,variant,fs,device,dir,buf_size,bytes_measured,scale,fixed_s,median_s,mean_s,stddev_s,min_s,max_s,"
	    "user_s,system_s,syscr,syscw,journal_commits,cpu_wait_s,median_extrapolated_s,user_extrapolated_s,"
	    "system_extrapolated_s,syscalls_extrapolated,relative,relative_stddev,cold,error", f);
	for (size_t i = 0; i < sw->n_references; i++) {
		const char *l = sw->references[i].label ? sw->references[i].label : "book";
		static const char *const col[] = { "elapsed_s", "user_s", "system_s" };
		for (int k = 0; k < 3; k++) {
			char h[128];
			snprintf(h, sizeof h, "%s %s", l, col[k]);
			fputc(',', f);
			sweep_export_cstr(f, h);
		}
	}
	fputc('\n', f);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];
		for (size_t i = 0; i < bv->n_rows; i++) {
			const struct sweep_row *row = &bv->rows[i];
			const struct stats_summary *e = &row->elapsed;
			bool ok = row->n_runs > 0;
			double vals[] = { e->median, e->mean, e->sd, e->min, e->max, row->user,
				row->system, row->syscr, row->syscw, row->commits, row->wait,
				sweep_row_extrapolated(row),
				sweep_row_cpu(row, false), sweep_row_cpu(row, true),
				round(sweep_row_calls(row)), row->relative,
				row->relative_sd };
			sweep_export_cstr(f, sw->title != NULL ? sw->title : "sweep");
			fprintf(f, ",%s,%" PRIu64 ",", scenario_names_of(scn_programs, (int)sw->program),
			    sw->file_size);
			sweep_export_cstr(f, bv->v->name ? bv->v->name : "default");
			fputc(',', f);
			sweep_export_cstr(f, bv->fs);
			fputc(',', f);
			sweep_export_cstr(f, bv->dev);
			fputc(',', f);
			sweep_export_cstr(f, bv->given_dir);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.6g,%.6g", row->buf_size,
			    row->bytes, row->scale, row->fixed);
			for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
				fputc(',', f);
				if (ok)
					sweep_export_cnum(f, vals[k]);
			}
			fprintf(f, ",%s,", sweep_cold_name(row->cold));
			if (row->err)
				sweep_export_cstr(f, row->note);
			for (size_t k = 0; k < sw->n_references; k++) {
				const struct scn_reference *ref = &sw->references[k];
				const struct scn_ref_row *rr = sweep_ref_matches(r, ref, v) ?
				    sweep_ref_row(ref, row->buf_size) : NULL;
				for (int m = 0; m < 3; m++) {
					fputc(',', f);
					if (rr != NULL)
						sweep_export_cnum(f, m == 0 ? rr->elapsed :
						    m == 1 ? rr->user : rr->system);
				}
			}
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* --export: JSON, CSV or the Markdown table, by name. */
int
sweep_export(FILE *f, const struct sweep_result *r, const char *fmt)
{
	if (fmt == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(fmt, "json") == 0) {
		struct json j;
		json_init(&j, f, 0);
		sweep_print_json(&j, NULL, r);
		json_break(&j);
		return json_finish(&j);
	}
	if (strcmp(fmt, "csv") == 0)
		return sweep_export_csv(f, r);
	if (strcmp(fmt, "md") == 0)
		return sweep_md_print(f, r);
	if (strcmp(fmt, "svg") == 0)
		return sweep_plot_svg(f, r);
	errno = EINVAL;
	return -1;
}
