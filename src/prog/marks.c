/* SPDX-License-Identifier: MIT */
/* marks.c: the stdio shim's log and markers (shim/protocol.h) read from the tracee: the calls it
 * logged become stdio steps, each with its stream as the call left it; a call that made
 * system calls gets them. */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "base/grow.h"
#include "trace/calls.h"
#include "trace/peek.h"
#include "prog/streams.h"
#include "prog/trace-int.h"

/* What the table says of each function, by id. */
struct marks_info {
	const char *name;
	int base;
	int cls;
};

#define MARKS_ROW(id, name, base, a, b, cls) \
	[id] = { #name, PROG_MARK_FUNC_##base, PROG_MARK_##cls },
static const struct marks_info marks_table[PROG_MARK_NFUNCS] = { PROG_MARK_FUNCS(MARKS_ROW) };
#undef MARKS_ROW

/* The row of id, or NULL. */
static const struct marks_info *
marks_row(int id)
{
	return id > 0 && id < PROG_MARK_NFUNCS && marks_table[id].name != NULL ? &marks_table[id] :
	       NULL;
}

/* The function's name. */
const char *
prog_marks_name(int id)
{
	return marks_row(id) != NULL ? marks_row(id)->name : "?";
}

/* The function it is shown as. */
int
prog_marks_base(int id)
{
	return marks_row(id) != NULL ? marks_row(id)->base : 0;
}

/* What it does with data. */
int
prog_marks_class(int id)
{
	return marks_row(id) != NULL ? marks_row(id)->cls : PROG_MARK_CTL;
}

/* Write len bytes of buf at addr of pid (its shim's state). 0, or -1. */
static int
marks_poke(pid_t pid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)(uintptr_t)buf, len }, remote = { (void *)(uintptr_t)addr, len };

	return process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The regular file open as p's fd into *dev, *ino (0 if none). */
static void
marks_file(struct pt_proc *p, int fd, dev_t *dev, ino_t *ino)
{
	struct prog_fd *f = prog_fds_get(p->tab, p->pid, fd);

	*dev = f != NULL && f->regular ? f->dev : 0;
	*ino = f != NULL && f->regular ? f->ino : 0;
}

/* Make a call read from the program's memory safe to use: its strings ended, its head and
 * id in bounds (the program could have written anything there). */
static void
marks_clean(struct prog_mark_call *c)
{
	c->str[sizeof c->str - 1] = '\0';
	c->str2[sizeof c->str2 - 1] = '\0';
	if (c->head_len > PROG_HEAD_MAX)
		c->head_len = 0;
	if (marks_row(c->id) == NULL)
		c->id = 0;
}

/* Room in t's queue for n more calls (an empty queue starts again at 0). 0, or -1. */
static int
marks_room(struct prog_trace *t, size_t n)
{
	if (t->qhead > 0 && t->qhead == t->qn)
		t->qhead = t->qn = 0;
	while (t->qcap - t->qn < n) {
		struct pt_logged *v = grow(t->q, &t->qcap, t->qcap, sizeof *v, 64);
		if (v == NULL)
			return -1;
		t->q = v;
	}
	return 0;
}

/* Queue the logged call c of p (now: the newest, read while p is stopped), in the room made;
 * its file is *fd's (dev, ino) when its fd is the one of the call before. */
static void
marks_queue(struct prog_trace *t, struct pt_proc *p, const struct prog_mark_call *c, bool now,
            struct pt_logged *fd)
{
	struct pt_logged *l = &t->q[t->qn++];

