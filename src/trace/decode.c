/* SPDX-License-Identifier: MIT */
/* trace/decode.c: names of syscall flags and constants, and the decoders of the arguments
 * each traced call shows beside its fds, sizes and offsets, spelled as strace spells them. */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/text.h"
#include "trace/decode.h"
#include "trace/peek.h"

/* The kernel's O_LARGEFILE: glibc defines it as 0 on 64-bit ABIs, where it is never passed. */
#if defined(__x86_64__) || defined(__i386__)
#define DECODE_O_LARGEFILE 0100000
#elif defined(__aarch64__)
#define DECODE_O_LARGEFILE 0400000
#else
#define DECODE_O_LARGEFILE 0
#endif

/* A flag's bits and name. */
struct decode_name {
	uint64_t bits;
	const char *name;
};

#define DECODE_N(x) { x, #x }
#define DECODE_COUNT(t) (sizeof t / sizeof t[0])

/* v as names of t joined by "|" after *n of buf, leftover bits as hex, "0" if v is 0. */
static void
decode_bits(uint64_t v, const struct decode_name *t, size_t nt, char *buf, size_t len,
            size_t *n)
{
	size_t start = *n;

	if (v == 0) {
		text_cat(buf, len, n, "0");
		return;
	}
	for (size_t i = 0; i < nt; i++) {
		if (t[i].bits == 0 || (v & t[i].bits) != t[i].bits)
			continue;
		v &= ~t[i].bits;
		text_cat(buf, len, n, "%s%s", *n > start ? "|" : "", t[i].name);
	}
	if (v != 0)
		text_cat(buf, len, n, "%s%#" PRIx64, *n > start ? "|" : "", v);
}

/* buf holds only v's names. */
static void
decode_named(uint64_t v, const struct decode_name *t, size_t nt, char *buf, size_t len)
{
	size_t n = 0;

	if (len > 0)
		buf[0] = '\0';
	decode_bits(v, t, nt, buf, len, &n);
}

/* The name of v in t, or NULL. */
static const char *
decode_value(uint64_t v, const struct decode_name *t, size_t nt)
{
	for (size_t i = 0; i < nt; i++)
		if (t[i].bits == v)
			return t[i].name;
	return NULL;
}

/* Open flags: the access mode if asked, then each flag strace names, then leftover bits. */
static char *
decode_flags(int flags, bool access, char *buf, size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(O_CREAT), DECODE_N(O_EXCL), DECODE_N(O_NOCTTY), DECODE_N(O_TRUNC),
		DECODE_N(O_APPEND), DECODE_N(O_NONBLOCK),
		/* O_SYNC contains O_DSYNC's bit: test the wider one first. */
		DECODE_N(O_SYNC), DECODE_N(O_DSYNC), DECODE_N(O_DIRECT),
		{ DECODE_O_LARGEFILE, "O_LARGEFILE" }, DECODE_N(O_DIRECTORY), DECODE_N(O_NOFOLLOW),
		DECODE_N(O_NOATIME), DECODE_N(O_CLOEXEC), DECODE_N(O_PATH),
	};
	int acc = flags & O_ACCMODE;
	size_t n = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (access)
		text_cat(buf, len, &n, "%s", acc == O_WRONLY ? "O_WRONLY" : acc == O_RDWR ?
		           "O_RDWR" : acc == O_RDONLY ? "O_RDONLY" : "O_ACCMODE");
	flags &= ~O_ACCMODE;
	if (flags != 0) {
		if (n > 0)
			text_cat(buf, len, &n, "|");
		decode_bits((unsigned)flags, names, DECODE_COUNT(names), buf, len, &n);
	}
	return buf;
}

/* Open flags: the access mode, then each flag strace names, then leftover bits. */
char *
decode_open_flags(int flags, char *buf, size_t len)
{
	return decode_flags(flags, true, buf, len);
}

/* The flags beside the access mode ("O_SYNC|O_DIRECT"; "" if none). */
char *
decode_open_flag_bits(int flags, char *buf, size_t len)
{
	return decode_flags(flags, false, buf, len);
}

/* Flags, and the mode only when the kernel uses it (O_CREAT, O_TMPFILE). */
char *
decode_openat(int flags, unsigned mode, char *buf, size_t len)
{
	size_t n;

	decode_open_flags(flags, buf, len);
	n = strlen(buf);
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		text_cat(buf, len, &n, ", %#03o", mode & 07777);
	return buf;
}

