/* SPDX-License-Identifier: MIT */
/* engine/ops-stdio.c: the ops that act through the FILE*: fopen ... fclose, setvbuf and its kin,
 * each making the real stdio call on the scratch file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/decode.h"
#include "engine/ops-int.h"
#include "scenario/scenario.h"

/*
 * The mode for fdopen when none is given: what the fd was opened with. From our own
 * record, not fcntl(F_GETFL): a call of ours would show among the student's calls.
 */
static const char *
ops_mode_for_flags(int fl)
{
	if ((fl & O_ACCMODE) == O_WRONLY)
		return (fl & O_APPEND) ? "a" : "w";
	if ((fl & O_ACCMODE) == O_RDWR)
		return (fl & O_APPEND) ? "a+" : "r+";
	return "r";
}

/* fopen(path, mode): a new FILE* and its fd become current. */
void
ops_fopen(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	const char *mode = a->mode[0] ? a->mode : "r+";
	FILE *fp;

	OPS_TIMED(out, fp = fopen(a->file != NULL ? a->file : st->path, mode));
	if (fp == NULL) {
		ops_set(out, -1);
		return;
	}
	st->fp = fp;
	st->fd = fileno(fp);
	st->fd_open = true;
	st->direct = false;
	out->ret = st->fd;
	out->err = 0;
}

/* fdopen(fd, mode): a FILE* on the current fd. */
void
ops_fdopen(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	const char *mode = a->mode[0] ? a->mode : ops_mode_for_flags(st->open_flags);
	FILE *fp;

	OPS_TIMED(out, fp = fdopen(st->fd, mode));
	if (fp == NULL) {
		ops_set(out, -1);
		return;
	}
	st->fp = fp;
	out->ret = fileno(fp);
	out->err = 0;
}

/* fileno(fp): the FILE*'s fd becomes current. */
void
ops_fileno(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int fd;

	(void)a;
	if (ops_no_file(st, out))
		return;
	OPS_TIMED(out, fd = fileno(st->fp));
	ops_set(out, fd);
	if (fd >= 0) {
		st->fd = fd;
		st->fd_open = true;
	}
}

