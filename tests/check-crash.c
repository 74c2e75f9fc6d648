/* SPDX-License-Identifier: MIT */
/* check-crash.c: the crash lab: the two crashes of a run, its device counters, the file as read
 * after a crash (its ways out: tests/crash-ways-out.sh; its oracle: tests/crash-oracle.sh). */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fdio.h"
#include "crash/crash.h"
#include "crash/file.h"
#include "crash/hazard.h"
#include "crash/lab.h"
#include "engine/runner.h"
#include "lesson/expect.h"
#include "lesson/lesson.h"
#include "probe/probe.h"
#include "scratch/scratch.h"
#include "test-util.h"

/* A parent dir for this test's scratch dirs, so that nothing else is looked at. */
static char parent[PATH_MAX];

/* Make the test's own parent dir under $TMPDIR or /tmp, usable by user nobody too. */
static void
setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(parent, sizeof parent, "%s/check-crash.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(parent));
	ck_assert_int_eq(chmod(parent, 0777), 0);
}

/* Remove the parent dir (it must be empty by then). */
static void
teardown(void)
{
	scratch_cleanup();
	rmdir(parent);
}

/* The 13-3 lesson from the source tree (fopen, fwrite 5000, fflush, fileno, fsync, fclose). */
static struct scenario *
load_13_3(void)
{
	char path[PATH_MAX];
	struct scenario *s = NULL;
	char *err = NULL;

	test_util_src_path("scenarios/13-3-fflush-fsync.yaml", path, sizeof path);
	ck_assert_msg(load_scenario(path, &s, &err) == 0, "%s", err != NULL ? err : "?");
	return s;
}

/* Why a crash lab of fs cannot be made here (not root, no loop devices, no mkfs), or NULL:
 * it tries the real thing, in a child (scratch dirs made here would install their signal
 * handlers before Check installs its own). */
static const char *
need_lab(enum crash_fs fs)
{
	static char why[CRASH_FS__COUNT][256];
	static bool done[CRASH_FS__COUNT];
	int p[2], st = 0;
	ssize_t n = 0;
	pid_t pid;

	if (done[fs])
		return why[fs][0] != '\0' ? why[fs] : NULL;
	done[fs] = true;
	if (geteuid() != 0) {
		snprintf(why[fs], sizeof why[fs], "needs root to make a crash lab (loop devices, mounts)");
		return why[fs];
	}
	if (pipe(p) != 0 || (pid = fork()) < 0)
		return NULL;
	if (pid == 0) {
		char msg[192];
		int idx = scratch_mkdir(NULL);
		struct crash_lab *lab = idx >= 0 ? crash_lab_new(fs, idx, 0, msg, sizeof msg) : NULL;

		if (idx >= 0 && lab == NULL)
			dprintf(p[1], "no %s crash lab here: %s", crash_fs_table[fs].name, msg);
		crash_lab_free(lab);
		scratch_cleanup();
		_exit(0);
	}
	close(p[1]);
	n = fdio_read_all(p[0], why[fs], sizeof why[fs] - 1);
	why[fs][n > 0 ? n : 0] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return why[fs][0] != '\0' ? why[fs] : NULL;
}

/* The names round-trip through the table; others are refused. */
START_TEST(test_fs_names)
{
	char names[64];
	enum crash_fs fs;

	for (int i = CRASH_FS_NONE + 1; i < CRASH_FS__COUNT; i++) {
		ck_assert_int_eq(crash_fs_parse(crash_fs_table[i].name, &fs), 0);
		ck_assert_int_eq(fs, i);
	}
	ck_assert_int_eq(crash_fs_parse("zfs", &fs), -1);
	ck_assert_int_eq(crash_fs_parse("", &fs), -1);
	ck_assert_str_eq(crash_fs_names(names, sizeof names), "ext4|xfs|btrfs");
}
END_TEST

/* A device name that could leave /sys/block is refused; one that is not there says why. */
START_TEST(test_device_names)
{
	struct snap_device d;

	ck_assert_int_eq(probe_device("../../etc", &d), -1);
	ck_assert_int_eq(d.source, SNAP_SRC_NONE);
	ck_assert_int_eq(probe_device("", &d), -1);
	ck_assert_int_eq(probe_device("nosuchdisk9", &d), -1);
	ck_assert_ptr_nonnull(strstr(d.note, "/sys/block/nosuchdisk9/stat"));
}
END_TEST

