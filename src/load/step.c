/* SPDX-License-Identifier: MIT */
/* step/step.c: one step of a scenario: its op, arguments and expectations, checked. */
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"

/* Is a stdio mode ("r", "w+", "rb+", "wx", "re") one that fopen() accepts? */
static bool
load_step_fopen_mode_ok(const char *m)
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

/* True if op takes argument arg. */
static bool
load_step_takes(const struct scn_op_entry *op, enum scn_arg arg)
{
	for (const struct scn_arg_use *u = op->args; u->arg != SCN_ARG_NONE; u++)
		if (u->arg == arg)
			return true;
	return false;
}

/* Parse the arguments RA (libcyaml's; NULL: none) of one step (AN: the op's node; its value
 * may be null: "- fsync:"). */
static void
load_step_args(struct scn_load *ld, struct scn_step *st, const struct scn_raw_args *ra,
		   const struct yamlpos_node *an, size_t stepno)
{
	static const struct scn_raw_args none;
	const struct scn_op_entry *op = &scn_op_table[st->op];
	struct scn_args *a = &st->args;
	const struct yamlpos_node *n[SCN_ARG__COUNT] = { NULL };
	int v;

	/* Values from libcyaml; where each was written, from the tree, by key (the schema check
	 * let no other key through). */
	if (ra == NULL)
		ra = &none;
	for (const struct scn_arg_use *u = op->args; u->arg != SCN_ARG_NONE; u++)
		n[u->arg] = yamlpos_get(ld->ix, an, scn_arg_fields[u->arg].key);
#define NODE(k) (n[SCN_ARG_##k])
#define VAL(k) (ra->v[SCN_ARG_##k])
	a->whence = SEEK_SET;
	a->buffer = SCN_BUFFER_LIBRARY;
	if (VAL(BYTES) != NULL &&
	    load_value_size(ld, NODE(BYTES), VAL(BYTES), "bytes", SZ_BOUNDED, &a->bytes) == 0)
		a->has |= SCN_HAS_BYTES;
	if (VAL(OFFSET) != NULL &&
	    load_value_offset(ld, NODE(OFFSET), VAL(OFFSET), false, &a->offset) == 0)
		a->has |= SCN_HAS_OFFSET;
	if (VAL(SEEK_OFFSET) != NULL &&
	    load_value_offset(ld, NODE(SEEK_OFFSET), VAL(SEEK_OFFSET), true, &a->offset) == 0)
		a->has |= SCN_HAS_OFFSET;
	if (VAL(LEN) != NULL &&
	    load_value_size(ld, NODE(LEN), VAL(LEN), "len", SZ_ZERO_OK | SZ_BOUNDED, &a->len) == 0)
		a->has |= SCN_HAS_LEN;
	if (VAL(WHENCE) != NULL && load_value_name(ld, NODE(WHENCE), VAL(WHENCE), scn_whences,
					  "whence", &a->whence) == 0)
		a->has |= SCN_HAS_WHENCE;
	if (VAL(TEXT) != NULL) {
		a->text = load_value_strdup(ld, VAL(TEXT));
		a->has |= SCN_HAS_TEXT;
	}
	if (VAL(BUFMODE) != NULL &&
	    load_value_name(ld, NODE(BUFMODE), VAL(BUFMODE), scn_bufmodes, "setvbuf mode",
				&v) == 0) {
		a->bufmode = (enum scn_bufmode)v;
		a->has |= SCN_HAS_MODE;
	}
	if (VAL(MODE) != NULL) {
		if (!load_step_fopen_mode_ok(VAL(MODE))) {
			load_at(ld, NODE(MODE), "bad %s mode '%s' (use r, w, a, r+, w+ or a+, "
			      "optionally with b, e or x)", op->name, VAL(MODE));
		} else {
			snprintf(a->mode, sizeof a->mode, "%s", VAL(MODE));
			a->has |= SCN_HAS_MODE;
		}
	}
	if (VAL(SIZE) != NULL &&
	    load_value_size(ld, NODE(SIZE), VAL(SIZE), "buffer size", SZ_BOUNDED, &a->size) == 0)
		a->has |= SCN_HAS_SIZE;
	if (VAL(BUFFER) != NULL &&
	    load_value_name(ld, NODE(BUFFER), VAL(BUFFER), scn_buffers, "buffer", &v) == 0) {
		a->buffer = (enum scn_buffer)v;
		a->has |= SCN_HAS_BUFFER;
	}
	if (load_step_takes(op, SCN_ARG_SETBUF_BUFFER)) {
		/* setbuf's buffer decides its mode: none is unbuffered, a buffer full buffering. */
		a->bufmode = SCN_BUF_FULL;
		if (VAL(SETBUF_BUFFER) != NULL &&
		    load_value_name(ld, NODE(SETBUF_BUFFER), VAL(SETBUF_BUFFER),
					scn_setbuf_buffers, "setbuf buffer", &v) == 0) {
			a->has |= SCN_HAS_BUFFER;
			if (v < 0) {
				a->bufmode = SCN_BUF_NONE;
				a->has |= SCN_HAS_MODE;
			} else {
				a->buffer = (enum scn_buffer)v;
			}
		}
	}
	if (NODE(SFR_FLAGS) != NULL &&
	    load_value_flags(ld, NODE(SFR_FLAGS), &ra->list[SCN_ARG_SFR_FLAGS], scn_sfr_flags,
				 "sync_file_range flag", &a->flags) == 0)
		a->has |= SCN_HAS_FLAGS;
	if (NODE(FLAGS) != NULL) {
		unsigned acc = 0;
		const struct scn_raw_list *l = &ra->list[SCN_ARG_FLAGS];
		if (load_value_flags(ld, NODE(FLAGS), l, scn_open_flags, "open flag",
					 &a->flags) == 0)
			a->has |= SCN_HAS_FLAGS;
		for (unsigned i = 0; i < l->count; i++)
			acc += strcmp(l->items[i], "O_RDONLY") == 0 ||
			       strcmp(l->items[i], "O_WRONLY") == 0 || strcmp(l->items[i], "O_RDWR") == 0;
		if (acc > 1)
			load_at(ld, NODE(FLAGS), "open flags take only one of O_RDONLY, O_WRONLY, O_RDWR");
	}
	if (VAL(FCNTL_CMD) != NULL)
		load_value_name(ld, NODE(FCNTL_CMD), VAL(FCNTL_CMD), scn_fcntl_cmds, "fcntl cmd",
				    &a->cmd);
	if (VAL(CHILD) != NULL &&
	    load_value_name(ld, NODE(CHILD), VAL(CHILD), scn_child_ends, "fork child", &v) == 0)
		a->child_flushes = v != 0;
	if (VAL(ADVICE) != NULL && load_value_name(ld, NODE(ADVICE), VAL(ADVICE), scn_advices,
					  "posix_fadvise advice", &a->advice) == 0)
		a->has |= SCN_HAS_ADVICE;
	if (VAL(ALIGN) != NULL) {
		uint64_t al;
		if (load_value_count(ld, NODE(ALIGN), VAL(ALIGN), "align", 0, 4095, &al) == 0) {
			a->align = (unsigned)al;
			a->has |= SCN_HAS_ALIGN;
		}
	}
	if (VAL(SECONDS) != NULL &&
	    load_value_real(ld, NODE(SECONDS), VAL(SECONDS), "seconds", 0, SCN_MAX_WAIT,
				&a->seconds) == 0)
		a->has |= SCN_HAS_SECONDS;
	if (VAL(UNTIL) != NULL && load_value_name(ld, NODE(UNTIL), VAL(UNTIL), scn_untils, "until",
					 &v) == 0) {
		a->until_clean = true;
		a->has |= SCN_HAS_UNTIL;
	}
	if (VAL(TIMEOUT) != NULL &&
	    load_value_real(ld, NODE(TIMEOUT), VAL(TIMEOUT), "timeout", 0, SCN_MAX_WAIT,
				&a->timeout) == 0)
		a->has |= SCN_HAS_TIMEOUT;
	/* The one place wait's timeout is defaulted (none or 0: SCN_WAIT_TIMEOUT): the runner
	 * takes it as it is. */
	if (st->op == SCN_OP_WAIT && !(a->timeout > 0))
		a->timeout = SCN_WAIT_TIMEOUT;
	if (VAL(LINES) != NULL &&
	    load_value_count(ld, NODE(LINES), VAL(LINES), "lines", 1, 1000000, &a->lines) == 0)
		a->has |= SCN_HAS_LINES;
	if (VAL(BLOCK) != NULL &&
	    load_value_size(ld, NODE(BLOCK), VAL(BLOCK), "block", SZ_BOUNDED, &a->size) == 0)
		a->has |= SCN_HAS_SIZE;
	if (VAL(PRINTF) != NULL) {
		a->text = load_value_strdup(ld, VAL(PRINTF));
		a->has |= SCN_HAS_TEXT;
	}
	if (VAL(WRITE) != NULL)
		a->text2 = load_value_strdup(ld, VAL(WRITE));
	if (VAL(PROGRAM) != NULL)
		a->program = load_value_strdup(ld, VAL(PROGRAM));
	if (VAL(STDIN) != NULL)
		a->stdin_path = load_value_strdup(ld, VAL(STDIN));
	if (VAL(FILE) != NULL)
		a->file = load_value_strdup(ld, VAL(FILE));
	if (VAL(TO) != NULL)
		a->to = load_value_strdup(ld, VAL(TO));
	if (NODE(ARGS) != NULL && ra->list[SCN_ARG_ARGS].count > 0) {
		const struct scn_raw_list *l = &ra->list[SCN_ARG_ARGS];
		a->argv = calloc(l->count, sizeof *a->argv);
		for (unsigned i = 0; a->argv != NULL && i < l->count; i++)
			a->argv[a->n_argv++] = load_value_strdup(ld, l->items[i]);
	}
	if (VAL(BETWEEN) != NULL) {
		if (load_value_name(ld, NODE(BETWEEN), VAL(BETWEEN), scn_betweens, "between", &v) == 0)
			a->between = (enum scn_pty_between)v;
	}
#undef NODE
#undef VAL

	/* Required arguments: the first missing one, or none of the ONE arguments. */
	char ones[128] = "";
	bool one_given = false;
	for (const struct scn_arg_use *u = op->args; u->arg != SCN_ARG_NONE; u++) {
		if (u->need == SCN_NEED_REQ && n[u->arg] == NULL) {
			load_at_key(ld, an, "%s in step %zu needs %s", op->name, stepno,
					scn_arg_fields[u->arg].key);
			break;
		}
		if (u->need == SCN_NEED_ONE) {
			load_report_append(ones, sizeof ones, " or ", scn_arg_fields[u->arg].key);
			one_given = one_given || n[u->arg] != NULL;
		}
	}
	if (ones[0] != '\0' && !one_given)
		load_at_key(ld, an, "%s in step %zu needs %s", op->name, stepno, ones);
}

