/* SPDX-License-Identifier: MIT */
/* lesson/expect.c: a step's expectations, checked against what was observed. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson/adapt.h"
#include "trace/decode.h"
#include "lesson/expect.h"
#include "scenario/names.h"

/* Set text to s, whole, with "\r\n" folded to "\n" (a pty writes CR LF). */
static void
expect_normalise(const char *s, struct text_buf *text)
{
	text_reset(text);
	while (*s != '\0') {
		size_t n = strcspn(s, "\r");
		text_addn(text, s, n);
		s += n;
		if (*s == '\r') {
			if (s[1] != '\n')
				text_addn(text, s, 1);
			s++;
		}
	}
}

/* The stdio state after the step; with no FILE* the fact is absent (observed: there is no
 * buffer), which fails any expectation, so the getter reports EXPECT_ABSENT, not unknown. */
static bool
expect_stdio(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!sr->after.stdio.open) {
		text_setf(text, "no FILE* open");
		*num = EXPECT_ABSENT;
		return false;
	}
	return true;
}

/* stdio.size: the FILE*'s buffer size. */
bool
expect_get_stdio_size(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_stdio(sr, num, text))
		return false;
	*num = (int64_t)sr->after.stdio.size;
	return true;
}

/* stdio.pending: bytes waiting in the FILE*'s buffer. */
bool
expect_get_stdio_pending(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_stdio(sr, num, text))
		return false;
	*num = (int64_t)sr->after.stdio.pending;
	return true;
}

/* stdio.mode: the FILE*'s buffering mode. */
bool
expect_get_stdio_mode(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_stdio(sr, num, text))
		return false;
	*num = (int64_t)sr->after.stdio.mode;
	text_setf(text, "%s", scenario_names_of(scn_bufmodes, (int)sr->after.stdio.mode));
	return true;
}

/*
 * Without ptrace, a stdio op's calls are counted from /proc/PID/io: false with the reason in
 * text when that could not be read (the counts would be 0, a guess).
 */
static bool
expect_calls(const struct step_result *sr, struct text_buf *text)
{
	if (sr->events.source == EV_SRC_PROCIO && !sr->after.disk.io_ok &&
	    scenario_op_has(sr->step->op, SCN_OPF_MANY)) {
		text_setf(text, "calls: unknown, because stdio's calls are counted from "
		         "/proc/PID/io without ptrace, and it could not be read");
		return false;
	}
	return true;
}

/* calls.write: write-type calls the step made. */
bool
expect_get_calls_write(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_calls(sr, text))
		return false;
	*num = (int64_t)sr->events.n_write;
	return true;
}

/* calls.read: read-type calls the step made. */
bool
expect_get_calls_read(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_calls(sr, text))
		return false;
	*num = (int64_t)sr->events.n_read;
	return true;
}

/* calls.total: every call on the file (only ptrace sees them all). */
bool
expect_get_calls_total(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (sr->events.source != EV_SRC_PTRACE) {
		text_setf(text, "calls: unknown, because only ptrace sees every call on the "
		         "file and this run traces through /proc/PID/io");
		return false;
	}
	*num = (int64_t)(sr->events.n + sr->events.dropped);
	return true;
}

/* bytes.written: bytes the step's calls wrote. */
bool
expect_get_bytes_written(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_calls(sr, text))
		return false;
	*num = (int64_t)sr->events.bytes_written;
	return true;
}

/* bytes.read: bytes the step's calls read. */
bool
expect_get_bytes_read(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_calls(sr, text))
		return false;
	*num = (int64_t)sr->events.bytes_read;
	return true;
}

/* cache.pages: the file's pages in the page cache. */
bool
expect_get_cache_pages(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (sr->after.cache.source == SNAP_SRC_NONE) {
		text_setf(text, "cached pages: unknown, because %s",
		         sr->after.cache.note[0] ? sr->after.cache.note : "no page cache source worked");
		return false;
	}
	*num = (int64_t)sr->after.cache.cached;
	return true;
}