/* A file as a reader finds it: size, first bytes; no file is no file, not an error. */
START_TEST(test_file_read)
{
	unsigned char buf[5000];
	struct crash_file f;
	int idx = scratch_mkdir(parent), fd;

	ck_assert_int_ge(idx, 0);
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)('a' + i % 26);
	fd = scratch_create(idx, "f", O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fdio_write_all(fd, buf, sizeof buf), 0);
	close(fd);
	ck_assert_int_eq(crash_file_read(scratch_dirfd(idx), "f", -1, false, &f), 0);
	ck_assert(f.exists);
	ck_assert_uint_eq(f.size, 5000);
	ck_assert_uint_eq(f.head_len, CRASH_HEAD_MAX);
	ck_assert_int_eq(memcmp(f.head, buf, CRASH_HEAD_MAX), 0);
	ck_assert_int_eq(crash_file_read(scratch_dirfd(idx), "missing", -1, false, &f), 0);
	ck_assert(!f.exists);
	ck_assert_int_eq(crash_file_read(scratch_dirfd(idx), "../f", -1, false, &f), -1);
	ck_assert_int_eq(errno, EINVAL);
	scratch_remove(idx);
}
END_TEST

/* True if the first page of the file open as fd is in the page cache. */
static bool
first_page_cached(int fd)
{
	unsigned char v = 0;
	void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);

	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mincore(m, 4096, &v), 0);
	munmap(m, 4096);
	return v & 1;
}

/* Looking at a live file leaves its cache as it was (keep_cache); without, the read shows. */
START_TEST(test_file_read_keeps_cache)
{
	unsigned char buf[8192];
	struct crash_file f;
	int idx = scratch_mkdir(parent), fd;

	ck_assert_int_ge(idx, 0);
	memset(buf, 'x', sizeof buf);
	fd = scratch_create(idx, "f", O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fdio_write_all(fd, buf, sizeof buf), 0);
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	ck_assert(!first_page_cached(fd));
	ck_assert_int_eq(crash_file_read(scratch_dirfd(idx), "f", -1, true, &f), 0);
	ck_assert_uint_eq(f.head_len, CRASH_HEAD_MAX);
	ck_assert_msg(!first_page_cached(fd), "the look brought the page into the cache");
	ck_assert_int_eq(crash_file_read(scratch_dirfd(idx), "f", -1, false, &f), 0);
	ck_assert_msg(first_page_cached(fd), "a read without keep_cache left no page: the "
	              "test above proves nothing here");
	close(fd);
	scratch_remove(idx);
}
END_TEST

/* Run s's steps up to and including step n (1-based) with r. */
static void
run_to(struct runner *r, size_t n, struct step_result *last)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			step_result_clear(last);
		ck_assert_int_eq(runner_step(r, last), 1);
		ck_assert_int_ge(last->ret, 0);
	}
}

/* As a user who cannot mount (nobody, when the test is root), --crash-fs still gives the
 * process crash, and says once why the power cut is missing. */
