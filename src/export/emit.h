/* SPDX-License-Identifier: MIT */
/* export/emit.h: each op as the C statements of a whole program (the program pane, --export=c). */
#ifndef IOBUFVIZ_EMIT_H
#define IOBUFVIZ_EMIT_H

#include <stddef.h>

struct scn_step;

/*
 * The names an emitted statement may use; export/program.c declares them. path is argv[1], fd and
 * fp the current descriptor and stream, wbuf the write buffer (the "abc...z" pattern),
 * rbuf the read buffer (both aligned for O_DIRECT), vbufN the own stdio buffer of the step
 * on scenario line N; check() and check_rc() report a failed call on stderr.
 */

/* Each op as C statements, named in SCN_OP_LIST: lines separated by '\n', no indent. */
#define EMIT_DECLARE(fn) void fn(const struct scn_step *st, char *buf, size_t len)
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

/* Size of the own stdio buffer a setvbuf/setbuf/setbuffer step needs; 0: none. */
size_t emit_own_buffer_size(const struct scn_step *st);

/* Write s as the body of a C string literal (escaped) into buf; return buf. */
char *emit_c_string(const char *s, char *buf, size_t len);

#endif