/* Name of a whence. */
const char *
decode_whence(int whence)
{
	switch (whence) {
	case SEEK_SET: return "SEEK_SET";
	case SEEK_CUR: return "SEEK_CUR";
	case SEEK_END: return "SEEK_END";
	case SEEK_DATA: return "SEEK_DATA";
	case SEEK_HOLE: return "SEEK_HOLE";
	default: return "?";
	}
}

/* Name of a posix_fadvise advice. */
const char *
decode_advice(int advice)
{
	switch (advice) {
	case POSIX_FADV_NORMAL: return "POSIX_FADV_NORMAL";
	case POSIX_FADV_RANDOM: return "POSIX_FADV_RANDOM";
	case POSIX_FADV_SEQUENTIAL: return "POSIX_FADV_SEQUENTIAL";
	case POSIX_FADV_WILLNEED: return "POSIX_FADV_WILLNEED";
	case POSIX_FADV_DONTNEED: return "POSIX_FADV_DONTNEED";
	case POSIX_FADV_NOREUSE: return "POSIX_FADV_NOREUSE";
	default: return "?";
	}
}

/* "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER", or "0". */
char *
decode_sync_file_range_flags(unsigned flags, char *buf, size_t size)
{
	static const struct decode_name names[] = {
		DECODE_N(SYNC_FILE_RANGE_WAIT_BEFORE), DECODE_N(SYNC_FILE_RANGE_WRITE),
		DECODE_N(SYNC_FILE_RANGE_WAIT_AFTER),
	};
	decode_named(flags, names, DECODE_COUNT(names), buf, size);
	return buf;
}

/* "len=N, " and the flags. */
char *
decode_sync_file_range(unsigned flags, uint64_t len, char *buf, size_t size)
{
	size_t n = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	text_cat(buf, size, &n, "len=%" PRIu64 ", ", len);
	if (n < size)
		decode_sync_file_range_flags(flags, buf + n, size - n);
	return buf;
}

/* open(path, flags, mode), openat(dirfd, path, flags, mode): flags at flg, mode after. */
void
decode_open(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	decode_openat((int)s->args[flg], (unsigned)s->args[flg + 1], buf, len);
}

/* The name at addr when it names a file of the current directory (see trace/decode.h). */
bool
decode_name(const struct peek *m, uint64_t addr, char *buf, size_t len)
{
	/* Letters, digits, '.', '-' and '_' only, as a lesson names its files: an event's text
	 * stays ASCII, with nothing a terminal could take for a control. */
	if (!peek_str(m, addr, buf, len) || buf[0] == '\0' ||
	    strspn(buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(buf)) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/* rename(old, new), renameat(..., new): the new name (the old one is the event's name). */
void
decode_rename(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	if (!decode_name(m, s->args[flg], buf, len))
		snprintf(buf, len, "...");
}

/* creat(path, mode): the mode, as strace shows it. */
void
decode_creat(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	snprintf(buf, len, "%#03o", (unsigned)s->args[flg] & 07777);
}

/* openat2(dirfd, path, how, size): how's flags and mode. */
void
decode_openat2(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
               size_t len)
{
	struct open_how how;

	buf[0] = '\0';
	memset(&how, 0, sizeof how);
	if (s->args[flg + 1] >= sizeof how && peek_read(m, s->args[flg], &how, sizeof how))
		decode_openat((int)how.flags, (unsigned)how.mode, buf, len);
}

/* lseek(fd, offset, whence): the whence (the offset is the event's). */
void
decode_lseek(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	snprintf(buf, len, "%s", decode_whence((int)s->args[flg]));
}

/* _llseek(fd, offset, result, whence) (after calls_fold_args): the position it stored at
 * result, then the whence, as strace shows them ("[4096], SEEK_SET"). */
void
decode_llseek(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	int64_t pos;

	if (!s->is_error && peek_read(m, s->args[2], &pos, sizeof pos))
		snprintf(buf, len, "[%" PRId64 "], %s", pos, decode_whence((int)s->args[flg]));
	else
		snprintf(buf, len, "%s", decode_whence((int)s->args[flg]));
}

/* fadvise64(fd, offset, len, advice): the advice. */
void
decode_fadvise(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
               size_t len)
{
	(void)m;
	snprintf(buf, len, "%s", decode_advice((int)s->args[flg]));
}

/* sync_file_range(fd, offset, nbytes, flags): the flags. */
void
decode_sfr(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	decode_sync_file_range_flags((unsigned)s->args[flg], buf, len);
}

/* fallocate(fd, mode, offset, len): "mode=0", "mode=FALLOC_FL_KEEP_SIZE". */
void
decode_fallocate(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                 size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(FALLOC_FL_KEEP_SIZE), DECODE_N(FALLOC_FL_PUNCH_HOLE),
		DECODE_N(FALLOC_FL_NO_HIDE_STALE), DECODE_N(FALLOC_FL_COLLAPSE_RANGE),
		DECODE_N(FALLOC_FL_ZERO_RANGE), DECODE_N(FALLOC_FL_INSERT_RANGE),
		DECODE_N(FALLOC_FL_UNSHARE_RANGE),
	};
	size_t n = 0;

	(void)m;
	buf[0] = '\0';
	text_cat(buf, len, &n, "mode=");
	decode_bits((unsigned)s->args[flg], names, DECODE_COUNT(names), buf, len, &n);
}

/* The iov_len of the iovecs of readv/writev/preadv/pwritev (array at args[1], count at
 * args[2]): "iov=[10, 20]", the first 8 and "..." after. */
void
decode_iov(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	struct iovec v[8];
	uint64_t cnt = s->args[2];
	size_t k = cnt < 8 ? (size_t)cnt : 8, n = 0;

	(void)flg;
	buf[0] = '\0';
	if (k == 0 || !peek_read(m, s->args[1], v, k * sizeof v[0]))
		return;
	text_cat(buf, len, &n, "iov=[");
	for (size_t i = 0; i < k; i++)
		text_cat(buf, len, &n, "%s%zu", i ? ", " : "", v[i].iov_len);
	text_cat(buf, len, &n, "%s]", cnt > k ? ", ..." : "");
}

/* preadv2/pwritev2: the iovecs, then the RWF_* flags at flg unless 0. */
void
decode_iov2(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(RWF_HIPRI), DECODE_N(RWF_DSYNC), DECODE_N(RWF_SYNC), DECODE_N(RWF_NOWAIT),
		DECODE_N(RWF_APPEND),
	};
	size_t n;

	decode_iov(s, flg, m, buf, len);
	n = strlen(buf);
	if (s->args[flg] == 0)
		return;
	if (n > 0)
		text_cat(buf, len, &n, ", ");
	decode_bits(s->args[flg], names, DECODE_COUNT(names), buf, len, &n);
}