START_TEST(test_process_crash_unprivileged)
{
	struct runner_opts o = { .dir = parent, .crash_fs = CRASH_FS_EXT4 };
	struct scenario *s = load_13_3();
	struct step_result res;
	struct crash_view v;
	struct runner *r;
	const char *note;
	char *err = NULL;

	if (geteuid() == 0) {
		/* The rest of this test runs as nobody: ptrace of its own worker still works. The
		 * parent dir becomes nobody's, so that the teardown (as nobody) can remove it. */
		ck_assert_int_eq(chown(parent, 65534, 65534), 0);
		ck_assert_int_eq(setgid(65534), 0);
		ck_assert_int_eq(setuid(65534), 0);
	}
	r = runner_new(s, &o, &err);
	ck_assert_msg(r != NULL, "%s", err != NULL ? err : "?");
	note = runner_place_note(r);
	ck_assert_ptr_nonnull(strstr(note, "needs root to mount a filesystem image"));
	ck_assert_ptr_null(strstr(strstr(note, "needs root") + 1, "needs root"));
	run_to(r, 2, &res);               /* fopen, fwrite 5000: one write(4096) */
	ck_assert_int_eq(runner_crash(r, NULL, &v), 0);
	ck_assert_msg(v.process.observed, "%s", v.process.why);
	ck_assert(v.process.file.exists);
	ck_assert_uint_eq(v.process.file.size, 4096);
	ck_assert(!v.power.observed);
	ck_assert_str_eq(v.power.why, "not observable here: needs root to mount a filesystem image");
	/* The run goes on after the crash: its worker still holds the 904 bytes. */
	step_result_clear(&res);
	ck_assert_int_eq(runner_step(r, &res), 1);
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(res.after.stdio.pending, 0);
	ck_assert_int_eq(runner_crash(r, NULL, &v), 0);
	ck_assert_uint_eq(v.process.file.size, 5000);
	step_result_clear(&res);
	runner_free(r);
	load_scenario_free(s);
}
END_TEST

/*
 * On an ext4 lab, 13-3's crashes: after fwrite the process crash keeps 4096 bytes and a power
 * cut no file; after fsync both keep 5000, the power cut's from a copy the kernel recovered.
 * Each step counts what reached the lab's own device: fsync sends writes and a flush.
 */
START_TEST(test_lab_13_3)
{
	struct runner_opts o = { .dir = parent, .crash_fs = CRASH_FS_EXT4 };
	struct scenario *s = load_13_3();
	struct step_result res;
	struct crash_view v;
	struct runner *r;
	char *err = NULL;

	r = runner_new(s, &o, &err);
	ck_assert_msg(r != NULL, "%s", err != NULL ? err : "?");
	ck_assert_str_eq(runner_fs_name(r), "ext4");
	ck_assert_int_eq(runner_initial(r)->device.source, SNAP_SRC_BLOCKSTAT);
	run_to(r, 2, &res);
	ck_assert_int_eq(runner_crash(r, NULL, &v), 0);
	ck_assert_msg(v.process.observed, "%s", v.process.why);
	ck_assert_uint_eq(v.process.file.size, 4096);
	ck_assert_msg(v.power.observed, "%s", v.power.why);
	ck_assert_uint_ge(v.power.tries, 1);
	/* Only what the device had can be in the copy: no write, no file. */
	if (v.power.device_writes == 0)
		ck_assert(!v.power.file.exists);
	step_result_clear(&res);
	run_to(r, 3, &res);               /* fflush, fileno, fsync */
	ck_assert_int_eq(res.step->op, SCN_OP_FSYNC);
	ck_assert_int_eq(res.after.device.source, SNAP_SRC_BLOCKSTAT);
	ck_assert_uint_gt(res.after.device.writes, res.before.device.writes);
	ck_assert_uint_ge(res.after.device.write_bytes - res.before.device.write_bytes, 5000);
	ck_assert_uint_gt(res.after.device.flushes, res.before.device.flushes);
	ck_assert_int_eq(runner_crash(r, NULL, &v), 0);
	ck_assert_uint_eq(v.process.file.size, 5000);
	ck_assert_msg(v.power.observed, "%s", v.power.why);
	ck_assert(v.power.file.exists);
	ck_assert_uint_eq(v.power.file.size, 5000);
	ck_assert_int_eq(memcmp(v.power.file.head, "abcdefghijklmnopqrstuvwxyzabcd", 30), 0);
	ck_assert_uint_ge(v.power.device_writes, 1);
	ck_assert_msg(v.power.recovery_known, "%s", v.power.recovery_why);
	step_result_clear(&res);
	runner_free(r);
	load_scenario_free(s);
}
END_TEST

/* Without a lab: no device line (a shared disk's counters are not the lesson's), and no
 * power cut, said why. */
