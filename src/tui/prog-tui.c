/* SPDX-License-Identifier: MIT */
/* tui/prog-tui.c: a student's own program in the terminal UI, one traced step at a time. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/text.h"
#include "headless/app.h"
#include "tui/crt.h"
#include "tui/tui.h"
#include "tui/grid.h"
#include "tui/prog-source.h"
#include "prog/format.h"
#include "prog/run.h"
#include "tui/view.h"

/* Steps kept for going back; older ones are forgotten, and the screen says so (a step
 * holds two snapshots: about 50 KiB). When the history is full its older half goes at once:
 * a step then costs no move of the whole history (d ran at 25 steps a second past it). */
#define PROG_TUI_KEEP 4096

/* While d runs: the screen shows how far it got this often (ms), and reads q. */
#define PROG_TUI_PROGRESS_MS 100

/* This mode's keys, for the footer. */
static const char *const prog_tui_keys[][2] = {
	{ "n", "next" }, { "p", "back" }, { "d", "next write" }, { "a", "autoplay" },
	{ "o", "calls" }, { "Tab", "file" }, { "s", "stream" }, { "c", "source" }, { "x", "crash" },
	{ "q", "quit" },
	{ "?", "help" },
};

/* This mode's help. */
static const char prog_tui_help[] =
	"n space ->   run the program to its next step\n"
	"p <-         go back (the state recorded after that step)\n"
	"d            run to the next step that writes to a file or asks for the disk\n"
	"             (fsync, O_SYNC); q stops it\n"
	"a            autoplay on/off (q stops it)\n"
	"o            the step's calls, each: a folded step (fputc x 4097) opened\n"
	"Tab S-Tab    show another file the program touched\n"
	"s            show another of its FILE streams; Esc: the step's own\n"
	"c            the program's source (built with -g), the step's line marked:\n"
	"             beside the panes from 120 columns; c hides or shows it\n"
	"x            (--crash-fs) what a kill -9 and a power cut right after the\n"
	"             step leave of the lab's file it touched; x again hides it\n"
	"Ctrl-L       redraw\n"
	"? F1         this help (any key closes)\n"
	"q F10        quit (the program is killed)\n"
	"\n"
	"A step is a call: a system call of the program's own on a file, or a stdio\n"
	"call with the system calls it made (-> write(4, 4096)). Calls of one kind on\n"
	"one stream fold into one step (x 4097) until one reaches the kernel; the\n"
	"program's own reads or writes one after another fold too (at most 4096).\n"
	"A folded step says what its calls did: fgetc(fp) x 708: 707 B, then EOF.";

/* Autoplay: one step this often (ms). */
#define PROG_TUI_AUTO_MS 400

/* The UI's state. */
struct prog_tui {
	const struct app_opts *o;
	char *const *argv;
	struct prog_run *r;
	struct prog_run_step **steps;   /* kept steps, oldest first */
	struct step_result *results;    /* their step_results, for the views */
	size_t n;
	size_t forgotten;               /* steps dropped from the front */
	long cur;                       /* shown step, -1: before the first */
	bool finished, autoplay, help, quit, open;
	uint64_t auto_at;
	long file_sel;                  /* Tab: the file the panes show; -1: the step's own */
	long stream_sel;                /* s: the stream the stdio pane shows; -1: the step's */
	struct scenario scn;
	struct text_buf title;          /* the top line: the file shown and the command line */
	struct snapshot initial;
	struct grid *g;
	struct view_layout lay;
	char status[512];
	uint64_t wait_t0;               /* when the wait for the next step began (ms) */
	uint64_t wait_drawn;            /* when prog_tui_poll last drew (ms) */
	bool said_timeout;              /* the status said --timeout passed */
	struct prog_source src;         /* the program's source file, for the program pane */
	bool src_toggled;               /* c: its default for the width flipped */
	bool show_crash;                /* x: what a crash after the shown step leaves */
};

static void prog_tui_draw(struct prog_tui *t);

