/* SPDX-License-Identifier: MIT */
/* overlay.c: the real file behind an overlayfs file (whose own inode has an empty page
 * cache), found through the mount's layers, so that the cache probe sees the real pages. */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "probe/probe.h"

/* statfs magic of overlayfs (<linux/magic.h>). */
#define PROBE_OVERLAY_MAGIC 0x794C7630UL

/* Undo mountinfo's octal escapes ("\040" for a space) in place. */
static void
probe_overlay_unescape(char *s)
{
	char *w = s;

	for (const char *r = s; *r != '\0'; ) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Mount id of fd's mount (the mnt_id line of /proc/self/fdinfo/FD); -1 if unknown. */
static long
probe_overlay_mnt_id(int fd)
{
	char path[64], line[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	while (id < 0 && fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "mnt_id: %ld", &id) != 1)
			id = -1;
	fclose(f);
	return id;
}

/*
 * Find mount mnt_id in /proc/self/mountinfo: its root in the filesystem and mount point
 * (unescaped), and its super options (the malloc'ed *opts). 0, or -1 if not found.
 */
static int
probe_overlay_mount(long mnt_id, char *root, char *mpt, size_t len, char **opts)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	if (f == NULL)
		return -1;
	while (found != 0 && getline(&line, &cap, f) > 0) {
		/* "48 27 0:42 / /mnt/fs/overlay rw,relatime - overlay overlay rw,upperdir=..." */
		char *sep = strstr(line, " - "), *o;
		char r[4096], m[4096];
		long id;

		if (sep == NULL || sscanf(line, "%ld %*d %*u:%*u %4095s %4095s", &id, r, m) != 3 ||
		    id != mnt_id)
			continue;
		/* After the separator: type, source, then the super options. */
		o = strchr(sep + 3, ' ');
		o = o != NULL ? strchr(o + 1, ' ') : NULL;
		if (o == NULL)
			continue;
		o[strcspn(o, "\n")] = '\0';
		probe_overlay_unescape(r);
		probe_overlay_unescape(m);
		snprintf(root, len, "%s", r);
		snprintf(mpt, len, "%s", m);
		*opts = strdup(o + 1);
		found = *opts != NULL ? 0 : -1;
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Is real (the file named path in a layer) the file ovl shows? Same kind, size and
 * modification time, and the same inode number: overlayfs reports an upper file's own
 * st_ino, and a lower file's with the layer's number in the high bits (xino). Also not a
 * metacopy-only upper file, whose data is in a lower layer.
 */
static bool
probe_overlay_same_file(int rfd, const struct stat *ovl, bool upper)
{
	struct stat st;

	if (fstat(rfd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != ovl->st_size ||
	    st.st_mtim.tv_sec != ovl->st_mtim.tv_sec || st.st_mtim.tv_nsec != ovl->st_mtim.tv_nsec)
		return false;
	if (upper ? st.st_ino != ovl->st_ino : (uint32_t)st.st_ino != (uint32_t)ovl->st_ino)
		return false;
	return fgetxattr(rfd, "trusted.overlay.metacopy", NULL, 0) < 0 &&
	       fgetxattr(rfd, "user.overlay.metacopy", NULL, 0) < 0;
}

/*
 * Open dir + rel read-only into *rfd if it exists and is ovl's file (see same_file). 1 if
 * it is, 0 if there is no such file, -1 if there is one but it is another file.
 */
static int
probe_overlay_layer_file(const char *dir, const char *rel, const struct stat *ovl, bool upper,
                       int *rfd, char *real, size_t rlen)
{
	snprintf(real, rlen, "%s%s", dir, rel);
	*rfd = open(real, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (*rfd < 0)
		return 0;
	if (probe_overlay_same_file(*rfd, ovl, upper))
		return 1;
	close(*rfd);
	*rfd = -1;
	return -1;
}

/*
 * fd is on overlayfs, whose own inode has an empty page cache: the pages are the real
 * file's. Open that file read-only through the layer that holds it (upperdir, else the
 * lowerdirs in order, from the mount's super options) at the path relative to the mount,
 * checked to be the same file; *upper says which. The fd with its path in real, or -1 with why.
 */
int
probe_overlay_real(int fd, char *real, size_t rlen, bool *upper, char *why, size_t wlen)
{
	char link[64], path[4096], root[4096], mpt[4096], rel[8192];
	char *opts = NULL, *save = NULL, *updir = NULL, *lowdirs = NULL;
	struct stat ovl;
	long mnt = probe_overlay_mnt_id(fd);
	ssize_t n;
	size_t ml;
	int rfd = -1, got = 0;

	snprintf(why, wlen, "the overlay's layers are not reachable from here");
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	if (n <= 0 || fstat(fd, &ovl) != 0 || mnt < 0 ||
	    probe_overlay_mount(mnt, root, mpt, sizeof root, &opts) != 0)
		return -1;
	path[n] = '\0';
	ml = strcmp(mpt, "/") == 0 ? 0 : strlen(mpt);
	/* Not under the mount point: "(deleted)", or a path outside our root. */
	if (strncmp(path, mpt, ml) != 0 || (path[ml] != '/' && path[ml] != '\0'))
		goto out;
	snprintf(rel, sizeof rel, "%s%s", strcmp(root, "/") == 0 ? "" : root, path + ml);
	for (char *o = strtok_r(opts, ",", &save); o != NULL; o = strtok_r(NULL, ",", &save)) {
		if (strncmp(o, "upperdir=", 9) == 0)
			updir = o + 9;
		else if (strncmp(o, "lowerdir=", 9) == 0)
			lowdirs = o + 9;
	}
	/* A file in upperdir hides the lower ones; the first lower layer that has it wins. */
	*upper = true;
	if (updir != NULL) {
		probe_overlay_unescape(updir);
		got = probe_overlay_layer_file(updir, rel, &ovl, true, &rfd, real, rlen);
	}
	/* Escaped colons in lowerdir are not worth the trouble: a miss is said, not guessed. */
	save = NULL;
	for (char *d = lowdirs != NULL && got == 0 ? strtok_r(lowdirs, ":", &save) : NULL;
	     d != NULL && got == 0; d = strtok_r(NULL, ":", &save)) {
		*upper = false;
		probe_overlay_unescape(d);
		got = probe_overlay_layer_file(d, rel, &ovl, false, &rfd, real, rlen);
	}
	if (got < 0)
		snprintf(why, wlen, "%.400s is not the same file", real);
out:
	free(opts);
	return got > 0 ? rfd : -1;
}

/* True when fd is on overlayfs. */
bool
probe_overlay_is(int fd)
{
	struct statfs s;

	return fstatfs(fd, &s) == 0 && (unsigned long)s.f_type == PROBE_OVERLAY_MAGIC;
}
