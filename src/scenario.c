/* SPDX-License-Identifier: MIT */
/* scenario.c: load a scenario: libcyaml schema into raw strings, then validate into struct scenario. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cyaml/cyaml.h>

#include "scenario.h"
#include "scenario-names.h"
#include "units.h"
#include "yamlpos.h"

/* A scenario is a small text file; anything bigger is a mistake (and is not read whole). */
#define SCN_MAX_FILE (1024 * 1024)
/* After this many errors the rest are noise. */
#define SCN_MAX_ERRORS 20
/* O_DIRECT transfers must be multiples of this (statx DIOALIGN on ext4 here). */
#define SCN_DIO_ALIGN 512
/* Longest wait a scenario may ask for, in seconds. */
#define SCN_MAX_WAIT 3600.0

/*
 * The raw form: what libcyaml loads. Every scalar is kept as a string so that our own
 * validation can give "4KiB" a meaning and every mistake a message and a position.
 */
struct raw_args {
	char *bytes, *offset, *len, *whence, *text, *mode, *size, *buffer, *advice, *align;
	char *seconds, *until, *timeout, *lines, *block, *printf_text, *write_text, *between;
	char **flags;
	unsigned flags_count;
};

struct raw_expect {
	char *v[SCN_KEY__COUNT];
};

struct raw_row {
	char *buf_size, *elapsed, *user, *system;
};

struct raw_ref {
	char *label, *source, *variant, *total;
	struct raw_row *rows;
	unsigned rows_count;
};

struct raw_variant {
	char *name, *sync_each, *on;
	char **flags;
	unsigned flags_count;
};

struct raw_sweep {
	char *title, *program, *file_size, *repeat, *warmup, *cache, *budget;
	char **buffer_sizes;
	unsigned buffer_sizes_count;
	struct raw_variant *variants;
	unsigned variants_count;
	struct raw_ref *reference;
	unsigned reference_count;
};

struct raw_step {
	struct raw_args *op[SCN_OP__COUNT]; /* all ops but sweep and note */
	struct raw_sweep *sweep;
	char *note;
	char *say;
	struct raw_expect *expect;
};

struct raw_file {
	char *size, *on, *fill;
};

struct raw_scenario {
	char *title, *source, *intro;
	struct raw_file *file;
	struct raw_step *steps;
	unsigned steps_count;
};

/* ---- The schema, bottom-up. ---- */

static const cyaml_schema_value_t raw_string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define A_STR(k, m) CYAML_FIELD_STRING_PTR(k, CYAML_FLAG_OPTIONAL, struct raw_args, m, 0, CYAML_UNLIMITED)
#define A_BYTES A_STR("bytes", bytes)
#define A_OFFSET A_STR("offset", offset)
#define A_LEN A_STR("len", len)
#define A_WHENCE A_STR("whence", whence)
#define A_TEXT A_STR("text", text)
#define A_MODE A_STR("mode", mode)
#define A_SIZE A_STR("size", size)
#define A_BUFFER A_STR("buffer", buffer)
#define A_ADVICE A_STR("advice", advice)
#define A_ALIGN A_STR("align", align)
#define A_FLAGS CYAML_FIELD_SEQUENCE("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER, \
				     struct raw_args, flags, &raw_string_entry, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t f_none[] = { CYAML_FIELD_END };
static const cyaml_schema_field_t f_open[] = { A_FLAGS, CYAML_FIELD_END };
static const cyaml_schema_field_t f_mode[] = { A_MODE, CYAML_FIELD_END };
static const cyaml_schema_field_t f_setvbuf[] = { A_MODE, A_SIZE, A_BUFFER, CYAML_FIELD_END };
static const cyaml_schema_field_t f_setbuf[] = { A_BUFFER, CYAML_FIELD_END };
static const cyaml_schema_field_t f_setbuffer[] = { A_SIZE, A_BUFFER, CYAML_FIELD_END };
static const cyaml_schema_field_t f_bytes[] = { A_BYTES, CYAML_FIELD_END };
static const cyaml_schema_field_t f_text[] = { A_TEXT, CYAML_FIELD_END };
static const cyaml_schema_field_t f_seek[] = { A_OFFSET, A_WHENCE, CYAML_FIELD_END };
static const cyaml_schema_field_t f_rw[] = { A_BYTES, A_ALIGN, CYAML_FIELD_END };
static const cyaml_schema_field_t f_prw[] = { A_BYTES, A_OFFSET, A_ALIGN, CYAML_FIELD_END };
static const cyaml_schema_field_t f_sfr[] = { A_OFFSET, A_LEN, A_FLAGS, CYAML_FIELD_END };
static const cyaml_schema_field_t f_fadvise[] = { A_ADVICE, A_OFFSET, A_LEN, CYAML_FIELD_END };
static const cyaml_schema_field_t f_range[] = { A_OFFSET, A_LEN, CYAML_FIELD_END };
static const cyaml_schema_field_t f_len[] = { A_LEN, CYAML_FIELD_END };
static const cyaml_schema_field_t f_wait[] = {
	A_STR("seconds", seconds), A_STR("until", until), A_STR("timeout", timeout), CYAML_FIELD_END
};
static const cyaml_schema_field_t f_pty[] = {
	A_STR("printf", printf_text), A_STR("write", write_text), A_STR("between", between),
	CYAML_FIELD_END
};
static const cyaml_schema_field_t f_tail[] = {
	A_STR("lines", lines), A_STR("block", block), CYAML_FIELD_END
};

/* What each op is called and which arguments it takes (NULL: not a mapping of arguments). */
static const struct {
	const char *name;
	const cyaml_schema_field_t *fields;
	bool stdio;
} scn_ops[SCN_OP__COUNT] = {
	[SCN_OP_OPEN] = { "open", f_open, false },
	[SCN_OP_FOPEN] = { "fopen", f_mode, true },
	[SCN_OP_FDOPEN] = { "fdopen", f_mode, true },
	[SCN_OP_FILENO] = { "fileno", f_none, true },
	[SCN_OP_SETVBUF] = { "setvbuf", f_setvbuf, true },
	[SCN_OP_SETBUF] = { "setbuf", f_setbuf, true },
	[SCN_OP_SETBUFFER] = { "setbuffer", f_setbuffer, true },
	[SCN_OP_FWRITE] = { "fwrite", f_bytes, true },
	[SCN_OP_FPUTS] = { "fputs", f_text, true },
	[SCN_OP_PRINTF] = { "printf", f_text, true },
	[SCN_OP_FREAD] = { "fread", f_bytes, true },
	[SCN_OP_FGETS] = { "fgets", f_bytes, true },
	[SCN_OP_FFLUSH] = { "fflush", f_none, true },
	[SCN_OP_FSEEK] = { "fseek", f_seek, true },
	[SCN_OP_FCLOSE] = { "fclose", f_none, true },
	[SCN_OP_WRITE] = { "write", f_rw, false },
	[SCN_OP_READ] = { "read", f_rw, false },
	[SCN_OP_PREAD] = { "pread", f_prw, false },
	[SCN_OP_PWRITE] = { "pwrite", f_prw, false },
	[SCN_OP_LSEEK] = { "lseek", f_seek, false },
	[SCN_OP_FSYNC] = { "fsync", f_none, false },
	[SCN_OP_FDATASYNC] = { "fdatasync", f_none, false },
	[SCN_OP_SYNC_FILE_RANGE] = { "sync_file_range", f_sfr, false },
	[SCN_OP_SYNC] = { "sync", f_none, false },
	[SCN_OP_FADVISE] = { "posix_fadvise", f_fadvise, false },
	[SCN_OP_FALLOCATE] = { "fallocate", f_range, false },
	[SCN_OP_FTRUNCATE] = { "ftruncate", f_len, false },
	[SCN_OP_CLOSE] = { "close", f_none, false },
	[SCN_OP_WAIT] = { "wait", f_wait, false },
	[SCN_OP_PTY] = { "pty", f_pty, false },
	[SCN_OP_TAIL] = { "tail", f_tail, false },
	[SCN_OP_SWEEP] = { "sweep", NULL, false },
	[SCN_OP_NOTE] = { "note", NULL, false },
};

/* Expectation keys as written. */
static const char *const scn_keys[SCN_KEY__COUNT] = {
	[SCN_KEY_STDIO_SIZE] = "stdio.size",
	[SCN_KEY_STDIO_PENDING] = "stdio.pending",
	[SCN_KEY_STDIO_MODE] = "stdio.mode",
	[SCN_KEY_CALLS_WRITE] = "calls.write",
	[SCN_KEY_CALLS_READ] = "calls.read",
	[SCN_KEY_CALLS_TOTAL] = "calls.total",
	[SCN_KEY_BYTES_WRITTEN] = "bytes.written",
	[SCN_KEY_BYTES_READ] = "bytes.read",
	[SCN_KEY_CACHE_PAGES] = "cache.pages",
	[SCN_KEY_CACHE_DIRTY_PAGES] = "cache.dirty_pages",
	[SCN_KEY_CACHE_WRITEBACK_PAGES] = "cache.writeback_pages",
	[SCN_KEY_DISK_ALLOCATED_BYTES] = "disk.allocated_bytes",
	[SCN_KEY_DISK_DELALLOC_BYTES] = "disk.delalloc_bytes",
	[SCN_KEY_DISK_UNWRITTEN_BYTES] = "disk.unwritten_bytes",
	[SCN_KEY_RESULT_ERRNO] = "result.errno",
	[SCN_KEY_RESULT_VALUE] = "result.value",
	[SCN_KEY_OUTPUT] = "output",
	[SCN_KEY_OUTPUT_FILE] = "output.file",
};

