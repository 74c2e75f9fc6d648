/* SPDX-License-Identifier: MIT */
/* check-diff.c: snapshot_diff on hand-made observations (no kernel, no worker). */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "lesson/lesson.h"
#include "step/snapshot-diff.h"
#include "test-util.h"

/* A file of size bytes, cached and dirty page counts as given, allocated bytes on ext4. */
static struct snapshot
snap(uint64_t size, uint64_t cached, uint64_t dirty, uint64_t allocated, uint64_t delalloc)
{
	struct snapshot s;

	memset(&s, 0, sizeof s);
	s.cache.source = SNAP_SRC_CACHESTAT;
	s.cache.has_dirty = true;
	s.cache.file_size = size;
	s.cache.pages = (size + 4095) / 4096;
	s.cache.cached = cached;
	s.cache.dirty = dirty;
	s.disk.source = SNAP_SRC_FIEMAP;
	snprintf(s.disk.fs, sizeof s.disk.fs, "ext4");
	s.disk.allocated_bytes = allocated;
	s.disk.delalloc_bytes = delalloc;
	return s;
}

/* An event list holding one write of n bytes (free with event_list_clear). */
static struct event_list
one_write(int64_t n)
{
	struct event_list l = { .source = EV_SRC_PTRACE };
	struct event e = { .fd = 3, .bytes = (uint64_t)n, .offset = -1, .result = n };

	snprintf(e.call, sizeof e.call, "write");
	ck_assert_int_eq(event_list_add(&l, &e), 0);
	l.bytes_written = (uint64_t)n;
	return l;
}

/* Assert that d holds one change, of this kind, span, count and sentence (text NULL: any). */
static void
one_change(const struct snapshot_diff *d, enum snapshot_change_kind kind, bool between,
           uint64_t count, const char *text)
{
	ck_assert_uint_eq(d->n, 1);
	ck_assert_int_eq(d->v[0].kind, kind);
	ck_assert_int_eq(d->v[0].between, between);
	ck_assert_uint_eq(d->v[0].count, count);
	if (text != NULL)
		ck_assert_str_eq(d->v[0].text, text);
}

/* An extent of a snapshot: len bytes of the file at logical, on disk at physical. */
static void
put_extent(struct snapshot *s, uint64_t logical, uint64_t physical, uint64_t len)
{
	s->disk.extents[s->disk.n_extents++] = (struct snap_extent){ logical, physical, len, 0 };
}

