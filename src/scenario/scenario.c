/* SPDX-License-Identifier: MIT */
/* scenario/scenario.c: questions about a loaded scenario's ops, keys and arguments, answered from
 * the op and key tables (names, kinds, which key applies to which op, the O_DIRECT rule). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

/* Name of an op as written in YAML. */
const char *
scenario_op_name(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return "?";
	return scn_op_table[op].name;
}

/* The op named NAME in YAML, or -1. */
int
scenario_op_find(const char *name)
{
	for (int k = 0; k < SCN_OP__COUNT; k++)
		if (strcmp(name, scn_op_table[k].name) == 0)
			return k;
	return -1;
}

/* The expectation key named NAME in YAML, or -1. */
int
scenario_key_find(const char *name)
{
	for (int k = 0; k < SCN_KEY__COUNT; k++)
		if (strcmp(name, scn_key_table[k].name) == 0)
			return k;
	return -1;
}

/* Name of an expectation key as written in YAML. */
const char *
scenario_key_name(enum scn_key key)
{
	if ((unsigned)key >= SCN_KEY__COUNT)
		return "?";
	return scn_key_table[key].name;
}

/* What key counts (scenario.h). */
int
scenario_key_counts(int key)
{
	static const enum scn_key bytes[] = {
		SCN_KEY_STDIO_PENDING, SCN_KEY_STDIO_SIZE, SCN_KEY_BYTES_WRITTEN, SCN_KEY_BYTES_READ,
		SCN_KEY_DISK_ALLOCATED_BYTES, SCN_KEY_DISK_DELALLOC_BYTES,
		SCN_KEY_DISK_UNWRITTEN_BYTES, SCN_KEY_DISK_INLINE_BYTES, SCN_KEY_DEVICE_WRITE_BYTES,
		SCN_KEY_FILE_SIZE, SCN_KEY_CRASH_PROCESS_SIZE, SCN_KEY_CRASH_POWER_SIZE,
		SCN_KEY_RESULT_VALUE,
	};
	static const enum scn_key pages[] = {
		SCN_KEY_CACHE_PAGES, SCN_KEY_CACHE_DIRTY_PAGES, SCN_KEY_CACHE_WRITEBACK_PAGES,
		SCN_KEY_CACHE_CLEANED_PAGES, SCN_KEY_CACHE_DIRTY_BEFORE,
	};
	static const enum scn_key calls[] = {
		SCN_KEY_CALLS_WRITE, SCN_KEY_CALLS_READ, SCN_KEY_CALLS_TOTAL,
	};

	if (key < 0 || key >= SCN_KEY__COUNT)
		return -1;
	for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
		if ((int)bytes[i] == key)
			return SCN_COUNT_BYTES;
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
		if ((int)pages[i] == key)
			return SCN_COUNT_PAGES;
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if ((int)calls[i] == key)
			return SCN_COUNT_CALLS;
	return scn_key_table[key].type == SCN_KT_NUMBER || scn_key_table[key].type == SCN_KT_SIGNED ?
	       SCN_COUNT_ANY : -1;
}

/* True if the op acts through the FILE*. */
bool
scenario_op_is_stdio(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return false;
	return scn_op_table[op].io == SCN_IO_STDIO;
}

/* True if the traced worker runs op, or (wait) looks at its stdio again after it. */
bool
scenario_op_in_worker(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return false;
	return scn_op_table[op].runs == SCN_RUNS_WORKER || scn_op_table[op].runs == SCN_RUNS_RUNNER_WAIT;
}

/* True if op is any of flags. */
bool
scenario_op_has(enum scn_op op, unsigned flags)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return false;
	return (scn_op_table[op].flags & flags) != 0;
}

/* True if key may be expected of a step doing op. */
bool
scenario_key_applies(enum scn_key key, enum scn_op op)
{
	const enum scn_op *o = scn_key_table[key].only;

	if (o == NULL)
		return true;
	for (; *o != SCN_OP__COUNT; o++)
		if (*o == op)
			return true;
	return false;
}

/* Which of a transfer's sizes, offset and buffer skew break O_DIRECT's alignment rule. */
unsigned
scenario_dio_misfit(const struct scn_args *a, unsigned offset_align, unsigned mem_align)
{
	unsigned bad = 0;

	if ((a->has & SCN_HAS_BYTES) && offset_align > 0 && a->bytes % offset_align != 0)
		bad |= SCN_HAS_BYTES;
	if ((a->has & SCN_HAS_OFFSET) && offset_align > 0 && a->offset % offset_align != 0)
		bad |= SCN_HAS_OFFSET;
	if ((a->has & SCN_HAS_ALIGN) && mem_align > 0 && a->align % mem_align != 0)
		bad |= SCN_HAS_ALIGN;
	return bad;
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

bool
scenario_cmp_holds(enum scn_cmp cmp, int64_t got, int64_t want)
{
	switch (cmp) {
	case SCN_CMP_EQ: return got == want;
	case SCN_CMP_NE: return got != want;
	case SCN_CMP_LT: return got < want;
	case SCN_CMP_LE: return got <= want;
	case SCN_CMP_GT: return got > want;
	case SCN_CMP_GE: return got >= want;
	}
	return false;
}

/* True if no shell would read word otherwise than as it is (no quote needed). */
static bool
scenario_run_plain(const char *word)
{
	if (*word == '\0')
		return false;
	for (const unsigned char *p = (const unsigned char *)word; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("-_./:=,+@%{}", *p) != NULL))
			return false;
	return true;
}

/* Write word to f as a shell reads it: as it is, or in single quotes (a quote inside as
 * '"'"': no backslash, which an escaping writer would double). */
static void
scenario_run_word(const char *word, FILE *f)
{
	if (scenario_run_plain(word)) {
		fputs(word, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = word; *p != '\0'; p++)
		if (*p == '\'')
			fputs("'\"'\"'", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

/* Run step st's command line as a shell would read it, not escaped (see scenario/scenario.h). */
char *
scenario_run_command(const struct scn_step *st)
{
	const struct scn_args *a = &st->args;
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);

	if (f == NULL)
		return NULL;
	scenario_run_word(a->program != NULL ? a->program : "", f);
	for (size_t i = 0; i < a->n_argv; i++) {
		fputc(' ', f);
		scenario_run_word(a->argv[i], f);
	}
	if (a->stdin_path != NULL) {
		fputs(" < ", f);
		scenario_run_word(a->stdin_path, f);
	}
	if (fclose(f) != 0) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

/* True if st is a run step. */
bool
scenario_step_runs(const struct scn_step *st)
{
	return (unsigned)st->op < SCN_OP__COUNT &&
	       scn_op_table[st->op].runs == SCN_RUNS_RUNNER_RUN;
}
