/* SPDX-License-Identifier: MIT */
/* lesson/expect-crash.c: the expectation keys of what survives a crash (crash.process.*,
 * crash.power.*) and of what reached the crash lab's device (device.*), and when a power cut's
 * outcome was not the lesson's doing alone. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash.h"
#include "lesson/expect.h"

/* why without the "not observable here: " a front end puts before it. */
static const char *
expect_crash_why(const char *why)
{
	static const char *const prefixes[] = { "not observable here: ", "not observable: " };

	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(why, prefixes[i], strlen(prefixes[i])) == 0)
			return why + strlen(prefixes[i]);
	return why;
}

/* The step's crash half (power or the process's), or NULL with why in text. */
static const struct crash_half *
expect_crash_half(const struct step_result *sr, bool power, struct text_buf *text)
{
	const struct crash_half *h;

	if (sr->crash == NULL) {
		text_setf(text, "no crash was made at this step%s%s", sr->note.len > 0 ? ": " : "",
		          text_str(&sr->note));
		return NULL;
	}
	h = power ? &sr->crash->power : &sr->crash->process;
	if (!h->observed) {
		text_setf(text, "%s", expect_crash_why(h->why));
		return NULL;
	}
	return h;
}

/* Whether the file exists after the crash. */
static bool
expect_crash_exists(const struct step_result *sr, bool power, int64_t *num, struct text_buf *text)
{
	const struct crash_half *h = expect_crash_half(sr, power, text);

	if (h == NULL)
		return false;
	*num = h->file.exists;
	text_setf(text, "%s", h->file.exists ? "yes" : "no");
	return true;
}

/* The file's size after the crash; no file is absent (it fails every expectation). */
static bool
expect_crash_size(const struct step_result *sr, bool power, int64_t *num, struct text_buf *text)
{
	const struct crash_half *h = expect_crash_half(sr, power, text);

	if (h == NULL)
		return false;
	if (!h->file.exists) {
		text_setf(text, "no file");
		*num = EXPECT_ABSENT;
		return false;
	}
	*num = (int64_t)h->file.size;
	return true;
}

/* The file's first bytes after the crash (up to the first NUL), as text. */
static bool
expect_crash_content(const struct step_result *sr, bool power, int64_t *num, struct text_buf *text)
{
	const struct crash_half *h = expect_crash_half(sr, power, text);
	size_t n;

	if (h == NULL)
		return false;
	if (!h->file.exists) {
		text_setf(text, "no file");
		*num = EXPECT_ABSENT;
		return false;
	}
	n = strnlen((const char *)h->file.head, h->file.head_len);
	text_reset(text);
	text_addn(text, (const char *)h->file.head, n);
	return true;
}

/* crash.process.exists: the file exists after the process is killed. */
bool
expect_get_crash_process_exists(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_exists(sr, false, num, text);
}

/* crash.process.size: its size then. */
bool
expect_get_crash_process_size(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_size(sr, false, num, text);
}

/* crash.process.content and crash.process.prefix: its first bytes then. */
bool
expect_get_crash_process_content(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_content(sr, false, num, text);
}

/* crash.power.exists: the file exists once the kernel has recovered the device's copy. */
bool
expect_get_crash_power_exists(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_exists(sr, true, num, text);
}

/* crash.power.size: its size then. */
bool
expect_get_crash_power_size(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_size(sr, true, num, text);
}

/* crash.power.content and crash.power.prefix: its first bytes then. */
bool
expect_get_crash_power_content(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	return expect_crash_content(sr, true, num, text);
}

/* The step's own device counters, before and after, or false with why in text. */
static bool
expect_device(const struct step_result *sr, struct text_buf *text)
{
	const struct snap_device *a = &sr->before.device, *b = &sr->after.device;

	if (a->source == SNAP_SRC_NONE || b->source == SNAP_SRC_NONE) {
		text_setf(text, "device: unknown, because %s", b->source == SNAP_SRC_NONE &&
		         b->note[0] ? b->note : a->note[0] ? a->note : "its counters could not be read");
		return false;
	}
	return true;
}

/* device.writes: write requests the device completed during the step. */
bool
expect_get_device_writes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_device(sr, text))
		return false;
	*num = (int64_t)(sr->after.device.writes - sr->before.device.writes);
	return true;
}

