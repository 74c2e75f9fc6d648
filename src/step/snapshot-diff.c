/* SPDX-License-Identifier: MIT */
/* step/snapshot-diff.c: the conclusions two observations allow about the kernel, said once for
 * every front end (the TUI draws them, the transcripts print them). */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "step/snapshot-diff.h"
#include "base/text.h"
#include "base/units.h"

/* Names of the kinds, for JSON. */
static const char *const snapshot_diff_names[SNAPSHOT_CHANGE__COUNT] = {
	[SNAPSHOT_CHANGE_WRITTEN_BACK] = "written_back",
	[SNAPSHOT_CHANGE_EVICTED] = "evicted",
	[SNAPSHOT_CHANGE_LARGE_FOLIO] = "large_folio",
	[SNAPSHOT_CHANGE_ALLOCATED] = "allocated",
	[SNAPSHOT_CHANGE_RELOCATED] = "relocated",
};

/* The name of kind k. */
const char *
snapshot_diff_kind_name(enum snapshot_change_kind k)
{
	return (unsigned)k < SNAPSHOT_CHANGE__COUNT ? snapshot_diff_names[k] : "?";
}

/* Append one change to d, its sentence made from fmt. */
static void __attribute__((format(printf, 5, 6)))
snapshot_diff_add(struct snapshot_diff *d, enum snapshot_change_kind kind, bool between,
                  uint64_t count, const char *fmt, ...)
{
	struct snapshot_change *c;
	va_list ap;

	if (d->n >= SNAPSHOT_DIFF_MAX)
		return;
	c = &d->v[d->n++];
	c->kind = kind;
	c->between = between;
	c->count = count;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof c->text, fmt, ap);
	va_end(ap);
}

/* The system's page size. */
static uint64_t
snapshot_diff_page(void)
{
	long psz = sysconf(_SC_PAGESIZE);

	return psz > 0 ? (uint64_t)psz : 4096;
}

/* Pages the successful writes of calls touched, each counted one more (it may straddle). */
static uint64_t
snapshot_diff_touched(const struct event_list *calls)
{
	uint64_t touched = 0, p = snapshot_diff_page();

	for (size_t i = 0; i < calls->n; i++) {
		const struct event *e = &calls->v[i];
		if (event_is_write(e) && e->result > 0)
			touched += ((uint64_t)e->result + p - 1) / p + 1;
	}
	return touched;
}

/* True if extent e has blocks of its own (not delalloc, inline or unknown). */
static bool
snapshot_diff_placed(const struct snap_extent *e)
{
	return !(e->flags & (SNAP_EXT_DELALLOC | SNAP_EXT_INLINE | SNAP_EXT_UNKNOWN));
}

/*
 * Bytes of the file that had blocks in a and have other blocks in b: an overwrite that a
 * copy-on-write filesystem put in a new place (measured on btrfs, Linux 6.18: rewriting
 * block 1 of a 4-block file moved it from physical block 32085 to 32003; xfs and ext4
 * overwrite in place).
 */
static uint64_t
snapshot_diff_moved(const struct snap_disk *a, const struct snap_disk *b)
{
	uint64_t moved = 0;

	for (size_t i = 0; i < b->n_extents; i++) {
		const struct snap_extent *eb = &b->extents[i];
		if (!snapshot_diff_placed(eb))
			continue;
		for (size_t j = 0; j < a->n_extents; j++) {
			const struct snap_extent *ea = &a->extents[j];
			uint64_t lo = ea->logical > eb->logical ? ea->logical : eb->logical;
			uint64_t hi = ea->logical + ea->length < eb->logical + eb->length ?
			              ea->logical + ea->length : eb->logical + eb->length;
			if (!snapshot_diff_placed(ea) || lo >= hi)
				continue;
			if (ea->physical - ea->logical != eb->physical - eb->logical)
				moved += hi - lo;
		}
	}
	return moved;
}

/* What changed from a to b. */
void
snapshot_diff(const struct snapshot *a, const struct snapshot *b, const struct event_list *calls,
              struct snapshot_diff *d)
{
	const struct snap_cache *ca = &a->cache, *cb = &b->cache;
	bool between = calls == NULL;
	char s[32];

