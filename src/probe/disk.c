/* SPDX-License-Identifier: MIT */
/* disk.c: where the scratch file's bytes are on disk (FIEMAP), and on which filesystem. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "probe/probe.h"

/* Extents asked for per FIEMAP call. */
#define PD_BATCH SNAP_MAX_EXTENTS

/* Filesystem magic numbers (<linux/magic.h>), for the names we are likely to meet. */
static const struct {
	unsigned long magic;
	const char *name;
} probe_disk_magics[] = {
	{ 0xEF53UL, "ext4" },        /* ext2, ext3 and ext4 share it: see mountinfo */
	{ 0x01021994UL, "tmpfs" },
	{ 0x58465342UL, "xfs" },
	{ 0x9123683EUL, "btrfs" },
	{ 0xF2F52010UL, "f2fs" },
	{ 0x794C7630UL, "overlay" },
	{ 0x6969UL, "nfs" },
	{ 0x65735546UL, "fuse" },
	{ 0x2FC12FC1UL, "zfs" },
	{ 0x4D44UL, "vfat" },
	{ 0x73717368UL, "squashfs" },
	{ 0x858458F6UL, "ramfs" },
	{ 0x5346544EUL, "ntfs" },
	{ 0xFF534D42UL, "cifs" },
	{ 0x01021997UL, "9p" },
};

/* Copy src into dst (len bytes), cut short if it does not fit. */
static void
probe_disk_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Find the mount of device dev in /proc/self/mountinfo; copy its filesystem type and, when
 * the source is a path, its device. 0 if found, -1 if not.
 */
static int
probe_disk_mountinfo(dev_t dev, char *fs, size_t fslen, char *device, size_t devlen)
{
	char line[4096];
	int found = -1;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (f == NULL)
		return -1;
	while (found != 0 && fgets(line, sizeof line, f) != NULL) {
		unsigned maj, min;
		char type[64], source[256];
		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" */
		char *sep = strstr(line, " - ");

		if (sep == NULL || sscanf(line, "%*d %*d %u:%u", &maj, &min) != 2)
			continue;
		if (makedev(maj, min) != dev)
			continue;
		if (sscanf(sep + 3, "%63s %255s", type, source) != 2)
			continue;
		probe_disk_copy(fs, fslen, type);
		if (source[0] == '/')
			probe_disk_copy(device, devlen, source);
		found = 0;
	}
	fclose(f);
	return found;
}

/* "/dev/" and the kernel's name of block device dev, from the /sys/dev/block/MAJ:MIN link
 * ("loop3", "vda1"). 0, or -1 if dev is no block device (tmpfs, btrfs's anonymous dev). */
static int
probe_disk_sysdev(dev_t dev, char *device, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *name;
	ssize_t n;

	if (major(dev) == 0)
		return -1;
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	name = strrchr(target, '/');
	name = name != NULL ? name + 1 : target;
	snprintf(device, len, "/dev/%s", name);
	return 0;
}

/*
 * btrfs gives every subvolume an anonymous st_dev, so neither /sys/dev/block nor mountinfo's
 * MAJ:MIN names its device: ask btrfs for its fsid and list /sys/fs/btrfs/FSID/devices
 * ("/dev/loop0", "/dev/vdb +1 more" across devices). 0, or -1.
 */
static int
probe_disk_btrfs_device(int fd, char *device, size_t len)
{
	struct btrfs_ioctl_fs_info_args fi;
	char dir[128], first[NAME_MAX + 1] = "";
	const unsigned char *u = fi.fsid;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	memset(&fi, 0, sizeof fi);
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &fi) != 0)
		return -1;
	snprintf(dir, sizeof dir, "/sys/fs/btrfs/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	         "%02x%02x%02x%02x%02x%02x/devices", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
	         u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	d = opendir(dir);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n++ == 0 || strcmp(de->d_name, first) < 0)
			probe_disk_copy(first, sizeof first, de->d_name);
	}
	closedir(d);
	if (n == 0)
		return -1;
	if (n == 1)
		snprintf(device, len, "/dev/%s", first);
	else
		snprintf(device, len, "/dev/%s +%zu more", first, n - 1);
	return 0;
}

/* The device under fd from its st_dev alone (no mount paths: right in a chroot too); see
 * probe/probe.h. */