/* The cache's dirty state, or false with the reason in text. */
static bool
expect_dirty(const struct step_result *sr, struct text_buf *text)
{
	const struct snap_cache *c = &sr->after.cache;

	if (c->source == SNAP_SRC_NONE || !c->has_dirty) {
		/* The probe's note already says "dirty pages: unknown, because ...". */
		if (strstr(c->note, "dirty pages: unknown") != NULL)
			text_setf(text, "%s", strstr(c->note, "dirty pages: unknown"));
		else
			text_setf(text, "dirty pages: unknown, because %s",
			         c->note[0] ? c->note : "no page cache source tells dirty pages");
		return false;
	}
	return true;
}

/* True if key is a fact of sr's file at all; else false, with why in text: dirty and
 * writeback pages on tmpfs, which has no disk for a page to be newer than or written to. */
bool
expect_applies(const struct step_result *sr, enum scn_key key, struct text_buf *text)
{
	if ((key != SCN_KEY_CACHE_DIRTY_PAGES && key != SCN_KEY_CACHE_WRITEBACK_PAGES &&
	     key != SCN_KEY_CACHE_CLEANED_PAGES && key != SCN_KEY_CACHE_DIRTY_BEFORE) ||
	    !snapshot_in_memory(&sr->after))
		return true;
	text_setf(text, "%s pages do not apply on %s: it has no disk, so nothing is ever "
		 "waiting to be written back", key == SCN_KEY_CACHE_DIRTY_PAGES ? "dirty" :
		 key == SCN_KEY_CACHE_WRITEBACK_PAGES ? "writeback" :
		 key == SCN_KEY_CACHE_CLEANED_PAGES ? "cleaned" : "dirty",
		 sr->after.disk.fs);
	return false;
}

/* cache.dirty_pages: dirty pages of the file (none on tmpfs: nothing waits for a disk). */
bool
expect_get_cache_dirty_pages(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_applies(sr, SCN_KEY_CACHE_DIRTY_PAGES, text)) {
		*num = 0;
		return true;
	}
	if (!expect_dirty(sr, text))
		return false;
	*num = (int64_t)sr->after.cache.dirty;
	return true;
}

/* cache.writeback_pages: pages under writeback (none on tmpfs). */
bool
expect_get_cache_writeback_pages(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_applies(sr, SCN_KEY_CACHE_WRITEBACK_PAGES, text)) {
		*num = 0;
		return true;
	}
	if (!expect_dirty(sr, text))
		return false;
	*num = (int64_t)sr->after.cache.writeback;
	return true;
}

/* cache.cleaned_pages: pages the step took from dirty or under writeback to clean (the
 * step's own writing back, fsync's: none when the kernel's writeback had taken them before
 * it; none on tmpfs). */
bool
expect_get_cache_cleaned_pages(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	const struct snap_cache *b = &sr->before.cache, *a = &sr->after.cache;
	uint64_t was, is;

	if (!expect_applies(sr, SCN_KEY_CACHE_CLEANED_PAGES, text)) {
		*num = 0;
		return true;
	}
	if (!expect_dirty(sr, text))
		return false;
	if (b->source == SNAP_SRC_NONE || !b->has_dirty) {
		text_setf(text, "cleaned pages: unknown, because the dirty pages before the step "
		         "are not known");
		return false;
	}
	was = b->dirty + b->writeback;
	is = a->dirty + a->writeback;
	*num = was > is ? (int64_t)(was - is) : 0;
	return true;
}

/* cache.dirty_before: pages dirty or under writeback as the step began (observed then, after
 * any pause: what the kernel wrote back while a person paused is not counted). */
bool
expect_get_cache_dirty_before(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	const struct snap_cache *b = &sr->before.cache;

	if (!expect_applies(sr, SCN_KEY_CACHE_DIRTY_BEFORE, text)) {
		*num = 0;
		return true;
	}
	if (b->source == SNAP_SRC_NONE || !b->has_dirty) {
		text_setf(text, "dirty pages before the step: unknown, because %s",
		         b->note[0] ? b->note : "no page cache source tells dirty pages");
		return false;
	}
	*num = (int64_t)(b->dirty + b->writeback);
	return true;
}