/* wait's rules: seconds or until, not both; timeout only with until. */
void
load_step_wait(struct scn_load *ld, const struct scn_step *st,
		   const struct yamlpos_node *opnode, size_t stepno)
{
	const struct yamlpos_node *tn = yamlpos_get(ld->ix, opnode, "timeout");
	const struct yamlpos_node *sn = yamlpos_get(ld->ix, opnode, "seconds");
	const struct yamlpos_node *un = yamlpos_get(ld->ix, opnode, "until");

	(void)st;
	if (sn != NULL && un != NULL)
		load_at_key(ld, opnode, "wait in step %zu takes seconds or until, not both", stepno);
	else if (sn == NULL && un == NULL)
		load_at_key(ld, opnode, "wait in step %zu needs seconds or until: clean", stepno);
	else if (tn != NULL && un == NULL)
		load_at(ld, tn, "timeout goes with until: clean, not with seconds");
}

/* write/pwrite's rule: bytes or text, not both. */
void
load_step_text(struct scn_load *ld, const struct scn_step *st,
		   const struct yamlpos_node *opnode, size_t stepno)
{
	const struct yamlpos_node *tn = yamlpos_get(ld->ix, opnode, "text");

	if (tn != NULL && yamlpos_get(ld->ix, opnode, "bytes") != NULL)
		load_at_key(ld, tn, "%s in step %zu takes bytes or text, not both",
				scn_op_table[st->op].name, stepno);
	else if (tn != NULL && (st->args.text == NULL || st->args.text[0] == '\0'))
		load_at(ld, tn, "%s in step %zu: text is empty (write at least one byte)",
			    scn_op_table[st->op].name, stepno);
}

