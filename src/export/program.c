/* SPDX-License-Identifier: MIT */
/* export/program.c: a scenario as one C program (the program pane, --export=c): lines and step ranges. */
#include <config.h>

#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "export/cident.h"
#include "trace/decode.h"
#include "export/describe.h"
#include "export/emit.h"
#include "export/program.h"

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
			size_t cap = b->cap ? b->cap * 2 : 64;
			char **v = realloc(b->p->lines, cap * sizeof *v);
			if (v == NULL) {
				b->nomem = true;
				break;
			}
			b->p->lines = v;
			b->cap = cap;
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

/* True if word occurs in text as a whole identifier. */
static bool
program_uses(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *q = strstr(text, word); q != NULL; q = strstr(q + 1, word)) {
		bool before = q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_');
		bool after = isalnum((unsigned char)q[n]) || q[n] == '_';
		if (!before && !after)
			return true;
	}
	return false;
}

/* The sweep step of s, or NULL. */
static const struct scn_step *
program_sweep(const struct scenario *s)
{
	for (size_t i = 0; i < s->n_steps; i++)
		if (s->steps[i].op == SCN_OP_SWEEP && s->steps[i].sweep != NULL)
			return &s->steps[i];
	return NULL;
}

/*
 * A named pair's statements (as:, on:): fd_NAME and fp_NAME in place of fd and fp; fdopen
 * as: wraps the unnamed fd, so there only fp is renamed.
 */
static void
program_rename(const struct scn_step *st, char *buf, size_t len)
{
	char with[40];

	snprintf(with, sizeof with, "fp_%s", st->name);
	cident_replace(buf, len, "fp", with);
	if (st->op == SCN_OP_FDOPEN && st->made)
		return;
	snprintf(with, sizeof with, "fd_%s", st->name);
	cident_replace(buf, len, "fd", with);
}

/* The op table's emit column: each op as the statements of a whole program. */
static void (*const program_emit[SCN_OP__COUNT])(const struct scn_step *, char *, size_t) = {
	SCN_OP_LIST(SCN_OP_EMIT)
};

/* True if op has its statements (every op should: else a comment stands in for it). */
bool
program_emits(enum scn_op op)
{
	return (unsigned)op < SCN_OP__COUNT && program_emit[op] != NULL;
}

/* The statements of every step, one string each (NULL: the op emits nothing). */
static char **
program_steps(const struct scenario *s)
{
	char **v = calloc(s->n_steps + 1, sizeof *v);

	if (v == NULL)
		return NULL;
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		char buf[2048];

		if (!program_emits(st->op))
			snprintf(buf, sizeof buf, "/* %s: not a C call */", scenario_op_name(st->op));
		else
			program_emit[st->op](st, buf, sizeof buf);
		if (st->handle > 0 && st->name != NULL)
			program_rename(st, buf, sizeof buf);
		if ((v[i] = strdup(buf)) == NULL) {
			for (size_t k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return NULL;
		}
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
		enum scn_op op = s->steps[i].op;
		bool r = op == SCN_OP_READ || op == SCN_OP_PREAD || op == SCN_OP_FREAD ||
		         op == SCN_OP_FGETS;
		bool w = op == SCN_OP_WRITE || op == SCN_OP_PWRITE || op == SCN_OP_FWRITE;
		uint64_t need = a->bytes + a->align;

		if ((reads ? r : w) && need > most)
			most = need;
	}
	return (most + 4095) / 4096 * 4096;
}

