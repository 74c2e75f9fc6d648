/* SPDX-License-Identifier: MIT */
/* practice/practice-listing.c: a problem's program as C that compiles as it is shown: the
 * declarations its lines need, then a line per step, its number in a comment. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/cident.h"
#include "export/ctext.h"
#include "export/describe.h"
#include "practice/practice.h"

/* The stream's own buffer (setvbuf) and the data the transfers move: two names, never one. */
#define PRACTICE_SBUF "sbuf"
#define PRACTICE_DATA "data"

/* What a listing declares. */
struct practice_decls {
	bool fp, fd, direct;
	uint64_t sbuf, data;        /* bytes of each buffer (0: not used) */
};

/* In line (len bytes), the text of a step as the call shows it ("..." with its first 40
 * bytes, "…" when cut) made the literal C writes: escaped, whole. */
static void
practice_listing_literal(char *line, size_t len, const char *text)
{
	size_t n = strlen(text), shown = n > 40 ? 40 : n;
	char *at = line, *end;
	struct ctext t = { 0 };

	while ((at = strchr(at, '"')) != NULL && strncmp(at + 1, text, shown) != 0)
		at++;
	if (at == NULL)
		return;
	end = at + 1 + shown;
	if (n > shown && strncmp(end, "\xe2\x80\xa6", 3) == 0)
		end += 3;
	if (*end != '"')
		return;
	ctext_literal(&t, text, 1);
	ctext_printf(&t, "%s", end + 1);
	if (!t.b.nomem)
		snprintf(at, len - (size_t)(at - line), "%s", ctext_str(&t));
	ctext_clear(&t);
}

/* The line of C of step st as a listing shows it. */
char *
practice_listing_line(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char data[32];

	describe_step(st, buf, len);
	if (a->text != NULL)
		practice_listing_literal(buf, len, a->text);
	/* buf: the data a transfer moves; else the stream's own buffer (setvbuf). */
	if (!scenario_op_has(st->op, SCN_OPF_READS | SCN_OPF_WRITES)) {
		cident_replace(buf, len, "buf", PRACTICE_SBUF);
		return buf;
	}
	if ((a->has & SCN_HAS_ALIGN) && a->align > 0)
		snprintf(data, sizeof data, "%s + %u", PRACTICE_DATA, a->align);
	else
		snprintf(data, sizeof data, "%s", PRACTICE_DATA);
	cident_replace(buf, len, "buf", data);
	return buf;
}

/* What the lines of s need declared. */
static void
practice_listing_decls(const struct scenario *s, struct practice_decls *d)
{
	char line[512];

	memset(d, 0, sizeof *d);
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		const struct scn_args *a = &st->args;

		practice_listing_line(st, line, sizeof line);
		d->fp |= cident_has(line, "fp");
		d->fd |= cident_has(line, "fd");
		d->direct |= (st->op == SCN_OP_OPEN && (a->flags & O_DIRECT));
		if (cident_has(line, PRACTICE_SBUF) && a->size > d->sbuf)
			d->sbuf = a->size;
		if (cident_has(line, PRACTICE_DATA) && a->bytes + a->align > d->data)
			d->data = a->bytes + a->align;
	}
}

/* Print s's program to f, each line after indent: a translation unit that compiles as it is
 * (cc -std=c11 -c), its steps numbered in comments as the questions number them. */
void
practice_listing_print(FILE *f, const struct scenario *s, const char *indent)
{
	struct practice_decls d;
	char line[512];

	practice_listing_decls(s, &d);
	fprintf(f, "%s#define _GNU_SOURCE     /* O_DIRECT */\n", indent);
	fprintf(f, "%s#include <fcntl.h>\n%s#include <stdio.h>\n%s#include <unistd.h>\n\n", indent,
	        indent, indent);
	if (d.data > 0)
		fprintf(f, "%sstatic %schar %s[%" PRIu64 "];%s\n", indent,
		        d.direct ? "_Alignas(4096) " : "", PRACTICE_DATA, d.data,
		        d.direct ? "   /* page-aligned */" : "   /* the bytes moved */");
	if (d.sbuf > 0)
		fprintf(f, "%sstatic char %s[%" PRIu64 "];   /* the stream's buffer */\n", indent,
		        PRACTICE_SBUF, d.sbuf);
	fprintf(f, "%s%svoid\n%spractice(const char *path)   /* path: the scratch file */\n%s{\n",
	        d.data > 0 || d.sbuf > 0 ? "\n" : "", indent, indent, indent);
	if (d.fp)
		fprintf(f, "%s\tFILE *fp;\n", indent);
	if (d.fd)
		fprintf(f, "%s\tint fd;\n", indent);
	fprintf(f, "\n");
	/* A step that is no C call (a crash) is a comment there. */
	for (size_t i = 0; i < s->n_steps; i++)
		fprintf(f, scenario_op_has(s->steps[i].op, SCN_OPF_CALL) ? "%s/* %2zu */ %s;\n" :
		        "%s/* %2zu */ /* %s */\n", indent, i + 1,
		        practice_listing_line(&s->steps[i], line, sizeof line));
	fprintf(f, "%s}\n", indent);
}