START_TEST(test_no_lab)
{
	struct runner_opts o = { .dir = parent };
	struct scenario *s = load_13_3();
	struct crash_view v;
	struct runner *r;
	char *err = NULL;

	r = runner_new(s, &o, &err);
	ck_assert_msg(r != NULL, "%s", err != NULL ? err : "?");
	ck_assert_int_eq(runner_initial(r)->device.source, SNAP_SRC_NONE);
	ck_assert_str_ne(runner_initial(r)->device.note, "");
	ck_assert_int_eq(runner_crash(r, NULL, &v), 0);
	ck_assert(v.process.observed);
	ck_assert(!v.process.file.exists || v.process.file.size == 0);
	ck_assert(!v.power.observed);
	ck_assert_ptr_nonnull(strstr(v.power.why, "no crash lab"));
	runner_free(r);
	load_scenario_free(s);
}
END_TEST

/* Make name in dir holding text. */
static void
write_file_at(int dir, const char *name, const char *text)
{
	int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fdio_write_all(fd, text, strlen(text)), 0);
	close(fd);
}

/* A file of ours is read through our own fd when the name is its file, and the name's own
 * file otherwise: never the live fd's in place of another. */
START_TEST(test_file_read_live_fd)
{
	struct crash_file f;
	int idx = scratch_mkdir(parent), dir, live;

	ck_assert_int_ge(idx, 0);
	dir = scratch_dirfd(idx);
	write_file_at(dir, "a", "aaaa");
	write_file_at(dir, "b", "bbbbbbbb");
	live = openat(dir, "a", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(live, 0);
	ck_assert_int_eq(crash_file_read(dir, "a", live, true, &f), 0);
	ck_assert(f.exists);
	ck_assert_uint_eq(f.size, 4);
	ck_assert_int_eq(memcmp(f.head, "aaaa", 4), 0);
	/* The live fd is still ours, open, and was not moved. */
	ck_assert_int_eq(fcntl(live, F_GETFD), FD_CLOEXEC);
	ck_assert_int_eq(lseek(live, 0, SEEK_CUR), 0);
	ck_assert_int_eq(crash_file_read(dir, "b", live, true, &f), 0);
	ck_assert_uint_eq(f.size, 8);
	ck_assert_int_eq(memcmp(f.head, "bbbbbbbb", 8), 0);
	ck_assert_int_eq(crash_file_read(dir, "gone", live, true, &f), 0);
	ck_assert(!f.exists);
	close(live);
	unlinkat(dir, "a", 0);
	unlinkat(dir, "b", 0);
	scratch_remove(idx);
}
END_TEST

/*
 * The stray rule: a power cut's or the device's expectation that did not hold is not
 * observable when stray writes (between the lesson's steps) reached the device first (with
 * how many), and failed when none did; other keys are never excused.
 */
/* A power-cut claim that held only because something was kept, after strays that came once
 * the file (its data; its name, for exists) had changed: not the lesson's doing. A claim that
 * would hold had nothing been kept is the lesson's, strays or not. */
START_TEST(test_stray_kept)
{
	struct crash_view v = { .file = "scratch" };
	struct step_result sr = { .crash = &v };
	struct text_buf text = { 0 }, kept = { 0 };
	struct scn_expect size = { .key = SCN_KEY_CRASH_POWER_SIZE, .cmp = SCN_CMP_EQ, .num = 5000 };
	struct scn_expect none = { .key = SCN_KEY_CRASH_POWER_SIZE, .cmp = SCN_CMP_LE, .num = 5000 };
	struct scn_expect exists = { .key = SCN_KEY_CRASH_POWER_EXISTS, .cmp = SCN_CMP_EQ, .num = 1 };

	v.power.observed = true;
	v.power.file.exists = true;
	v.power.file.size = 5000;
	v.power.stray_writes = v.power.kept_strays = 3;
	text_setf(&text, "5000");
	ck_assert(expect_crash_kept(&sr, &size, &text, &kept));
	ck_assert_msg(strstr(text_str(&text), "kept 5000 bytes, but 3 write requests") != NULL,
	              "%s", text_str(&text));
	ck_assert_str_eq(text_str(&kept), "5000");
	ck_assert(!expect_crash_kept(&sr, &none, &text, &kept));
	/* The name was made durable after the strays (its directory's fsync()). */
	ck_assert(!expect_crash_kept(&sr, &exists, &text, &kept));
	v.power.name_strays = 2;
	ck_assert(expect_crash_kept(&sr, &exists, &text, &kept));
	/* The data unchanged since the lesson's fsync(): strays after it changed nothing. */
	v.power.kept_strays = 0;
	ck_assert(!expect_crash_kept(&sr, &size, &text, &kept));
	text_buf_free(&text);
	text_buf_free(&kept);
}
END_TEST

START_TEST(test_stray_rule)
{
	struct crash_view v = { .file = "scratch" };
	struct step_result sr = { .crash = &v };
	struct text_buf text = { 0 };

	v.power.observed = true;
	v.power.file.exists = true;
	v.power.file.size = 5000;
	text_setf(&text, "5000");
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_SIZE, false, &text));
	v.power.stray_writes = 3;
	ck_assert(expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_SIZE, false, &text));
	ck_assert_msg(strstr(text_str(&text), "gave 5000 bytes, but 3 write requests had reached the device between") != NULL,
	              "%s", text_str(&text));
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_PROCESS_SIZE, false, &text));
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_FILE_SIZE, false, &text));
	/* More kept than wanted with no stray write: failed, however many writes the lesson's
	 * own steps made (a close() after O_TRUNC, a rename(), an fsync() are its doing). */
	v.power.stray_writes = 0;
	text_setf(&text, "5000");
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_SIZE, true, &text));
	v.power.own_writes = 4;
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_SIZE, false, &text));
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_SIZE, true, &text));
	/* A power cut not observed is not observable for its own reason, not this one. */
	v.power.observed = false;
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_CRASH_POWER_EXISTS, false, &text));
	/* The device's counts: the step's own stray count. */
	text_setf(&text, "0");
	ck_assert(!expect_crash_undetermined(&sr, SCN_KEY_DEVICE_FLUSHES, false, &text));
	sr.device_stray = 1;
	ck_assert(expect_crash_undetermined(&sr, SCN_KEY_DEVICE_FLUSHES, false, &text));
	ck_assert_msg(strstr(text_str(&text), "got 0, but 1 write request had reached the device between") != NULL, "%s", text_str(&text));
	text_buf_free(&text);
}
END_TEST