/* The file's extents, or false with the reason in text. */
static bool
expect_disk(const struct step_result *sr, struct text_buf *text)
{
	const struct snapshot *s = &sr->after;

	if (s->disk.source == SNAP_SRC_NONE) {
		if (snapshot_in_memory(&sr->after))
			text_setf(text, "disk: unknown, because %s keeps data in memory; there is "
			         "no disk", s->disk.fs);
		else
			text_setf(text, "disk: unknown, because %s",
			         s->disk.note[0] ? s->disk.note : "FIEMAP did not answer");
		return false;
	}
	return true;
}

/* disk.allocated_bytes: bytes with blocks on disk. */
bool
expect_get_disk_allocated_bytes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_disk(sr, text))
		return false;
	*num = (int64_t)sr->after.disk.allocated_bytes;
	return true;
}

/* disk.delalloc_bytes: bytes waiting for delayed allocation. */
bool
expect_get_disk_delalloc_bytes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_disk(sr, text))
		return false;
	*num = (int64_t)sr->after.disk.delalloc_bytes;
	return true;
}

/* disk.unwritten_bytes: bytes allocated but never written. */
bool
expect_get_disk_unwritten_bytes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_disk(sr, text))
		return false;
	*num = (int64_t)sr->after.disk.unwritten_bytes;
	return true;
}

/* disk.inline_bytes: the file's bytes kept inline in the filesystem's metadata. */
bool
expect_get_disk_inline_bytes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_disk(sr, text))
		return false;
	*num = (int64_t)sr->after.disk.inline_bytes;
	return true;
}

/* result.errno: the call's errno. */
bool
expect_get_result_errno(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	*num = sr->err;
	text_setf(text, "%s", scenario_errno_name(sr->err));
	return true;
}

/* result.value: the call's return value. */
bool
expect_get_result_value(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	(void)text;
	*num = sr->ret;
	return true;
}

/* Captured output o as text; none is absent (the op did not run), not unknown. */
static bool
expect_output(const char *o, int64_t *num, struct text_buf *text)
{
	if (o == NULL) {
		text_setf(text, "no output captured");
		*num = EXPECT_ABSENT;
		return false;
	}
	expect_normalise(o, text);
	return true;
}

/* output: what reached the terminal (pty) or what tail printed. */
bool
expect_get_output(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_output(sr->output, num, text);
}

/* output.file: what reached the file (pty). */
bool
expect_get_output_file(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_output(sr->output_file, num, text);
}

/* exit.status: how a run step's program ended (its exit code; 128 + N if signal N killed it). */
bool
expect_get_exit_status(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	*num = sr->ret;
	if (sr->ret < 0)
		text_setf(text, "the program did not run");
	return sr->ret >= 0;
}

/* result.flags: what fcntl(F_GETFL) returned, as flag names. */
bool
expect_get_result_flags(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	char flags[256];

	if (sr->ret < 0) {
		text_setf(text, "no flags: the call failed (%s)", scenario_errno_name(sr->err));
		*num = EXPECT_ABSENT;
		return false;
	}
	text_setf(text, "%s", decode_open_flags((int)sr->ret, flags, sizeof flags));
	*num = sr->ret;
	return true;
}

/* file.size: the scratch file's size after the step (fstat by the runner). */
bool
expect_get_file_size(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	(void)text;
	*num = (int64_t)sr->after.cache.file_size;
	return true;
}

/* file.content and file.prefix: the scratch file's bytes after the step. */
bool
expect_get_file_content(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_output(sr->file_content, num, text);
}

/* The key table's getter column: each key's observed value in a step result. */
static bool (*const expect_get[SCN_KEY__COUNT])(const struct step_result *, int64_t *,
                                                struct text_buf *) = {
	SCN_KEY_LIST(SCN_KEY_GET)
};

