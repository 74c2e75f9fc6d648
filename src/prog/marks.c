/* SPDX-License-Identifier: MIT */
/* marks.c: the stdio shim's markers (prog/mark.h) turned into stdio steps: a call's "before"
 * marker remembers it and its arguments, its "after" makes the step with every system call
 * it made. */
#include <config.h>

#include <string.h>

#include "prog/streams.h"
#include "prog/trace-int.h"
#include "trace/peek.h"

/* Names of the shim's functions, by marker id. */
#define MARKS_NAME(id, name, a, b) [id] = #name,
static const char *const marks_names[PROG_MARK_NFUNCS] = { PROG_MARK_FUNCS(MARKS_NAME) };

/* The stdio step of p's finished call (its "after" marker gave file, size, ret) into out;
 * the calls it made go with it. */
void
prog_marks_step(struct pt_proc *p, uint64_t file, uint64_t size, struct prog_step *out)
{
	int id = p->mark_id;

	memset(out, 0, sizeof *out);
	out->kind = PROG_STEP_STDIO;
	out->pid = p->pid;
	out->func_id = id;
	out->file_fd = -1;
	out->func = id > 0 && id < PROG_MARK_NFUNCS && marks_names[id] != NULL ?
	            marks_names[id] : "?";
	/* fclose's FILE is gone after: name the one it closed. */
	out->file = file != 0 ? file : p->mark_file;
	out->size = size;
	memcpy(out->arg, p->mark_arg, sizeof out->arg);
	memcpy(out->str, p->mark_str, sizeof out->str);
	out->stdio_fd = -1;
	if (id == PROG_MARK_FUNC_fclose) {
		out->stdio_fd = (int)p->mark_arg[0];
		out->dev = p->mark_dev;
		out->ino = p->mark_ino;
	} else if (file != 0) {
		struct prog_stream st;
		struct prog_fd *fd;
		if (prog_stdio_read(p->pid, file, &st) == 0)
			out->stdio_fd = st.fd;
		if ((fd = prog_fds_get(p->tab, p->pid, out->stdio_fd)) != NULL && fd->regular) {
			out->dev = fd->dev;
			out->ino = fd->ino;
		}
	}
	out->calls = p->inner;
	memset(&p->inner, 0, sizeof p->inner);
	p->inner.source = EV_SRC_PTRACE;
}

/* A marker of the shim: "before" remembers the call (*entry: its name, for the tracer's
 * hook), "after" makes its step. 1 = a step; 0: the caller resumes p. */
int
prog_marks_on(struct prog_trace *t, struct pt_proc *p, const uint64_t *args, struct prog_step *out,
              const char **entry)
{
	static const unsigned char kinds[PROG_MARK_NFUNCS][2] = {
#define PT_MARK_KINDS(id, name, a, b) [id] = { PROG_MARK_ARG_##a, PROG_MARK_ARG_##b },
		PROG_MARK_FUNCS(PT_MARK_KINDS)
#undef PT_MARK_KINDS
	};
	unsigned phase = args[1] & 0xff, id = (args[1] >> 8) & 0xff;
	struct peek m = peek_pid(p->pid);

	*entry = NULL;
	t->st.markers++;
	p->in_sys = false;
	if (id == 0 || id >= PROG_MARK_NFUNCS)
		return 0;
	if (phase == PROG_MARK_BEFORE) {
		if (p->depth++ == 0) {
			p->mark_id = (int)id;
			p->mark_file = args[2];
			for (int k = 0; k < 2; k++) {
				p->mark_arg[k] = (int64_t)args[3 + k];
				p->mark_str[k][0] = '\0';
				if (kinds[id][k] == PROG_MARK_ARG_STR && args[3 + k] != 0)
					peek_str(&m, args[3 + k], p->mark_str[k], PROG_STR_MAX);
			}
			event_list_clear(&p->inner);
			p->inner.source = EV_SRC_PTRACE;
			p->mark_dev = 0;
			p->mark_ino = 0;
			if (id == PROG_MARK_FUNC_fclose) {
				struct prog_fd *fd = prog_fds_get(p->tab, p->pid, (int)p->mark_arg[0]);
				if (fd != NULL && fd->regular) {
					p->mark_dev = fd->dev;
					p->mark_ino = fd->ino;
				}
			}
			*entry = marks_names[id];
		}
		return 0;
	}
	/* An "after" without its "before" (the shim was reached again): not a step. */
	if (p->depth == 0 || --p->depth > 0 || (int)id != p->mark_id)
		return 0;
	prog_marks_step(p, args[2], args[3], out);
	out->ret = (int64_t)args[4];
	p->mark_id = 0;
	return 1;
}
