/* SPDX-License-Identifier: MIT */
/* export/emit-stdio.c: the ops on the FILE* and on the whole program (fork, exit) as C: each
 * writes the line a student would write and the program's statements together. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "export/emit-int.h"
#include "trace/decode.h"

/* fopen or fdopen (call) on what (path or fd; NULL: the step's file): a NULL result is
 * reported. */
static void
emit_open_stream(const struct scn_step *st, struct emit *e, const char *call, const char *what)
{
	struct ctext arg = { 0 };

	ctext_printf(&e->call, "fp = %s(", call);
	ctext_printf(&e->code, "fp = %s(", call);
	if (what != NULL) {
		ctext_printf(&e->call, "%s", what);
		ctext_printf(&e->code, "%s", what);
	} else {
		emit_file(&e->call, &e->code, st->args.file);
	}
	ctext_printf(&arg, ", ");
	ctext_literal(&arg, st->args.mode[0] != '\0' ? st->args.mode : "r+", 1);
	ctext_printf(&arg, ")");
	ctext_printf(&e->call, "%s", ctext_str(&arg));
	ctext_printf(&e->code, "%s;\nif (fp == NULL)\n\tperror(\"%s\");", ctext_str(&arg), call);
	e->code.b.nomem |= arg.b.nomem;
	ctext_clear(&arg);
}

/* A call that returns EOF when it fails: if (call == EOF) perror("name");. */
static void
emit_eof(struct emit *e, const char *name)
{
	ctext_printf(&e->code, "if (%s == EOF)\n\tperror(\"%s\");", ctext_str(&e->call), name);
}

/* fwrite or fread of the step's bytes through fp; a short count with an error is reported. */
static void
emit_stdio_transfer(const struct scn_step *st, struct emit *e, const char *call, const char *name)
{
	const struct scn_args *a = &st->args;
	char b[32];

	ctext_printf(&e->call, "%s(buf, 1, %" PRIu64 ", fp)", call, a->bytes);
	ctext_printf(&e->code, "if (%s(%s, 1, %" PRIu64 ", fp) < %" PRIu64 " && ferror(fp))\n"
	             "\tperror(\"%s\");", call, emit_buf(a, name, b, sizeof b), a->bytes, a->bytes,
	             call);
}

/* The own buffer's name in the program (vbufN, N the step's number) if it has one, else NULL. */
static const char *
emit_own_name(const struct scn_step *st, const struct emit *e, char *buf, size_t len)
{
	if (e->own_buffer == 0)
		return "NULL";
	(void)st;
	snprintf(buf, len, "vbuf%zu", e->n);
	return buf;
}

/* fopen as C. */
void
emit_fopen(const struct scn_step *st, struct emit *e)
{
	emit_open_stream(st, e, "fopen", NULL);
}

/* fdopen as C. */
void
emit_fdopen(const struct scn_step *st, struct emit *e)
{
	emit_open_stream(st, e, "fdopen", "fd");
}

/* fileno as C: checked as open is (-1 if fp is no stream), which also reads the fd that a
 * lesson may set and never use (-Wunused-but-set-variable). */
void
emit_fileno(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "fd = fileno(fp)");
	emit_around(e, "", ";\ncheck(\"fileno\", fd);");
}

/* setvbuf as C: an own buffer is BUFSIZ bytes unless the step gives its size (none when
 * unbuffered); the line calls it buf. */
void
emit_setvbuf(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	const char *mode = a->bufmode == SCN_BUF_NONE ? "_IONBF" :
	                   a->bufmode == SCN_BUF_LINE ? "_IOLBF" : "_IOFBF";
	size_t size = a->bufmode == SCN_BUF_NONE ? 0 :
	              (a->has & SCN_HAS_SIZE) ? (size_t)a->size : (size_t)BUFSIZ;
	char name[32];

	if (a->buffer == SCN_BUFFER_OWN)
		e->own_buffer = size;
	/* The size the run passes (ops_setvbuf), not the scenario's 0 when it gives none. */
	ctext_printf(&e->call, "setvbuf(fp, %s, %s, %zu)",
	             a->buffer == SCN_BUFFER_OWN ? "buf" : "NULL", mode, size);
	ctext_printf(&e->code, "if (setvbuf(fp, %s, %s, %zu) != 0)\n"
	             "\tfputs(\"setvbuf failed\\n\", stderr);", emit_own_name(st, e, name, sizeof name),
	             mode, size);
}

