/* SPDX-License-Identifier: MIT */
/* fold.c: a program's runs of calls folded into one step each, and exit()'s flush split per
 * stream: which calls go together, and when a run is over (the tracer's hook tells). */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shim/protocol.h"
#include "prog/run-int.h"
#include "trace/calls.h"

/* A new step of ps (its calls taken over), not yet observed; NULL on ENOMEM. */
static struct prog_run_step *
prog_fold_new_step(struct prog_step *ps)
{
	struct prog_run_step *s = calloc(1, sizeof *s);

	if (s == NULL) {
		event_list_clear(&ps->calls);
		return NULL;
	}
	s->ps = *ps;
	s->file = -1;
	s->crash_file = -1;
	s->count = 1;
	s->bytes = ps->kind == PROG_STEP_STDIO ? ps->size : ps->ev.bytes;
	s->sr.events.source = EV_SRC_PTRACE;
	if (ps->kind == PROG_STEP_STDIO) {
		s->sr.events = ps->calls;
		s->sr.events.source = EV_SRC_PTRACE;
	} else if (ps->kind == PROG_STEP_CALL && event_list_add(&s->sr.events, &ps->ev) != 0) {
		free(s);
		return NULL;
	}
	memset(&s->ps.calls, 0, sizeof s->ps.calls);
	memset(&ps->calls, 0, sizeof ps->calls);
	return s;
}

/* True if stdio fold f is of the calls of func_id on stream of pid. */
static bool
prog_fold_same(const struct prog_run_step *f, pid_t pid, uint64_t stream, int func_id)
{
	return f->ps.pid == pid && f->ps.file == stream && f->ps.func_id == func_id;
}

/* A folded step's list of calls starts with room for this many (and doubles). */
#define PROG_FOLD_CALLS0 16

/* Calls arg = ret as the next n calls of s, from its count on (its first, when it has no list
 * yet, is its own call; the list's room is a power of two, at least PROG_FOLD_CALLS0, doubled
 * as it fills). 0, or -1 (ENOMEM). */
static int
prog_fold_call_fill(struct prog_run_step *s, int64_t arg, int64_t ret, uint64_t n)
{
	uint64_t at = s->count, cap = PROG_FOLD_CALLS0, room;

	if (n == 0)
		return 0;
	if (s->calls == NULL) {
		if ((s->calls = malloc(PROG_FOLD_CALLS0 * sizeof *s->calls)) == NULL)
			return -1;
		s->calls[0] = (struct prog_run_call){ s->ps.arg[0], s->ps.ret };
	}
	while (cap < at)          /* the room the list has: a power of two, at least CALLS0 */
		cap *= 2;
	for (room = cap; room < at + n; room *= 2)
		;
	if (room > cap) {
		struct prog_run_call *v = realloc(s->calls, room * sizeof *v);
		if (v == NULL)
			return -1;
		s->calls = v;
	}
	for (uint64_t i = 0; i < n; i++)
		s->calls[at + i] = (struct prog_run_call){ arg, ret };
	return 0;
}

/* Call arg = ret as the count-th call of s. 0, or -1 (ENOMEM). */
static int
prog_fold_call_add(struct prog_run_step *s, int64_t arg, int64_t ret)
{
	return prog_fold_call_fill(s, arg, ret, 1);
}

/* The calls of fold s after those of c, as prog_fold_call_add would put them one by one, but
 * as one block (the list keeps its room: a power of two, at least PROG_FOLD_CALLS0). 0, or
 * -1 (ENOMEM). */
static int
prog_fold_calls_join(struct prog_run_step *c, const struct prog_run_step *s)
{
	uint64_t n = c->count + s->count, cap = PROG_FOLD_CALLS0;
	struct prog_run_call *v;

	if (c->calls == NULL || s->calls == NULL) {
		for (uint64_t i = 0; i < s->count; i++, c->count++)
			if (prog_fold_call_add(c, s->calls != NULL ? s->calls[i].arg : s->ps.arg[0],
			                       s->calls != NULL ? s->calls[i].ret : s->ps.ret) != 0)
				return -1;
		return 0;
	}
	while (cap < n)
		cap *= 2;
	if ((v = realloc(c->calls, cap * sizeof *v)) == NULL)
		return -1;
	c->calls = v;
	memcpy(c->calls + c->count, s->calls, s->count * sizeof *s->calls);
	c->count = n;
	return 0;
}