/* Monotonic milliseconds. */
static uint64_t
prog_tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Keep step s (taken over) at the end; past PROG_TUI_KEEP forget the older half. 0 or -1. */
static int
prog_tui_keep(struct prog_tui *t, struct prog_run_step *s)
{
	if (t->n == PROG_TUI_KEEP) {
		const size_t drop = PROG_TUI_KEEP / 2;
		if (t->forgotten == 0)
			snprintf(t->status, sizeof t->status, "long program: the oldest steps are "
			         "forgotten; at least the last %d are kept for going back (p)",
			         PROG_TUI_KEEP / 2);
		for (size_t i = 0; i < drop; i++) {
			prog_run_step_clear(t->steps[i]);
			free(t->steps[i]);
		}
		memmove(t->steps, t->steps + drop, (t->n - drop) * sizeof *t->steps);
		memmove(t->results, t->results + drop, (t->n - drop) * sizeof *t->results);
		t->n -= drop;
		t->forgotten += drop;
		t->cur = t->cur >= (long)drop ? t->cur - (long)drop : 0;
	}
	if (t->steps == NULL) {
		t->steps = calloc(PROG_TUI_KEEP, sizeof *t->steps);
		t->results = calloc(PROG_TUI_KEEP, sizeof *t->results);
		if (t->steps == NULL || t->results == NULL)
			return -1;
	}
	s->scn.say = s->text.s;
	t->steps[t->n] = s;
	t->results[t->n] = s->sr;
	t->n++;
	return 0;
}

/*
 * While the program runs without a step (prog_run_opts.poll): q or F10 stops the wait and
 * quits; after a second the status line says what we wait for.
 */
static int
prog_tui_poll(void *user)
{
	struct prog_tui *t = user;
	struct crt_event ev;

	if (t->g == NULL)
		return 0;          /* not on the screen yet */
	crt_read(0, &ev);
	if (ev.kind == CRT_EV_KEY && (ev.key == 'q' || ev.key == 'Q' || ev.key == CRT_K_F10))
		t->quit = true;
	if (!t->quit && prog_tui_now_ms() - t->wait_t0 >= 1000 &&
	    prog_tui_now_ms() - t->wait_drawn >= 500) {
		snprintf(t->status, sizeof t->status, "waiting for the program's next call on a "
		         "file: %.1f s   (q quits)", (double)(prog_tui_now_ms() - t->wait_t0) / 1e3);
		prog_tui_draw(t);
		t->wait_drawn = prog_tui_now_ms();
	}
	return t->quit;
}

/* Run one step of the program; 1 = a step, 0 = it ended, -1 = error (status says). */
static int
prog_tui_run_one(struct prog_tui *t)
{
	struct prog_run_step *s;
	int rc;

	if (t->finished)
		return 0;
	s = malloc(sizeof *s);
	if (s == NULL)
		return -1;
	t->wait_t0 = prog_tui_now_ms();
	rc = prog_run_next(t->r, s);
	/* What the poll said of the wait is over: the step came (or the time was up). */
	if (t->wait_drawn >= t->wait_t0)
		t->status[0] = '\0';
	if (prog_run_timed_out(t->r) && !t->said_timeout) {
		t->said_timeout = true;
		snprintf(t->status, sizeof t->status, "--timeout passed: the program and every process "
		         "it made were killed");
	}
	if (rc < 0 && errno == ECANCELED) {
		free(s);           /* q while it waited: the main loop quits */
		return -1;
	}
	if (rc == 1 && prog_tui_keep(t, s) != 0) {
		prog_run_step_clear(s);
		rc = -1;
	}
	if (rc != 1) {
		free(s);
		t->finished = true;
		t->autoplay = false;
		if (rc < 0)
			snprintf(t->status, sizeof t->status, "tracing stopped: %s", strerror(errno));
		else
			snprintf(t->status, sizeof t->status, "the program has ended (p goes back, q quits)");
		return rc;
	}
	t->cur = (long)t->n - 1;
	return 1;
}

/* n: the next step (forward in the history first). */
static void
prog_tui_next(struct prog_tui *t)
{
	if (t->cur + 1 < (long)t->n) {
		t->cur++;
		return;
	}
	t->status[0] = '\0';
	prog_tui_run_one(t);
}

/* True if step s writes to a file (a call, or stores through a mapping) or asks for the
 * disk (what d stops at). */
static bool
prog_tui_writes(const struct prog_run_step *s)
{
	return s->disk || s->sr.events.n_write > 0 || s->ps.kind == PROG_STEP_STORES;
}

