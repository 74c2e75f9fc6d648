/* SPDX-License-Identifier: MIT */
/* export/describe.c: a step as the line of C a student would write. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/cident.h"
#include "trace/decode.h"
#include "export/describe.h"
#include "base/text.h"

/* Name of an errno value. */
const char *
describe_errno(int err)
{
	const char *n;

	if (err == 0)
		return "0";
	n = strerrorname_np(err);
	return n != NULL ? n : "E?";
}

/* Long name of a buffering mode. */
const char *
describe_bufmode(enum scn_bufmode m)
{
	switch (m) {
	case SCN_BUF_NONE: return "unbuffered";
	case SCN_BUF_LINE: return "line buffered";
	case SCN_BUF_FULL: return "fully buffered";
	}
	return "?";
}

/*
 * A named pair's step: its name in place of the word fp, and of fd unless fp is there too
 * (fdopen and fileno keep the fd as it is): a = open(...), fputs(..., a).
 */
static void
describe_rename(char *buf, size_t len, const char *name)
{
	if (!cident_has(buf, "fp"))
		cident_replace(buf, len, "fd", name);
	cident_replace(buf, len, "fp", name);
}

/* open as C. */
void
describe_open(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char fl[160];

	snprintf(buf, len, "fd = open(path, %s%s)", decode_open_flags(a->flags, fl, sizeof fl),
	         (a->flags & O_CREAT) ? ", 0600" : "");
}

/* fopen as C. */
void
describe_fopen(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fp = fopen(path, \"%s\")", a->mode);
}

/* fdopen as C. */
void
describe_fdopen(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fp = fdopen(fd, \"%s\")", a->mode);
}

/* fileno as C. */
void
describe_fileno(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "fd = fileno(fp)");
}

/* setvbuf as C. */
void
describe_setvbuf(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	const char *ownbuf = a->buffer == SCN_BUFFER_OWN ? "buf" : "NULL";

	snprintf(buf, len, "setvbuf(fp, %s, %s, %" PRIu64 ")", ownbuf,
	         a->bufmode == SCN_BUF_NONE ? "_IONBF" :
	         a->bufmode == SCN_BUF_LINE ? "_IOLBF" : "_IOFBF", a->size);
}

/* setbuf as C. */
void
describe_setbuf(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "setbuf(fp, %s)",
	         a->buffer == SCN_BUFFER_OWN && !((a->has & SCN_HAS_MODE) &&
	         a->bufmode == SCN_BUF_NONE) ? "buf" : "NULL");
}

/* setbuffer as C. */
void
describe_setbuffer(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	const char *ownbuf = a->buffer == SCN_BUFFER_OWN ? "buf" : "NULL";

	snprintf(buf, len, "setbuffer(fp, %s, %" PRIu64 ")", ownbuf,
	         a->buffer == SCN_BUFFER_OWN ? ((a->has & SCN_HAS_SIZE) ? a->size : BUFSIZ) : 0);
}

/* fwrite as C. */
void
describe_fwrite(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fwrite(buf, 1, %" PRIu64 ", fp)", a->bytes);
}

/* fputs as C. */
void
describe_fputs(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fputs(\"%.40s%s\", fp)", a->text ? a->text : "",
	                            a->text && strlen(a->text) > 40 ? "…" : "");
}

/* printf as C. */
void
describe_printf(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fprintf(fp, \"%%s\", \"%.40s%s\")",
	                             a->text ? a->text : "",
	                             a->text && strlen(a->text) > 40 ? "…" : "");
}

/* fread as C. */
void
describe_fread(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fread(buf, 1, %" PRIu64 ", fp)", a->bytes);
}

/* fgets as C. */
void
describe_fgets(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fgets(buf, %" PRIu64 ", fp)", a->bytes);
}

/* fflush as C. */
void
describe_fflush(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "fflush(fp)");
}

/* fseek as C. */
void
describe_fseek(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fseek(fp, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
}

/* fclose as C. */
void
describe_fclose(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "fclose(fp)");
}

/* write as C. */
void
describe_write(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	if (a->has & SCN_HAS_TEXT)
		snprintf(buf, len, "write(fd, \"%.40s%s\", %zu)", a->text,
			 strlen(a->text) > 40 ? "…" : "", strlen(a->text));
	else
		snprintf(buf, len, "write(fd, buf, %" PRIu64 ")", a->bytes);
}

/* read as C. */
void
describe_read(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "read(fd, buf, %" PRIu64 ")", a->bytes);
}

/* pread as C. */
void
describe_pread(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "pread(fd, buf, %" PRIu64 ", %" PRId64 ")", a->bytes, a->offset);
}