/* The stdio step s's call is now ps (a stdio step has no path); it keeps its seq. */
static void
prog_fold_last(struct prog_run_step *s, const struct prog_step *ps)
{
	uint64_t seq = s->ps.seq;

	memcpy(&s->ps, ps, PROG_STEP_HEAD);
	s->ps.seq = seq;
	memset(&s->ps.calls, 0, sizeof s->ps.calls);
}

/* Observe and queue the run of stdio steps folding, if any. */
static void
prog_fold_chain_end(struct prog_run *r)
{
	if (r->chain == NULL)
		return;
	prog_run_observe(r, r->chain, NULL);
	prog_run_push(r, r->chain);
	r->chain = NULL;
}

/*
 * The stdio step s, ended by the system call it made, goes on the run of steps of its call
 * on its stream, one after the other ("fwrite x 559104 -> write(4, 4096) x 4096"; whatever
 * comes between ends that run), or begins one. Its state is the live one until the next call
 * changes it (prog_run_freeze keeps it then).
 */
static void
prog_fold_chain(struct prog_run *r, struct prog_run_step *s)
{
	struct prog_run_step *c = r->chain;

	if (c == NULL || !prog_fold_same(c, s->ps.pid, s->ps.file, s->ps.func_id)) {
		prog_fold_chain_end(r);
		r->chain = c = s;
	} else {
		if (prog_fold_calls_join(c, s) != 0)
			r->failed = true;
		c->str_varies = c->str_varies || s->str_varies ||
		                strcmp(c->ps.str[0], s->ps.str[0]) != 0;
		c->bytes += s->bytes;
		for (size_t i = 0; i < s->sr.events.n; i++)
			event_list_add(&c->sr.events, &s->sr.events.v[i]);
		c->sr.events.dropped += s->sr.events.dropped;
		prog_fold_last(c, &s->ps);
		prog_run_step_clear(s);
		free(s);
	}
	c->live = true;
	/* Full: it ends here, right after its last call (the process is stopped there). */
	if (c->sr.events.n + c->sr.events.dropped >= EV_MAX ||
	    c->count > PROG_RUN_CHAIN_MAX - PROG_RUN_FOLD_MAX)
		prog_fold_chain_end(r);
}

/*
 * Observe and queue open folds, oldest first: the program's own calls' if calls; of the
 * stdio ones, all (key NULL), or those on key's stream of another function (same_stream),
 * or all but key's own. A run of stdio steps folding came before them all: it ends too,
 * unless it is of key's call on key's stream.
 */
void
prog_fold_close(struct prog_run *r, bool calls, const struct prog_step *key, bool same_stream)
{
	if (r->chain != NULL &&
	    (key == NULL || !prog_fold_same(r->chain, key->pid, key->file, key->func_id)))
		prog_fold_chain_end(r);
	if (calls && r->fold != NULL) {
		prog_run_observe(r, r->fold, NULL);
		prog_run_push(r, r->fold);
		r->fold = NULL;
	}
	for (;;) {
		long oldest = -1;
		for (long i = 0; i < PROG_RUN_SFOLDS; i++) {
			struct prog_run_step *f = r->sfold[i];
			if (f == NULL)
				continue;
			if (key != NULL && prog_fold_same(f, key->pid, key->file, key->func_id))
				continue;
			if (key != NULL && same_stream && (f->ps.pid != key->pid || f->ps.file != key->file))
				continue;
			if (oldest < 0 || f->ps.seq < r->sfold[oldest]->ps.seq)
				oldest = i;
		}
		if (oldest < 0)
			break;
		prog_run_observe(r, r->sfold[oldest], NULL);
		prog_run_push(r, r->sfold[oldest]);
		r->sfold[oldest] = NULL;
	}
}

/* True for a system call that only reads what is there (its own fold's business alone): it
 * reads, seeks or stats, and writes nothing (a copy reads one file and writes another). */
static bool
prog_fold_reads(const char *call)
{
	const struct call_row *c = calls_named(call);

	return c != NULL && (c->flags & (CALL_READ | CALL_READ2 | CALL_SEEK | CALL_STAT)) != 0 &&
	       !(c->flags & (CALL_WRITE | CALL_WRITE2));
}

/* True for the stdio functions whose runs fold (reads and writes of data). */
static bool
prog_fold_foldable(int func_id)
{
	return prog_marks_class(func_id) != PROG_MARK_CTL;
}

