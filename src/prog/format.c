/* SPDX-License-Identifier: MIT */
/* format.c: a traced program's step as the program wrote it: system calls as strace shows
 * them, stdio calls as C ("fp = fopen("out.txt", "w") -> fd 3", "fputc('x', fp) = 'x'"). */
#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "prog/format.h"
#include "shim/protocol.h"
#include "prog/run.h"
#include "trace/calls.h"
#include "trace/decode.h"

/* A stream as the program names it: stdin, stdout, stderr when it is the FILE the C library
 * made for it (else by its fd, when that cannot be told), else "fp". */
const char *
prog_format_stream(const struct prog_step *s)
{
	return s->stream_name != NULL ? s->stream_name : prog_streams_name(NULL, 0, s->stdio_fd);
}

/* A character as C writes it ('a', '\n', '\x01'), or EOF, into buf. */
static char *
prog_format_char(int64_t c, char *buf, size_t len)
{
	unsigned char u = (unsigned char)c;
	char q[12];

	if (c < 0) {
		snprintf(buf, len, "EOF");
		return buf;
	}
	text_quote(&u, 1, q, sizeof q);
	q[strlen(q) - 1] = '\0';
	snprintf(buf, len, "'%s'", u == '\'' ? "\\'" : strcmp(q + 1, "\\\"") == 0 ? "\"" : q + 1);
	return buf;
}

/* A stdio call as the program wrote it (with its result) into buf: by the function it
 * called (fwrite_unlocked), in the shape of its base (fwrite). */
