/* SPDX-License-Identifier: MIT */
/* scenario/scenario.c: questions about a loaded scenario's ops, keys and arguments, answered from
 * the op and key tables (names, kinds, which key applies to which op, the O_DIRECT rule). */
#include <config.h>

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

/* True if the op acts through the FILE*. */
bool
scenario_op_is_stdio(enum scn_op op)
{
	if ((unsigned)op >= SCN_OP__COUNT)
		return false;
	return scn_op_table[op].io == SCN_IO_STDIO;
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
