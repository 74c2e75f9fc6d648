/* SPDX-License-Identifier: MIT */
/* crash/file.h: a file as another process reads it after a crash. */
#ifndef IOBUFVIZ_CRASH_FILE_H
#define IOBUFVIZ_CRASH_FILE_H

#include <stdbool.h>

#include "crash/crash.h"

/*
 * Find NAME (no '/', never following a link) in the dir open as dirfd and fill out: whether
 * it exists, its size, its first CRASH_HEAD_MAX bytes. If it is the file live_fd (an fd of
 * ours, read-only; -1: none) is open on, it is read through live_fd: no open file of it is
 * made and closed (closing any open file of a file truncated to zero makes ext4 start writing
 * it back: its auto_da_alloc), and looking changes nothing of it. Another file is opened with
 * O_NOATIME where we may. With keep_cache, the pages of the head that were not cached before
 * are dropped again after the read (they are clean), so that looking at a live file leaves
 * its page cache as the lesson left it. 0 (out->exists false if there is no such file), or
 * -1 with errno.
 */
int crash_file_read(int dirfd, const char *name, int live_fd, bool keep_cache,
                    struct crash_file *out);

#endif
