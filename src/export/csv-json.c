/* SPDX-License-Identifier: MIT */
/* export/csv-json.c: a sweep's results for programs (JSON with every run, CSV), and --export. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/sweep.h"
#include "table/print.h"
#include "trace/decode.h"
#include "base/json.h"
#include "scenario/names.h"
#include "base/text.h"

/* Name of a cold-cache state. */
static const char *
sweep_export_cold(enum sweep_cold c)
{
	static const char *const names[] = {
		[SWEEP_COLD_NA] = "n/a", [SWEEP_COLD_VERIFIED] = "verified",
		[SWEEP_COLD_FAILED] = "FAILED", [SWEEP_COLD_IMPOSSIBLE] = "impossible (tmpfs)",
		[SWEEP_COLD_WARM] = "warm",
	};

	return (unsigned)c < sizeof names / sizeof names[0] && names[c] ? names[c] : "?";
}

/* A JSON number (9 significant digits), or null for "not given" (negative) and non-finite. */
static void
sweep_export_jnum(struct json *j, const char *key, double v)
{
	if (!isfinite(v) || v < 0)
		json_null(j, key);
	else
		json_real(j, key, v, 9);
}

/* JSON: one row's measured and extrapolated figures (rows that ran). */
static void
sweep_export_json_figures(struct json *j, const struct sweep_row *row)
{
	const struct stats_summary *e = &row->elapsed;

	json_begin_object(j, "measured");
	sweep_export_jnum(j, "median_s", e->median);
	sweep_export_jnum(j, "mean_s", e->mean);
	sweep_export_jnum(j, "stddev_s", e->sd);
	sweep_export_jnum(j, "min_s", e->min);
	sweep_export_jnum(j, "max_s", e->max);
	sweep_export_jnum(j, "user_s", row->user);
	sweep_export_jnum(j, "system_s", row->system);
	sweep_export_jnum(j, "syscr", row->syscr);
	sweep_export_jnum(j, "syscw", row->syscw);
	sweep_export_jnum(j, "journal_commits", row->commits);
	sweep_export_jnum(j, "cpu_wait_s", row->wait);
	json_end_object(j);
	json_begin_object(j, "extrapolated");
	sweep_export_jnum(j, "median_s", sweep_row_extrapolated(row));
	sweep_export_jnum(j, "user_s", sweep_row_cpu(row, false));
	sweep_export_jnum(j, "system_s", sweep_row_cpu(row, true));
	sweep_export_jnum(j, "syscalls", round(sweep_row_calls(row)));
	json_fixed(j, "fixed_syscalls", row->fixed_calls, 0);
	json_begin_object(j, "cpu_below_tick");
	json_bool(j, "user", sweep_row_cpu(row, false) < 0);
	json_bool(j, "system", sweep_row_cpu(row, true) < 0);
	json_end_object(j);
	json_end_object(j);
	sweep_export_jnum(j, "relative", row->relative);
	sweep_export_jnum(j, "relative_stddev", row->relative_sd);
	json_uint(j, "outliers", e->n_outliers);
	json_bool(j, "first_run_slower", e->first_slow);
}