/* device.write_bytes: the bytes they wrote. */
bool
expect_get_device_write_bytes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_device(sr, text))
		return false;
	*num = (int64_t)(sr->after.device.write_bytes - sr->before.device.write_bytes);
	return true;
}

/* device.flushes: cache flushes the device was asked for during the step. */
bool
expect_get_device_flushes(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	if (!expect_device(sr, text))
		return false;
	*num = (int64_t)(sr->after.device.flushes - sr->before.device.flushes);
	return true;
}

/* True if key is one of the power cut's. */
static bool
expect_crash_is_power(enum scn_key key)
{
	return key == SCN_KEY_CRASH_POWER_EXISTS || key == SCN_KEY_CRASH_POWER_SIZE ||
	       key == SCN_KEY_CRASH_POWER_CONTENT || key == SCN_KEY_CRASH_POWER_PREFIX;
}

/* crash.power.strays: write requests that reached the device between the lesson's steps
 * since it last made the file durable (a journal's timer, writeback, a sync() elsewhere). */
bool
expect_get_crash_power_strays(const struct step_result *sr, int64_t *num, struct text_buf *text)
{
	const struct crash_half *h = expect_crash_half(sr, true, text);

	if (h == NULL)
		return false;
	*num = (int64_t)h->stray_writes;
	text_setf(text, "%" PRIu64, h->stray_writes);
	return true;
}

/* True if key counts what reached the device in a step. */
static bool
expect_crash_is_device(enum scn_key key)
{
	return key == SCN_KEY_DEVICE_WRITES || key == SCN_KEY_DEVICE_WRITE_BYTES ||
	       key == SCN_KEY_DEVICE_FLUSHES;
}

/* True if stray writes had reached the device by sr, for key (see lesson/expect.h). */
bool
expect_crash_strays(const struct step_result *sr, enum scn_key key)
{
	if (expect_crash_is_power(key) && sr->crash != NULL && sr->crash->power.observed)
		return sr->crash->power.stray_writes > 0;
	return expect_crash_is_device(key) && sr->device_stray > 0;
}

/* True if w is the power cut's and it kept less than wanted (see lesson/expect.h). */
bool
expect_crash_lost(const struct step_result *sr, const struct scn_expect *w, bool more)
{
	const struct crash_half *p = sr->crash != NULL ? &sr->crash->power : NULL;

	if (!expect_crash_is_power(w->key) || p == NULL || !p->observed)
		return false;
	if (!p->file.exists)
		return true;
	if (w->key == SCN_KEY_CRASH_POWER_SIZE)
		return more;
	/* Content or a prefix: fewer bytes kept than the text wanted. */
	return w->str != NULL && w->cmp == SCN_CMP_EQ && p->file.size < strlen(w->str);
}

/* When the kernel wrote to the device between the steps, where a pause saw it (--pace times
 * it), as "; the kernel wrote to it 5.9 s after step 3" into buf ("" when not seen). */
static void
expect_crash_when(const struct step_result *sr, char *buf, size_t len)
{
	buf[0] = '\0';
	if (sr->pause.dev_step > 0 && sr->pause.dev_at >= 0)
		snprintf(buf, len, "; the kernel wrote to it %.1f s after step %zu",
		         sr->pause.dev_at, sr->pause.dev_step);
	else if (sr->pause.dev_step > 0)
		snprintf(buf, len, "; the kernel wrote to it after step %zu", sr->pause.dev_step);
}

/* What power cut p kept, short, for key's reasons, into buf: "no file", "8192 bytes", "the
 * file", or a text said, never quoted whole (it may be the file's first 4 KiB). */
static const char *
expect_crash_kept_what(const struct crash_half *p, enum scn_key key, char *buf, size_t len)
{
	if (!p->file.exists)
		snprintf(buf, len, "no file");
	else if (key == SCN_KEY_CRASH_POWER_SIZE)
		snprintf(buf, len, "%" PRIu64 " bytes", (uint64_t)p->file.size);
	else if (key == SCN_KEY_CRASH_POWER_EXISTS)
		snprintf(buf, len, "the file");
	else
		snprintf(buf, len, "a text of %" PRIu64 " bytes", (uint64_t)p->file.size);
	return buf;
}