/* btrfs's copy-on-write, as filefrag -v showed it: block 1 of 4 rewritten moves. */
START_TEST(test_relocated)
{
	struct snapshot a = snap(16384, 4, 0, 16384, 0), b = a;
	struct snapshot_diff d = { 0 };

	snprintf(a.disk.fs, sizeof a.disk.fs, "btrfs");
	snprintf(b.disk.fs, sizeof b.disk.fs, "btrfs");
	put_extent(&a, 0, 32084 * 4096ull, 16384);
	put_extent(&b, 0, 32084 * 4096ull, 4096);
	put_extent(&b, 4096, 32003 * 4096ull, 4096);
	put_extent(&b, 8192, 32086 * 4096ull, 8192);
	snapshot_diff(&a, &b, NULL, &d);
	one_change(&d, SNAPSHOT_CHANGE_RELOCATED, true, 4096, "Before this step btrfs wrote 4 KiB "
	           "of this file to new blocks instead of over the old ones (copy-on-write: the "
	           "extent moved on disk).");
	ck_assert_str_eq(snapshot_diff_kind_name(d.v[0].kind), "relocated");
	/* Split but in place (xfs, ext4): nothing moved. */
	b.disk.extents[1].physical = 32085 * 4096ull;
	d.n = 0;
	snapshot_diff(&a, &b, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_same_is_nothing)
{
	struct snapshot a = snap(8192, 2, 2, 0, 8192);
	struct snapshot_diff d = { 0 };
	struct event_list none = { 0 };

	snapshot_diff(&a, &a, NULL, &d);
	snapshot_diff(&a, &a, &none, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_written_back_between)
{
	struct snapshot a = snap(8192, 2, 2, 0, 8192), b = snap(8192, 2, 1, 0, 8192);
	struct snapshot_diff d = { 0 };

	snapshot_diff(&a, &b, NULL, &d);
	one_change(&d, SNAPSHOT_CHANGE_WRITTEN_BACK, true, 1, "Before this step the kernel wrote 1 dirty page back on its "
	           "own (writeback of pages older than dirty_expire_centisecs, or a sync() "
	           "elsewhere).");
	ck_assert_str_eq(snapshot_diff_kind_name(d.v[0].kind), "written_back");
}
END_TEST

START_TEST(test_cleaned_by_the_step_is_not_said)
{
	/* fsync cleaned the pages: the step did it, not the kernel on its own. */
	struct snapshot a = snap(8192, 2, 2, 8192, 0), b = snap(8192, 2, 0, 8192, 0);
	struct snapshot_diff d = { 0 };
	struct event_list none = { 0 };

	snapshot_diff(&a, &b, &none, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_dirty_unknown)
{
	/* mincore: dirtiness unknown, so no writeback can be concluded. */
	struct snapshot a = snap(8192, 2, 2, 0, 0), b = snap(8192, 2, 0, 0, 0);
	struct snapshot_diff d = { 0 };

	b.cache.has_dirty = false;
	snapshot_diff(&a, &b, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_evicted)
{
	struct snapshot a = snap(3 * 4096, 3, 0, 0, 0), b = snap(3 * 4096, 1, 0, 0, 0);
	struct snapshot_diff d = { 0 };

	snapshot_diff(&a, &b, NULL, &d);
	one_change(&d, SNAPSHOT_CHANGE_EVICTED, true, 2, "Before this step the kernel dropped 2 "
	           "pages of this file from the cache (memory pressure).");
	/* A truncate shrinks the file: its pages going is no eviction. */
	memset(&d, 0, sizeof d);
	b.cache.file_size = 4096;
	snapshot_diff(&a, &b, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
	/* Not observable on one side: nothing can be said. */
	b = snap(3 * 4096, 1, 0, 0, 0);
	b.cache.source = SNAP_SRC_NONE;
	snapshot_diff(&a, &b, NULL, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_large_folio)
{
	/* One byte written, sixteen pages dirty: a 64 KiB folio. */
	struct snapshot a = snap(65536, 16, 0, 65536, 0), b = snap(65536, 16, 16, 65536, 0);
	struct event_list w = one_write(1);
	struct snapshot_diff d = { 0 };

	snapshot_diff(&a, &b, &w, &d);
	one_change(&d, SNAPSHOT_CHANGE_LARGE_FOLIO, false, 16,
	           "16 pages dirtied by 1 byte: a large folio");
	/* Two pages dirtied by a write that touches up to two: page-sized, nothing to say. */
	memset(&d, 0, sizeof d);
	b.cache.dirty = 2;
	snapshot_diff(&a, &b, &w, &d);
	ck_assert_uint_eq(d.n, 0);
	/* Dirtied with no write of ours seen: no conclusion either. */
	b.cache.dirty = 16;
	event_list_clear(&w);
	w = (struct event_list){ 0 };
	snapshot_diff(&a, &b, &w, &d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

START_TEST(test_allocated)
{
	struct snapshot a = snap(8192, 2, 2, 0, 8192), b = snap(8192, 2, 0, 8192, 0);
	struct event_list none = { 0 };
	struct snapshot_diff d = { 0 };

	snapshot_diff(&a, &b, &none, &d);
	one_change(&d, SNAPSHOT_CHANGE_ALLOCATED, false, 8192, "In this step ext4 allocated 8 KiB "
	           "of disk blocks for this file (delayed allocation resolved).");
	/* Between the steps, with the writeback that went with it: both said, writeback first. */
	memset(&d, 0, sizeof d);
	snapshot_diff(&a, &b, NULL, &d);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_int_eq(d.v[0].kind, SNAPSHOT_CHANGE_WRITTEN_BACK);
	ck_assert_int_eq(d.v[1].kind, SNAPSHOT_CHANGE_ALLOCATED);
	ck_assert(d.v[1].between);
	ck_assert_str_eq(d.v[1].text, "Before this step ext4 allocated 8 KiB of disk blocks for "
	                 "this file on its own.");
}
END_TEST

START_TEST(test_lesson_diff)
{
	/* A step: the kernel cleaned a page before it, then the step allocated. */
	struct step_result sr;
	struct snapshot prev = snap(8192, 2, 2, 0, 8192);

	memset(&sr, 0, sizeof sr);
	sr.before = snap(8192, 2, 1, 0, 8192);
	sr.after = snap(8192, 2, 0, 8192, 0);
	lesson_diff(&prev, &sr);
	ck_assert_uint_eq(sr.changes.n, 2);
	ck_assert_int_eq(sr.changes.v[0].kind, SNAPSHOT_CHANGE_WRITTEN_BACK);
	ck_assert(sr.changes.v[0].between);
	ck_assert_int_eq(sr.changes.v[1].kind, SNAPSHOT_CHANGE_ALLOCATED);
	ck_assert(!sr.changes.v[1].between);
	/* The first step has nothing before it to compare with. */
	lesson_diff(NULL, &sr);
	one_change(&sr.changes, SNAPSHOT_CHANGE_ALLOCATED, false, 8192, NULL);
}
END_TEST

/* The steps pages_step() makes, for their ops. */
static struct scn_step pages_steps[16];
static size_t pages_next;

/* A step of an n-page file (one page a cell): cached before where the string has a '#' (else
 * '.'), cached after likewise; calls: one call of this name, offset, length or bytes. */
static void
pages_step(struct step_result *sr, enum scn_op op, const char *before, const char *after,
           const char *call, int64_t off, int64_t len, const char *detail)
{
	size_t n = strlen(before);
	struct event e = { .fd = 3, .offset = off, .length = -1, .result = len };

	memset(sr, 0, sizeof *sr);
	sr->before = snap(n * 4096, 0, 0, n * 4096, 0);
	sr->after = sr->before;
	sr->before.cache.pages_per_cell = sr->after.cache.pages_per_cell = 1;
	sr->before.cache.n_cells = sr->after.cache.n_cells = n;
	for (size_t i = 0; i < n; i++) {
		sr->before.cache.cells[i].cached = before[i] == '#';
		sr->after.cache.cells[i].cached = after[i] == '#';
		sr->before.cache.cached += before[i] == '#';
		sr->after.cache.cached += after[i] == '#';
	}
	snprintf(e.call, sizeof e.call, "%s", call);
	if (detail != NULL) {
		/* posix_fadvise: its range, and a result of 0. */
		snprintf(e.detail, sizeof e.detail, "%s", detail);
		e.length = len;
		e.result = 0;
	} else {
		e.bytes = (uint64_t)len;
	}
	ck_assert_int_eq(event_list_add(&sr->events, &e), 0);
	pages_steps[pages_next % 16].op = op;
	sr->step = &pages_steps[pages_next++ % 16];
}

START_TEST(test_origins)
{
	/* 13.5's steps 8, 9, 12 and 13, as cachestat saw them and ftrace confirmed (the pages
	 * each call added to the page cache: mm_filemap_add_to_page_cache). */
	struct step_result h[4];
	const struct snapshot_origins *o;
	char text[512];

	/* Read page 0, read-ahead on: pages 0-3 came, 1 asked for and 3 read ahead. */
	pages_step(&h[0], SCN_OP_PREAD, "........", "####....", "pread64", 0, 4096, NULL);
	lesson_origins(h, 0, &h[0]);
	o = &h[0].origins;
	ck_assert(o->valid && !o->prefetch);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_ASKED], 1);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_AHEAD], 3);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_BEFORE], 0);
	ck_assert_str_eq(snapshot_origins_text(o, "cachestat", text, sizeof text),
	                 "1 page asked for by this call, 3 read ahead by this call, 0 already "
	                 "cached before it");
	/* Read page 1, cached by then: a hit; the next window read ahead. */
	pages_step(&h[1], SCN_OP_PREAD, "####....", "########", "pread64", 4096, 4096, NULL);
	lesson_origins(h, 1, &h[1]);
	o = &h[1].origins;
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_ASKED], 0);
	ck_assert_uint_eq(o->asked_cached, 1);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_AHEAD], 4);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_BEFORE], 4);
	ck_assert_uint_eq(o->n_by, 1);
	ck_assert_uint_eq(o->by[0], 1);
	ck_assert_str_eq(snapshot_origins_text(o, "cachestat", text, sizeof text),
	                 "no new page asked for by this call (the 1 page it asked for was already "
	                 "cached), 4 read ahead by this call, 4 already cached before it (brought "
	                 "in by step 1's pread)");
	/* WILLNEED of pages 0-3 on a cold file: asked for by the call, read in the background. */
	pages_step(&h[2], SCN_OP_FADVISE, "........", "####....", "fadvise64", 0, 16384,
	           "POSIX_FADV_WILLNEED");
	lesson_origins(h, 2, &h[2]);
	o = &h[2].origins;
	ck_assert(o->valid && o->prefetch);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_ASKED], 4);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_AHEAD], 0);
	/* 13.5 step 13: a read of page 2 finds the four pages WILLNEED brought in. */
	pages_step(&h[3], SCN_OP_PREAD, "####....", "####....", "pread64", 8192, 4096, NULL);
	lesson_origins(h, 3, &h[3]);
	o = &h[3].origins;
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_ASKED], 0);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_AHEAD], 0);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_BEFORE], 4);
	ck_assert_uint_eq(o->by[0], 3);
	ck_assert_int_eq(o->by_op[0], SCN_OP_FADVISE);
	for (int i = 0; i < 4; i++)
		event_list_clear(&h[i].events);
}
END_TEST

