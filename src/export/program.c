/* SPDX-License-Identifier: MIT */
/* export/program.c: a scenario as one C program (the program pane, --export=c): lines and step ranges. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "export/cident.h"
#include "trace/decode.h"
#include "export/emit.h"
#include "export/program.h"
#include "export/program-tpl.h"

/* Building a program: the lines so far and whether memory ran out. */
struct program_build {
	struct program *p;
	size_t cap;
	bool nomem;
};

/* Add one formatted text, split at '\n' into lines, each indented by indent tabs. */
static void
program_add(struct program_build *b, int indent, const char *fmt, ...)
{
	char *text = NULL, *line, *save = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (text == NULL) {
		b->nomem = true;
		return;
	}
	for (line = text;; line = save + 1) {
		char *l;
		save = strchr(line, '\n');
		if (save != NULL)
			*save = '\0';
		if (b->p->n_lines == b->cap) {
			char **v = grow(b->p->lines, &b->cap, b->p->n_lines, sizeof *v, 64);
			if (v == NULL) {
				b->nomem = true;
				break;
			}
			b->p->lines = v;
		}
		if (asprintf(&l, "%.*s%s", line[0] ? indent : 0, "\t\t\t\t\t\t\t\t", line) < 0) {
			b->nomem = true;
			break;
		}
		b->p->lines[b->p->n_lines++] = l;
		if (save == NULL)
			break;
	}
	free(text);
}

/* True if word occurs in text as a whole identifier of its code (not in a literal or a
 * comment: a scenario's text names nothing the program must declare). */
static bool
program_uses(const char *text, const char *word)
{
	return text != NULL && cident_has(text, word);
}

/* The sweep step of s, or NULL. */
static const struct scn_step *
program_sweep(const struct scenario *s)
{
	for (size_t i = 0; i < s->n_steps; i++)
		if (s->steps[i].sweep != NULL)
			return &s->steps[i];
	return NULL;
}

/* Every step as C (program_steps_free frees them); NULL if memory ran out. */
static struct emit *
program_steps(const struct scenario *s)
{
	struct emit *v = calloc(s->n_steps + 1, sizeof *v);
	bool nomem = v == NULL;

	for (size_t i = 0; v != NULL && i < s->n_steps; i++) {
		emit_step(&s->steps[i], i + 1, &v[i]);
		nomem |= v[i].code.b.nomem;
	}
	if (nomem && v != NULL) {
		for (size_t i = 0; i < s->n_steps; i++)
			emit_clear(&v[i]);
		free(v);
		return NULL;
	}
	return v;
}

/* The largest buffer a step's transfer needs, skew included; at least 4096, page multiple. */
static uint64_t
program_buf_size(const struct scenario *s, bool reads)
{
	uint64_t most = 4096;

	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_args *a = &s->steps[i].args;
		uint64_t need = a->bytes + a->align;

		if (scenario_op_has(s->steps[i].op, reads ? SCN_OPF_READS : SCN_OPF_WRITES) &&
		    need > most)
			most = need;
	}
	return (most + 4095) / 4096 * 4096;
}

/* Add a template of src/export/tpl/ as it is (its last newline ends its last line). */
static void
program_tpl(struct program_build *b, const char *tpl)
{
	program_add(b, 0, "%.*s", (int)strlen(tpl) - 1, tpl);
}

/* The helpers a program uses: a failed call is reported, and the lesson goes on. */
static void
program_helpers(struct program_build *b, const char *all)
{
	if (program_uses(all, "check"))
		program_tpl(b, program_tpl_check);
	if (program_uses(all, "check_rc"))
		program_tpl(b, program_tpl_check_rc);
	if (program_uses(all, "nap") || program_uses(all, "wait_clean"))
		program_tpl(b, program_tpl_nap);
	if (program_uses(all, "wait_clean"))
		program_tpl(b, program_tpl_wait_clean);
	if (program_uses(all, "tail"))
		program_tpl(b, program_tpl_tail);
	if (program_uses(all, "ex13_4"))
		program_tpl(b, program_tpl_ex13_4);
	if (program_uses(all, "sibling"))
		program_tpl(b, program_tpl_sibling);
}