/* True if w, which held, says the power cut kept something (it would not hold had it kept
 * nothing: no file, or an empty one) and stray writes had reached the device first: then
 * what it kept may be theirs, not the lesson's. The reason into text; what was got, moved
 * into kept. */
bool
expect_crash_kept(const struct step_result *sr, const struct scn_expect *w, struct text_buf *text,
                  struct text_buf *kept)
{
	const struct crash_half *p = sr->crash != NULL ? &sr->crash->power : NULL;
	bool kept_nothing_holds;
	char when[80];

	uint64_t strays = p != NULL && w->key == SCN_KEY_CRASH_POWER_EXISTS ? p->name_strays :
	                  p != NULL ? p->kept_strays : 0;

	if (!expect_crash_is_power(w->key) || p == NULL || !p->observed || strays == 0)
		return false;
	if (w->key == SCN_KEY_CRASH_POWER_EXISTS)
		kept_nothing_holds = (w->num == 0) == (w->cmp == SCN_CMP_EQ);
	else if (w->str != NULL)
		kept_nothing_holds = (w->str[0] == '\0') == (w->cmp == SCN_CMP_EQ);
	else
		kept_nothing_holds = scenario_cmp_holds(w->cmp, 0, w->num);
	if (kept_nothing_holds)
		return false;
	expect_crash_when(sr, when, sizeof when);
	text_reset(kept);
	text_add(kept, text_str(text));
	char what[64];
	text_setf(text, "the power cut kept %s, but %" PRIu64 " write request%s had reached the "
	          "device between the lesson's steps first (a journal's timer, writeback, a sync() "
	          "elsewhere%s): what it kept may be theirs, not this lesson's doing",
	          expect_crash_kept_what(p, w->key, what, sizeof what),
	          strays, strays == 1 ? "" : "s", when);
	return true;
}

/* An expectation of the power cut or the device that did not hold, when stray writes (between
 * the lesson's steps, or during its waits) reached the device first; or a device count above
 * what was wanted (fewer: a smaller count would have held). A power cut that kept more than
 * wanted with no stray write is the lesson's doing: failed (see lesson/expect.h). */
bool
expect_crash_undetermined(const struct step_result *sr, enum scn_key key, bool fewer,
                          struct text_buf *text)
{
	const struct crash_half *p = sr->crash != NULL ? &sr->crash->power : NULL;
	uint64_t stray;
	char *seen, when[80], what[64];
	const char *got;

	if (expect_crash_is_power(key) && p != NULL && p->observed)
		stray = p->stray_writes;
	else if (expect_crash_is_device(key))
		stray = sr->device_stray;
	else
		return false;
	if (stray == 0 && !(expect_crash_is_device(key) && fewer))
		return false;
	/* What was seen, said again (whole) in the reason that replaces it. */
	seen = text_take(text);
	got = seen != NULL ? seen : "";
	if (stray == 0) {
		/* The device counts what reached it from anyone: during a step, a sync() of
		 * another process, the journal's timer or writeback may add to the step's own,
		 * and the kernel says nothing of whose a request was. */
		text_setf(text, "got %s, more than wanted, but the device counts what reached "
		         "it during the step from anyone (a sync() elsewhere, a journal's timer, "
		         "writeback): a count above the step's own is not its doing alone", got);
		free(seen);
		return true;
	}
	expect_crash_when(sr, when, sizeof when);
	if (expect_crash_is_power(key))
		text_setf(text, "the power cut gave %s, but %" PRIu64 " write request%s had "
		         "reached the device between the lesson's steps first (a journal's timer, "
		         "writeback, a sync() elsewhere%s): what it keeps was not this lesson's doing "
		         "alone",
		         expect_crash_kept_what(p, key, what, sizeof what), stray,
		         stray == 1 ? "" : "s", when);
	else
		text_setf(text, "got %s, but %" PRIu64 " write request%s had reached the device "
		         "between the lesson's steps by then (a journal's timer, writeback, a sync() "
		         "elsewhere%s): what this step sent was not its doing alone", got, stray,
		         stray == 1 ? "" : "s", when);
	free(seen);
	return true;
}