#define E_KEY(k, e) CYAML_FIELD_STRING_PTR(k, CYAML_FLAG_OPTIONAL, struct raw_expect, v[e], 0, CYAML_UNLIMITED)
static const cyaml_schema_field_t f_expect[] = {
	E_KEY("stdio.size", SCN_KEY_STDIO_SIZE),
	E_KEY("stdio.pending", SCN_KEY_STDIO_PENDING),
	E_KEY("stdio.mode", SCN_KEY_STDIO_MODE),
	E_KEY("calls.write", SCN_KEY_CALLS_WRITE),
	E_KEY("calls.read", SCN_KEY_CALLS_READ),
	E_KEY("calls.total", SCN_KEY_CALLS_TOTAL),
	E_KEY("bytes.written", SCN_KEY_BYTES_WRITTEN),
	E_KEY("bytes.read", SCN_KEY_BYTES_READ),
	E_KEY("cache.pages", SCN_KEY_CACHE_PAGES),
	E_KEY("cache.dirty_pages", SCN_KEY_CACHE_DIRTY_PAGES),
	E_KEY("cache.writeback_pages", SCN_KEY_CACHE_WRITEBACK_PAGES),
	E_KEY("disk.allocated_bytes", SCN_KEY_DISK_ALLOCATED_BYTES),
	E_KEY("disk.delalloc_bytes", SCN_KEY_DISK_DELALLOC_BYTES),
	E_KEY("disk.unwritten_bytes", SCN_KEY_DISK_UNWRITTEN_BYTES),
	E_KEY("result.errno", SCN_KEY_RESULT_ERRNO),
	E_KEY("result.value", SCN_KEY_RESULT_VALUE),
	E_KEY("output", SCN_KEY_OUTPUT),
	E_KEY("output.file", SCN_KEY_OUTPUT_FILE),
	CYAML_FIELD_END
};

