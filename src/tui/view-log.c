/* SPDX-License-Identifier: MIT */
/* tui/view-log.c: the event log: every system call a step made on the scratch file. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "scenario/names.h"
#include "probe/names.h"
#include "tui/view.h"

/* Widths of the log's columns (op name, call), in screen columns. */
#define VIEW_LOG_OPW 9
#define VIEW_LOG_CALLW 38

/* Columns of the widest tag of who made a call ("[your call]"). */
static int
view_log_tagw(void)
{
	return scenario_names_width(scn_origin_words) + 2;
}

/* A log line's columns: "#12 " + op (opw wide) + call (callw wide) + tag + time ("" for
 * none; traced: "*" after it). */
static char *
view_log_columns(size_t idx, const char *opname, int opw, const char *call, int callw,
                 const char *tag, const char *t, bool traced, char *buf, size_t len)
{
	/* "µ" and "…" are two or three bytes and one column: pad by columns. */
	int pad = 9 - text_width(t), cpad = callw - text_width(call);

	snprintf(buf, len, "#%-2zu %-*s %s%*s %-*s %*s%s%s", idx + 1, opw, opname,
	         call, cpad > 0 ? cpad : 0, "", view_log_tagw(), tag, pad > 0 ? pad : 0, "", t,
	         traced ? "*" : "");
	return buf;
}

/* After n code points of UTF-8 s. */
static const char *
view_log_skip(const char *s, int n)
{
	for (int i = 0, l; i < n && *s != '\0'; i++, s += l > 0 ? l : 1)
		text_decode(s, &l);
	return s;
}

/* Text s at most w columns wide into buf: cut in its middle when wider (its head, an
 * ellipsis, its last third from a word on), so that how it ends stays. */
static char *
view_log_middle(const char *s, int w, bool ascii, char *buf, size_t len)
{
	const char *ell = ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6", *tail = s, *sp;
	int ew = ascii ? 3 : 1, tailw = (w - ew) / 3, l;

	if (text_width(s) <= w || tailw < 1) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	while (*tail != '\0' && text_width(tail) > tailw) {
		text_decode(tail, &l);
		tail += l > 0 ? l : 1;
	}
	/* From a word: "…of stdio)", not "…f stdio)". */
	if (tail > s && tail[-1] != ' ' && (sp = strchr(tail, ' ')) != NULL && sp[1] != '\0')
		tail = sp + 1;
	snprintf(buf, len, "%.*s%s%s", (int)(view_log_skip(s, grid_fit_keep(s, w - ew -
	         text_width(tail))) - s), s, ell, tail);
	return buf;
}

/* How much an argument of a call tells, to keep it when the line is cut: a flag or an advice
 * ("O_WRONLY|O_CREAT", "POSIX_FADV_DONTNEED") most, then a size (a plain number after the
 * first argument), then the rest (the fd, an offset "@4096", "len=0"), a path or a mode
 * least. */
static int
view_log_weight(const char *a, size_t n, size_t idx)
{
	bool upper = false, digits = n > 0;

	for (size_t i = 0; i < n; i++) {
		if (a[i] >= 'A' && a[i] <= 'Z')
			upper = true;
		if (a[i] < '0' || a[i] > '9')
			digits = false;
	}
	if (upper)
		return 3;
	if (digits && n > 1 && a[0] == '0')
		return 0;               /* a mode: 0666 */
	if (digits && idx > 0)
		return 2;
	if (a[0] == '"' || (idx == 0 && !digits))
		return 0;               /* a path or a name */
	return 1;
}

#define VIEW_LOG_MAX_ARGS 12

/* A call's arguments, and which of them a cut line leaves out or shortens. */
struct view_log_args {
	const char *open, *close;          /* its "(" and ")" */
	const char *arg[VIEW_LOG_MAX_ARGS];
	size_t len[VIEW_LOG_MAX_ARGS], skip[VIEW_LOG_MAX_ARGS];
	bool drop[VIEW_LOG_MAX_ARGS];
	int weight[VIEW_LOG_MAX_ARGS];
	char alt[VIEW_LOG_MAX_ARGS][96];   /* a set of flags without their prefixes, or "" */
	size_t n;
};