/* Observed value of a key: its getter, and the number as text unless the getter wrote one. */
bool
expect_observe(const struct step_result *sr, enum scn_key key, int64_t *num, struct text_buf *text)
{
	*num = 0;
	text_reset(text);
	if ((unsigned)key >= SCN_KEY__COUNT) {
		text_setf(text, "unknown key");
		return false;
	}
	if (!expect_get[key](sr, num, text)) {
		if (*num != EXPECT_ABSENT)
			*num = 0;
		return false;
	}
	if (text->len == 0 && scn_key_table[key].type != SCN_KT_TEXT)
		text_setf(text, "%" PRId64, *num);
	return true;
}

/* True if a count below got (and not below 0) would have held w. */
static bool
expect_fewer_hold(const struct scn_expect *w, int64_t got)
{
	if (got <= 0 || w->str != NULL)
		return false;
	if (w->cmp == SCN_CMP_EQ)
		return w->num >= 0 && w->num < got;
	/* <, <= and != hold at 0 or 1 if below got at all; > and >= never hold lower. */
	return scenario_cmp_holds(w->cmp, 0, w->num) ||
	       (got > 1 && scenario_cmp_holds(w->cmp, 1, w->num));
}

/* True if a count above got would hold w (a number, wanted equal to more, or at least). */
static bool
expect_more_hold(const struct scn_expect *w, int64_t got)
{
	if (w->str != NULL)
		return false;
	if (w->cmp == SCN_CMP_EQ)
		return w->num > got;
	return w->cmp == SCN_CMP_GE || w->cmp == SCN_CMP_GT;
}

/* The wanted value as text, whole. */
void
expect_want_add(const struct scn_expect *e, struct text_buf *b)
{
	const char *op = scenario_cmp_name(e->cmp);

	if (e->str != NULL)
		text_addf(b, "%s \"%s\"", op, e->str);
	else if (scn_key_table[e->key].type == SCN_KT_BUFMODE)
		text_addf(b, "%s %s", op, scenario_names_of(scn_bufmodes, (int)e->num));
	else if (scn_key_table[e->key].type == SCN_KT_YESNO)
		text_addf(b, "%s %s", op, scenario_names_of(scn_yesno, (int)e->num));
	else if (scn_key_table[e->key].type == SCN_KT_ERRNO)
		text_addf(b, "%s %s", op, scenario_errno_name((int)e->num));
	else
		text_addf(b, "%s %" PRId64, op, e->num);
}

/* The wanted value as text, in a column. */
char *
expect_format_want(const struct scn_expect *e, char *buf, size_t len)
{
	struct text_buf b = { 0 };
	size_t at = 0;

	expect_want_add(e, &b);
	buf[0] = '\0';
	text_cat(buf, len, &at, "%s", text_str(&b));
	text_buf_free(&b);
	return buf;
}

/*
 * An O_DIRECT transfer on btrfs that is not aligned to its sectors is not refused: btrfs runs
 * it as buffered I/O (measured on Linux 6.18 with ftrace: a 512-byte read makes no
 * iomap_dio_rw_begin, and page_cache_sync_ra reads 4 pages in; statx reports no DIO
 * alignment). True, with the reason in text, when sr was such a transfer and succeeded;
 * for a cache.pages expectation (key), also when sr was an aligned O_DIRECT call on btrfs
 * that left the count of cached pages as it was: a read after buffered ones, or a write
 * whose page something else held.
 */