/* Check key CMP want against a step whose device counted writes, bytes and flushes. */
static enum expect_outcome
device_check(enum scn_key key, enum scn_cmp cmp, int64_t want, uint64_t writes,
             uint64_t bytes, uint64_t flushes, char *why, size_t len)
{
	struct step_result sr = { 0 };
	struct scn_expect w = { .key = key, .cmp = cmp, .num = want };
	struct expect_result r;
	enum expect_outcome o;

	sr.before.device.source = sr.after.device.source = SNAP_SRC_BLOCKSTAT;
	sr.before.device.writes = 6;
	sr.before.device.write_bytes = 49152;
	sr.before.device.flushes = 3;
	sr.after.device = sr.before.device;
	sr.after.device.writes += writes;
	sr.after.device.write_bytes += bytes;
	sr.after.device.flushes += flushes;
	o = expect_check(&sr, &w, &r);
	snprintf(why, len, "%s", text_str(&r.got_text));
	text_buf_free(&r.got_text);
	return o;
}

/*
 * The device counts what reached it during a step from anyone: another process's sync() or
 * the journal's timer there adds to the step's own (crash-fdatasync's in-place fdatasync()
 * got 12288 bytes and 2 flushes, not 4096 and 1, with a syncfs() of its lab looping beside
 * it). So a count above what was wanted is not observable here, with why; one below it is
 * failed (nothing takes a request away), and a lower bound missed is failed.
 */
