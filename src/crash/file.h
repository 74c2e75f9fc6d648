/* SPDX-License-Identifier: MIT */
/* crash/file.h: a file as another process reads it after a crash. */
#ifndef IOBUFVIZ_CRASH_FILE_H
#define IOBUFVIZ_CRASH_FILE_H

#include <stdbool.h>

#include "crash/crash.h"

/*
 * Open NAME (no '/', never following a link) in the dir open as dirfd, read-only, and fill
 * out: whether it exists, its size, its first CRASH_HEAD_MAX bytes. With keep_cache, the
 * pages of the head that were not cached before are dropped again after the read (they are
 * clean), so that looking at a live file leaves its page cache as the lesson left it.
 * 0 (out->exists false if there is no such file), or -1 with errno.
 */
int crash_file_read(int dirfd, const char *name, bool keep_cache, struct crash_file *out);

#endif
