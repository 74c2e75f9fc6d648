/* SPDX-License-Identifier: MIT */
/* export/emit.c: each op as the C statements of a whole program, making the calls the worker makes. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace/decode.h"
#include "export/emit.h"
#include "scenario/scenario.h"

/* Write s escaped for a C string literal. */
char *
emit_c_string(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s != NULL && *s != '\0' && n + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			n += (size_t)snprintf(buf + n, len - n, "\\n");
		else if (c == '\t')
			n += (size_t)snprintf(buf + n, len - n, "\\t");
		else if (c == '"' || c == '\\')
			n += (size_t)snprintf(buf + n, len - n, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(buf + n, len - n, "\\%03o", c);
		else
			buf[n++] = (char)c;
	}
	if (len > 0)
		buf[n < len ? n : len - 1] = '\0';
	return buf;
}

/* The buffer argument: name, or name + skew for a misaligned O_DIRECT buffer. */
static const char *
emit_buf(const struct scn_args *a, const char *name, char *buf, size_t len)
{
	if (a->align > 0)
		snprintf(buf, len, "%s + %u", name, a->align);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/* A transfer on fd from or to name (skewed as the step says), with pread/pwrite's offset. */
static void
emit_transfer(const struct scn_step *st, const char *call, const char *name, char *buf,
              size_t len)
{
	const struct scn_args *a = &st->args;
	char b[32], off[32] = "";

	char t[512];

	if (call[0] == 'p')
		snprintf(off, sizeof off, ", %" PRId64, a->offset);
	if (a->has & SCN_HAS_TEXT) /* write/pwrite of a text: the literal, its length */
		snprintf(buf, len, "check(\"%s\", %s(fd, \"%s\", %zu%s));", call, call,
		         emit_c_string(a->text, t, sizeof t), strlen(a->text), off);
	else
		snprintf(buf, len, "check(\"%s\", %s(fd, %s, %" PRIu64 "%s));", call, call,
		         emit_buf(a, name, b, sizeof b), a->bytes, off);
}

/* fwrite or fread of the step's bytes through fp; a short count with an error is reported. */
static void
emit_stdio_transfer(const struct scn_step *st, const char *call, const char *name, char *buf,
                    size_t len)
{
	const struct scn_args *a = &st->args;
	char b[32];

	snprintf(buf, len, "if (%s(%s, 1, %" PRIu64 ", fp) < %" PRIu64 " && ferror(fp))\n"
	         "\tperror(\"%s\");", call, emit_buf(a, name, b, sizeof b), a->bytes, a->bytes, call);
}

/* A call on fd alone (fsync, fdatasync, close). */
static void
emit_fd_call(const char *call, char *buf, size_t len)
{
	snprintf(buf, len, "check(\"%s\", %s(fd));", call, call);
}

/* Size of the own stdio buffer a step needs (what engine/ops.c passes to stdio); 0: none. */
size_t
emit_own_buffer_size(const struct scn_step *st)
{
	const struct scn_args *a = &st->args;

	if (a->buffer != SCN_BUFFER_OWN)
		return 0;
	switch (st->op) {
	case SCN_OP_SETVBUF:
		if (a->bufmode == SCN_BUF_NONE)
			return 0;
		return (a->has & SCN_HAS_SIZE) ? (size_t)a->size : BUFSIZ;
	case SCN_OP_SETBUF:
		return (a->has & SCN_HAS_MODE) && a->bufmode == SCN_BUF_NONE ? 0 : BUFSIZ;
	case SCN_OP_SETBUFFER:
		return (a->has & SCN_HAS_SIZE) ? (size_t)a->size : BUFSIZ;
	default:
		return 0;
	}
}

/* open as C. */
void
emit_open(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char fl[160];

	snprintf(buf, len, "fd = open(path, %s, 0600);\ncheck(\"open\", fd);",
	         decode_open_flags(a->flags, fl, sizeof fl));
}

/* fopen as C. */
void
emit_fopen(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "fp = fopen(path, \"%s\");\nif (fp == NULL)\n\tperror(\"fopen\");",
	         a->mode[0] ? a->mode : "r+");
}