START_TEST(test_origins_seen_late)
{
	/* mincore counts a page once its read has completed: WILLNEED's pages show up during
	 * the next step, a read inside its range. They are the WILLNEED's, not read-ahead. */
	struct step_result h[2];
	const struct snapshot_origins *o;
	char text[512];

	pages_step(&h[0], SCN_OP_FADVISE, "........", "........", "fadvise64", 0, 16384,
	           "POSIX_FADV_WILLNEED");
	h[0].after.cache.source = SNAP_SRC_MINCORE;
	lesson_origins(h, 0, &h[0]);
	ck_assert_uint_eq(h[0].origins.asked_unseen, 4);
	ck_assert_str_eq(snapshot_origins_text(&h[0].origins, "mincore", text, sizeof text),
	                 "0 pages asked for by this call (and 4 not seen yet: mincore sees a page "
	                 "once its read has completed), 0 read ahead by this call, 0 already cached "
	                 "before it");
	pages_step(&h[1], SCN_OP_PREAD, "........", "####....", "pread64", 8192, 4096, NULL);
	h[1].after.cache.source = SNAP_SRC_MINCORE;
	lesson_origins(h, 1, &h[1]);
	o = &h[1].origins;
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_EARLIER], 4);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_ASKED], 0);
	ck_assert_uint_eq(o->pages[SNAPSHOT_FROM_AHEAD], 0);
	ck_assert_uint_eq(o->earlier_step, 1);
	/* Seen between the two steps instead: cached before the read, brought in by step 1. */
	event_list_clear(&h[1].events);
	pages_step(&h[1], SCN_OP_PREAD, "####....", "####....", "pread64", 8192, 4096, NULL);
	lesson_origins(h, 1, &h[1]);
	ck_assert_uint_eq(h[1].origins.pages[SNAPSHOT_FROM_BEFORE], 4);
	ck_assert_uint_eq(h[1].origins.by[0], 1);
	event_list_clear(&h[0].events);
	event_list_clear(&h[1].events);
}
END_TEST