/* call as a has it into buf; true if it fits in w columns. */
static bool
view_log_args_put(const char *call, const struct view_log_args *a, const char *ell, int w,
                  char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%.*s", (int)(a->open + 1 - call), call);

	for (size_t j = 0; j < a->n && used < len; j++) {
		if (a->drop[j] && j > 0 && a->drop[j - 1])
			continue;
		if (!a->drop[j] && a->alt[j][0] != '\0')
			used += (size_t)snprintf(buf + used, len - used, "%s%s", j ? ", " : "",
			                         a->alt[j]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s", j ? ", " : "",
			                         a->drop[j] ? (int)strlen(ell) :
			                         (int)(a->len[j] - a->skip[j]),
			                         a->drop[j] ? ell : a->arg[j] + a->skip[j]);
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s", a->close);
	return used < len && text_width(buf) <= w;
}

/* Split call's arguments at the top level (a string may hold ", " or ")") into a. */
static bool
view_log_args_split(const char *call, struct view_log_args *a)
{
	int depth = 0;
	char quote = 0;

	memset(a, 0, sizeof *a);
	a->open = strchr(call, '(');
	if (a->open == NULL)
		return false;
	a->arg[0] = a->open + 1;
	for (const char *p = a->open + 1; *p != '\0' && a->close == NULL; p++) {
		if (quote) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '(' || *p == '{' || *p == '[') {
			depth++;
		} else if ((*p == ')' || *p == '}' || *p == ']') && depth > 0) {
			depth--;
		} else if (*p == ')') {
			a->close = p;
		} else if (*p == ',' && depth == 0 && p[1] == ' ') {
			if (a->n + 1 >= VIEW_LOG_MAX_ARGS)
				return false;
			a->len[a->n] = (size_t)(p - a->arg[a->n]);
			a->arg[++a->n] = p + 2;
			p++;
		}
	}
	if (a->close == NULL || a->close == a->open + 1)
		return false;
	a->len[a->n] = (size_t)(a->close - a->arg[a->n]);
	a->n++;
	for (size_t i = 0; i < a->n; i++)
		a->weight[i] = view_log_weight(a->arg[i], a->len[i], i);
	return true;
}

/*
 * call ("name(a, b, c) = r") into buf at most w columns wide by leaving out whole arguments,
 * the least telling first and the middle before the ends, each run of them one ellipsis,
 * then by dropping the leading words of a flag ("POSIX_FADV_SEQUENTIAL", "FADV_SEQUENTIAL",
 * "SEQUENTIAL"): "fadvise64(3, @0, len=0, POSIX_FADV_DONTNEED) = 0" -> "fadvise64(3, …,
 * POSIX_FADV_DONTNEED) = 0": cut the middle, not the point. False if it cannot be made to
 * fit so (buf is then unspecified).
 */
static bool
view_log_squeeze(const char *call, int w, bool ascii, char *buf, size_t len)
{
	const char *ell = ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6";
	struct view_log_args a;
	size_t n;

	if (!view_log_args_split(call, &a))
		return false;
	n = a.n;
	for (int level = 0; level <= 2; level++)
		/* The middle first: from the argument nearest the middle outwards. */
		for (size_t k = 0; k < n; k++) {
			size_t i = n / 2 + (k % 2 ? (k + 1) / 2 : 0) - (k % 2 ? 0 : k / 2);
			if (i >= n || a.weight[i] != level)
				continue;
			a.drop[i] = true;
			if (view_log_args_put(call, &a, ell, w, buf, len))
				return true;
		}
	/* A flag's leading words, one at a time (not in a set of flags "O_A|O_B"). */
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			const char *a0 = a.arg[i] + a.skip[i];
			size_t left = a.len[i] - a.skip[i];
			const char *us = memchr(a0, '_', left);
			if (a.drop[i] || a.weight[i] != 3 || memchr(a0, '|', left) != NULL ||
			    us == NULL || (size_t)(us + 1 - a0) >= left)
				continue;
			a.skip[i] += (size_t)(us + 1 - a0);
			more = true;
			if (view_log_args_put(call, &a, ell, w, buf, len))
				return true;
		}
	}
	/* A set of flags, each without its prefix: "O_WRONLY|O_CREAT|O_TRUNC" -> "WRONLY|CREAT|
	 * TRUNC" (every flag kept: O_TRUNC is the point of a lesson). */
	for (size_t i = 0; i < n; i++) {
		const char *p = a.arg[i], *end = a.arg[i] + a.len[i];
		size_t o = 0;
		if (a.drop[i] || a.weight[i] != 3 || memchr(p, '|', a.len[i]) == NULL ||
		    a.len[i] >= sizeof a.alt[i])
			continue;
		while (p < end) {
			const char *bar = memchr(p, '|', (size_t)(end - p)), *us;
			size_t part = bar != NULL ? (size_t)(bar - p) : (size_t)(end - p);
			us = memchr(p, '_', part);
			if (us != NULL && us > p && (size_t)(us + 1 - p) < part)
				part -= (size_t)(us + 1 - p), p = us + 1;
			o += (size_t)snprintf(a.alt[i] + o, sizeof a.alt[i] - o, "%s%.*s",
			                      o ? "|" : "", (int)part, p);
			p += part + (bar != NULL);
		}
		if (view_log_args_put(call, &a, ell, w, buf, len))
			return true;
	}
	return false;
}