static void prog_tui_draw(struct prog_tui *t);

/* d: run to the next step that writes to a file or asks for the disk, showing how far it
 * got; q stops it. Say what was passed over. */
static void
prog_tui_to_disk(struct prog_tui *t)
{
	uint64_t skipped = 0, reads = 0, stdio = 0, other = 0, at = prog_tui_now_ms();
	bool stopped = false;
	int rc = 0;

	t->cur = (long)t->n - 1;
	while (!t->quit && (rc = prog_tui_run_one(t)) == 1) {
		const struct prog_run_step *s = t->steps[t->n - 1];
		if (prog_tui_writes(s))
			break;
		skipped++;
		if (s->ps.kind == PROG_STEP_STDIO)
			stdio++;
		else if (s->sr.events.n_read > 0)
			reads++;
		else
			other++;
		if (prog_tui_now_ms() - at >= PROG_TUI_PROGRESS_MS) {
			struct crt_event ev;
			at = prog_tui_now_ms();
			snprintf(t->status, sizeof t->status, "d: running to the next write: step %zu, "
			         "%" PRIu64 " passed over (q stops)", t->forgotten + t->n, skipped);
			prog_tui_draw(t);
			crt_read(0, &ev);
			if (ev.kind == CRT_EV_KEY && (ev.key == 'q' || ev.key == CRT_K_ESC)) {
				stopped = true;
				break;
			}
		}
	}
	snprintf(t->status, sizeof t->status, "%s; passed over %" PRIu64 " step%s: %" PRIu64
	         " read%s, %" PRIu64 " stdio call%s, %" PRIu64 " other",
	         stopped ? "stopped (q)" : rc == 1 && t->steps[t->n - 1]->disk ?
	         "stopped at a call that asks for the disk" : rc == 1 ?
	         "stopped at a write to a file" : prog_run_timed_out(t->r) ?
	         "--timeout passed: the program was killed before a write" :
	         "no write before the end", skipped, skipped == 1 ? "" : "s", reads,
	         reads == 1 ? "" : "s", stdio, stdio == 1 ? "" : "s", other);
}

/* Call i of the folded stdio step s as the program wrote it: "fprintf(fp, "%d\n", ...) = 28",
 * "fputc('a', fp) = 97" (fwrite's and fread's count is the last call's: only their size and
 * result are kept per call). */
static const char *
prog_tui_fold_call(const struct prog_run_step *s, uint64_t i, char *buf, size_t len)
{
	struct prog_step *c = malloc(sizeof *c);
	const char *fp;
	char *t;

	if (c == NULL) {
		snprintf(buf, len, "%s(...) = %" PRId64, s->ps.func, s->calls[i].ret);
		return buf;
	}
	memcpy(c, &s->ps, PROG_STEP_HEAD);
	c->path[0] = '\0';
	c->calls = (struct event_list){ 0 };
	c->arg[0] = s->calls[i].arg;
	c->ret = s->calls[i].ret;
	fp = prog_format_stream(c);
	if (c->func_base == PROG_MARK_FUNC_fwrite && c->literal && !s->str_varies &&
	    c->str[0][0] != '\0' && strlen(c->str[0]) < PROG_STR_MAX - 1) {
		/* Every call wrote this literal whole: its bytes and their count. */
		char q[PROG_STR_MAX * 4 + 8];
		text_quote_cut(c->str[0], false, q, sizeof q);
		snprintf(buf, len, "%s(%s, %" PRId64 ", %zu, %s) = %" PRId64, c->func, q, c->arg[0],
		         strlen(c->str[0]), fp, c->ret);
	} else if (c->func_base == PROG_MARK_FUNC_fwrite || c->func_base == PROG_MARK_FUNC_fread)
		snprintf(buf, len, "%s(buf, %" PRId64 ", n, %s) = %" PRId64, c->func, c->arg[0], fp,
		         c->ret);
	else if (s->str_varies && c->str[0][0] != '\0')
		/* Only the last call's string (format) is kept, and the calls' differ: none is
		 * shown rather than the last one's for each. */
		snprintf(buf, len, "%s(%s%s%s...) = %" PRId64, c->func,
		         c->func_base == PROG_MARK_FUNC_fputs ? "s, " : "",
		         c->func_base == PROG_MARK_FUNC_fprintf || c->func_base == PROG_MARK_FUNC_fscanf ||
		         c->func_base == PROG_MARK_FUNC_vfprintf || c->func_base == PROG_MARK_FUNC_vfscanf ?
		         fp : "", c->func_base == PROG_MARK_FUNC_fprintf ||
		         c->func_base == PROG_MARK_FUNC_fscanf || c->func_base == PROG_MARK_FUNC_vfprintf ||
		         c->func_base == PROG_MARK_FUNC_vfscanf ? ", " : "", c->ret);
	else
		prog_format_step(c, buf, len);
	free(c);
	/* Without the "[pid] " every line would repeat. */
	t = buf[0] == '[' ? strstr(buf, "] ") : NULL;
	if (t != NULL)
		memmove(buf, t + 2, strlen(t + 2) + 1);
	return buf;
}