/* True if a sweep's program reads an input file. */
static bool
program_sweep_reads(enum scn_program pr)
{
	return pr == SCN_PROG_COPY || pr == SCN_PROG_READ || pr == SCN_PROG_FREAD ||
	       pr == SCN_PROG_FREAD_SETVBUF;
}

/* The definitions every sweep's loop shares: size macros, struct variant, the buffer. */
static void
program_sweep_common(struct program_build *b, const struct scenario *s)
{
	uint64_t most = 4096;
	bool syncs = false;

	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_sweep *sw = s->steps[i].sweep;
		if (sw == NULL)
			continue;
		for (size_t k = 0; k < sw->n_buffer_sizes; k++)
			if (sw->buffer_sizes[k] > most)
				most = sw->buffer_sizes[k];
		syncs |= !program_sweep_reads(sw->program) || sw->program == SCN_PROG_COPY;
	}
	program_tpl(b, program_tpl_sweep);
	program_add(b, 0, "/* The user buffer: BUF_SIZE bytes at most, aligned for O_DIRECT. */\n"
	            "static _Alignas(4096) char buf[%" PRIu64 "];\n", (most + 4095) / 4096 * 4096);
	if (syncs)
		program_tpl(b, program_tpl_sync_each);
}

/* Add a template with the number n in place of each @N@. */
static void
program_tpl_n(struct program_build *b, const char *tpl, int n)
{
	struct ctext t = { 0 };
	const char *at;

	for (; (at = strstr(tpl, "@N@")) != NULL; tpl = at + 3)
		ctext_printf(&t, "%.*s%d", (int)(at - tpl), tpl, n);
	ctext_printf(&t, "%s", tpl);
	b->nomem |= t.b.nomem;
	program_tpl(b, ctext_str(&t));
	ctext_clear(&t);
}

/* One run of a sweep's program (runN in the program, N the sweep's line). */
static void
program_sweep_run(struct program_build *b, const struct scn_sweep *sw, int n)
{
	static const char *const runs[] = {
		[SCN_PROG_COPY] = program_tpl_run_copy,
		[SCN_PROG_WRITE] = program_tpl_run_write,
		[SCN_PROG_READ] = program_tpl_run_read,
		[SCN_PROG_FWRITE] = program_tpl_run_fwrite,
		[SCN_PROG_FREAD] = program_tpl_run_fread,
		[SCN_PROG_FREAD_SETVBUF] = program_tpl_run_fread_setvbuf,
		[SCN_PROG_OVERWRITE] = program_tpl_run_overwrite,
	};

	if ((size_t)sw->program < sizeof runs / sizeof runs[0] && runs[sw->program] != NULL)
		program_tpl_n(b, runs[sw->program], n);
}

/* The sweep of step st, number n, as a timed loop over its variants and buffer sizes
 * (sweepN, runN, buf_sizesN). */
