/* SPDX-License-Identifier: MIT */
/* tui/view-crash.c: what a crash leaves, shown over the panes (x): the file after a kill -9 of
 * the process and after a power cut, what had reached the device, and what the kernel said
 * while it recovered the copy. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "crash/crash.h"
#include "export/describe.h"
#include "tui/view.h"

/* Text being built. */
struct view_crash_buf {
	char *s;
	size_t len, n;
};

/* Append printf output. */
static void __attribute__((format(printf, 2, 3)))
view_crash_add(struct view_crash_buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->n >= b->len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->s + b->n, b->len - b->n, fmt, ap);
	va_end(ap);
	b->n = k < 0 ? b->n : b->n + (size_t)k < b->len ? b->n + (size_t)k : b->len;
}

/* One half: its phrase, and for the power cut what reached the device and what recovery did. */
static void
view_crash_half(struct view_crash_buf *b, const char *file, const struct crash_half *h,
                bool power)
{
	char what[256], dev[192], safe[256];

	text_safe(crash_half_phrase(h, what, sizeof what), TEXT_LINE, safe, sizeof safe);
	view_crash_add(b, "  %s: %s\n", file, safe);
	if (!power || !h->observed)
		return;
	if (crash_half_device(h, dev, sizeof dev)[0] != '\0')
		view_crash_add(b, "  %s\n", dev);
	for (size_t i = 0; i < h->n_recovery; i++)
		if (crash_recovery_tells(h->recovery[i])) {
			text_safe(h->recovery[i], TEXT_LINE, safe, sizeof safe);
			view_crash_add(b, "  kernel: %s\n", safe);
		}
}

/* The crash popup's text for f into buf (see tui/view.h). */
char *
view_crash_text(const struct view_frame *f, char *buf, size_t len)
{
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	struct view_crash_buf b = { buf, len, 0 };
	const struct crash_view *v = sr != NULL ? sr->crash : NULL;
	char call[256], safe[256];

	if (len == 0 || !f->crash)
		return NULL;
	buf[0] = '\0';
	if (sr == NULL) {
		view_crash_add(&b, "No step has run yet: n runs the first, then x crashes it.");
		return buf;
	}
	text_safe(describe_step(sr->step, call, sizeof call), TEXT_LINE, safe, sizeof safe);
	if (v == NULL) {
		view_crash_add(&b, "Step %zu (%s) is a replay of what was recorded: a crash shows "
		               "the present only. The newest step is crashed by x.", sr->index + 1,
		               safe);
		return buf;
	}
	view_crash_add(&b, "After step %zu, %s", sr->index + 1, safe);
	if (v->after_s >= 0.05)
		view_crash_add(&b, ", %.1f s later", v->after_s);
	view_crash_add(&b, "%s:\n\n", f->replay ? " (recorded then)" : "");
	view_crash_add(&b, "kill -9: the process dies, its stdio buffers with it\n");
	view_crash_half(&b, v->file, &v->process, false);
	view_crash_add(&b, "\npower cut: the device as it was, recovered by the kernel\n");
	view_crash_half(&b, v->file, &v->power, true);
	return buf;
}

/* Draw the crash popup of f, if it asks for one. */
void
view_crash_draw(struct grid *g, const struct view_frame *f)
{
	char text[4096];

	if (view_crash_text(f, text, sizeof text) != NULL)
		view_frame_popup(g, "what a crash leaves", text, f->ascii);
}