/* The helpers a program uses: a failed call is reported, and the lesson goes on. */
static void
program_helpers(struct program_build *b, const char *all)
{
	if (program_uses(all, "check")) {
		program_add(b, 0, "/* Report a failed call (-1 and errno), and go on as the lesson does. */");
		program_add(b, 0, "static void\ncheck(const char *call, long ret)\n{\n"
		            "\tif (ret == -1)\n\t\tperror(call);\n}\n");
	}
	if (program_uses(all, "check_rc")) {
		program_add(b, 0, "/* Report a failed call that returns its error number. */");
		program_add(b, 0, "static void\ncheck_rc(const char *call, int rc)\n{\n"
		            "\tif (rc != 0)\n\t\tfprintf(stderr, \"%%s: %%s\\n\", call, strerror(rc));\n"
		            "}\n");
	}
	if (program_uses(all, "nap") || program_uses(all, "wait_clean")) {
		program_add(b, 0, "/* Sleep ms milliseconds. */");
		program_add(b, 0, "static void\nnap(unsigned ms)\n{\n"
		            "\tstruct timespec ts = { ms / 1000, (long)(ms %% 1000) * 1000000L };\n\n"
		            "\twhile (nanosleep(&ts, &ts) == -1 && errno == EINTR)\n\t\tcontinue;\n}\n");
	}
	if (program_uses(all, "wait_clean")) {
		program_add(b, 0, "#ifndef SYS_cachestat\n#define SYS_cachestat 451   /* Linux 6.5; the"
		            " same number on every architecture */\n#endif\n");
		program_add(b, 0, "/*\n * Wait until no page of fd's file is dirty or under writeback,"
		            " at most s seconds:\n * cachestat(2) tells, every 100 ms. Without it, sleep"
		            " the s seconds.\n */");
		program_add(b, 0, "static void\nwait_clean(int fd, unsigned s)\n{\n"
		            "\tstruct { unsigned long long off, len; } range = { 0, 0 };\n"
		            "\tstruct { unsigned long long cache, dirty, writeback, evicted, recent; } cs;\n\n"
		            "\tfor (unsigned i = 0; i < s * 10; i++) {\n"
		            "\t\tif (syscall(SYS_cachestat, fd, &range, &cs, 0) == -1) {\n"
		            "\t\t\tnap((s * 10 - i) * 100);\n\t\t\treturn;\n\t\t}\n"
		            "\t\tif (cs.dirty == 0 && cs.writeback == 0)\n\t\t\treturn;\n"
		            "\t\tnap(100);\n\t}\n}\n");
	}
	if (program_uses(all, "tail")) {
		program_add(b, 0, "/*\n * Exercise 13-5: print the last n lines of fd, reading backwards in"
		            " blocks of\n * block bytes (aligned to multiples of block): lseek() to the end,"
		            " then\n * lseek() and read() each block until n newlines are found.\n */");
		program_add(b, 0, "static void\ntail(int fd, unsigned long n, size_t block)\n{\n"
		            "\toff_t size = lseek(fd, 0, SEEK_END), end = size, from = -1;\n"
		            "\tunsigned long newlines = 0;\n\tchar *data;\n\n"
		            "\tif (size == -1 || (data = malloc((size_t)size + 1)) == NULL) {\n"
		            "\t\tperror(\"tail\");\n\t\treturn;\n\t}\n"
		            "\tif (n == 0)\n\t\tfrom = size;\n"
		            "\twhile (from < 0 && end > 0) {\n"
		            "\t\toff_t start = (end - 1) / (off_t)block * (off_t)block;\n"
		            "\t\tsize_t want = (size_t)(end - start), got = 0;\n\n"
		            "\t\tif (lseek(fd, start, SEEK_SET) == -1)\n\t\t\tbreak;\n"
		            "\t\twhile (got < want) {\n"
		            "\t\t\tssize_t r = read(fd, data + start + got, want - got);\n"
		            "\t\t\tif (r <= 0)\n\t\t\t\tbreak;\n\t\t\tgot += (size_t)r;\n\t\t}\n"
		            "\t\tif (got != want)\n\t\t\tbreak;\n"
		            "\t\t/* The newline that ends the last line separates no lines. */\n"
		            "\t\tfor (size_t i = want; i-- > 0;)\n"
		            "\t\t\tif (data[start + (off_t)i] == '\\n' && start + (off_t)i != size - 1 &&\n"
		            "\t\t\t    ++newlines == n) {\n"
		            "\t\t\t\tfrom = start + (off_t)i + 1;\n\t\t\t\tbreak;\n\t\t\t}\n"
		            "\t\tend = start;\n\t}\n"
		            "\tif (from < 0)\n\t\tfrom = end > 0 ? end : 0;\n"
		            "\tfwrite(data + from, 1, (size_t)(size - from), stdout);\n"
		            "\tfree(data);\n}\n");
	}
	if (program_uses(all, "ex13_4")) {
		program_add(b, 0, "enum between { BETWEEN_NOTHING, BETWEEN_FFLUSH, BETWEEN_UNBUFFERED };\n");
		program_add(b, 0, "/* Exercise 13-4's snippet, in a child whose stdout is out. */");
		program_add(b, 0, "static void\nsnippet(int out, const char *p, const char *w, enum between how)\n{\n"
		            "\tpid_t pid = fork();\n\n"
		            "\tif (pid == 0) {\n"
		            "\t\tdup2(out, STDOUT_FILENO);\n"
		            "\t\tif (how == BETWEEN_UNBUFFERED)\n"
		            "\t\t\tsetvbuf(stdout, NULL, _IONBF, 0);\n"
		            "\t\tprintf(\"%%s\", p);\n"
		            "\t\tif (how == BETWEEN_FFLUSH)\n\t\t\tfflush(stdout);\n"
		            "\t\tif (write(STDOUT_FILENO, w, strlen(w)) == -1)\n\t\t\t_exit(1);\n"
		            "\t\texit(0);   /* exit(), not _exit(): it flushes stdout */\n\t}\n"
		            "\tif (pid > 0)\n\t\twaitpid(pid, NULL, 0);\n}\n");
		program_add(b, 0, "/*\n * Exercise 13-4: printf() then write(), with stdout on a terminal"
		            " (a pty:\n * line buffered) and on a file (fully buffered). Prints both"
		            " outputs.\n */");
		program_add(b, 0, "static void\nex13_4(const char *p, const char *w, enum between how)\n{\n"
		            "\tchar name[] = \"/tmp/ex13_4.XXXXXX\", got[4096];\n"
		            "\tint master, slave, file;\n\tssize_t n;\n\n"
		            "\tfflush(stdout);\n"
		            "\tif (openpty(&master, &slave, NULL, NULL, NULL) == 0) {\n"
		            "\t\tstruct termios tio;\n\n"
		            "\t\t/* Show what was written: no \\r added before each \\n. */\n"
		            "\t\tif (tcgetattr(slave, &tio) == 0) {\n"
		            "\t\t\ttio.c_oflag &= ~(tcflag_t)OPOST;\n"
		            "\t\t\ttcsetattr(slave, TCSANOW, &tio);\n\t\t}\n"
		            "\t\tsnippet(slave, p, w, how);\n\t\tclose(slave);\n"
		            "\t\tfputs(\"on a terminal:\\n\", stdout);\n\t\tfflush(stdout);\n"
		            "\t\twhile ((n = read(master, got, sizeof got)) > 0)\n"
		            "\t\t\tif (write(STDOUT_FILENO, got, (size_t)n) == -1)\n\t\t\t\tbreak;\n"
		            "\t\tclose(master);\n\t}\n"
		            "\tif ((file = mkstemp(name)) >= 0) {\n"
		            "\t\tunlink(name);\n\t\tsnippet(file, p, w, how);\n"
		            "\t\tfputs(\"on a file:\\n\", stdout);\n\t\tfflush(stdout);\n"
		            "\t\twhile ((n = pread(file, got, sizeof got, 0)) > 0) {\n"
		            "\t\t\tif (write(STDOUT_FILENO, got, (size_t)n) == -1)\n\t\t\t\tbreak;\n"
		            "\t\t\tbreak;\n\t\t}\n\t\tclose(file);\n\t}\n}\n");
	}
}