static void
program_sweep_fn(struct program_build *b, const struct scn_step *st, size_t step_n)
{
	static const char *const names[] = {
		[SCN_PROG_COPY] = "copy.c: read() the file, write() each piece to a new file",
		[SCN_PROG_WRITE] = "write_bytes.c: write() the bytes to a new file",
		[SCN_PROG_READ] = "APUE figure 3.5: read() the file, write() each piece to /dev/null",
		[SCN_PROG_FWRITE] = "fwrite() the bytes in records to a new file",
		[SCN_PROG_FREAD] = "fread() the file in records",
		[SCN_PROG_FREAD_SETVBUF] = "fread() the file in records, with a 64 KiB stdio buffer",
		[SCN_PROG_OVERWRITE] = "a database's page writes: pwrite() blocks in place",
	};
	const struct scn_sweep *sw = st->sweep;
	enum scn_program pr = sw->program;
	bool reads = program_sweep_reads(pr);
	int n = (int)step_n;
	char fl[160];

	program_add(b, 0, "/* Sweep (step %d, scenario line %d): its buffer sizes and variants. */",
	            n, st->line);
	program_add(b, 0, "static const size_t buf_sizes%d[] = { BUF_SIZES(", n);
	for (size_t i = 0; i < sw->n_buffer_sizes; i += 8) {
		char row[256];
		size_t k, len = 0;
		for (k = i; k < sw->n_buffer_sizes && k < i + 8 && len < sizeof row; k++)
			len += (size_t)snprintf(row + len, sizeof row - len, "%s%" PRIu64 "%s",
			                        k > i ? " " : "", sw->buffer_sizes[k],
			                        k + 1 < sw->n_buffer_sizes ? "," : "");
		program_add(b, 1, "%s", row);
	}
	program_add(b, 0, ") };");
	program_add(b, 0, "static const struct variant variants%d[] = {", n);
	for (size_t i = 0; i < sw->n_variants; i++) {
		const struct scn_variant *v = &sw->variants[i];
		struct ctext name = { 0 };

		ctext_literal(&name, v->name, 2);
		b->nomem |= name.b.nomem;
		program_add(b, 1, "{ %s, %s, %d },", ctext_str(&name),
		            v->flags ? decode_open_flag_bits(v->flags, fl, sizeof fl) : "0",
		            v->sync_each == SCN_SYNC_FSYNC ? 1 :
		            v->sync_each == SCN_SYNC_FDATASYNC ? 2 : 0);
		ctext_clear(&name);
	}
	program_add(b, 0, "};\n");
	program_sweep_run(b, sw, n);
	program_add(b, 0, "/* The sweep: %s; each run timed. */",
	            (size_t)pr < sizeof names / sizeof names[0] ? names[pr] : "?");
	program_add(b, 0, "static void\nsweep%d(const char *path)\n{\n"
	            "\tunsigned long long size = SIZE(%" PRIu64 "ULL);\n\tchar out[4096];\n", n,
	            sw->file_size);
	program_add(b, 1, "snprintf(out, sizeof out, \"%%s%s\", path);", reads ? ".out" : "");
	if (reads)
		program_add(b, 1, "prepare(path, size, 0);   /* the input, as iobufviz makes it */");
	program_add(b, 1, "printf(\"%%-16s %%10s %%12s\\n\", \"variant\", \"BUF_SIZE\", \"elapsed (s)\");\n"
	            "for (size_t i = 0; i < sizeof variants%d / sizeof variants%d[0]; i++)\n"
	            "\tfor (size_t k = 0; k < sizeof buf_sizes%d / sizeof buf_sizes%d[0]; k++) {\n"
	            "\t\tconst struct variant *v = &variants%d[i];\n"
	            "\t\tstruct timespec a, z;\n\t\tint rc, in;\n", n, n, n, n, n);
	if (pr == SCN_PROG_OVERWRITE)
		program_add(b, 3, "prepare(out, size, 0);   /* the file to overwrite, untimed */");
	if (reads && sw->cache == SCN_CACHE_COLD)
		program_add(b, 3, "/* A cold cache each run (O_CLOEXEC: apart from the run, as in prepare()). */\n"
		            "if ((in = open(path, O_RDONLY | O_CLOEXEC)) != -1) {\n"
		            "\tposix_fadvise(in, 0, 0, POSIX_FADV_DONTNEED);\n\tclose(in);\n}");
	else
		program_add(b, 3, "(void)in;");
	program_add(b, 3, "clock_gettime(CLOCK_MONOTONIC, &a);\n"
	            "rc = run%d(path, out, v, buf_sizes%d[k], size);\n"
	            "clock_gettime(CLOCK_MONOTONIC, &z);\n"
	            "if (rc == -1)\n"
	            "\tprintf(\"%%-16s %%10zu %%12s\\n\", v->name, buf_sizes%d[k], strerror(errno));\n"
	            "else\n"
	            "\tprintf(\"%%-16s %%10zu %%12.3f\\n\", v->name, buf_sizes%d[k],\n"
	            "\t       (double)(z.tv_sec - a.tv_sec) + (double)(z.tv_nsec - a.tv_nsec) / 1e9);",
	            n, n, n, n);
	program_add(b, 2, "}");
	if (reads)
		program_add(b, 1, "unlink(out);");
	program_add(b, 0, "}\n");
}