/* One log line with the op and call columns opw and callw wide; a longer call is cut
 * with an ellipsis, so the origin and time columns stay where the other lines have them. */
static char *
view_log_format(const struct event *e, size_t idx, const char *opname, int opw, int callw,
                bool ascii, char *buf, size_t len)
{
	const char *ell = ascii ? GRID_ELLIPSIS_ASCII : "\xe2\x80\xa6";
	int ew = ascii ? 3 : 1;
	char call[200], cut[200], t[32], tag[32];

	event_format(e, call, sizeof call);
	if (text_width(call) > callw && callw > 1 &&
	    view_log_squeeze(call, callw, ascii, cut, sizeof cut)) {
		memcpy(call, cut, sizeof call);
	} else if (text_width(call) > callw && callw > 1) {
		/* Cut the arguments, keep the result ("openat(scratch, O_WRONLY|O_CR… = 3"); by
		 * bytes, as event_format() writes ASCII only. */
		const char *res = strrchr(call, '=');
		int keep = res != NULL && res > call ? (int)strlen(res - 1) : 0;
		/* Not when the arguments already decode it ("F_GETFL -> O_WRONLY|O_SYNC"). */
		if (keep > callw / 2 || strstr(call, " -> ") != NULL)
			keep = 0;
		/* At a word or number boundary, as the grid cuts text: never "@40…" for @4096. */
		snprintf(cut, sizeof cut, "%.*s%s%s", grid_fit_keep(call, callw - ew - keep), call,
		         ell, keep > 0 ? res - 1 : "");
		memcpy(call, cut, sizeof call);
	}
	units_format_ns(e->ns, t, sizeof t);
	snprintf(tag, sizeof tag, "[%s]", scenario_names_of(scn_origin_words, (int)e->origin));
	return view_log_columns(idx, opname, opw, call, callw, tag, t, e->ns_traced, buf, len);
}

/* A traced program's folded step's text, after its "[pid] ". */
static const char *
view_log_fold_text(const struct step_result *sr)
{
	const char *text = sr->step != NULL && sr->step->args.text != NULL ?
	                   sr->step->args.text : "";

	return text[0] == '[' && strstr(text, "] ") != NULL ? strstr(text, "] ") + 2 : text;
}

/* A traced program's folded step on one line, in the columns of the others: its text cut in
 * the middle to the call column, who made its calls (the first's) and their time summed. */
static void
view_log_fold(const struct step_result *sr, const char *name, int opw, int callw, bool ascii,
              char *buf, size_t len)
{
	const struct event_list *l = &sr->events;
	const char *text = view_log_fold_text(sr);
	char mid[512], t[32] = "", tag[32] = "";
	uint64_t ns = 0;
	bool traced = false;

	for (size_t i = 0; i < l->n; i++) {
		ns += l->v[i].ns;
		traced = traced || l->v[i].ns_traced;
	}
	if (l->n > 0) {
		snprintf(tag, sizeof tag, "[%s]",
		         scenario_names_of(scn_origin_words, (int)l->v[0].origin));
		units_format_ns(ns, t, sizeof t);
	}
	view_log_columns(sr->index, name, opw, view_log_middle(text, callw, ascii, mid, sizeof mid),
	                 callw, tag, t, traced, buf, len);
}