static char *
prog_format_stdio(const struct prog_step *s, char *buf, size_t len)
{
	const char *fp = prog_format_stream(s), *f = s->func;
	char a[PROG_STR_MAX * 4 + 8], b[PROG_STR_MAX * 4 + 8], c1[24], c2[24];
	bool more = strchr(s->str[0], '%') != NULL;
	int64_t r = s->ret;

	text_quote_cut(s->str[0], strlen(s->str[0]) == PROG_STR_MAX - 1, a, sizeof a);
	text_quote_cut(s->str[1], strlen(s->str[1]) == PROG_STR2_MAX - 1, b, sizeof b);
	switch (s->func_base) {
	case PROG_MARK_FUNC_fwrite:
		/* A literal's bytes are shown: the compiler writes fputs("...", fp) and
		 * fprintf(fp, "...") so, and no binary says which the source had. */
		if (s->literal)
			snprintf(buf, len, "%s(%s, %" PRId64 ", %" PRId64 ", %s) = %" PRId64 " (the "
			         "compiler may have turned fputs or fprintf into %s)", f, a, s->arg[0],
			         s->arg[1], fp, r, f);
		else
			snprintf(buf, len, "%s(buf, %" PRId64 ", %" PRId64 ", %s) = %" PRId64, f,
			         s->arg[0], s->arg[1], fp, r);
		break;
	case PROG_MARK_FUNC_fread:
		snprintf(buf, len, "%s(buf, %" PRId64 ", %" PRId64 ", %s) = %" PRId64, f, s->arg[0],
		         s->arg[1], fp, r);
		break;
	case PROG_MARK_FUNC_fputs:
		snprintf(buf, len, "%s(%s, %s) = %s%" PRId64, f, a, fp, r < 0 ? "EOF " : "", r);
		break;
	case PROG_MARK_FUNC_puts:
		snprintf(buf, len, "puts(%s) = %s%" PRId64 "%s", a, r < 0 ? "EOF " : "", r,
		         s->literal ? " (the compiler may have turned printf into puts)" : "");
		break;
	case PROG_MARK_FUNC_perror:
		snprintf(buf, len, "perror(%s)", a);
		break;
	case PROG_MARK_FUNC_fputc:
	case PROG_MARK_FUNC_putc:
	case PROG_MARK_FUNC_ungetc:
		snprintf(buf, len, "%s(%s, %s) = %s", f, prog_format_char(s->arg[0], c1, sizeof c1), fp,
		         prog_format_char(r, c2, sizeof c2));
		break;
	case PROG_MARK_FUNC_putchar:
		snprintf(buf, len, "%s(%s) = %s", f, prog_format_char(s->arg[0], c1, sizeof c1),
		         prog_format_char(r, c2, sizeof c2));
		break;
	case PROG_MARK_FUNC_fgetc:
	case PROG_MARK_FUNC_getc:
		snprintf(buf, len, "%s(%s) = %s", f, fp, prog_format_char(r, c2, sizeof c2));
		break;
	case PROG_MARK_FUNC_getchar:
		snprintf(buf, len, "%s() = %s", f, prog_format_char(r, c2, sizeof c2));
		break;
	case PROG_MARK_FUNC_fprintf:
	case PROG_MARK_FUNC_fscanf:
		snprintf(buf, len, "%s(%s, %s%s) = %" PRId64, f, fp, a, more ? ", ..." : "", r);
		break;
	case PROG_MARK_FUNC_vfprintf:
	case PROG_MARK_FUNC_vfscanf:
		snprintf(buf, len, "%s(%s, %s, ap) = %" PRId64, f, fp, a, r);
		break;
	case PROG_MARK_FUNC_printf:
	case PROG_MARK_FUNC_scanf:
		snprintf(buf, len, "%s(%s%s) = %" PRId64, f, a, more ? ", ..." : "", r);
		break;
	case PROG_MARK_FUNC_vprintf:
	case PROG_MARK_FUNC_vscanf:
		snprintf(buf, len, "%s(%s, ap) = %" PRId64, f, a, r);
		break;
	case PROG_MARK_FUNC_fgets:
		snprintf(buf, len, "%s(buf, %" PRId64 ", %s) = %s", f, s->arg[0], fp,
		         r < 0 ? "NULL" : "buf");
		break;
	case PROG_MARK_FUNC_getline:
		snprintf(buf, len, "getline(&line, &n, %s) = %" PRId64, fp, r);
		break;
	case PROG_MARK_FUNC_getdelim:
		snprintf(buf, len, "getdelim(&line, &n, %s, %s) = %" PRId64,
		         prog_format_char(s->arg[1], c1, sizeof c1), fp, r);
		break;
	case PROG_MARK_FUNC_fflush:
		snprintf(buf, len, "%s(%s) = %s%" PRId64, f, s->file != 0 ? fp : "NULL",
		         r < 0 ? "EOF " : "", r);
		break;
	case PROG_MARK_FUNC_fseek:
	case PROG_MARK_FUNC_fseeko:
		snprintf(buf, len, "%s(%s, %" PRId64 ", %s) = %" PRId64, f, fp, s->arg[0],
		         decode_whence((int)s->arg[1]), r);
		break;
	case PROG_MARK_FUNC_rewind:
		snprintf(buf, len, "rewind(%s)", fp);
		break;
	case PROG_MARK_FUNC_fgetpos:
	case PROG_MARK_FUNC_fsetpos:
		snprintf(buf, len, "%s(%s, &pos) = %" PRId64, f, fp, r);
		break;
	case PROG_MARK_FUNC_fclose:
		snprintf(buf, len, "fclose(%s) = %s%" PRId64, fp, r < 0 ? "EOF " : "", r);
		break;
	case PROG_MARK_FUNC_setvbuf: {
		int m = (int)(s->arg[0] & 0xff);
		snprintf(buf, len, "setvbuf(%s, %s, %s, %" PRId64 ") = %" PRId64, fp,
		         s->arg[0] & 0x100 ? "buf" : "NULL", m == _IONBF ? "_IONBF" :
		         m == _IOLBF ? "_IOLBF" : m == _IOFBF ? "_IOFBF" : "?", s->arg[1], r);
		break;
	}
	case PROG_MARK_FUNC_setbuf:
		snprintf(buf, len, "setbuf(%s, %s)", fp, s->arg[0] ? "buf" : "NULL");
		break;
	case PROG_MARK_FUNC_fopen:
	case PROG_MARK_FUNC_freopen:
		if (r < 0)
			snprintf(buf, len, "%s(%s, %s%s) = NULL", f, a, b,
			         s->func_base == PROG_MARK_FUNC_freopen ? ", fp" : "");
		else
			snprintf(buf, len, "%s = %s(%s, %s%s) -> fd %d", fp, f, a, b,
			         s->func_base == PROG_MARK_FUNC_freopen ? ", fp" : "", s->stdio_fd);
		break;
	case PROG_MARK_FUNC_fdopen:
		if (r < 0)
			snprintf(buf, len, "fdopen(%" PRId64 ", %s) = NULL", s->arg[0], b);
		else
			snprintf(buf, len, "%s = fdopen(%" PRId64 ", %s)", fp, s->arg[0], b);
		break;
	case PROG_MARK_FUNC_tmpfile:
		if (r < 0)
			snprintf(buf, len, "tmpfile() = NULL");
		else
			snprintf(buf, len, "%s = tmpfile() -> fd %d", fp, s->stdio_fd);
		break;
	case PROG_MARK_FUNC_exit:
		snprintf(buf, len, "exit() flushes the streams");
		break;
	default:
		snprintf(buf, len, "%s(%s) = %" PRId64, f, fp, r);
		break;
	}
	return buf;
}