START_TEST(test_device_count_rule)
{
	char why[512];

	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_WRITE_BYTES, SCN_CMP_EQ, 4096, 1, 4096, 1,
	                              why, sizeof why), EXPECT_HELD);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_WRITE_BYTES, SCN_CMP_EQ, 4096, 3, 12288, 1,
	                              why, sizeof why), EXPECT_NOT_OBSERVABLE);
	ck_assert_msg(strstr(why, "got 12288, more than wanted") != NULL &&
	              strstr(why, "a sync() elsewhere") != NULL, "%s", why);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_FLUSHES, SCN_CMP_EQ, 1, 4, 16384, 2, why,
	                              sizeof why), EXPECT_NOT_OBSERVABLE);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_FLUSHES, SCN_CMP_LE, 1, 4, 16384, 2, why,
	                              sizeof why), EXPECT_NOT_OBSERVABLE);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_WRITES, SCN_CMP_LT, 1, 1, 4096, 0, why,
	                              sizeof why), EXPECT_NOT_OBSERVABLE);
	/* Below what was wanted: the step's own doing. */
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_FLUSHES, SCN_CMP_EQ, 2, 1, 4096, 1, why,
	                              sizeof why), EXPECT_FAILED);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_WRITE_BYTES, SCN_CMP_GT, 4096, 1, 4096, 1,
	                              why, sizeof why), EXPECT_FAILED);
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_FLUSHES, SCN_CMP_GE, 1, 0, 0, 0, why,
	                              sizeof why), EXPECT_FAILED);
	/* != 0 missed by a 0: nothing was added. */
	ck_assert_int_eq(device_check(SCN_KEY_DEVICE_WRITES, SCN_CMP_NE, 0, 0, 0, 0, why,
	                              sizeof why), EXPECT_FAILED);
	/* Another key is never excused so. */
	ck_assert(!expect_crash_undetermined(&(struct step_result){ 0 }, SCN_KEY_FILE_SIZE, true,
	                                     &(struct text_buf){ 0 }));
}
END_TEST

/*
 * A lesson's crash steps on an ext4 lab, through the lesson layer: the views are the steps'
 * own, their expectations checked (a loss only where no stray write came first), the
 * device's counts per step; another file by its name.
 */
START_TEST(test_lab_crash_steps)
{
	static const char text[] =
		"title: t\n"
		"file: {size: 0}\n"
		"steps:\n"
		"  - fopen: {mode: w}\n"
		"  - fwrite: {bytes: 5000}\n"
		"  - crash: {}\n"
		"    expect: {crash.process.exists: yes, crash.process.size: 4096,\n"
		"             crash.process.prefix: abcdef, crash.power.exists: no}\n"
		"  - fflush: {}\n"
		"  - fileno: {}\n"
		"  - fsync: {}\n"
		"    expect: {device.writes: '>= 1', device.flushes: '>= 1'}\n"
		"  - crash: {}\n"
		"    expect: {crash.power.size: 5000, crash.power.prefix: abc, device.writes: 0}\n"
		"  - open: {file: other, flags: [O_WRONLY, O_CREAT, O_EXCL]}\n"
		"    as: o\n"
		"  - write: {text: \"other\\n\"}\n"
		"    on: o\n"
		"  - crash: {file: other}\n"
		"    expect: {crash.process.content: \"other\\n\"}\n";
	struct runner_opts o = { .dir = parent, .crash_fs = CRASH_FS_EXT4 };
	const struct step_result *sr;
	struct scenario *s = NULL;
	struct lesson *l;
	char *err = NULL;
	int got;

	ck_assert_msg(load_scenario_text("t.yaml", text, sizeof text - 1, &s, &err) == 0, "%s",
	              err != NULL ? err : "?");
	l = lesson_new(s, &o, &err);
	ck_assert_msg(l != NULL, "%s", err != NULL ? err : "?");
	while ((got = lesson_step(l)) == 1) {
		sr = lesson_last(l);
		for (size_t i = 0; i < sr->n_expects; i++)
			ck_assert_msg(sr->expects[i].outcome != EXPECT_FAILED, "step %zu: %s: %s",
			              sr->index + 1, scenario_key_name(sr->expects[i].want->key),
			              text_str(&sr->expects[i].got_text));
		ck_assert_int_eq(sr->crash != NULL, sr->step->op == SCN_OP_CRASH);
	}
	ck_assert_int_eq(got, 0);
	sr = &lesson_results(l)[2];
	ck_assert_msg(sr->crash->power.observed, "%s", sr->crash->power.why);
	ck_assert_str_eq(lesson_results(l)[9].crash->file, "other");
	ck_assert(lesson_results(l)[9].crash->process.file.exists);
	/* x in the TUI: a view made now, kept with the newest step (a crash step keeps its own). */
	ck_assert_int_eq(lesson_crash(l), 0);
	lesson_free(l);
	load_scenario_free(s);
}
END_TEST

