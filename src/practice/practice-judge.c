/* SPDX-License-Identifier: MIT */
/* practice/practice-judge.c: a problem judged by a real run: what the machine did for each
 * question, and whether a given answer is it. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/expect.h"
#include "practice/practice-int.h"
#include "practice/practice.h"
#include "probe/snapshot.h"
#include "trace/event.h"

/* The result of step i among results, or NULL if the run did not get that far. */
static const struct step_result *
practice_result(const struct step_result *results, size_t n, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (results[k].index == i)
			return &results[k];
	return NULL;
}

/* Observe a "which pages" answer from the snapshot after sr. */
static void
practice_observe_pages(const struct practice_question *q, const struct step_result *sr,
                       struct practice_answer *a)
{
	const struct snap_cache *c = &sr->after.cache;
	bool v[SNAP_MAX_CELLS];

	if (c->source == SNAP_SRC_NONE || c->pages_per_cell != 1 || (q->dirty && !c->has_dirty)) {
		snprintf(a->text, sizeof a->text, "?");
		practice_copy(a->detail, sizeof a->detail, c->note[0] != '\0' ? c->note :
		              "not observable page by page here");
		return;
	}
	for (size_t i = 0; i < c->n_cells; i++)
		v[i] = q->dirty ? c->cells[i].dirty > 0 : c->cells[i].cached > 0;
	practice_pages_format(v, c->n_cells, a->detail, sizeof a->detail);
	a->seen = true;
	snprintf(a->text, sizeof a->text, "?");
	for (size_t i = 0; i < q->n_choices; i++)
		if (strcmp(q->choices[i], a->detail) == 0 ||
		    (a->text[0] == '?' && strcmp(q->choices[i], PRACTICE_OTHER_SET) == 0))
			snprintf(a->text, sizeof a->text, "%c", (char)('a' + i));
}

/* The facts of sr an answer rests on (practice.h). */
char *
practice_why(const struct step_result *sr, char *buf, size_t len)
{
	const struct event_list *l = &sr->events;
	const struct snapshot *s = &sr->after;
	size_t used = 0;
	char line[160];

	if (len == 0)
		return buf;
	buf[0] = '\0';
#define PRACTICE_WHY(...) \
	do { if (used < len) used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); } \
	while (0)
	if (l->source == EV_SRC_PTRACE && l->n == 0)
		PRACTICE_WHY("line %zu made no system call on the file", sr->index + 1);
	for (size_t e = 0; e < l->n && e < 3; e++) {
		event_format(&l->v[e], line, sizeof line);
		PRACTICE_WHY("%s%s", e == 0 ? "" : ", ", line);
		if (e == 0) {
			/* "line N made" before the first call: shift it in. */
			char head[32];
			int h = snprintf(head, sizeof head, "line %zu made ", sr->index + 1);
			size_t cur = strlen(buf);
			if (h > 0 && cur + (size_t)h < len) {
				memmove(buf + h, buf, cur + 1);
				memcpy(buf, head, (size_t)h);
				used = cur + (size_t)h;
			}
		}
	}
	if (l->n > 3)
		PRACTICE_WHY(" and %zu more calls", l->n - 3);
	if (l->source == EV_SRC_PROCIO && (l->n_write > 0 || l->n_read > 0))
		PRACTICE_WHY("line %zu made %" PRIu64 " write() and %" PRIu64 " read() calls",
		             sr->index + 1, l->n_write, l->n_read);
	if (s->stdio.open && s->stdio.size > 0)
		PRACTICE_WHY("; after it the stdio buffer held %" PRIu64 " B of %" PRIu64,
		             s->stdio.pending > 0 ? s->stdio.pending : s->stdio.read_avail,
		             s->stdio.size);
	if (s->cache.source != SNAP_SRC_NONE) {
		PRACTICE_WHY("; the page cache: %" PRIu64 " page%s cached", s->cache.cached,
		             s->cache.cached == 1 ? "" : "s");
		if (s->cache.has_dirty && !snapshot_in_memory(s))
			PRACTICE_WHY(", %" PRIu64 " dirty", s->cache.dirty);
	}
#undef PRACTICE_WHY
	return buf;
}