/*
 * The streams at exit_group (v) as exit()'s flush left them: glibc then makes every stream
 * unbuffered (_IO_unbuffer_all), which is no choice of the program's: each is shown with
 * the mode and buffer it had before the flush, and what the flush left pending.
 */
static void
prog_fold_flushed(struct prog_run *r, pid_t pid, struct prog_run_pstreams *v)
{
	if (r->before_flush.pid != pid || !r->before_flush.known)
		return;
	for (size_t i = 0; i < v->n; i++)
		for (size_t k = 0; k < r->before_flush.n; k++) {
			const struct prog_run_stream *b = &r->before_flush.v[k];
			struct prog_run_stream *x = &v->v[i];
			if (b->st.addr != x->st.addr)
				continue;
			x->st.mode = b->st.mode;
			x->st.buf_size = b->st.buf_size;
			x->st.flags = b->st.flags;
			if (x->st.pending == 0 && x->st.read_ahead == 0)
				x->head_len = 0;
		}
}

/*
 * True if the program's own call e goes on the run of calls f: the same call on the same
 * fds (an unseen one of stdio's, on the same FILE's buffer); or a copy on a second pair of
 * fds (splice through a pipe: file -> pipe, pipe -> file).
 */
static bool
prog_fold_joins(const struct prog_run_step *f, const struct prog_entry *e)
{
	const struct event_list *l = &f->sr.events;
	const struct call_row *c;

	if (f->ps.pid != e->pid || strcmp(f->ps.ev.call, e->call) != 0 || l->n == 0 ||
	    (f->ps.ev.origin == EV_STDIO) != e->unseen ||
	    (e->unseen && f->ps.unseen_of.file != e->stream))
		return false;
	if (l->v[0].fd == e->fd && l->v[0].fd2 == e->fd2)
		return true;
	c = calls_named(e->call);
	if (c == NULL || !(c->flags & (CALL_READ2 | CALL_WRITE2)))
		return false;
	for (size_t i = 1; i < l->n; i++)
		if (l->v[i].fd != l->v[0].fd || l->v[i].fd2 != l->v[0].fd2)
			return l->v[i].fd == e->fd && l->v[i].fd2 == e->fd2;
	return true;
}

/* True if the call ps is on the file it writes (not the one a copy reads). */
static bool
prog_fold_writes_file(const struct prog_step *ps)
{
	const struct call_row *c = calls_find((uint64_t)ps->ev.nr);

	if (c == NULL)
		return false;
	return (c->flags & CALL_WRITE2) ? ps->file_fd == ps->ev.fd2 :
	       (c->flags & CALL_WRITE) != 0 && ps->file_fd == ps->ev.fd;
}

/* The tracer's hook: before anything that could come between a fold's calls, the fold is
 * over: observe it now, before the next call changes what it left. */
void
prog_fold_hook(void *ctx, const struct prog_entry *e)
{
	struct prog_run *r = ctx;

	switch (e->kind) {
	case PROG_ENTRY_CALL:
		if (!e->file)
			return;
		prog_fold_close(r, r->fold == NULL || !prog_fold_joins(r->fold, e), NULL, false);
		break;
	case PROG_ENTRY_STDIO: {
		struct prog_step key = { .pid = e->pid, .file = e->stream, .func_id = e->func_id };
		if (e->call == NULL) {
			/* exit()'s flush begins. */
			prog_fold_close(r, true, NULL, false);
			prog_run_read_streams(r, e->pid, &r->before_flush);
		} else if (e->first) {
			/* A stdio call makes its first system call: the calls of other functions on
			 * its stream came before it (other streams' folds go on: a copy's fgetc
			 * and fputc interleave). */
			prog_fold_close(r, true, prog_fold_foldable(e->func_id) ? &key : NULL, true);
		}
		/* One that writes (or does more than read) comes after every other stream's
		 * calls so far: their folds end before it acts. Reads do not: a copy's fgetc
		 * refilling its buffer leaves the fputc fold beside it going, "fputc x 4097 ->
		 * write(4, 4096)". */
		if (e->call != NULL && !prog_fold_reads(e->call))
			prog_fold_close(r, false, &key, false);
		break;
	}
	case PROG_ENTRY_EXIT:
		prog_fold_close(r, true, NULL, false);
		/* The last state of the streams: exit() flushed them, _exit() did not. */
		for (size_t i = 0; i < sizeof r->at_exit / sizeof r->at_exit[0]; i++)
			if (r->at_exit[i].pid == 0 || r->at_exit[i].pid == e->pid ||
			    i + 1 == sizeof r->at_exit / sizeof r->at_exit[0]) {
				prog_run_read_streams(r, e->pid, &r->at_exit[i]);
				prog_fold_flushed(r, e->pid, &r->at_exit[i]);
				break;
			}
		break;
	}
}

