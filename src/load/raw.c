/* SPDX-License-Identifier: MIT */
/* raw.c: libcyaml's schema of a scenario, and the load that maps it to raw structs. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cyaml/cyaml.h>

#include "base/text.h"
#include "load/load-int.h"

/*
 * The schema is static data, built bottom-up. Every scalar is kept as text (units such as
 * "4 KiB" and names are the loader's to parse, with a message and a position for each mistake);
 * lists are libcyaml sequences. Keys that stand for nothing when null (an op's arguments, a
 * sweep, file, expect, steps) are pointers with CYAML_FLAG_POINTER_NULL_STR. Text fields keep
 * the scalar as written, so "~" stays "~", as the positioned tree has it.
 *
 * load_schema_check() has already refused every unknown key, wrong kind and alias on the
 * positioned tree, so libcyaml only ever sees well-shaped input; if it still refuses, that is a
 * bug in the shape check, reported as one error at the document's start.
 */

/* An optional text field. */
#define SCN_RAW_STR(st, k, m) \
	CYAML_FIELD_STRING_PTR(k, CYAML_FLAG_OPTIONAL, st, m, 0, CYAML_UNLIMITED)
/* An optional list of text, in a struct scn_raw_list member M. */
#define SCN_RAW_LIST(st, k, m) \
	CYAML_FIELD_SEQUENCE_COUNT(k, CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER, st, m.items, \
				   m.count, &scn_raw_text, 0, CYAML_UNLIMITED)

/* One entry of a list of text. */
static const cyaml_schema_value_t scn_raw_text = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

/* ---- Op arguments: one field array per op, made from SCN_OP_LIST. ---- */

/* Argument A's field, from its SCN_ARGDEF_ (key, shape, example). */
#define SCN_RAW_ARG(a) SCN_RAW_ARG_(a, SCN_ARGDEF_##a)
#define SCN_RAW_ARG_(a, ...) SCN_RAW_ARG__(a, __VA_ARGS__)
#define SCN_RAW_ARG__(a, k, shape, ex) SCN_RAW_ARG_##shape(a, k),
#define SCN_RAW_ARG_SCALAR(a, k) SCN_RAW_STR(struct scn_raw_args, k, v[SCN_ARG_##a])
#define SCN_RAW_ARG_LIST(a, k) SCN_RAW_LIST(struct scn_raw_args, k, list[SCN_ARG_##a])
#define OPT(a) SCN_RAW_ARG(a)
#define REQ(a) SCN_RAW_ARG(a)
#define ONE(a) SCN_RAW_ARG(a)
/* The argument fields of every op that takes a mapping of arguments (SCN_FORM_ARGS). */
#define SCN_RAW_OP_ARGS(e, n, io_, runs_, form_, flags_, layer_, cname_, run_, check_, emit_, ...) \
	SCN_RAW_ARGS_##form_(e, __VA_ARGS__)
#define SCN_RAW_ARGS_ARGS(e, ...) \
	static const cyaml_schema_field_t scn_raw_args_##e[] = { __VA_ARGS__ CYAML_FIELD_END };
#define SCN_RAW_ARGS_TEXT(e, ...)
#define SCN_RAW_ARGS_SWEEP(e, ...)
SCN_OP_LIST(SCN_RAW_OP_ARGS)
#undef SCN_RAW_OP_ARGS
#undef OPT
#undef REQ
#undef ONE

/* ---- Expectations: one optional text field per key of SCN_KEY_LIST. ---- */

#define SCN_RAW_KEY(e, n, ...) SCN_RAW_STR(struct scn_raw_expect, n, v[SCN_KEY_##e]),
static const cyaml_schema_field_t scn_raw_expect_fields[] = {
	SCN_KEY_LIST(SCN_RAW_KEY)
	CYAML_FIELD_END
};
#undef SCN_RAW_KEY

/* ---- Sweeps. ---- */