/* A folded run's argument a as the program passed it, into buf: its value when every call
 * passed the same one (c: as a character), else the parameter's name. */
static const char *
prog_format_same_arg(const struct prog_run_step *s, const char *name, bool c, char *buf,
                     size_t len)
{
	for (uint64_t i = 1; i < s->count; i++)
		if (s->calls[i].arg != s->calls[0].arg)
			return name;
	if (c)
		return prog_format_char(s->calls[0].arg, buf, len);
	snprintf(buf, len, "%" PRId64, s->calls[0].arg);
	return buf;
}

/* The call of a folded run, what varies from call to call named as its parameter:
 * "getline(&line, &n, fp)", "fputc(c, fp)", "fputc('x', fp)" when every call wrote 'x',
 * "fprintf(fp, "record %d\n", ...)" when every call had that format (else "format"). */
static void
prog_format_fold_call(const struct prog_run_step *s, char *buf, size_t len)
{
	const struct prog_step *p = &s->ps;
	const char *fp = prog_format_stream(p), *f = p->func;
	char a[24], q[PROG_STR_MAX * 4 + 8];
	/* The string every call passed, as C writes it; else its parameter's name. */
	const char *fmt = "format", *str = "s";

	if (!s->str_varies && p->str[0][0] != '\0') {
		text_quote_cut(p->str[0], strlen(p->str[0]) == PROG_STR_MAX - 1, q, sizeof q);
		fmt = str = q;
	}

	switch (p->func_base) {
	case PROG_MARK_FUNC_fwrite:
		/* Every call wrote the same literal whole (fputs("...", fp) as the compiler
		 * made it): its bytes, and their count. */
		if (p->literal && !s->str_varies && p->str[0][0] != '\0' &&
		    strlen(p->str[0]) < PROG_STR_MAX - 1) {
			snprintf(buf, len, "%s(%s, %s, %zu, %s)", f, q,
			         prog_format_same_arg(s, "size", false, a, sizeof a), strlen(p->str[0]),
			         fp);
			break;
		}
		/* fall through */
	case PROG_MARK_FUNC_fread:
		snprintf(buf, len, "%s(buf, %s, n, %s)", f,
		         prog_format_same_arg(s, "size", false, a, sizeof a), fp);
		break;
	case PROG_MARK_FUNC_fgets:
		snprintf(buf, len, "%s(buf, %s, %s)", f,
		         prog_format_same_arg(s, "size", false, a, sizeof a), fp);
		break;
	case PROG_MARK_FUNC_fputc:
	case PROG_MARK_FUNC_putc:
		snprintf(buf, len, "%s(%s, %s)", f, prog_format_same_arg(s, "c", true, a, sizeof a), fp);
		break;
	case PROG_MARK_FUNC_putchar:
		snprintf(buf, len, "%s(%s)", f, prog_format_same_arg(s, "c", true, a, sizeof a));
		break;
	case PROG_MARK_FUNC_fputs:
		snprintf(buf, len, "%s(%s, %s)", f, str, fp);
		break;
	case PROG_MARK_FUNC_puts:
	case PROG_MARK_FUNC_perror:
		snprintf(buf, len, "%s(%s)", f, str);
		break;
	case PROG_MARK_FUNC_fprintf:
	case PROG_MARK_FUNC_fscanf:
		snprintf(buf, len, "%s(%s, %s, ...)", f, fp, fmt);
		break;
	case PROG_MARK_FUNC_vfprintf:
	case PROG_MARK_FUNC_vfscanf:
		snprintf(buf, len, "%s(%s, %s, ap)", f, fp, fmt);
		break;
	case PROG_MARK_FUNC_printf:
	case PROG_MARK_FUNC_scanf:
		snprintf(buf, len, "%s(%s, ...)", f, fmt);
		break;
	case PROG_MARK_FUNC_vprintf:
	case PROG_MARK_FUNC_vscanf:
		snprintf(buf, len, "%s(%s, ap)", f, fmt);
		break;
	case PROG_MARK_FUNC_getline:
		snprintf(buf, len, "%s(&line, &n, %s)", f, fp);
		break;
	case PROG_MARK_FUNC_getdelim:
		snprintf(buf, len, "%s(&line, &n, delim, %s)", f, fp);
		break;
	case PROG_MARK_FUNC_getchar:
		snprintf(buf, len, "%s()", f);
		break;
	default:
		snprintf(buf, len, "%s(%s)", f, fp);
		break;
	}
}