/* fdopen as C. */
void
emit_fdopen(const struct scn_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "fp = fdopen(fd, \"%s\");\nif (fp == NULL)\n\tperror(\"fdopen\");",
	         st->args.mode);
}

/* fileno as C. */
void
emit_fileno(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "fd = fileno(fp);");
}

/* setvbuf as C: its own buffer is vbufN, N the step's scenario line. */
void
emit_setvbuf(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	size_t own = emit_own_buffer_size(st);
	char name[32] = "NULL";

	if (own > 0)
		snprintf(name, sizeof name, "vbuf%d", st->line);
	snprintf(buf, len, "if (setvbuf(fp, %s, %s, %zu) != 0)\n\tfputs(\"setvbuf failed\\n\", stderr);",
	         name, a->bufmode == SCN_BUF_NONE ? "_IONBF" :
	         a->bufmode == SCN_BUF_LINE ? "_IOLBF" : "_IOFBF",
	         a->bufmode == SCN_BUF_NONE ? (size_t)0 :
	         (a->has & SCN_HAS_SIZE) ? (size_t)a->size : (size_t)BUFSIZ);
}

/* setbuf as C. */
void
emit_setbuf(const struct scn_step *st, char *buf, size_t len)
{
	if (emit_own_buffer_size(st) > 0)
		snprintf(buf, len, "setbuf(fp, vbuf%d);", st->line);
	else
		snprintf(buf, len, "setbuf(fp, NULL);");
}

/* setbuffer as C. */
void
emit_setbuffer(const struct scn_step *st, char *buf, size_t len)
{
	size_t own = emit_own_buffer_size(st);

	if (own > 0)
		snprintf(buf, len, "setbuffer(fp, vbuf%d, %zu);", st->line, own);
	else
		snprintf(buf, len, "setbuffer(fp, NULL, 0);");
}

/* fwrite as C. */
void
emit_fwrite(const struct scn_step *st, char *buf, size_t len)
{
	emit_stdio_transfer(st, "fwrite", "wbuf", buf, len);
}

/* fputs as C. */
void
emit_fputs(const struct scn_step *st, char *buf, size_t len)
{
	char t[512];

	snprintf(buf, len, "if (fputs(\"%s\", fp) == EOF)\n\tperror(\"fputs\");",
	         emit_c_string(st->args.text, t, sizeof t));
}

/* printf as C. */
void
emit_printf(const struct scn_step *st, char *buf, size_t len)
{
	char t[512];

	snprintf(buf, len, "if (fprintf(fp, \"%%s\", \"%s\") < 0)\n\tperror(\"fprintf\");",
	         emit_c_string(st->args.text, t, sizeof t));
}

/* fread as C. */
void
emit_fread(const struct scn_step *st, char *buf, size_t len)
{
	emit_stdio_transfer(st, "fread", "rbuf", buf, len);
}

/* fgets as C. */
void
emit_fgets(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	uint64_t size = (a->has & SCN_HAS_BYTES) && a->bytes > 0 ? a->bytes : 4096;

	snprintf(buf, len, "if (fgets(rbuf, %" PRIu64 ", fp) == NULL && ferror(fp))\n"
	         "\tperror(\"fgets\");", size);
}

/* fflush as C. */
void
emit_fflush(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "if (fflush(fp) == EOF)\n\tperror(\"fflush\");");
}

/* fseek as C. */
void
emit_fseek(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "check(\"fseek\", fseek(fp, %" PRId64 ", %s));", a->offset,
	         decode_whence((a->has & SCN_HAS_WHENCE) ? a->whence : SEEK_SET));
}

/* fclose as C. */
void
emit_fclose(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "if (fclose(fp) == EOF)\n\tperror(\"fclose\");");
}

/* write as C. */
void
emit_write(const struct scn_step *st, char *buf, size_t len)
{
	emit_transfer(st, "write", "wbuf", buf, len);
}

/* read as C. */
void
emit_read(const struct scn_step *st, char *buf, size_t len)
{
	emit_transfer(st, "read", "rbuf", buf, len);
}