#define R_STR(st, k, m) CYAML_FIELD_STRING_PTR(k, CYAML_FLAG_OPTIONAL, st, m, 0, CYAML_UNLIMITED)
static const cyaml_schema_field_t f_row[] = {
	R_STR(struct raw_row, "buf_size", buf_size),
	R_STR(struct raw_row, "elapsed", elapsed),
	R_STR(struct raw_row, "user", user),
	R_STR(struct raw_row, "system", system),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t v_row = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_row, f_row),
};
static const cyaml_schema_field_t f_ref[] = {
	R_STR(struct raw_ref, "label", label),
	R_STR(struct raw_ref, "source", source),
	R_STR(struct raw_ref, "variant", variant),
	R_STR(struct raw_ref, "total", total),
	CYAML_FIELD_SEQUENCE("rows", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER, struct raw_ref,
			     rows, &v_row, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t v_ref = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_ref, f_ref),
};
static const cyaml_schema_field_t f_variant[] = {
	R_STR(struct raw_variant, "name", name),
	CYAML_FIELD_SEQUENCE("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER, struct raw_variant,
			     flags, &raw_string_entry, 0, CYAML_UNLIMITED),
	R_STR(struct raw_variant, "sync_each", sync_each),
	R_STR(struct raw_variant, "on", on),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t v_variant = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_variant, f_variant),
};
static const cyaml_schema_field_t f_sweep[] = {
	R_STR(struct raw_sweep, "title", title),
	R_STR(struct raw_sweep, "program", program),
	CYAML_FIELD_SEQUENCE("buffer_sizes", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER,
			     struct raw_sweep, buffer_sizes, &raw_string_entry, 0, CYAML_UNLIMITED),
	R_STR(struct raw_sweep, "file_size", file_size),
	R_STR(struct raw_sweep, "repeat", repeat),
	R_STR(struct raw_sweep, "warmup", warmup),
	R_STR(struct raw_sweep, "cache", cache),
	R_STR(struct raw_sweep, "budget", budget),
	CYAML_FIELD_SEQUENCE("variants", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER,
			     struct raw_sweep, variants, &v_variant, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("reference", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER,
			     struct raw_sweep, reference, &v_ref, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

#define S_OPN(k, e, f) CYAML_FIELD_MAPPING_PTR(k, CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR, \
					       struct raw_step, op[e], f)
static const cyaml_schema_field_t f_step[] = {
	S_OPN("open", SCN_OP_OPEN, f_open),
	S_OPN("fopen", SCN_OP_FOPEN, f_mode),
	S_OPN("fdopen", SCN_OP_FDOPEN, f_mode),
	S_OPN("fileno", SCN_OP_FILENO, f_none),
	S_OPN("setvbuf", SCN_OP_SETVBUF, f_setvbuf),
	S_OPN("setbuf", SCN_OP_SETBUF, f_setbuf),
	S_OPN("setbuffer", SCN_OP_SETBUFFER, f_setbuffer),
	S_OPN("fwrite", SCN_OP_FWRITE, f_bytes),
	S_OPN("fputs", SCN_OP_FPUTS, f_text),
	S_OPN("printf", SCN_OP_PRINTF, f_text),
	S_OPN("fread", SCN_OP_FREAD, f_bytes),
	S_OPN("fgets", SCN_OP_FGETS, f_bytes),
	S_OPN("fflush", SCN_OP_FFLUSH, f_none),
	S_OPN("fseek", SCN_OP_FSEEK, f_seek),
	S_OPN("fclose", SCN_OP_FCLOSE, f_none),
	S_OPN("write", SCN_OP_WRITE, f_rw),
	S_OPN("read", SCN_OP_READ, f_rw),
	S_OPN("pread", SCN_OP_PREAD, f_prw),
	S_OPN("pwrite", SCN_OP_PWRITE, f_prw),
	S_OPN("lseek", SCN_OP_LSEEK, f_seek),
	S_OPN("fsync", SCN_OP_FSYNC, f_none),
	S_OPN("fdatasync", SCN_OP_FDATASYNC, f_none),
	S_OPN("sync_file_range", SCN_OP_SYNC_FILE_RANGE, f_sfr),
	S_OPN("sync", SCN_OP_SYNC, f_none),
	S_OPN("posix_fadvise", SCN_OP_FADVISE, f_fadvise),
	S_OPN("fallocate", SCN_OP_FALLOCATE, f_range),
	S_OPN("ftruncate", SCN_OP_FTRUNCATE, f_len),
	S_OPN("close", SCN_OP_CLOSE, f_none),
	S_OPN("wait", SCN_OP_WAIT, f_wait),
	S_OPN("pty", SCN_OP_PTY, f_pty),
	S_OPN("tail", SCN_OP_TAIL, f_tail),
	CYAML_FIELD_MAPPING_PTR("sweep", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR,
				struct raw_step, sweep, f_sweep),
	CYAML_FIELD_STRING_PTR("note", CYAML_FLAG_OPTIONAL, struct raw_step, note, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("say", CYAML_FLAG_OPTIONAL, struct raw_step, say, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("expect", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR,
				struct raw_step, expect, f_expect),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t v_step = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_step, f_step),
};
static const cyaml_schema_field_t f_file[] = {
	R_STR(struct raw_file, "size", size),
	R_STR(struct raw_file, "on", on),
	R_STR(struct raw_file, "fill", fill),
	CYAML_FIELD_END
};
static const cyaml_schema_field_t f_top[] = {
	R_STR(struct raw_scenario, "title", title),
	R_STR(struct raw_scenario, "source", source),
	R_STR(struct raw_scenario, "intro", intro),
	CYAML_FIELD_MAPPING_PTR("file", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR,
				struct raw_scenario, file, f_file),
	CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR,
			     struct raw_scenario, steps, &v_step, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t v_top = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_scenario, f_top),
};

/* ---- Public names. ---- */

/* Name of an op as written in YAML. */
const char *
scenario_op_name(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return "?";
	return scn_ops[op].name;
}

/* Name of an expectation key as written in YAML. */
const char *
scenario_key_name(enum scn_key key)
{
	if ((unsigned)key >= SCN_KEY__COUNT)
		return "?";
	return scn_keys[key];
}

/* Symbol of a comparison. */
const char *
scenario_cmp_name(enum scn_cmp cmp)
{
	static const char *const names[] = {
		[SCN_CMP_EQ] = "=", [SCN_CMP_NE] = "!=", [SCN_CMP_LT] = "<",
		[SCN_CMP_LE] = "<=", [SCN_CMP_GT] = ">", [SCN_CMP_GE] = ">=",
	};
	if ((unsigned)cmp >= sizeof names / sizeof names[0])
		return "?";
	return names[cmp];
}

/* True if the op acts through the FILE*. */
bool
scenario_op_is_stdio(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return false;
	return scn_ops[op].stdio;
}

/* ---- Errors. ---- */

/* One load: where errors go and what is being read. */
struct ld {
	const char *path;
	const struct yamlpos *ix;
	char *err;
	size_t err_len, err_cap;
	int n_err;
	bool oom;
	bool direct;          /* the current fd was opened with O_DIRECT */
	bool tmpfs;           /* the scratch file is on tmpfs: O_DIRECT has no alignment rules */
};

/* Append one "PATH:LINE:COL: message" line. */
static void
scenario_error(struct ld *ld, int line, int col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	ld->n_err++;
	if (ld->n_err > SCN_MAX_ERRORS || ld->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* A message is one line: a newline in quoted user text would break the format. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	n = snprintf(NULL, 0, "%s:%d:%d: %s\n", ld->path, line < 1 ? 1 : line,
		     col < 1 ? 1 : col, msg);
	if (n < 0)
		return;
	if (ld->err_len + (size_t)n + 1 > ld->err_cap) {
		size_t cap = (ld->err_cap + (size_t)n + 1) * 2;
		char *p = realloc(ld->err, cap);
		if (p == NULL) {
			ld->oom = true;
			return;
		}
		ld->err = p;
		ld->err_cap = cap;
	}
	snprintf(ld->err + ld->err_len, ld->err_cap - ld->err_len, "%s:%d:%d: %s\n", ld->path,
		 line < 1 ? 1 : line, col < 1 ? 1 : col, msg);
	ld->err_len += (size_t)n;
}

/* Error at a node's value; NULL node: at the fallback node, else 1:1. */
#define scenario_at(ld, node, ...) \
	scenario_error((ld), (node) ? (node)->line : 1, (node) ? (node)->col : 1, __VA_ARGS__)
/* Error at a node's key. */
#define scenario_at_key(ld, node, ...) \
	scenario_error((ld), (node) ? (node)->key_line : 1, (node) ? (node)->key_col : 1, __VA_ARGS__)

/* Duplicate S, remembering failure. */
static char *
scenario_strdup(struct ld *ld, const char *s)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL)
		ld->oom = true;
	return d;
}

/* True if NODE is a plain null scalar ("", "~", "null"): a key written with no value. */
static bool
scenario_is_null(const struct yamlpos_node *node)
{
	return node != NULL && node->kind == YAMLPOS_SCALAR && node->is_null;
}

/* Edit distance of two short words (for "did you mean"). */
static size_t
scenario_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest of N names to WORD if it is close enough, else NULL. */
static const char *
scenario_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bd = 3 + strlen(word) / 8; /* longer words may be further off */

	for (size_t i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		size_t d = scenario_distance(word, names[i]);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

/* Write "a, b, c" (the names of a table) into buf. */
static const char *
scenario_name_list(const struct scn_name *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; t[i].name != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", t[i].name);
	return buf;
}

/* Write the keys of a schema field list into buf. */
static const char *
scenario_field_list(const cyaml_schema_field_t *f, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; f[i].key != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", f[i].key);
	return buf;
}

/* ---- Value parsers (each reports its own error at NODE). ---- */

/* Look NAME up in table T. Return 0 and set *out, or report and return -1. */
static int
scenario_name(struct ld *ld, const struct yamlpos_node *node, const char *s, const struct scn_name *t,
	const char *what, int *out)
{
	char list[256];

	if (scenario_is_null(node))
		s = "";
	for (size_t i = 0; t[i].name != NULL; i++) {
		if (strcmp(s, t[i].name) == 0) {
			*out = t[i].value;
			return 0;
		}
	}
	if (*s == '\0')
		scenario_at(ld, node, "%s needs a value (one of: %s)", what, scenario_name_list(t, list, sizeof list));
	else
		scenario_at(ld, node, "unknown %s '%s' (use one of: %s)", what, s,
		      scenario_name_list(t, list, sizeof list));
	return -1;
}

/* Sizes: what a zero means and whether the 1 GiB bound applies. */
enum { SZ_ZERO_OK = 1, SZ_BOUNDED = 2 };

/* Parse a size ("4096", "4KiB"). */
static int
scenario_size(struct ld *ld, const struct yamlpos_node *node, const char *s, const char *what,
	int how, uint64_t *out)
{
	const char *p = s;
	int rc;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0' || scenario_is_null(node)) {
		scenario_at(ld, node, "%s needs a size", what);
		return -1;
	}
	if (*p == '-') {
		scenario_at(ld, node, "%s cannot be negative ('%s')", what, s);
		return -1;
	}
	rc = units_parse_size(p, out);
	if (rc == -2) {
		scenario_at(ld, node, "size '%s' for %s is too large", s, what);
		return -1;
	}
	if (rc != 0) {
		scenario_at(ld, node, "bad size '%s' for %s: write a number of bytes, optionally with a unit "
		      "(512, 4KiB, 1MiB, 100MB)", s, what);
		return -1;
	}
	if (*out == 0 && !(how & SZ_ZERO_OK)) {
		scenario_at(ld, node, "%s is 0: give at least 1 byte", what);
		return -1;
	}
	if ((how & SZ_BOUNDED) && *out > SCN_MAX_SIZE) {
		scenario_at(ld, node, "absurd size '%s' for %s (%" PRIu64 " bytes): the limit is 1 GiB", s,
		      what, *out);
		return -1;
	}
	return 0;
}

/* Parse an offset: a size, negative only where ALLOW_NEG (lseek/fseek relative moves). */
static int
scenario_offset(struct ld *ld, const struct yamlpos_node *node, const char *s, bool allow_neg,
	  int64_t *out)
{
	const char *p = s;
	uint64_t v;
	bool neg = false;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' && allow_neg) {
		neg = true;
		p++;
	}
	if (*p == '-') {
		scenario_at(ld, node, "offset cannot be negative here ('%s')", s);
		return -1;
	}
	if (scenario_size(ld, node, p, "offset", SZ_ZERO_OK | SZ_BOUNDED, &v) != 0)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Parse a decimal number of seconds (or any non-negative real) within [lo, hi]. */
static int
scenario_real(struct ld *ld, const struct yamlpos_node *node, const char *s, const char *what,
	double lo, double hi, double *out)
{
	char *end;
	double v;

	if (scenario_is_null(node)) {
		scenario_at(ld, node, "%s needs a number", what);
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	while (end != s && isspace((unsigned char)*end))
		end++;
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
		scenario_at(ld, node, "%s takes a number, not '%s'", what, s);
		return -1;
	}
	if (v < lo || v > hi) {
		scenario_at(ld, node, "%s %s is out of range (%g to %g)", what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parse a whole number within [lo, hi]. */
static int
scenario_count(struct ld *ld, const struct yamlpos_node *node, const char *s, const char *what,
	 uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *p = s;
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*p))
		p++;
	if (scenario_is_null(node)) {
		scenario_at(ld, node, "%s needs a number", what);
		return -1;
	}
	if (!isdigit((unsigned char)*p)) {
		scenario_at(ld, node, "%s takes a whole number, not '%s'", what, s);
		return -1;
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0') {
		scenario_at(ld, node, "%s takes a whole number, not '%s'", what, s);
		return -1;
	}
	if (errno == ERANGE || v < lo || v > hi) {
		scenario_at(ld, node, "%s %s is out of range (%" PRIu64 " to %" PRIu64 ")", what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Map a list of flag names to their OR. */
static int
scenario_flags(struct ld *ld, const struct yamlpos_node *list, char **names, unsigned n,
	 const struct scn_name *t, const char *what, int *out)
{
	const struct yamlpos_node *c = yamlpos_first(ld->ix, list);
	int rc = 0, v;

	*out = 0;
	for (unsigned i = 0; i < n; i++, c = yamlpos_next(ld->ix, c)) {
		if (scenario_name(ld, c != NULL ? c : list, names[i], t, what, &v) != 0)
			rc = -1;
		else
			*out |= v;
	}
	return rc;
}

/* ---- Arguments. ---- */

/* Is a stdio mode ("r", "w+", "rb+", "wx", "re") one that fopen() accepts? */
static bool
scenario_fopen_mode_ok(const char *m)
{
	bool plus = false, b = false, e = false, x = false;

	if (strlen(m) > 7 || (m[0] != 'r' && m[0] != 'w' && m[0] != 'a'))
		return false;
	for (const char *p = m + 1; *p; p++) {
		bool *seen = *p == '+' ? &plus : *p == 'b' ? &b : *p == 'e' ? &e : *p == 'x' ? &x : NULL;
		if (seen == NULL || *seen)
			return false;
		*seen = true;
	}
	return !x || m[0] == 'w' || m[0] == 'a';
}

/* Parse the arguments of one step. RA may be NULL ("- fsync:" with no value). */
static void
scenario_args(struct ld *ld, struct scn_step *st, const struct raw_args *ra,
	const struct yamlpos_node *an, size_t stepno)
{
	static const struct raw_args none;
	struct scn_args *a = &st->args;
	const char *name = scn_ops[st->op].name;
	const struct yamlpos_node *opnode = an;
	int v;

	if (ra == NULL)
		ra = &none;
#define NODE(k) (yamlpos_get(ld->ix, an, k) ? yamlpos_get(ld->ix, an, k) : opnode)
	a->whence = SEEK_SET;
	a->buffer = SCN_BUFFER_LIBRARY;
	if (ra->bytes != NULL &&
	    scenario_size(ld, NODE("bytes"), ra->bytes, "bytes", SZ_BOUNDED, &a->bytes) == 0)
		a->has |= SCN_HAS_BYTES;
	if (ra->offset != NULL &&
	    scenario_offset(ld, NODE("offset"), ra->offset,
		      st->op == SCN_OP_LSEEK || st->op == SCN_OP_FSEEK, &a->offset) == 0)
		a->has |= SCN_HAS_OFFSET;
	if (ra->len != NULL &&
	    scenario_size(ld, NODE("len"), ra->len, "len", SZ_ZERO_OK | SZ_BOUNDED, &a->len) == 0)
		a->has |= SCN_HAS_LEN;
	if (ra->whence != NULL && scenario_name(ld, NODE("whence"), ra->whence, scn_whences,
					  "whence", &a->whence) == 0)
		a->has |= SCN_HAS_WHENCE;
	if (ra->text != NULL) {
		a->text = scenario_strdup(ld, ra->text);
		a->has |= SCN_HAS_TEXT;
	}
	if (ra->mode != NULL) {
		if (st->op == SCN_OP_SETVBUF) {
			if (scenario_name(ld, NODE("mode"), ra->mode, scn_bufmodes, "setvbuf mode", &v) == 0) {
				a->bufmode = (enum scn_bufmode)v;
				a->has |= SCN_HAS_MODE;
			}
		} else if (!scenario_fopen_mode_ok(ra->mode)) {
			scenario_at(ld, NODE("mode"), "bad %s mode '%s' (use r, w, a, r+, w+ or a+, "
			      "optionally with b, e or x)", name, ra->mode);
		} else {
			snprintf(a->mode, sizeof a->mode, "%s", ra->mode);
			a->has |= SCN_HAS_MODE;
		}
	}
	if (ra->size != NULL &&
	    scenario_size(ld, NODE("size"), ra->size, "buffer size", SZ_BOUNDED, &a->size) == 0)
		a->has |= SCN_HAS_SIZE;
	if (ra->buffer != NULL) {
		if (st->op == SCN_OP_SETBUF) {
			if (scenario_name(ld, NODE("buffer"), ra->buffer, scn_setbuf_buffers, "setbuf buffer",
				    &v) == 0) {
				a->has |= SCN_HAS_BUFFER;
				if (v < 0) {
					a->bufmode = SCN_BUF_NONE;
					a->has |= SCN_HAS_MODE;
				} else {
					a->buffer = (enum scn_buffer)v;
				}
			}
		} else if (scenario_name(ld, NODE("buffer"), ra->buffer, scn_buffers, "buffer", &v) == 0) {
			a->buffer = (enum scn_buffer)v;
			a->has |= SCN_HAS_BUFFER;
		}
	}
	if (st->op == SCN_OP_SETBUF && !(a->has & SCN_HAS_MODE))
		a->bufmode = SCN_BUF_FULL;
	if (ra->flags != NULL || yamlpos_get(ld->ix, an, "flags") != NULL) {
		bool sfr = st->op == SCN_OP_SYNC_FILE_RANGE;
		if (scenario_flags(ld, NODE("flags"), ra->flags, ra->flags_count,
			     sfr ? scn_sfr_flags : scn_open_flags,
			     sfr ? "sync_file_range flag" : "open flag", &a->flags) == 0)
			a->has |= SCN_HAS_FLAGS;
		if (!sfr) {
			unsigned acc = 0;
			for (unsigned i = 0; i < ra->flags_count; i++)
				acc += strcmp(ra->flags[i], "O_RDONLY") == 0 ||
				       strcmp(ra->flags[i], "O_WRONLY") == 0 ||
				       strcmp(ra->flags[i], "O_RDWR") == 0;
			if (acc > 1)
				scenario_at(ld, NODE("flags"),
				      "open flags take only one of O_RDONLY, O_WRONLY, O_RDWR");
		}
	}
	if (ra->advice != NULL && scenario_name(ld, NODE("advice"), ra->advice, scn_advices,
					  "posix_fadvise advice", &a->advice) == 0)
		a->has |= SCN_HAS_ADVICE;
	if (ra->align != NULL) {
		uint64_t al;
		if (scenario_count(ld, NODE("align"), ra->align, "align", 0, 4095, &al) == 0) {
			a->align = (unsigned)al;
			a->has |= SCN_HAS_ALIGN;
		}
	}
	if (ra->seconds != NULL &&
	    scenario_real(ld, NODE("seconds"), ra->seconds, "seconds", 0, SCN_MAX_WAIT, &a->seconds) == 0)
		a->has |= SCN_HAS_SECONDS;
	if (ra->until != NULL && scenario_name(ld, NODE("until"), ra->until, scn_untils, "until",
					 &v) == 0) {
		a->until_clean = true;
		a->has |= SCN_HAS_UNTIL;
	}
	if (st->op == SCN_OP_WAIT)
		a->timeout = 60;
	if (ra->timeout != NULL &&
	    scenario_real(ld, NODE("timeout"), ra->timeout, "timeout", 0, SCN_MAX_WAIT, &a->timeout) == 0)
		a->has |= SCN_HAS_TIMEOUT;
	if (ra->lines != NULL &&
	    scenario_count(ld, NODE("lines"), ra->lines, "lines", 1, 1000000, &a->lines) == 0)
		a->has |= SCN_HAS_LINES;
	if (ra->block != NULL &&
	    scenario_size(ld, NODE("block"), ra->block, "block", SZ_BOUNDED, &a->size) == 0)
		a->has |= SCN_HAS_SIZE;
	if (ra->printf_text != NULL) {
		a->text = scenario_strdup(ld, ra->printf_text);
		a->has |= SCN_HAS_TEXT;
	}
	if (ra->write_text != NULL)
		a->text2 = scenario_strdup(ld, ra->write_text);
	if (ra->between != NULL) {
		if (scenario_name(ld, NODE("between"), ra->between, scn_betweens, "between", &v) == 0)
			a->between = (enum scn_pty_between)v;
	}
#undef NODE

	/* Required arguments. */
	const char *need = NULL;
	switch (st->op) {
	case SCN_OP_FWRITE: case SCN_OP_FREAD: case SCN_OP_FGETS:
	case SCN_OP_WRITE: case SCN_OP_READ: case SCN_OP_PREAD: case SCN_OP_PWRITE:
		if (ra->bytes == NULL)
			need = "bytes";
		break;
	case SCN_OP_FPUTS: case SCN_OP_PRINTF:
		if (ra->text == NULL)
			need = "text";
		break;
	case SCN_OP_FOPEN: case SCN_OP_FDOPEN: case SCN_OP_SETVBUF:
		if (ra->mode == NULL)
			need = "mode";
		break;
	case SCN_OP_LSEEK: case SCN_OP_FSEEK:
		if (ra->offset == NULL)
			need = "offset";
		break;
	case SCN_OP_FADVISE:
		if (ra->advice == NULL)
			need = "advice";
		break;
	case SCN_OP_FALLOCATE:
		if (ra->len == NULL)
			need = "len";
		break;
	case SCN_OP_TAIL:
		if (ra->lines == NULL)
			need = "lines";
		break;
	case SCN_OP_PTY:
		if (ra->printf_text == NULL && ra->write_text == NULL)
			need = "printf or write";
		break;
	default:
		break;
	}
	if (need != NULL)
		scenario_at_key(ld, opnode, "%s in step %zu needs %s", name, stepno, need);
	if (st->op == SCN_OP_WAIT) {
		if (ra->seconds != NULL && ra->until != NULL)
			scenario_at_key(ld, opnode, "wait in step %zu takes seconds or until, not both", stepno);
		else if (ra->seconds == NULL && ra->until == NULL)
			scenario_at_key(ld, opnode, "wait in step %zu needs seconds or until: clean", stepno);
		else if (ra->timeout != NULL && ra->until == NULL)
			scenario_at(ld, yamlpos_get(ld->ix, an, "timeout"),
			      "timeout goes with until: clean, not with seconds");
	}
	if (st->op == SCN_OP_FALLOCATE && (a->has & SCN_HAS_LEN) && a->len == 0)
		scenario_at(ld, yamlpos_get(ld->ix, an, "len"), "fallocate of 0 bytes does nothing: give len >= 1");
}

/* ---- Expectations. ---- */

/* errno value of NAME ("EINVAL"), or -1. */
static int
scenario_errno_value(const char *name)
{
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n != NULL && strcmp(n, name) == 0)
			return e;
	}
	return -1;
}

/* Parse one expectation value S for key E->key into E. */
static int
scenario_expect_value(struct ld *ld, const struct yamlpos_node *node, const char *s, struct scn_expect *e)
{
	const char *key = scn_keys[e->key];
	const char *p = s;
	uint64_t u;
	int v, rc;

	e->cmp = SCN_CMP_EQ;
	if (scenario_is_null(node)) {
		scenario_at(ld, node, "%s needs a value", key);
		return -1;
	}
	if (e->key == SCN_KEY_OUTPUT || e->key == SCN_KEY_OUTPUT_FILE) {
		e->str = scenario_strdup(ld, s);
		return 0;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0' && strchr("<>=!", *p) != NULL) {
		static const struct { const char *sym; enum scn_cmp cmp; } ops[] = {
			{ "=", SCN_CMP_EQ }, { "==", SCN_CMP_EQ }, { "!=", SCN_CMP_NE },
			{ "<", SCN_CMP_LT }, { "<=", SCN_CMP_LE }, { ">", SCN_CMP_GT },
			{ ">=", SCN_CMP_GE },
		};
		const char *q = p;
		size_t i;
		while (*q != '\0' && strchr("<>=!", *q) != NULL)
			q++;
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
			if (strlen(ops[i].sym) == (size_t)(q - p) &&
			    strncmp(ops[i].sym, p, (size_t)(q - p)) == 0)
				break;
		if (i == sizeof ops / sizeof ops[0]) {
			scenario_at(ld, node, "bad comparison '%.*s' in '%s' for %s (use =, !=, <, <=, > or >=)",
			      (int)(q - p), p, s, key);
			return -1;
		}
		e->cmp = ops[i].cmp;
		p = q;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0') {
			scenario_at(ld, node, "comparison '%s' for %s has no value", s, key);
			return -1;
		}
	}
	if (*p == '\0') {
		scenario_at(ld, node, "%s needs a value", key);
		return -1;
	}
	switch (e->key) {
	case SCN_KEY_STDIO_MODE:
		if (scenario_name(ld, node, p, scn_bufmodes, "stdio.mode", &v) != 0)
			return -1;
		e->num = v;
		break;
	case SCN_KEY_RESULT_ERRNO:
		if (strcmp(p, "0") == 0) {
			e->num = 0;
		} else if (isdigit((unsigned char)*p) || *p == '-') {
			scenario_at(ld, node, "result.errno takes 0 or an errno name such as EINVAL, not '%s'", p);
			return -1;
		} else if ((v = scenario_errno_value(p)) < 0) {
			scenario_at(ld, node, "unknown errno name '%s' (EINVAL, EBADF, ENOSPC, ...)", p);
			return -1;
		} else {
			e->num = v;
		}
		break;
	default: {
		bool neg = false;
		if (*p == '-') {
			if (e->key != SCN_KEY_RESULT_VALUE) {
				scenario_at(ld, node, "%s cannot be negative ('%s')", key, s);
				return -1;
			}
			neg = true;
			p++;
		}
		rc = units_parse_size(p, &u);
		if (rc == 0 && u > (uint64_t)INT64_MAX)
			rc = -2;
		if (rc == -2) {
			scenario_at(ld, node, "%s value '%s' is too large", key, s);
			return -1;
		}
		if (rc != 0) {
			scenario_at(ld, node, "%s takes a number (units allowed: 4KiB) or a comparison like "
			      "'>= 1', not '%s'", key, s);
			return -1;
		}
		e->num = neg ? -(int64_t)u : (int64_t)u;
		break;
	}
	}
	if ((e->key == SCN_KEY_STDIO_MODE || e->key == SCN_KEY_RESULT_ERRNO) &&
	    e->cmp != SCN_CMP_EQ && e->cmp != SCN_CMP_NE) {
		scenario_at(ld, node, "%s compares only with = or !=, not '%s'", key, s);
		return -1;
	}
	return 0;
}

/* Parse the expect mapping of a step, in the order written. */
static void
scenario_expects(struct ld *ld, struct scn_step *st, const struct raw_expect *re,
	   const struct yamlpos_node *en, size_t stepno)
{
	if (re == NULL || en == NULL || en->kind != YAMLPOS_MAP || en->n_children == 0)
		return;
	st->expects = calloc(en->n_children, sizeof *st->expects);
	if (st->expects == NULL) {
		ld->oom = true;
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, en); c != NULL; c = yamlpos_next(ld->ix, c)) {
		int k;
		for (k = 0; k < SCN_KEY__COUNT; k++)
			if (strcmp(c->key, scn_keys[k]) == 0)
				break;
		if (k == SCN_KEY__COUNT) /* libcyaml has refused unknown keys already */
			continue;
		const char *val = re->v[k] != NULL ? re->v[k] : (c->value ? c->value : "");
		struct scn_expect *e = &st->expects[st->n_expects++];
		e->key = (enum scn_key)k;
		e->source = scenario_strdup(ld, val);
		e->line = c->line;
		e->col = c->col;
		if (scenario_expect_value(ld, c, val, e) != 0)
			continue;
		if (e->key == SCN_KEY_OUTPUT && st->op != SCN_OP_PTY && st->op != SCN_OP_TAIL)
			scenario_at_key(ld, c, "output is expected of pty and tail steps, not of %s (step %zu)",
			       scn_ops[st->op].name, stepno);
		else if (e->key == SCN_KEY_OUTPUT_FILE && st->op != SCN_OP_PTY)
			scenario_at_key(ld, c, "output.file is expected of pty steps, not of %s (step %zu)",
			       scn_ops[st->op].name, stepno);
	}
}

/* O_DIRECT rules: a misaligned transfer is an error unless the step expects EINVAL. */
static void
scenario_direct(struct ld *ld, const struct scn_step *st, const struct yamlpos_node *an)
{
	const struct scn_args *a = &st->args;

	switch (st->op) {
	case SCN_OP_OPEN:
		ld->direct = (a->flags & O_DIRECT) != 0;
		return;
	case SCN_OP_FOPEN: case SCN_OP_CLOSE: case SCN_OP_FCLOSE:
		ld->direct = false;
		return;
	case SCN_OP_READ: case SCN_OP_WRITE: case SCN_OP_PREAD: case SCN_OP_PWRITE:
		break;
	default:
		return;
	}
	/* tmpfs accepts any O_DIRECT transfer: that is itself a lesson (13-1c). */
	if (!ld->direct || ld->tmpfs)
		return;
	for (size_t i = 0; i < st->n_expects; i++)
		if (st->expects[i].key == SCN_KEY_RESULT_ERRNO && st->expects[i].cmp == SCN_CMP_EQ &&
		    st->expects[i].num == EINVAL)
			return;
	if ((a->has & SCN_HAS_BYTES) && a->bytes % SCN_DIO_ALIGN != 0)
		scenario_at(ld, yamlpos_get(ld->ix, an, "bytes"),
		      "O_DIRECT transfer of %" PRIu64 " bytes is not a multiple of %d "
		      "(expect result.errno: EINVAL to show the failure)", a->bytes, SCN_DIO_ALIGN);
	if ((a->has & SCN_HAS_OFFSET) && a->offset % SCN_DIO_ALIGN != 0)
		scenario_at(ld, yamlpos_get(ld->ix, an, "offset"),
		      "O_DIRECT offset %" PRId64 " is not a multiple of %d "
		      "(expect result.errno: EINVAL to show the failure)", a->offset, SCN_DIO_ALIGN);
	if ((a->has & SCN_HAS_ALIGN) && a->align != 0)
		scenario_at(ld, yamlpos_get(ld->ix, an, "align"),
		      "O_DIRECT buffer misaligned by %u byte%s "
		      "(expect result.errno: EINVAL to show the failure)", a->align,
		      a->align == 1 ? "" : "s");
}

/* ---- Sweeps. ---- */

/* Parse one reference (a book's figures). */
static void
scenario_reference(struct ld *ld, struct scn_reference *r, const struct raw_ref *rr,
	     const struct yamlpos_node *rn, const struct scn_sweep *sw)
{
	const struct yamlpos_node *rows = yamlpos_get(ld->ix, rn, "rows");
	const struct yamlpos_node *c;

	if (rr->label == NULL || *rr->label == '\0')
		scenario_at(ld, yamlpos_get(ld->ix, rn, "label") ? yamlpos_get(ld->ix, rn, "label") : rn,
		      "a sweep reference needs a label (e.g. \"TLPI 2010\")");
	r->label = scenario_strdup(ld, rr->label);
	r->source = scenario_strdup(ld, rr->source);
	r->variant = scenario_strdup(ld, rr->variant);
	if (rr->variant != NULL) {
		size_t i;
		for (i = 0; i < sw->n_variants; i++)
			if (sw->variants[i].name != NULL && strcmp(sw->variants[i].name, rr->variant) == 0)
				break;
		if (i == sw->n_variants)
			scenario_at(ld, yamlpos_get(ld->ix, rn, "variant"),
			      "reference variant '%s' is not a variant of this sweep", rr->variant);
	}
	if (rr->total != NULL)
		scenario_size(ld, yamlpos_get(ld->ix, rn, "total"), rr->total, "total", SZ_ZERO_OK,
			&r->total_bytes);
	if (rr->rows_count == 0)
		return;
	r->rows = calloc(rr->rows_count, sizeof *r->rows);
	if (r->rows == NULL) {
		ld->oom = true;
		return;
	}
	r->n_rows = rr->rows_count;
	c = yamlpos_first(ld->ix, rows);
	for (unsigned i = 0; i < rr->rows_count; i++, c = yamlpos_next(ld->ix, c)) {
		const struct raw_row *w = &rr->rows[i];
		struct scn_ref_row *row = &r->rows[i];
		row->elapsed = row->user = row->system = -1;
		if (w->buf_size == NULL)
			scenario_at(ld, c, "a reference row needs buf_size");
		else
			scenario_size(ld, yamlpos_get(ld->ix, c, "buf_size"), w->buf_size, "buf_size", 0,
				&row->buf_size);
		if (w->elapsed != NULL)
			scenario_real(ld, yamlpos_get(ld->ix, c, "elapsed"), w->elapsed, "elapsed", 0, 1e9,
				&row->elapsed);
		if (w->user != NULL)
			scenario_real(ld, yamlpos_get(ld->ix, c, "user"), w->user, "user", 0, 1e9, &row->user);
		if (w->system != NULL)
			scenario_real(ld, yamlpos_get(ld->ix, c, "system"), w->system, "system", 0, 1e9,
				&row->system);
	}
}

/* Parse a sweep step. */
static void
scenario_sweep(struct ld *ld, struct scn_step *st, const struct raw_sweep *rs,
	 const struct yamlpos_node *sn, size_t stepno)
{
	struct scn_sweep *sw = calloc(1, sizeof *sw);
	const struct yamlpos_node *c;
	char list[256];
	uint64_t u;
	int v;

	if (sw == NULL) {
		ld->oom = true;
		return;
	}
	st->sweep = sw;
	sw->repeat = 5;
	sw->warmup = 1;
	if (rs == NULL) {
		scenario_at_key(ld, sn, "sweep in step %zu needs program, buffer_sizes and file_size", stepno);
		return;
	}
#define NODE(k) (yamlpos_get(ld->ix, sn, k) ? yamlpos_get(ld->ix, sn, k) : sn)
	if (rs->program == NULL)
		scenario_at(ld, sn, "sweep in step %zu needs program (one of: %s)", stepno,
		      scenario_name_list(scn_programs, list, sizeof list));
	else if (scenario_name(ld, NODE("program"), rs->program, scn_programs, "sweep program", &v) == 0)
		sw->program = (enum scn_program)v;
	sw->title = scenario_strdup(ld, rs->title != NULL ? rs->title : rs->program);
	if (rs->buffer_sizes == NULL && yamlpos_get(ld->ix, sn, "buffer_sizes") == NULL) {
		scenario_at(ld, sn, "sweep in step %zu needs buffer_sizes (a list of sizes)", stepno);
	} else if (rs->buffer_sizes_count == 0) {
		scenario_at(ld, NODE("buffer_sizes"), "sweep buffer_sizes is empty: list at least one size");
	} else {
		sw->buffer_sizes = calloc(rs->buffer_sizes_count, sizeof *sw->buffer_sizes);
		if (sw->buffer_sizes == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_buffer_sizes = rs->buffer_sizes_count;
		c = yamlpos_first(ld->ix, yamlpos_get(ld->ix, sn, "buffer_sizes"));
		for (unsigned i = 0; i < rs->buffer_sizes_count; i++, c = yamlpos_next(ld->ix, c))
			scenario_size(ld, c ? c : sn, rs->buffer_sizes[i], "buffer size", SZ_BOUNDED,
				&sw->buffer_sizes[i]);
	}
	if (rs->file_size == NULL)
		scenario_at(ld, sn, "sweep in step %zu needs file_size (the total to transfer)", stepno);
	else
		scenario_size(ld, NODE("file_size"), rs->file_size, "file_size", SZ_BOUNDED, &sw->file_size);
	if (rs->repeat != NULL && scenario_count(ld, NODE("repeat"), rs->repeat, "repeat", 1, 1000, &u) == 0)
		sw->repeat = (unsigned)u;
	if (rs->warmup != NULL && scenario_count(ld, NODE("warmup"), rs->warmup, "warmup", 0, 1000, &u) == 0)
		sw->warmup = (unsigned)u;
	if (rs->cache != NULL && scenario_name(ld, NODE("cache"), rs->cache, scn_caches, "cache", &v) == 0)
		sw->cache = (enum scn_cache)v;
	if (rs->budget != NULL)
		scenario_real(ld, NODE("budget"), rs->budget, "budget", 0, SCN_MAX_WAIT, &sw->budget);

	/* Variants: at least the default one. */
	sw->n_variants = rs->variants_count ? rs->variants_count : 1;
	sw->variants = calloc(sw->n_variants, sizeof *sw->variants);
	if (sw->variants == NULL) {
		ld->oom = true;
		return;
	}
	if (rs->variants_count == 0)
		sw->variants[0].name = scenario_strdup(ld, "default");
	c = yamlpos_first(ld->ix, yamlpos_get(ld->ix, sn, "variants"));
	for (unsigned i = 0; i < rs->variants_count; i++, c = yamlpos_next(ld->ix, c)) {
		const struct raw_variant *rv = &rs->variants[i];
		struct scn_variant *var = &sw->variants[i];
		const struct yamlpos_node *vn = c ? c : sn;
		if (rv->name == NULL || *rv->name == '\0') {
			scenario_at(ld, vn, "a sweep variant needs a name");
		} else {
			for (unsigned j = 0; j < i; j++)
				if (rs->variants[j].name && strcmp(rs->variants[j].name, rv->name) == 0)
					scenario_at(ld, yamlpos_get(ld->ix, vn, "name"),
					      "two sweep variants are named '%s'", rv->name);
		}
		var->name = scenario_strdup(ld, rv->name);
		if (rv->flags_count > 0)
			scenario_flags(ld, yamlpos_get(ld->ix, vn, "flags"), rv->flags, rv->flags_count,
				 scn_variant_flags, "variant flag", &var->flags);
		if (rv->sync_each != NULL &&
		    scenario_name(ld, yamlpos_get(ld->ix, vn, "sync_each"), rv->sync_each, scn_sync_eachs,
			    "sync_each", &v) == 0)
			var->sync_each = (enum scn_sync_each)v;
		if (rv->on != NULL &&
		    scenario_name(ld, yamlpos_get(ld->ix, vn, "on"), rv->on, scn_fss, "filesystem", &v) == 0)
			var->on = (enum scn_fs)v;
	}

	if (rs->reference_count > 0) {
		sw->references = calloc(rs->reference_count, sizeof *sw->references);
		if (sw->references == NULL) {
			ld->oom = true;
			return;
		}
		sw->n_references = rs->reference_count;
		c = yamlpos_first(ld->ix, yamlpos_get(ld->ix, sn, "reference"));
		for (unsigned i = 0; i < rs->reference_count; i++, c = yamlpos_next(ld->ix, c))
			scenario_reference(ld, &sw->references[i], &rs->reference[i], c ? c : sn, sw);
	}
#undef NODE
}

/* ---- Steps and the whole scenario. ---- */

/* Parse one step (STEPNO is 1-based, for messages). */
static void
scenario_step(struct ld *ld, struct scn_step *st, const struct raw_step *rs,
	const struct yamlpos_node *sn, size_t stepno)
{
	const struct yamlpos_node *opnode = NULL;
	int op = -1;

	st->line = sn->line;
	st->col = sn->col;
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, sn); c != NULL; c = yamlpos_next(ld->ix, c)) {
		int k;
		for (k = 0; k < SCN_OP__COUNT; k++)
			if (strcmp(c->key, scn_ops[k].name) == 0)
				break;
		if (k == SCN_OP__COUNT)
			continue;
		if (op >= 0) {
			scenario_at_key(ld, c, "step %zu has two ops, '%s' and '%s': write one op per step",
			       stepno, scn_ops[op].name, c->key);
			return;
		}
		op = k;
		opnode = c;
	}
	if (op < 0) {
		scenario_at(ld, sn, "step %zu has no op (say and expect go with an op; for narration "
		      "alone write note: \"...\")", stepno);
		return;
	}
	st->op = (enum scn_op)op;
	st->say = scenario_strdup(ld, rs->say);
	if (st->op == SCN_OP_NOTE) {
		if (rs->note == NULL || *rs->note == '\0') {
			scenario_at_key(ld, opnode, "note in step %zu needs text", stepno);
		} else {
			st->args.text = scenario_strdup(ld, rs->note);
			st->args.has |= SCN_HAS_TEXT;
			if (st->say == NULL)
				st->say = scenario_strdup(ld, rs->note);
		}
	} else if (st->op == SCN_OP_SWEEP) {
		scenario_sweep(ld, st, rs->sweep, opnode, stepno);
	} else {
		scenario_args(ld, st, rs->op[op], opnode, stepno);
	}
	scenario_expects(ld, st, rs->expect, yamlpos_get(ld->ix, sn, "expect"), stepno);
	scenario_direct(ld, st, opnode);
}