/* pwrite as C. */
void
describe_pwrite(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	if (a->has & SCN_HAS_TEXT)
		snprintf(buf, len, "pwrite(fd, \"%.40s%s\", %zu, %" PRId64 ")", a->text,
			 strlen(a->text) > 40 ? "…" : "", strlen(a->text), a->offset);
	else
		snprintf(buf, len, "pwrite(fd, buf, %" PRIu64 ", %" PRId64 ")", a->bytes, a->offset);
}

/* lseek as C. */
void
describe_lseek(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "lseek(fd, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
}

/* fsync as C. */
void
describe_fsync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "fsync(fd)");
}

/* fdatasync as C. */
void
describe_fdatasync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "fdatasync(fd)");
}

/* sync_file_range as C. */
void
describe_sync_file_range(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "sync_file_range(fd, %" PRId64 ", %" PRIu64 ", %s%s%s)",
	         a->offset, a->len,
	         a->flags & 1 ? "WAIT_BEFORE|" : "", a->flags & 2 ? "WRITE" : "",
	         a->flags & 4 ? "|WAIT_AFTER" : "");
}

/* sync as C. */
void
describe_sync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "sync()");
}

/* fadvise as C. */
void
describe_fadvise(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "posix_fadvise(fd, %" PRId64 ", %" PRIu64 ", %s)", a->offset, a->len,
	         decode_advice(a->advice));
}

/* fallocate as C. */
void
describe_fallocate(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fallocate(fd, 0, %" PRId64 ", %" PRIu64 ")", a->offset, a->len);
}

/* ftruncate as C. */
void
describe_ftruncate(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "ftruncate(fd, %" PRIu64 ")", a->len);
}

/* fcntl as C. */
void
describe_fcntl(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char fl[96];

	if (a->cmd == F_SETFL)
		snprintf(buf, len, "fcntl(fd, F_SETFL, %s)",
			 decode_open_flag_bits(a->flags, fl, sizeof fl));
	else
		snprintf(buf, len, "flags = fcntl(fd, F_GETFL)");
}

/* fork as C: the child ends at once, with exit() or _exit(). */
void
describe_fork(const struct scn_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "if (fork() == 0) %s(0)", st->args.child_flushes ? "exit" : "_exit");
}

/* exit as C. */
void
describe_exit(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "exit(0)");
}

/* _exit as C. */
void
describe_uexit(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "_exit(0)");
}

/* close as C. */
void
describe_close(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "close(fd)");
}

/* wait as C. */
void
describe_wait(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	if (a->until_clean)
		snprintf(buf, len, "wait until the file is clean (at most %.0f s)", a->timeout);
	else
		snprintf(buf, len, "wait %.1f s", a->seconds);
}

/* pty as C. */
void
describe_pty(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	/* In the order the child makes the calls: setvbuf() comes before printf(). */
	snprintf(buf, len, "%sprintf(...); %swrite(STDOUT_FILENO, ...) with stdout on a terminal "
	         "and on a file",
	         a->between == SCN_PTY_UNBUFFERED ? "setvbuf(stdout, NULL, _IONBF, 0); " : "",
	         a->between == SCN_PTY_FFLUSH ? "fflush(stdout); " : "");
}

/* tail as C. */
void
describe_tail(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "tail -n %" PRIu64 " (lseek + read backwards, %" PRIu64 "-byte blocks)",
	         a->lines, a->size);
}

/* run as the command line. */
void
describe_run(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	size_t at = (size_t)snprintf(buf, len, "run %s", a->program ? a->program : "?");

	for (size_t i = 0; i < a->n_argv && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s", a->argv[i]);
	if (a->stdin_path != NULL && at < len)
		snprintf(buf + at, len - at, " < %s", a->stdin_path);
}

/* sweep as C. */
void
describe_sweep(const struct scn_step *st, char *buf, size_t len)
{
	/* The title is the scenario's: base/text.c makes it one safe line. */
	size_t n = (size_t)snprintf(buf, len, "sweep: ");

	if (n < len)
		text_safe(st->sweep && st->sweep->title ? st->sweep->title : "timing", TEXT_LINE,
		    buf + n, len - n);
}

/* note as C. */
void
describe_note(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;

	snprintf(buf, len, "(narration)");
}

/* The op table's describe column: each op as the line of C a student would write. */
static void (*const describe_ops[SCN_OP__COUNT])(const struct scn_step *, char *, size_t) = {
	SCN_OP_LIST(SCN_OP_DESCRIBE)
};

/* The step as C. */
char *
describe_step(const struct scn_step *st, char *buf, size_t len)
{
	if ((unsigned)st->op >= SCN_OP__COUNT || describe_ops[st->op] == NULL)
		snprintf(buf, len, "?");
	else
		describe_ops[st->op](st, buf, len);
	if (st->handle > 0 && st->name != NULL)
		describe_rename(buf, len, st->name);
	return buf;
}
