/* SPDX-License-Identifier: MIT */
/* expect.c: a step's expectations, checked against what was observed. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "expect.h"
#include "scenario-names.h"

/* Copy s into text with "\r\n" folded to "\n" (a pty writes CR LF). */
static void
expect_normalise(const char *s, char *text, size_t len)
{
	size_t n = 0;

	for (; *s != '\0' && n + 1 < len; s++)
		if (!(s[0] == '\r' && s[1] == '\n'))
			text[n++] = *s;
	text[n] = '\0';
}

/* Observed value of a key. */
bool
expect_observe(const struct step_result *sr, enum scn_key key, int64_t *num, char *text,
               size_t len)
{
	const struct snapshot *s = &sr->after;
	const struct event_list *ev = &sr->events;

	*num = 0;
	text[0] = '\0';
	switch (key) {
	case SCN_KEY_STDIO_SIZE:
	case SCN_KEY_STDIO_PENDING:
	case SCN_KEY_STDIO_MODE:
		if (!s->stdio.open) {
			snprintf(text, len, "no FILE* open");
			return false;
		}
		*num = key == SCN_KEY_STDIO_SIZE ? (int64_t)s->stdio.size :
		       key == SCN_KEY_STDIO_PENDING ? (int64_t)s->stdio.pending :
		       (int64_t)s->stdio.mode;
		if (key == SCN_KEY_STDIO_MODE)
			snprintf(text, len, "%s", scenario_names_of(scn_bufmodes, (int)s->stdio.mode));
		break;
	case SCN_KEY_CALLS_WRITE: *num = (int64_t)ev->n_write; break;
	case SCN_KEY_CALLS_READ: *num = (int64_t)ev->n_read; break;
	case SCN_KEY_CALLS_TOTAL:
		if (ev->source != EV_SRC_PTRACE) {
			snprintf(text, len, "not observable without ptrace");
			return false;
		}
		*num = (int64_t)(ev->n + ev->dropped);
		break;
	case SCN_KEY_BYTES_WRITTEN: *num = (int64_t)ev->bytes_written; break;
	case SCN_KEY_BYTES_READ: *num = (int64_t)ev->bytes_read; break;
	case SCN_KEY_CACHE_PAGES:
		if (s->cache.source == SNAP_SRC_NONE) {
			snprintf(text, len, "page cache not observable here");
			return false;
		}
		*num = (int64_t)s->cache.cached;
		break;
	case SCN_KEY_CACHE_DIRTY_PAGES:
	case SCN_KEY_CACHE_WRITEBACK_PAGES:
		if (s->cache.source == SNAP_SRC_NONE || !s->cache.has_dirty) {
			snprintf(text, len, "dirty state not observable here (no cachestat)");
			return false;
		}
		*num = (int64_t)(key == SCN_KEY_CACHE_DIRTY_PAGES ? s->cache.dirty :
		                 s->cache.writeback);
		break;
	case SCN_KEY_DISK_ALLOCATED_BYTES:
	case SCN_KEY_DISK_DELALLOC_BYTES:
	case SCN_KEY_DISK_UNWRITTEN_BYTES:
		if (s->disk.source == SNAP_SRC_NONE) {
			snprintf(text, len, "no extents here (%s)", s->disk.fs[0] ? s->disk.fs : "?");
			return false;
		}
		*num = (int64_t)(key == SCN_KEY_DISK_ALLOCATED_BYTES ? s->disk.allocated_bytes :
		                 key == SCN_KEY_DISK_DELALLOC_BYTES ? s->disk.delalloc_bytes :
		                 s->disk.unwritten_bytes);
		break;
	case SCN_KEY_RESULT_ERRNO:
		*num = sr->err;
		snprintf(text, len, "%s", describe_errno(sr->err));
		return true;
	case SCN_KEY_RESULT_VALUE: *num = sr->ret; break;
	case SCN_KEY_OUTPUT:
	case SCN_KEY_OUTPUT_FILE: {
		const char *o = key == SCN_KEY_OUTPUT ? sr->output : sr->output_file;
		if (o == NULL) {
			snprintf(text, len, "no output captured");
			return false;
		}
		expect_normalise(o, text, len);
		return true;
	}
	default:
		snprintf(text, len, "unknown key");
		return false;
	}
	if (text[0] == '\0')
		snprintf(text, len, "%" PRId64, *num);
	return true;
}

/* Does got CMP want hold? */
static bool
expect_compare(enum scn_cmp cmp, int64_t got, int64_t want)
{
	switch (cmp) {
	case SCN_CMP_EQ: return got == want;
	case SCN_CMP_NE: return got != want;
	case SCN_CMP_LT: return got < want;
	case SCN_CMP_LE: return got <= want;
	case SCN_CMP_GT: return got > want;
	case SCN_CMP_GE: return got >= want;
	}
	return false;
}

/* The wanted value as text. */
char *
expect_format_want(const struct scn_expect *e, char *buf, size_t len)
{
	const char *op = scenario_cmp_name(e->cmp);

	if (e->str != NULL)
		snprintf(buf, len, "%s \"%s\"", op, e->str);
	else if (e->key == SCN_KEY_STDIO_MODE)
		snprintf(buf, len, "%s %s", op, scenario_names_of(scn_bufmodes, (int)e->num));
	else if (e->key == SCN_KEY_RESULT_ERRNO)
		snprintf(buf, len, "%s %s", op, describe_errno((int)e->num));
	else
		snprintf(buf, len, "%s %" PRId64, op, e->num);
	return buf;
}

/* Check every expectation of the step. */
int
expect_eval(struct step_result *sr)
{
	const struct scn_step *st = sr->step;

	free(sr->expects);
	sr->expects = NULL;
	sr->n_expects = 0;
	sr->ok = true;
	if (st == NULL || st->n_expects == 0)
		return 0;
	sr->expects = calloc(st->n_expects, sizeof *sr->expects);
	if (sr->expects == NULL)
		return -1;
	sr->n_expects = st->n_expects;
	for (size_t i = 0; i < st->n_expects; i++) {
		const struct scn_expect *w = &st->expects[i];
		struct expect_result *r = &sr->expects[i];
		char got[sizeof r->got_text];
		bool seen = expect_observe(sr, w->key, &r->got, got, sizeof got);

		r->want = w;
		memcpy(r->got_text, got, sizeof got);
		if (!seen)
			r->ok = false;
		else if (w->str != NULL) {
			char want[sizeof r->got_text];
			expect_normalise(w->str, want, sizeof want);
			r->ok = (strcmp(want, got) == 0) == (w->cmp == SCN_CMP_EQ);
		} else
			r->ok = expect_compare(w->cmp, r->got, w->num);
		if (!r->ok)
			sr->ok = false;
	}
	return 0;
}
