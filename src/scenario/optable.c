/* SPDX-License-Identifier: MIT */
/* scenario/optable.c: the op table and the key table, made from the lists in scenario/oplist.h:
 * what each op and key is, as data. Their functions are columns each layer takes for itself
 * (SCN_OP_RUN and the like), so no layer links to a table that links back to it. */
#include <config.h>

#include "scenario/scenario.h"

#define OPT(a) { SCN_ARG_##a, SCN_NEED_OPT },
#define REQ(a) { SCN_ARG_##a, SCN_NEED_REQ },
#define ONE(a) { SCN_ARG_##a, SCN_NEED_ONE },
#define SCN_OP_ROW(e, n, io_, runs_, form_, flags_, layer_, cname_, run_, check_, emit_, ...) \
	[SCN_OP_##e] = {							\
		.name = n,							\
		.io = SCN_IO_##io_,						\
		.runs = SCN_RUNS_##runs_,					\
		.form = SCN_FORM_##form_,					\
		.flags = flags_,						\
		.layer = SCN_LAYER_##layer_,					\
		.cname = cname_,						\
		.args = (const struct scn_arg_use[]){ __VA_ARGS__ { SCN_ARG_NONE, SCN_NEED_OPT } }, \
	},
const struct scn_op_entry scn_op_table[SCN_OP__COUNT] = {
	SCN_OP_LIST(SCN_OP_ROW)
};
#undef SCN_OP_ROW
#undef OPT
#undef REQ
#undef ONE

#define ANY NULL
#define ONLY(...) (const enum scn_op[]){ SCN_OP_ONLY_(__VA_ARGS__) SCN_OP__COUNT }
#define SCN_OP_ONLY_(...) SCN_OP_ONLY_N_(__VA_ARGS__, SCN_OP_ONLY_3_, SCN_OP_ONLY_2_, \
                                        SCN_OP_ONLY_1_)(__VA_ARGS__)
#define SCN_OP_ONLY_N_(a, b, c, f, ...) f
#define SCN_OP_ONLY_1_(a) SCN_OP_##a,
#define SCN_OP_ONLY_2_(a, b) SCN_OP_##a, SCN_OP_##b,
#define SCN_OP_ONLY_3_(a, b, c) SCN_OP_##a, SCN_OP_##b, SCN_OP_##c,
#define SCN_KEY_ROW(e, n, type_, only_, get_, q)	\
	[SCN_KEY_##e] = {				\
		.name = n,				\
		.type = SCN_KT_##type_,			\
		.only = only_,				\
		.question = q,				\
	},
const struct scn_key_entry scn_key_table[SCN_KEY__COUNT] = {
	SCN_KEY_LIST(SCN_KEY_ROW)
};
#undef SCN_KEY_ROW
