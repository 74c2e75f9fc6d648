/* SPDX-License-Identifier: MIT */
/* lesson/expect.h: a step's expectations, checked against what was observed. */
#ifndef IOBUFVIZ_EXPECT_H
#define IOBUFVIZ_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"
#include "step/step.h"

/* The getters, one per key, named in SCN_KEY_LIST: the observed value, or false if unseen. */
#define EXPECT_DECLARE(fn) \
	bool fn(const struct step_result *sr, int64_t *num, struct text_buf *text)
EXPECT_DECLARE(expect_get_stdio_size);
EXPECT_DECLARE(expect_get_stdio_pending);
EXPECT_DECLARE(expect_get_stdio_mode);
EXPECT_DECLARE(expect_get_calls_write);
EXPECT_DECLARE(expect_get_calls_read);
EXPECT_DECLARE(expect_get_calls_total);
EXPECT_DECLARE(expect_get_bytes_written);
EXPECT_DECLARE(expect_get_bytes_read);
EXPECT_DECLARE(expect_get_cache_pages);
EXPECT_DECLARE(expect_get_cache_dirty_pages);
EXPECT_DECLARE(expect_get_cache_writeback_pages);
EXPECT_DECLARE(expect_get_cache_cleaned_pages);
EXPECT_DECLARE(expect_get_cache_dirty_before);
EXPECT_DECLARE(expect_get_disk_allocated_bytes);
EXPECT_DECLARE(expect_get_disk_delalloc_bytes);
EXPECT_DECLARE(expect_get_disk_unwritten_bytes);
EXPECT_DECLARE(expect_get_disk_inline_bytes);
EXPECT_DECLARE(expect_get_result_errno);
EXPECT_DECLARE(expect_get_result_value);
EXPECT_DECLARE(expect_get_output);
EXPECT_DECLARE(expect_get_output_file);
EXPECT_DECLARE(expect_get_exit_status);
EXPECT_DECLARE(expect_get_result_flags);
EXPECT_DECLARE(expect_get_file_size);
EXPECT_DECLARE(expect_get_file_content);
/* lesson/expect-crash.c */
EXPECT_DECLARE(expect_get_device_writes);
EXPECT_DECLARE(expect_get_device_write_bytes);
EXPECT_DECLARE(expect_get_device_flushes);
EXPECT_DECLARE(expect_get_crash_process_exists);
EXPECT_DECLARE(expect_get_crash_process_size);
EXPECT_DECLARE(expect_get_crash_process_content);
EXPECT_DECLARE(expect_get_crash_power_exists);
EXPECT_DECLARE(expect_get_crash_power_size);
EXPECT_DECLARE(expect_get_crash_power_content);
EXPECT_DECLARE(expect_get_crash_power_strays);

/* A getter's *num when it returns false because the fact does not exist (no FILE*, no
 * output): observed absence, which fails an expectation, unlike a fact this run cannot see. */
#define EXPECT_ABSENT INT64_MIN

/*
 * The observed value of key for step result sr: numeric in *num and as text. Return false
 * when this run cannot observe it (e.g. dirty pages without cachestat), with the reason in text
 * ("dirty pages: unknown, because ...") and *num 0; or when the fact is absent, with *num
 * EXPECT_ABSENT.
 */
bool expect_observe(const struct step_result *sr, enum scn_key key, int64_t *num,
                    struct text_buf *text);

/* True if key is a fact of sr's file at all; else false, with why in text (dirty and
 * writeback pages on tmpfs, which has no disk: their getters give 0 there). */
bool expect_applies(const struct step_result *sr, enum scn_key key, struct text_buf *text);

/* Check expectation w against sr into r: held, failed, or not observable (r->got_text says
 * why). Returns r->outcome. */
enum expect_outcome expect_check(const struct step_result *sr, const struct scn_expect *w,
				 struct expect_result *r);

/* Fill sr->expects (one per scn_expect of its step: held, failed or not observable),
 * sr->ok (none failed) and sr->n_unobservable. 0, or -1 out of memory. */
int expect_eval(struct step_result *sr);

/*
 * lesson/expect-crash.c: true if key is a power cut's (crash.power.*) or the device's
 * (device.*) and sr's did not hold when stray writes (between the lesson's steps or during
 * its waits: a journal's timer, writeback, another process's sync()) had reached the crash
 * lab's device first, or if fewer (a smaller count would have held) and key is the device's:
 * the device counts what reached it from anyone, and what others sent during a step adds to
 * the step's own. Then the outcome was not the lesson's doing alone, and is not observable
 * here. A power cut that kept more than wanted with no stray write is failed: the writes of
 * the lesson's own steps (a close() after O_TRUNC, a rename(), an fsync()) are its doing.
 * text holds what was got, and gets the reason.
 */
/* lesson/expect-crash.c: true if key is a power cut's or the device's and stray writes (the
 * kernel's, between the lesson's steps) had reached the crash lab's device by sr. */
bool expect_crash_strays(const struct step_result *sr, enum scn_key key);

bool expect_crash_undetermined(const struct step_result *sr, enum scn_key key, bool fewer,
                               struct text_buf *text);

/*
 * lesson/expect-crash.c: true if w, a power cut's (crash.power.*) that held, says it kept
 * something (it would not hold had the power cut kept no file, or an empty one) and stray
 * writes had reached the crash lab's device since the lesson last made the file durable: what
 * it kept may be theirs (a journal's timer committed what no call asked for), so it is not
 * observable here as the lesson's doing. text (what was got) gets the reason; kept gets what
 * was got. A sentence that rests on [crash.power.strays >= 1] tells that case: held.
 */
bool expect_crash_kept(const struct step_result *sr, const struct scn_expect *w,
                       struct text_buf *text, struct text_buf *kept);

/*
 * lesson/expect-crash.c: true if w is a power cut's (crash.power.*), the power cut was observed
 * and it kept less than wanted: no file, fewer bytes than crash.power.size wanted (more: a
 * larger count would have held), or fewer than the text crash.power.content or .prefix wanted.
 * The kernel's writes between steps (stray writes) commit what the run's own calls did, only
 * sooner: they can make a power cut keep more of a file than its calls made durable, not lose
 * it. A file lost or short is then the run's doing (an fsync() missing), failed whatever
 * strayed: no excuse of expect_crash_undetermined.
 */
bool expect_crash_lost(const struct step_result *sr, const struct scn_expect *w, bool more);

/* Append the wanted value ("= 904", ">= 1", "= line", "= EINVAL", '= "text"') to b, whole. */
void expect_want_add(const struct scn_expect *e, struct text_buf *b);

/* The wanted value as expect_want_add writes it, into buf; a text that does not fit is cut
 * and ends in "…" (a column). Return buf. */
char *expect_format_want(const struct scn_expect *e, char *buf, size_t len);

#endif