/* copy_file_range's flags (none are defined: shown only if not 0). */
void
decode_copy(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	buf[0] = '\0';
	if (s->args[flg] != 0)
		snprintf(buf, len, "%#" PRIx64, s->args[flg]);
}

/* splice's SPLICE_F_* flags, unless 0. */
void
decode_splice(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(SPLICE_F_MOVE), DECODE_N(SPLICE_F_NONBLOCK), DECODE_N(SPLICE_F_MORE),
		DECODE_N(SPLICE_F_GIFT),
	};
	(void)m;
	buf[0] = '\0';
	if (s->args[flg] != 0)
		decode_named(s->args[flg], names, DECODE_COUNT(names), buf, len);
}

/* fcntl(fd, cmd, arg): the command by name and its argument as strace shows it; for F_GETFL
 * also the flags it returned ("F_GETFL -> O_RDWR|O_LARGEFILE"). */
void
decode_fcntl(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name cmds[] = {
		DECODE_N(F_DUPFD), DECODE_N(F_GETFD), DECODE_N(F_SETFD), DECODE_N(F_GETFL),
		DECODE_N(F_SETFL), DECODE_N(F_GETLK), DECODE_N(F_SETLK), DECODE_N(F_SETLKW),
		DECODE_N(F_SETOWN), DECODE_N(F_GETOWN), DECODE_N(F_OFD_GETLK), DECODE_N(F_OFD_SETLK),
		DECODE_N(F_OFD_SETLKW), DECODE_N(F_DUPFD_CLOEXEC), DECODE_N(F_SETPIPE_SZ),
		DECODE_N(F_GETPIPE_SZ), DECODE_N(F_ADD_SEALS), DECODE_N(F_GET_SEALS),
	};
	static const struct decode_name fd_flags[] = { DECODE_N(FD_CLOEXEC) };
	int cmd = (int)s->args[flg];
	const char *name = decode_value((unsigned)cmd, cmds, DECODE_COUNT(cmds));
	char flags[96];
	size_t n = 0;

	(void)m;
	buf[0] = '\0';
	if (name == NULL) {
		text_cat(buf, len, &n, "cmd=%d", cmd);
		return;
	}
	text_cat(buf, len, &n, "%s", name);
	switch (cmd) {
	case F_GETFL:
		if (!s->is_error)
			text_cat(buf, len, &n, " -> %s",
			           decode_open_flags((int)s->rval, flags, sizeof flags));
		break;
	case F_SETFL:
		text_cat(buf, len, &n, ", %s",
		           decode_open_flags((int)s->args[flg + 1], flags, sizeof flags));
		break;
	case F_SETFD:
		text_cat(buf, len, &n, ", ");
		decode_bits(s->args[flg + 1] & 0xffffffffu, fd_flags, DECODE_COUNT(fd_flags), buf,
		            len, &n);
		break;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		text_cat(buf, len, &n, ", %d", (int)s->args[flg + 1]);
		break;
	default:
		break;
	}
}