	/* Two files (the step opened another, and the panes show it now): nothing to compare. */
	if (a->file_ino != 0 && b->file_ino != 0 && a->file_ino != b->file_ino)
		return;

	/* Pages cleaned with no call of ours: the kernel's writeback (its 30 s expiry at a
	 * classroom's pace, or a sync() elsewhere). It is why an expectation about dirty pages
	 * may fail. During a step, a clean is the step's doing: the step's hops show it. */
	if (between && ca->has_dirty && cb->has_dirty && cb->dirty < ca->dirty) {
		uint64_t gone = ca->dirty - cb->dirty;
		snapshot_diff_add(d, SNAPSHOT_CHANGE_WRITTEN_BACK, true, gone,
		                  "Before this step the kernel wrote %" PRIu64 " dirty page%s back on "
		                  "its own (writeback of pages older than dirty_expire_centisecs, or a "
		                  "sync() elsewhere).", gone, gone == 1 ? "" : "s");
	}
	/* Pages gone from the cache while the file did not shrink: evicted (memory pressure,
	 * other programs' files). */
	if (between && ca->source != SNAP_SRC_NONE && cb->source != SNAP_SRC_NONE &&
	    cb->cached < ca->cached && cb->file_size >= ca->file_size) {
		uint64_t gone = ca->cached - cb->cached;
		snapshot_diff_add(d, SNAPSHOT_CHANGE_EVICTED, true, gone,
		                  "Before this step the kernel dropped %" PRIu64 " page%s of this file "
		                  "from the cache (memory pressure).", gone, gone == 1 ? "" : "s");
	}
	/* More pages dirtied than the writes touched: the page cache keeps this file in folios
	 * larger than a page. */
	if (!between && cb->has_dirty && cb->dirty > ca->dirty) {
		uint64_t touched = snapshot_diff_touched(calls), grew = cb->dirty - ca->dirty;
		if (touched > 0 && grew > touched)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_LARGE_FOLIO, false, grew,
			                  "%" PRIu64 " pages dirtied by %" PRIu64 " byte%s: a large folio",
			                  grew, calls->bytes_written,
			                  calls->bytes_written == 1 ? "" : "s");
	}
	/* Blocks that appeared on disk: the filesystem allocated them (at writeback, for a
	 * delayed allocation; at once, for fallocate). */
	if (a->disk.source != SNAP_SRC_NONE && b->disk.source != SNAP_SRC_NONE &&
	    b->disk.allocated_bytes > a->disk.allocated_bytes) {
		uint64_t more = b->disk.allocated_bytes - a->disk.allocated_bytes;
		units_format_size(more, s, sizeof s);
		snapshot_diff_add(d, SNAPSHOT_CHANGE_ALLOCATED, between, more,
		                  "%s %s allocated %s of disk blocks for this file%s.",
		                  between ? "Before this step" : "In this step",
		                  b->disk.fs[0] != '\0' ? b->disk.fs : "the filesystem", s,
		                  between ? " on its own" :
		                  b->disk.delalloc_bytes < a->disk.delalloc_bytes ?
		                  " (delayed allocation resolved)" : "");
	}
	if (a->disk.source != SNAP_SRC_NONE && b->disk.source != SNAP_SRC_NONE) {
		uint64_t moved = snapshot_diff_moved(&a->disk, &b->disk);
		units_format_size(moved, s, sizeof s);
		if (moved > 0 && strcmp(b->disk.fs, "btrfs") == 0)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_RELOCATED, between, moved,
			                  "%s btrfs wrote %s of this file to new blocks instead of over the "
			                  "old ones (copy-on-write: the extent moved on disk).",
			                  between ? "Before this step" : "In this step", s);
		else if (moved > 0)
			snapshot_diff_add(d, SNAPSHOT_CHANGE_RELOCATED, between, moved,
			                  "%s %s put %s of this file on other blocks than before.",
			                  between ? "Before this step" : "In this step",
			                  b->disk.fs[0] != '\0' ? b->disk.fs : "the filesystem", s);
	}
}

