/* SPDX-License-Identifier: MIT */
/* table/json.c: a sweep's results as JSON, with every run's raw figures: what --export=json
 * writes and what the JSON transcript (out/json.c) holds of a sweep step. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/json.h"
#include "scenario/names.h"
#include "table/print.h"
#include "trace/decode.h"

/* Name of a cold-cache state. */
const char *
sweep_cold_name(enum sweep_cold c)
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
sweep_json_num(struct json *j, const char *key, double v)
{
	if (!isfinite(v) || v < 0)
		json_null(j, key);
	else
		json_real(j, key, v, 9);
}

/* JSON: one row's measured and extrapolated figures (rows that ran). */
static void
sweep_json_figures(struct json *j, const struct sweep_row *row)
{
	const struct stats_summary *e = &row->elapsed;

	json_begin_object(j, "measured");
	sweep_json_num(j, "median_s", e->median);
	sweep_json_num(j, "mean_s", e->mean);
	sweep_json_num(j, "stddev_s", e->sd);
	sweep_json_num(j, "min_s", e->min);
	sweep_json_num(j, "max_s", e->max);
	sweep_json_num(j, "user_s", row->user);
	sweep_json_num(j, "system_s", row->system);
	sweep_json_num(j, "syscr", row->syscr);
	sweep_json_num(j, "syscw", row->syscw);
	sweep_json_num(j, "journal_commits", row->commits);
	sweep_json_num(j, "cpu_wait_s", row->wait);
	json_end_object(j);
	json_begin_object(j, "extrapolated");
	sweep_json_num(j, "median_s", sweep_row_extrapolated(row));
	sweep_json_num(j, "user_s", sweep_row_cpu(row, false));
	sweep_json_num(j, "system_s", sweep_row_cpu(row, true));
	sweep_json_num(j, "syscalls", round(sweep_row_calls(row)));
	json_fixed(j, "fixed_syscalls", row->fixed_calls, 0);
	json_begin_object(j, "cpu_below_tick");
	json_bool(j, "user", sweep_row_cpu(row, false) < 0);
	json_bool(j, "system", sweep_row_cpu(row, true) < 0);
	json_end_object(j);
	json_end_object(j);
	sweep_json_num(j, "relative", row->relative);
	sweep_json_num(j, "relative_stddev", row->relative_sd);
	json_uint(j, "outliers", e->n_outliers);
	json_bool(j, "first_run_slower", e->first_slow);
}

/* JSON: one row: its figures, how cold its input was, and every run. */
static void
sweep_json_row(struct json *j, const struct sweep_row *row)
{
	json_begin_object(j, NULL);
	json_uint(j, "buf_size", row->buf_size);
	json_uint(j, "bytes_measured", row->bytes);
	sweep_json_num(j, "scale", row->scale);
	sweep_json_num(j, "fixed_s", row->fixed);
	if (row->n_runs > 0)
		sweep_json_figures(j, row);
	json_string(j, "cold", sweep_cold_name(row->cold));
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
		json_string(j, "cold", sweep_cold_name(s->cold));
		sweep_json_num(j, "journal_commits", (double)s->commits);
		sweep_json_num(j, "cpu_wait_s", s->wait);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* JSON: was the machine busy, what says so, and the warning the table prints (or null). */
static void
sweep_json_busy(struct json *j, const struct sweep_result *r)
{
	const struct sweep_busy *b = &r->busy;
	char warning[512];

	json_begin_object(j, "busy");
	json_bool(j, "busy", b->busy);
	json_uint(j, "cpus", b->cpus > 0 ? (uint64_t)b->cpus : 0);
	sweep_json_num(j, "load_max", b->load_max);
	sweep_json_num(j, "cpu_wait_max", b->wait_max);
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
sweep_print_json(struct json *j, const char *key, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;

	json_begin_object(j, key);
	json_string(j, "title", sw->title);
	json_string(j, "program", scenario_names_of(scn_programs, (int)sw->program));
	json_uint(j, "file_size", sw->file_size);
	json_string(j, "cache", scenario_names_of(scn_caches, (int)sw->cache));
	sweep_json_num(j, "budget_s", r->budget);
	json_uint(j, "repeat", r->repeat);
	json_uint(j, "warmup", r->warmup);
	json_begin_object(j, "machine");
	json_string(j, "arch", r->machine);
	json_string(j, "cpu", r->cpu);
	json_string(j, "kernel", r->kernel);
	json_end_object(j);
	sweep_json_num(j, "wall_s", r->wall);
	sweep_json_busy(j, r);
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
			sweep_json_row(j, &bv->rows[i]);
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
			sweep_json_num(j, "elapsed_s", ref->rows[k].elapsed);
			sweep_json_num(j, "user_s", ref->rows[k].user);
			sweep_json_num(j, "system_s", ref->rows[k].system);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}