/* ioctl(fd, request, ...): the request by name where strace names it (a number two
 * requests share by both of their names, as strace does), else in hex. */
void
decode_ioctl(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name reqs[] = {
		DECODE_N(TCGETS), DECODE_N(TIOCGWINSZ), DECODE_N(FIONREAD), DECODE_N(FIONBIO),
		DECODE_N(FIOCLEX), DECODE_N(FIONCLEX), { FICLONE, "BTRFS_IOC_CLONE or FICLONE" },
		{ FICLONERANGE, "BTRFS_IOC_CLONE_RANGE or FICLONERANGE" },
		{ FIDEDUPERANGE, "BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE" },
		DECODE_N(FS_IOC_FIEMAP), DECODE_N(FS_IOC_GETFLAGS), DECODE_N(FS_IOC_SETFLAGS),
	};
	const char *name = decode_value(s->args[flg] & 0xffffffffu, reqs, DECODE_COUNT(reqs));

	(void)m;
	if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%#" PRIx64, s->args[flg]);
}

/* flock(fd, operation): "LOCK_EX|LOCK_NB". */
void
decode_flock(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(LOCK_SH), DECODE_N(LOCK_EX), DECODE_N(LOCK_NB), DECODE_N(LOCK_UN),
	};
	(void)m;
	decode_named(s->args[flg] & 0xffffffffu, names, DECODE_COUNT(names), buf, len);
}

/* mmap(addr, length, prot, flags, fd, offset): "PROT_READ|PROT_WRITE, MAP_SHARED". */
void
decode_mmap(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name prot[] = {
		DECODE_N(PROT_READ), DECODE_N(PROT_WRITE), DECODE_N(PROT_EXEC),
		DECODE_N(PROT_GROWSDOWN), DECODE_N(PROT_GROWSUP),
	};
	static const struct decode_name type[] = {
		DECODE_N(MAP_SHARED), DECODE_N(MAP_PRIVATE), DECODE_N(MAP_SHARED_VALIDATE),
	};
	static const struct decode_name flags[] = {
		DECODE_N(MAP_FIXED), DECODE_N(MAP_ANONYMOUS),
#ifdef MAP_32BIT
		DECODE_N(MAP_32BIT),
#endif
		DECODE_N(MAP_GROWSDOWN), DECODE_N(MAP_DENYWRITE), DECODE_N(MAP_EXECUTABLE),
		DECODE_N(MAP_LOCKED), DECODE_N(MAP_NORESERVE), DECODE_N(MAP_POPULATE),
		DECODE_N(MAP_NONBLOCK), DECODE_N(MAP_STACK), DECODE_N(MAP_HUGETLB), DECODE_N(MAP_SYNC),
		DECODE_N(MAP_FIXED_NOREPLACE),
	};
	uint64_t f = s->args[flg + 1] & 0xffffffffu;
	const char *t = decode_value(f & 0x0f, type, DECODE_COUNT(type));
	size_t n = 0;

	(void)m;
	buf[0] = '\0';
	if (s->args[flg] == 0)
		text_cat(buf, len, &n, "PROT_NONE");
	else
		decode_bits(s->args[flg], prot, DECODE_COUNT(prot), buf, len, &n);
	if (t != NULL) {
		text_cat(buf, len, &n, ", %s", t);
		f &= ~(uint64_t)0x0f;
		if (f != 0)
			text_cat(buf, len, &n, "|");
	} else {
		text_cat(buf, len, &n, ", ");
	}
	if (f != 0 || t == NULL)
		decode_bits(f, flags, DECODE_COUNT(flags), buf, len, &n);
}

