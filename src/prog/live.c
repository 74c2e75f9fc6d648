/* SPDX-License-Identifier: MIT */
/* live.c: every stream of each traced process as its last call left it (prog/run-int.h):
 * read from outside at a stop right after a call, then kept by the calls the shim logged
 * (each says how it left its own stream); an open fold that shows them keeps a copy before
 * they change. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "prog/mark.h"
#include "prog/run-int.h"

/* The live streams of pid (added empty if new; NULL on ENOMEM). */
struct prog_run_pstreams *
prog_live_get(struct prog_run *r, pid_t pid)
{
	for (size_t i = 0; i < r->n_live; i++)
		if (r->live[i].pid == pid)
			return &r->live[i];
	if (r->n_live == r->cap_live) {
		size_t cap = r->cap_live ? r->cap_live * 2 : 4;
		struct prog_run_pstreams *v = realloc(r->live, cap * sizeof *v);
		if (v == NULL)
			return NULL;
		r->live = v;
		r->cap_live = cap;
	}
	memset(&r->live[r->n_live], 0, sizeof r->live[0]);
	r->live[r->n_live].pid = pid;
	return &r->live[r->n_live++];
}

/* Forget pid's live streams (it ended; its pid may come again). */
void
prog_live_drop(struct prog_run *r, pid_t pid)
{
	for (size_t i = 0; i < r->n_live; i++)
		if (r->live[i].pid == pid) {
			free(r->live[i].v);
			r->live[i] = r->live[--r->n_live];
			return;
		}
}

/* Before pid's live streams change: each open fold of pid whose state they are (but keep)
 * keeps a copy of them. */
static void
prog_live_freeze(struct prog_run *r, pid_t pid, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l = NULL;

	for (long i = -1; i < PROG_RUN_SFOLDS; i++) {
		struct prog_run_step *f = i < 0 ? r->fold : r->sfold[i];
		if (f == NULL || !f->live || f == keep || f->ps.pid != pid)
			continue;
		if (l == NULL && (l = prog_live_get(r, pid)) == NULL)
			return;
		prog_run_set_streams(f, l);
		f->live = false;
	}
}

/* pid is stopped right after a call: its streams read now. */
void
prog_live_scan(struct prog_run *r, pid_t pid, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l;

	prog_live_freeze(r, pid, keep);
	if ((l = prog_live_get(r, pid)) != NULL)
		prog_run_read_streams(r, pid, l);
}

/* A logged call changed its stream. */
void
prog_live_apply(struct prog_run *r, const struct prog_step *ps, const struct prog_run_step *keep)
{
	struct prog_run_pstreams *l;
	struct prog_run_stream *x = NULL;

	prog_live_freeze(r, ps->pid, keep);
	if ((l = prog_live_get(r, ps->pid)) == NULL)
		return;
	/* Never read yet (its first calls made no system call): the streams are read now,
	 * later than the call; its own stream is then set as the call left it. */
	if (!l->known)
		prog_run_read_streams(r, ps->pid, l);
	for (size_t i = 0; i < l->n && x == NULL; i++)
		if (l->v[i].st.addr == ps->file)
			x = &l->v[i];
	if (ps->func_base == PROG_MARK_FUNC_fclose) {
		if (x != NULL)
			*x = l->v[--l->n];
		return;
	}
	if (!ps->stream_known || ps->file == 0)
		return;
	if (x == NULL) {
		/* A new stream: glibc puts it first in its list. */
		struct prog_run_stream *v = realloc(l->v, (l->n + 1) * sizeof *v);
		if (v == NULL)
			return;
		memmove(v + 1, v, l->n * sizeof *v);
		l->v = v;
		l->n++;
		x = &v[0];
	}
	x->st = ps->stream;
	x->head_len = ps->head_len < sizeof x->head ? ps->head_len : sizeof x->head;
	memcpy(x->head, ps->head, x->head_len);
}