/* Convert the raw scenario into S, reporting every mistake. */
static void
scenario_convert(struct ld *ld, struct scenario *s, const struct raw_scenario *raw,
	    const struct yamlpos_node *root)
{
	const struct yamlpos_node *n;
	int v;

	n = yamlpos_get(ld->ix, root, "title");
	if (raw->title == NULL || *raw->title == '\0' || scenario_is_null(n))
		scenario_at(ld, n ? n : root, "the scenario needs a title (title: \"...\")");
	s->title = scenario_strdup(ld, raw->title);
	s->source = scenario_strdup(ld, raw->source);
	s->intro = scenario_strdup(ld, raw->intro);
	if (raw->file != NULL) {
		const struct yamlpos_node *fn = yamlpos_get(ld->ix, root, "file");
		if (raw->file->size != NULL)
			scenario_size(ld, yamlpos_get(ld->ix, fn, "size"), raw->file->size, "file size",
				SZ_ZERO_OK | SZ_BOUNDED, &s->file.size);
		if (raw->file->on != NULL &&
		    scenario_name(ld, yamlpos_get(ld->ix, fn, "on"), raw->file->on, scn_fss, "filesystem", &v) == 0)
			s->file.on = (enum scn_fs)v;
		if (raw->file->fill != NULL &&
		    scenario_name(ld, yamlpos_get(ld->ix, fn, "fill"), raw->file->fill, scn_fills, "fill", &v) == 0)
			s->file.fill = (enum scn_fill)v;
	}
	ld->tmpfs = s->file.on == SCN_FS_TMPFS;

	n = yamlpos_get(ld->ix, root, "steps");
	if (n == NULL) {
		scenario_at(ld, root, "the scenario needs steps (steps: followed by a list of ops)");
		return;
	}
	if (raw->steps_count == 0 || n->kind != YAMLPOS_SEQ) {
		scenario_at(ld, n, "steps is empty: a scenario needs at least one step");
		return;
	}
	s->steps = calloc(raw->steps_count, sizeof *s->steps);
	if (s->steps == NULL) {
		ld->oom = true;
		return;
	}
	s->n_steps = raw->steps_count;
	const struct yamlpos_node *c = yamlpos_first(ld->ix, n);
	for (size_t i = 0; i < s->n_steps && c != NULL; i++, c = yamlpos_next(ld->ix, c))
		scenario_step(ld, &s->steps[i], &raw->steps[i], c, i + 1);
}