/* fcntl's rule: F_SETFL needs flags, F_GETFL takes none. */
void
load_step_fcntl(struct scn_load *ld, const struct scn_step *st,
		    const struct yamlpos_node *opnode, size_t stepno)
{
	const struct yamlpos_node *fn = yamlpos_get(ld->ix, opnode, "flags");

	if (!(yamlpos_get(ld->ix, opnode, "cmd") != NULL))
		return;
	if (st->args.cmd == F_SETFL && fn == NULL)
		load_at_key(ld, opnode, "fcntl F_SETFL in step %zu needs flags", stepno);
	else if (st->args.cmd == F_GETFL && fn != NULL)
		load_at_key(ld, fn, "fcntl F_GETFL in step %zu takes no flags (it returns them)",
				stepno);
}

/* The handle (index + 1) of the name S so far, or 0. */
static unsigned
load_step_handle(const struct scn_load *ld, const char *s)
{
	for (size_t i = 0; i < ld->n_names; i++)
		if (strcmp(ld->names[i], s) == 0)
			return (unsigned)i + 1;
	return 0;
}

/* The step's as: and on: (a named fd/FILE* pair), checked against the names so far. */
static void
load_step_names(struct scn_load *ld, struct scn_step *st, const struct scn_raw_step *rs,
		    const struct yamlpos_node *sn, size_t stepno)
{
	const struct yamlpos_node *asn = yamlpos_get(ld->ix, sn, "as");
	const struct yamlpos_node *onn = yamlpos_get(ld->ix, sn, "on");
	const struct scn_op_entry *op = &scn_op_table[st->op];
	unsigned f = op->flags;
	char known[128] = "";

	for (size_t i = 0; i < ld->n_names; i++)
		load_report_append(known, sizeof known, ", ", ld->names[i]);
	if (onn != NULL && rs->on != NULL) {
		unsigned h = load_step_handle(ld, rs->on);
		unsigned has = h > 0 ? ld->name_has[h - 1] : 0;
		bool want_fd = (f & SCN_OPF_FD) != 0;
		if (f & SCN_OPF_PROCESS)
			load_at_key(ld, onn, "%s in step %zu acts on the whole program (every FILE*), "
					"not on one: leave out on:", op->name, stepno);
		else if (!(f & (SCN_OPF_FD | SCN_OPF_FP | SCN_OPF_NEW_FD | SCN_OPF_NEW_FP)))
			load_at_key(ld, onn, "on: names the fd or FILE* an op acts on; %s in step %zu "
					"acts on neither", op->name, stepno);
		else if (!(f & (SCN_OPF_FD | SCN_OPF_FP)))
			load_at_key(ld, onn, "%s in step %zu makes a new %s: name it with as:, not on:",
					op->name, stepno, (f & SCN_OPF_NEW_FD) ? "fd" : "FILE*");
		else if (h == 0 && known[0] == '\0')
			load_at(ld, onn, "unknown name '%s' in step %zu (no names yet: name an fd or "
				    "FILE* with as: on open, fopen or fdopen)", rs->on, stepno);
		else if (h == 0)
			load_at(ld, onn, "unknown name '%s' in step %zu (names so far: %s)", rs->on,
				    stepno, known);
		else if (!(has & (1u << (want_fd ? SCN_IO_FD : SCN_IO_STDIO))))
			load_at(ld, onn, "'%s' names %s, and %s in step %zu needs %s (%s)", rs->on,
				    (has & (1u << SCN_IO_FD)) ? "an fd" : "a FILE*", op->name, stepno,
				    want_fd ? "an fd" : "a FILE*",
				    want_fd ? "fileno it first" : "fdopen it first");
		else {
			st->handle = h;
			if (f & SCN_OPF_WRAPS)
				ld->name_has[h - 1] |= 1u << SCN_IO_FD | 1u << SCN_IO_STDIO;
		}
		if (st->handle == 0 || asn == NULL)
			st->name = load_value_strdup(ld, rs->on);
	}
	if (asn == NULL || rs->as == NULL)
		return;
	if (!(f & (SCN_OPF_NEW_FD | SCN_OPF_NEW_FP))) {
		load_at_key(ld, asn, "as: names what open, fopen or fdopen make, not %s (step %zu)",
				op->name, stepno);
	} else if (onn != NULL) {
		load_at_key(ld, onn, "%s in step %zu takes as: or on:, not both", op->name, stepno);
	} else if (rs->as[0] == '\0' || strlen(rs->as) > 15 || strspn(rs->as,
		   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(rs->as)) {
		load_at(ld, asn, "bad name '%s' in step %zu (letters, digits and _, at most 15)",
			    rs->as, stepno);
	} else if (load_step_handle(ld, rs->as) != 0) {
		load_at(ld, asn, "name '%s' is already taken (step %zu): as: names a new fd or "
			    "FILE*; to act on it again write on: %s", rs->as, stepno, rs->as);
	} else if (ld->n_names == SCN_MAX_NAMES) {
		load_at(ld, asn, "too many names in step %zu (at most %d)", stepno, SCN_MAX_NAMES);
	} else {
		ld->names[ld->n_names] = load_value_strdup(ld, rs->as);
		/* What the name holds: the fd it made or wrapped, the FILE* it made. */
		ld->name_has[ld->n_names] =
			((f & (SCN_OPF_NEW_FD | SCN_OPF_FD)) ? 1u << SCN_IO_FD : 0) |
			((f & SCN_OPF_NEW_FP) ? 1u << SCN_IO_STDIO : 0);
		ld->n_names++;
		st->handle = (unsigned)ld->n_names;
		st->made = true;
		/* fdopen as: wraps the unnamed fd (the worker copies it into the new pair). */
		free(st->name);
		st->name = load_value_strdup(ld, rs->as);
	}
}

/* fallocate's rule: at least one byte. */
void
load_step_fallocate(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *opnode, size_t stepno)
{
	(void)stepno;
	if ((st->args.has & SCN_HAS_LEN) && st->args.len == 0)
		load_at(ld, yamlpos_get(ld->ix, opnode, "len"),
			    "fallocate of 0 bytes does nothing: give len >= 1");
}

/* Longest name a step may give a file (file:, to:). */
#define SCN_FILE_NAME_MAX 64

/* One name of file: or to: (KEY) at node N, checked: a name in the scratch file's directory. */
static void
load_step_file_name(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *n, const char *key, const char *name,
			size_t stepno)
{
	const char *op = scn_op_table[st->op].name;
	bool opens = scenario_op_has(st->op, SCN_OPF_NEW_FD | SCN_OPF_NEW_FP);

	if (n == NULL || name == NULL)
		return;
	if (strcmp(name, ".") == 0) {
		if (!opens || strcmp(key, "file") != 0)
			load_at(ld, n, "%s in step %zu: '.' (the directory) can only be opened, "
				    "not given as %s", op, stepno, key);
		return;
	}
	if (name[0] == '\0' || strlen(name) > SCN_FILE_NAME_MAX || strcmp(name, "..") == 0 ||
	    name[0] == '-' || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789._-") != strlen(name))
		load_at(ld, n, "%s in step %zu: %s '%s' is not a file name of the scratch "
			    "directory (1 to %d letters, digits, '.', '-' or '_', no '/' and no "
			    "leading '-'; '.' opens the directory itself)", op, stepno, key, name,
			    SCN_FILE_NAME_MAX);
}

/* file: and to: name files of the scratch file's own directory (open, fopen, rename, crash). */
void
load_step_file(struct scn_load *ld, const struct scn_step *st,
		   const struct yamlpos_node *opnode, size_t stepno)
{
	load_step_file_name(ld, st, yamlpos_get(ld->ix, opnode, "file"), "file",
				st->args.file, stepno);
	load_step_file_name(ld, st, yamlpos_get(ld->ix, opnode, "to"), "to", st->args.to,
				stepno);
}

/* Parse the expect mapping RE (libcyaml's) of a step, in the order written at EN. */
static void
load_step_expects(struct scn_load *ld, struct scn_step *st, const struct scn_raw_expect *re,
		  const struct yamlpos_node *en, size_t stepno)
{
	if (en == NULL || en->kind != YAMLPOS_MAP || en->n_children == 0)
		return;
	assert(re != NULL);
	st->expects = calloc(en->n_children, sizeof *st->expects);
	if (st->expects == NULL) {
		ld->oom = true;
		return;
	}
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, en); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		int k = scenario_key_find(c->key);
		if (k < 0) /* the schema check has refused unknown keys already */
			continue;
		load_value_step_expect(ld, st->op, c, re->v[k], &st->expects[st->n_expects++], stepno);
	}
}