/* Fill a (one per question of p) from the results of a run of p's scenario. */
void
practice_observe(const struct practice_problem *p, const struct step_result *results,
                 size_t n_results, struct practice_answer *a)
{
	for (size_t i = 0; i < p->n_q; i++) {
		const struct practice_question *q = &p->q[i];
		const struct step_result *sr = practice_result(results, n_results, q->step);
		int64_t num;
		struct text_buf text = { 0 };

		memset(&a[i], 0, sizeof a[i]);
		if (sr == NULL) {
			snprintf(a[i].text, sizeof a[i].text, "?");
			snprintf(a[i].detail, sizeof a[i].detail, "the run stopped before this step");
			continue;
		}
		practice_why(sr, a[i].why, sizeof a[i].why);
		if (q->kind == PRACTICE_PAGES) {
			practice_observe_pages(q, sr, &a[i]);
			continue;
		}
		if (q->kind == PRACTICE_FILE) {
			practice_crash_observe(q, sr, &a[i]);
			continue;
		}
		if (!expect_observe(sr, q->key, &num, &text)) {
			snprintf(a[i].text, sizeof a[i].text, "?");
			practice_copy(a[i].detail, sizeof a[i].detail, text_str(&text));
			text_buf_free(&text);
			continue;
		}
		a[i].seen = true;
		if (q->kind == PRACTICE_CHOICE) {
			/* The direct topic's choices: a) succeeds, b) EINVAL; anything else is news. */
			if (num == 0 || num == EINVAL)
				snprintf(a[i].text, sizeof a[i].text, "%c", num == 0 ? 'a' : 'b');
			else
				snprintf(a[i].text, sizeof a[i].text, "?");
			practice_copy(a[i].detail, sizeof a[i].detail,
			              num == 0 ? "succeeded" : text_str(&text));
			text_buf_free(&text);
			continue;
		}
		text_buf_free(&text);
		snprintf(a[i].text, sizeof a[i].text, "%" PRId64, num);
		if (q->key == SCN_KEY_CALLS_WRITE && sr->events.source == EV_SRC_PTRACE) {
			size_t used = 0;
			for (size_t e = 0; e < sr->events.n && used < sizeof a[i].detail; e++)
				if (event_is_write(&sr->events.v[e]))
					used += (size_t)snprintf(a[i].detail + used, sizeof a[i].detail - used,
					                         "%s%" PRIu64, used > 0 ? ", " : "",
					                         sr->events.v[e].bytes);
		}
	}
}

/* s without its blanks, into buf. */
static const char *
practice_squeeze(const char *s, size_t n, char *buf, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] != '\0' && k + 1 < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			buf[k++] = s[i];
	buf[k] = '\0';
	return buf;
}

/* Does given end (after blanks) here, or with "(detail)" equal to the observed detail? */
static bool
practice_match_rest(const char *given, const struct practice_answer *truth)
{
	const char *close;
	char a[128], b[128];

	while (*given == ' ' || *given == '\t')
		given++;
	if (*given == '\0')
		return true;
	close = strchr(given, ')');
	if (*given != '(' || close == NULL)
		return false;
	for (const char *c = close + 1; *c != '\0'; c++)
		if (*c != ' ' && *c != '\t')
			return false;
	return strcmp(practice_squeeze(given + 1, (size_t)(close - given - 1), a, sizeof a),
	              practice_squeeze(truth->detail, sizeof truth->detail, b, sizeof b)) == 0;
}

/* Does a given answer match the observed one? */
bool
practice_match(const struct practice_question *q, const struct practice_answer *truth,
               const char *given)
{
	char *end;
	char a[128], b[128];

	if (given == NULL || !truth->seen)
		return false;
	while (*given == ' ' || *given == '\t')
		given++;
	if (q->kind == PRACTICE_NUMBER) {
		long long v;
		errno = 0;
		v = strtoll(given, &end, 10);
		return errno == 0 && end != given && v == strtoll(truth->text, NULL, 10) &&
		       practice_match_rest(end, truth);
	}
	/* A letter (with its ")" or not), then its detail or nothing. */
	if (given[0] != '\0' && truth->text[0] != '?' && (given[0] | 0x20) == truth->text[0] &&
	    (given[1] == '\0' || given[1] == ')' || given[1] == ' ' || given[1] == '\t' ||
	     given[1] == '('))
		return practice_match_rest(given + 1 + (given[1] == ')'), truth);
	/* For a page set or a file after a crash, the choice itself. */
	return (q->kind == PRACTICE_PAGES || q->kind == PRACTICE_FILE) &&
	       strcmp(practice_squeeze(given, strlen(given), a, sizeof a),
	              practice_squeeze(truth->detail, sizeof truth->detail, b, sizeof b)) == 0;
}

/* How many of the given answers match the observed ones. */
size_t
practice_score(const struct practice_problem *p, const struct practice_answer *truth,
               const char *const *given)
{
	size_t right = 0;

	for (size_t i = 0; i < p->n_q; i++)
		right += practice_match(&p->q[i], &truth[i], given[i]);
	return right;
}
