/* SPDX-License-Identifier: MIT */
/* crash/crash.c: the filesystems a crash lab is made of, one row each, and a crash's outcome. */
#include <config.h>

#include <inttypes.h>
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

/* The first max bytes of f as one line of ASCII (see crash/crash.h). */
char *
crash_file_preview(const struct crash_file *f, size_t max, char *buf, size_t len)
{
	size_t n = 0, i;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < f->head_len && i < max; i++) {
		unsigned char c = f->head[i];
		char one[8];

		snprintf(one, sizeof one, "%c", c >= 0x20 && c < 0x7f ? c : '.');
		if (n + strlen(one) + 4 >= len)
			break;
		memcpy(buf + n, one, strlen(one) + 1);
		n += strlen(one);
	}
	if (i < f->size && n + 4 <= len)
		memcpy(buf + n, "...", 4);
	return buf;
}

/* One half as a phrase (see crash/crash.h). */
char *
crash_half_phrase(const struct crash_half *h, char *buf, size_t len)
{
	char head[80];

	if (!h->observed)
		snprintf(buf, len, "%s", h->why);
	else if (!h->file.exists)
		snprintf(buf, len, "no file");
	else if (h->file.size == 0)
		snprintf(buf, len, "an empty file (0 B)");
	else
		snprintf(buf, len, "%" PRIu64 " B \"%s\"", h->file.size,
		         crash_file_preview(&h->file, 24, head, sizeof head));
	return buf;
}

/* What had reached the device at a power cut (see crash/crash.h). */
char *
crash_half_device(const struct crash_half *h, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (h->tries == 0)
		return buf;
	if (h->device_writes == 0) {
		snprintf(buf, len, "no write had reached the device since the lab was made");
		return buf;
	}
	n = (size_t)snprintf(buf, len, "%" PRIu64 " write%s (%" PRIu64 " B) and %" PRIu64
	                     " flush%s had reached the device", h->device_writes,
	                     h->device_writes == 1 ? "" : "s", h->device_write_bytes,
	                     h->device_flushes, h->device_flushes == 1 ? "" : "es");
	if (h->stray_writes > 0 && n < len)
		snprintf(buf + n, len - n, ", %" PRIu64 " between the lesson's steps",
		         h->stray_writes);
	return buf;
}

/* True if a kernel line tells what recovery did (see crash/crash.h). */
bool
crash_recovery_tells(const char *line)
{
	static const char *const words[] = { "recover", "replay", "clean", "orphan", "error",
	                                     "corrupt", "truncat", "warn" };

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcasestr(line, words[i]) != NULL)
			return true;
	return false;
}