/* ---- libcyaml's log: kept, then turned into our messages. ---- */

/* libcyaml's log lines of one load. */
struct cy_log {
	char *buf;
	size_t len, cap;
};

/* libcyaml log callback: append the message to the context's buffer. */
static void
scenario_cyaml_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct cy_log *log = ctx;
	char line[1024];
	size_t n;

	if (level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof line, fmt, args);
	n = strlen(line);
	if (log->len + n + 1 > log->cap) {
		size_t cap = (log->cap + n + 1) * 2;
		char *p = realloc(log->buf, cap);
		if (p == NULL)
			return;
		log->buf = p;
		log->cap = cap;
	}
	memcpy(log->buf + log->len, line, n + 1);
	log->len += n;
}

/* One step of libcyaml's backtrace: a mapping field or a sequence entry. */
struct cy_frame {
	char field[128];     /* empty for a sequence entry */
	unsigned entry;      /* 1-based sequence entry */
	int line, col;
};

#define CY_MAX_FRAMES 32

/* What a path of frames is, for messages: "fwrite in step 3", "step 3", "file"... */
static void
scenario_describe(const struct cy_frame *f, int n, char *buf, size_t len, int *step, int *op,
	     const char **area)
{
	*step = -1;
	*op = -1;
	*area = "top";
	if (n >= 1 && strcmp(f[0].field, "file") == 0)
		*area = "file";
	if (n >= 2 && strcmp(f[0].field, "steps") == 0 && f[1].field[0] == '\0') {
		*step = (int)f[1].entry;
		*area = "step";
	}
	if (*step > 0 && n >= 3) {
		for (int k = 0; k < SCN_OP__COUNT; k++)
			if (strcmp(f[2].field, scn_ops[k].name) == 0)
				*op = k;
		if (*op >= 0)
			*area = "op";
		else if (strcmp(f[2].field, "expect") == 0)
			*area = "expect";
		if (*op == SCN_OP_SWEEP && n >= 5 && strcmp(f[3].field, "variants") == 0)
			*area = "variant";
		else if (*op == SCN_OP_SWEEP && n >= 5 && strcmp(f[3].field, "reference") == 0)
			*area = n >= 7 && strcmp(f[5].field, "rows") == 0 ? "row" : "reference";
	}
	buf[0] = '\0';
	if (n > 0) {
		const struct cy_frame *last = &f[n - 1];
		if (last->field[0] != '\0')
			snprintf(buf, len, "'%s'", last->field);
		else if (n >= 2)
			snprintf(buf, len, "entry %u of '%s'", last->entry, f[n - 2].field);
	}
}

