/* SPDX-License-Identifier: MIT */
/* export/emit.h: each op as C, written once for both its uses: the line a student would write
 * (transcripts, the TUI) and the statements of a whole program (the program pane, --export=c). */
#ifndef IOBUFVIZ_EMIT_H
#define IOBUFVIZ_EMIT_H

#include <stddef.h>

#include "export/ctext.h"

struct scn_step;

/*
 * A step as C. call: the line a student would write ("fwrite(buf, 1, 5000, fp)"), a text
 * shown as written, to be escaped by whatever shows it. code: the statements of a whole
 * program, lines split by '\n', no indent, every text of the scenario in it written by
 * export/ctext.c. The names code may use are declared by export/program.c: path is argv[1],
 * fd and fp the current descriptor and stream, wbuf the write buffer (the "abc...z"
 * pattern), rbuf the read buffer (both aligned for O_DIRECT), vbufN the own stdio buffer of
 * the step on scenario line N (own_buffer bytes); check() and check_rc() report a failed
 * call on stderr.
 */
struct emit {
	struct ctext call;
	struct ctext code;
	size_t own_buffer;   /* bytes of the own stdio buffer vbufN the step needs; 0: none */
};

/* Write step st as C into e (empty), a named pair's names in place of fd and fp. */
void emit_step(const struct scn_step *st, struct emit *e);

/* Free what e holds. */
void emit_clear(struct emit *e);

/* Each op as C, named in SCN_OP_LIST. */
#define EMIT_DECLARE(fn) void fn(const struct scn_step *st, struct emit *e)
EMIT_DECLARE(emit_open);
EMIT_DECLARE(emit_fopen);
EMIT_DECLARE(emit_fdopen);
EMIT_DECLARE(emit_fileno);
EMIT_DECLARE(emit_setvbuf);
EMIT_DECLARE(emit_setbuf);
EMIT_DECLARE(emit_setbuffer);
EMIT_DECLARE(emit_fwrite);
EMIT_DECLARE(emit_fputs);
EMIT_DECLARE(emit_printf);
EMIT_DECLARE(emit_fread);
EMIT_DECLARE(emit_fgets);
EMIT_DECLARE(emit_fflush);
EMIT_DECLARE(emit_fseek);
EMIT_DECLARE(emit_fclose);
EMIT_DECLARE(emit_write);
EMIT_DECLARE(emit_read);
EMIT_DECLARE(emit_pread);
EMIT_DECLARE(emit_pwrite);
EMIT_DECLARE(emit_lseek);
EMIT_DECLARE(emit_fsync);
EMIT_DECLARE(emit_fdatasync);
EMIT_DECLARE(emit_sync_file_range);
EMIT_DECLARE(emit_sync);
EMIT_DECLARE(emit_fadvise);
EMIT_DECLARE(emit_fallocate);
EMIT_DECLARE(emit_ftruncate);
EMIT_DECLARE(emit_close);
EMIT_DECLARE(emit_fcntl);
EMIT_DECLARE(emit_fork);
EMIT_DECLARE(emit_exit);
EMIT_DECLARE(emit_uexit);
EMIT_DECLARE(emit_wait);
EMIT_DECLARE(emit_pty);
EMIT_DECLARE(emit_tail);
EMIT_DECLARE(emit_sweep);
EMIT_DECLARE(emit_note);
EMIT_DECLARE(emit_run);

#endif
