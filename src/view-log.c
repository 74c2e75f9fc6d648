/* SPDX-License-Identifier: MIT */
/* view-log.c: the event log: every system call a step made on the scratch file. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "view.h"

/* One log line: "#2 fwrite     write(3, 4096) = 4096" plus origin and time columns. */
char *
view_log_line(const struct event *e, size_t idx, enum scn_op op, char *buf, size_t len)
{
	char call[160], t[32];
	int pad;

	event_format(e, call, sizeof call);
	units_format_ns(e->ns, t, sizeof t);
	/* "µ" is two bytes and one column: pad by columns. */
	pad = 9 - grid_text_width(t);
	snprintf(buf, len, "#%-2zu %-9s %-38s %-7s %*s%s%s", idx + 1, scenario_op_name(op), call,
	         e->origin == EV_STDIO ? "[stdio]" : "", pad > 0 ? pad : 0, "", t,
	         e->ns_traced ? "*" : "");
	return buf;
}

/* The counts-only summary of a step seen through /proc/PID/io. */
char *
view_log_counts(const struct step_result *sr, char *buf, size_t len)
{
	const struct event_list *l = &sr->events;
	uint64_t calls = l->n_read + l->n_write, bytes = l->bytes_read + l->bytes_written;

	if (calls == 0) {
		calls = l->syscr + l->syscw;
		bytes = l->rchar + l->wchar;
	}
	snprintf(buf, len, "#%-2zu %-9s %" PRIu64 " call%s, %" PRIu64 " bytes (counts only)",
	         sr->index + 1, sr->step != NULL ? scenario_op_name(sr->step->op) : "?", calls,
	         calls == 1 ? "" : "s", bytes);
	return buf;
}

/* How many lines the log of sr takes. */
static size_t
view_log_count(const struct step_result *sr)
{
	size_t n = sr->events.n;

	if (sr->events.source == EV_SRC_PROCIO)
		n++;
	if (n == 0)
		n = 1;          /* "no system call": itself a lesson (fflush of nothing) */
	if (sr->events.dropped > 0)
		n++;
	return n;
}

/* Write line k of sr's log into buf; set *style. */
static void
view_log_nth(const struct step_result *sr, size_t k, char *buf, size_t len, int *style)
{
	enum scn_op op = sr->step != NULL ? sr->step->op : SCN_OP_NOTE;

	*style = GS_NORMAL;
	if (sr->events.source == EV_SRC_PROCIO) {
		if (k == 0) {
			view_log_counts(sr, buf, len);
			*style = GS_DIM;
			return;
		}
		k--;
	}
	if (k < sr->events.n) {
		const struct event *e = &sr->events.v[k];
		view_log_line(e, sr->index, op, buf, len);
		if (e->err != 0 || e->result < 0)
			*style = GS_ERROR;
		return;
	}
	if (sr->events.n == 0 && sr->events.source != EV_SRC_PROCIO && k == 0) {
		snprintf(buf, len, "#%-2zu %-9s (no system call on the file)", sr->index + 1,
		         scenario_op_name(op));
		*style = GS_DIM;
		return;
	}
	snprintf(buf, len, "    %zu more calls counted, not kept", sr->events.dropped);
	*style = GS_DIM;
}

/* Draw the newest lines of the log that fit in r. */
void
view_log_draw(struct grid *g, struct grid_rect r, const struct step_result *results, size_t n,
              bool ascii)
{
	size_t total = 0, first, line = 0;
	char buf[512];

	(void)ascii;
	if (r.h < 1 || r.w < 4)
		return;
	for (size_t i = 0; i < n; i++)
		total += view_log_count(&results[i]);
	if (total == 0) {
		grid_print(g, r.x, r.y, r.w, GS_DIM, "no system calls yet: press n for the first step");
		return;
	}
	first = total > (size_t)r.h ? total - (size_t)r.h : 0;
	for (size_t i = 0; i < n; i++) {
		size_t c = view_log_count(&results[i]);
		if (line + c <= first) {
			line += c;
			continue;
		}
		for (size_t k = 0; k < c; k++, line++) {
			int style;
			if (line < first)
				continue;
			view_log_nth(&results[i], k, buf, sizeof buf, &style);
			grid_print(g, r.x, r.y + (int)(line - first), r.w, style, buf);
		}
	}
}