/* Kind of YAML event named by libcyaml, as people say it. */
static const char *
scenario_event_words(const char *ev)
{
	if (strncmp(ev, "SCALAR", 6) == 0)
		return "a single value";
	if (strncmp(ev, "SEQUENCE", 8) == 0)
		return "a list";
	if (strncmp(ev, "MAPPING", 7) == 0)
		return "a mapping";
	return ev;
}

/* Turn libcyaml's log of a failed load into "PATH:LINE:COL: message". */
static void
scenario_cyaml_report(struct ld *ld, const struct cy_log *log, cyaml_err_t cerr)
{
	struct cy_frame fr[CY_MAX_FRAMES];
	int nfr = 0, line = 1, col = 1;
	char msg[640] = "";
	const char *p = log->buf ? log->buf : "";

	/* Lines: "Load: MESSAGE", "Load: Backtrace:", "  in mapping field 'x' (line: L, column: C)". */
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		char l[600];
		snprintf(l, sizeof l, "%.*s", (int)(n < sizeof l - 1 ? n : sizeof l - 1), p);
		p += n + (eol != NULL);
		char *in = strstr(l, "in mapping field '");
		char *seq = strstr(l, "in sequence entry '");
		char *pos = strstr(l, "(line: ");
		if (in != NULL || seq != NULL) {
			if (nfr == CY_MAX_FRAMES)
				continue;
			struct cy_frame *f = &fr[nfr++];
			memset(f, 0, sizeof *f);
			if (in != NULL) {
				in += strlen("in mapping field '");
				char *q = strrchr(in, '\'');
				if (q != NULL && q > in)
					snprintf(f->field, sizeof f->field, "%.*s", (int)(q - in), in);
			} else {
				f->entry = (unsigned)strtoul(seq + strlen("in sequence entry '"), NULL, 10);
			}
			if (pos != NULL)
				sscanf(pos, "(line: %d, column: %d)", &f->line, &f->col);
		} else if (strncmp(l, "Load: ", 6) == 0 && strstr(l, "Backtrace:") == NULL &&
			   msg[0] == '\0') {
			snprintf(msg, sizeof msg, "%s", l + 6);
		}
	}
	/* The backtrace is innermost first: reverse it to walk down from the root. */
	for (int i = 0; i < nfr / 2; i++) {
		struct cy_frame t = fr[i];
		fr[i] = fr[nfr - 1 - i];
		fr[nfr - 1 - i] = t;
	}
	if (nfr > 0 && fr[nfr - 1].line > 0) {
		line = fr[nfr - 1].line;
		col = fr[nfr - 1].col;
	}
	const struct yamlpos_node *node = yamlpos_node(ld->ix, 0);
	for (int i = 0; i < nfr && node != NULL; i++) {
		const struct yamlpos_node *next = fr[i].field[0] != '\0'
			? yamlpos_get(ld->ix, node, fr[i].field)
			: (fr[i].entry > 0 ? yamlpos_at(ld->ix, node, fr[i].entry - 1) : NULL);
		if (next == NULL)
			break;
		node = next;
	}
	if (node != NULL) {
		line = node->line;
		col = node->col;
	}

	char what[200], takes[256];
	int step, op;
	const char *area;
	scenario_describe(fr, nfr, what, sizeof what, &step, &op, &area);

	if (strncmp(msg, "Unexpected key: ", 16) == 0) {
		const char *key = msg + 16;
		const struct yamlpos_node *kn = yamlpos_get(ld->ix, node, key);
		if (kn != NULL) {
			line = kn->key_line;
			col = kn->key_col;
		}
		if (strcmp(area, "op") == 0 && op != SCN_OP_SWEEP) {
			const cyaml_schema_field_t *fl = scn_ops[op].fields;
			if (fl[0].key == NULL)
				scenario_error(ld, line, col, "unknown argument '%s' for %s in step %d "
					 "(%s takes no arguments)", key, scn_ops[op].name, step,
					 scn_ops[op].name);
			else
				scenario_error(ld, line, col, "unknown argument '%s' for %s in step %d "
					 "(%s takes: %s)", key, scn_ops[op].name, step,
					 scn_ops[op].name, scenario_field_list(fl, takes, sizeof takes));
		} else if (strcmp(area, "op") == 0) {
			scenario_error(ld, line, col, "unknown key '%s' in sweep in step %d (sweep takes: %s)",
				 key, step, scenario_field_list(f_sweep, takes, sizeof takes));
		} else if (strcmp(area, "variant") == 0) {
			scenario_error(ld, line, col, "unknown key '%s' in a sweep variant (a variant takes: %s)",
				 key, scenario_field_list(f_variant, takes, sizeof takes));
		} else if (strcmp(area, "reference") == 0) {
			scenario_error(ld, line, col, "unknown key '%s' in a sweep reference (a reference "
				 "takes: %s)", key, scenario_field_list(f_ref, takes, sizeof takes));
		} else if (strcmp(area, "row") == 0) {
			scenario_error(ld, line, col, "unknown key '%s' in a reference row (a row takes: %s)",
				 key, scenario_field_list(f_row, takes, sizeof takes));
		} else if (strcmp(area, "expect") == 0) {
			const char *s = scenario_suggest(key, scn_keys, SCN_KEY__COUNT);
			if (s != NULL)
				scenario_error(ld, line, col, "unknown expectation key '%s' in step %d "
					 "(did you mean '%s'?)", key, step, s);
			else
				scenario_error(ld, line, col, "unknown expectation key '%s' in step %d "
					 "(see doc/scenarios.md for the list)", key, step);
		} else if (strcmp(area, "step") == 0 && nfr == 2) {
			const char *names[SCN_OP__COUNT];
			for (int k = 0; k < SCN_OP__COUNT; k++)
				names[k] = scn_ops[k].name;
			const char *s = scenario_suggest(key, names, SCN_OP__COUNT);
			bool is_arg = false;
			for (int k = 0; k < SCN_OP__COUNT && !is_arg; k++)
				for (const cyaml_schema_field_t *fl = scn_ops[k].fields;
				     fl != NULL && fl->key != NULL; fl++)
					if (strcmp(fl->key, key) == 0)
						is_arg = true;
			if (s != NULL)
				scenario_error(ld, line, col, "unknown op '%s' in step %d (did you mean '%s'?)",
					 key, step, s);
			else if (is_arg)
				scenario_error(ld, line, col, "unknown op '%s' in step %d (arguments go inside "
					 "the op: fwrite: {bytes: 5000})", key, step);
			else
				scenario_error(ld, line, col, "unknown op '%s' in step %d (see doc/scenarios.md "
					 "for the ops)", key, step);
		} else if (strcmp(area, "file") == 0) {
			scenario_error(ld, line, col, "unknown key '%s' in file (file takes: %s)", key,
				 scenario_field_list(f_file, takes, sizeof takes));
		} else if (nfr == 0) {
			scenario_error(ld, line, col, "unknown key '%s' at the top of the scenario (it takes: %s)",
				 key, scenario_field_list(f_top, takes, sizeof takes));
		} else {
			scenario_error(ld, line, col, "unknown key '%s' in %s", key, what);
		}
		return;
	}
	if (strncmp(msg, "Expecting ", 10) == 0) {
		char want[32] = "", got[32] = "";
		sscanf(msg, "Expecting %31[A-Z_], got event: %31[A-Z_]", want, got);
		const char *g = scenario_event_words(got);
		if (strcmp(area, "op") == 0 && nfr == 3 && strcmp(want, "MAPPING") == 0) {
			if (op == SCN_OP_SWEEP)
				scenario_error(ld, line, col, "sweep in step %d takes a mapping "
					 "({program: ..., buffer_sizes: [...]}), not %s", step, g);
			else if (scn_ops[op].fields[0].key == NULL)
				scenario_error(ld, line, col, "%s in step %d takes no arguments: write "
					 "%s: {} (not %s)", scn_ops[op].name, step, scn_ops[op].name, g);
			else
				scenario_error(ld, line, col, "%s in step %d takes its arguments as a mapping "
					 "({%s: ...}), not %s", scn_ops[op].name, step,
					 scn_ops[op].fields[0].key, g);
		} else if (strcmp(area, "step") == 0 && nfr == 2) {
			bool is_op = false;
			for (int k = 0; k < SCN_OP__COUNT && node != NULL && node->value != NULL; k++)
				is_op = is_op || strcmp(node->value, scn_ops[k].name) == 0;
			if (is_op)
				scenario_error(ld, line, col, "step %d is just '%s': write - %s: {} (an op "
					 "is a key)", step, node->value, node->value);
			else
				scenario_error(ld, line, col, "step %d must be a mapping (- op: {args}), not %s",
					 step, g);
		} else if (strcmp(area, "variant") == 0 && nfr == 5 && strcmp(want, "MAPPING") == 0) {
			scenario_error(ld, line, col, "variant %u of the sweep in step %d takes a mapping "
				       "({name: ..., flags: [...]}), not %s", fr[4].entry, step, g);
		} else if (strcmp(want, "MAPPING") == 0) {
			scenario_error(ld, line, col, "%s%s takes a mapping ({key: value}), not %s",
				 nfr ? what : "a scenario", nfr ? "" : "", g);
		} else if (strcmp(want, "SEQUENCE") == 0) {
			scenario_error(ld, line, col, "%s takes a list ([a, b]), not %s", what, g);
		} else if (strcmp(want, "STRING") == 0) {
			scenario_error(ld, line, col, "%s takes a single value, not %s", what, g);
		} else {
			scenario_error(ld, line, col, "%s: expected %s, got %s", what, want, g);
		}
		return;
	}
	if (msg[0] != '\0')
		scenario_error(ld, line, col, "%s (%s)", msg, cyaml_strerror(cerr));
	else
		scenario_error(ld, line, col, "%s", cyaml_strerror(cerr));
}