/* The streams pid had at exit_group, or NULL. */
static struct prog_run_pstreams *
prog_fold_at_exit(struct prog_run *r, pid_t pid)
{
	for (size_t i = 0; i < sizeof r->at_exit / sizeof r->at_exit[0]; i++)
		if (r->at_exit[i].pid == pid)
			return &r->at_exit[i];
	return NULL;
}

/*
 * The stream of the streams before exit()'s flush (r->before_flush, newest first) that made
 * the run of writes on fd from all.v[i] on, from *next on: glibc's _IO_flush_all flushes them
 * in that order, each with output pending; *next goes past it. -1: none (the first with fd).
 */
static ssize_t
prog_fold_exit_owner(const struct prog_run *r, int fd, size_t *next)
{
	const struct prog_run_pstreams *b = &r->before_flush;

	for (size_t k = *next; k < b->n; k++)
		if (b->v[k].st.fd == fd && b->v[k].st.pending > 0) {
			*next = k + 1;
			return (ssize_t)k;
		}
	for (size_t k = 0; k < b->n; k++)
		if (b->v[k].st.fd == fd)
			return (ssize_t)k;
	return -1;
}

/*
 * exit()'s flush (ps, stopped at exit_group): a step per stream it wrote, each showing the
 * streams flushed so far as flushed and the others as they were before. A stream's writes
 * are the next ones on its fd up to what it had pending (two FILEs on one fd, stdout and an
 * fdopen(1), each have theirs).
 */
static void
prog_fold_exit_flush(struct prog_run *r, struct prog_step *ps)
{
	struct event_list all = ps->calls;
	struct prog_run_pstreams after = { 0 }, mix = { 0 };
	ssize_t *owner = all.n > 0 ? calloc(all.n, sizeof *owner) : NULL;   /* per call */
	size_t next = 0;

	memset(&ps->calls, 0, sizeof ps->calls);
	prog_run_read_streams(r, ps->pid, &after);
	prog_fold_flushed(r, ps->pid, &after);
	/* Each call's stream: a run of calls on one fd, cut where its stream's pending ends. */
	for (size_t i = 0; owner != NULL && i < all.n;) {
		ssize_t k = prog_fold_exit_owner(r, all.v[i].fd, &next);
		uint64_t want = k >= 0 ? r->before_flush.v[k].st.pending : 0, got = 0;
		size_t j = i;

		while (j < all.n && all.v[j].fd == all.v[i].fd) {
			int64_t res = all.v[j].result;
			owner[j++] = k;
			if (k >= 0 && want > 0 && (res <= 0 || (got += (uint64_t)res) >= want))
				break;
		}
		i = j;
	}
	for (size_t i = 0; i < all.n;) {
		struct prog_run_step *s;
		int fd = all.v[i].fd;
		ssize_t k = owner != NULL ? owner[i] : -1;
		size_t j = i;

		ps->calls.source = EV_SRC_PTRACE;
		while (j < all.n && all.v[j].fd == fd && (owner == NULL || owner[j] == k))
			event_list_add(&ps->calls, &all.v[j++]);
		ps->stdio_fd = fd;
		ps->file = k >= 0 ? r->before_flush.v[k].st.addr : 0;
		ps->stream_name = k >= 0 ? r->before_flush.v[k].name : NULL;
		/* The streams whose writes are still to come are as before the flush. */
		mix = after;
		mix.v = after.n ? malloc(after.n * sizeof *mix.v) : NULL;
		for (size_t a = 0; mix.v != NULL && a < after.n; a++) {
			mix.v[a] = after.v[a];
			for (size_t m = j; m < all.n; m++) {
				ssize_t o = owner != NULL ? owner[m] : -1;
				if (o >= 0 && r->before_flush.v[o].st.addr == after.v[a].st.addr) {
					mix.v[a] = r->before_flush.v[o];
					break;
				}
				if (o < 0 && all.v[m].fd == after.v[a].st.fd) {
					for (size_t b = 0; b < r->before_flush.n; b++)
						if (r->before_flush.v[b].st.addr == after.v[a].st.addr)
							mix.v[a] = r->before_flush.v[b];
					break;
				}
			}
		}
		s = prog_fold_new_step(ps);
		if (s == NULL) {
			free(mix.v);
			r->failed = true;
			break;
		}
		prog_run_observe(r, s, &mix);
		free(mix.v);
		prog_run_push(r, s);
		i = j;
	}
	free(owner);
	event_list_clear(&all);
	free(after.v);
}