/* Names of the origins, for JSON. */
static const char *const snapshot_from_names[SNAPSHOT_FROM__COUNT] = {
	[SNAPSHOT_FROM_ASKED] = "asked",
	[SNAPSHOT_FROM_AHEAD] = "read_ahead",
	[SNAPSHOT_FROM_EARLIER] = "asked_earlier",
	[SNAPSHOT_FROM_BEFORE] = "already_cached",
};

/* The name of origin f. */
const char *
snapshot_from_name(enum snapshot_from f)
{
	return (unsigned)f < SNAPSHOT_FROM__COUNT ? snapshot_from_names[f] : "?";
}

/* The file offsets of the fds a step's calls use, followed call by call. */
#define SNAPSHOT_POS_FDS 8

struct snapshot_fdpos {
	int fd;
	bool known;   /* the offset is known: the observed fd's before the step, or one an open
	               * or an lseek() of the step set, moved by the calls since */
	bool append;  /* opened O_APPEND: a write() moves it to the end, of a size not known */
	uint64_t pos;
};

struct snapshot_pos {
	size_t n;
	struct snapshot_fdpos v[SNAPSHOT_POS_FDS];
};

/* The entry of fd in p, made (offset unknown) if it has none; NULL when p is full. */
static struct snapshot_fdpos *
snapshot_pos_of(struct snapshot_pos *p, int fd)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].fd == fd)
			return &p->v[i];
	if (p->n == SNAPSHOT_POS_FDS)
		return NULL;
	memset(&p->v[p->n], 0, sizeof p->v[p->n]);
	p->v[p->n].fd = fd;
	return &p->v[p->n++];
}

/* Follow e's effect on the offsets of p. A read or write without an offset of its own is
 * at the fd's offset (*at, false when it is not known) and moves it. */
static void
snapshot_pos_step(struct snapshot_pos *p, const struct event *e, bool *known, uint64_t *at)
{
	struct snapshot_fdpos *f;

	*known = false;
	if (e->result < 0)
		return;
	if (event_is_open(e)) {
		if ((f = snapshot_pos_of(p, (int)e->result)) != NULL) {
			f->known = true;
			f->pos = 0;
			f->append = strstr(e->detail, "O_APPEND") != NULL;
		}
		return;
	}
	if (e->fd < 0 || (f = snapshot_pos_of(p, e->fd)) == NULL)
		return;
	if (event_is_seek(e)) {
		f->known = true;
		f->pos = (uint64_t)e->result;
	} else if ((event_is_read(e) || event_is_write(e)) && e->offset < 0) {
		*known = f->known;
		*at = f->pos;
		if (event_is_write(e) && f->append)
			f->known = false;
		f->pos += (uint64_t)e->result;
	}
}

/* Start o: the bytes the calls asked for (a read's from its offset, or from the fd's offset
 * where read() made it: the observed fd's before the step, moved by the step's lseek()s,
 * reads and writes; WILLNEED's range), and whether the cells can tell. */