static const cyaml_schema_field_t scn_raw_row_fields[] = {
	SCN_RAW_STR(struct scn_raw_row, "buf_size", buf_size),
	SCN_RAW_STR(struct scn_raw_row, "elapsed", elapsed),
	SCN_RAW_STR(struct scn_raw_row, "user", user),
	SCN_RAW_STR(struct scn_raw_row, "system", system),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t scn_raw_row = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_raw_row, scn_raw_row_fields),
};
static const cyaml_schema_field_t scn_raw_ref_fields[] = {
	SCN_RAW_STR(struct scn_raw_ref, "label", label),
	SCN_RAW_STR(struct scn_raw_ref, "source", source),
	SCN_RAW_STR(struct scn_raw_ref, "variant", variant),
	SCN_RAW_STR(struct scn_raw_ref, "total", total),
	CYAML_FIELD_SEQUENCE("rows", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER, struct scn_raw_ref,
			     rows, &scn_raw_row, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t scn_raw_ref = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_raw_ref, scn_raw_ref_fields),
};
static const cyaml_schema_field_t scn_raw_variant_fields[] = {
	SCN_RAW_STR(struct scn_raw_variant, "name", name),
	SCN_RAW_LIST(struct scn_raw_variant, "flags", flags),
	SCN_RAW_STR(struct scn_raw_variant, "sync_each", sync_each),
	SCN_RAW_STR(struct scn_raw_variant, "on", on),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t scn_raw_variant = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_raw_variant, scn_raw_variant_fields),
};
static const cyaml_schema_field_t scn_raw_sweep_fields[] = {
	SCN_RAW_STR(struct scn_raw_sweep, "title", title),
	SCN_RAW_STR(struct scn_raw_sweep, "program", program),
	SCN_RAW_LIST(struct scn_raw_sweep, "buffer_sizes", buffer_sizes),
	SCN_RAW_STR(struct scn_raw_sweep, "file_size", file_size),
	SCN_RAW_STR(struct scn_raw_sweep, "repeat", repeat),
	SCN_RAW_STR(struct scn_raw_sweep, "warmup", warmup),
	SCN_RAW_STR(struct scn_raw_sweep, "cache", cache),
	SCN_RAW_STR(struct scn_raw_sweep, "budget", budget),
	CYAML_FIELD_SEQUENCE("variants", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER,
			     struct scn_raw_sweep, variants, &scn_raw_variant, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("reference", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER,
			     struct scn_raw_sweep, reference, &scn_raw_ref, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

/* ---- Steps: one field per op of SCN_OP_LIST, by its form, then say, ask and expect. ---- */

/* A null value stands for nothing given: "- fsync:", "- sweep:", "expect:". */
#define SCN_RAW_NULLABLE (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR)
#define SCN_RAW_FORM_ARGS(e, n) \
	CYAML_FIELD_MAPPING_PTR(n, SCN_RAW_NULLABLE, struct scn_raw_step, args[SCN_OP_##e], \
				scn_raw_args_##e),
#define SCN_RAW_FORM_TEXT(e, n) SCN_RAW_STR(struct scn_raw_step, n, text[SCN_OP_##e]),
#define SCN_RAW_FORM_SWEEP(e, n) \
	CYAML_FIELD_MAPPING_PTR(n, SCN_RAW_NULLABLE, struct scn_raw_step, sweep[SCN_OP_##e], \
				scn_raw_sweep_fields),
#define SCN_RAW_OP_FIELD(e, n, io_, runs_, form_, ...) SCN_RAW_FORM_##form_(e, n)
static const cyaml_schema_field_t scn_raw_step_fields[] = {
	SCN_OP_LIST(SCN_RAW_OP_FIELD)
	/* say is read from the positioned tree (load/narr.c): a text or a list of parts. */
	CYAML_FIELD_IGNORE("say", CYAML_FLAG_OPTIONAL),
	SCN_RAW_STR(struct scn_raw_step, "ask", ask),
	SCN_RAW_STR(struct scn_raw_step, "as", as),
	SCN_RAW_STR(struct scn_raw_step, "on", on),
	CYAML_FIELD_MAPPING_PTR("expect", SCN_RAW_NULLABLE, struct scn_raw_step, expect,
				scn_raw_expect_fields),
	/* cases are read from the positioned tree (load/cond.c). */
	CYAML_FIELD_IGNORE("cases", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_END
};
#undef SCN_RAW_OP_FIELD
static const cyaml_schema_value_t scn_raw_step = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct scn_raw_step, scn_raw_step_fields),
};

/* ---- The top. ---- */

static const cyaml_schema_field_t scn_raw_file_fields[] = {
	SCN_RAW_STR(struct scn_raw_file, "size", size),
	SCN_RAW_STR(struct scn_raw_file, "on", on),
	SCN_RAW_STR(struct scn_raw_file, "fill", fill),
	CYAML_FIELD_END
};
static const cyaml_schema_field_t scn_raw_top_fields[] = {
	SCN_RAW_STR(struct scn_raw_scenario, "title", title),
	SCN_RAW_STR(struct scn_raw_scenario, "source", source),
	CYAML_FIELD_IGNORE("intro", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_MAPPING_PTR("file", SCN_RAW_NULLABLE, struct scn_raw_scenario, file,
				scn_raw_file_fields),
	CYAML_FIELD_SEQUENCE("steps", SCN_RAW_NULLABLE, struct scn_raw_scenario, steps,
			     &scn_raw_step, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t scn_raw_top = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct scn_raw_scenario, scn_raw_top_fields),
};

/* libcyaml's log callback: keep its errors (ctx: a text_buf, the messages of one load, kept
 * only to be shown if it refuses), one after another ("; "), whole, as it words them: they
 * may quote the scenario's own keys and values. */
static void
load_raw_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct text_buf *log = ctx, line = { 0 };
	size_t n;

	if (level < CYAML_LOG_ERROR || log == NULL) /* a free has no log of its own */
		return;
	text_vaddf(&line, fmt, args);
	n = strcspn(text_str(&line), "\n");
	if (n > 0) {
		if (log->len > 0)
			text_add(log, "; ");
		text_addn(log, text_str(&line), n);
	}
	text_buf_free(&line);
}

/* The one configuration of every load and free (the free must use the load's). */
static const cyaml_config_t scn_raw_config = {
	.log_fn = load_raw_log,
	.mem_fn = cyaml_mem,
	.log_level = CYAML_LOG_ERROR,
	.flags = CYAML_CFG_NO_ALIAS,
};

/* Map BUF (LEN bytes, already shape-checked) to *OUT with libcyaml. */
int
load_raw_load(struct scn_load *ld, const char *buf, size_t len, bool report,
		  struct scn_raw_scenario **out)
{
	struct text_buf log = { 0 };
	cyaml_config_t cfg = scn_raw_config;
	cyaml_err_t err;

	*out = NULL;
	cfg.log_ctx = &log;
	err = cyaml_load_data((const uint8_t *)buf, len, &cfg, &scn_raw_top,
			      (cyaml_data_t **)out, NULL);
	if (err == CYAML_ERR_OOM) {
		text_buf_free(&log);
		ld->oom = true;
		return -1;
	}
	if (err != CYAML_OK || *out == NULL) {
		/* The text is libcyaml's, shown as it is: no position is read out of it. */
		if (report)
			load_report_error(ld, 1, 1, SCN_RAW_REFUSED ": %s%s%s%s",
					  err != CYAML_OK ? cyaml_strerror(err) : "no document",
					  log.len > 0 ? " (" : "", text_str(&log), log.len > 0 ? ")" : "");
		text_buf_free(&log);
		load_raw_free(*out);
		*out = NULL;
		return -1;
	}
	text_buf_free(&log);
	return 0;
}

/* Free what load_raw_load() gave. */
void
load_raw_free(struct scn_raw_scenario *raw)
{
	if (raw != NULL)
		cyaml_free(&scn_raw_config, &scn_raw_top, raw, 0);
}