/* Take the tracer's step ps (one call): fold it, or queue it observed. */
static void
prog_fold_take_one(struct prog_run *r, struct prog_step *ps)
{
	struct prog_run_step *s;

	/* Any other step ends a run of stdio steps (the hook ended it before its calls). */
	if (r->chain != NULL && !(ps->kind == PROG_STEP_STDIO &&
	                          prog_fold_same(r->chain, ps->pid, ps->file, ps->func_id)))
		prog_fold_chain_end(r);
	if (ps->kind == PROG_STEP_STDIO && ps->func_id == PROG_MARK_EXIT_ID) {
		prog_fold_exit_flush(r, ps);
		return;
	}
	if (ps->kind == PROG_STEP_CALL && ps->ev.err == 0 && ps->ev.fd >= 0 && !ps->ev.sync &&
	    (event_is_read(&ps->ev) || event_is_write(&ps->ev))) {
		/* The program's own reads or writes, one after the other on one fd, fold (a
		 * failed one, or one that asks for the disk, is a step of its own). The hook
		 * closed the fold if this call is not of it. */
		prog_run_scan(r, ps->pid, r->fold);
		prog_run_unseen_io(r, ps);
		if (r->fold != NULL) {
			if (event_list_add(&r->fold->sr.events, &ps->ev) != 0) {
				r->failed = true;
				return;
			}
			r->fold->count++;
			r->fold->bytes += ps->ev.bytes;
			/* The step is on the file its last call wrote (a splice copy's last call may
			 * be the read that found the end). */
			if (prog_fold_writes_file(ps) || !prog_fold_writes_file(&r->fold->ps))
				r->fold->ps = *ps;
			r->fold->live = true;
			if (r->fold->count >= EV_MAX)
				prog_fold_close(r, true, NULL, false);
			return;
		}
		r->fold = prog_fold_new_step(ps);
		if (r->fold == NULL)
			r->failed = true;
		else
			r->fold->live = true;
		return;
	}
	if (ps->kind == PROG_STEP_STDIO && prog_fold_foldable(ps->func_id)) {
		long slot = -1, free_slot = -1;
		/* A logged call made no system call, so the hook did not see it begin: the calls
		 * of other functions on its stream, and the program's own, came before it. */
		if (ps->logged)
			prog_fold_close(r, true, ps, true);
		for (long i = 0; i < PROG_RUN_SFOLDS; i++) {
			struct prog_run_step *f = r->sfold[i];
			if (f == NULL && free_slot < 0)
				free_slot = i;
			if (f != NULL && f->ps.pid == ps->pid && f->ps.file == ps->file &&
			    f->ps.func_id == ps->func_id)
				slot = i;
		}
		/* Its stream as it left it: as logged, or read now (the process stopped after it). A
		 * call that writes changes no other stream: its own as logged is all (no reading
		 * every stream at each of sort's 11 k buffer flushes). */
		if (ps->logged ||
		    (ps->stream_known && prog_marks_class(ps->func_id) == PROG_MARK_PUT))
			prog_run_apply(r, ps, slot >= 0 ? r->sfold[slot] : NULL);
		else
			prog_run_scan(r, ps->pid, slot >= 0 ? r->sfold[slot] : NULL);
		if (slot >= 0) {
			s = r->sfold[slot];
			if (prog_fold_call_add(s, ps->arg[0], ps->ret) != 0)
				r->failed = true;
			s->str_varies = s->str_varies || strcmp(s->ps.str[0], ps->str[0]) != 0;
			s->count++;
			s->bytes += ps->size;
			for (size_t i = 0; i < ps->calls.n; i++)
				event_list_add(&s->sr.events, &ps->calls.v[i]);
			s->sr.events.dropped += ps->calls.dropped;
			event_list_clear(&ps->calls);
			prog_fold_last(s, ps);
		} else {
			s = prog_fold_new_step(ps);
			if (s == NULL) {
				r->failed = true;
				return;
			}
			if (free_slot < 0) {
				/* Too many streams at once: their folds end here. */
				prog_fold_close(r, false, NULL, false);
				free_slot = 0;
			}
			slot = free_slot;
			r->sfold[slot] = s;
		}
		s->live = true;
		/* A call that reached the kernel ends its fold: "fputc x 4097 -> write(4, 4096)". */
		if (s->sr.events.n + s->sr.events.dropped > 0 || s->count >= PROG_RUN_FOLD_MAX) {
			r->sfold[slot] = NULL;
			prog_fold_chain(r, s);
		}
		return;
	}
	/* A call that does not fold (it failed, or moves no data) comes after an open fold of
	 * the same fd, which the hook left open; a process killed before exit_group leaves its
	 * folds open: they came first. So does a logged stdio call (no hook saw it begin). */
	if (ps->kind != PROG_STEP_STDIO || ps->logged)
		prog_fold_close(r, true, NULL, false);
	s = prog_fold_new_step(ps);
	if (s == NULL) {
		r->failed = true;
		return;
	}
	if (ps->kind == PROG_STEP_EXIT) {
		struct prog_run_pstreams *x = prog_fold_at_exit(r, ps->pid);
		struct prog_run_pstreams none = { .pid = ps->pid };
		/* A thread's end (stopped at its exit): its process's streams, as they are. */
		if (ps->thread && x == NULL)
			prog_run_read_streams(r, ps->pid, &none);
		prog_run_observe(r, s, x != NULL ? x : &none);
		free(none.v);
		if (x != NULL) {
			free(x->v);
			memset(x, 0, sizeof *x);
		}
	} else {
		if (ps->logged)
			prog_run_apply(r, ps, NULL);
		else
			prog_run_scan(r, ps->pid, NULL);
		prog_run_observe(r, s, prog_run_live(r, ps->pid));
	}
	prog_run_push(r, s);
}