/* O_DIRECT: a transfer that fails on every disk is an error unless the step expects EINVAL. */
static void
load_step_direct(struct scn_load *ld, const struct scn_step *st, const struct yamlpos_node *an)
{
	const struct scn_args *a = &st->args;

	/* The rule follows the unnamed fd; a named one's transfers are checked by the run. */
	if (st->handle != 0)
		return;
	/* A new file opened (open's flags; fopen takes none) or closed. */
	if (scenario_op_has(st->op, SCN_OPF_NEW_FD | SCN_OPF_NEW_FP) &&
	    !scenario_op_has(st->op, SCN_OPF_FD)) {
		ld->direct = (a->flags & O_DIRECT) != 0;
		return;
	}
	if (scenario_op_has(st->op, SCN_OPF_CLOSES)) {
		ld->direct = false;
		return;
	}
	/* The fd's transfers: the fd ops that move bytes. */
	if (scn_op_table[st->op].io != SCN_IO_FD || !(a->has & SCN_HAS_BYTES))
		return;
	/* tmpfs accepts any O_DIRECT transfer: that is itself a lesson (13-1c). */
	if (!ld->direct || ld->tmpfs)
		return;
	/* The failure may be the lesson on some filesystems only: a case may expect it. */
	for (size_t c = 0; c <= st->n_cases; c++) {
		const struct scn_expect *e = c == 0 ? st->expects : st->cases[c - 1].expects;
		size_t n = c == 0 ? st->n_expects : st->cases[c - 1].n_expects;
		for (size_t i = 0; i < n; i++)
			if (e[i].key == SCN_KEY_RESULT_ERRNO && e[i].cmp == SCN_CMP_EQ &&
			    e[i].num == EINVAL)
				return;
	}
	unsigned bad = scenario_dio_misfit(a, SCN_DIO_MIN_ALIGN, SCN_DIO_MIN_ALIGN);
	if (bad & SCN_HAS_BYTES)
		load_at(ld, yamlpos_get(ld->ix, an, "bytes"),
		        "O_DIRECT transfer of %" PRIu64 " bytes is not a multiple of %d "
		        "(expect result.errno: EINVAL to show the failure)", a->bytes, SCN_DIO_MIN_ALIGN);
	if (bad & SCN_HAS_OFFSET)
		load_at(ld, yamlpos_get(ld->ix, an, "offset"),
		        "O_DIRECT offset %" PRId64 " is not a multiple of %d "
		        "(expect result.errno: EINVAL to show the failure)", a->offset, SCN_DIO_MIN_ALIGN);
	if (bad & SCN_HAS_ALIGN)
		load_at(ld, yamlpos_get(ld->ix, an, "align"),
		        "O_DIRECT buffer misaligned by %u byte%s "
		        "(expect result.errno: EINVAL to show the failure)", a->align,
		        a->align == 1 ? "" : "s");
}