int
probe_disk_device(int fd, char *device, size_t len)
{
	struct stat st;

	if (len == 0)
		return -1;
	device[0] = '\0';
	if (fstat(fd, &st) != 0)
		return -1;
	if (probe_disk_sysdev(st.st_dev, device, len) == 0)
		return 0;
	if (probe_disk_btrfs_device(fd, device, len) == 0)
		return 0;
	device[0] = '\0';
	return -1;
}

/*
 * Filesystem type and device of fd: the statfs magic, refined by /proc/self/mountinfo (which
 * tells ext2/ext3/ext4 apart and names what the magic table lacks); "fs 0x..." if neither
 * knows it. The one place iobufviz names a filesystem: runner, probes and sweeps agree.
 */
void
probe_fs(int fd, char *fs, size_t fslen, char *device, size_t devlen)
{
	struct statfs sfs;
	struct stat st;
	char mfs[32] = "", dev[64] = "";
	bool have_sfs = fstatfs(fd, &sfs) == 0;

	fs[0] = '\0';
	if (device != NULL && devlen > 0)
		device[0] = '\0';
	if (have_sfs)
		for (size_t i = 0; i < sizeof probe_disk_magics / sizeof probe_disk_magics[0]; i++)
			if ((unsigned long)sfs.f_type == probe_disk_magics[i].magic)
				probe_disk_copy(fs, fslen, probe_disk_magics[i].name);
	if (fstat(fd, &st) == 0 &&
	    probe_disk_mountinfo(st.st_dev, mfs, sizeof mfs, dev, sizeof dev) == 0) {
		if (fs[0] == '\0' || strncmp(mfs, "ext", 3) == 0)
			probe_disk_copy(fs, fslen, mfs);
		if (device != NULL)
			probe_disk_copy(device, devlen, dev);
	}
	/* The kernel's own name from st_dev wins: mountinfo's paths are the mounter's view
	 * ("/dev/root", or nothing that matches in a chroot) and btrfs's st_dev is anonymous. */
	if (device != NULL && devlen > 0 && probe_disk_device(fd, dev, sizeof dev) == 0)
		probe_disk_copy(device, devlen, dev);
	if (fs[0] == '\0' && have_sfs)
		snprintf(fs, fslen, "fs 0x%lx", (unsigned long)sfs.f_type);
}

/* Translate FIEMAP_EXTENT_* bits to SNAP_EXT_*. */
static uint32_t
probe_disk_flags(uint32_t f)
{
	uint32_t s = 0;

	if (f & FIEMAP_EXTENT_DELALLOC)
		s |= SNAP_EXT_DELALLOC;
	if (f & FIEMAP_EXTENT_UNWRITTEN)
		s |= SNAP_EXT_UNWRITTEN;
	if (f & FIEMAP_EXTENT_UNKNOWN)
		s |= SNAP_EXT_UNKNOWN;
	if (f & FIEMAP_EXTENT_LAST)
		s |= SNAP_EXT_LAST;
	if (f & FIEMAP_EXTENT_SHARED)
		s |= SNAP_EXT_SHARED;
	if (f & FIEMAP_EXTENT_DATA_INLINE)
		s |= SNAP_EXT_INLINE;
	return s;
}

/*
 * Add one extent to out's sums. DELALLOC and UNKNOWN: no block chosen yet, so nothing
 * allocated. INLINE (btrfs, measured on 6.18: a 100-byte file shows one 4096-byte extent at
 * physical 0, flags inline,not_aligned): the data sits in the metadata tree, so it counts as
 * the file's bytes it holds, not as a block. Past eof_block (the file's last block) the
 * blocks are preallocation, not the file's own.
 */
static void
probe_disk_count(struct snap_disk *out, uint64_t logical, uint64_t length, uint32_t fl,
                 uint64_t size, uint64_t eof_block)
{
	uint64_t end = logical + length, past = 0;

	if (fl & SNAP_EXT_INLINE) {
		out->inline_bytes += size > logical ? (size - logical < length ? size - logical :
		                                       length) : 0;
		return;
	}
	if (end > eof_block)
		past = end - (logical > eof_block ? logical : eof_block);
	/* xfs reserves its speculative preallocation as delalloc too (measured on 6.18:
	 * 64 writes of 64 KiB, one delalloc extent of 8128 KiB over a 4 MiB file). */
	if (fl & SNAP_EXT_DELALLOC) {
		out->delalloc_bytes += length - past;
		out->beyond_eof_bytes += past;
		return;
	}
	if (fl & SNAP_EXT_UNKNOWN)
		return;
	out->beyond_eof_bytes += past;
	out->allocated_bytes += length - past;
	if (fl & SNAP_EXT_UNWRITTEN)
		out->unwritten_bytes += length - past;
}