/* The open stdio fold of ps's call on its stream, or -1. */
static long
prog_fold_slot(const struct prog_run *r, const struct prog_step *ps)
{
	for (long i = 0; i < PROG_RUN_SFOLDS; i++)
		if (r->sfold[i] != NULL && prog_fold_same(r->sfold[i], ps->pid, ps->file, ps->func_id))
			return i;
	return -1;
}

/*
 * Take the tracer's step ps: fold it, or queue it observed. A batch (ps's logged calls of
 * one function on one stream, ps last) is taken as its calls one by one would be, but for
 * the cost: once the first has its fold, the others join it as its list's [arg, ret] and
 * bytes, its state the one of the last that joins (the fold's end, or ps).
 */
void
prog_fold_take(struct prog_run *r, struct prog_step *ps)
{
	uint64_t n = ps->batch > 1 ? ps->batch : 1, k = 0;
	struct prog_step one;

	while (k < n) {
		long slot = k > 0 ? prog_fold_slot(r, ps) : -1;
		struct prog_run_step *s;
		const struct prog_step *last;
		uint64_t m;

		if (slot < 0) {
			/* The first call (what came before it ends here) or a new fold. */
			if (k + 1 == n) {
				prog_fold_take_one(r, ps);
			} else {
				prog_trace_batch_step(r->t, k, &one);
				prog_fold_take_one(r, &one);
			}
			k++;
			continue;
		}
		s = r->sfold[slot];
		m = PROG_RUN_FOLD_MAX - s->count < n - k ? PROG_RUN_FOLD_MAX - s->count : n - k;
		for (uint64_t i = k, same; i < k + m; i += same) {
			int64_t arg, ret;
			uint64_t size;
			const char *str;
			/* A run of like calls (the shim logged them as one) joins at once. */
			same = prog_trace_batch_call(r->t, i, &arg, &ret, &size, &str);
			if (same > k + m - i)
				same = k + m - i;
			if (prog_fold_call_fill(s, arg, ret, same) != 0)
				r->failed = true;
			s->count += same;
			s->bytes += size * same;
			s->str_varies = s->str_varies || strcmp(s->ps.str[0], str) != 0;
		}
		k += m;
		if (k == n) {
			last = ps;
		} else {
			prog_trace_batch_step(r->t, k - 1, &one);
			last = &one;
		}
		prog_run_apply(r, last, s);
		prog_fold_last(s, last);
		s->live = true;
		if (s->count >= PROG_RUN_FOLD_MAX) {
			r->sfold[slot] = NULL;
			prog_fold_chain(r, s);
		}
	}
}