/* pread as C. */
void
emit_pread(const struct scn_step *st, char *buf, size_t len)
{
	emit_transfer(st, "pread", "rbuf", buf, len);
}

/* pwrite as C. */
void
emit_pwrite(const struct scn_step *st, char *buf, size_t len)
{
	emit_transfer(st, "pwrite", "wbuf", buf, len);
}

/* lseek as C. */
void
emit_lseek(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "check(\"lseek\", lseek(fd, %" PRId64 ", %s));", a->offset,
	         decode_whence((a->has & SCN_HAS_WHENCE) ? a->whence : SEEK_SET));
}

/* fsync as C. */
void
emit_fsync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	emit_fd_call("fsync", buf, len);
}

/* fdatasync as C. */
void
emit_fdatasync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	emit_fd_call("fdatasync", buf, len);
}

/* sync_file_range as C. */
void
emit_sync_file_range(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char fl[160];
	const char *names;

	decode_sync_file_range((unsigned)a->flags, a->len, fl, sizeof fl);
	names = strchr(fl, ',') != NULL ? strchr(fl, ',') + 2 : "0";
	snprintf(buf, len, "check(\"sync_file_range\", sync_file_range(fd, %" PRId64 ", %" PRIu64
	         ",\n\t%s));", (a->has & SCN_HAS_OFFSET) ? a->offset : 0, a->len, names);
}

/* sync as C. */
void
emit_sync(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "sync();");
}

/* posix_fadvise as C: it returns the error number instead of setting errno. */
void
emit_fadvise(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "check_rc(\"posix_fadvise\", posix_fadvise(fd, %" PRId64 ", %" PRIu64
	         ", %s));", (a->has & SCN_HAS_OFFSET) ? a->offset : 0, a->len,
	         decode_advice(a->advice));
}

/* fallocate as C. */
void
emit_fallocate(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "check(\"fallocate\", fallocate(fd, 0, %" PRId64 ", %" PRIu64 "));",
	         (a->has & SCN_HAS_OFFSET) ? a->offset : 0, a->len);
}

/* ftruncate as C. */
void
emit_ftruncate(const struct scn_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "check(\"ftruncate\", ftruncate(fd, %" PRIu64 "));", st->args.len);
}

/* close as C. */
void
emit_close(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	emit_fd_call("close", buf, len);
}

/* fcntl as C: F_GETFL's result is printed, F_SETFL's flags are the step's. */
void
emit_fcntl(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char fl[96];

	if (a->cmd == F_SETFL)
		snprintf(buf, len, "check(\"fcntl\", fcntl(fd, F_SETFL, %s));",
		         decode_open_flag_bits(a->flags, fl, sizeof fl));
	else
		snprintf(buf, len, "{\n\tint fl = fcntl(fd, F_GETFL);\n\n\tcheck(\"fcntl\", fl);\n"
		         "\tprintf(\"F_GETFL: %%#o\\n\", (unsigned)fl);\n}");
}

/* fork as C: the child ends at once (exit flushes its copy of the buffers, _exit drops it). */
void
emit_fork(const struct scn_step *st, char *buf, size_t len)
{
	const char *end = st->args.child_flushes ? "exit" : "_exit";

	snprintf(buf, len, "switch (fork()) {\ncase -1:\n\tperror(\"fork\");\n\tbreak;\n"
	         "case 0:\n\t%s(0);   /* the child: %s */\ndefault:\n\twait(NULL);\n}", end,
	         st->args.child_flushes ? "exit() flushes its copy of every stdio buffer" :
	         "_exit() drops its copy of every stdio buffer");
}

/* exit as C: the program's end, stdio flushed. */
void
emit_exit(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "exit(0);   /* flushes every stream */");
}

/* _exit as C: the program's end, stdio buffers lost. */
void
emit_uexit(const struct scn_step *st, char *buf, size_t len)
{
	(void)st;
	snprintf(buf, len, "_exit(0);   /* what stdio buffers hold is lost */");
}

/*
 * wait as C: a fixed time is a sleep; "until clean" waits for the kernel's own writeback,
 * asking cachestat(2) about the file as iobufviz's probe does (wait_clean() in the program).
 */