void
snapshot_origins_begin(const struct snapshot *before, const struct snapshot *after,
                       const struct event_list *calls, struct snapshot_origins *o)
{
	const struct snap_cache *a = &before->cache, *b = &after->cache;
	struct snapshot_pos p = { 0 };
	bool asked = false, read = false, lost = false;

	memset(o, 0, sizeof *o);
	/* Another file than before (the step opened it): its pages have no before here. */
	if (before->file_ino != 0 && after->file_ino != 0 && before->file_ino != after->file_ino)
		return;
	if (before->fd.open) {
		struct snapshot_fdpos *f = snapshot_pos_of(&p, before->fd.fd);

		f->known = true;
		f->pos = before->fd.pos > 0 ? (uint64_t)before->fd.pos : 0;
		f->append = (before->fd.flags & O_APPEND) != 0;
	}
	for (size_t i = 0; calls != NULL && i < calls->n; i++) {
		const struct event *e = &calls->v[i];
		uint64_t at = 0, n;
		bool known;

		snapshot_pos_step(&p, e, &known, &at);
		if (event_is_read(e) && e->result > 0) {
			if (e->offset >= 0)
				at = (uint64_t)e->offset;
			else if (!known)
				lost = true;   /* at an offset nothing here tells */
			n = (uint64_t)e->result;
			read = true;
		} else if (event_is_willneed(e) && e->result == 0 && e->offset >= 0) {
			at = (uint64_t)e->offset;
			n = e->length > 0 ? (uint64_t)e->length :
			    b->file_size > at ? b->file_size - at : 0;
		} else {
			continue;
		}
		if (n == 0 || lost)
			continue;
		if (!asked || at < o->asked_first)
			o->asked_first = at;
		if (!asked || at + n > o->asked_end)
			o->asked_end = at + n;
		asked = true;
	}
	o->prefetch = asked && !read;
	o->completed_only = b->source == SNAP_SRC_MINCORE || b->source == SNAP_SRC_KPAGEFLAGS;
	o->valid = asked && !lost && a->source != SNAP_SRC_NONE && b->source != SNAP_SRC_NONE &&
	           a->pages == b->pages && a->pages_per_cell == b->pages_per_cell &&
	           a->n_cells == b->n_cells && b->n_cells > 0;
}

/* Pages of bytes [first, end) within pages [lo, hi). */
static uint64_t
snapshot_origins_overlap(uint64_t first, uint64_t end, uint64_t lo, uint64_t hi)
{
	uint64_t psz = snapshot_diff_page(), p0, p1;

	if (end <= first)
		return 0;
	p0 = first / psz;
	p1 = (end + psz - 1) / psz;
	if (p0 < lo)
		p0 = lo;
	if (p1 > hi)
		p1 = hi;
	return p1 > p0 ? p1 - p0 : 0;
}

/* The smaller of a and b. */
static uint64_t
snapshot_origins_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The pages of cell i of after by where they came from. */
void
snapshot_origins_cell(const struct snap_cache *before, const struct snap_cache *after,
                      const struct snapshot_origins *o, size_t i, uint64_t *out, uint64_t *hits)
{
	uint64_t ppc = after->pages_per_cell ? after->pages_per_cell : 1, lo = i * ppc, hi;
	uint64_t had, has, fresh, asked, earlier;

	memset(out, 0, SNAPSHOT_FROM__COUNT * sizeof *out);
	if (hits != NULL)
		*hits = 0;
	if (!o->valid || i >= after->n_cells || i >= before->n_cells)
		return;
	hi = lo + ppc < after->pages ? lo + ppc : after->pages;
	had = before->cells[i].cached;
	has = after->cells[i].cached;
	fresh = has > had ? has - had : 0;
	asked = snapshot_origins_overlap(o->asked_first, o->asked_end, lo, hi);
	earlier = snapshot_origins_overlap(o->earlier_first, o->earlier_end, lo, hi);
	out[SNAPSHOT_FROM_BEFORE] = snapshot_origins_min(has, had);
	out[SNAPSHOT_FROM_EARLIER] = snapshot_origins_min(fresh, earlier);
	fresh -= out[SNAPSHOT_FROM_EARLIER];
	out[SNAPSHOT_FROM_ASKED] = snapshot_origins_min(fresh, asked);
	out[SNAPSHOT_FROM_AHEAD] = fresh - out[SNAPSHOT_FROM_ASKED];
	if (hits != NULL)
		*hits = snapshot_origins_min(out[SNAPSHOT_FROM_BEFORE], asked);
}

/* Count o's pages over every cell. */
void
snapshot_origins_count(const struct snapshot *before, const struct snapshot *after,
                       struct snapshot_origins *o)
{
	const struct snap_cache *b = &after->cache;
	uint64_t ppc = b->pages_per_cell ? b->pages_per_cell : 1;