/* setvbuf(fp, buf, mode, size): buf is ours (malloc'd, freed after fclose) or NULL. */
void
ops_setvbuf(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int mode = a->bufmode == SCN_BUF_NONE ? _IONBF :
	           a->bufmode == SCN_BUF_LINE ? _IOLBF : _IOFBF;
	size_t size = (a->has & SCN_HAS_SIZE) ? (size_t)a->size : BUFSIZ;
	/* buffer: library (the default) is NULL, and then glibc ignores size: a lesson. */
	bool own = a->buffer == SCN_BUFFER_OWN;
	char *buf = NULL;
	int rc;

	if (ops_no_file(st, out))
		return;
	if (mode == _IONBF) {
		own = false;
		size = 0;
	}
	if (own && (buf = ops_own_buffer(st, size)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, rc = setvbuf(st->fp, buf, mode, size));
	out->ret = rc;
	out->err = rc != 0 ? (errno ? errno : EINVAL) : 0;
}

/*
 * setbuf(fp, buf): buffer own is a BUFSIZ buffer of ours; library (the default) and none
 * pass NULL, as buffer: library does for setvbuf and setbuffer: setbuf(fp, NULL) makes
 * the stream unbuffered.
 */
void
ops_setbuf(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	bool none = (a->has & SCN_HAS_MODE) && a->bufmode == SCN_BUF_NONE;
	char *buf = NULL;

	if (ops_no_file(st, out))
		return;
	if (!none && a->buffer == SCN_BUFFER_OWN && (buf = ops_own_buffer(st, BUFSIZ)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, setbuf(st->fp, buf));
	out->ret = 0;
	out->err = 0;
}

/* setbuffer(fp, buf, size): an own buffer of size bytes, or NULL (library): unbuffered. */
void
ops_setbuffer(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	size_t size = (a->has & SCN_HAS_SIZE) ? (size_t)a->size : BUFSIZ;
	bool own = a->buffer == SCN_BUFFER_OWN;
	char *buf = NULL;

	if (ops_no_file(st, out))
		return;
	/*
	 * glibc uses only size bytes, but ASan's setbuffer() interceptor (GCC 12) marks
	 * BUFSIZ bytes as written whatever the size: allocate at least that much so that a
	 * sanitizer build does not kill the worker over a tiny own buffer.
	 */
	if (own && size > 0 && (buf = ops_own_buffer(st, size < BUFSIZ ? BUFSIZ : size)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, setbuffer(st->fp, buf, buf ? size : 0));
	out->ret = 0;
	out->err = 0;
}

/* After a short fwrite/fread: errno if the stream is in error, and say EOF. */
static void
ops_stream_status(struct ops_state *st, size_t want, size_t got, int e, struct ops_result *out)
{
	out->ret = (int64_t)got;
	out->err = 0;
	if (got < want && ferror(st->fp))
		out->err = e ? e : EIO;
	else if (got < want && feof(st->fp))
		snprintf(out->note, sizeof out->note, "end of file");
}

/* fwrite(buf, 1, bytes, fp) of the printable pattern. */
void
ops_fwrite(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	size_t n;

	if (ops_no_file(st, out))
		return;
	if ((buf = ops_buffer(st, a->bytes, a->align)) == NULL) {
		ops_set(out, -1);
		return;
	}
	ops_pattern(buf, a->bytes);
	OPS_TIMED(out, n = fwrite(buf, 1, a->bytes, st->fp));
	ops_stream_status(st, a->bytes, n, errno, out);
}

/* fputs(text, fp). */
void
ops_fputs(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	if (ops_no_file(st, out))
		return;
	OPS_TIMED(out, rc = fputs(a->text ? a->text : "", st->fp));
	out->ret = rc == EOF ? -1 : rc;
	out->err = rc == EOF ? (errno ? errno : EIO) : 0;
}

/* fprintf(fp, "%s", text). */
void
ops_printf(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	if (ops_no_file(st, out))
		return;
	OPS_TIMED(out, rc = fprintf(st->fp, "%s", a->text ? a->text : ""));
	out->ret = rc;
	out->err = rc < 0 ? (errno ? errno : EIO) : 0;
}

/* fread(buf, 1, bytes, fp). */
void
ops_fread(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	unsigned char *buf;
	size_t n;

	if (ops_no_file(st, out))
		return;
	if ((buf = ops_buffer(st, a->bytes, a->align)) == NULL) {
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, n = fread(buf, 1, a->bytes, st->fp));
	ops_stream_status(st, a->bytes, n, errno, out);
}

/* fgets(buf, bytes (default 4096), fp): ret = length of the line read, 0 at EOF. */
void
ops_fgets(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	size_t size = (a->has & SCN_HAS_BYTES) && a->bytes > 0 ? a->bytes : 4096;
	unsigned char *buf;
	char *s;

	if (ops_no_file(st, out))
		return;
	if (size > INT32_MAX || (buf = ops_buffer(st, size, 0)) == NULL) {
		errno = size > INT32_MAX ? EINVAL : errno;
		ops_set(out, -1);
		return;
	}
	OPS_TIMED(out, s = fgets((char *)buf, (int)size, st->fp));
	if (s != NULL) {
		out->ret = (int64_t)strlen(s);
		out->err = 0;
	} else if (ferror(st->fp)) {
		out->ret = -1;
		out->err = errno ? errno : EIO;
	} else {
		out->ret = 0;
		out->err = 0;
		snprintf(out->note, sizeof out->note, "end of file");
	}
}

/* fflush(fp). */
void
ops_fflush(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	(void)a;
	if (ops_no_file(st, out))
		return;
	OPS_TIMED(out, rc = fflush(st->fp));
	out->ret = rc == 0 ? 0 : -1;
	out->err = rc == 0 ? 0 : (errno ? errno : EIO);
}

/* fseek(fp, offset, whence). */
void
ops_fseek(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	int rc;

	if (ops_no_file(st, out))
		return;
	OPS_TIMED(out, rc = fseeko(st->fp, a->offset,
	                           (a->has & SCN_HAS_WHENCE) ? a->whence : SEEK_SET));
	ops_set(out, rc);
}

/* fclose(fp): the FILE* is gone whatever it returns; so is its fd if it was current. */
void
ops_fclose(struct ops_state *st, const struct scn_args *a, struct ops_result *out)
{
	void *mine[OPS_MAX_BUFS];
	size_t k = 0, n = 0;
	int fd, rc;

	(void)a;
	if (ops_no_file(st, out))
		return;
	fd = fileno(st->fp);
	/* This stream's own buffers, freed once it is closed; another named stream's stay. */
	for (size_t i = 0; i < st->n_bufs; i++) {
		if (st->buf_fp[i] == st->fp) {
			mine[n++] = st->bufs[i];
			continue;
		}
		st->bufs[k] = st->bufs[i];
		st->buf_fp[k++] = st->buf_fp[i];
	}
	st->n_bufs = k;
	OPS_TIMED(out, rc = fclose(st->fp));
	out->ret = rc == 0 ? 0 : -1;
	out->err = rc == 0 ? 0 : (errno ? errno : EIO);
	st->fp = NULL;
	if (fd == st->fd)
		st->fd_open = false;
	for (size_t i = 0; i < n; i++)
		free(mine[i]);
}
