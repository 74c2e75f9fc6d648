/* SPDX-License-Identifier: MIT */
/* describe.c: a step as the line of C a student would write. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "describe.h"
#include "text.h"

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

/* The step as C. */
char *
describe_step(const struct scn_step *st, char *buf, size_t len)
{
	const struct scn_args *a = &st->args;
	const char *ownbuf = a->buffer == SCN_BUFFER_OWN ? "buf" : "NULL";
	char fl[160];

	switch (st->op) {
	case SCN_OP_OPEN:
		snprintf(buf, len, "fd = open(path, %s%s)", decode_open_flags(a->flags, fl, sizeof fl),
		         (a->flags & O_CREAT) ? ", 0600" : "");
		break;
	case SCN_OP_FOPEN: snprintf(buf, len, "fp = fopen(path, \"%s\")", a->mode); break;
	case SCN_OP_FDOPEN: snprintf(buf, len, "fp = fdopen(fd, \"%s\")", a->mode); break;
	case SCN_OP_FILENO: snprintf(buf, len, "fd = fileno(fp)"); break;
	case SCN_OP_SETVBUF:
		snprintf(buf, len, "setvbuf(fp, %s, %s, %" PRIu64 ")", ownbuf,
		         a->bufmode == SCN_BUF_NONE ? "_IONBF" :
		         a->bufmode == SCN_BUF_LINE ? "_IOLBF" : "_IOFBF", a->size);
		break;
	case SCN_OP_SETBUF:
		snprintf(buf, len, "setbuf(fp, %s)",
		         a->buffer == SCN_BUFFER_OWN && !((a->has & SCN_HAS_MODE) &&
		         a->bufmode == SCN_BUF_NONE) ? "buf" : "NULL");
		break;
	case SCN_OP_SETBUFFER:
		snprintf(buf, len, "setbuffer(fp, %s, %" PRIu64 ")", ownbuf,
		         a->buffer == SCN_BUFFER_OWN ? ((a->has & SCN_HAS_SIZE) ? a->size : BUFSIZ) : 0);
		break;
	case SCN_OP_FWRITE: snprintf(buf, len, "fwrite(buf, 1, %" PRIu64 ", fp)", a->bytes); break;
	case SCN_OP_FPUTS: snprintf(buf, len, "fputs(\"%.40s%s\", fp)", a->text ? a->text : "",
	                            a->text && strlen(a->text) > 40 ? "…" : ""); break;
	case SCN_OP_PRINTF: snprintf(buf, len, "fprintf(fp, \"%%s\", \"%.40s%s\")",
	                             a->text ? a->text : "",
	                             a->text && strlen(a->text) > 40 ? "…" : ""); break;
	case SCN_OP_FREAD: snprintf(buf, len, "fread(buf, 1, %" PRIu64 ", fp)", a->bytes); break;
	case SCN_OP_FGETS: snprintf(buf, len, "fgets(buf, %" PRIu64 ", fp)", a->bytes); break;
	case SCN_OP_FFLUSH: snprintf(buf, len, "fflush(fp)"); break;
	case SCN_OP_FSEEK:
		snprintf(buf, len, "fseek(fp, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
		break;
	case SCN_OP_FCLOSE: snprintf(buf, len, "fclose(fp)"); break;
	case SCN_OP_WRITE: snprintf(buf, len, "write(fd, buf, %" PRIu64 ")", a->bytes); break;
	case SCN_OP_READ: snprintf(buf, len, "read(fd, buf, %" PRIu64 ")", a->bytes); break;
	case SCN_OP_PREAD:
		snprintf(buf, len, "pread(fd, buf, %" PRIu64 ", %" PRId64 ")", a->bytes, a->offset);
		break;
	case SCN_OP_PWRITE:
		snprintf(buf, len, "pwrite(fd, buf, %" PRIu64 ", %" PRId64 ")", a->bytes, a->offset);
		break;
	case SCN_OP_LSEEK:
		snprintf(buf, len, "lseek(fd, %" PRId64 ", %s)", a->offset, decode_whence(a->whence));
		break;
	case SCN_OP_FSYNC: snprintf(buf, len, "fsync(fd)"); break;
	case SCN_OP_FDATASYNC: snprintf(buf, len, "fdatasync(fd)"); break;
	case SCN_OP_SYNC_FILE_RANGE:
		snprintf(buf, len, "sync_file_range(fd, %" PRId64 ", %" PRIu64 ", %s%s%s)",
		         a->offset, a->len,
		         a->flags & 1 ? "WAIT_BEFORE|" : "", a->flags & 2 ? "WRITE" : "",
		         a->flags & 4 ? "|WAIT_AFTER" : "");
		break;
	case SCN_OP_SYNC: snprintf(buf, len, "sync()"); break;
	case SCN_OP_FADVISE:
		snprintf(buf, len, "posix_fadvise(fd, %" PRId64 ", %" PRIu64 ", %s)", a->offset, a->len,
		         decode_advice(a->advice));
		break;
	case SCN_OP_FALLOCATE:
		snprintf(buf, len, "fallocate(fd, 0, %" PRId64 ", %" PRIu64 ")", a->offset, a->len);
		break;
	case SCN_OP_FTRUNCATE: snprintf(buf, len, "ftruncate(fd, %" PRIu64 ")", a->len); break;
	case SCN_OP_CLOSE: snprintf(buf, len, "close(fd)"); break;
	case SCN_OP_WAIT:
		if (a->until_clean)
			snprintf(buf, len, "wait until the file is clean (at most %.0f s)", a->timeout);
		else
			snprintf(buf, len, "wait %.1f s", a->seconds);
		break;
	case SCN_OP_PTY:
		snprintf(buf, len, "printf(...); %swrite(STDOUT_FILENO, ...) with stdout on a terminal and on a file",
		         a->between == SCN_PTY_FFLUSH ? "fflush(stdout); " :
		         a->between == SCN_PTY_UNBUFFERED ? "[setvbuf(stdout, NULL, _IONBF, 0)] " : "");
		break;
	case SCN_OP_TAIL:
		snprintf(buf, len, "tail -n %" PRIu64 " (lseek + read backwards, %" PRIu64 "-byte blocks)",
		         a->lines, a->size);
		break;
	case SCN_OP_SWEEP: {
		/* The title is the scenario's: text.c makes it one safe line. */
		size_t n = (size_t)snprintf(buf, len, "sweep: ");
		if (n < len)
			text_safe(st->sweep && st->sweep->title ? st->sweep->title : "timing", TEXT_LINE,
			    buf + n, len - n);
		break;
	}
	case SCN_OP_NOTE: snprintf(buf, len, "(narration)"); break;
	default: snprintf(buf, len, "?"); break;
	}
	return buf;
}