	memset(o->pages, 0, sizeof o->pages);
	o->asked_cached = o->asked_unseen = 0;
	for (size_t i = 0; o->valid && i < b->n_cells; i++) {
		uint64_t v[SNAPSHOT_FROM__COUNT], hits, lo = i * ppc;
		uint64_t hi = lo + ppc < b->pages ? lo + ppc : b->pages;
		uint64_t asked = snapshot_origins_overlap(o->asked_first, o->asked_end, lo, hi);

		snapshot_origins_cell(&before->cache, b, o, i, v, &hits);
		for (int f = 0; f < SNAPSHOT_FROM__COUNT; f++)
			o->pages[f] += v[f];
		o->asked_cached += hits;
		o->asked_unseen += asked - snapshot_origins_min(asked, b->cells[i].cached);
	}
}

/* "N page(s)" into buf. */
static const char *
snapshot_origins_n(uint64_t n, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " page%s", n, n == 1 ? "" : "s");
	return buf;
}

/* o as one sentence. */
char *
snapshot_origins_text(const struct snapshot_origins *o, const char *probe, char *buf, size_t len)
{
	size_t n = 0;
	char a[32], b[32];

	buf[0] = '\0';
	if (!o->valid)
		return buf;
	if (o->pages[SNAPSHOT_FROM_ASKED] == 0 && o->asked_cached > 0)
		text_cat(buf, len, &n, "no new page asked for by this call (the %s it asked for %s "
		         "already cached)", snapshot_origins_n(o->asked_cached, a, sizeof a),
		         o->asked_cached == 1 ? "was" : "were");
	else
		text_cat(buf, len, &n, "%s asked for by this call",
		         snapshot_origins_n(o->pages[SNAPSHOT_FROM_ASKED], a, sizeof a));
	if (o->pages[SNAPSHOT_FROM_ASKED] > 0 && o->asked_cached > 0)
		text_cat(buf, len, &n, " (and %" PRIu64 " more it asked for already cached)",
		         o->asked_cached);
	if (o->prefetch && o->completed_only && o->asked_unseen > 0)
		text_cat(buf, len, &n, " (and %" PRIu64 " not seen yet: %s sees a page once its "
		         "read has completed)", o->asked_unseen, probe);
	else if (!o->prefetch && o->asked_unseen > 0)
		/* A read that leaves its own pages out of the cache: O_DIRECT's. */
		text_cat(buf, len, &n, " (%s it asked for %s not in the cache after it)",
		         snapshot_origins_n(o->asked_unseen, b, sizeof b),
		         o->asked_unseen == 1 ? "is" : "are");
	text_cat(buf, len, &n, ", %" PRIu64 " read ahead by this call", o->pages[SNAPSHOT_FROM_AHEAD]);
	if (o->completed_only && o->pages[SNAPSHOT_FROM_AHEAD] > 0)
		text_cat(buf, len, &n, " (or by an earlier read, seen only now)");
	if (o->pages[SNAPSHOT_FROM_EARLIER] > 0)
		text_cat(buf, len, &n, ", %s asked for by step %zu's posix_fadvise(WILLNEED) and "
		         "seen only now (%s sees a page once its read has completed)",
		         snapshot_origins_n(o->pages[SNAPSHOT_FROM_EARLIER], b, sizeof b),
		         o->earlier_step, probe);
	text_cat(buf, len, &n, ", %" PRIu64 " already cached before it",
	         o->pages[SNAPSHOT_FROM_BEFORE]);
	if (o->pages[SNAPSHOT_FROM_BEFORE] > 0 && o->n_by > 0) {
		text_cat(buf, len, &n, " (brought in by ");
		for (size_t i = 0; i < o->n_by; i++) {
			const char *sep = i == 0 ? "" : i + 1 == o->n_by && !o->by_more ? " and " : ", ";
			if (o->by[i] == 0)
				text_cat(buf, len, &n, "%sno step: cached when the run began", sep);
			else
				text_cat(buf, len, &n, "%sstep %zu's %s%s", sep, o->by[i],
				         scenario_op_name(o->by_op[i]),
				         o->by_willneed[i] ? "(WILLNEED)" : "");
		}
		text_cat(buf, len, &n, "%s)", o->by_more ? " and earlier steps" : "");
	}
	return buf;
}
