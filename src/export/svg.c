/* SPDX-License-Identifier: MIT */
/* export/svg.c: a sweep as an SVG plot for slides: time against BUF_SIZE on log-log axes, per
 * variant, ours beside the books', readable in grayscale. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/sweep.h"
#include "table/print.h"
#include "scenario/names.h"
#include "base/units.h"

/* The page's width; one panel per variant, this high, under the title band. */
#define PLOT_W 800
#define PLOT_PANEL_H 450
/* A panel's plot area, from the panel's top left corner. */
#define PLOT_X0 90
#define PLOT_X1 560
#define PLOT_Y0 35
#define PLOT_Y1 365
/* Longest text drawn from a scenario, in characters (the rest is cut, with "…"). */
#define PLOT_TEXT_MAX 90

/* One measure: the figures' names, and how its series look (not by colour). */
static const struct plot_measure {
	const char *name;
	const char *dash;         /* stroke-dasharray; "" solid */
	const char *shape;        /* marker: circle, square, triangle */
} plot_measures[] = {
	{ "elapsed", "", "circle" },
	{ "user", "7 4", "square" },
	{ "sys", "2 3", "triangle" },
};

/* How the series of a source look: ours black and filled, each reference grey and hollow. */
static const struct plot_source {
	const char *stroke, *fill;
	bool dot;                 /* a dot in the hollow marker (a second reference) */
} plot_sources[] = {
	{ "#000", "#000", false },
	{ "#555", "#fff", false },
	{ "#888", "#fff", true },
};
#define PLOT_N_SOURCES (sizeof plot_sources / sizeof plot_sources[0])
/* Ours, where a row ran on fewer bytes and its figure is extrapolated: hollow, black. */
static const struct plot_source plot_extrapolated = { "#000", "#fff", false };

/* True if row i of variant v ran on fewer bytes than the sweep's file (scaled up). */
static bool
plot_row_scaled(const struct sweep_result *r, size_t v, size_t i)
{
	return r->variants[v].rows[i].scale > 1.0000001;
}

/* One panel's scales: log2 of BUF_SIZE across, log10 of seconds up. */
struct plot_axes {
	double top;               /* the panel's top in the page */
	double xmin, xmax;        /* log2 bytes */
	int ymin, ymax;           /* decades of seconds */
};

/* A number for SVG whatever the locale: one decimal, a point ("12.5"). Return buf. */
static char *
plot_num(double v, char *buf, size_t len)
{
	long t = lround(v * 10);

	snprintf(buf, len, "%s%ld.%ld", t < 0 ? "-" : "", labs(t) / 10, labs(t) % 10);
	return buf;
}

/*
 * Write s (a scenario's text, or ours) as XML character data: made safe by base/text.c (no
 * control), cut to max characters, with &, <, >, " and ' as entities and the two code points
 * XML forbids (U+FFFE, U+FFFF) as "?".
 */
static void
plot_text(FILE *f, const char *s, size_t max)
{
	char safe[1024];
	size_t chars = 0;

	sweep_cols_safe(s, safe, sizeof safe);
	for (const char *p = safe; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c & 0xC0) != 0x80 && ++chars > max) {
			fputs("…", f);
			return;
		}
		if (c == 0xEF && (unsigned char)p[1] == 0xBF &&
		    ((unsigned char)p[2] == 0xBE || (unsigned char)p[2] == 0xBF)) {
			fputc('?', f);
			p += 2;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(c, f);
		}
	}
}

/* A text element at (x, y) with attributes attr; its content is plot_text of s. */
static void
plot_label(FILE *f, double x, double y, const char *attr, const char *s, size_t max)
{
	char a[24], b[24];

	fprintf(f, "<text x=\"%s\" y=\"%s\"%s%s>", plot_num(x, a, sizeof a), plot_num(y, b, sizeof b),
	    attr[0] ? " " : "", attr);
	plot_text(f, s, max);
	fputs("</text>\n", f);
}

/* Page x of BUF_SIZE b. */
static double
plot_x(const struct plot_axes *ax, double b)
{
	return PLOT_X0 + (log2(b) - ax->xmin) / (ax->xmax - ax->xmin) * (PLOT_X1 - PLOT_X0);
}