/* msync(addr, length, flags): "MS_SYNC". */
void
decode_msync(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(MS_ASYNC), DECODE_N(MS_INVALIDATE), DECODE_N(MS_SYNC),
	};
	(void)m;
	decode_named(s->args[flg] & 0xffffffffu, names, DECODE_COUNT(names), buf, len);
}

/* dup3(oldfd, newfd, flags): O_CLOEXEC, unless 0. */
void
decode_dup3(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)m;
	buf[0] = '\0';
	if ((int)s->args[flg] != 0)
		decode_open_flag_bits((int)s->args[flg], buf, len);
}

/* The kernel's st_blksize: a 32-bit field at off in the struct the call filled in at addr. */
#if defined(__i386__)
static void
decode_kstat_blksize(const struct decode_stop *s, uint64_t addr, size_t off,
                     const struct peek *m, char *buf, size_t len)
{
	uint32_t v;

	buf[0] = '\0';
	if (!s->is_error && peek_read(m, addr + off, &v, sizeof v))
		snprintf(buf, len, "st_blksize=%lu", (unsigned long)v);
}

/* Where i386's kernel puts st_blksize: its old struct stat (fstat) and its struct stat64
 * (fstat64, fstatat64), whatever glibc's struct stat is in this build. */
#define DECODE_STAT_BLKSIZE 24
#define DECODE_STAT64_BLKSIZE 52
#endif

/* st_blksize of the struct stat at addr that the call filled in (only if it succeeded). */
static void
decode_blksize(const struct decode_stop *s, uint64_t addr, const struct peek *m, char *buf,
               size_t len)
{
#if defined(__i386__)
	decode_kstat_blksize(s, addr, DECODE_STAT_BLKSIZE, m, buf, len);
#else
	struct stat sb;

	/* The kernel's struct stat is glibc's on x86_64 and aarch64. */
	buf[0] = '\0';
	if (!s->is_error && peek_read(m, addr, &sb, sizeof sb))
		snprintf(buf, len, "st_blksize=%ld", (long)sb.st_blksize);
#endif
}

#if defined(__i386__)
/* fstat64(fd, buf): the block size it told. */
void
decode_fstat64(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
               size_t len)
{
	(void)flg;
	decode_kstat_blksize(s, s->args[1], DECODE_STAT64_BLKSIZE, m, buf, len);
}

/* fstatat64(dirfd, path, buf, flags): the block size it told. */
void
decode_fstatat64(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                 size_t len)
{
	(void)flg;
	decode_kstat_blksize(s, s->args[2], DECODE_STAT64_BLKSIZE, m, buf, len);
}
#endif

/* fstat(fd, buf): the block size it told. */
void
decode_fstat(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	(void)flg;
	decode_blksize(s, s->args[1], m, buf, len);
}

/* newfstatat(dirfd, path, buf, flags): the block size it told. */
void
decode_newfstatat(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                  size_t len)
{
	(void)flg;
	decode_blksize(s, s->args[2], m, buf, len);
}

/* statx(dirfd, path, flags, mask, buf): the block size it told. */
void
decode_statx(const struct decode_stop *s, int flg, const struct peek *m, char *buf, size_t len)
{
	struct statx sx;

	(void)flg;
	buf[0] = '\0';
	if (!s->is_error && peek_read(m, s->args[4], &sx, sizeof sx))
		snprintf(buf, len, "stx_blksize=%u", (unsigned)sx.stx_blksize);
}

/* io_uring_setup(entries, params): the ring's size. */
void
decode_uring_setup(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                   size_t len)
{
	(void)flg;
	(void)m;
	snprintf(buf, len, "entries=%u", (unsigned)s->args[0]);
}

/* io_uring_enter(fd, to_submit, min_complete, flags, ...): the counts and IORING_ENTER_*. */
void
decode_uring_enter(const struct decode_stop *s, int flg, const struct peek *m, char *buf,
                   size_t len)
{
	static const struct decode_name names[] = {
		DECODE_N(IORING_ENTER_GETEVENTS), DECODE_N(IORING_ENTER_SQ_WAKEUP),
		DECODE_N(IORING_ENTER_SQ_WAIT), DECODE_N(IORING_ENTER_EXT_ARG),
	};
	size_t n = 0;

	(void)m;
	buf[0] = '\0';
	text_cat(buf, len, &n, "to_submit=%u, min_complete=%u, ", (unsigned)s->args[1],
	           (unsigned)s->args[2]);
	decode_bits(s->args[flg] & 0xffffffffu, names, DECODE_COUNT(names), buf, len, &n);
}