/* One log line: "#2 fwrite     write(3, 4096) = 4096" plus who made it and time columns. */
char *
view_log_line(const struct event *e, size_t idx, enum scn_op op, char *buf, size_t len)
{
	char call[160];
	int callw = VIEW_LOG_CALLW, w = text_width(event_format(e, call, sizeof call));

	/* Alone, a line is never cut: the columns after a long call move right instead. */
	return view_log_format(e, idx, scenario_op_name(op), VIEW_LOG_OPW, w > callw ? w : callw,
	                       false, buf, len);
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
size_t
view_log_lines(const struct step_result *sr)
{
	size_t n = sr->events.n;

	if (sr->folded)
		return 1;       /* a traced program's run of calls: one line (details list them) */
	if (sr->events.source == EV_SRC_PROCIO)
		n++;
	if (n == 0)
		n = 1;          /* "no system call": itself a lesson (fflush of nothing) */
	if (sr->events.dropped > 0)
		n++;
	return n;
}

/* Write line k of sr's log into buf, the columns opw and callw wide; set *style. */
static void
view_log_nth(const struct step_result *sr, size_t k, int opw, int callw, bool ascii, char *buf,
             size_t len, int *style)
{
	enum scn_op op = sr->step != NULL ? sr->step->op : SCN_OP_NOTE;
	const char *name = sr->label != NULL ? sr->label : scenario_op_name(op);

	*style = GS_NORMAL;
	if (sr->folded) {
		/* "#12 fputc    fputc(c, fp) x 4096: 4096 B -> wr…(4, 4096) = 4096  [by stdio]" */
		view_log_fold(sr, name, opw, callw, ascii, buf, len);
		return;
	}
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
		view_log_format(e, sr->index, name, opw, callw, ascii, buf, len);
		if (e->err != 0 || e->result < 0)
			*style = GS_ERROR;
		return;
	}
	if (sr->events.n == 0 && sr->events.source != EV_SRC_PROCIO && k == 0) {
		snprintf(buf, len, "#%-2zu %-*s (no system call on the file)", sr->index + 1, opw, name);
		*style = GS_DIM;
		return;
	}
	snprintf(buf, len, "    %zu more calls counted, not kept", sr->events.dropped);
	*style = GS_DIM;
}

/*
 * Column widths for the log of results[0..n) in w columns: the op column as wide as the
 * longest op name, the call column as wide as the longest call (or folded step's text), but
 * never so wide that the time column would leave the pane (longer calls are then cut).
 */
static void
view_log_widths(const struct step_result *results, size_t n, int w, int *opw, int *callw)
{
	/* "#12 " + op + " " + call + " " + "[by stdio]" + " " + time (9) + "*" */
	int fixed = 4 + 1 + 1 + view_log_tagw() + 1 + 9 + 1;

	*opw = VIEW_LOG_OPW;
	*callw = VIEW_LOG_CALLW;
	for (size_t i = 0; i < n; i++) {
		const struct step_result *sr = &results[i];
		int ow = text_width(sr->label != NULL ? sr->label :
		                         scenario_op_name(sr->step != NULL ? sr->step->op : SCN_OP_NOTE));
		if (ow > *opw)
			*opw = ow;
		int fw = sr->folded ? text_width(view_log_fold_text(sr)) : 0;
		if (fw > *callw)
			*callw = fw;
		for (size_t k = 0; k < sr->events.n; k++) {
			char call[160];
			int cw = text_width(event_format(&sr->events.v[k], call, sizeof call));
			if (cw > *callw)
				*callw = cw;
		}
	}
	if (fixed + *opw + *callw > w)
		*callw = w - fixed - *opw;
	if (*callw < 16)
		*callw = 16;    /* too narrow for the time column: let it be cut instead */
}

/* Draw the newest lines of the log that fit in r. */
void
view_log_draw(struct grid *g, struct grid_rect r, const struct step_result *results, size_t n,
              bool ascii)
{
	size_t total = 0, first, line = 0;
	char buf[512];
	int opw, callw;

	if (r.h < 1 || r.w < 4)
		return;
	for (size_t i = 0; i < n; i++)
		total += view_log_lines(&results[i]);
	if (total == 0) {
		grid_print(g, r.x, r.y, r.w, GS_DIM, "no system calls yet: press n for the first step");
		return;
	}
	view_log_widths(results, n, r.w, &opw, &callw);
	first = total > (size_t)r.h ? total - (size_t)r.h : 0;
	for (size_t i = 0; i < n; i++) {
		size_t c = view_log_lines(&results[i]);
		if (line + c <= first) {
			line += c;
			continue;
		}
		for (size_t k = 0; k < c; k++, line++) {
			int style;
			if (line < first)
				continue;
			view_log_nth(&results[i], k, opw, callw, ascii, buf, sizeof buf, &style);
			grid_print(g, r.x, r.y + (int)(line - first), r.w, style, buf);
		}
	}
}
