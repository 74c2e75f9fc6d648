/* SPDX-License-Identifier: MIT */
/* out/prog-headless.c: trace a student's own program without a terminal and print its transcript. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/app.h"
#include "export/describe.h"
#include "out/headless.h"
#include "out/said.h"
#include "base/json.h"
#include "probe/probe.h"
#include "prog/run.h"
#include "lesson/snapshot-diff.h"
#include "base/text.h"

/* What one transcript of a program run keeps. */
struct prog_headless {
	FILE *f;
	enum app_format format;
	struct prog_run *r;
	char *const *argv;
	char kernel[128];
	size_t n_steps;
	uint64_t n_read, n_write, b_read, b_written, n_stdio;
	char fs[32];
	enum snap_source cache_src, disk_src;
	bool fs_known;
};

/* The step's op name in the transcript. */
static const char *
prog_headless_op(const struct prog_run_step *s)
{
	switch (s->ps.kind) {
	case PROG_STEP_CALL: return "call";
	case PROG_STEP_STDIO: return "stdio";
	case PROG_STEP_EXIT: return "exit";
	}
	return "call";
}

/* The path of the step's file, or NULL. */
static const char *
prog_headless_path(struct prog_headless *h, const struct prog_run_step *s)
{
	size_t n;
	const struct prog_run_file *v = prog_run_files(h->r, &n);

	return s->file >= 0 && (size_t)s->file < n ? v[s->file].path : NULL;
}

/* Text: one step. */
static void
prog_headless_text_step(struct prog_headless *h, const struct prog_run_step *s)
{
	const char *path = prog_headless_path(h, s);

	fprintf(h->f, "\nstep %zu  ", s->sr.index + 1);
	text_fput(s->text, TEXT_LINE, h->f);
	fputs(s->disk ? "  [reaches the disk]\n" : "\n", h->f);
	if (path != NULL) {
		size_t n;
		const struct prog_run_file *v = prog_run_files(h->r, &n);
		fputs("  file    ", h->f);
		text_fput(path, TEXT_LINE, h->f);
		if (v[s->file].label != NULL)
			fprintf(h->f, "  (the program's %s, kept by iobufviz)", v[s->file].label);
		fputc('\n', h->f);
	}
	if (s->sr.note[0] != '\0') {
		fputs("  note    ", h->f);
		text_fput(s->sr.note, TEXT_LINE, h->f);
		fputc('\n', h->f);
	}
	if (s->file >= 0)
		headless_text_state(h->f, &s->sr.after);
	for (size_t i = 0; i < s->sr.changes.n; i++) {
		fputs("  > ", h->f);
		text_fput(s->sr.changes.v[i].text, TEXT_LINE, h->f);
		fputc('\n', h->f);
	}
}