START_TEST(test_origins_none)
{
	/* No page asked for (a write, DONTNEED, a failed or O_DIRECT read's nothing cached), or
	 * not observable: nothing to say. An O_DIRECT read asks, and finds nothing cached. */
	struct step_result sr;
	char text[512];

	pages_step(&sr, SCN_OP_PWRITE, "........", "#.......", "pwrite64", 0, 4096, NULL);
	lesson_origins(NULL, 0, &sr);
	ck_assert(!sr.origins.valid);
	event_list_clear(&sr.events);
	pages_step(&sr, SCN_OP_FADVISE, "####....", "........", "fadvise64", 0, 0,
	           "POSIX_FADV_DONTNEED");
	lesson_origins(NULL, 0, &sr);
	ck_assert(!sr.origins.valid);
	event_list_clear(&sr.events);
	pages_step(&sr, SCN_OP_PREAD, "........", "........", "pread64", 0, -1, NULL);
	lesson_origins(NULL, 0, &sr);
	ck_assert(!sr.origins.valid);
	event_list_clear(&sr.events);
	pages_step(&sr, SCN_OP_PREAD, "........", "........", "pread64", 0, 4096, NULL);
	lesson_origins(NULL, 0, &sr);
	ck_assert(sr.origins.valid);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_ASKED], 0);
	ck_assert_uint_eq(sr.origins.asked_unseen, 1);
	ck_assert_str_eq(snapshot_origins_text(&sr.origins, "cachestat", text, sizeof text),
	                 "0 pages asked for by this call (1 page it asked for is not in the cache "
	                 "after it), 0 read ahead by this call, 0 already cached before it");
	sr.after.cache.source = SNAP_SRC_NONE;
	lesson_origins(NULL, 0, &sr);
	ck_assert(!sr.origins.valid);
	event_list_clear(&sr.events);
}
END_TEST

START_TEST(test_origins_read_at_offset)
{
	/* read() has no offset of its own: the fd's offset before the step, then moving on. */
	struct step_result sr;

	pages_step(&sr, SCN_OP_READ, "........", "..###...", "read", -1, 8192, NULL);
	sr.before.fd.open = true;
	sr.before.fd.fd = 3;
	sr.before.fd.pos = 8192;
	lesson_origins(NULL, 0, &sr);
	ck_assert_uint_eq(sr.origins.asked_first, 8192);
	ck_assert_uint_eq(sr.origins.asked_end, 16384);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_ASKED], 2);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_AHEAD], 1);
	event_list_clear(&sr.events);
}
END_TEST