/*
 * True if op gives the unnamed fd a new value: it opens the file (open; fopen, whose stream's
 * fd the worker makes current) or takes the fd under a FILE* (fileno), not from the fd.
 */
static bool
program_sets_fd(enum scn_op op)
{
	return scenario_op_has(op, SCN_OPF_NEW_FD | SCN_OPF_NEW_FP | SCN_OPF_WRAPS) &&
	       !scenario_op_has(op, SCN_OPF_FD);
}

/* The opening comment: the scenario's title and source (text that stays a comment). */
static void
program_title(struct program_build *b, const struct scenario *s)
{
	struct ctext t = { 0 };
	char *title = NULL;

	if (asprintf(&title, "%s%s%s%s", s->title != NULL ? s->title : "", s->source != NULL ?
	             " (" : "", s->source != NULL ? s->source : "", s->source != NULL ? ")" : "") < 0)
		title = NULL;
	ctext_printf(&t, "/*\n * ");
	ctext_comment(&t, title);
	b->nomem |= t.b.nomem || title == NULL;
	free(title);
	program_add(b, 0, "%s", ctext_str(&t));
	ctext_clear(&t);
}

/*
 * The opening comment's warning, after the title: the program runs other programs (the run
 * steps'), each command line named as a shell reads it and escaped by the comment writer, so
 * that a student reads them before running it. Nothing for a lesson without a run step.
 */
static void
program_runs(struct program_build *b, const struct scenario *s)
{
	bool any = false;

	for (size_t i = 0; i < s->n_steps; i++) {
		struct ctext t = { 0 };
		char *cmd;

		if (!scenario_step_runs(&s->steps[i]))
			continue;
		if (!any)
			program_add(b, 0, " *\n * Warning: this program runs other programs, with your "
			            "rights, as the\n * scenario's run steps say (fork and execvp; "
			            "iobufviz exports it only\n * with --allow-run; {file} is the FILE "
			            "you give it):");
		any = true;
		if ((cmd = scenario_run_command(&s->steps[i])) == NULL) {
			b->nomem = true;
			return;
		}
		ctext_printf(&t, " *   step %zu (line %d): ", i + 1, s->steps[i].line);
		ctext_comment(&t, cmd);
		free(cmd);
		b->nomem |= t.b.nomem;
		program_add(b, 0, "%s", ctext_str(&t));
		ctext_clear(&t);
	}
	if (any)
		program_add(b, 0, " *");
}

/* Free the steps of s as C. */
static void
program_steps_free(const struct scenario *s, struct emit *steps)
{
	for (size_t i = 0; steps != NULL && i < s->n_steps; i++)
		emit_clear(&steps[i]);
	free(steps);
}

/* True if name (file: or to:) is in no step before step n. */
static bool
program_first_name(const struct scenario *s, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if ((s->steps[i].args.file != NULL && strcmp(s->steps[i].args.file, name) == 0) ||
		    (s->steps[i].args.to != NULL && strcmp(s->steps[i].args.to, name) == 0))
			return false;
	return true;
}

/* The lesson's other files (file:, to:) removed before it starts, as iobufviz starts in an
 * empty directory. */