/* JSON: one step, in the shape of a scenario's steps, with pid and file added. */
static void
prog_headless_json_step(struct prog_headless *h, const struct prog_run_step *s)
{
	const struct step_result *sr = &s->sr;
	const struct event_list *l = &sr->events;
	FILE *f = h->f;

	fprintf(f, "%s\n{\"index\":%zu,\"op\":\"%s\",\"args\":", sr->index ? "," : "",
	        sr->index + 1, prog_headless_op(s));
	json_string(f, s->text);
	fprintf(f, ",\"line\":1,\"pid\":%ld,\"file\":", (long)s->ps.pid);
	json_string(f, prog_headless_path(h, s));
	fprintf(f, ",\"reaches_disk\":%s,\"result\":%" PRId64 ",\"errno\":",
	        s->disk ? "true" : "false", sr->ret);
	json_string(f, sr->err != 0 ? describe_errno(sr->err) : NULL);
	if (sr->ret < 0 && sr->err == 0)
		fputs(",\"errno_why\":\"a library call's own result, not a system call's\"", f);
	headless_json_times(f, sr->op_ns, s->ps.kind == PROG_STEP_CALL);
	fputs(",\"say\":null,\"note\":", f);
	json_string(f, sr->note[0] ? sr->note : NULL);
	fputs(",\"trace\":\"ptrace\",\"events\":[", f);
	for (size_t i = 0; i < l->n; i++) {
		const struct event *e = &l->v[i];
		fputs(i ? ",{\"call\":" : "{\"call\":", f);
		json_string(f, e->call);
		fprintf(f, ",\"fd\":%d,\"bytes\":%" PRIu64 ",\"offset\":%" PRId64 ",\"result\":%" PRId64
		        ",\"errno\":", e->fd, e->bytes, e->offset, e->result);
		json_string(f, e->err != 0 ? describe_errno(e->err) : NULL);
		headless_json_times(f, e->ns, e->ns_traced);
		fprintf(f, ",\"origin\":\"%s\",\"detail\":", e->origin == EV_STDIO ? "stdio" : "direct");
		json_string(f, e->detail[0] ? e->detail : NULL);
		fputc('}', f);
	}
	fprintf(f, "],\"calls\":{\"write\":%" PRIu64 ",\"read\":%" PRIu64 ",\"bytes_written\":%"
	        PRIu64 ",\"bytes_read\":%" PRIu64 ",\"dropped\":%zu}", l->n_write, l->n_read,
	        l->bytes_written, l->bytes_read, l->dropped);
	if (s->ps.kind == PROG_STEP_STDIO) {
		fputs(",\"stdio_call\":{\"func\":", f);
		json_string(f, s->ps.func);
		fprintf(f, ",\"fd\":%d,\"bytes\":%" PRIu64 ",\"result\":%" PRId64 "}", s->ps.stdio_fd,
		        s->ps.size, s->ps.ret);
	}
	if (s->ps.kind == PROG_STEP_EXIT)
		fprintf(f, ",\"exit\":{\"code\":%d,\"signal\":%d,\"timed_out\":%s}",
		        s->ps.exit_code, s->ps.signal, s->ps.timed_out ? "true" : "false");
	fputs(",\"output\":null,\"output_file\":null,\"state\":", f);
	headless_json_state(f, &sr->after);
	fputs(",\"changes\":[", f);
	for (size_t i = 0; i < sr->changes.n; i++) {
		const struct snapshot_change *c = &sr->changes.v[i];
		fprintf(f, "%s{\"kind\":\"%s\",\"between_steps\":%s,\"count\":%" PRIu64 ",\"text\":",
		        i ? "," : "", snapshot_diff_kind_name(c->kind), c->between ? "true" : "false",
		        c->count);
		json_string(f, c->text);
		fputc('}', f);
	}
	fputs("],\"expect\":[]}", f);
}

/* TAP: a step is a comment line. */
static void
prog_headless_tap_step(struct prog_headless *h, const struct prog_run_step *s)
{
	fprintf(h->f, "# step %zu: ", s->sr.index + 1);
	said_tap_text(h->f, s->text);
	fputc('\n', h->f);
}

/* The command line as one string, into buf. */
static char *
prog_headless_cmd(char *const *argv, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] != NULL && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", argv[i]);
	return buf;
}

/* Start of the transcript. */
static void
prog_headless_begin(struct prog_headless *h)
{
	char cmd[1024];

	prog_headless_cmd(h->argv, cmd, sizeof cmd);
	switch (h->format) {
	case APP_FORMAT_TEXT:
		fputs("program  ", h->f);
		text_fput(cmd, TEXT_LINE, h->f);
		fputs("\ndir      ", h->f);
		text_fput(prog_run_dir(h->r), TEXT_LINE, h->f);
		fputs("\ntrace    ptrace + seccomp: every call on a regular file; stdio calls through "
		      "the shim\n", h->f);
		break;
	case APP_FORMAT_JSON:
		fputs("{\"format_version\":1,\"scenario\":{\"title\":", h->f);
		json_string(h->f, cmd);
		fputs(",\"source\":null,\"path\":", h->f);
		json_string(h->f, h->argv[0]);
		fputs(",\"file\":", h->f);
		json_string(h->f, prog_run_dir(h->r));
		fputs(",\"intro\":null},\"steps\":[", h->f);
		break;
	case APP_FORMAT_TAP:
		fputs("TAP version 13\n# ", h->f);
		said_tap_text(h->f, cmd);
		fputc('\n', h->f);
		break;
	}
}