/* Page y of s seconds. */
static double
plot_y(const struct plot_axes *ax, double s)
{
	return ax->top + PLOT_Y1 - (log10(s) - ax->ymin) / (ax->ymax - ax->ymin) *
	       (PLOT_Y1 - PLOT_Y0);
}

/* A BUF_SIZE for the axis: "512", "4 KiB", "1 MiB". Return buf. */
static char *
plot_bytes(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
	return buf;
}

/* A decade of seconds for the axis: "1 µs", "10 ms", "100 s". Return buf. */
static char *
plot_decade(int k, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	int u = k >= 0 ? 3 : k >= -3 ? 2 : k >= -6 ? 1 : 0;
	int e = k - (u - 3) * 3;

	if (k > 2)
		snprintf(buf, len, "%.0f s", pow(10, k));
	else
		snprintf(buf, len, "%d %s", e == 0 ? 1 : e == 1 ? 10 : 100, unit[u]);
	return buf;
}

/* Figure m (0 elapsed, 1 user, 2 sys) of variant v's row i for source src (0: ours, k: the
 * k-th reference beside v), in seconds for file_size; 0 when there is none to draw. */
static double
plot_value(const struct sweep_result *r, size_t v, size_t i, int m, const struct scn_reference *ref)
{
	const struct sweep_row *row = &r->variants[v].rows[i];
	const struct scn_ref_row *rr;
	double x;

	if (ref == NULL) {
		if (row->n_runs == 0)
			return 0;
		x = m == 0 ? sweep_row_extrapolated(row) : sweep_row_cpu(row, m == 2);
	} else {
		if ((rr = sweep_ref_row(ref, row->buf_size)) == NULL)
			return 0;
		x = m == 0 ? rr->elapsed : m == 1 ? rr->user : rr->system;
		x *= sweep_cols_ref_scale(r, ref);
	}
	/* Unknown (< 0), below a tick (-1) or 0: nothing on a log axis. */
	return isfinite(x) && x > 0 ? x : 0;
}

/* The references that stand beside variant v, at most PLOT_N_SOURCES - 1; their count. */
static size_t
plot_refs(const struct sweep_result *r, size_t v, const struct scn_reference **refs)
{
	size_t n = 0;

	for (size_t q = 0; q < r->sw->n_references && n + 1 < PLOT_N_SOURCES; q++)
		if (sweep_ref_matches(r, &r->sw->references[q], v))
			refs[n++] = &r->sw->references[q];
	return n;
}

/* A marker of shape at (x, y) in source s's look. */
static void
plot_marker(FILE *f, const char *shape, double x, double y, const struct plot_source *s)
{
	char a[24], b[24], c[24], d[24], e[24], g[24];

	if (strcmp(shape, "circle") == 0)
		fprintf(f, "<circle cx=\"%s\" cy=\"%s\" r=\"4\"", plot_num(x, a, sizeof a),
		    plot_num(y, b, sizeof b));
	else if (strcmp(shape, "square") == 0)
		fprintf(f, "<rect x=\"%s\" y=\"%s\" width=\"7.6\" height=\"7.6\"",
		    plot_num(x - 3.8, a, sizeof a), plot_num(y - 3.8, b, sizeof b));
	else
		fprintf(f, "<polygon points=\"%s,%s %s,%s %s,%s\"", plot_num(x, a, sizeof a),
		    plot_num(y - 5, b, sizeof b), plot_num(x - 4.6, c, sizeof c),
		    plot_num(y + 3.4, d, sizeof d), plot_num(x + 4.6, e, sizeof e),
		    plot_num(y + 3.4, g, sizeof g));
	fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", s->fill, s->stroke);
	if (s->dot)
		fprintf(f, "<circle cx=\"%s\" cy=\"%s\" r=\"1.3\" fill=\"%s\"/>\n",
		    plot_num(x, a, sizeof a), plot_num(y, b, sizeof b), s->stroke);
}

/* One series: its line (broken where a figure is missing), then its markers (ours hollow where
 * extrapolated: *scaled set). Return its points. */