/* setbuf as C: an own buffer of BUFSIZ bytes, or none (unbuffered). */
void
emit_setbuf(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	char name[32];

	if (a->buffer == SCN_BUFFER_OWN && !((a->has & SCN_HAS_MODE) && a->bufmode == SCN_BUF_NONE))
		e->own_buffer = BUFSIZ;
	ctext_printf(&e->call, "setbuf(fp, %s)", e->own_buffer > 0 ? "buf" : "NULL");
	ctext_printf(&e->code, "setbuf(fp, %s);", emit_own_name(st, e, name, sizeof name));
}

/* setbuffer as C: an own buffer of the step's size (BUFSIZ if none), or none. */
void
emit_setbuffer(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	char name[32];

	if (a->buffer == SCN_BUFFER_OWN)
		e->own_buffer = (a->has & SCN_HAS_SIZE) ? (size_t)a->size : BUFSIZ;
	ctext_printf(&e->call, "setbuffer(fp, %s, %zu)", a->buffer == SCN_BUFFER_OWN ? "buf" : "NULL",
	             e->own_buffer);
	ctext_printf(&e->code, "setbuffer(fp, %s, %zu);", emit_own_name(st, e, name, sizeof name),
	             e->own_buffer);
}

/* fwrite as C. */
void
emit_fwrite(const struct scn_step *st, struct emit *e)
{
	emit_stdio_transfer(st, e, "fwrite", "wbuf");
}

/* fputs as C. */
void
emit_fputs(const struct scn_step *st, struct emit *e)
{
	ctext_printf(&e->call, "fputs(");
	emit_call_text(&e->call, st->args.text);
	ctext_printf(&e->call, ", fp)");
	ctext_printf(&e->code, "if (fputs(");
	ctext_literal(&e->code, st->args.text, 1);
	ctext_printf(&e->code, ", fp) == EOF)\n\tperror(\"fputs\");");
}

/* printf as C: the text is fprintf's argument, never its format. */
void
emit_printf(const struct scn_step *st, struct emit *e)
{
	ctext_printf(&e->call, "fprintf(fp, \"%%s\", ");
	emit_call_text(&e->call, st->args.text);
	ctext_printf(&e->call, ")");
	ctext_printf(&e->code, "if (fprintf(fp, \"%%s\", ");
	ctext_literal(&e->code, st->args.text, 1);
	ctext_printf(&e->code, ") < 0)\n\tperror(\"fprintf\");");
}

/* fread as C. */
void
emit_fread(const struct scn_step *st, struct emit *e)
{
	emit_stdio_transfer(st, e, "fread", "rbuf");
}

/* fgets as C. */
void
emit_fgets(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;
	uint64_t size = (a->has & SCN_HAS_BYTES) && a->bytes > 0 ? a->bytes : 4096;

	ctext_printf(&e->call, "fgets(buf, %" PRIu64 ", fp)", a->bytes);
	ctext_printf(&e->code, "if (fgets(rbuf, %" PRIu64 ", fp) == NULL && ferror(fp))\n"
	             "\tperror(\"fgets\");", size);
}

/* fflush as C. */
void
emit_fflush(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "fflush(fp)");
	emit_eof(e, "fflush");
}

/* fseek as C. */
void
emit_fseek(const struct scn_step *st, struct emit *e)
{
	const struct scn_args *a = &st->args;

	ctext_printf(&e->call, "fseek(fp, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
	emit_checked(e, "fseek");
}

/* fclose as C. */
void
emit_fclose(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "fclose(fp)");
	emit_eof(e, "fclose");
}

/* fork as C: the child ends at once (exit flushes its copy of the buffers, _exit drops it). */
void
emit_fork(const struct scn_step *st, struct emit *e)
{
	const char *end = st->args.child_flushes ? "exit" : "_exit";

	ctext_printf(&e->call, "if (fork() == 0) %s(0)", end);
	ctext_printf(&e->code, "switch (fork()) {\ncase -1:\n\tperror(\"fork\");\n\tbreak;\n"
	             "case 0:\n\t%s(0);   /* the child: %s */\ndefault:\n\twait(NULL);\n}", end,
	             st->args.child_flushes ? "exit() flushes its copy of every stdio buffer" :
	             "_exit() drops its copy of every stdio buffer");
}

/* exit as C: the program's end, stdio flushed. */
void
emit_exit(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "exit(0)");
	emit_around(e, "", ";   /* flushes every stream */");
}

/* _exit as C: the program's end, stdio buffers lost. */
void
emit_uexit(const struct scn_step *st, struct emit *e)
{
	(void)st;
	ctext_printf(&e->call, "_exit(0)");
	emit_around(e, "", ";   /* what stdio buffers hold is lost */");
}