/* ---- Loading. ---- */

/* Read a whole regular file of at most SCN_MAX_FILE bytes. Report and return NULL on failure. */
static char *
scenario_read_file(struct ld *ld, const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		scenario_error(ld, 1, 1, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		scenario_error(ld, 1, 1, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		scenario_error(ld, 1, 1, "is a directory, not a scenario file");
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		scenario_error(ld, 1, 1, "not a regular file");
		close(fd);
		return NULL;
	}
	if (st.st_size > SCN_MAX_FILE) {
		scenario_error(ld, 1, 1, "too large for a scenario (%jd bytes; the limit is 1 MiB)",
			 (intmax_t)st.st_size);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		ld->oom = true;
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			scenario_error(ld, 1, 1, "cannot read: %s", strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Load and validate a scenario. */
int
scenario_load(const char *path, struct scenario **out, char **err)
{
	struct ld ld = { .path = path ? path : "(null)" };
	struct cy_log log = { 0 };
	cyaml_config_t cfg = {
		.log_fn = scenario_cyaml_log,
		.log_ctx = &log,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_NO_ALIAS,
	};
	struct raw_scenario *raw = NULL;
	struct scenario *s = NULL;
	struct yamlpos *ix = NULL;
	char *buf = NULL, msg[512];
	size_t len = 0;
	int line, col;

	if (out != NULL)
		*out = NULL;
	if (err != NULL)
		*err = NULL;
	if (path == NULL || out == NULL) {
		scenario_error(&ld, 1, 1, "no scenario file given");
		goto fail;
	}
	buf = scenario_read_file(&ld, path, &len);
	if (buf == NULL)
		goto fail;
	if (yamlpos_build(buf, len, &ix, &line, &col, msg, sizeof msg) != 0) {
		scenario_error(&ld, line, col, "%s", msg);
		goto fail;
	}
	ld.ix = ix;
	const struct yamlpos_node *root = yamlpos_node(ix, 0);
	if (root == NULL || (root->kind == YAMLPOS_SCALAR && root->is_null)) {
		scenario_error(&ld, 1, 1, "empty scenario: it needs a title and steps");
		goto fail;
	}
	if (root->kind != YAMLPOS_MAP) {
		scenario_at(&ld, root, "a scenario is a mapping (title: ..., steps: ...), not %s",
		      root->kind == YAMLPOS_SEQ ? "a list" : "a single value");
		goto fail;
	}
	cyaml_err_t cerr = cyaml_load_data((const uint8_t *)buf, len, &cfg, &v_top,
					   (cyaml_data_t **)&raw, NULL);
	if (cerr != CYAML_OK) {
		scenario_cyaml_report(&ld, &log, cerr);
		goto fail;
	}
	if (raw == NULL) {
		scenario_error(&ld, 1, 1, "empty scenario: it needs a title and steps");
		goto fail;
	}
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		ld.oom = true;
		goto fail;
	}
	s->path = scenario_strdup(&ld, path);
	scenario_convert(&ld, s, raw, root);
	cyaml_free(&cfg, &v_top, raw, 0);
	raw = NULL;
	if (ld.n_err > 0 || ld.oom)
		goto fail;
	yamlpos_free(ix);
	free(buf);
	free(log.buf);
	*out = s;
	return 0;

fail:
	if (raw != NULL)
		cyaml_free(&cfg, &v_top, raw, 0);
	if (ld.oom && ld.err_len == 0) {
		free(ld.err);
		ld.err = NULL;
		ld.err_len = 0;
	}
	scenario_free(s);
	yamlpos_free(ix);
	free(buf);
	free(log.buf);
	if (err != NULL)
		*err = ld.err;
	else
		free(ld.err);
	return -1;
}

/* Free one step's owned data. */
static void
scenario_step_free(struct scn_step *st)
{
	free(st->args.text);
	free(st->args.text2);
	free(st->say);
	for (size_t i = 0; i < st->n_expects; i++) {
		free(st->expects[i].str);
		free(st->expects[i].source);
	}
	free(st->expects);
	if (st->sweep != NULL) {
		struct scn_sweep *sw = st->sweep;
		free(sw->title);
		free(sw->buffer_sizes);
		for (size_t i = 0; i < sw->n_variants; i++)
			free(sw->variants[i].name);
		free(sw->variants);
		for (size_t i = 0; i < sw->n_references; i++) {
			free(sw->references[i].label);
			free(sw->references[i].source);
			free(sw->references[i].variant);
			free(sw->references[i].rows);
		}
		free(sw->references);
		free(sw);
	}
}

/* Free a scenario. */
void
scenario_free(struct scenario *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n_steps; i++)
		scenario_step_free(&s->steps[i]);
	free(s->steps);
	free(s->path);
	free(s->title);
	free(s->source);
	free(s->intro);
	free(s);
}