	t->st.log_entries++;
	if (c != &l->c)
		l->c = *c;
	marks_clean(&l->c);
	l->pid = p->pid;
	l->tgid = p->tgid;
	l->now = false;
	l->name = prog_streams_name(p->stdio, l->c.file, l->c.fd);
	l->calls = (struct event_list){ .source = EV_SRC_PTRACE };
	l->src.pc = 0;
	if (prog_marks_base(l->c.id) == PROG_MARK_FUNC_fclose && l->c.seq == p->cur_seq) {
		l->dev = p->mark_dev;
		l->ino = p->mark_ino;
	} else if (fd->c.fd == l->c.fd && fd->pid == p->pid) {
		l->dev = fd->dev;
		l->ino = fd->ino;
	} else {
		marks_file(p, l->c.fd, &l->dev, &l->ino);
		fd->pid = p->pid;
		fd->c.fd = l->c.fd;
		fd->dev = l->dev;
		fd->ino = l->ino;
	}
	if (p->cur_seq != 0 && l->c.seq >= p->cur_seq && l->c.seq - l->c.count < p->cur_seq) {
		/* The call whose system calls the tracer saw: they are its own. It stopped right
		 * after it (PROG_MARK_AFTER) if the tracer asked it to. */
		l->calls = p->inner;
		memset(&p->inner, 0, sizeof p->inner);
		p->inner.source = EV_SRC_PTRACE;
		l->src = p->cur_src;
		p->cur_seq = 0;
		p->owed = false;
		l->now = now && (l->c.flags & PROG_MARK_F_CALLS);
	}
}

/* The calls entry c stands for, in bounds (the program could have written anything). */
static uint64_t
marks_run_count(const struct prog_mark_call *c)
{
	return c->count < 1 ? 1 : c->count > PROG_MARK_RUN ? PROG_MARK_RUN : c->count;
}

/* How many of the calls the logged entry c stands for were not taken yet (the run p's last
 * stop took part of, now logged, stands for the rest only): its count set to that. */
static uint32_t
marks_run_new(struct pt_proc *p, struct prog_mark_call *c)
{
	uint64_t n = marks_run_count(c);

	if (p->run_taken > 0 && c->seq - n + 1 == p->run_first) {
		n = n > p->run_taken ? n - p->run_taken : 0;
		p->run_taken = 0;
	}
	c->count = (uint32_t)n;
	return c->count;
}

_Static_assert(PROG_MARK_LOG <= 1024, "a log is read with one iovec an entry (IOV_MAX)");