/* How the program ended, as one phrase into buf. */
static char *
prog_headless_ended(const struct prog_step *x, char *buf, size_t len)
{
	if (x == NULL)
		snprintf(buf, len, "did not end (traced no further)");
	else if (x->signal != 0)
		snprintf(buf, len, "killed by SIG%s%s", sigabbrev_np(x->signal) ?
		         sigabbrev_np(x->signal) : "?", x->timed_out ? " (timeout)" : "");
	else
		snprintf(buf, len, "exited %d", x->exit_code);
	return buf;
}

/* JSON: the "program" object: argv, how it ended, stdio, output. */
static void
prog_headless_json_program(struct prog_headless *h)
{
	const struct prog_step *x = prog_run_exit(h->r);
	const char *note = prog_run_stdio_note(h->r);
	struct prog_stats st;
	char *out;
	uint64_t total;

	prog_run_stats(h->r, &st);
	fputs(",\"program\":{\"argv\":[", h->f);
	for (size_t i = 0; h->argv[i] != NULL; i++) {
		if (i)
			fputc(',', h->f);
		json_string(h->f, h->argv[i]);
	}
	fputs("],\"dir\":", h->f);
	json_string(h->f, prog_run_dir(h->r));
	fprintf(h->f, ",\"pid\":%ld,\"exit_code\":%d,\"signal\":", x ? (long)x->pid : 0L,
	        x ? x->exit_code : -1);
	if (x != NULL && x->signal != 0)
		fprintf(h->f, "\"SIG%s\"", sigabbrev_np(x->signal) ? sigabbrev_np(x->signal) : "?");
	else
		fputs("null", h->f);
	fprintf(h->f, ",\"timed_out\":%s,\"stdio_visible\":%s,\"stdio_why\":",
	        x && x->timed_out ? "true" : "false", note[0] ? "false" : "true");
	json_string(h->f, note[0] ? note : NULL);
	fprintf(h->f, ",\"steps\":%zu,\"calls\":{\"read\":%" PRIu64 ",\"write\":%" PRIu64
	        ",\"bytes_read\":%" PRIu64 ",\"bytes_written\":%" PRIu64 ",\"stdio\":%" PRIu64
	        ",\"other\":%" PRIu64 ",\"loader\":%" PRIu64 "}", h->n_steps, h->n_read, h->n_write,
	        h->b_read, h->b_written, h->n_stdio, st.other_calls, prog_run_loader_calls(h->r));
	for (int k = 1; k <= 2; k++) {
		out = prog_run_output(h->r, k, &total);
		fprintf(h->f, ",\"%s\":", k == 1 ? "stdout" : "stderr");
		json_string(h->f, out);
		fprintf(h->f, ",\"%s_bytes\":%" PRIu64, k == 1 ? "stdout" : "stderr", total);
		free(out);
	}
	fputc('}', h->f);
}

/* End of the transcript. */
static void
prog_headless_end(struct prog_headless *h, const char *error)
{
	const struct prog_step *x = prog_run_exit(h->r);
	char ended[96];
	char *out;
	uint64_t total;

	prog_headless_ended(x, ended, sizeof ended);
	switch (h->format) {
	case APP_FORMAT_TEXT:
		out = prog_run_output(h->r, 1, &total);
		if (out != NULL) {
			fputs("\noutput   ", h->f);
			text_fput(out, TEXT_LINE, h->f);
			fputc('\n', h->f);
		}
		free(out);
		if (error != NULL) {
			fputs("\nerror: ", h->f);
			text_fput(error, TEXT_LINE, h->f);
			fputc('\n', h->f);
		}
		fprintf(h->f, "\nprogram  %s; %zu steps: %" PRIu64 " read calls (%" PRIu64 " B), %"
		        PRIu64 " write calls (%" PRIu64 " B), %" PRIu64 " stdio calls; %" PRIu64
		        " calls of the dynamic loader on its libraries not shown\n", ended,
		        h->n_steps, h->n_read, h->b_read, h->n_write, h->b_written, h->n_stdio,
		        prog_run_loader_calls(h->r));
		break;
	case APP_FORMAT_JSON:
		fprintf(h->f, "\n],\"ok\":%s,\"error\":", error == NULL ? "true" : "false");
		json_string(h->f, error);
		prog_headless_json_program(h);
		fputs(",\"environment\":{\"kernel\":", h->f);
		json_string(h->f, h->kernel);
		fputs(",\"fs\":", h->f);
		json_string(h->f, h->fs_known ? h->fs : "unknown");
		fprintf(h->f, ",\"device\":null,\"cachestat\":%s,\"cache_source\":\"%s\",\"fiemap\":%s,"
		        "\"trace\":\"ptrace\",\"version\":\"%s\",\"tracing\":null,\"tracing_why\":"
		        "\"not measured for a program run\"}}\n",
		        h->cache_src == SNAP_SRC_CACHESTAT ? "true" : "false",
		        probe_cache_source_name(h->cache_src),
		        h->disk_src == SNAP_SRC_FIEMAP ? "true" : "false", PACKAGE_VERSION);
		break;
	case APP_FORMAT_TAP:
		if (error != NULL) {
			fputs("Bail out! ", h->f);
			said_tap_text(h->f, error);
			fputs("\n1..0\n", h->f);
			break;
		}
		fprintf(h->f, "ok 1 - the program ran: %s, %zu steps\n1..1\n", ended, h->n_steps);
		break;
	}
}