/* The file iobufviz starts a run with: made apart from the lesson. */
static void
program_prepare(struct program_build *b)
{
	program_add(b, 0, "/*\n * Not part of the lesson: make the file the lesson starts with, as"
	            " iobufviz does:\n * size bytes of numbered lines (\"line 000001\\n\"...; the last"
	            " one cut, still\n * ending in a newline) or of zeros, synced and dropped from the"
	            " page cache.\n * O_CLOEXEC marks these calls apart in a trace: no lesson step"
	            " uses it.\n */");
	program_add(b, 0, "static void\nprepare(const char *path, unsigned long long size, int zeros)\n{\n"
	            "\tint fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);\n"
	            "\tunsigned long long left = size, lineno = 1;\n"
	            "\tstatic char chunk[1 << 20];\n\n"
	            "\tif (fd == -1) {\n\t\tperror(path);\n\t\texit(1);\n\t}\n"
	            "\twhile (left > 0) {\n"
	            "\t\tsize_t n = 0;\n\n"
	            "\t\twhile (n < sizeof chunk && n < left) {\n"
	            "\t\t\tchar line[32];\n"
	            "\t\t\tsize_t len = (size_t)snprintf(line, sizeof line, \"line %%06llu\\n\", lineno++);\n\n"
	            "\t\t\tif (zeros) {\n"
	            "\t\t\t\tn = left < sizeof chunk ? (size_t)left : sizeof chunk;\n"
	            "\t\t\t\tmemset(chunk, 0, n);\n\t\t\t\tbreak;\n\t\t\t}\n"
	            "\t\t\tif (len > left - n) {          /* the last line: cut, with its newline */\n"
	            "\t\t\t\tlen = (size_t)(left - n);\n\t\t\t\tline[len - 1] = '\\n';\n\t\t\t}\n"
	            "\t\t\tif (len > sizeof chunk - n)\n\t\t\t\tbreak;\n"
	            "\t\t\tmemcpy(chunk + n, line, len);\n\t\t\tn += len;\n\t\t}\n"
	            "\t\tif (write(fd, chunk, n) != (ssize_t)n) {\n"
	            "\t\t\tperror(\"prepare\");\n\t\t\texit(1);\n\t\t}\n"
	            "\t\tleft -= n;\n\t}\n"
	            "\tif (size > 0)\n\t\tfsync(fd);\n"
	            "\tposix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);\n"
	            "\tclose(fd);\n}\n");
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
		if (s->steps[i].op != SCN_OP_SWEEP || sw == NULL)
			continue;
		for (size_t k = 0; k < sw->n_buffer_sizes; k++)
			if (sw->buffer_sizes[k] > most)
				most = sw->buffer_sizes[k];
		syncs |= !program_sweep_reads(sw->program) || sw->program == SCN_PROG_COPY;
	}
	program_add(b, 0, "/* The sweeps' sizes, or cc -DFILE_SIZE=n -DBUF_SIZE=n for a short run"
	            " of one size. */\n#ifdef FILE_SIZE\n#define SIZE(n) ((unsigned long long)"
	            "FILE_SIZE)\n#else\n#define SIZE(n) (n)\n#endif\n#ifdef BUF_SIZE\n"
	            "#define BUF_SIZES(...) BUF_SIZE\n#else\n#define BUF_SIZES(...) __VA_ARGS__\n"
	            "#endif\n");
	program_add(b, 0, "/* A variant: extra open flags, and what follows each write (1 fsync,"
	            " 2 fdatasync). */\nstruct variant {\n\tconst char *name;\n\tint flags;\n"
	            "\tint sync_each;\n};\n");
	program_add(b, 0, "/* The user buffer: BUF_SIZE bytes at most, aligned for O_DIRECT. */\n"
	            "static _Alignas(4096) char buf[%" PRIu64 "];\n", (most + 4095) / 4096 * 4096);
	if (syncs) {
		program_add(b, 0, "/* Follow a write with what the variant asks for. */");
		program_add(b, 0, "static int\nsync_each(const struct variant *v, int fd)\n{\n"
		            "\treturn v->sync_each == 1 ? fsync(fd) : v->sync_each == 2 ? fdatasync(fd) : 0;\n"
		            "}\n");
	}
}

