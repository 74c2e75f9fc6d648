/* SPDX-License-Identifier: MIT */
/* procs.c: the tracer's table of the threads it traces, each with its process's fd table
 * (shared by the threads of one process, copied by a fork) and its stdio reader. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "prog/fds.h"
#include "prog/streams.h"
#include "prog/trace-int.h"

/* The process pid, or NULL. */
struct pt_proc *
prog_procs_find(struct prog_trace *t, pid_t pid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	return NULL;
}

/* Add process pid, with a copy of parent's table (or a share of it: a thread). */
struct pt_proc *
prog_procs_add(struct prog_trace *t, pid_t pid, struct pt_proc *parent, bool fresh)
{
	struct pt_proc *p;
	pid_t parent_pid = parent != NULL ? parent->pid : 0;

	if (t->nprocs == t->cap) {
		struct pt_proc *v = grow(t->procs, &t->cap, t->nprocs, sizeof *v, 8);
		if (v == NULL)
			return NULL;
		t->procs = v;
	}
	/* The array may have moved. */
	parent = parent_pid ? prog_procs_find(t, parent_pid) : NULL;
	p = &t->procs[t->nprocs];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	p->tgid = prog_fds_tgid(pid);
	p->fresh = fresh;
	if (parent != NULL && parent->tgid == p->tgid) {
		p->tab = parent->tab;
		p->tab->refs++;
	} else {
		p->tab = prog_fds_copy(parent != NULL ? parent->tab : NULL);
	}
	p->stdio = prog_streams_new(p->tgid > 0 ? p->tgid : pid);   /* the process's streams */
	if (p->tab == NULL || p->stdio == NULL) {
		prog_fds_put(p->tab);
		prog_streams_free(p->stdio);
		return NULL;
	}
	t->nprocs++;
	return p;
}

/* Forget process p (it ended). */
void
prog_procs_del(struct prog_trace *t, struct pt_proc *p)
{
	prog_fds_put(p->tab);
	prog_streams_free(p->stdio);
	event_list_clear(&p->inner);
	*p = t->procs[--t->nprocs];
}

/* The line of a step's call, from its thread's stack. */
void
prog_procs_source(struct prog_trace *t, struct prog_step *out)
{
	struct pt_proc *p;

	if (out->kind != PROG_STEP_CALL && out->kind != PROG_STEP_STORES)
		return;
	p = prog_procs_find(t, out->pid);
	if (p != NULL)
		prog_srcloc_unwind_sys(t->src, p->tgid, p->pid, p->sys_ip, p->sys_sp, &out->src);
}
