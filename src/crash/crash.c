/* SPDX-License-Identifier: MIT */
/* crash/crash.c: the filesystems a crash lab is made of, one row each, and a crash's outcome. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crash/crash.h"

/*
 * Every image is at least 512 MiB (sparse: it costs what is written): xfs refuses less than
 * 300 MB and mkfs.ext4 makes 1 KiB blocks below 512 MiB, which would not be the disk a
 * student has. No discard (the image is a new sparse file: nothing to discard), and no lazy
 * initialisation that a kernel thread would finish later, writing to the device beside the
 * lesson (ext4's inode tables are zeroed by mkfs; its journal is new, zeros already).
 */
const struct crash_fs_info crash_fs_table[CRASH_FS__COUNT] = {
	[CRASH_FS_EXT4] = {
		.name = "ext4", .mkfs = "mkfs.ext4",
		.mkfs_args = { "-q", "-F", "-b4096",
		               "-Enodiscard,lazy_itable_init=0,lazy_journal_init=1" },
		.min_bytes = 512u << 20,
	},
	[CRASH_FS_XFS] = {
		.name = "xfs", .mkfs = "mkfs.xfs",
		.mkfs_args = { "-q", "-f", "-K" },
		/* Both carry the same UUID: xfs refuses a second mount of it without this. */
		.copy_flag = "nouuid",
		.min_bytes = 512u << 20,
	},
	[CRASH_FS_BTRFS] = {
		.name = "btrfs", .mkfs = "mkfs.btrfs",
		/* btrfs mounts a clone beside its original (a temporary fsid, Linux 6.7). */
		.mkfs_args = { "-q", "-f", "-K" },
		.min_bytes = 512u << 20,
	},
};

/* The fs called name. */
int
crash_fs_parse(const char *name, enum crash_fs *out)
{
	for (int i = CRASH_FS_NONE + 1; i < CRASH_FS__COUNT; i++)
		if (strcmp(name, crash_fs_table[i].name) == 0) {
			*out = (enum crash_fs)i;
			return 0;
		}
	return -1;
}

/* The names a user may give, joined by '|'. */
char *
crash_fs_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = CRASH_FS_NONE + 1; i < CRASH_FS__COUNT && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ? "|" : "",
		                      crash_fs_table[i].name);
	return buf;
}

/* A half that could not be observed, and why. */
void
crash_half_unobserved(struct crash_half *h, const char *fmt, ...)
{
	va_list ap;

	memset(h, 0, sizeof *h);
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof h->why, fmt, ap);
	va_end(ap);
}