/* One run of a sweep's program (runN in the program). */
static void
program_sweep_run(struct program_build *b, const struct scn_sweep *sw, int n)
{
	enum scn_program pr = sw->program;
	bool stdio = pr == SCN_PROG_FWRITE || pr == SCN_PROG_FREAD || pr == SCN_PROG_FREAD_SETVBUF;
	static const char open_out[] = "if ((to = open(out, O_WRONLY | O_CREAT | O_TRUNC | v->flags,"
	                               " 0600)) == -1)\n\treturn -1;";
	static const char want[] = "\tsize_t want = size - done < bs ? (size_t)(size - done) : bs;\n\n";

	program_add(b, 0, "/* One run with buffer size bs: 0, or -1 with errno. */");
	program_add(b, 0, "static int\nrun%d(const char *path, const char *out, const struct variant *v,"
	            " size_t bs,\n      unsigned long long size)\n{", n);
	program_add(b, 1, "unsigned long long done = 0;");
	if (stdio)
		program_add(b, 1, "FILE *fp;");
	if (pr == SCN_PROG_FREAD_SETVBUF)
		program_add(b, 1, "static char vbuf[65536];");
	program_add(b, 1, "ssize_t n;\nint in, to;\n");
	switch (pr) {
	case SCN_PROG_COPY:
		program_add(b, 1, "if ((in = open(path, O_RDONLY)) == -1)\n\treturn -1;");
		program_add(b, 1, "%s", open_out);
		program_add(b, 1, "while (done < size && (n = read(in, buf, bs)) > 0) {\n"
		            "\tif (write(to, buf, (size_t)n) != n || sync_each(v, to) == -1)\n"
		            "\t\treturn -1;\n\tdone += (unsigned long long)n;\n}\n"
		            "close(in);\nreturn close(to);");
		break;
	case SCN_PROG_WRITE:
		program_add(b, 1, "(void)path;\n(void)in;\n(void)n;");
		program_add(b, 1, "%s", open_out);
		program_add(b, 1, "for (; done < size; done += bs) {\n%s"
		            "\tif (write(to, buf, want) != (ssize_t)want || sync_each(v, to) == -1)\n"
		            "\t\treturn -1;\n}\nreturn close(to);", want);
		break;
	case SCN_PROG_READ:
		program_add(b, 1, "(void)out;");
		program_add(b, 1, "if ((in = open(path, O_RDONLY | v->flags)) == -1)\n\treturn -1;");
		program_add(b, 1, "if ((to = open(\"/dev/null\", O_WRONLY)) == -1)\n\treturn -1;");
		program_add(b, 1, "while (done < size && (n = read(in, buf, bs)) > 0) {\n"
		            "\tif (write(to, buf, (size_t)n) != n)\n\t\treturn -1;\n"
		            "\tdone += (unsigned long long)n;\n}\nclose(to);\nreturn close(in);");
		break;
	case SCN_PROG_FWRITE:
		program_add(b, 1, "(void)path;\n(void)in;\n(void)n;");
		program_add(b, 1, "%s\nif ((fp = fdopen(to, \"w\")) == NULL)\n\treturn -1;", open_out);
		program_add(b, 1, "for (; done < size; done += bs) {\n%s"
		            "\tif (fwrite(buf, 1, want, fp) != want)\n\t\treturn -1;\n"
		            "\tif (v->sync_each && (fflush(fp) != 0 || sync_each(v, to) == -1))\n"
		            "\t\treturn -1;\n}\nreturn fclose(fp);", want);
		break;
	case SCN_PROG_OVERWRITE:
		program_add(b, 1, "(void)path;\n(void)in;\n(void)n;");
		program_add(b, 1, "if ((to = open(out, O_RDWR | v->flags)) == -1)\n\treturn -1;");
		program_add(b, 1, "for (; done < size; done += bs) {\n%s"
		            "\tif (pwrite(to, buf, want, (off_t)done) != (ssize_t)want ||\n"
		            "\t    sync_each(v, to) == -1)\n\t\treturn -1;\n}\nreturn close(to);", want);
		break;
	case SCN_PROG_FREAD:
	case SCN_PROG_FREAD_SETVBUF:
		program_add(b, 1, "(void)out;\n(void)to;");
		program_add(b, 1, "if ((in = open(path, O_RDONLY | v->flags)) == -1)\n\treturn -1;\n"
		            "if ((fp = fdopen(in, \"r\")) == NULL)\n\treturn -1;");
		if (pr == SCN_PROG_FREAD_SETVBUF)
			program_add(b, 1, "if (setvbuf(fp, vbuf, _IOFBF, sizeof vbuf) != 0)\n\treturn -1;");
		program_add(b, 1, "while (done < size) {\n%s"
		            "\tif ((n = (ssize_t)fread(buf, 1, want, fp)) == 0)\n\t\tbreak;\n"
		            "\tdone += (unsigned long long)n;\n}\nreturn fclose(fp);", want);
		break;
	}
	program_add(b, 0, "}\n");
}