/* Append a call of this name on fd 3 to l: offset, result, its detail (NULL: none). */
static void
add_call(struct event_list *l, const char *call, int64_t off, int64_t result)
{
	struct event e = { .fd = 3, .fd2 = -1, .offset = off, .offset2 = -1, .length = -1,
	                   .result = result };

	snprintf(e.call, sizeof e.call, "%s", call);
	if (result > 0 && strcmp(call, "lseek") != 0)
		e.bytes = (uint64_t)result;
	ck_assert_int_eq(event_list_add(l, &e), 0);
}

START_TEST(test_origins_after_lseek)
{
	/* 13-5 step 4: the fd's offset is at the end (step 3 read the last block), the step
	 * seeks to the end, then to 0, and read()s 65536 bytes: it asked for the whole file, 15
	 * pages new (ftrace: mm_filemap_add_to_page_cache of pages 0-14 inside the read) and the
	 * last one cached before. The offset read() used is the lseek()'s, not the one before. */
	struct step_result sr;

	pages_step(&sr, SCN_OP_TAIL, "...............#", "################", "lseek", 0, 65536,
	           NULL);
	sr.before.fd.open = true;
	sr.before.fd.fd = 3;
	sr.before.fd.pos = 65536;
	add_call(&sr.events, "lseek", 0, 0);
	add_call(&sr.events, "read", -1, 65536);
	lesson_origins(NULL, 0, &sr);
	ck_assert(sr.origins.valid);
	ck_assert_uint_eq(sr.origins.asked_first, 0);
	ck_assert_uint_eq(sr.origins.asked_end, 65536);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_ASKED], 15);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_AHEAD], 0);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_BEFORE], 1);
	ck_assert_uint_eq(sr.origins.asked_cached, 1);
	event_list_clear(&sr.events);

	/* 13-5 step 2: byte by byte backwards from the end, each read() one byte after its own
	 * lseek(): what it asked for is the last page, not bytes 65507 on from the old offset. */
	pages_step(&sr, SCN_OP_TAIL, "................", "...............#", "lseek", 0, 65536,
	           NULL);
	sr.before.fd.open = true;
	sr.before.fd.fd = 3;
	sr.before.fd.pos = 0;
	for (int64_t at = 65535; at >= 65507; at--) {
		add_call(&sr.events, "lseek", at, at);
		add_call(&sr.events, "read", -1, 1);
	}
	lesson_origins(NULL, 0, &sr);
	ck_assert_uint_eq(sr.origins.asked_first, 65507);
	ck_assert_uint_eq(sr.origins.asked_end, 65536);
	ck_assert_uint_eq(sr.origins.pages[SNAPSHOT_FROM_ASKED], 1);
	ck_assert_uint_eq(sr.origins.asked_unseen, 0);
	event_list_clear(&sr.events);

	/* A read() on an fd whose offset nothing here tells (not the one observed, neither
	 * opened nor sought in the step): no origins, rather than a guess. */
	pages_step(&sr, SCN_OP_READ, "........", "####....", "read", -1, 4096, NULL);
	sr.before.fd.open = true;
	sr.before.fd.fd = 4;
	lesson_origins(NULL, 0, &sr);
	ck_assert(!sr.origins.valid);
	event_list_clear(&sr.events);
}
END_TEST

/* The suite. */
static Suite *
diff_suite(void)
{
	Suite *s = suite_create("snapshot-diff");
	TCase *tc = tcase_create("diff");
	tcase_add_test(tc, test_same_is_nothing);
	tcase_add_test(tc, test_relocated);
	tcase_add_test(tc, test_written_back_between);
	tcase_add_test(tc, test_cleaned_by_the_step_is_not_said);
	tcase_add_test(tc, test_dirty_unknown);
	tcase_add_test(tc, test_evicted);
	tcase_add_test(tc, test_large_folio);
	tcase_add_test(tc, test_allocated);
	tcase_add_test(tc, test_lesson_diff);
	tcase_add_test(tc, test_origins);
	tcase_add_test(tc, test_origins_seen_late);
	tcase_add_test(tc, test_origins_none);
	tcase_add_test(tc, test_origins_read_at_offset);
	tcase_add_test(tc, test_origins_after_lseek);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(diff_suite());
}