/* An event of the call named name (as a tracer decodes it), returning result. */
static struct event
hazard_event(const char *name, const char *detail, int64_t result)
{
	struct event e = { .fd = -1, .fd2 = -1, .result = result };

	snprintf(e.call, sizeof e.call, "%s", name);
	snprintf(e.detail, sizeof e.detail, "%s", detail);
	return e;
}

/*
 * A traced program's durability hazards: a rename of data written since its last sync, and
 * a new file made durable while no directory was fsynced; none where it synced first, nor
 * after sync().
 */
START_TEST(test_hazards)
{
	struct crash_hazards h = { 0 };
	struct event e;

	e = hazard_event("openat", "O_WRONLY|O_CREAT|O_EXCL, 0644", 3);
	crash_hazards_call(&h, &e, 0, "/d/new", false);
	e = hazard_event("write", "", 4);
	crash_hazards_call(&h, &e, 0, "/d/new", false);
	e = hazard_event("renameat", "data", 0);
	crash_hazards_call(&h, &e, 0, "/d/new", false);
	ck_assert_uint_eq(h.n, 1);
	ck_assert_str_eq(h.v[0].kind, "rename-unsynced");
	ck_assert_str_eq(h.v[0].lesson, "crash-rename");
	ck_assert_ptr_nonnull(strstr(h.v[0].text, "/d/new"));
	/* Synced first (a write on an O_SYNC fd waits too): no rename hazard. */
	e = hazard_event("openat", "O_WRONLY|O_CREAT|O_SYNC, 0644", 4);
	crash_hazards_call(&h, &e, 1, "/d/b", false);
	e = hazard_event("write", "", 4);
	crash_hazards_call(&h, &e, 1, "/d/b", true);
	e = hazard_event("renameat", "c", 0);
	crash_hazards_call(&h, &e, 1, "/d/b", false);
	ck_assert_uint_eq(h.n, 1);
	/* The end: b (O_CREAT, durable) while no directory was fsynced. */
	ck_assert_uint_eq(crash_hazards_end(&h), 2);
	ck_assert_str_eq(h.v[1].kind, "directory-unsynced");
	ck_assert_str_eq(h.v[1].file, "/d/b");
	crash_hazards_free(&h);
	/* A directory's fsync (a sync call on no regular file) or sync(): no such hazard. */
	e = hazard_event("openat", "O_WRONLY|O_CREAT, 0644", 3);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	e = hazard_event("fsync", "", 0);
	crash_hazards_call(&h, &e, 0, "/d/a", true);
	crash_hazards_call(&h, &e, -1, "/d", true);
	ck_assert_uint_eq(crash_hazards_end(&h), 0);
	crash_hazards_free(&h);
	e = hazard_event("openat", "O_WRONLY|O_CREAT, 0644", 3);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	e = hazard_event("write", "", 4);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	e = hazard_event("sync", "", 0);
	crash_hazards_call(&h, &e, -1, NULL, true);
	e = hazard_event("rename", "z", 0);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	ck_assert_uint_eq(crash_hazards_end(&h), 0);
	/* A failed call changes nothing. */
	e = hazard_event("write", "", -1);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	e = hazard_event("rename", "z", 0);
	crash_hazards_call(&h, &e, 0, "/d/a", false);
	ck_assert_uint_eq(h.n, 0);
	crash_hazards_free(&h);
}
END_TEST

/* A crash view: what a power cut and a kill -9 kept of file (exists, sizes). */
static struct crash_view
hazard_view(const char *file, bool power, uint64_t power_size, uint64_t killed)
{
	struct crash_view v = { 0 };

	snprintf(v.file, sizeof v.file, "%s", file);
	v.power.observed = v.process.observed = true;
	v.power.file.exists = power;
	v.power.file.size = power_size;
	v.process.file.exists = true;
	v.process.file.size = killed;
	return v;
}

/*
 * The crash lab's views make the power-cut notes: where a power cut came to keep what it
 * keeps, and what a kill -9 keeps beyond it (a rename's new name not on the disk: the same
 * file, renamed). A view not observed is passed over; a file whose power cut keeps what a
 * kill -9 does and never changed has no note.
 */