/* The op table's check column: the loader's rules that an op's argument list cannot say. */
static void (*const scenario_step_checks[SCN_OP__COUNT])(struct scn_load *, const struct scn_step *,
							  const struct yamlpos_node *, size_t) = {
	SCN_OP_LIST(SCN_OP_CHECK)
};

/* Read the say of each case of st (after all the step's expectations: a say may cite them). */
static void
load_step_cases_narr(struct scn_load *ld, struct scn_step *st, const struct yamlpos_node *n,
			 size_t stepno)
{
	size_t i = 0;

	if (st->n_cases == 0)
		return;
	for (const struct yamlpos_node *cn = yamlpos_first(ld->ix, n); cn != NULL && i < st->n_cases;
	     cn = yamlpos_next(ld->ix, cn), i++) {
		const struct yamlpos_node *say = yamlpos_get(ld->ix, cn, "say");
		char where[64];
		snprintf(where, sizeof where, "the say of case %zu of step %zu", i + 1, stepno);
		st->cases[i].say = load_narr_text(ld, say);
		load_narr_parse(ld, &st->cases[i].narr, say, st, where);
	}
}

/* Parse one step RS (libcyaml's), written at SN (STEPNO is 1-based, for messages). */
void
load_step_parse(struct scn_load *ld, struct scn_step *st, const struct scn_raw_step *rs,
		    const struct yamlpos_node *sn, size_t stepno)
{
	const struct yamlpos_node *opnode = NULL;
	int op = -1;

	st->line = sn->line;
	st->col = sn->col;
	for (const struct yamlpos_node *c = yamlpos_first(ld->ix, sn); c != NULL;
	     c = yamlpos_next(ld->ix, c)) {
		int k = scenario_op_find(c->key);
		if (k < 0)
			continue;
		if (op >= 0) {
			load_at_key(ld, c, "step %zu has two ops, '%s' and '%s': write one op per step",
			            stepno, scn_op_table[op].name, c->key);
			return;
		}
		op = k;
		opnode = c;
	}
	if (op < 0) {
		load_at(ld, sn, "step %zu has no op (say and expect go with an op; for narration "
		      "alone write note: \"...\")", stepno);
		return;
	}
	st->op = (enum scn_op)op;
	if (ld->ended != NULL)
		load_at_key(ld, opnode, "step %zu comes after %s, which ended the program (a "
				"scenario ends with exit or _exit)", stepno, ld->ended);
	if (scn_op_table[op].flags & SCN_OPF_ENDS)
		ld->ended = scn_op_table[op].name;
	const struct yamlpos_node *sayn = yamlpos_get(ld->ix, sn, "say");
	st->say = load_narr_text(ld, sayn);
	st->ask = load_value_strdup(ld, rs->ask);
	switch (scn_op_table[op].form) {
	case SCN_FORM_TEXT: {
		const char *text = rs->text[op] != NULL ? rs->text[op] : "";
		if (*text == '\0') {
			load_at_key(ld, opnode, "%s in step %zu needs text", scn_op_table[op].name,
					stepno);
		} else {
			st->args.text = load_value_strdup(ld, text);
			st->args.has |= SCN_HAS_TEXT;
			if (st->say == NULL) { /* a note's text is its narration */
				st->say = load_value_strdup(ld, text);
				sayn = opnode;
			}
		}
		break;
	}
	case SCN_FORM_SWEEP:
		load_sweep_parse(ld, st, rs->sweep[op], opnode, stepno);
		break;
	case SCN_FORM_ARGS:
		load_step_args(ld, st, rs->args[op], opnode, stepno);
		break;
	}
	load_step_names(ld, st, rs, sn, stepno);
	if (scenario_step_checks[op] != NULL)
		scenario_step_checks[op](ld, st, opnode, stepno);
	load_step_expects(ld, st, rs->expect, yamlpos_get(ld->ix, sn, "expect"), stepno);
	load_cond_parse(ld, st, yamlpos_get(ld->ix, sn, "cases"), stepno);
	/* Narration last: a sentence may cite the expectations of the step and its cases. */
	load_step_cases_narr(ld, st, yamlpos_get(ld->ix, sn, "cases"), stepno);
	char where[48];
	snprintf(where, sizeof where, "the %s of step %zu", sayn == opnode ? "note" : "say", stepno);
	load_narr_parse(ld, &st->narr, sayn, st, where);
	load_step_direct(ld, st, opnode);
}