/* JSON: one row: its figures, how cold its input was, and every run. */
static void
sweep_export_json_row(struct json *j, const struct sweep_row *row)
{
	json_begin_object(j, NULL);
	json_uint(j, "buf_size", row->buf_size);
	json_uint(j, "bytes_measured", row->bytes);
	sweep_export_jnum(j, "scale", row->scale);
	sweep_export_jnum(j, "fixed_s", row->fixed);
	if (row->n_runs > 0)
		sweep_export_json_figures(j, row);
	json_string(j, "cold", sweep_export_cold(row->cold));
	json_string(j, "error", row->err ? strerror(row->err) : NULL);
	json_string(j, "note", row->note);
	json_begin_array(j, "runs");
	for (size_t k = 0; k < row->n_runs; k++) {
		const struct sweep_sample *s = &row->runs[k];
		json_begin_object(j, NULL);
		json_real(j, "elapsed_s", s->elapsed, 9);
		json_real(j, "user_s", s->user, 6);
		json_real(j, "system_s", s->system, 6);
		json_uint(j, "syscr", s->syscr);
		json_uint(j, "syscw", s->syscw);
		json_uint(j, "bytes", s->bytes);
		json_string(j, "cold", sweep_export_cold(s->cold));
		sweep_export_jnum(j, "journal_commits", (double)s->commits);
		sweep_export_jnum(j, "cpu_wait_s", s->wait);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* JSON: was the machine busy, what says so, and the warning the table prints (or null). */
static void
sweep_export_busy(struct json *j, const struct sweep_result *r)
{
	const struct sweep_busy *b = &r->busy;
	char warning[512];

	json_begin_object(j, "busy");
	json_bool(j, "busy", b->busy);
	json_uint(j, "cpus", b->cpus > 0 ? (uint64_t)b->cpus : 0);
	sweep_export_jnum(j, "load_max", b->load_max);
	sweep_export_jnum(j, "cpu_wait_max", b->wait_max);
	if (b->wait_max >= 0)
		json_uint(j, "cpu_wait_buf_size", b->wait_buf);
	else
		json_null(j, "cpu_wait_buf_size");
	json_uint(j, "rows_waiting", b->rows_waiting);
	json_uint(j, "rows_with_outliers", b->rows_outliers);
	json_string(j, "warning", b->busy ? sweep_print_busy(r, warning, sizeof warning) : NULL);
	json_end_object(j);
}

/* JSON: everything, with every run's raw figures, as the member key (NULL: a value). */
void
sweep_export_json(struct json *j, const char *key, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;

	json_begin_object(j, key);
	json_string(j, "title", sw->title);
	json_string(j, "program", scenario_names_of(scn_programs, (int)sw->program));
	json_uint(j, "file_size", sw->file_size);
	json_string(j, "cache", scenario_names_of(scn_caches, (int)sw->cache));
	sweep_export_jnum(j, "budget_s", r->budget);
	json_uint(j, "repeat", r->repeat);
	json_uint(j, "warmup", r->warmup);
	json_begin_object(j, "machine");
	json_string(j, "arch", r->machine);
	json_string(j, "cpu", r->cpu);
	json_string(j, "kernel", r->kernel);
	json_end_object(j);
	sweep_export_jnum(j, "wall_s", r->wall);
	sweep_export_busy(j, r);
	json_string(j, "note", r->note);
	json_string(j, "cold_probe", r->cold_probe[0] ? r->cold_probe : NULL);
	json_begin_array(j, "variants");
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];
		char fl[48];
		json_begin_object(j, NULL);
		json_string(j, "name", bv->v->name ? bv->v->name : "default");
		json_string(j, "flags", decode_open_flag_bits(bv->v->flags, fl, sizeof fl));
		json_string(j, "sync_each", scenario_names_of(scn_sync_eachs, (int)bv->v->sync_each));
		json_string(j, "on", scenario_names_of(scn_fss, (int)bv->v->on));
		json_string(j, "fs", bv->fs);
		json_string(j, "device", bv->dev[0] ? bv->dev : NULL);
		json_string(j, "dir", bv->given_dir[0] ? bv->given_dir : NULL);
		json_begin_array(j, "rows");
		for (size_t i = 0; i < bv->n_rows; i++)
			sweep_export_json_row(j, &bv->rows[i]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "references");
	for (size_t i = 0; i < sw->n_references; i++) {
		const struct scn_reference *ref = &sw->references[i];
		json_begin_object(j, NULL);
		json_string(j, "label", ref->label);
		json_string(j, "source", ref->source);
		json_string(j, "variant", r->n_variants ?
		            r->variants[sweep_ref_variant(r, ref)].v->name : NULL);
		json_uint(j, "total_bytes", ref->total_bytes);
		json_begin_array(j, "rows");
		for (size_t k = 0; k < ref->n_rows; k++) {
			json_begin_object(j, NULL);
			json_uint(j, "buf_size", ref->rows[k].buf_size);
			sweep_export_jnum(j, "elapsed_s", ref->rows[k].elapsed);
			sweep_export_jnum(j, "user_s", ref->rows[k].user);
			sweep_export_jnum(j, "system_s", ref->rows[k].system);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

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
	if (strcmp(fmt, "json") == 0) {
		struct json j;
		json_init(&j, f, 0);
		sweep_export_json(&j, NULL, r);
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