static bool
expect_direct_fallback(const struct step_result *sr, enum scn_key key, struct text_buf *text)
{
	const struct snapshot *s = &sr->after;
	enum scn_op op = sr->step->op;
	unsigned bad;

	/* A transfer on the fd: read, write, pread, pwrite. */
	if (strcmp(s->disk.fs, "btrfs") != 0 || !s->fd.open || !(s->fd.flags & O_DIRECT) ||
	    sr->ret < 0 || s->disk.block_size == 0 || !scenario_op_has(op, SCN_OPF_FD) ||
	    !scenario_op_has(op, SCN_OPF_READS | SCN_OPF_WRITES))
		return false;
	bad = scenario_dio_misfit(&sr->step->args, s->disk.block_size, s->disk.block_size);
	if (bad == 0 && key == SCN_KEY_CACHE_PAGES && s->cache.source != SNAP_SRC_NONE &&
	    sr->before.cache.source != SNAP_SRC_NONE && s->cache.cached > 0 &&
	    s->cache.cached == sr->before.cache.cached) {
		/* An aligned write that dropped nothing: btrfs (6.18, data checksummed) writes it
		 * through the cache, writes it back, then invalidate_mapping_pages(), which skips
		 * a page anything else holds (mapped, locked, or queued in another CPU's LRU
		 * batch after a second access; measured with ftrace, tests/btrfs-direct.sh). */
		if (scenario_op_has(op, SCN_OPF_WRITES)) {
			text_setf(text, "btrfs wrote this O_DIRECT call through the page cache "
			         "and then dropped only the pages nothing else held (a process's "
			         "mapping, a CPU's LRU list): the %" PRIu64 " cached before it are all "
			         "still cached", s->cache.cached);
			return true;
		}
		/* A true direct read, after buffered ones that left pages behind. */
		text_setf(text, "this O_DIRECT call added no page to the cache; the %" PRIu64
		         " cached were there before it (btrfs leaves them when it runs a misaligned "
		         "O_DIRECT call as buffered I/O)", s->cache.cached);
		return true;
	}
	if (bad == 0)
		return false;
	text_setf(text, "btrfs ran this O_DIRECT call as buffered I/O, through the page cache "
	         "(the %s is not a multiple of its %" PRIu32 "-byte sectors): it does not refuse "
	         "it with EINVAL, so O_DIRECT's rules cannot be shown on btrfs",
	         (bad & SCN_HAS_BYTES) ? "size" : (bad & SCN_HAS_OFFSET) ? "offset" : "buffer",
	         s->disk.block_size);
	return true;
}

/*
 * With blocks smaller than a page, mincore(2) (and kpageflags, which finds pages through it)
 * counts only pages that are wholly up to date, and a page a write filled in part is not: a
 * count of cached (or, with kpageflags, dirty) pages is then a lower bound. True, with the reason in text, when sr's
 * count of got pages may be short of want for that reason.
 */
static bool
expect_pages_short(const struct step_result *sr, int64_t got, int64_t want, struct text_buf *text)
{
	const struct snapshot *s = &sr->after;
	long page = sysconf(_SC_PAGESIZE);

	if (got >= want || s->disk.block_size == 0 || (long)s->disk.block_size >= page ||
	    (s->cache.source != SNAP_SRC_MINCORE && s->cache.source != SNAP_SRC_KPAGEFLAGS))
		return false;
	text_setf(text, "pages: %" PRId64 " seen, a lower bound, because %s counts only "
		 "pages wholly up to date, and with %" PRIu32 "-byte blocks a page a write filled in "
		 "part is not", got, s->cache.source == SNAP_SRC_MINCORE ? "mincore" : "kpageflags",
		 s->disk.block_size);
	return true;
}

/*
 * The kernel guarantees nothing about how long a page stays dirty: its flusher threads, or a
 * sync() in any other process, may write the file back at any time. True, with the reason
 * in text, when w wants the file not written back yet (cache.dirty_pages or
 * disk.delalloc_bytes =, >= or > a number above 0; disk.allocated_bytes =, <= or < a number),
 * got less written back than that, and the kernel's own writeback took the file since the
 * lesson last wrote it back itself (sr->kernel_writeback, counted by probe/wbwatch.c where it
 * can be), sr not being a sync itself: then the lesson's point was not shown here, and it did
 * not fail. The lesson's own writebacks (fsync, close() after O_TRUNC, ...) are not counted:
 * a lesson that teaches them still fails when they do not happen.
 */