void
emit_wait(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	if (a->until_clean)
		snprintf(buf, len, "wait_clean(fd, %.0f);   /* until the kernel has written it back */",
		         a->timeout);
	else
		snprintf(buf, len, "nap(%u);   /* %.1f s: the kernel works meanwhile */",
		         (unsigned)(a->seconds * 1000.0 + 0.5), a->seconds);
}

/* pty as C: exercise 13-4's snippet, on a terminal and on a file (ex13_4() in the program). */
void
emit_pty(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char p[256], w[256];

	snprintf(buf, len, "ex13_4(\"%s\",\n\t\"%s\", %s);", emit_c_string(a->text, p, sizeof p),
	         emit_c_string(a->text2, w, sizeof w),
	         a->between == SCN_PTY_FFLUSH ? "BETWEEN_FFLUSH" :
	         a->between == SCN_PTY_UNBUFFERED ? "BETWEEN_UNBUFFERED" : "BETWEEN_NOTHING");
}

/* tail as C: exercise 13-5's loop (tail() in the program). */
void
emit_tail(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;

	snprintf(buf, len, "tail(fd, %" PRIu64 ", %zu);",
	         (a->has & SCN_HAS_LINES) ? a->lines : 10,
	         (a->has & SCN_HAS_SIZE) && a->size > 0 ? (size_t)a->size : (size_t)4096);
}

/* sweep as C: the timed loop of its program (sweepN() in the program, N its line). */
void
emit_sweep(const struct scn_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "sweep%d(path);", st->line);
}

/* run as C: fork, execvp the program (the scratch file's path for "{file}"), wait. */
void
emit_run(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	char s[256];
	size_t n;

	n = (size_t)snprintf(buf, len, "{\t/* run: the program, with the file's path for {file} */\n"
	                     "\tpid_t pid = fork();\n\n\tif (pid == 0) {\n");
	if (a->stdin_path != NULL && n < len)
		n += (size_t)snprintf(buf + n, len - n, "\t\tif (freopen(\"%s\", \"r\", stdin) == NULL)\n"
		                      "\t\t\t_exit(127);\n",
		                      emit_c_string(a->stdin_path, s, sizeof s));
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\t\talarm(%u);   /* its timeout */\n"
		                      "\t\texecvp(\"%s\", (char *[]){ \"%s\"",
		                      (unsigned)(a->timeout > 0 ? a->timeout + 0.5 : 60),
		                      emit_c_string(a->program ? a->program : "", s, sizeof s), s);
	for (size_t i = 0; i < a->n_argv && n < len; i++) {
		if (strcmp(a->argv[i], "{file}") == 0)
			n += (size_t)snprintf(buf + n, len - n, ", (char *)path");
		else
			n += (size_t)snprintf(buf + n, len - n, ", \"%s\"",
			                      emit_c_string(a->argv[i], s, sizeof s));
	}
	if (n < len)
		snprintf(buf + n, len - n, ", NULL });\n\t\t_exit(127);\n\t}\n"
		         "\tif (pid > 0)\n\t\twaitpid(pid, NULL, 0);\n}");
}

/* note as C: a comment, its text wrapped at 72 columns ("*" "/" in it broken apart). */
void
emit_note(const struct scn_step *st, char *buf, size_t len)
{
	const char *t = st->args.text != NULL ? st->args.text : "";
	size_t n = (size_t)snprintf(buf, len, "/*"), col = 2;

	while (*t != '\0' && n + 8 < len) {
		size_t w = strcspn(t, " \t\n");
		if (w == 0) {
			t++;
			continue;
		}
		if (col + 1 + w > 72 && col > 2) {
			n += (size_t)snprintf(buf + n, len - n, "\n *");
			col = 2;
		}
		if (n + w + 8 >= len)
			break;
		buf[n++] = ' ';
		for (size_t i = 0; i < w; i++) {
			buf[n++] = t[i];
			if (t[i] == '*' && t[i + 1] == '/')
				buf[n++] = ' ';
		}
		col += 1 + w;
		t += w;
	}
	snprintf(buf + n, len - n, "%s */", *t != '\0' ? " ..." : "");
}