/* True if ret is the failure result of base (EOF, NULL, -1; fread's and fwrite's 0), and
 * how C writes it into buf. */
static bool
prog_format_failed(int base, int64_t ret, char *buf, size_t len)
{
	switch (base) {
	case PROG_MARK_FUNC_perror:
		return false;
	case PROG_MARK_FUNC_fread:
	case PROG_MARK_FUNC_fwrite:
		snprintf(buf, len, "0");
		return ret == 0;
	case PROG_MARK_FUNC_fgets:
		snprintf(buf, len, "NULL");
		return ret < 0;
	case PROG_MARK_FUNC_getline:
	case PROG_MARK_FUNC_getdelim:
	case PROG_MARK_FUNC_fprintf:
	case PROG_MARK_FUNC_vfprintf:
	case PROG_MARK_FUNC_printf:
	case PROG_MARK_FUNC_vprintf:
		snprintf(buf, len, "%" PRId64, ret);
		return ret < 0;
	default:
		snprintf(buf, len, "EOF");
		return ret < 0;
	}
}

/* A folded run of stdio calls, what it did, appended to b: the call, how many, the lines
 * (getline, getdelim) and bytes they moved, and the calls that failed with their result,
 * "(end of file)" when the last one left its stream at the end: "getline(&line, &n, fp) x
 * 31: 30 lines, 921 B, then -1 (end of file)", "fputc(c, fp) x 4097: 4097 B". */
void
prog_format_fold(const struct prog_run_step *s, struct text_buf *b)
{
	const struct prog_step *p = &s->ps;
	uint64_t failed = 0, first = s->count;
	char call[PROG_STR_MAX * 4 + 80], fail[24] = "";
	unsigned flags = 0;

	prog_format_fold_call(s, call, sizeof call);
	for (uint64_t i = 0; s->calls != NULL && i < s->count; i++)
		if (prog_format_failed(p->func_base, s->calls[i].ret, fail, sizeof fail)) {
			failed++;
			first = first < i ? first : i;
		}
	text_addf(b, "[%d] %s x %" PRIu64 ": ", (int)p->pid, call, s->count);
	if (s->calls == NULL) {
		text_addf(b, "%" PRIu64 " B", s->bytes);
		return;
	}
	if (p->func_base == PROG_MARK_FUNC_getline || p->func_base == PROG_MARK_FUNC_getdelim)
		text_addf(b, "%" PRIu64 " %s%s, ", s->count - failed,
		          p->func_base == PROG_MARK_FUNC_getline ? "line" : "record",
		          s->count - failed == 1 ? "" : "s");
	text_addf(b, "%" PRIu64 " B", s->bytes);
	/* The failed calls' result, as the last of them returned it. */
	for (uint64_t i = s->count; i-- > 0;)
		if (prog_format_failed(p->func_base, s->calls[i].ret, fail, sizeof fail))
			break;
	if (failed == 0)
		return;
	if (failed == s->count)
		text_addf(b, ", each returned %s", fail);
	else if (first + failed == s->count && failed == 1)
		text_addf(b, ", then %s", fail);
	else if (first + failed == s->count)
		text_addf(b, ", then %" PRIu64 " returned %s", failed, fail);
	else
		text_addf(b, ", %" PRIu64 " of them returned %s", failed, fail);
	/* The last call failed: why, as its stream says (feof, ferror). */
	for (size_t i = 0; i < s->n_streams; i++)
		if (s->streams[i].st.addr == p->file)
			flags = s->streams[i].st.flags;
	if (prog_format_failed(p->func_base, s->calls[s->count - 1].ret, fail, sizeof fail))
		text_addf(b, "%s", flags & PROG_MARK_IO_ERR_SEEN ? " (error)" :
		          flags & PROG_MARK_IO_EOF_SEEN ? " (end of file)" : "");
}

