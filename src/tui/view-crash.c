/* SPDX-License-Identifier: MIT */
/* tui/view-crash.c: what a crash leaves, shown over the panes (x): the file after a kill -9 of
 * the process and after a power cut, what had reached the device, and what the kernel said
 * while it recovered the copy. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "crash/crash.h"
#include "export/describe.h"
#include "tui/view.h"

/* One half: its phrase, and for the power cut what reached the device and what recovery did. */
static void
view_crash_half(char *buf, size_t len, size_t *n, const char *file, const struct crash_half *h,
                bool power)
{
	char what[256], dev[192], safe[256];

	text_safe(crash_half_phrase(h, what, sizeof what), TEXT_LINE, safe, sizeof safe);
	text_cat(buf, len, n, "  %s: %s\n", file, safe);
	if (!power || !h->observed)
		return;
	if (crash_half_device(h, dev, sizeof dev)[0] != '\0')
		text_cat(buf, len, n, "  %s\n", dev);
	for (size_t i = 0; i < h->n_recovery; i++)
		if (crash_recovery_tells(h->recovery[i])) {
			text_safe(h->recovery[i], TEXT_LINE, safe, sizeof safe);
			text_cat(buf, len, n, "  kernel: %s\n", safe);
		}
}

/* The crash popup's text for f into buf (see tui/view.h). */
char *
view_crash_text(const struct view_frame *f, char *buf, size_t len)
{
	const struct step_result *sr = f->cur >= 0 ? &f->results[f->cur] : NULL;
	size_t n = 0;
	const struct crash_view *v = sr != NULL ? sr->crash : NULL;
	char call[256], safe[256];

	if (len == 0 || !f->crash)
		return NULL;
	buf[0] = '\0';
	if (sr == NULL) {
		text_cat(buf, len, &n, "No step has run yet: n runs the first, then x crashes it.");
		return buf;
	}
	/* A traced program's step is its own line (a call, not a lesson's op). */
	if (sr->label != NULL && sr->step->args.text != NULL)
		snprintf(call, sizeof call, "%s", sr->step->args.text);
	else
		describe_step(sr->step, call, sizeof call);
	text_safe(call, TEXT_LINE, safe, sizeof safe);
	if (v == NULL) {
		text_cat(buf, len, &n, "Step %zu (%s) is a replay of what was recorded: a crash shows "
		               "the present only. The newest step is crashed by x.", sr->index + 1,
		               safe);
		return buf;
	}
	text_cat(buf, len, &n, "After step %zu, %s", sr->index + 1, safe);
	if (v->after_s >= 0.05)
		text_cat(buf, len, &n, ", %.1f s later", v->after_s);
	text_cat(buf, len, &n, "%s:\n\n", f->replay ? " (recorded then)" : "");
	text_cat(buf, len, &n, "kill -9: the process dies, its stdio buffers with it\n");
	view_crash_half(buf, len, &n, v->file, &v->process, false);
	text_cat(buf, len, &n, "\npower cut: the device as it was, recovered by the kernel\n");
	view_crash_half(buf, len, &n, v->file, &v->power, true);
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
