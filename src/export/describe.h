/* SPDX-License-Identifier: MIT */
/* export/describe.h: a step as the line of C a student would write. */
#ifndef IOBUFVIZ_DESCRIBE_H
#define IOBUFVIZ_DESCRIBE_H

#include <stddef.h>

#include "scenario/scenario.h"

/* Write the step's call as C ("fwrite(buf, 1, 5000, fp)") into buf. Return buf. */
char *describe_step(const struct scn_step *st, char *buf, size_t len);

/* Each op as C, named in SCN_OP_LIST: write the step's call into buf. */
#define DESCRIBE_DECLARE(fn) void fn(const struct scn_step *st, char *buf, size_t len)
DESCRIBE_DECLARE(describe_open);
DESCRIBE_DECLARE(describe_fopen);
DESCRIBE_DECLARE(describe_fdopen);
DESCRIBE_DECLARE(describe_fileno);
DESCRIBE_DECLARE(describe_setvbuf);
DESCRIBE_DECLARE(describe_setbuf);
DESCRIBE_DECLARE(describe_setbuffer);
DESCRIBE_DECLARE(describe_fwrite);
DESCRIBE_DECLARE(describe_fputs);
DESCRIBE_DECLARE(describe_printf);
DESCRIBE_DECLARE(describe_fread);
DESCRIBE_DECLARE(describe_fgets);
DESCRIBE_DECLARE(describe_fflush);
DESCRIBE_DECLARE(describe_fseek);
DESCRIBE_DECLARE(describe_fclose);
DESCRIBE_DECLARE(describe_write);
DESCRIBE_DECLARE(describe_fcntl);
DESCRIBE_DECLARE(describe_fork);
DESCRIBE_DECLARE(describe_exit);
DESCRIBE_DECLARE(describe_uexit);
DESCRIBE_DECLARE(describe_read);
DESCRIBE_DECLARE(describe_pread);
DESCRIBE_DECLARE(describe_pwrite);
DESCRIBE_DECLARE(describe_lseek);
DESCRIBE_DECLARE(describe_fsync);
DESCRIBE_DECLARE(describe_fdatasync);
DESCRIBE_DECLARE(describe_sync_file_range);
DESCRIBE_DECLARE(describe_sync);
DESCRIBE_DECLARE(describe_fadvise);
DESCRIBE_DECLARE(describe_fallocate);
DESCRIBE_DECLARE(describe_ftruncate);
DESCRIBE_DECLARE(describe_close);
DESCRIBE_DECLARE(describe_wait);
DESCRIBE_DECLARE(describe_pty);
DESCRIBE_DECLARE(describe_tail);
DESCRIBE_DECLARE(describe_run);
DESCRIBE_DECLARE(describe_sweep);
DESCRIBE_DECLARE(describe_note);

/* Name of an errno value ("EINVAL"), "0" for 0. */
const char *describe_errno(int err);

/* Name of a buffering mode: "unbuffered", "line buffered", "fully buffered". */
const char *describe_bufmode(enum scn_bufmode m);

#endif