/* One line for a step. */
char *
prog_format_step(const struct prog_step *s, char *buf, size_t len)
{
	const struct call_row *c = s->kind == PROG_STEP_CALL ? calls_find((uint64_t)s->ev.nr) : NULL;
	char ev[256], st[PROG_STR_MAX * 8 + 64];

	switch (s->kind) {
	case PROG_STEP_CALL:
		/* A rename: the name it moved (when a plain one), and the path it moved it to. */
		if (c != NULL && (c->flags & CALL_NAMES) && s->ev.result == 0) {
			char q[PATH_MAX + 16];
			text_quote_cut(s->path, strlen(s->path) == PATH_MAX - 1, q, sizeof q);
			snprintf(buf, len, "[%d] %s(%s -> %s) = 0", (int)s->pid, s->ev.call,
			         s->ev.name[0] ? s->ev.name : "...", q);
			break;
		}
		/* The open family and execve by the path they were given (unless the detail
		 * names it: the tracer's opens do). */
		if (c != NULL && (c->flags & CALL_PATH) && !(c->flags & CALL_FD) &&
		    s->ev.detail[0] != '"') {
			char q[PATH_MAX + 16];
			text_quote_cut(s->path, strlen(s->path) == PATH_MAX - 1, q, sizeof q);
			if (s->ev.result < 0)
				snprintf(buf, len, "[%d] %s(%s%s%s) = -1 %s", (int)s->pid, s->ev.call, q,
				         s->ev.detail[0] ? ", " : "", s->ev.detail,
				         strerrorname_np(s->ev.err) ? strerrorname_np(s->ev.err) : "?");
			else
				snprintf(buf, len, "[%d] %s(%s%s%s) = %" PRId64, (int)s->pid, s->ev.call, q,
				         s->ev.detail[0] ? ", " : "", s->ev.detail, s->ev.result);
		} else {
			snprintf(buf, len, "[%d] %s", (int)s->pid, event_format(&s->ev, ev, sizeof ev));
		}
		break;
	case PROG_STEP_STDIO:
		snprintf(buf, len, "[%d] %s", (int)s->pid, prog_format_stdio(s, st, sizeof st));
		break;
	case PROG_STEP_STORES:
		snprintf(buf, len, "[%d] %s through the shared mapping at %#" PRIx64 " (len=%"
		         PRId64 "): no call; its pages as %s finds them", (int)s->pid,
		         s->stored ? "stores" : "may have stored", s->ev.addr, s->ev.length, s->ev.call);
		break;
	case PROG_STEP_EXIT:
		if (s->signal != 0)
			snprintf(buf, len, "[%d] %skilled by SIG%s%s", (int)s->pid,
			         s->thread ? "thread " : "",
			         sigabbrev_np(s->signal) ? sigabbrev_np(s->signal) : "?",
			         s->timed_out ? " (timeout)" : "");
		else if (s->thread)
			snprintf(buf, len, "[%d] thread ended", (int)s->pid);
		else
			snprintf(buf, len, "[%d] exited %d", (int)s->pid, s->exit_code);
		break;
	}
	return buf;
}

