/* SPDX-License-Identifier: MIT */
/* crash/crash.h: what survives a crash: the two crashes' outcomes, and the filesystems a crash
 * lab can be made of (one table, in crash/crash.c). */
#ifndef IOBUFVIZ_CRASH_H
#define IOBUFVIZ_CRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The filesystems of a crash lab (--crash-fs). */
enum crash_fs {
	CRASH_FS_NONE,
	CRASH_FS_EXT4,
	CRASH_FS_XFS,
	CRASH_FS_BTRFS,
	CRASH_FS__COUNT
};

/* What one filesystem needs to be made, mounted, and mounted again from a copy. */
struct crash_fs_info {
	const char *name;              /* "ext4": the fsopen(2) type and the --crash-fs value */
	const char *mkfs;              /* "mkfs.ext4" */
	const char *mkfs_args[4];      /* before the device; quiet, no discard, nothing lazy
	                                  left to write behind the lesson's back */
	const char *copy_flag;         /* fsconfig flag a copy needs to mount beside its
	                                  original (xfs: nouuid), or NULL */
	uint64_t min_bytes;            /* the smallest image its mkfs accepts, with room */
};

/* One row per filesystem, indexed by enum crash_fs (CRASH_FS_NONE: all NULL). */
extern const struct crash_fs_info crash_fs_table[CRASH_FS__COUNT];

/* The fs called name ("ext4", "xfs", "btrfs"). 0, or -1 if there is none. */
int crash_fs_parse(const char *name, enum crash_fs *out);

/* "ext4|xfs|btrfs" into buf (len bytes): the names a user may give, for messages. */
char *crash_fs_names(char *buf, size_t len);

/* Bytes of a file kept, as file.content keeps them. */
#define CRASH_HEAD_MAX 4096

/* A file as a process reads it after a crash. */
struct crash_file {
	bool exists;
	uint64_t size;
	unsigned char head[CRASH_HEAD_MAX];  /* its first bytes (untrusted: sanitise to show) */
	size_t head_len;
};

#define CRASH_KMSG_LINES 8
#define CRASH_KMSG_LEN 160

/* One crash's outcome. */
struct crash_half {
	bool observed;                 /* false: why says why not, nothing else is set */
	char why[192];
	struct crash_file file;
	/* power cut: what the kernel said while it mounted the copy (journal replay, log
	 * recovery), its own lines about that device, in order; recovery_known false when
	 * /dev/kmsg could not be read (then recovery_why says why) */
	bool recovery_known;
	char recovery_why[96];
	size_t n_recovery;
	char recovery[CRASH_KMSG_LINES][CRASH_KMSG_LEN];
	unsigned tries;                /* power cut: copies taken until one was quiet */
	/* power cut: what had reached the device since the lab was made, when the copy was
	 * taken (a file no write request reached cannot be in the copy) */
	uint64_t device_writes, device_write_bytes, device_flushes;
	/* power cut: of those writes, the strays: made between the lesson's steps or during its
	 * waits (a journal's timer, writeback, another process's sync()); 0: the device held
	 * what was there when the lesson began and what its own steps sent (own_writes of
	 * them: an fsync(), a close() after O_TRUNC, a rename(), what they started), so what a
	 * power cut keeps is the lesson's doing */
	uint64_t stray_writes, own_writes;
	/* of the strays, those since the file's data (kept_strays) or its name (name_strays)
	 * last changed after the lesson made them durable (an fsync() of the file; of its
	 * directory, for the name; a sync()): what a claim that the power cut kept its bytes,
	 * or the file, rests on. 0: what it kept is the lesson's doing */
	uint64_t kept_strays, name_strays;
	double ms;                     /* what observing this half cost */
};

/* Both crashes at one point of a run. */
struct crash_view {
	struct crash_half process;     /* the process dies by SIGKILL: its stdio buffer is lost */
	struct crash_half power;       /* the machine loses power: the device's state, recovered */
	char file[72];                 /* the file looked at, by its name in the directory */
	double after_s;                /* seconds between the end of the step before and the
	                                  crash (a person's pace in the TUI) */
};

/*
 * The first max bytes of f's head as one line of ASCII into buf (len bytes): printable
 * ASCII as it is, every other byte (a newline too) '.'; "..." after it when the file holds
 * more. Safe to print anywhere. Return buf.
 */
char *crash_file_preview(const struct crash_file *f, size_t max, char *buf, size_t len);

/* One half as a phrase into buf: "4096 B \"abc...\"", "no file", or why it was not
 * observed. Return buf. */
char *crash_half_phrase(const struct crash_half *h, char *buf, size_t len);

/* What had reached the device when a power cut's copy was taken, as a phrase into buf ("no
 * write had reached the device", "4 writes (45056 B) and 2 flushes had reached the device,
 * 1 that no step waited for"); "" for a half without a copy. Return buf. */
char *crash_half_device(const struct crash_half *h, char *buf, size_t len);

/* True if a kernel line a power cut kept tells what recovery did or found (a journal
 * recovered or replayed, a log clean, orphans, errors), not only that a mount happened. */
bool crash_recovery_tells(const char *line);

/* Set h to "not observed" with why (printf). */
void crash_half_unobserved(struct crash_half *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