/* Read p's state and queue the calls of its log not taken yet. */
int
prog_marks_drain(struct prog_trace *t, struct pt_proc *p, bool stopped, bool full)
{
	const size_t one = sizeof(struct prog_mark_call);
	struct prog_mark_tls *x = &p->tls;
	struct iovec local[1 + PROG_MARK_LOG], remote[2];
	uint64_t n, k, at, log = x->magic == PROG_MARK_MAGIC ? x->log : 0, ahead = 0;
	ssize_t got;

	if (p->shim == 0)
		return 0;
	/* A loop logs as many calls between two stops each time: as many as the last drain
	 * took are read with the state, in the same process_vm_readv (one call a stop, not
	 * two), from where the log was then (a log moved is read again below). */
	at = p->taken % PROG_MARK_LOG;
	if (log != 0 && p->last_n > 0) {
		ahead = p->last_n < PROG_MARK_LOG - at ? p->last_n : PROG_MARK_LOG - at;
		if (marks_room(t, ahead) != 0)
			ahead = 0;
	}
	local[0] = (struct iovec){ x, sizeof *x };
	remote[0] = (struct iovec){ (void *)(uintptr_t)p->shim, sizeof *x };
	for (k = 0; k < ahead; k++)
		local[1 + k] = (struct iovec){ &t->q[t->qn + k].c, one };
	remote[1] = (struct iovec){ (void *)(uintptr_t)(log + at * one), ahead * one };
	got = process_vm_readv(p->pid, local, 1 + ahead, remote, ahead > 0 ? 2 : 1, 0);
	if (got < (ssize_t)sizeof *x || x->magic != PROG_MARK_MAGIC) {
		memset(x, 0, sizeof *x);
		p->shim = 0;
		return -1;
	}
	/* More than the log holds, or fewer than taken: not the shim's count (the program
	 * wrote its own): nothing is taken, from here on. */
	n = x->written >= p->taken && x->written - p->taken <= PROG_MARK_LOG ?
	    x->written - p->taken : 0;
	/* The calls read ahead that are the log's: those read whole, from the log as it is. */
	k = x->log == log ? ((uint64_t)got - sizeof *x) / one : 0;
	if (k > n)
		k = n;
	if (n > k) {
		/* The rest: to the ring's end, then from its start when it wraps. */
		uint64_t rest = n - k, from = (at + k) % PROG_MARK_LOG;
		uint64_t first = rest < PROG_MARK_LOG - from ? rest : PROG_MARK_LOG - from;

		if (marks_room(t, n) != 0)
			return -1;
		remote[0] = (struct iovec){ (void *)(uintptr_t)(x->log + from * one), first * one };
		remote[1] = (struct iovec){ (void *)(uintptr_t)x->log, (rest - first) * one };
		/* Each entry straight into its place in the queue: not copied twice, the 1.5 M
		 * fwrite calls of a sort of 45 MB are 440 MB of entries. */
		for (uint64_t i = 0; i < rest; i++)
			local[i] = (struct iovec){ &t->q[t->qn + k + i].c, one };
		if (process_vm_readv(p->pid, local, (unsigned long)rest, remote,
		                     rest > first ? 2 : 1, 0) != (ssize_t)(rest * one))
			n = k;
	}
	{
		struct pt_logged fd = { .c.fd = -2 };
		size_t at0 = t->qn;

		for (uint64_t i = 0; i < n; i++) {
			p->last_seq = t->q[at0 + i].c.seq;
			if (marks_run_new(p, &t->q[at0 + i].c) > 0)
				marks_queue(t, p, &t->q[at0 + i].c, stopped && i + 1 == n, &fd);
		}
		/* The run going on, read with the state while the thread is stopped (not while it
		 * runs: it may be changing; count 0 while the shim writes it): the calls of it not
		 * taken at an earlier stop. One no further than the log is logged already (the
		 * thread stopped between logging it and starting anew). */
		if (stopped && x->run.count > 0 && x->run.seq > p->last_seq && marks_room(t, 1) == 0) {
			struct prog_mark_call *c = &t->q[t->qn].c;
			uint64_t m = marks_run_count(&x->run), first = x->run.seq - m + 1;
			uint64_t before = p->run_taken > 0 && p->run_first == first ? p->run_taken : 0;

			p->run_first = first;
			p->run_taken = m;
			if (m > before) {
				*c = x->run;
				c->count = (uint32_t)(m - before);
				marks_queue(t, p, c, false, &fd);
			}
		}
	}
	p->last_n = n;
	p->taken = x->written;
	/* The shim waits for the tracer only when its log is full: tell it what was taken
	 * when half of it is, not at every stop. */
	if (stopped && (full || x->written - x->read >= PROG_MARK_LOG / 2) &&
	    marks_poke(p->pid, p->shim + offsetof(struct prog_mark_tls, read), &x->written,
	               sizeof x->written) == 0)
		x->read = x->written;
	return 0;
}

/* The owed calls of every thread but p, read while they run (or after they ended). */
static void
marks_drain_owed(struct prog_trace *t, const struct pt_proc *p)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (&t->procs[i] != p && t->procs[i].owed)
			prog_marks_drain(t, &t->procs[i], false, false);
}

/* Queue what came before p's stop or end st: the calls other threads owe, then what p logged
 * since its last stop (read at its exit stop, PTRACE_O_TRACEEXIT, while it is still here; an
 * end without one, its process killed, leaves nothing to read). A syscall-exit stop has
 * nothing before it but its entry stop; an exec's image is new. */
void
prog_marks_before(struct prog_trace *t, struct pt_proc *p, int st)
{
	bool ended = WIFEXITED(st) || WIFSIGNALED(st);

	if (!ended && (!WIFSTOPPED(st) || WSTOPSIG(st) == (SIGTRAP | 0x80) ||
	               (WSTOPSIG(st) == SIGTRAP && st >> 16 == PTRACE_EVENT_EXEC)))
		return;
	marks_drain_owed(t, p);
	if (ended)
		p->owed = false;
	else
		prog_marks_drain(t, p, true, false);
}

