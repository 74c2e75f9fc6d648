/* SPDX-License-Identifier: MIT */
/* export/emit.c: what every op's writer shares, and the ops on the fd:
 * each writes the line a student would write and the program's statements together. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/cident.h"
#include "export/emit-int.h"
#include "trace/decode.h"

/* Free e's texts. */
void
emit_clear(struct emit *e)
{
	ctext_clear(&e->call);
	ctext_clear(&e->code);
	e->own_buffer = 0;
}

/* The statement: before, the call, after. */
void
emit_around(struct emit *e, const char *before, const char *after)
{
	ctext_printf(&e->code, "%s%s%s", before, ctext_str(&e->call), after);
}

/* check("name", call);. */
void
emit_checked(struct emit *e, const char *name)
{
	ctext_printf(&e->code, "check(\"%s\", %s);", name, ctext_str(&e->call));
}

/* The text as a student reads it in the line: quoted, cut at 40 bytes. */
void
emit_call_text(struct ctext *t, const char *s)
{
	if (s == NULL)
		s = "";
	ctext_printf(t, "\"%.40s%s\"", s, strlen(s) > 40 ? "…" : "");
}

/* name, or name + skew. */
const char *
emit_buf(const struct scn_args *a, const char *name, char *buf, size_t len)
{
	if (a->align > 0)
		snprintf(buf, len, "%s + %u", name, a->align);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/*
 * A transfer on fd: call(fd, buf, bytes[, offset]) from or to name (skewed as the step
 * says), or of the step's text (write, pwrite): the literal, its length in bytes.
 */
static void
emit_transfer(const struct scn_step *st, struct emit *e, const char *call, const char *name)
{
	const struct scn_args *a = &st->args;
	char b[32], off[32] = "";

	if (call[0] == 'p')
		snprintf(off, sizeof off, ", %" PRId64, a->offset);
	if (a->has & SCN_HAS_TEXT) {
		ctext_printf(&e->call, "%s(fd, ", call);
		emit_call_text(&e->call, a->text);
		ctext_printf(&e->call, ", %zu%s)", strlen(a->text), off);
		ctext_printf(&e->code, "check(\"%s\", %s(fd, ", call, call);
		ctext_literal(&e->code, a->text, 1);
		ctext_printf(&e->code, ", %zu%s));", strlen(a->text), off);
		return;
	}
	ctext_printf(&e->call, "%s(fd, buf, %" PRIu64 "%s)", call, a->bytes, off);
	ctext_printf(&e->code, "check(\"%s\", %s(fd, %s, %" PRIu64 "%s));", call, call,
	             emit_buf(a, name, b, sizeof b), a->bytes, off);
}

/* A call on fd alone that check() reports: fsync(fd), close(fd). */
static void
emit_fd_call(struct emit *e, const char *call)
{
	ctext_printf(&e->call, "%s(fd)", call);
	emit_checked(e, call);
}

/*
 * The file a step names (file:), as the line shows it ("data.new", or path: the lesson's
 * file) and as the program reaches it (sibling(): beside the file it was given).
 */
void
emit_file(struct ctext *line, struct ctext *code, const char *name)
{
	if (name == NULL) {
		ctext_printf(line, "path");
		ctext_printf(code, "path");
		return;
	}
	ctext_literal(line, name, 1);
	ctext_printf(code, "sibling(path, ");
	ctext_literal(code, name, 1);
	ctext_printf(code, ")");
}

/* open as C: the line gives the mode only where O_CREAT needs one. */
void
emit_open(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	char fl[160];

	decode_open_flags(a->flags, fl, sizeof fl);
	ctext_printf(&e->call, "fd = open(");
	ctext_printf(&e->code, "fd = open(");
	emit_file(&e->call, &e->code, a->file);
	ctext_printf(&e->call, ", %s%s)", fl, (a->flags & O_CREAT) ? ", 0600" : "");
	/* A long file name: the flags on the next line ("fd" may become a longer name). */
	if (ctext_column(&e->code) + strlen(fl) + sizeof ", , 0600);" + 8 > EMIT_LINE_MAX)
		ctext_printf(&e->code, ",\n\t\t%s, 0600);\ncheck(\"open\", fd);", fl);
	else
		ctext_printf(&e->code, ", %s, 0600);\ncheck(\"open\", fd);", fl);
}

/* rename as C: one name of the directory replaced by another. */
void
emit_rename(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	const char *to = a->to != NULL ? a->to : "";

	ctext_printf(&e->call, "rename(");
	ctext_printf(&e->code, "check(\"rename\", rename(");
	emit_file(&e->call, &e->code, a->file);
	ctext_printf(&e->call, ", ");
	/* Long names: the second on the next line. */
	if (ctext_column(&e->code) + strlen(to) + sizeof "sibling(path, \"\")));" + 8 > EMIT_LINE_MAX)
		ctext_printf(&e->code, ",\n\t\t");
	else
		ctext_printf(&e->code, ", ");
	emit_file(&e->call, &e->code, to);
	ctext_printf(&e->call, ")");
	ctext_printf(&e->code, "));");
}

/* crash as C: nothing runs; a comment marks where iobufviz showed both crashes. */
void
emit_crash(const struct scn_step *st, struct emit *e)
{
	const char *name = st->args.file != NULL ? st->args.file : "the lesson's file";

	ctext_printf(&e->call, "crash here: kill -9, or cut the power");
	if (st->args.file != NULL) {
		ctext_printf(&e->call, "; then read ");
		ctext_literal(&e->call, st->args.file, 1);
	}
	ctext_printf(&e->code, "/* crash: iobufviz showed here what a kill -9 of this process and a "
	             "power cut\n * would leave of ");
	ctext_comment(&e->code, name);
	ctext_printf(&e->code, ": the program itself goes on. */");
}

/* write as C. */
void
emit_write(const struct scn_step *st, struct emit *e)
{
	emit_transfer(st, e, "write", "wbuf");
}

/* read as C. */
void
emit_read(const struct scn_step *st, struct emit *e)
{
	emit_transfer(st, e, "read", "rbuf");
}

/* pread as C. */
void
emit_pread(const struct scn_step *st, struct emit *e)
{
	emit_transfer(st, e, "pread", "rbuf");
}

/* pwrite as C. */
void
emit_pwrite(const struct scn_step *st, struct emit *e)
{
	emit_transfer(st, e, "pwrite", "wbuf");
}

/* lseek as C. */
void
emit_lseek(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	ctext_printf(&e->call, "lseek(fd, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
	emit_checked(e, "lseek");
}

/* fsync as C. */
void
emit_fsync(const struct scn_step *st, struct emit *e)
{
	(void)st;
	emit_fd_call(e, "fsync");
}

/* fdatasync as C. */
void
emit_fdatasync(const struct scn_step *st, struct emit *e)
{
	(void)st;
	emit_fd_call(e, "fdatasync");
}

/* sync_file_range as C: the line names the flags short, the program with their C names. */
void
emit_sync_file_range(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	char fl[160];
	const char *names;

	ctext_printf(&e->call, "sync_file_range(fd, %" PRId64 ", %" PRIu64 ", %s%s%s)",
	             a->offset, a->len, a->flags & 1 ? "WAIT_BEFORE|" : "",
	             a->flags & 2 ? "WRITE" : "", a->flags & 4 ? "|WAIT_AFTER" : "");
	decode_sync_file_range((unsigned)a->flags, a->len, fl, sizeof fl);
	names = strchr(fl, ',') != NULL ? strchr(fl, ',') + 2 : "0";
	ctext_printf(&e->code, "check(\"sync_file_range\", sync_file_range(fd, %" PRId64 ", %"
	             PRIu64 ",\n\t%s));", a->offset, a->len, names);
}

/* sync as C. */
void
emit_sync(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "sync()");
	emit_around(e, "", ";");
}

/* posix_fadvise as C: it returns the error number instead of setting errno. */
void
emit_fadvise(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	ctext_printf(&e->call, "posix_fadvise(fd, %" PRId64 ", %" PRIu64 ", %s)", a->offset, a->len,
	             decode_advice(a->advice));
	emit_around(e, "check_rc(\"posix_fadvise\", ", ");");
}

/* fallocate as C. */
void
emit_fallocate(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	ctext_printf(&e->call, "fallocate(fd, 0, %" PRId64 ", %" PRIu64 ")", a->offset, a->len);
	emit_checked(e, "fallocate");
}

/* ftruncate as C. */
void
emit_ftruncate(const struct scn_step *st, struct emit *e)
{
	ctext_printf(&e->call, "ftruncate(fd, %" PRIu64 ")", st->args.len);
	emit_checked(e, "ftruncate");
}

/* close as C. */
void
emit_close(const struct scn_step *st, struct emit *e)
{
	(void)st;
	emit_fd_call(e, "close");
}

/* fcntl as C: F_GETFL's result is printed, F_SETFL's flags are the step's. */
void
emit_fcntl(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	char fl[96];

	if (a->cmd == F_SETFL) {
		ctext_printf(&e->call, "fcntl(fd, F_SETFL, %s)",
		             decode_open_flag_bits(a->flags, fl, sizeof fl));
		emit_checked(e, "fcntl");
		return;
	}
	ctext_printf(&e->call, "flags = fcntl(fd, F_GETFL)");
	ctext_printf(&e->code, "{\n\tint fl = fcntl(fd, F_GETFL);\n\n\tcheck(\"fcntl\", fl);\n"
	             "\tprintf(\"F_GETFL: %%#o\\n\", (unsigned)fl);\n}");
}