static size_t
plot_series(FILE *f, const struct sweep_result *r, size_t v, int m,
    const struct scn_reference *ref, const struct plot_source *src, const struct plot_axes *ax,
    bool *scaled)
{
	const struct sweep_variant *bv = &r->variants[v];
	const struct plot_measure *pm = &plot_measures[m];
	char a[24], b[24];
	bool open = false, pen = false;
	size_t n = 0;

	for (size_t i = 0; i < bv->n_rows; i++) {
		double t = plot_value(r, v, i, m, ref);
		if (t <= 0) {
			pen = false;
			continue;
		}
		if (!open)
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s%s%s d=\"",
			    src->stroke, pm->dash[0] ? " stroke-dasharray=\"" : "", pm->dash,
			    pm->dash[0] ? "\"" : "");
		fprintf(f, "%s%s %s ", pen ? "L" : "M", plot_num(plot_x(ax, (double)bv->rows[i].buf_size),
		    a, sizeof a), plot_num(plot_y(ax, t), b, sizeof b));
		open = pen = true;
		n++;
	}
	if (open)
		fputs("\"/>\n", f);
	for (size_t i = 0; i < bv->n_rows; i++) {
		double t = plot_value(r, v, i, m, ref);
		bool extra = ref == NULL && plot_row_scaled(r, v, i);
		if (t <= 0)
			continue;
		plot_marker(f, pm->shape, plot_x(ax, (double)bv->rows[i].buf_size), plot_y(ax, t),
		    extra ? &plot_extrapolated : src);
		*scaled |= extra;
	}
	return n;
}

/* The axes of variant v's panel: every BUF_SIZE across, the decades of every figure up. */
static void
plot_scale(const struct sweep_result *r, size_t v, const struct scn_reference *const *refs,
    size_t n_refs, struct plot_axes *ax)
{
	const struct sweep_variant *bv = &r->variants[v];
	double lo = INFINITY, hi = 0, bmin = INFINITY, bmax = 0;

	for (size_t i = 0; i < bv->n_rows; i++) {
		double b = (double)bv->rows[i].buf_size;
		bmin = b < bmin ? b : bmin;
		bmax = b > bmax ? b : bmax;
		for (int m = 0; m < 3; m++)
			for (size_t s = 0; s <= n_refs; s++) {
				double t = plot_value(r, v, i, m, s == 0 ? NULL : refs[s - 1]);
				if (t > 0) {
					lo = t < lo ? t : lo;
					hi = t > hi ? t : hi;
				}
			}
	}
	if (!(bmax > 0))
		bmin = bmax = 1;
	ax->xmin = log2(bmin) - 0.5;
	ax->xmax = log2(bmax) + 0.5;
	if (!(hi > 0))
		lo = hi = 1;
	ax->ymin = (int)floor(log10(lo));
	ax->ymax = (int)ceil(log10(hi));
	if (ax->ymax <= ax->ymin)
		ax->ymax = ax->ymin + 1;
}