/*
 * Fill out with the extents of fd (FIEMAP without FIEMAP_FLAG_SYNC: asking must not start
 * writeback, or we would change what we observe), its filesystem and device. Keeps the
 * first SNAP_MAX_EXTENTS extents but sums the bytes over all of them. 0; -1 with out->note.
 */
int
probe_disk(int fd, struct snap_disk *out)
{
	struct fiemap *fm;
	struct stat st;
	struct statfs sfs;
	uint64_t start = 0, size = 0, eof_block = UINT64_MAX;
	int done = 0;

	out->source = SNAP_SRC_NONE;
	out->note[0] = '\0';
	out->fs[0] = out->device[0] = '\0';
	out->n_extents = 0;
	out->extents_truncated = false;
	out->allocated_bytes = out->delalloc_bytes = out->unwritten_bytes = 0;
	out->inline_bytes = out->beyond_eof_bytes = 0;
	out->block_size = 0;
	probe_fs(fd, out->fs, sizeof out->fs, out->device, sizeof out->device);
	if (fstatfs(fd, &sfs) == 0 && sfs.f_bsize > 0)
		out->block_size = (uint32_t)sfs.f_bsize;
	if (fstat(fd, &st) == 0) {
		uint64_t bs = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
		size = (uint64_t)st.st_size;
		eof_block = (size + bs - 1) / bs * bs;
	}

	fm = calloc(1, sizeof *fm + PD_BATCH * sizeof(struct fiemap_extent));
	if (fm == NULL) {
		snprintf(out->note, sizeof out->note, "FIEMAP: out of memory");
		return -1;
	}
	while (!done) {
		memset(fm, 0, sizeof *fm);
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = 0;
		fm->fm_extent_count = PD_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
			int err = errno;

			free(fm);
			if (err == EOPNOTSUPP || err == ENOTTY) {
				snprintf(out->note, sizeof out->note,
				         "no disk behind this filesystem (%s): pages live only in memory",
				         out->fs[0] != '\0' ? out->fs : "unknown");
				return 0;
			}
			snprintf(out->note, sizeof out->note, "FIEMAP failed: %s", strerror(err));
			return -1;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];
			uint32_t fl = probe_disk_flags(e->fe_flags);

			if (out->n_extents < SNAP_MAX_EXTENTS) {
				struct snap_extent *s = &out->extents[out->n_extents++];

				s->logical = e->fe_logical;
				s->physical = e->fe_physical;
				s->length = e->fe_length;
				s->flags = fl;
			} else {
				out->extents_truncated = true;
			}
			probe_disk_count(out, e->fe_logical, e->fe_length, fl, size, eof_block);
			if (fl & SNAP_EXT_LAST)
				done = 1;
		}
		/* Ask again after the last extent seen; stop if the kernel would not move on. */
		{
			const struct fiemap_extent *e = &fm->fm_extents[fm->fm_mapped_extents - 1];

			if (e->fe_logical + e->fe_length <= start)
				done = 1;
			start = e->fe_logical + e->fe_length;
		}
		if (fm->fm_mapped_extents < PD_BATCH)
			done = 1;
	}
	free(fm);
	out->source = SNAP_SRC_FIEMAP;
	/* Measured on 6.18: overlayfs hands FIEMAP to the real inode (delalloc and all). */
	if (out->beyond_eof_bytes > 0 && strcmp(out->fs, "xfs") == 0)
		snprintf(out->note, sizeof out->note, "xfs preallocated %" PRIu64 " KiB beyond the "
		         "end of the file; it is given back later (at close, or when the inode is "
		         "cleaned)", out->beyond_eof_bytes / 1024);
	else if (out->beyond_eof_bytes > 0)
		snprintf(out->note, sizeof out->note, "%" PRIu64 " KiB allocated beyond the end of "
		         "the file (preallocation), not counted as the file's own",
		         out->beyond_eof_bytes / 1024);
	else if (out->inline_bytes > 0)
		snprintf(out->note, sizeof out->note, "%s keeps this file's %" PRIu64 " bytes inline "
		         "in its metadata: no data block of its own", out->fs, out->inline_bytes);
	else if (strcmp(out->fs, "overlay") == 0)
		snprintf(out->note, sizeof out->note, "overlayfs: these are the extents of the real "
		         "file, in the layer that holds it");
	return 0;
}
