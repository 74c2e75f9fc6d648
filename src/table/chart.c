/* SPDX-License-Identifier: MIT */
/* table/chart.c: a sweep as a log-scale bar chart in lines of text, for print and the TUI. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "table/print.h"
#include "base/text.h"
#include "base/units.h"

/* Columns taken by the label ("   65536 ") and by the value (" 107.43 s") around a bar. */
#define CHART_LABEL 9
#define CHART_VALUE 13   /* " 107.43 ms *" */

/* Lines being built. */
struct chart {
	char **v;
	size_t n, cap;
	int width;             /* display columns a line may take */
	bool oom;
};

/* Append a copy of s. */
static void
sweep_chart_add(struct chart *c, const char *s)
{
	char *dup;

	if (c->oom)
		return;
	if (c->n == c->cap) {
		char **v = grow(c->v, &c->cap, c->n, sizeof *v, 32);
		if (v == NULL) {
			c->oom = true;
			return;
		}
		c->v = v;
	}
	if ((dup = strdup(s)) == NULL) {
		c->oom = true;
		return;
	}
	/* Cut at width display columns (base/text.c's), never inside a character. */
	dup[text_fit(dup, SIZE_MAX, c->width, NULL)] = '\0';
	c->v[c->n++] = dup;
}

/*
 * What a reference's times are multiplied by to stand beside ours: the chart compares like
 * with like, so a reference that moved another amount is scaled to file_size (and says so).
 */
static double
sweep_chart_ref_scale(const struct sweep_result *r, const struct scn_reference *ref)
{
	return ref->total_bytes > 0 && ref->total_bytes != r->sw->file_size ?
	    (double)r->sw->file_size / (double)ref->total_bytes : 1;
}

/* A reference's key: its label (made safe), and its scaling if it is scaled. */
static char *
sweep_chart_key(const struct sweep_result *r, const struct scn_reference *ref, bool ascii,
    char *buf, size_t len)
{
	char l[96], sz[32], sz2[32];
	double k = sweep_chart_ref_scale(r, ref);

	sweep_cols_safe(ref->label ? ref->label : "book", l, sizeof l);
	if (k == 1)
		snprintf(buf, len, "%s", l);
	else
		snprintf(buf, len, "%s %s%.3g (%s scaled to %s)", l, ascii ? "x" : "×", k,
		    units_format_size_round(ref->total_bytes, sz, sizeof sz),
		    units_format_size_round(r->sw->file_size, sz2, sizeof sz2));
	return buf;
}

/* One bar line: label, len cells of glyph, value. */
static void
sweep_chart_bar(struct chart *c, const char *label, const char *glyph, int len, double value,
    const char *tail, bool ascii)
{
	char line[1024], t[24];
	size_t gl = strlen(glyph), pos;

	pos = (size_t)snprintf(line, sizeof line, "%*s ", CHART_LABEL - 1, label);
	for (int i = 0; i < len && pos + gl + 64 < sizeof line; i++) {
		memcpy(line + pos, glyph, gl);
		pos += gl;
	}
	sweep_cols_time(value, ascii, t, sizeof t);
	snprintf(line + pos, sizeof line - pos, " %s%s", t, tail);
	sweep_chart_add(c, line);
}

/* Bar length for t on the log scale lo..hi over width cells: at least one cell. */
static int
sweep_chart_len(double t, double lo, double hi, int width)
{
	double frac = hi > lo ? (log(t) - log(lo)) / (log(hi) - log(lo)) : 1;
	int len = (int)lround(frac * width);

	return len < 1 ? 1 : len > width ? width : len;
}