/* The frame, the grid and the ticks of a panel; the axes' titles. */
static void
plot_axes_draw(FILE *f, const struct sweep_result *r, size_t v, const struct plot_axes *ax)
{
	const struct sweep_variant *bv = &r->variants[v];
	char a[24], b[24], c[24], d[24], lab[48], sz[32];
	double y0 = ax->top + PLOT_Y0, y1 = ax->top + PLOT_Y1;
	double last = -1e9;

	fprintf(f, "<rect x=\"%d\" y=\"%s\" width=\"%d\" height=\"%d\" fill=\"none\" "
	    "stroke=\"#000\"/>\n", PLOT_X0, plot_num(y0, a, sizeof a), PLOT_X1 - PLOT_X0,
	    PLOT_Y1 - PLOT_Y0);
	for (int k = ax->ymin; k <= ax->ymax; k++) {
		double y = plot_y(ax, pow(10, k));
		fprintf(f, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#ccc\"/>\n", PLOT_X0,
		    plot_num(y, a, sizeof a), PLOT_X1, plot_num(y, b, sizeof b));
		plot_label(f, PLOT_X0 - 6, y + 4, "text-anchor=\"end\"", plot_decade(k, lab,
		    sizeof lab), 20);
		/* Minor ticks at 2 to 9 times the decade. */
		for (int m = 2; m <= 9 && k < ax->ymax; m++) {
			double ym = plot_y(ax, m * pow(10, k));
			fprintf(f, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#000\"/>\n",
			    PLOT_X0, plot_num(ym, a, sizeof a), PLOT_X0 + 4, plot_num(ym, b, sizeof b));
		}
	}
	for (size_t i = 0; i < bv->n_rows; i++) {
		double x = plot_x(ax, (double)bv->rows[i].buf_size);
		fprintf(f, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#000\"/>\n",
		    plot_num(x, a, sizeof a), plot_num(y1, b, sizeof b), plot_num(x, c, sizeof c),
		    plot_num(y1 + 5, d, sizeof d));
		/* A label where there is room for it (sizes are often powers of 2 apart). */
		if (x - last < 40)
			continue;
		plot_label(f, x, y1 + 18, "text-anchor=\"middle\"", plot_bytes(bv->rows[i].buf_size,
		    lab, sizeof lab), 20);
		last = x;
	}
	plot_label(f, (PLOT_X0 + PLOT_X1) / 2.0, y1 + 38, "text-anchor=\"middle\"",
	    "BUF_SIZE: bytes per read() or write() (log scale)", PLOT_TEXT_MAX);
	snprintf(lab, sizeof lab, "time for %s (log scale)", units_format_size_round(
	    r->sw->file_size, sz, sizeof sz));
	fprintf(f, "<g transform=\"translate(22 %s) rotate(-90)\">\n",
	    plot_num((y0 + y1) / 2, a, sizeof a));
	plot_label(f, 0, 0, "text-anchor=\"middle\"", lab, PLOT_TEXT_MAX);
	fputs("</g>\n", f);
}

/* The legend of a panel: a sample of each series drawn, with its name; ours twice where some
 * of its points are measured and some extrapolated (scaled[m]). */
static void
plot_legend(FILE *f, const bool drawn[][3], const bool scaled[3],
    const struct scn_reference *const *refs, size_t n_refs, double top)
{
	double y = top + PLOT_Y0 + 8;
	char a[24], b[24], l[96], name[160];

	for (size_t s = 0; s <= n_refs; s++)
		for (int m = 0; m < 3; m++) {
			const struct plot_measure *pm = &plot_measures[m];
			if (!drawn[s][m])
				continue;
			for (int e = 0; e < (s == 0 && scaled[m] ? 2 : 1); e++) {
				fprintf(f, "<line x1=\"580\" y1=\"%s\" x2=\"612\" y2=\"%s\" "
				    "stroke=\"%s\" stroke-width=\"1.6\"%s%s%s/>\n", plot_num(y, a,
				    sizeof a), plot_num(y, b, sizeof b), plot_sources[s].stroke,
				    pm->dash[0] ? " stroke-dasharray=\"" : "", pm->dash,
				    pm->dash[0] ? "\"" : "");
				plot_marker(f, pm->shape, 596, y, e ? &plot_extrapolated :
				    &plot_sources[s]);
				snprintf(name, sizeof name, "%s, %s", pm->name, s > 0 ?
				    sweep_cols_label(refs[s - 1], l, sizeof l) : e ?
				    "extrapolated here" : "measured here");
				plot_label(f, 620, y + 4, "", name, 26);
				y += 20;
			}
		}
}

/* Variant v's panel: title, axes, series, legend, notes. */
static void
plot_panel(FILE *f, const struct sweep_result *r, size_t v, double top)
{
	const struct scn_reference *refs[PLOT_N_SOURCES];
	size_t n_refs = plot_refs(r, v, refs);
	struct plot_axes ax = { .top = top };
	bool drawn[PLOT_N_SOURCES][3], scaled[3] = { false, false, false };
	char name[512], line[600], sz[32], sz2[32], l[96];
	double y = top + PLOT_Y1 + 58;

	/* y: the notes under the axis' title. */

	memset(drawn, 0, sizeof drawn);
	plot_scale(r, v, refs, n_refs, &ax);
	snprintf(line, sizeof line, "%s", sweep_print_variant_name(&r->variants[v], name,
	    sizeof name));
	plot_label(f, PLOT_X0, top + 22, "font-size=\"13\"", line, PLOT_TEXT_MAX);
	plot_axes_draw(f, r, v, &ax);
	/* The references first, ours on top. */
	for (size_t s = n_refs + 1; s-- > 0;)
		for (int m = 0; m < 3; m++)
			drawn[s][m] = plot_series(f, r, v, m, s == 0 ? NULL : refs[s - 1],
			    &plot_sources[s], &ax, &scaled[m]) > 0;
	plot_legend(f, (const bool (*)[3])drawn, scaled, refs, n_refs, top);
	for (size_t s = 1; s <= n_refs; s++) {
		if (!sweep_cols_resized(r, refs[s - 1]))
			continue;
		snprintf(line, sizeof line, "\"%s\" moved %s: its times are scaled x%.3g to %s.",
		    sweep_cols_label(refs[s - 1], l, sizeof l), units_format_size_round(
		    refs[s - 1]->total_bytes, sz, sizeof sz), sweep_cols_ref_scale(r, refs[s - 1]),
		    units_format_size_round(r->sw->file_size, sz2, sizeof sz2));
		plot_label(f, PLOT_X0, y, "font-size=\"11\"", line, 120);
		y += 14;
	}
}