/* The calls of the shown step, each (o): into buf. */
static void
prog_tui_calls_text(const struct prog_tui *t, char *buf, size_t len)
{
	const struct prog_run_step *s = t->cur >= 0 ? t->steps[t->cur] : NULL;
	const size_t max = 24;
	size_t at = 0, shown = 0;

	buf[0] = '\0';
	if (s == NULL) {
		snprintf(buf, len, "no step yet: n runs the program to its first");
		return;
	}
	at += (size_t)snprintf(buf + at, len - at, "step %zu: %" PRIu64 " call%s\n\n",
	                       s->sr.index + 1, s->count, s->count == 1 ? "" : "s");
	if (s->calls != NULL) {
		/* A folded stdio step: each call as the program wrote it, its argument and result
		 * its own. */
		for (uint64_t i = 0; i < s->count && shown < max / 2 && at < len; i++, shown++) {
			char call[PROG_STR_MAX * 8 + 80];
			at += (size_t)snprintf(buf + at, len - at, "%s\n",
			                       prog_tui_fold_call(s, i, call, sizeof call));
		}
		if (s->count > shown && at < len)
			at += (size_t)snprintf(buf + at, len - at, "... %" PRIu64 " more\n",
			                       s->count - shown);
		if (s->sr.events.n > 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at, "\nthe system calls they made:\n");
	}
	shown = 0;
	for (size_t i = 0; i < s->sr.events.n && shown < max / 2 && at < len; i++, shown++) {
		char ev[256];
		at += (size_t)snprintf(buf + at, len - at, "%s%s\n",
		                       event_format(&s->sr.events.v[i], ev, sizeof ev),
		                       s->sr.events.v[i].origin == EV_STDIO ? "  [stdio]" : "");
	}
	if (s->sr.events.n + s->sr.events.dropped > shown && at < len)
		snprintf(buf + at, len - at, "... %zu more\n", s->sr.events.n + s->sr.events.dropped -
		         shown);
}

/* The file index the panes show for step s (the Tab choice, else the step's own). */
static long
prog_tui_file(const struct prog_tui *t, const struct prog_run_step *s)
{
	size_t n;

	prog_run_files(t->r, &n);
	if (t->file_sel >= 0 && (size_t)t->file_sel < n && t->cur == (long)t->n - 1)
		return t->file_sel;
	return s != NULL ? s->file : -1;
}