static bool
expect_written_back(const struct step_result *sr, const struct scn_expect *w, int64_t got,
		    struct text_buf *text)
{
	bool fewer = (w->num > 0 && (w->cmp == SCN_CMP_EQ || w->cmp == SCN_CMP_GE) &&
		      got < w->num) || (w->num > 0 && w->cmp == SCN_CMP_GT && got <= w->num);
	bool more = ((w->cmp == SCN_CMP_EQ || w->cmp == SCN_CMP_LE) && got > w->num) ||
		    (w->cmp == SCN_CMP_LT && got >= w->num);
	const char *what;
	/* Where the kernel's writebacks cannot be counted (a user without tracefs), one may
	 * have taken the file unseen; not after a step that writes back itself (fsync(), ...),
	 * whose expectation still fails when the lesson is wrong. */
	bool unseen = sr->kernel_writeback == 0 && sr->writeback_unwatched &&
		      sr->step != NULL && (unsigned)sr->step->op < SCN_OP__COUNT &&
		      scn_op_table[sr->step->op].layer != SCN_LAYER_DISK;

	if ((sr->kernel_writeback == 0 && !unseen) || sr->step == NULL ||
	    sr->step->op == SCN_OP_SYNC)
		return false;
	if (w->key == SCN_KEY_CACHE_DIRTY_PAGES && fewer)
		what = "dirty pages";
	else if (w->key == SCN_KEY_CACHE_CLEANED_PAGES && fewer)
		what = "pages this step took from dirty to clean";
	else if (w->key == SCN_KEY_DISK_DELALLOC_BYTES && fewer)
		what = "bytes waiting for delayed allocation";
	else if (w->key == SCN_KEY_DISK_ALLOCATED_BYTES && more)
		what = "bytes with blocks on disk";
	else
		return false;
	if (unseen)
		text_setf(text, "%s: %" PRId64 " seen; the kernel's writeback (a sync() elsewhere "
			 "or its flusher threads) may have taken this file, and this run cannot count "
			 "its writebacks (no tracefs for this user): nothing keeps pages dirty", what,
			 got);
	else
		text_setf(text, "%s: %" PRId64 " seen; the kernel's writeback (a sync() elsewhere "
			 "or its flusher threads) took this file after the lesson last wrote it back "
			 "itself: nothing keeps pages dirty", what, got);
	return true;
}

/* Pages of the file the kernel dropped from the cache between two steps up to sr (memory
 * pressure: at a person's pace, other programs' pages): in all the pauses so far, where the
 * lesson counted them (sr->evicted), else in the one before sr, as sr->changes says; 0:
 * none. A page dropped in an earlier pause is as missing at sr as one dropped just before. */
static uint64_t
expect_evicted_between(const struct step_result *sr)
{
	for (size_t i = 0; i < sr->changes.n; i++)
		if (sr->changes.v[i].kind == SNAPSHOT_CHANGE_EVICTED && sr->changes.v[i].between)
			return sr->changes.v[i].count > sr->evicted ? sr->changes.v[i].count :
			       sr->evicted;
	return sr->evicted;
}