static void
program_others(struct program_build *b, const struct scenario *s)
{
	struct ctext t = { 0 };

	/* The comment first: after a name of 64 letters it made a line of 129 columns. */
	ctext_printf(&t, "/* Not part of the lesson: the files it makes removed first. */");
	for (size_t i = 0; i < s->n_steps; i++) {
		const char *names[2] = { s->steps[i].args.file, s->steps[i].args.to };
		for (size_t k = 0; k < 2; k++) {
			if (names[k] == NULL || strcmp(names[k], ".") == 0 ||
			    !program_first_name(s, i, names[k]) || (k == 1 && names[0] != NULL &&
			                                            strcmp(names[0], names[1]) == 0))
				continue;
			ctext_printf(&t, "\nunlink(sibling(path, ");
			ctext_literal(&t, names[k], 1);
			ctext_printf(&t, "));");
		}
	}
	if (strchr(ctext_str(&t), '\n') != NULL)
		program_add(b, 1, "%s", ctext_str(&t));
	b->nomem |= t.b.nomem;
	ctext_clear(&t);
}

/* Make the program of s. */
struct program *
program_new(const struct scenario *s)
{
	struct program_build b = { 0 };
	const struct scn_step *sweep = program_sweep(s);
	struct emit *steps = program_steps(s);
	struct ctext all = { 0 };
	bool any_fd = false, any_fp = false;

	if (steps == NULL)
		return NULL;
	b.p = calloc(1, sizeof *b.p);
	for (size_t i = 0; i < s->n_steps; i++)
		ctext_printf(&all, "%s\n", ctext_str(&steps[i].code));
	if (b.p == NULL || all.b.nomem)
		goto fail;
	b.p->n_steps = s->n_steps;
	b.p->first = calloc(s->n_steps + 1, sizeof *b.p->first);
	b.p->last = calloc(s->n_steps + 1, sizeof *b.p->last);
	b.p->runs = calloc(s->n_steps + 1, sizeof *b.p->runs);
	if (b.p->first == NULL || b.p->last == NULL || b.p->runs == NULL)
		goto fail;
	for (size_t i = 0; i < s->n_steps; i++)
		b.p->runs[i] = scenario_step_runs(&s->steps[i]);
	any_fd = program_uses(ctext_str(&all), "fd");
	any_fp = program_uses(ctext_str(&all), "fp");

	program_title(&b, s);
	program_runs(&b, s);
	program_tpl(&b, program_tpl_head);
	if (program_uses(ctext_str(&all), "wait_clean"))
		program_add(&b, 0, "#include <sys/syscall.h>");
	if ((program_uses(ctext_str(&all), "execvp") || program_uses(ctext_str(&all), "wait")) &&
	    !program_uses(ctext_str(&all), "ex13_4"))
		program_add(&b, 0, "#include <sys/wait.h>        /* waitpid() */");
	if (program_uses(ctext_str(&all), "ex13_4"))
		program_add(&b, 0, "#include <pty.h>            /* openpty(): in libc since glibc 2.34 */\n"
		            "#include <sys/wait.h>");
	program_add(&b, 0, "");
	if (program_uses(ctext_str(&all), "wbuf"))
		program_add(&b, 0, "/* What writes write: \"abcdefghijklmnopqrstuvwxyz\" repeating."
		            " Aligned for O_DIRECT. */\nstatic _Alignas(4096) char wbuf[%" PRIu64 "];",
		            program_buf_size(s, false));
	if (program_uses(ctext_str(&all), "rbuf"))
		program_add(&b, 0, "/* Where reads read to. */\nstatic _Alignas(4096) char rbuf[%" PRIu64
		            "];", program_buf_size(s, true));
	for (size_t i = 0; i < s->n_steps; i++)
		if (steps[i].own_buffer > 0)
			program_add(&b, 0, "/* An own stdio buffer (step %zu, scenario line %d): static,"
			            " never a local array. */\nstatic char vbuf%zu[%zu];", i + 1,
			            s->steps[i].line, i + 1, steps[i].own_buffer);
	if (b.p->n_lines > 0 && b.p->lines[b.p->n_lines - 1][0] != '\0')
		program_add(&b, 0, "");
	program_helpers(&b, ctext_str(&all));
	program_tpl(&b, program_tpl_prepare);   /* not part of the lesson: the file to start with */
	if (sweep != NULL)
		program_sweep_common(&b, s);
	for (size_t i = 0; i < s->n_steps; i++)
		if (s->steps[i].sweep != NULL)
			program_sweep_fn(&b, &s->steps[i], i + 1);

	program_add(&b, 0, "int\nmain(int argc, char *argv[])\n{");
	program_add(&b, 1, "const char *path;");
	if (any_fd)
		program_add(&b, 1, "int fd = -1;");
	if (any_fp)
		program_add(&b, 1, "FILE *fp = NULL;");
	for (size_t i = 0; i < s->n_steps; i++) { /* the named pairs (as:) */
		char id[40];
		if (!s->steps[i].made || s->steps[i].name == NULL)
			continue;
		snprintf(id, sizeof id, "fd_%s", s->steps[i].name);
		if (program_uses(ctext_str(&all), id))
			program_add(&b, 1, "int %s = -1;", id);
		snprintf(id, sizeof id, "fp_%s", s->steps[i].name);
		if (program_uses(ctext_str(&all), id))
			program_add(&b, 1, "FILE *%s = NULL;", id);
	}
	program_add(&b, 0, "");
	program_add(&b, 1, "if (argc != 2) {\n\tfprintf(stderr, \"usage: %%s FILE\\n\", argv[0]);\n"
	            "\treturn 2;\n}\npath = argv[1];");
	if (program_uses(ctext_str(&all), "wbuf"))
		program_add(&b, 1, "for (size_t i = 0; i < sizeof wbuf; i++)\n"
		            "\twbuf[i] = \"abcdefghijklmnopqrstuvwxyz\"[i %% 26];");
	program_others(&b, s);
	program_add(&b, 1, "prepare(path, %" PRIu64 ", %d);   /* not part of the lesson */\n",
	            s->file.size, s->file.fill == SCN_FILL_ZERO);
	program_add(&b, 1, "/* The lesson. */");
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		bool fileno_next = false;

		b.p->first[i] = b.p->n_lines;
		program_add(&b, 1, "%s", ctext_str(&steps[i].code));
		/* As the worker does: after fopen() the stream's fd is the current one, if a step
		 * on the unnamed fd comes before another gives it a value. */
		if (scenario_op_has(st->op, SCN_OPF_NEW_FP) && !scenario_op_has(st->op, SCN_OPF_FD) &&
		    st->handle == 0) {
			for (size_t k = i + 1; k < s->n_steps; k++) {
				enum scn_op op = s->steps[k].op;
				if (s->steps[k].handle != 0) /* a named pair's step: not fd's */
					continue;
				if (program_sets_fd(op))
					break;
				if (scn_op_table[op].io == SCN_IO_FD) {
					fileno_next = true;
					break;
				}
			}
			if (fileno_next)
				program_add(&b, 1, "fd = fp != NULL ? fileno(fp) : -1;");
		}
		b.p->last[i] = b.p->n_lines;
	}
	program_add(&b, 1, "return 0;");
	program_add(&b, 0, "}");
	if (b.nomem)
		goto fail;
	program_steps_free(s, steps);
	ctext_clear(&all);
	return b.p;
fail:
	program_steps_free(s, steps);
	ctext_clear(&all);
	program_free(b.p);
	return NULL;
}

/* Free a program. */
void
program_free(struct program *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->n_lines; i++)
		free(p->lines[i]);
	free(p->lines);
	free(p->first);
	free(p->last);
	free(p->runs);
	free(p);
}

/* Print the program, a line each. */
int
program_print(const struct program *p, FILE *f)
{
	for (size_t i = 0; i < p->n_lines; i++)
		if (fprintf(f, "%s\n", p->lines[i]) < 0)
			return -1;
	return ferror(f) ? -1 : 0;
}