/* Whether p's system call is a stdio call's; start the record of that call at its first. */
bool
prog_marks_at_call(struct pt_proc *p)
{
	static const uint32_t one = 1;

	p->in_stdio = p->shim != 0 && p->tls.depth > 0;
	if (!p->in_stdio || p->tls.cur.seq == p->cur_seq)
		return false;
	p->cur = p->tls.cur;
	marks_clean(&p->cur);
	p->cur_seq = p->cur.seq;
	event_list_clear(&p->inner);
	p->inner.source = EV_SRC_PTRACE;
	p->mark_dev = 0;
	p->mark_ino = 0;
	if (prog_marks_base(p->cur.id) == PROG_MARK_FUNC_fclose)
		marks_file(p, p->cur.fd, &p->mark_dev, &p->mark_ino);
	/* Its step is seen right after it: the shim stops when it returns. exit()'s flush never
	 * returns: the process's end is its stop. A call that writes to its stream changes no
	 * other (reading may flush stdout first): the state it logs is all its step needs, so
	 * its buffer flush costs no third stop. It is owed: read at the next stop of any
	 * thread (of its own, nothing comes before; of another, the call came before that stop
	 * if it is logged by then, else the two ran at once), or at the thread's end. */
	if (p->cur.id == PROG_MARK_EXIT_ID)
		return true;
	if (prog_marks_class(p->cur.id) == PROG_MARK_PUT)
		p->owed = true;
	else
		marks_poke(p->pid, p->shim + offsetof(struct prog_mark_tls, stop), &one, sizeof one);
	return true;
}

/* Whether p's call c (stack pointer sp), on a regular file outside any stdio call the shim
 * saw, is stdio's, made from a call the shim cannot see (putc_unlocked and getc_unlocked are
 * macros; an inlined fputc_unlocked): a flush (write) or a refill (read) of the bytes of a
 * stream's buffer on its fd, or the fstat that sizes a new buffer. Read only then, so a
 * program's own writes cost one read of its chain. */
bool
prog_marks_unseen(struct pt_proc *p, const struct call_row *c, struct peek *m, uint64_t sp)
{
	const uint64_t *a = p->stop.args;
	uint64_t iov[2] = { 0, 0 }, len;
	int fd = c->fd >= 0 ? (int)a[(int)c->fd] : -1;
	enum prog_streams_hold h;

	memset(&p->unseen_of, 0, sizeof p->unseen_of);
	p->unseen_buf = 0;
	p->unchecked = false;
	if (p->in_stdio || p->loader || !p->regular || fd != p->file_fd ||
	    (c->flags & (CALL_READ2 | CALL_WRITE2)))
		return false;
	switch (p->stop.nr) {
	case SYS_read: case SYS_pread64: case SYS_write: case SYS_pwrite64:
		p->unseen_buf = a[1];
		len = a[2];
		break;
	case SYS_fstat:
#ifdef SYS_newfstatat
	case SYS_newfstatat:
#endif
#if defined(__i386__)
	case SYS_fstat64: case SYS_fstatat64:
#endif
		/* Its stat of a stream's file, to size the buffer it allocates: for the stream
		 * on fd with none yet, when only one has none. */
		if (!prog_streams_allocating(p->stdio, sp))
			return false;
		prog_streams_unallocated(p->stdio, fd, &p->unseen_of);
		return true;
	case SYS_writev: case SYS_pwritev:
		/* Its first buffer. */
		if (a[2] < 1 || !peek_read(m, a[1], iov, sizeof iov))
			return false;
		p->unseen_buf = iov[0];
		len = iov[1];
		break;
	default:
		return false;
	}
	h = prog_streams_holds(p->stdio, fd, p->unseen_buf, len, &p->unseen_of);
	p->unchecked = h == PROG_STREAMS_TOO_MANY;
	return h == PROG_STREAMS_HELD;
}

/* A marker: the thread's state's address, a full log, a call's end, exit()'s flush. True
 * when exit()'s flush begins (the tracer tells its hook); the tracer resumes p. */
bool
prog_marks_on(struct prog_trace *t, struct pt_proc *p, const uint64_t *args)
{
	t->st.markers++;
	p->in_sys = false;
	switch (args[1]) {
	case PROG_MARK_HELLO:
		p->shim = args[2];
		p->taken = 0;
		p->run_first = p->run_taken = p->last_seq = 0;
		p->cur_seq = 0;
		memset(&p->tls, 0, sizeof p->tls);
		break;
	case PROG_MARK_FULL:
		/* Its calls were queued at this stop: the shim may overwrite them now. */
		if (p->shim != 0 && marks_poke(p->pid, p->shim + offsetof(struct prog_mark_tls, read),
		                               &p->taken, sizeof p->taken) == 0)
			p->tls.read = p->taken;
		break;
	case PROG_MARK_EXIT:
		if (p->shim == 0 || p->tls.cur.id != PROG_MARK_EXIT_ID)
			break;
		/* From here on, the process's calls are exit()'s flush of its streams. */
		prog_marks_at_call(p);
		return true;
	default:
		break;
	}
	return false;
}