/* Count a step into the totals and the environment. */
static void
prog_headless_count(struct prog_headless *h, const struct prog_run_step *s)
{
	const struct event_list *l = &s->sr.events;

	h->n_steps++;
	h->n_read += l->n_read;
	h->n_write += l->n_write;
	h->b_read += l->bytes_read;
	h->b_written += l->bytes_written;
	h->n_stdio += s->ps.kind == PROG_STEP_STDIO;
	if (!h->fs_known && s->file >= 0 && s->sr.after.disk.fs[0] != '\0') {
		snprintf(h->fs, sizeof h->fs, "%s", s->sr.after.disk.fs);
		h->cache_src = s->sr.after.cache.source;
		h->disk_src = s->sr.after.disk.source;
		h->fs_known = true;
	}
}

/* Run argv headless and print its transcript. */
int
prog_headless_run(char *const argv[], const struct app_opts *o, const struct prog_run_opts *ro)
{
	struct prog_headless h = { .f = stdout, .format = o->format, .argv = argv };
	struct prog_run_step *s = malloc(sizeof *s);
	const char *error = NULL;
	bool note_said = false;
	struct utsname u;
	char *err = NULL;
	int rc;

	if (s == NULL) {
		fputs("iobufviz: out of memory\n", stderr);
		return APP_EXIT_ENV;
	}
	if (uname(&u) == 0)
		snprintf(h.kernel, sizeof h.kernel, "%s", u.release);
	if (prog_run_new(argv, ro, &h.r, &err) != 0) {
		fputs("iobufviz: ", stderr);
		text_fput(err != NULL ? err : strerror(errno), TEXT_LINE, stderr);
		fputc('\n', stderr);
		rc = errno == ENOENT || errno == EACCES || errno == ENOEXEC ? APP_EXIT_USAGE :
		     APP_EXIT_ENV;
		free(err);
		free(s);
		return rc;
	}
	prog_headless_begin(&h);
	while ((rc = prog_run_next(h.r, s)) == 1) {
		prog_headless_count(&h, s);
		/* Known at the first look at its memory: say it once, where it was found. */
		if (h.format == APP_FORMAT_TEXT && !note_said && prog_run_stdio_note(h.r)[0] != '\0') {
			fputs("\nnote     ", h.f);
			text_fput(prog_run_stdio_note(h.r), TEXT_LINE, h.f);
			fputc('\n', h.f);
			note_said = true;
		}
		switch (h.format) {
		case APP_FORMAT_TEXT: prog_headless_text_step(&h, s); break;
		case APP_FORMAT_JSON: prog_headless_json_step(&h, s); break;
		case APP_FORMAT_TAP: prog_headless_tap_step(&h, s); break;
		}
		prog_run_step_clear(s);
	}
	if (rc < 0)
		error = strerror(errno);
	prog_headless_end(&h, error);
	prog_run_free(h.r);
	free(s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("iobufviz: cannot write the transcript\n", stderr);
		return APP_EXIT_ENV;
	}
	return error != NULL ? APP_EXIT_ENV : APP_EXIT_OK;
}