/* The chart. */
char **
sweep_chart_lines(const struct sweep_result *r, int width, unsigned flags, size_t *n)
{
	static const char *const utf_ref[] = { "░", "▒", "▓" };
	static const char *const ascii_ref[] = { ".", ":", "=" };
	bool ascii = flags & SWEEP_PRINT_ASCII;
	const struct scn_sweep *sw = r->sw;
	const char *ours = ascii ? "#" : "█";
	double lo = INFINITY, hi = 0;
	int barw = width - CHART_LABEL - CHART_VALUE;
	struct chart c = { .width = width > 0 ? width : 1 };
	char line[512], key[192], name[96];

	*n = 0;
	if (barw < 5)
		barw = 5;
	/* One scale for ours and the books', so that the gap between them is visible. */
	for (size_t v = 0; v < r->n_variants; v++)
		for (size_t i = 0; i < r->variants[v].n_rows; i++) {
			const struct sweep_row *row = &r->variants[v].rows[i];
			double t = sweep_row_extrapolated(row);
			if (row->n_runs > 0 && t > 0) {
				lo = fmin(lo, t);
				hi = fmax(hi, t);
			}
		}
	for (size_t k = 0; k < sw->n_references; k++)
		for (size_t i = 0; i < sw->references[k].n_rows; i++) {
			double t = sw->references[k].rows[i].elapsed *
			    sweep_chart_ref_scale(r, &sw->references[k]);
			if (t > 0) {
				lo = fmin(lo, t);
				hi = fmax(hi, t);
			}
		}
	if (!isfinite(lo)) {
		sweep_chart_add(&c, "(nothing measured)");
		*n = c.n;
		return c.v;
	}
	lo /= 2;   /* the fastest row still gets a visible bar */

	snprintf(line, sizeof line, "Elapsed time, log scale (%s this machine", ours);
	for (size_t k = 0; k < sw->n_references && k < 3; k++)
		snprintf(line + strlen(line), sizeof line - strlen(line), ", %s %s",
		    ascii ? ascii_ref[k] : utf_ref[k], sweep_chart_key(r, &sw->references[k], ascii,
		    key, sizeof key));
	snprintf(line + strlen(line), sizeof line - strlen(line), ")");
	if (text_width(line) <= c.width) {
		sweep_chart_add(&c, line);
	} else {
		/* Too wide for one line: one key per line. */
		sweep_chart_add(&c, "Elapsed time, log scale:");
		snprintf(line, sizeof line, "  %s this machine", ours);
		sweep_chart_add(&c, line);
		for (size_t k = 0; k < sw->n_references && k < 3; k++) {
			snprintf(line, sizeof line, "  %s %s", ascii ? ascii_ref[k] : utf_ref[k],
			    sweep_chart_key(r, &sw->references[k], ascii, key, sizeof key));
			sweep_chart_add(&c, line);
		}
	}
	for (size_t v = 0; v < r->n_variants; v++) {
		const struct sweep_variant *bv = &r->variants[v];
		if (r->n_variants > 1) {
			snprintf(line, sizeof line, "%s (%s%s%s):", sweep_cols_safe(bv->v->name ?
			    bv->v->name : "default", name, sizeof name), bv->fs, bv->dev[0] ? " " : "",
			    bv->dev);
			sweep_chart_add(&c, line);
		}
		for (size_t i = 0; i < bv->n_rows; i++) {
			const struct sweep_row *row = &bv->rows[i];
			char label[24];
			double t = sweep_row_extrapolated(row);
			snprintf(label, sizeof label, "%" PRIu64, row->buf_size);
			if (row->n_runs > 0 && t > 0)
				sweep_chart_bar(&c, label, ours, sweep_chart_len(t, lo, hi, barw), t,
				    row->scale > 1.0000001 ? " *" : "", ascii);
			else {
				snprintf(line, sizeof line, "%*s %s", CHART_LABEL - 1, label,
				    row->err ? "failed" : "not run");
				sweep_chart_add(&c, line);
			}
			for (size_t k = 0; k < sw->n_references && k < 3; k++) {
				const struct scn_reference *ref = &sw->references[k];
				const struct scn_ref_row *rr;
				if (!sweep_ref_matches(r, ref, v))
					continue;
				rr = sweep_ref_row(ref, row->buf_size);
				if (rr != NULL && rr->elapsed > 0) {
					double t2 = rr->elapsed * sweep_chart_ref_scale(r, ref);
					sweep_chart_bar(&c, "", ascii ? ascii_ref[k] : utf_ref[k],
					    sweep_chart_len(t2, lo, hi, barw), t2, "", ascii);
				}
			}
		}
	}
	if (hi > lo)
		snprintf(line, sizeof line, "%*s each 10x is %.1f columns; * = measured on fewer "
		    "bytes and scaled up", CHART_LABEL - 1, "", barw / log10(hi / lo));
	else
		snprintf(line, sizeof line, "%*s * = measured on fewer bytes and scaled up",
		    CHART_LABEL - 1, "");
	sweep_chart_add(&c, line);
	if (c.oom) {
		sweep_chart_free(c.v, c.n);
		return NULL;
	}
	*n = c.n;
	return c.v;
}

/* Free the lines. */
void
sweep_chart_free(char **lines, size_t n)
{
	if (lines == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}