/* A stdio step's fields but its calls, from the call c of process pid. */
static void
marks_step(pid_t pid, const struct prog_mark_call *c, struct prog_step *out)
{
	memset(out, 0, PROG_STEP_HEAD);
	out->path[0] = '\0';
	out->kind = PROG_STEP_STDIO;
	out->pid = pid;
	out->ev.fd = out->ev.fd2 = -1;
	out->file_fd = -1;
	out->func_id = c->id;
	out->func_base = prog_marks_base(c->id);
	out->func = prog_marks_name(c->id);
	out->file = c->file;
	out->stdio_fd = c->fd;
	out->arg[0] = c->a;
	out->arg[1] = c->b;
	memcpy(out->str[0], c->str, sizeof c->str);
	memcpy(out->str[1], c->str2, sizeof c->str2);
	out->size = c->size;
	out->ret = c->ret;
	out->literal = (c->flags & PROG_MARK_F_LITERAL) != 0;
	if (c->flags & PROG_MARK_F_STATE) {
		out->stream_known = true;
		prog_streams_from_call(c, &out->stream);
		out->head_len = c->head_len;
		memcpy(out->head, c->head, c->head_len);
	}
}

/* The step of a logged call. */
void
prog_marks_logged_step(const struct pt_logged *l, struct prog_step *out)
{
	marks_step(l->pid, &l->c, out);
	out->stream_name = l->name;
	out->logged = !l->now;
	out->dev = l->dev;
	out->ino = l->ino;
	out->calls = l->calls;
	out->src = l->src;
}

/* Tell p's shim where its calls from return addresses in (lo, hi] with this frame find
 * their function's caller's return address. */
void
prog_marks_tell_up(struct pt_proc *p, uint64_t lo, uint64_t hi, uint64_t frame, uint64_t off)
{
	struct prog_mark_up e = { .lo = lo, .hi = hi, .frame = frame, .off = off };
	unsigned k;

	if (p->shim == 0 || hi <= lo || frame == 0 || off >= PROG_MARK_UP_MAX)
		return;
	for (k = 0; k < PROG_MARK_UPS; k++)
		if (memcmp(&p->tls.up[k], &e, sizeof e) == 0)
			return;
	k = p->up_next++ % PROG_MARK_UPS;
	if (marks_poke(p->pid, p->shim + offsetof(struct prog_mark_tls, up) + k * sizeof e, &e,
	               sizeof e) == 0)
		p->tls.up[k] = e;
}

/* The line of logged call l's step out: its walked stack's; else, when the shim kept the word
 * a walk from its call site and frame found the caller's return address in, that walk's;
 * else its call site's. */
static void
marks_src(const struct prog_trace *t, const struct pt_logged *l, struct prog_step *out)
{
	if (out->src.pc != 0 || l->c.caller == 0)
		return;
	if (l->c.up == 0 || !prog_srcloc_logged(t->src, l->tgid, l->c.caller, l->c.file,
	                                        l->c.up_off, l->c.up, &out->src))
		prog_srcloc_at(t->src, l->tgid, l->c.caller, &out->src);
}

/* True if the queued call l can be in a batch: it moves data, made no system call, and its
 * thread is not stopped right after it. */
static bool
marks_batchable(const struct pt_logged *l)
{
	return !l->now && l->calls.n == 0 && l->calls.dropped == 0 &&
	       prog_marks_class(l->c.id) != PROG_MARK_CTL;
}

/* True if the queued call b goes in the batch of a: the same function, thread, stream, fd,
 * file and call site. */
static bool
marks_batches(const struct pt_logged *a, const struct pt_logged *b)
{
	return marks_batchable(b) && b->pid == a->pid && b->c.id == a->c.id &&
	       b->c.file == a->c.file && b->c.fd == a->c.fd && b->dev == a->dev &&
	       b->c.caller == a->c.caller &&
	       b->ino == a->ino && ((b->c.flags ^ a->c.flags) & PROG_MARK_F_STATE) == 0;
}