START_TEST(test_hazards_views)
{
	struct crash_hazards h = { 0 };
	struct crash_view v;

	v = hazard_view("data.tmp", false, 0, 0);
	crash_hazards_view(&h, &v, 3, "line 12 (open)");
	v = hazard_view("data.tmp", false, 0, 5000);
	crash_hazards_view(&h, &v, 3, "line 13 (write)");
	v = hazard_view("data.tmp", true, 5000, 5000);
	crash_hazards_view(&h, &v, 3, "line 15 (fsync)");
	v = hazard_view("data.tmp", false, 0, 5000);
	v.power.observed = false;
	crash_hazards_view(&h, &v, 3, "line 16 (close)");
	ck_assert_uint_eq(crash_hazards_end(&h), 1);
	ck_assert_str_eq(h.v[0].kind, "power-cut");
	ck_assert_str_eq(h.v[0].lesson, "crash-13-3");
	ck_assert_str_eq(h.v[0].text, "data.tmp: after line 15 (fsync) a power cut keeps 5000 "
	                 "bytes; after line 13 (write) nothing (no file) (the crash lab's views).");
	crash_hazards_free(&h);
	/* Renamed, the new name not committed: crash-rename. */
	v = hazard_view("a.tmp", true, 5000, 5000);
	crash_hazards_view(&h, &v, 0, "line 15 (fsync)");
	v = hazard_view("a", false, 0, 5000);
	crash_hazards_view(&h, &v, 0, "line 18 (rename)");
	ck_assert_uint_eq(crash_hazards_end(&h), 1);
	ck_assert_str_eq(h.v[0].file, "a");
	ck_assert_str_eq(h.v[0].lesson, "crash-rename");
	ck_assert_ptr_nonnull(strstr(h.v[0].text, "after line 18 (rename) a power cut keeps nothing "
	                             "(no file); after line 15 (fsync) 5000 bytes; but a kill -9 "
	                             "after line 18 (rename) keeps 5000 bytes: its new name"));
	crash_hazards_free(&h);
	/* Never durable: the kill -9 keeps what no power cut does (fsync it: crash-13-3). */
	v = hazard_view("log", true, 0, 100);
	crash_hazards_view(&h, &v, 1, "step 4 (write)");
	ck_assert_uint_eq(crash_hazards_end(&h), 1);
	ck_assert_ptr_nonnull(strstr(h.v[0].text, "log: after every step a power cut keeps an "
	                             "empty file; but a kill -9 after step 4 (write) keeps 100 "
	                             "bytes: the rest was not on the disk yet: fsync() it"));
	crash_hazards_free(&h);
	/* Durable all along: nothing to say. */
	v = hazard_view("ok", true, 10, 10);
	crash_hazards_view(&h, &v, 2, "line 3 (fsync)");
	ck_assert_uint_eq(crash_hazards_end(&h), 0);
	crash_hazards_free(&h);
}
END_TEST

/* The suite: the lab's tests only where a lab can be made (root, loop devices, mkfs.ext4). */
static Suite *
crash_suite(void)
{
	Suite *s = suite_create("crash");
	TCase *tc = tcase_create("crash");
	const char *lab = need_lab(CRASH_FS_EXT4);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fs_names);
	tcase_add_test(tc, test_device_names);
	tcase_add_test(tc, test_file_read);
	test_util_add(tc, test_file_read_keeps_cache, test_util_need_disk());
	test_util_add(tc, test_process_crash_unprivileged, test_util_need_ptrace());
	test_util_add(tc, test_no_lab, test_util_need_ptrace());
	test_util_add(tc, test_lab_13_3, test_util_or(lab, test_util_need_ptrace()));
	test_util_add(tc, test_lab_crash_steps, test_util_or(lab, test_util_need_ptrace()));
	tcase_add_test(tc, test_file_read_live_fd);
	tcase_add_test(tc, test_stray_rule);
	tcase_add_test(tc, test_stray_kept);
	tcase_add_test(tc, test_device_count_rule);
	tcase_add_test(tc, test_hazards);
	tcase_add_test(tc, test_hazards_views);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(crash_suite());
}
