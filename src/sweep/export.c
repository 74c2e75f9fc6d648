/* SPDX-License-Identifier: MIT */
/* export.c: a sweep's results for programs (JSON with every run, CSV), and --export. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/print.h"
#include "trace/decode.h"
#include "base/json.h"
#include "scenario/names.h"
#include "base/text.h"

/* Name of a cold-cache state. */
static const char *
sweep_export_cold(enum sweep_cold c)
{
	static const char *const names[] = { "n/a", "verified", "FAILED", "impossible (tmpfs)",
		"warm" };

	return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

/* A JSON number, or null for "not given" (negative) and non-finite values. */
static void
sweep_export_jnum(FILE *f, double v)
{
	if (!isfinite(v) || v < 0)
		fputs("null", f);
	else
		fprintf(f, "%.9g", v);
}

/* JSON: everything, with every run's raw figures. */
int
sweep_export_json(FILE *f, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;

	fputs("{\"title\":", f);
	json_string(f, sw->title);
	fprintf(f, ",\"program\":\"%s\",\"file_size\":%" PRIu64 ",\"cache\":\"%s\",\"budget_s\":",
	    scenario_names_of(scn_programs, (int)sw->program), sw->file_size,
	    scenario_names_of(scn_caches, (int)sw->cache));
	sweep_export_jnum(f, r->budget);
	fprintf(f, ",\"repeat\":%u,\"warmup\":%u,\"machine\":{\"arch\":", r->repeat, r->warmup);
	json_string(f, r->machine);
	fputs(",\"cpu\":", f);
	json_string(f, r->cpu);
	fputs(",\"kernel\":", f);
	json_string(f, r->kernel);
	fputs("},\"wall_s\":", f);
	sweep_export_jnum(f, r->wall);
	fputs(",\"note\":", f);
	json_string(f, r->note);
	fputs(",\"cold_probe\":", f);
	json_string(f, r->cold_probe[0] ? r->cold_probe : NULL);
	fputs(",\"variants\":[", f);
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];
		char fl[48];
		fprintf(f, "%s{\"name\":", v ? "," : "");
		json_string(f, bv->v->name ? bv->v->name : "default");
		fputs(",\"flags\":", f);
		json_string(f, decode_open_flag_bits(bv->v->flags, fl, sizeof fl));
		fprintf(f, ",\"sync_each\":\"%s\",\"on\":\"%s\",\"fs\":",
		    scenario_names_of(scn_sync_eachs, (int)bv->v->sync_each),
		    scenario_names_of(scn_fss, (int)bv->v->on));
		json_string(f, bv->fs);
		fputs(",\"device\":", f);
		json_string(f, bv->dev[0] ? bv->dev : NULL);
		fputs(",\"dir\":", f);
		json_string(f, bv->given_dir[0] ? bv->given_dir : NULL);
		fputs(",\"rows\":[", f);
		for (size_t i = 0; i < bv->n_rows; i++) {
			const struct sweep_row *row = &bv->rows[i];
			const struct stats_summary *e = &row->elapsed;
			fprintf(f, "%s{\"buf_size\":%" PRIu64 ",\"bytes_measured\":%" PRIu64
			    ",\"scale\":", i ? "," : "", row->buf_size, row->bytes);
			sweep_export_jnum(f, row->scale);
			fputs(",\"fixed_s\":", f);
			sweep_export_jnum(f, row->fixed);
			if (row->n_runs > 0) {
				fputs(",\"measured\":{\"median_s\":", f);
				sweep_export_jnum(f, e->median);
				fputs(",\"mean_s\":", f);
				sweep_export_jnum(f, e->mean);
				fputs(",\"stddev_s\":", f);
				sweep_export_jnum(f, e->sd);
				fputs(",\"min_s\":", f);
				sweep_export_jnum(f, e->min);
				fputs(",\"max_s\":", f);
				sweep_export_jnum(f, e->max);
				fputs(",\"user_s\":", f);
				sweep_export_jnum(f, row->user);
				fputs(",\"system_s\":", f);
				sweep_export_jnum(f, row->system);
				fputs(",\"syscr\":", f);
				sweep_export_jnum(f, row->syscr);
				fputs(",\"syscw\":", f);
				sweep_export_jnum(f, row->syscw);
				fputs(",\"journal_commits\":", f);
				sweep_export_jnum(f, row->commits);
				fputs("},\"extrapolated\":{\"median_s\":", f);
				sweep_export_jnum(f, sweep_row_extrapolated(row));
				fputs(",\"user_s\":", f);
				sweep_export_jnum(f, sweep_row_cpu(row, false));
				fputs(",\"system_s\":", f);
				sweep_export_jnum(f, sweep_row_cpu(row, true));
				fputs(",\"syscalls\":", f);
				sweep_export_jnum(f, round(sweep_row_calls(row)));
				fprintf(f, ",\"fixed_syscalls\":%.0f,\"cpu_below_tick\":{\"user\":%s,"
				    "\"system\":%s}", row->fixed_calls,
				    sweep_row_cpu(row, false) < 0 ? "true" : "false",
				    sweep_row_cpu(row, true) < 0 ? "true" : "false");
				fputs("},\"relative\":", f);
				sweep_export_jnum(f, row->relative);
				fputs(",\"relative_stddev\":", f);
				sweep_export_jnum(f, row->relative_sd);
				fprintf(f, ",\"outliers\":%zu,\"first_run_slower\":%s", e->n_outliers,
				    e->first_slow ? "true" : "false");
			}
			fprintf(f, ",\"cold\":\"%s\",\"error\":", sweep_export_cold(row->cold));
			json_string(f, row->err ? strerror(row->err) : NULL);
			fputs(",\"note\":", f);
			json_string(f, row->note);
			fputs(",\"runs\":[", f);
			for (size_t k = 0; k < row->n_runs; k++) {
				const struct sweep_sample *s = &row->runs[k];
				fprintf(f, "%s{\"elapsed_s\":%.9g,\"user_s\":%.6g,\"system_s\":%.6g,"
				    "\"syscr\":%" PRIu64 ",\"syscw\":%" PRIu64 ",\"bytes\":%" PRIu64
				    ",\"cold\":\"%s\",\"journal_commits\":", k ? "," : "", s->elapsed,
				    s->user, s->system, s->syscr, s->syscw, s->bytes,
				    sweep_export_cold(s->cold));
				sweep_export_jnum(f, (double)s->commits);
				fputc('}', f);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
	}
	fputs("],\"references\":[", f);
	for (size_t i = 0; i < sw->n_references; i++) {
		const struct scn_reference *ref = &sw->references[i];
		fprintf(f, "%s{\"label\":", i ? "," : "");
		json_string(f, ref->label);
		fputs(",\"source\":", f);
		json_string(f, ref->source);
		fputs(",\"variant\":", f);
		json_string(f, r->n_variants ? r->variants[sweep_ref_variant(r, ref)].v->name : NULL);
		fprintf(f, ",\"total_bytes\":%" PRIu64 ",\"rows\":[", ref->total_bytes);
		for (size_t k = 0; k < ref->n_rows; k++) {
			fprintf(f, "%s{\"buf_size\":%" PRIu64 ",\"elapsed_s\":", k ? "," : "",
			    ref->rows[k].buf_size);
			sweep_export_jnum(f, ref->rows[k].elapsed);
			fputs(",\"user_s\":", f);
			sweep_export_jnum(f, ref->rows[k].user);
			fputs(",\"system_s\":", f);
			sweep_export_jnum(f, ref->rows[k].system);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	return ferror(f) ? -1 : 0;
}

/* A CSV field: made safe as one line (no control, no newline), quoted, quotes doubled. */
static void
sweep_export_cstr(FILE *f, const char *str)
{
	char *safe = text_safe_dup(str != NULL ? str : "", TEXT_LINE);
	const char *s = safe;

	fputc('"', f);
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
	    "user_s,system_s,syscr,syscw,journal_commits,median_extrapolated_s,user_extrapolated_s,"
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
				row->system, row->syscr, row->syscw, row->commits, sweep_row_extrapolated(row),
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
			fprintf(f, ",%s,", sweep_export_cold(row->cold));
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
	if (strcmp(fmt, "json") == 0)
		return sweep_export_json(f, r);
	if (strcmp(fmt, "csv") == 0)
		return sweep_export_csv(f, r);
	if (strcmp(fmt, "md") == 0)
		return sweep_print_md(f, r);
	errno = EINVAL;
	return -1;
}