/* The oldest logged call queued (with the run it ends, batching), as the next step. */
bool
prog_marks_next(struct prog_trace *t, struct prog_step *out)
{
	size_t n = 1;
	uint64_t calls;

	if (t->qhead >= t->qn)
		return false;
	if (t->batch && marks_batchable(&t->q[t->qhead]))
		while (t->qhead + n < t->qn && marks_batches(&t->q[t->qhead], &t->q[t->qhead + n]))
			n++;
	calls = 0;
	for (size_t i = 0; i < n; i++)
		calls += t->q[t->qhead + i].c.count;
	t->bhead = t->qhead;
	t->bn = n;
	t->bcalls = calls;
	t->bcur = t->qhead;
	t->bcur_at = 0;
	prog_marks_logged_step(&t->q[t->qhead + n - 1], out);
	marks_src(t, &t->q[t->qhead + n - 1], out);
	t->qhead += n;
	t->st.steps += calls;
	out->seq = t->st.steps;
	out->batch = calls;
	return true;
}

/* What every thread logged since its last stop, read while they run. */
void
prog_marks_drain_all(struct prog_trace *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		prog_marks_drain(t, &t->procs[i], false, false);
}

/* exit()'s flush as a step. */
void
prog_marks_exit_step(struct pt_proc *p, struct prog_step *out)
{
	marks_step(p->pid, &p->cur, out);
	out->stdio_fd = -1;
	out->file = 0;
	out->src = p->cur_src;
	out->calls = p->inner;
	memset(&p->inner, 0, sizeof p->inner);
	p->inner.source = EV_SRC_PTRACE;
}

/* Runs of logged calls as one step, or not. */
void
prog_trace_set_batch(struct prog_trace *t, bool on)
{
	t->batch = on;
}

/* The entry of the batch returned last that call k of it (from 0) is in, and the call's
 * place in that entry's run (*j, from 0). Asked in order, one step each. */
static const struct pt_logged *
marks_batch_at(struct prog_trace *t, uint64_t k, uint64_t *j)
{
	if (k < t->bcur_at) {
		t->bcur = t->bhead;
		t->bcur_at = 0;
	}
	while (t->bcur + 1 < t->bhead + t->bn && k >= t->bcur_at + t->q[t->bcur].c.count) {
		t->bcur_at += t->q[t->bcur].c.count;
		t->bcur++;
	}
	*j = k - t->bcur_at;
	return &t->q[t->bcur];
}

/* A call of the batch returned last, as a step. A call of a run but its last is as the last
 * was, but for the bytes the calls after it added (they only added to the buffer). */
void
prog_trace_batch_step(struct prog_trace *t, uint64_t k, struct prog_step *out)
{
	uint64_t j;
	const struct pt_logged *l = marks_batch_at(t, k, &j);
	struct pt_logged one = *l;
	uint64_t back = l->c.count > j ? l->c.count - 1 - j : 0;

	if (back > 0) {
		/* Its caller's caller, when the run's calls had more than one, is not known. */
		if (one.c.flags & PROG_MARK_F_UPS)
			one.c.up = 0;
		one.c.seq -= back;
		one.c.write_ptr -= back * one.c.size;
		if (one.c.write_ptr - one.c.write_base < one.c.head_len)
			one.c.head_len = (uint8_t)(one.c.write_ptr - one.c.write_base);
	}
	one.c.count = 1;
	prog_marks_logged_step(&one, out);
	marks_src(t, &one, out);
	out->seq = t->st.steps - t->bcalls + 1 + k;
}

/* A call of the batch returned last: its argument, result, bytes and first string; how
 * many calls from it on are alike (a run's rest). */
uint64_t
prog_trace_batch_call(struct prog_trace *t, uint64_t k, int64_t *arg, int64_t *ret,
                      uint64_t *size, const char **str)
{
	uint64_t j;
	const struct prog_mark_call *c = &marks_batch_at(t, k, &j)->c;

	*arg = c->a;
	*ret = c->ret;
	*size = c->size;
	*str = c->str;            /* ended by marks_clean */
	return c->count > j ? c->count - j : 1;
}
