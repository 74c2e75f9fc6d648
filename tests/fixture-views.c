/* SPDX-License-Identifier: MIT */
/* fixture-views.c: a hand-built run of exercise 13-3; it tests drawing, not the kernel. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-views.h"
#include "lesson/lesson.h"

/* A hand-built run of "fopen, fwrite 5000, fflush, fsync": it tests drawing, not the kernel. */
static struct scn_step steps[4];
static struct scn_expect want[3];
struct scenario fix_scn;
struct step_result fix_res[FIX_STEPS];
static struct expect_result er[3];
struct snapshot fix_initial;

/* Add one event to a step. */
static void
add_event(struct step_result *sr, const char *call, int fd, uint64_t bytes, int64_t result,
          int err, uint64_t ns, enum ev_origin origin)
{
	struct event e = { .fd = fd, .bytes = bytes, .offset = -1, .result = result, .err = err,
	                   .ns = ns, .ns_traced = true, .origin = origin };
	snprintf(e.call, sizeof e.call, "%s", call);
	if (event_list_add(&sr->events, &e) != 0)
		abort();
}

/* Fill the cache and disk parts of a snapshot: size bytes, dirty pages from the start. */
static void
set_file(struct snapshot *s, uint64_t size, uint64_t dirty, bool allocated)
{
	s->cache.source = SNAP_SRC_CACHESTAT;
	s->cache.has_dirty = true;
	s->cache.file_size = size;
	s->cache.pages = (size + 4095) / 4096;
	s->cache.pages_per_cell = 1;
	s->cache.n_cells = s->cache.pages;
	s->cache.cached = s->cache.pages;
	s->cache.dirty = dirty;
	for (size_t i = 0; i < s->cache.n_cells; i++)
		s->cache.cells[i] = (struct snap_cell){ 1, i < dirty, 0 };
	s->disk.source = SNAP_SRC_FIEMAP;
	snprintf(s->disk.fs, sizeof s->disk.fs, "ext4");
	snprintf(s->disk.device, sizeof s->disk.device, "/dev/vda");
	s->disk.n_extents = size > 0;
	s->disk.allocated_bytes = s->disk.delalloc_bytes = 0;
	if (size > 0) {
		uint64_t len = s->cache.pages * 4096;
		s->disk.extents[0] = (struct snap_extent){ 0, allocated ? 123456789 : 0, len,
		                        (allocated ? 0 : SNAP_EXT_DELALLOC | SNAP_EXT_UNKNOWN) |
		                        SNAP_EXT_LAST };
		if (allocated)
			s->disk.allocated_bytes = len;
		else
			s->disk.delalloc_bytes = len;
	}
}

/* Build the run. */
void
fixture_build(void)
{
	struct snapshot s;

	memset(fix_res, 0, sizeof fix_res);
	memset(&fix_initial, 0, sizeof fix_initial);
	set_file(&fix_initial, 0, 0, false);
	steps[0] = (struct scn_step){ .op = SCN_OP_FOPEN };
	steps[1] = (struct scn_step){ .op = SCN_OP_FWRITE,
		.say = "5000 bytes: one write(4096) happened, 904 wait in the stdio buffer." };
	steps[2] = (struct scn_step){ .op = SCN_OP_FFLUSH };
	steps[3] = (struct scn_step){ .op = SCN_OP_FSYNC };
	want[0] = (struct scn_expect){ SCN_KEY_STDIO_PENDING, SCN_CMP_EQ, 904, NULL, "904", 1, 1 };
	want[1] = (struct scn_expect){ SCN_KEY_CALLS_WRITE, SCN_CMP_EQ, 1, NULL, "1", 1, 1 };
	want[2] = (struct scn_expect){ SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_EQ, 2, NULL, "2", 1, 1 };
	er[0] = (struct expect_result){ .want = &want[0], .ok = true, .got = 904, .outcome = EXPECT_HELD };
	er[1] = (struct expect_result){ .want = &want[1], .ok = true, .got = 1, .outcome = EXPECT_HELD };
	er[2] = (struct expect_result){ .want = &want[2], .ok = false, .got = 1, .outcome = EXPECT_FAILED };
	steps[1].expects = want;
	steps[1].n_expects = 3;
	fix_scn = (struct scenario){ .title = "Exercise 13-3: fflush() then fsync()",
	                         .source = "TLPI 13.3", .intro = "What does each call flush, and to where?",
	                         .steps = steps, .n_steps = 4 };

	s = fix_initial;
	for (size_t i = 0; i < 4; i++) {
		fix_res[i].index = i;
		fix_res[i].step = &steps[i];
		fix_res[i].before = s;
		fix_res[i].ok = true;
	}
	/* fopen */
	add_event(&fix_res[0], "openat", -1, 0, 3, 0, 12000, EV_DIRECT);
	snprintf(fix_res[0].events.v[0].detail, sizeof fix_res[0].events.v[0].detail, "O_WRONLY|O_CREAT|O_TRUNC");
	s.stdio = (struct snap_stdio){ .open = true, .fd = 3, .mode = SCN_BUF_FULL };
	s.fd = (struct snap_fd){ .open = true, .fd = 3 };
	fix_res[0].after = s;
	/* fwrite 5000 */
	fix_res[1].before = s;
	add_event(&fix_res[1], "write", 3, 4096, 4096, 0, 3100, EV_STDIO);
	s.stdio.size = 4096;
	s.stdio.pending = 904;
	s.stdio.writing = true;
	memset(s.stdio.head, 'A', sizeof s.stdio.head);
	s.stdio.head_len = sizeof s.stdio.head;
	s.fd.pos = 4096;
	set_file(&s, 4096, 1, false);
	fix_res[1].after = s;
	fix_res[1].expects = er;
	fix_res[1].n_expects = 3;
	fix_res[1].ok = false;
	/* fflush */
	fix_res[2].before = s;
	add_event(&fix_res[2], "write", 3, 904, 904, 0, 1200, EV_STDIO);
	s.stdio.pending = 0;
	s.stdio.head_len = 0;
	s.fd.pos = 5000;
	set_file(&s, 5000, 2, false);
	fix_res[2].after = s;
	/* fsync */
	fix_res[3].before = s;
	add_event(&fix_res[3], "fsync", 3, 0, 0, 0, 98000, EV_DIRECT);
	set_file(&s, 5000, 0, true);
	fix_res[3].after = s;
	/* What changed, as the lesson works it out for a real run. */
	for (size_t i = 0; i < 4; i++)
		lesson_diff(i > 0 ? &fix_res[i - 1].after : NULL, &fix_res[i]);
}

/* Free the events. */
void
fixture_free(void)
{
	for (size_t i = 0; i < 4; i++)
		event_list_clear(&fix_res[i].events);
}