/*
 * Draw text (made safe and escaped by plot_label) as lines of at most width characters, cut at
 * spaces, from (x, y), 15 units apart; at most max lines. Return the lines drawn.
 */
static int
plot_lines(FILE *f, double x, double y, const char *attr, const char *text, size_t width,
    int max)
{
	char line[256];
	int n = 0;

	while (*text != '\0' && n < max) {
		size_t len = strlen(text), cut = len, chars = 0, last_space = 0;
		for (size_t i = 0; i < len; i++) {
			if (((unsigned char)text[i] & 0xC0) == 0x80)
				continue;
			if (chars == width) {
				cut = last_space > 0 ? last_space : i;
				break;
			}
			if (text[i] == ' ')
				last_space = i;
			chars++;
		}
		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, text, cut);
		line[cut] = '\0';
		plot_label(f, x, y + 15.0 * n++, attr, line, width + 1);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return n;
}

/* The whole plot: a title band (title, this machine, the busy warning), a panel per variant. */
int
sweep_plot_svg(FILE *f, const struct sweep_result *r)
{
	const struct scn_sweep *sw = r->sw;
	char a[24], b[24], line[600], busy[512];
	double band = 62, h;
	int busy_lines = 0;

	if (r->busy.busy) {
		/* Slides travel without their tables: the warning goes with the plot. */
		sweep_print_busy(r, busy, sizeof busy);
		busy_lines = (int)(strlen(busy) / 100) + 2;
		band += 15.0 * busy_lines + 6;
	}
	h = band + (double)r->n_variants * PLOT_PANEL_H + 40;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%s\" "
	    "viewBox=\"0 0 %d %s\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
	    "font-size=\"12\">\n", PLOT_W, plot_num(h, a, sizeof a), PLOT_W, plot_num(h, b, sizeof b));
	fputs("<title>", f);
	plot_text(f, sw->title != NULL ? sw->title : "Sweep", PLOT_TEXT_MAX);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	plot_label(f, 20, 26, "font-size=\"17\" font-weight=\"bold\"", sw->title != NULL ?
	    sw->title : "Sweep", 70);
	snprintf(line, sizeof line, "program %s; %s, %s; %s; each point the median of %u runs",
	    scenario_names_of(scn_programs, (int)sw->program), r->kernel, r->machine,
	    !sweep_prog_reads(sw->program) ? "a new file each run" :
	    sw->cache == SCN_CACHE_COLD ? "cold cache" : "warm cache", r->repeat);
	plot_label(f, 20, 46, "fill=\"#333\"", line, 120);
	if (busy_lines > 0)
		plot_lines(f, 20, 66, "font-weight=\"bold\"", busy, 100, busy_lines);
	for (size_t v = 0; v < r->n_variants; v++)
		plot_panel(f, r, v, band + (double)v * PLOT_PANEL_H);
	plot_lines(f, 20, h - 30, "font-size=\"11\" fill=\"#333\"", sweep_print_scaled(r) ?
	    "Hollow black points ran on fewer bytes and are extrapolated (the table says by how much). "
	    "CPU times under one tick of the kernel's accounting are not drawn." :
	    "CPU times under one tick of the kernel's accounting are not drawn.", 120, 2);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