/* The sweep of step st as a timed loop over its variants and buffer sizes (sweepN). */
static void
program_sweep_fn(struct program_build *b, const struct scn_step *st)
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
	int n = st->line;
	char fl[160];

	program_add(b, 0, "/* Sweep (scenario line %d): its buffer sizes and variants. */", n);
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
		char e[128];
		program_add(b, 1, "{ \"%s\", %s, %d },", emit_c_string(v->name, e, sizeof e),
		            v->flags ? decode_open_flag_bits(v->flags, fl, sizeof fl) : "0",
		            v->sync_each == SCN_SYNC_FSYNC ? 1 :
		            v->sync_each == SCN_SYNC_FDATASYNC ? 2 : 0);
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

/* Make the program of s. */
struct program *
program_new(const struct scenario *s)
{
	struct program_build b = { 0 };
	const struct scn_step *sweep = program_sweep(s);
	char **steps = program_steps(s);
	size_t total = 1;
	char *all, title[256], src[256];
	bool any_fd = false, any_fp = false;

	if (steps == NULL)
		return NULL;
	b.p = calloc(1, sizeof *b.p);
	for (size_t i = 0; i < s->n_steps; i++)
		total += strlen(steps[i]) + 1;
	all = malloc(total);
	if (b.p == NULL || all == NULL)
		goto fail;
	all[0] = '\0';
	for (size_t i = 0; i < s->n_steps; i++) {
		strcat(all, steps[i]);
		strcat(all, "\n");
	}
	b.p->n_steps = s->n_steps;
	b.p->first = calloc(s->n_steps + 1, sizeof *b.p->first);
	b.p->last = calloc(s->n_steps + 1, sizeof *b.p->last);
	if (b.p->first == NULL || b.p->last == NULL)
		goto fail;
	any_fd = program_uses(all, "fd");
	any_fp = program_uses(all, "fp");

	emit_c_string(s->title, title, sizeof title);
	emit_c_string(s->source, src, sizeof src);
	program_add(&b, 0, "/*\n * %s%s%s%s", title, s->source ? " (" : "", s->source ? src : "",
	            s->source ? ")" : "");
	program_add(&b, 0, " * The scenario as one program, made by iobufviz --export=c: the same"
	            " calls,\n * in the same order, with the same sizes, flags and buffers.\n"
	            " * Build: cc -std=c11 -Wall -Wextra -o lesson lesson/lesson.c\n"
	            " * Run:   ./lesson FILE   (FILE is made afresh: its contents are lost)\n */");
	program_add(&b, 0, "#define _GNU_SOURCE     /* O_DIRECT, sync_file_range(), fallocate(),"
	            " setbuffer() */\n");
	program_add(&b, 0, "#include <errno.h>\n#include <fcntl.h>\n#include <stdio.h>\n"
	            "#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n#include <unistd.h>");
	if (program_uses(all, "wait_clean"))
		program_add(&b, 0, "#include <sys/syscall.h>");
	if ((program_uses(all, "execvp") || program_uses(all, "wait")) &&
	    !program_uses(all, "ex13_4"))
		program_add(&b, 0, "#include <sys/wait.h>        /* waitpid() */");
	if (program_uses(all, "ex13_4"))
		program_add(&b, 0, "#include <pty.h>            /* openpty(): in libc since glibc 2.34 */\n"
		            "#include <sys/wait.h>");
	program_add(&b, 0, "");
	if (program_uses(all, "wbuf"))
		program_add(&b, 0, "/* What writes write: \"abcdefghijklmnopqrstuvwxyz\" repeating."
		            " Aligned for O_DIRECT. */\nstatic _Alignas(4096) char wbuf[%" PRIu64 "];",
		            program_buf_size(s, false));
	if (program_uses(all, "rbuf"))
		program_add(&b, 0, "/* Where reads read to. */\nstatic _Alignas(4096) char rbuf[%" PRIu64
		            "];", program_buf_size(s, true));
	for (size_t i = 0; i < s->n_steps; i++) {
		size_t own = emit_own_buffer_size(&s->steps[i]);
		if (own > 0)
			program_add(&b, 0, "/* An own stdio buffer (scenario line %d): static, never a"
			            " local array. */\nstatic char vbuf%d[%zu];", s->steps[i].line,
			            s->steps[i].line, own);
	}
	if (b.p->n_lines > 0 && b.p->lines[b.p->n_lines - 1][0] != '\0')
		program_add(&b, 0, "");
	program_helpers(&b, all);
	program_prepare(&b);
	if (sweep != NULL)
		program_sweep_common(&b, s);
	for (size_t i = 0; i < s->n_steps; i++)
		if (s->steps[i].op == SCN_OP_SWEEP && s->steps[i].sweep != NULL)
			program_sweep_fn(&b, &s->steps[i]);

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
		if (program_uses(all, id))
			program_add(&b, 1, "int %s = -1;", id);
		snprintf(id, sizeof id, "fp_%s", s->steps[i].name);
		if (program_uses(all, id))
			program_add(&b, 1, "FILE *%s = NULL;", id);
	}
	program_add(&b, 0, "");
	program_add(&b, 1, "if (argc != 2) {\n\tfprintf(stderr, \"usage: %%s FILE\\n\", argv[0]);\n"
	            "\treturn 2;\n}\npath = argv[1];");
	if (program_uses(all, "wbuf"))
		program_add(&b, 1, "for (size_t i = 0; i < sizeof wbuf; i++)\n"
		            "\twbuf[i] = \"abcdefghijklmnopqrstuvwxyz\"[i %% 26];");
	program_add(&b, 1, "prepare(path, %" PRIu64 ", %d);   /* not part of the lesson */\n",
	            s->file.size, s->file.fill == SCN_FILL_ZERO);
	program_add(&b, 1, "/* The lesson. */");
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_step *st = &s->steps[i];
		bool fileno_next = false;

		b.p->first[i] = b.p->n_lines;
		program_add(&b, 1, "%s", steps[i]);
		/* As the worker does: after fopen() the stream's fd is the current one. */
		if (st->op == SCN_OP_FOPEN && st->handle == 0) {
			for (size_t k = i + 1; k < s->n_steps; k++) {
				enum scn_op op = s->steps[k].op;
				if (s->steps[k].handle != 0) /* a named pair's step: not fd's */
					continue;
				if (op == SCN_OP_FILENO || op == SCN_OP_OPEN || op == SCN_OP_FOPEN)
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
	for (size_t i = 0; i < s->n_steps; i++)
		free(steps[i]);
	free(steps);
	free(all);
	return b.p;
fail:
	for (size_t i = 0; i < s->n_steps; i++)
		free(steps[i]);
	free(steps);
	free(all);
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