/* Check expectation w against sr into r (held, failed or not observable). */
enum expect_outcome
expect_check(const struct step_result *sr, const struct scn_expect *w, struct expect_result *r)
{
	bool seen, held;

	memset(r, 0, sizeof *r);
	r->want = w;
	seen = expect_observe(sr, w->key, &r->got, &r->got_text);
	if (!seen && r->got != EXPECT_ABSENT)
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	if (!seen) {
		r->got = 0;
		held = false;
	} else if (w->str != NULL) {
		/* Both texts whole: a difference past any length is a difference. */
		struct text_buf want = { 0 };
		const char *got = text_str(&r->got_text);
		expect_normalise(w->str, &want);
		held = (scn_key_table[w->key].type == SCN_KT_PREFIX ?
			strncmp(text_str(&want), got, want.len) == 0 :
			strcmp(text_str(&want), got) == 0) == (w->cmp == SCN_CMP_EQ);
		text_buf_free(&want);
	} else
		held = scenario_cmp_holds(w->cmp, r->got, w->num);
	/* What the lesson meant to show did not happen here, and why is known. */
	if (!held && (w->key == SCN_KEY_RESULT_ERRNO || w->key == SCN_KEY_RESULT_VALUE ||
		      w->key == SCN_KEY_CACHE_PAGES) &&
	    expect_direct_fallback(sr, w->key, &r->got_text)) {
		r->contradicted = seen;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	/* Time's doing: writes the kernel made between the lesson's steps (a journal commit,
	 * writeback, a sync() elsewhere; at a person's pace, --pace) changed what a crash
	 * keeps. Not the lesson's failure: not observable here, and why; what was seen
	 * contradicts the expectation, so a sentence on it is false here (by another writer). */
	if (!held && !expect_crash_lost(sr, w, expect_more_hold(w, r->got)) &&
	    expect_crash_undetermined(sr, w->key, expect_fewer_hold(w, r->got),
	                              &r->got_text)) {
		r->contradicted = seen;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	if (!held && (w->key == SCN_KEY_CACHE_PAGES || w->key == SCN_KEY_CACHE_DIRTY_PAGES) &&
	    w->cmp != SCN_CMP_NE &&
	    w->cmp != SCN_CMP_LT && w->cmp != SCN_CMP_LE &&
	    expect_pages_short(sr, r->got, w->num + (w->cmp == SCN_CMP_GT), &r->got_text)) {
		/* A lower bound below the count wanted does not contradict it: unknown, not
		 * false (and no other writer's doing). */
		r->contradicted = false;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	/* Fewer pages cached than wanted, by no more than the kernel dropped between the steps
	 * (memory pressure while a person paused): time's doing, not the lesson's. */
	if (!held && seen && w->key == SCN_KEY_CACHE_PAGES &&
	    (w->cmp == SCN_CMP_GE || w->cmp == SCN_CMP_GT || w->cmp == SCN_CMP_EQ) &&
	    r->got < w->num + (w->cmp == SCN_CMP_GT) &&
	    (uint64_t)(w->num + (w->cmp == SCN_CMP_GT) - r->got) <= expect_evicted_between(sr)) {
		text_setf(&r->got_text, "pages cached: %" PRId64 " seen; between "
			 "the steps up to this one the kernel dropped %" PRIu64 " of them from the "
			 "cache (memory pressure): nothing keeps pages cached", r->got,
			 expect_evicted_between(sr));
		r->contradicted = true;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	/* The kernel's own writeback, time's doing too (above): not observable; a sentence on
	 * what was seen otherwise is false here, by another writer. */
	if (!held && expect_written_back(sr, w, r->got, &r->got_text)) {
		r->contradicted = seen;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	/* Held, but what the power cut kept may be the kernel's doing between the steps, not
	 * the lesson's: not observable here, and why. */
	if (held && expect_crash_kept(sr, w, &r->got_text, &r->kept_text)) {
		r->by_strays = true;
		return r->outcome = EXPECT_NOT_OBSERVABLE;
	}
	r->ok = held;
	return r->outcome = held ? EXPECT_HELD : EXPECT_FAILED;
}

/* Check every expectation of the step. */
int
expect_eval(struct step_result *sr)
{
	const struct scn_step *st = sr->step;

	expect_results_free(sr->expects, sr->n_expects);
	sr->expects = NULL;
	sr->n_expects = 0;
	sr->ok = true;
	sr->n_unobservable = 0;
	if (st == NULL)
		return 0;
	const struct scn_expect **ws = adapt_expects(sr, &sr->n_expects);
	if (ws == NULL && sr->n_expects > 0)
		return -1;
	sr->expects = sr->n_expects > 0 ? calloc(sr->n_expects, sizeof *sr->expects) : NULL;
	if (sr->expects == NULL) {
		free(ws);
		return sr->n_expects > 0 ? -1 : 0;
	}
	for (size_t i = 0; i < sr->n_expects; i++) {
		switch (expect_check(sr, ws[i], &sr->expects[i])) {
		case EXPECT_NOT_OBSERVABLE:
			sr->n_unobservable++;
			break;
		case EXPECT_FAILED:
			sr->ok = false;
			break;
		case EXPECT_HELD:
			break;
		}
	}
	free(ws);
	return 0;
}