/* True if the tracee pid's fd is open on file f. */
static bool
prog_tui_same_file(pid_t pid, int fd, const struct prog_run_file *f)
{
	char proc[64];
	struct stat st;

	snprintf(proc, sizeof proc, "/proc/%ld/fd/%d", (long)pid, fd);
	return fd >= 0 && stat(proc, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

/* Put the selected file's and stream's state into *sn for the shown step; describe the
 * selection in the title and the status. */
static void
prog_tui_select(struct prog_tui *t, struct snapshot *sn)
{
	const struct prog_run_step *s = t->cur >= 0 ? t->steps[t->cur] : NULL;
	size_t nf, ns = 0;
	const struct prog_run_file *files = prog_run_files(t->r, &nf);
	long fi = prog_tui_file(t, s);

	/* Whole: the title bar cuts it, with "…". */
	text_reset(&t->title);
	if (fi >= 0 && (size_t)fi < nf) {
		const struct prog_run_file *f = &files[fi];
		if (s == NULL || fi != s->file)
			*sn = f->last;
		/* The file first: a long command line is what the title bar cuts. */
		text_addf(&t->title, "file %ld/%zu: %s  |  ", fi + 1, nf, f->name);
	}
	for (size_t i = 0; t->argv[i] != NULL; i++) {
		const char *w = i == 0 && strrchr(t->argv[0], '/') ? strrchr(t->argv[0], '/') + 1 :
		                t->argv[i];
		text_addf(&t->title, "%s%s", i ? " " : "", w);
	}
	if (fi < 0 || (size_t)fi >= nf)
		text_add(&t->title, "  |  no file yet");
	t->scn.title = t->title.s;
	/* The streams as the shown step left them (recorded with it: replay shows them too). */
	if (s == NULL || s->n_streams == 0)
		return;
	ns = s->n_streams;
	const struct prog_run_stream *v = s->streams;
	long si = t->stream_sel >= 0 ? t->stream_sel % (long)ns : -1;
	/* Tab chose a file: the stream open on it, if the program has one there. */
	if (si < 0 && t->file_sel >= 0 && fi >= 0 && t->cur == (long)t->n - 1 && !t->finished)
		for (size_t i = 0; i < ns && si < 0; i++)
			if (prog_tui_same_file(s->ps.pid, v[i].st.fd, &files[fi]))
				si = (long)i;
	if (si < 0)
		return;
	sn->stdio.open = true;
	sn->stdio.fd = v[si].st.fd;
	sn->stdio.size = v[si].st.buf_size;
	sn->stdio.pending = v[si].st.pending;
	sn->stdio.read_avail = v[si].st.read_ahead;
	sn->stdio.mode = v[si].st.mode == PROG_STREAM_UNBUFFERED ? SCN_BUF_NONE :
	                 v[si].st.mode == PROG_STREAM_LINE ? SCN_BUF_LINE : SCN_BUF_FULL;
	sn->stdio.writing = v[si].st.putting;
	sn->stdio.reading = v[si].st.can_read && !v[si].st.putting;
	memcpy(sn->stdio.head, v[si].head, v[si].head_len);
	sn->stdio.head_len = v[si].head_len;
	if (t->stream_sel >= 0 && t->status[0] == '\0')
		snprintf(t->status, sizeof t->status, "stream %ld/%zu: %s on fd %d, %s, buffer %"
		         PRIu64 " B, pending %" PRIu64 " B (s: next stream)", si + 1, ns,
		         v[si].name != NULL ? v[si].name : "fp", v[si].st.fd,
		         v[si].st.mode == PROG_STREAM_UNBUFFERED ? "unbuffered" :
		         v[si].st.mode == PROG_STREAM_LINE ? "line buffered" : "fully buffered",
		         v[si].st.buf_size, v[si].st.pending);
}

/* Draw the screen. */
static void
prog_tui_draw(struct prog_tui *t)
{
	struct view_frame f = {
		.scn = &t->scn, .results = t->results, .n_results = t->n, .cur = t->cur,
		.initial = &t->initial, .replay = t->n > 0 && t->cur < (long)t->n - 1,
		.speed = 1.0, .autoplay = t->autoplay, .ascii = t->o->ascii, .anim = VIEW_ANIM_NONE,
		.help = t->help, .focus = VIEW_PANE_NONE, .detail_cell = -1, .status = t->status,
		.keys = prog_tui_keys, .n_keys = sizeof prog_tui_keys / sizeof prog_tui_keys[0],
		.help_text = prog_tui_help, .first = t->forgotten,
		.crash = t->show_crash && t->cur >= 0 && t->results[t->cur].crash != NULL,
	};
	struct snapshot *saved = NULL;
	const char *note = prog_run_stdio_note(t->r), *unseen = prog_run_unseen_note(t->r);
	char status[800];
	int w, h;

	t->scn.n_steps = t->n;
	crt_size(&w, &h);
	if ((t->g->w != w || t->g->h != h) && grid_resize(t->g, w, h) != 0)
		return;
	if (t->cur >= 0) {
		saved = malloc(sizeof *saved);
		if (saved != NULL) {
			*saved = t->results[t->cur].after;
			prog_tui_select(t, &t->results[t->cur].after);
		}
	} else {
		prog_tui_select(t, &t->initial);
	}
	if (note[0] != '\0' || unseen[0] != '\0') {
		/* Static or not glibc: the stdio pane has nothing to show, and says why here; an
		 * io_uring's I/O is not seen at all, and that is said here too. */
		snprintf(status, sizeof status, "%s%s%s%s%s", unseen, unseen[0] && note[0] ? " | " : "",
		         note, (unseen[0] || note[0]) && t->status[0] ? " | " : "", t->status);
		f.status = status;
	}
	if (t->cur >= 0 && t->results[t->cur].after.disk.fs[0] != '\0')
		f.fs = t->results[t->cur].after.disk.fs;
	/* Built with -g: its source beside the panes, the step's line lit. */
	f.program = prog_source_update(&t->src, t->steps, t->n, t->cur);
	f.program_toggled = t->src_toggled;
	view_screen_draw(t->g, &f, &t->lay);
	if (t->open && !t->help) {
		char text[4096];
		prog_tui_calls_text(t, text, sizeof text);
		view_frame_popup(t->g, "calls", text, t->o->ascii);
		if (t->o->ascii)
			grid_asciify(t->g);
	}
	if (saved != NULL) {
		t->results[t->cur].after = *saved;
		free(saved);
	}
	crt_blit(t->g);
}

/*
 * x: what a crash leaves after the shown step: its views, made when the step was observed
 * (the program stopped right after it), kept with it; or why there are none. Stays while
 * n and p move; x again hides it.
 */
static void
prog_tui_crash(struct prog_tui *t)
{
	const struct step_result *sr = t->cur >= 0 ? &t->results[t->cur] : NULL;

	if (t->show_crash && sr != NULL && sr->crash != NULL) {
		t->show_crash = false;
		return;
	}
	t->show_crash = false;
	if (!prog_run_in_lab(t->r)) {
		const char *why = prog_run_lab(t->r);
		if (why != NULL)
			snprintf(t->status, sizeof t->status, "x: %s", why);
		else
			snprintf(t->status, sizeof t->status, "x: no crash lab: run with --crash-fs=ext4 "
			         "(or xfs, btrfs; as root) to crash your program after any step");
		return;
	}
	if (sr == NULL) {
		snprintf(t->status, sizeof t->status, "x: no step yet: n runs the program to its "
		         "first, then x shows what a crash after it leaves");
		return;
	}
	if (sr->crash == NULL) {
		snprintf(t->status, sizeof t->status, "x: the program has made or opened no file in "
		         "the crash lab by step %zu", sr->index + 1);
		return;
	}
	t->show_crash = true;
}

/* Handle key k. */
static void
prog_tui_key(struct prog_tui *t, int k)
{
	size_t nf;

	if (t->help || t->open) {
		t->help = t->open = false;
		if (k != 'q' && k != CRT_K_F10)
			return;
	}
	switch (k) {
	case 'q': case 'Q': case CRT_K_F10:
		t->quit = true;
		break;
	case CRT_K_RIGHT: case ' ': case 'n': case CRT_K_ENTER:
		prog_tui_next(t);
		break;
	case CRT_K_LEFT: case 'p': case CRT_K_BACKSPACE:
		t->autoplay = false;
		if (t->cur >= 0)
			t->cur--;
		snprintf(t->status, sizeof t->status, "replay: the state recorded after this step "
		         "(n goes forward)");
		break;
	case 'd': case 'D':
		prog_tui_to_disk(t);
		break;
	case 'a': case 'A':
		t->autoplay = !t->autoplay;
		t->auto_at = prog_tui_now_ms();
		break;
	case '\t': case CRT_K_BTAB:
		prog_run_files(t->r, &nf);
		if (nf == 0)
			break;
		t->file_sel = k == '\t' ? (t->file_sel + 1) % (long)nf :
		              (t->file_sel <= 0 ? (long)nf - 1 : t->file_sel - 1);
		t->cur = (long)t->n - 1;
		t->status[0] = '\0';
		break;
	case 's': case 'S':
		t->stream_sel++;
		t->cur = (long)t->n - 1;
		t->status[0] = '\0';
		break;
	case CRT_K_ESC:
		t->file_sel = t->stream_sel = -1;
		t->status[0] = '\0';
		break;
	case '?': case 'h': case CRT_K_F1:
		t->help = true;
		break;
	case 'o': case 'O':
		t->open = true;
		break;
	case 'c': case 'C':
		t->src_toggled = !t->src_toggled;
		break;
	case 'x': case 'X':
		prog_tui_crash(t);
		break;
	case 0x0c:
		crt_redraw();
		break;
	default:
		break;
	}
}

/* Free the UI's state (the program is killed by prog_run_free). */
static void
prog_tui_free(struct prog_tui *t)
{
	for (size_t i = 0; i < t->n; i++) {
		prog_run_step_clear(t->steps[i]);
		free(t->steps[i]);
	}
	free(t->steps);
	free(t->results);
	prog_source_free(&t->src);
	prog_run_free(t->r);
	grid_free(t->g);
	text_buf_free(&t->title);
	free(t);
}

/* Trace argv in the terminal. */
int
prog_tui_run(char *const argv[], const struct app_opts *o, const struct prog_run_opts *ro)
{
	struct prog_tui *t = calloc(1, sizeof *t);
	struct prog_run_opts mine = *ro;
	char *err = NULL;
	int w, h;

	if (t == NULL) {
		fputs("iobufviz: out of memory\n", stderr);
		return APP_EXIT_ENV;
	}
	t->o = o;
	t->argv = argv;
	t->cur = -1;
	t->file_sel = t->stream_sel = -1;
	t->scn.path = argv[0];
	t->scn.intro = "Your program, stopped before its first call on a file. n: the next step, "
	               "a: autoplay, d: run to the next write to a file, p: back, o: the step's "
	               "calls, Tab: next file, s: next stdio stream, q: quit.";
	snprintf(t->initial.cache.note, sizeof t->initial.cache.note, "no file yet");
	snprintf(t->initial.disk.note, sizeof t->initial.disk.note, "no file yet");
	mine.poll = prog_tui_poll;
	mine.poll_arg = t;
	if (prog_run_new(argv, &mine, &t->r, &err) != 0) {
		text_fline(stderr, "iobufviz: ", err != NULL ? err : strerror(errno), "\n");
		free(err);
		free(t);
		return errno == ENOENT || errno == EACCES ? APP_EXIT_USAGE : APP_EXIT_ENV;
	}
	if (prog_run_in_lab(t->r))
		t->scn.intro = "Your program, stopped before its first call on a file, runs in a crash "
		               "lab: x shows what a kill -9 and a power cut after the step leave of "
		               "the lab's file. n: the next step, a: autoplay, d: run to the next "
		               "write to a file, p: back, o: the step's calls, Tab: next file, q: quit.";
	else if (o->crash_fs != CRASH_FS_NONE) {
		/* --crash-fs without its lab (not root): said once, where the run begins. */
		snprintf(t->status, sizeof t->status, "%s", prog_run_lab(t->r));
	}
	if (crt_init(o->color, o->mouse) != 0) {
		fputs("iobufviz: cannot use this terminal\n", stderr);
		prog_tui_free(t);
		return APP_EXIT_ENV;
	}
	crt_size(&w, &h);
	t->g = grid_new(w, h);
	while (t->g != NULL && !t->quit) {
		struct crt_event ev;
		int timeout = -1;

		prog_tui_draw(t);
		if (t->autoplay && !t->finished) {
			uint64_t now = prog_tui_now_ms();
			timeout = t->auto_at > now ? (int)(t->auto_at - now) : 0;
		}
		crt_read(timeout, &ev);
		if (ev.kind == CRT_EV_KEY)
			prog_tui_key(t, ev.key);
		else if (ev.kind == CRT_EV_TIMEOUT && t->autoplay && !t->finished &&
		         prog_tui_now_ms() >= t->auto_at) {
			prog_tui_next(t);
			t->auto_at = prog_tui_now_ms() + PROG_TUI_AUTO_MS;
		}
	}
	crt_done();
	prog_tui_free(t);
	return APP_EXIT_OK;
}
