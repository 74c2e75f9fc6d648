/* SPDX-License-Identifier: MIT */
/* check-scenario.c: the scenario loader: every op parsed right, every mistake reported where it is. */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cyaml/cyaml.h>

#include "lesson/adapt.h"
#include "lesson/narrate.h"
#include "export/cident.h"
#include "export/describe.h"
#include "scenario/scenario.h"
#include "load/load-int.h"
#include "scratch/scratch.h"
#include "load/yamlpos.h"
#include "test-ops.h"
#include "test-util.h"

/* Path of a fixture into buf. */
static const char *
fixture(const char *rel, char *buf, size_t len)
{
	char sub[PATH_MAX];

	snprintf(sub, sizeof sub, "tests/fixtures/%s", rel);
	return test_util_src_path(sub, buf, len);
}

/* Number of lines of an error string. */
static int
count_lines(const char *s)
{
	int n = 0;

	for (; s != NULL && *s; s++)
		n += *s == '\n';
	return n;
}

/* True if every line of ERR is "PATH:LINE:COL: message" with positive LINE and COL. */
static int
err_well_formed(const char *err, const char *path)
{
	size_t pl = strlen(path);
	const char *p = err;

	if (err == NULL || *err == '\0')
		return 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		long line, col;
		char *end;
		if (eol == NULL || strncmp(p, path, pl) != 0 || p[pl] != ':')
			return 0;
		line = strtol(p + pl + 1, &end, 10);
		if (line < 1 || *end != ':')
			return 0;
		col = strtol(end + 1, &end, 10);
		if (col < 1 || strncmp(end, ": ", 2) != 0 || end + 2 >= eol)
			return 0;
		p = eol + 1;
	}
	return 1;
}

/* Write LEN bytes of DATA to NAME in scratch dir IDX; return its path in buf. */
static const char *
scratch_file(int idx, const char *name, const void *data, size_t len, char *buf, size_t blen)
{
	int fd = scratch_create(idx, name, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	ck_assert_ptr_nonnull(scratch_path(idx, name, buf, blen));
	return buf;
}

/* Load PATH expecting failure; return the error text (caller frees). */
static char *
load_fail(const char *path)
{
	struct scenario *s = (struct scenario *)1;
	char *err = NULL;

	ck_assert_int_eq(load_scenario(path, &s, &err), -1);
	ck_assert_ptr_null(s);
	load_scenario_free(s);          /* what a caller does whatever the outcome: NULL is fine */
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(err_well_formed(err, path), "badly formed error for %s: %s", path, err);
	return err;
}

/* Load PATH expecting success. */
static struct scenario *
load_ok(const char *path)
{
	struct scenario *s = NULL;
	char *err = NULL;
	int rc = load_scenario(path, &s, &err);

	ck_assert_msg(rc == 0, "%s did not load: %s", path, err ? err : "(no message)");
	ck_assert_ptr_null(err);
	ck_assert_ptr_nonnull(s);
	return s;
}

START_TEST(test_nonexistent)
{
	char path[4096];
	char *err;

	fixture("good/no-such-file.yaml", path, sizeof path);
	err = load_fail(path);
	ck_assert_ptr_nonnull(strstr(err, ":1:1: cannot open: No such file or directory\n"));
	free(err);
}
END_TEST

START_TEST(test_directory)
{
	char path[4096], want[4200];
	char *err;

	fixture("good", path, sizeof path);
	err = load_fail(path);
	snprintf(want, sizeof want, "%s:1:1: is a directory, not a scenario file\n", path);
	ck_assert_str_eq(err, want);
	free(err);
}
END_TEST

START_TEST(test_empty_file)
{
	int idx = scratch_mkdir(NULL);
	char path[4096], want[4200];
	char *err;

	ck_assert_int_ge(idx, 0);
	scratch_file(idx, "empty.yaml", "", 0, path, sizeof path);
	err = load_fail(path);
	snprintf(want, sizeof want, "%s:1:1: empty scenario: it needs a title and steps\n", path);
	ck_assert_str_eq(err, want);
	free(err);
	scratch_file(idx, "blank.yaml", "\n\n   \n# only a comment\n", 21, path, sizeof path);
	err = load_fail(path);
	ck_assert_ptr_nonnull(strstr(err, ":1:1: empty scenario"));
	free(err);
	scratch_remove(idx);
}
END_TEST

/* Inputs that must give a clean error, never a crash or a leak. */
START_TEST(test_hostile_inputs)
{
	int idx = scratch_mkdir(NULL);
	char path[4096];
	size_t big = 2 * 1024 * 1024;
	char *buf = malloc(big);
	char *err;
	unsigned seed = 12345;

	ck_assert_int_ge(idx, 0);
	ck_assert_ptr_nonnull(buf);

	/* Binary garbage: a fixed pseudo-random sequence (the same on every run). */
	for (size_t i = 0; i < 4096; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (char)(seed >> 16);
	}
	err = load_fail(scratch_file(idx, "garbage.yaml", buf, 4096, path, sizeof path));
	free(err);

	/* NUL bytes in an otherwise fine file. */
	err = load_fail(scratch_file(idx, "nul.yaml", "title: x\nsteps:\n  - sync: {}\n\0\0", 31,
				     path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, ":4:1: "));
	free(err);

	/* Too big to be a scenario. */
	memset(buf, '#', big);
	err = load_fail(scratch_file(idx, "huge.yaml", buf, big, path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, ":1:1: too large for a scenario"));
	free(err);

	/* Deep nesting: refused at the depth limit, not walked. */
	size_t n = 0;
	n += (size_t)sprintf(buf, "title: x\nsteps:\n  - note: ");
	for (int i = 0; i < 10000; i++)
		buf[n++] = '[';
	for (int i = 0; i < 10000; i++)
		buf[n++] = ']';
	buf[n++] = '\n';
	err = load_fail(scratch_file(idx, "deep.yaml", buf, n, path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, "nesting deeper than 64 levels"));
	free(err);

	/* Aliases (the "billion laughs" shape): refused at the first alias. */
	const char *laughs =
		"a: &a [x, x, x, x, x, x, x, x, x]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		"title: x\nsteps:\n  - note: *c\n";
	err = load_fail(scratch_file(idx, "laughs.yaml", laughs, strlen(laughs), path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, ":2:8: YAML aliases (*a) are not supported"));
	free(err);

	/* Huge numbers everywhere. */
	const char *nums =
		"title: x\nsteps:\n  - fopen: {mode: w}\n"
		"  - fwrite: {bytes: 184467440737095516160}\n"
		"    expect: {calls.write: 99999999999999999999999999, result.value: \"-99999999999999999999\"}\n"
		"  - wait: {seconds: 1e999}\n"
		"  - lseek: {offset: -18446744073709551615}\n";
	err = load_fail(scratch_file(idx, "nums.yaml", nums, strlen(nums), path, sizeof path));
	ck_assert_int_eq(count_lines(err), 5);
	free(err);

	/* A scalar, a list, and a mapping of junk at the top. */
	err = load_fail(scratch_file(idx, "scalar.yaml", "hello\n", 6, path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, ":1:1: a scenario is a mapping"));
	free(err);
	err = load_fail(scratch_file(idx, "junk.yaml", "{a: {b: {c: [1, {d: e}]}}}\n", 27,
				     path, sizeof path));
	ck_assert_ptr_nonnull(strstr(err, ":1:2: unknown key 'a' at the top"));
	free(err);

	/* Errors without anyone to read them are freed, not leaked. */
	struct scenario *s;
	ck_assert_int_eq(load_scenario(path, &s, NULL), -1);
	ck_assert_ptr_null(s);

	free(buf);
	scratch_remove(idx);
}
END_TEST

/* Several mistakes are all reported, in the order they are written. */
START_TEST(test_several_errors)
{
	int idx = scratch_mkdir(NULL);
	char path[4096];
	const char *text =
		"title: x\n"
		"steps:\n"
		"  - fopen: {mode: z}\n"
		"  - fwrite: {bytes: 0}\n"
		"    expect: {calls.write: \"~ 1\"}\n"
		"  - wait: {}\n";
	char *err;
	char want[20000];

	ck_assert_int_ge(idx, 0);
	err = load_fail(scratch_file(idx, "several.yaml", text, strlen(text), path, sizeof path));
	snprintf(want, sizeof want,
		 "%s:3:19: bad fopen mode 'z' (use r, w, a, r+, w+ or a+, optionally with b, e or x)\n"
		 "%s:4:21: bytes is 0: give at least 1 byte\n"
		 "%s:5:27: calls.write takes a number (units allowed: 4KiB) or a comparison like '>= 1', not '~ 1'\n"
		 "%s:6:5: wait in step 3 needs seconds or until: clean\n",
		 path, path, path, path);
	ck_assert_str_eq(err, want);
	free(err);
	scratch_remove(idx);
}
END_TEST

/* Shapes the fixtures do not show: each reported at its key or value, all of them at once. */
START_TEST(test_shapes)
{
	int idx = scratch_mkdir(NULL);
	char path[1024], want[20000];
	const char *text =
		"title: x\n"
		"steps:\n"
		"  - sweep: {program: copy, buffer_sizes: [[1]], file_size: 1MiB,\n"
		"            variants: [{name: a, flag: [O_SYNC]}],\n"
		"            reference: [{label: b, rows: [{buf: 1}]}, c]}\n"
		"  - fwrite: {bytes: 1}\n"
		"    expect: {calls.write: [1], say: x}\n"
		"    ask: {q: 1}\n"
		"  -\n"
		"  - note: \"[background] hi\"\n"
		"    say: {a: 1}\n";
	char *err;

	ck_assert_int_ge(idx, 0);
	err = load_fail(scratch_file(idx, "shapes.yaml", text, strlen(text), path, sizeof path));
	snprintf(want, sizeof want,
		 "%s:3:43: entry 1 of 'buffer_sizes' takes a single value, not a list\n"
		 "%s:4:34: unknown key 'flag' in a sweep variant (a variant takes: name, flags, "
		 "sync_each, on)\n"
		 "%s:5:44: unknown key 'buf' in a reference row (a row takes: buf_size, elapsed, "
		 "user, system)\n"
		 "%s:5:55: entry 2 of 'reference' takes a mapping ({key: value}), not a single value\n"
		 "%s:7:27: 'calls.write' takes a single value, not a list\n"
		 "%s:7:32: unknown expectation key 'say' in step 2 (see doc/scenarios.md for the "
		 "list)\n"
		 "%s:8:10: 'ask' takes a single value, not a mapping\n"
		 "%s:9:4: step 3 must be a mapping (- op: {args}), not a single value\n"
		 "%s:11:10: 'say' takes a text, or a list of parts (each a text or a list of "
		 "alternative texts), not a mapping\n",
		 path, path, path, path, path, path, path, path, path);
	ck_assert_str_eq(err, want);
	free(err);
	scratch_remove(idx);
}
END_TEST

/*
 * --check in one run: the errors of every check (shape, value, cases, the run's bounds) at
 * once, in the order they are written, and none that is a consequence of one already said
 * (the misspelt 'byts' is not followed by "fwrite needs bytes"; a step that is just an op by
 * "no op"; a list's bad entry by an empty list). The bounds count what was read: step 7's
 * misspelt key does not hide its 2000 s.
 */
START_TEST(test_one_pass)
{
	int idx = scratch_mkdir(NULL);
	char path[1024], want[20000];
	const char *text =
		"title: one pass\n"
		"steps:\n"
		"  - fwrite: {byts: 5000}\n"
		"  - fsync\n"
		"  - fwrite: {bytes: 0}\n"
		"  - sweep: {program: copy, buffer_sizes: [[1]], file_size: 5GiB}\n"
		"  - wait: {seconds: 2000}\n"
		"  - wait: {seconds: 2000}\n"
		"  - wait: {seconds: 2000, bogus: 1}\n"
		"  - note: \"[background] x\"\n"
		"    cases:\n"
		"      - when: {fs: ext9}\n"
		"        say: \"[background] x\"\n"
		"      - when: {fs: xfs}\n"
		"        say: \"{nope}\"\n";
	char *err;

	ck_assert_int_ge(idx, 0);
	err = load_fail(scratch_file(idx, "one-pass.yaml", text, strlen(text), path, sizeof path));
	snprintf(want, sizeof want,
		 "%s:3:14: unknown argument 'byts' for fwrite in step 1 (fwrite takes: bytes)\n"
		 "%s:4:5: step 2 is just 'fsync': write - fsync: {} (an op is a key)\n"
		 "%s:5:21: bytes is 0: give at least 1 byte\n"
		 "%s:6:43: entry 1 of 'buffer_sizes' takes a single value, not a list\n"
		 "%s:6:60: absurd size '5GiB' for file_size (5368709120 bytes): the limit is 1 GiB\n"
		 "%s:8:21: this scenario's waits and sweep budgets add up to 6000 s, past 3600 s at "
		 "this step; a run may take at most 3600 s (--timeout)\n"
		 "%s:9:27: unknown argument 'bogus' for wait in step 7 (wait takes: seconds, until, "
		 "timeout)\n"
		 "%s:12:20: unknown fs 'ext9' in a case of step 8 (use one of: ext2, ext3, ext4, xfs, "
		 "btrfs, tmpfs, overlay, f2fs, nfs)\n"
		 "%s:15:14: unknown name 'nope' in {nope} in the say of case 2 of step 8 (use an "
		 "expectation key or fs, probe, blksize, large_folios, delalloc, cachestat, dirty, "
		 "disk, device, kernel, time, dirty_expire)\n",
		 path, path, path, path, path, path, path, path, path);
	ck_assert_str_eq(err, want);
	free(err);
	scratch_remove(idx);
}
END_TEST

/* Past SCN_MAX_ERRORS, one more line says how many were not shown and where the next is. */
START_TEST(test_many_errors)
{
	int idx = scratch_mkdir(NULL);
	char path[1024], text[4096], want[1200];
	size_t n = (size_t)snprintf(text, sizeof text, "title: many\nsteps:\n");
	char *err;

	ck_assert_int_ge(idx, 0);
	for (int i = 0; i < 25; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "  - write: {bytes: 0}\n");
	err = load_fail(scratch_file(idx, "many.yaml", text, n, path, sizeof path));
	ck_assert_int_eq(count_lines(err), 21);
	snprintf(want, sizeof want, "%s:23:20: 5 more errors from here on (the first 20 are "
		 "shown)\n", path);
	ck_assert_str_eq(err + strlen(err) - strlen(want), want);
	ck_assert(err_well_formed(err, path));
	free(err);
	scratch_remove(idx);
}
END_TEST

/* Cases load with their conditions (blksize as bytes), and decide say and expectations by
 * the run's facts; placeholders are filled in, unknown where unseen. */
START_TEST(test_cases)
{
	static const char text[] =
		"title: t\n"
		"steps:\n"
		"  - fsync: {}\n"
		"    say: \"on {fs}: {cache.dirty_pages} dirty, {{x}\"\n"
		"    expect: {result.value: 0}\n"
		"    cases:\n"
		"      - when: {fs: [ext4, xfs], blksize: 1KiB}\n"
		"        say: \"small blocks on {fs}\"\n"
		"        expect: {cache.dirty_pages: 0}\n"
		"      - unless: {fs: tmpfs}\n"
		"        expect: {cache.writeback_pages: 0}\n";
	char path[4096];
	int idx = scratch_mkdir(NULL);
	struct step_result sr;

	ck_assert_int_ge(idx, 0);
	struct scenario *s = load_ok(scratch_file(idx, "cases.yaml", text, strlen(text), path,
						  sizeof path));
	const struct scn_step *st = &s->steps[0];
	ck_assert_uint_eq(st->n_cases, 2);
	ck_assert_uint_eq(st->cases[0].n_conds, 2);
	ck_assert_int_eq(st->cases[0].conds[1].fact, SCN_FACT_BLKSIZE);
	ck_assert_str_eq(st->cases[0].conds[1].values[0], "1024");
	ck_assert(st->cases[1].conds[0].negate);

	memset(&sr, 0, sizeof sr);
	sr.step = st;
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "xfs");
	sr.after.disk.block_size = 4096;
	sr.after.cache.source = SNAP_SRC_MINCORE;
	ck_assert(!adapt_case_holds(&st->cases[0], &sr));
	ck_assert(adapt_case_holds(&st->cases[1], &sr));
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_str_eq(sr.say, "on xfs: unknown dirty, {x}");
	ck_assert_uint_eq(sr.n_unchecked, 1);
	sr.after.disk.block_size = 1024;
	sr.after.cache.source = SNAP_SRC_CACHESTAT;
	sr.after.cache.has_dirty = true;
	ck_assert(adapt_case_holds(&st->cases[0], &sr));
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_str_eq(sr.say, "small blocks on xfs");
	ck_assert_uint_eq(sr.n_unchecked, 0);
	step_result_clear(&sr);
	size_t n;
	const struct scn_expect **w = adapt_expects(&sr, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(w[1]->key, SCN_KEY_CACHE_DIRTY_PAGES);
	free(w);
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "tmpfs");
	w = adapt_expects(&sr, &n);
	ck_assert_uint_eq(n, 1);
	free(w);
	load_scenario_free(s);
	scratch_remove(idx);
}
END_TEST

/* Narration bound to facts: sentences, their marks, alternatives chosen by what the run shows,
 * each sentence held, unchecked (marked, with why) or false (not told: the step fails). */
START_TEST(test_narration)
{
	static const char text[] =
		"title: t\n"
		"intro: \"On {fs}, [[not a mark]. Kernel {kernel}.\"\n"
		"steps:\n"
		"  - fwrite: {bytes: 5000}\n"
		"    say:\n"
		"      - \"One write() [calls.write = 1], {stdio.pending = 904} bytes wait.\"\n"
		"      - - \"{cache.dirty_pages = 1} dirty page.\"\n"
		"        - \"On {fs = tmpfs} no disk.\"\n"
		"      - \"Ends here [calls.write = 1]. Then e.g. this [calls.write = 1], and {{x}.\"\n"
		"    expect: {calls.write: 1}\n";
	char path[4096], *marked;
	int idx = scratch_mkdir(NULL);
	struct step_result sr;

	ck_assert_int_ge(idx, 0);
	struct scenario *s = load_ok(scratch_file(idx, "narr.yaml", text, strlen(text), path,
						  sizeof path));
	const struct scn_narration *nr = &s->steps[0].narr;
	ck_assert_uint_eq(nr->n_parts, 3);
	ck_assert_uint_eq(nr->parts[1].n_alts, 2);
	ck_assert_uint_eq(nr->parts[2].alts[0].n_sentences, 2);   /* "e.g." ends nothing */
	ck_assert_uint_eq(nr->parts[0].alts[0].sentences[0].n_claims, 2);
	ck_assert_int_eq(nr->parts[0].alts[0].sentences[0].claims[0].kind, SCN_CLAIM_CHECK);
	ck_assert_int_eq(nr->parts[1].alts[1].sentences[0].claims[0].kind, SCN_CLAIM_FACT);
	ck_assert_int_eq(nr->parts[2].alts[0].sentences[1].line, 9);
	ck_assert_int_eq(nr->parts[2].alts[0].sentences[1].col, 39);

	/* ext4 with cachestat, one dirty page: everything holds, the silent mark takes its space. */
	memset(&sr, 0, sizeof sr);
	sr.step = &s->steps[0];
	sr.events.source = EV_SRC_PTRACE;
	sr.events.n_write = 1;
	sr.after.stdio.open = true;
	sr.after.stdio.pending = 904;
	sr.after.cache.source = SNAP_SRC_CACHESTAT;
	sr.after.cache.has_dirty = true;
	sr.after.cache.dirty = 1;
	sr.after.disk.source = SNAP_SRC_FIEMAP;
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "ext4");
	sr.ok = true;
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_str_eq(sr.say, "One write(), 904 bytes wait. 1 dirty page. Ends here. Then e.g. "
			 "this, and {x}.");
	ck_assert_uint_eq(sr.n_sentences, 4);
	ck_assert_uint_eq(sr.n_unchecked + sr.n_false, 0);
	ck_assert(sr.ok);

	/* tmpfs: a dirty count shown does not apply there: the second alternative is told. */
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "tmpfs");
	sr.after.disk.source = SNAP_SRC_NONE;
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_ptr_nonnull(strstr(sr.say, "904 bytes wait. On tmpfs no disk. Ends"));
	ck_assert_uint_eq(sr.n_false + sr.n_unchecked, 0);

	/* mincore: dirty pages unseen: the first alternative is told as written, marked. */
	snprintf(sr.after.disk.fs, sizeof sr.after.disk.fs, "ext4");
	sr.after.disk.source = SNAP_SRC_FIEMAP;
	sr.after.cache.source = SNAP_SRC_MINCORE;
	sr.after.cache.has_dirty = false;
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_uint_eq(sr.n_unchecked, 1);
	ck_assert_int_eq(sr.sentences[1].outcome, SENTENCE_UNCHECKED);
	ck_assert_ptr_nonnull(strstr(text_str(&sr.sentences[1].why), "dirty pages: unknown"));
	marked = narrate_marked(sr.sentences, sr.n_sentences);
	ck_assert_str_eq(marked, "One write(), 904 bytes wait. 1 dirty page. [?1] Ends here. Then "
			 "e.g. this, and {x}.");
	free(marked);

	/* Two dirty pages: both alternatives are false; the sentence is not told, the step fails. */
	sr.after.cache.source = SNAP_SRC_CACHESTAT;
	sr.after.cache.has_dirty = true;
	sr.after.cache.dirty = 2;
	ck_assert_int_eq(narrate_step(&sr), 0);
	ck_assert_uint_eq(sr.n_false, 1);
	ck_assert(!sr.ok);
	ck_assert_ptr_null(strstr(sr.say, "dirty"));
	ck_assert_int_eq(sr.sentences[1].outcome, SENTENCE_FALSE);
	ck_assert_str_eq(sr.sentences[1].text, "1 dirty page.");
	ck_assert_ptr_nonnull(strstr(text_str(&sr.sentences[1].why), "cache.dirty_pages = 1, here 2"));
	step_result_clear(&sr);

	/* The intro: facts of the environment only, a literal bracket. */
	struct snapshot init;
	struct sentence_result *v;
	size_t n;
	char *intro;
	memset(&init, 0, sizeof init);
	snprintf(init.disk.fs, sizeof init.disk.fs, "xfs");
	ck_assert_int_eq(narrate_intro(s, &init, &intro, &v, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(strncmp(intro, "On xfs, [not a mark]. Kernel ", 29) == 0);
	free(intro);
	sentence_results_free(v, n);
	load_scenario_free(s);
	scratch_remove(idx);
}
END_TEST

/* Every bad fixture fails with exactly the error its first line announces. */
START_TEST(test_bad_fixtures)
{
	char dir[4096], path[4400], line[1024], want[6000], report[16384] = "";
	struct dirent **names;
	int n, checked = 0, failed = 0;

	fixture("bad", dir, sizeof dir);
	n = scandir(dir, &names, NULL, alphasort);
	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		if (len < 6 || strcmp(name + len - 5, ".yaml") != 0) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", dir, name);
		FILE *f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
		fclose(f);
		ck_assert_msg(strncmp(line, "# expect: ", 10) == 0, "%s has no '# expect:' line", name);
		snprintf(want, sizeof want, "%s:%s", path, line + 10);

		struct scenario *s = (struct scenario *)1;
		char *err = NULL;
		int rc = load_scenario(path, &s, &err);
		checked++;
		if (rc != -1 || s != NULL || err == NULL || strcmp(err, want) != 0) {
			failed++;
			size_t off = strlen(report);
			snprintf(report + off, sizeof report - off, "\n%s: rc %d\n  want %s  got  %s",
				 name, rc, line + 10, err ? err : "(null)\n");
		}
		free(err);
		free(names[i]);
	}
	free(names);
	ck_assert_msg(failed == 0, "%d of %d bad fixtures gave another error:%s", failed, checked,
		      report);
	ck_assert_int_ge(checked, 30);
}
END_TEST

/* Every good fixture loads. */
START_TEST(test_good_fixtures)
{
	char dir[4096], path[4400];
	struct dirent **names;
	int n, loaded = 0;

	fixture("good", dir, sizeof dir);
	n = scandir(dir, &names, NULL, alphasort);
	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		if (len > 5 && strcmp(name + len - 5, ".yaml") == 0) {
			snprintf(path, sizeof path, "%s/%s", dir, name);
			struct scenario *s = load_ok(path);
			ck_assert_str_eq(s->path, path);
			ck_assert_ptr_nonnull(s->title);
			ck_assert_uint_ge(s->n_steps, 1);
			load_scenario_free(s);
			loaded++;
		}
		free(names[i]);
	}
	free(names);
	ck_assert_int_ge(loaded, 5);
}
END_TEST

/* Read the whole of PATH (caller frees); *len its length. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* libcyaml is in the path: the raw load maps a fixture to the structs the loader converts, and
 * refuses, in libcyaml's own words, a key its schema does not have. */
START_TEST(test_libcyaml_raw)
{
	char path[4096];
	struct scn_load ld = { .path = "raw" };
	struct scn_raw_scenario *raw = NULL;
	size_t len;
	char *buf = slurp(fixture("good/all-ops.yaml", path, sizeof path), &len);
	struct scenario *s = load_ok(path);

	ck_assert_int_eq(load_raw_load(&ld, buf, len, true, &raw), 0);
	ck_assert_ptr_nonnull(raw);
	ck_assert_int_eq(ld.n_err, 0);
	ck_assert_str_eq(raw->title, s->title);
	ck_assert_uint_eq(raw->steps_count, s->n_steps);
	for (size_t i = 0; i < s->n_steps; i++) {
		const struct scn_raw_step *rs = &raw->steps[i];
		enum scn_op op = s->steps[i].op;
		if (scn_op_table[op].form == SCN_FORM_TEXT)
			ck_assert_ptr_nonnull(rs->text[op]);
	}
	load_raw_free(raw);
	load_scenario_free(s);
	free(buf);

	/* What only libcyaml would say: the loader never lets this reach it. */
	const char *bad = "title: x\nbogus: 1\nsteps:\n  - sync: {}\n";
	ck_assert_int_eq(load_raw_load(&ld, bad, strlen(bad), true, &raw), -1);
	ck_assert_ptr_null(raw);
	load_report_finish(&ld);
	ck_assert_ptr_nonnull(ld.err);
	ck_assert_ptr_nonnull(strstr(ld.err, "raw:1:1: " SCN_RAW_REFUSED ": "));
	ck_assert_ptr_nonnull(strstr(ld.err, cyaml_strerror(CYAML_ERR_INVALID_KEY)));
	free(ld.err);

	/* Its words whole, with a 1,000-character key they quote (YAML's longest is 1,024). */
	char key[1001], doc[1100];
	memset(key, 'k', 997);
	memcpy(key + 997, "END", 4);
	snprintf(doc, sizeof doc, "title: x\n%s: 1\nsteps:\n  - sync: {}\n", key);
	ld = (struct scn_load){ .path = "raw" };
	ck_assert_int_eq(load_raw_load(&ld, doc, strlen(doc), true, &raw), -1);
	load_report_finish(&ld);
	ck_assert_ptr_nonnull(ld.err);
	ck_assert_msg(strstr(ld.err, key) != NULL, "not whole: %s", ld.err);
	free(ld.err);
}
END_TEST

/* libcyaml's schema of every op's arguments is made from the op list: each argument of each op
 * lands in its own slot (a list argument as a list). */
START_TEST(test_libcyaml_op_args)
{
	for (int op = 0; op < SCN_OP__COUNT; op++) {
		const struct scn_op_entry *e = &scn_op_table[op];
		char doc[1024];
		int n;

		if (e->form != SCN_FORM_ARGS)
			continue;
		n = snprintf(doc, sizeof doc, "title: t\nsteps:\n  - %s: {", e->name);
		for (const struct scn_arg_use *u = e->args; u->arg != SCN_ARG_NONE; u++)
			n += snprintf(doc + n, sizeof doc - (size_t)n, "%s%s: %s", u == e->args ? "" : ", ",
				      scn_arg_fields[u->arg].key,
				      scn_arg_fields[u->arg].shape == SCN_SHAPE_LIST ? "[v]" : "v");
		n += snprintf(doc + n, sizeof doc - (size_t)n, "}\n");
		ck_assert_int_lt(n, (int)sizeof doc);

		struct scn_load ld = { .path = e->name };
		struct scn_raw_scenario *raw = NULL;
		ck_assert_msg(load_raw_load(&ld, doc, (size_t)n, true, &raw) == 0, "%s: %d errors",
			      e->name, ld.n_err);
		ck_assert_uint_eq(raw->steps_count, 1);
		const struct scn_raw_args *ra = raw->steps[0].args[op];
		ck_assert_ptr_nonnull(ra);
		for (const struct scn_arg_use *u = e->args; u->arg != SCN_ARG_NONE; u++) {
			if (scn_arg_fields[u->arg].shape == SCN_SHAPE_LIST) {
				ck_assert_uint_eq(ra->list[u->arg].count, 1);
				ck_assert_str_eq(ra->list[u->arg].items[0], "v");
			} else {
				ck_assert_ptr_nonnull(ra->v[u->arg]);
				ck_assert_str_eq(ra->v[u->arg], "v");
			}
		}
		load_raw_free(raw);
	}
}
END_TEST

/* What a mutation may put in place of a value. */
static const char *const fuzz_values[] = {
	"~", "", "null", "Null", "NULL", "\"\"", "''", "[]", "{}", "[1, 2]", "{a: 1}", "[[x]]",
	"[{a: 1}]", "!!str x", "!!int 5", "!!map {}", "!!seq []", "&a x", "*a", "yes", "0x10",
	"-1", "4 KiB", "|\n      block", "\"~\"", "{sync: {}}", "[~]", "[\"\"]", "- x",
};

/* Mutate the NUL-terminated text SRC (LEN bytes) into DST once, as PRNG state *SEED says;
 * return the new length. */
static size_t
fuzz_mutate(const char *src, size_t len, char *dst, size_t cap, unsigned *seed)
{
	size_t starts[512], n_lines = 0, out = 0;
#define RND() (*seed = *seed * 1103515245u + 12345u, (*seed >> 8) & 0xffffff)
	for (size_t i = 0; i < len && n_lines < 512; i++)
		if (i == 0 || src[i - 1] == '\n')
			starts[n_lines++] = i;
	if (n_lines == 0)
		return 0;
	size_t li = RND() % n_lines;
	size_t ls = starts[li], le = li + 1 < n_lines ? starts[li + 1] : len;
	size_t lj = RND() % n_lines;
	size_t js = starts[lj], je = lj + 1 < n_lines ? starts[lj + 1] : len;
#define PUT(p, k) do { size_t k_ = (k); if (out + k_ < cap) { memcpy(dst + out, (p), k_); out += k_; } } while (0)
	switch (RND() % 7) {
	case 0: /* drop a line */
		PUT(src, ls);
		PUT(src + le, len - le);
		break;
	case 1: /* write a line twice */
		PUT(src, le);
		PUT(src + ls, len - ls);
		break;
	case 2: { /* another value after a line's first ": " (or in place of a list entry) */
		const char *v = fuzz_values[RND() % (sizeof fuzz_values / sizeof fuzz_values[0])];
		const char *colon = memmem(src + ls, le - ls, ": ", 2);
		const char *dash = memmem(src + ls, le - ls, "- ", 2);
		const char *at = colon != NULL ? colon + 2 : dash != NULL ? dash + 2 : NULL;
		if (at == NULL) {
			PUT(src, len);
			break;
		}
		PUT(src, (size_t)(at - src));
		PUT(v, strlen(v));
		PUT("\n", 1);
		PUT(src + le, len - le);
		break;
	}
	case 3: /* indent a line more or less */
		PUT(src, ls);
		if (RND() % 2)
			PUT("  ", 2);
		else if (le - ls >= 2 && src[ls] == ' ' && src[ls + 1] == ' ')
			ls += 2;
		PUT(src + ls, len - ls);
		break;
	case 4: { /* one byte in, from YAML's punctuation */
		static const char punct[] = ":-[]{},#&*!|>'\"% ~\t";
		size_t at = RND() % (len + 1);
		PUT(src, at);
		PUT(&punct[RND() % (sizeof punct - 1)], 1);
		PUT(src + at, len - at);
		break;
	}
	case 5: { /* a line's key from another line's */
		const char *ci = memchr(src + ls, ':', le - ls), *cj = memchr(src + js, ':', je - js);
		size_t ks = ls, kjs = js;
		while (ks < le && (src[ks] == ' ' || src[ks] == '-'))
			ks++;
		while (kjs < je && (src[kjs] == ' ' || src[kjs] == '-'))
			kjs++;
		if (ci == NULL || cj == NULL || src + ks > ci || src + kjs > cj) {
			PUT(src, len);
			break;
		}
		PUT(src, ks);
		PUT(src + kjs, (size_t)(cj - (src + kjs)));
		PUT(ci, len - (size_t)(ci - src));
		break;
	}
	default: /* cut short */
		PUT(src, RND() % (len + 1));
		break;
	}
#undef PUT
#undef RND
	dst[out < cap ? out : cap - 1] = '\0';
	return out < cap ? out : cap - 1;
}

/* Load FILE's mutations: every refusal is FILE:LINE:COL, and libcyaml never refuses what the
 * shape check accepted. Return how many loads were refused. */
static int
fuzz_file(int idx, const char *file, int rounds, unsigned *seed, int *total)
{
	size_t len, cap;
	char *src = slurp(file, &len), path[4096];
	char *dst = malloc(cap = len + 4096);
	int refused = 0;

	ck_assert_ptr_nonnull(dst);
	for (int r = 0; r < rounds; r++) {
		/* One to three mutations on top of each other. */
		size_t n = fuzz_mutate(src, len, dst, cap, seed);
		int more = (int)((*seed >> 4) % 3);
		for (int m = 0; m < more; m++) {
			char *tmp = strdup(dst);
			ck_assert_ptr_nonnull(tmp);
			n = fuzz_mutate(tmp, n, dst, cap, seed);
			free(tmp);
		}
		char name[32];
		snprintf(name, sizeof name, "fuzz-%d.yaml", *total);
		scratch_file(idx, name, dst, n, path, sizeof path);
		struct scenario *s = NULL;
		char *err = NULL;
		(*total)++;
		int rc = load_scenario(path, &s, &err);
		unlink(path);
		if (rc == 0) {
			ck_assert_ptr_null(err);
			load_scenario_free(s);
			continue;
		}
		refused++;
		ck_assert_msg(err_well_formed(err, path), "badly formed error for a mutation of %s:\n"
			      "%s\n---\n%s", file, err ? err : "(none)", dst);
		ck_assert_msg(strstr(err, SCN_RAW_REFUSED) == NULL, "the shape check let through what "
			      "libcyaml refused (a mutation of %s):\n%s\n---\n%s", file, err, dst);
		free(err);
	}
	free(dst);
	free(src);
	return refused;
}

/* A few hundred mutations of the good fixtures and bundled scenarios through the loader. */
START_TEST(test_fuzz_shapes)
{
	const char *const dirs[] = { "tests/fixtures/good", "scenarios" };
	int idx = scratch_mkdir(NULL), total = 0, refused = 0;
	unsigned seed = 20261123;

	ck_assert_int_ge(idx, 0);
	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char dir[4096], path[4400];
		struct dirent **names;
		int n = scandir(test_util_src_path(dirs[d], dir, sizeof dir), &names, NULL, alphasort);
		ck_assert_int_gt(n, 0);
		for (int i = 0; i < n; i++) {
			size_t l = strlen(names[i]->d_name);
			if (l > 5 && strcmp(names[i]->d_name + l - 5, ".yaml") == 0) {
				snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
				refused += fuzz_file(idx, path, 24, &seed, &total);
			}
			free(names[i]);
		}
		free(names);
	}
	ck_assert_int_ge(total, 300);
	ck_assert_int_gt(refused, 0);
	printf("fuzz: %d mutations, %d refused, %d loaded\n", total, refused, total - refused);
}
END_TEST

/* Find the expectation with KEY in step ST (fails if absent). */
static const struct scn_expect *
expect_of(const struct scn_step *st, enum scn_key key)
{
	for (size_t i = 0; i < st->n_expects; i++)
		if (st->expects[i].key == key)
			return &st->expects[i];
	ck_abort_msg("step at line %d has no %s expectation", st->line, scenario_key_name(key));
	return NULL;
}

/* Check one expectation's parsed value and where it was written. */
static void
check_expect(const struct scn_step *st, enum scn_key key, enum scn_cmp cmp, int64_t num,
	     const char *source, int line, int col)
{
	const struct scn_expect *e = expect_of(st, key);

	ck_assert_int_eq(e->cmp, cmp);
	ck_assert_int_eq(e->num, num);
	ck_assert_str_eq(e->source, source);
	ck_assert_int_eq(e->line, line);
	ck_assert_int_eq(e->col, col);
	ck_assert_ptr_null(e->str);
}

/* Named pairs in the describe lines: the name stands for fd and fp, whole words only. */
START_TEST(test_named_describe)
{
	int idx = scratch_mkdir(NULL);
	char path[1024], buf[256];
	const char *text =
		"title: x\n"
		"steps:\n"
		"  - open: {flags: [O_RDWR]}\n"
		"    as: a\n"
		"  - fdatasync: {}\n"
		"    on: a\n"
		"  - write: {text: \"fd fp\"}\n"
		"    on: a\n"
		"  - fdopen: {mode: w}\n"
		"    as: s\n"
		"  - fputs: {text: \"x\"}\n"
		"    on: s\n"
		"  - fork: {child: exit}\n";
	struct scenario *s;

	ck_assert_int_ge(idx, 0);
	s = load_ok(scratch_file(idx, "named.yaml", text, strlen(text), path, sizeof path));
	ck_assert_str_eq(describe_step(&s->steps[0], buf, sizeof buf),
			 "a = open(path, O_RDWR)");
	ck_assert_str_eq(describe_step(&s->steps[1], buf, sizeof buf), "fdatasync(a)");
	/* Words in a string literal are text, not names. */
	ck_assert_str_eq(describe_step(&s->steps[2], buf, sizeof buf), "write(a, \"fd fp\", 5)");
	ck_assert_str_eq(describe_step(&s->steps[3], buf, sizeof buf), "s = fdopen(fd, \"w\")");
	ck_assert_str_eq(describe_step(&s->steps[4], buf, sizeof buf), "fputs(\"x\", s)");
	ck_assert_str_eq(describe_step(&s->steps[5], buf, sizeof buf), "if (fork() == 0) exit(0)");
	load_scenario_free(s);
	scratch_remove(idx);

	/* cident: whole identifiers, and a result cut to fit. */
	snprintf(buf, sizeof buf, "fd = fdopen(fd_x, fd);fd");
	cident_replace(buf, sizeof buf, "fd", "b");
	ck_assert_str_eq(buf, "b = fdopen(fd_x, b);b");
	ck_assert(cident_has("x(fp)", "fp") && !cident_has("fpx", "fp"));
	ck_assert(!cident_has("f(\"fp \\\" fp\")", "fp") && cident_has("f('\"', fp)", "fp"));
	snprintf(buf, 8, "fd fd");
	cident_replace(buf, 8, "fd", "long");
	ck_assert_str_eq(buf, "long fd");
}
END_TEST

/* all-ops.yaml: every op and every argument, parsed into the right values. */
START_TEST(test_all_ops)
{
	char path[4096];
	struct scenario *s = load_ok(fixture("good/all-ops.yaml", path, sizeof path));
	const struct scn_step *st = s->steps;
	const struct scn_args *a;

	ck_assert_str_eq(s->title, "Every op");
	ck_assert_str_eq(s->source, "iobufviz test fixture");
	ck_assert_str_eq(s->intro, "[background] Not a lesson: a fixture.\n"
				     "[background] Two lines of intro.\n");
	ck_assert_uint_eq(s->file.size, 64 * 1024);
	ck_assert_int_eq(s->file.on, SCN_FS_TMPFS);
	ck_assert_int_eq(s->file.fill, SCN_FILL_ZERO);
	ck_assert_uint_eq(s->n_steps, 53);

	/* 0 open */
	ck_assert_int_eq(st[0].op, SCN_OP_OPEN);
	ck_assert_int_eq(st[0].line, 9);
	ck_assert_int_eq(st[0].col, 5);
	ck_assert_uint_eq(st[0].args.has, SCN_HAS_FLAGS);
	ck_assert_int_eq(st[0].args.flags, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_SYNC | O_DSYNC);
	ck_assert_int_eq(st[0].args.flags & O_DIRECT, 0);
	ck_assert_str_eq(st[0].say, "open with every flag but O_DIRECT [result.value]");
	ck_assert_uint_eq(st[0].n_expects, 2);
	check_expect(&st[0], SCN_KEY_RESULT_ERRNO, SCN_CMP_EQ, 0, "0", 11, 28);
	check_expect(&st[0], SCN_KEY_RESULT_VALUE, SCN_CMP_GE, 0, ">= 0", 11, 45);
	ck_assert_int_eq(st[0].expects[0].key, SCN_KEY_RESULT_ERRNO); /* in written order */
	ck_assert_ptr_null(st[0].sweep);

	/* 1 fdopen, 2 fileno */
	ck_assert_int_eq(st[1].op, SCN_OP_FDOPEN);
	ck_assert_str_eq(st[1].args.mode, "r+");
	ck_assert_uint_eq(st[1].args.has, SCN_HAS_MODE);
	ck_assert_int_eq(st[2].op, SCN_OP_FILENO);
	ck_assert_uint_eq(st[2].args.has, 0);
	ck_assert_ptr_null(st[2].say);
	ck_assert_uint_eq(st[2].n_expects, 0);

	/* 3 setvbuf, 4 setbuf none, 5 setbuffer */
	a = &st[3].args;
	ck_assert_int_eq(st[3].op, SCN_OP_SETVBUF);
	ck_assert_uint_eq(a->has, SCN_HAS_MODE | SCN_HAS_SIZE | SCN_HAS_BUFFER);
	ck_assert_int_eq(a->bufmode, SCN_BUF_FULL);
	ck_assert_uint_eq(a->size, 1000);
	ck_assert_int_eq(a->buffer, SCN_BUFFER_OWN);
	check_expect(&st[3], SCN_KEY_STDIO_SIZE, SCN_CMP_EQ, 1000, "1000", 15, 26);
	check_expect(&st[3], SCN_KEY_STDIO_MODE, SCN_CMP_EQ, SCN_BUF_FULL, "full", 15, 44);
	ck_assert_int_eq(st[4].op, SCN_OP_SETBUF);
	ck_assert_int_eq(st[4].args.bufmode, SCN_BUF_NONE);
	ck_assert(st[4].args.has & SCN_HAS_BUFFER);
	check_expect(&st[4], SCN_KEY_STDIO_MODE, SCN_CMP_NE, SCN_BUF_FULL, "!= full", 17, 26);
	a = &st[5].args;
	ck_assert_int_eq(st[5].op, SCN_OP_SETBUFFER);
	ck_assert_uint_eq(a->has, SCN_HAS_SIZE | SCN_HAS_BUFFER);
	ck_assert_uint_eq(a->size, 8192);
	ck_assert_int_eq(a->buffer, SCN_BUFFER_LIBRARY);

	/* 6 fwrite with four expectations */
	ck_assert_int_eq(st[6].op, SCN_OP_FWRITE);
	ck_assert_uint_eq(st[6].args.has, SCN_HAS_BYTES);
	ck_assert_uint_eq(st[6].args.bytes, 5000);
	ck_assert_uint_eq(st[6].n_expects, 4);
	check_expect(&st[6], SCN_KEY_STDIO_PENDING, SCN_CMP_EQ, 904, "904", 20, 29);
	check_expect(&st[6], SCN_KEY_CALLS_WRITE, SCN_CMP_EQ, 1, "1", 20, 47);
	check_expect(&st[6], SCN_KEY_CALLS_TOTAL, SCN_CMP_LE, 2, "<= 2", 20, 63);
	check_expect(&st[6], SCN_KEY_BYTES_WRITTEN, SCN_CMP_EQ, 4096, "4KiB", 20, 86);

	/* 7 fputs, 8 printf, 9 fflush (null args), 10 fseek */
	ck_assert_int_eq(st[7].op, SCN_OP_FPUTS);
	ck_assert_str_eq(st[7].args.text, "hello\n");
	ck_assert_uint_eq(st[7].args.has, SCN_HAS_TEXT);
	ck_assert_int_eq(st[8].op, SCN_OP_PRINTF);
	ck_assert_str_eq(st[8].args.text, "two words\n");
	ck_assert_int_eq(st[9].op, SCN_OP_FFLUSH);
	ck_assert_uint_eq(st[9].args.has, 0);
	ck_assert_int_eq(st[10].op, SCN_OP_FSEEK);
	ck_assert_uint_eq(st[10].args.has, SCN_HAS_OFFSET | SCN_HAS_WHENCE);
	ck_assert_int_eq(st[10].args.offset, 100);
	ck_assert_int_eq(st[10].args.whence, SEEK_SET);

	/* 11 fread, 12 fgets, 13 fclose (~), 14 fopen */
	ck_assert_int_eq(st[11].op, SCN_OP_FREAD);
	ck_assert_uint_eq(st[11].args.bytes, 1024 * 1024);
	check_expect(&st[11], SCN_KEY_CALLS_READ, SCN_CMP_GT, 0, "> 0", 26, 26);
	check_expect(&st[11], SCN_KEY_BYTES_READ, SCN_CMP_LT, 2 * 1024 * 1024, "< 2MiB", 26, 45);
	ck_assert_int_eq(st[12].op, SCN_OP_FGETS);
	ck_assert_uint_eq(st[12].args.bytes, 80);
	ck_assert_int_eq(st[13].op, SCN_OP_FCLOSE);
	ck_assert_int_eq(st[14].op, SCN_OP_FOPEN);
	ck_assert_str_eq(st[14].args.mode, "wbe");

	/* 15 write, 16 read, 17 pwrite, 18 pread */
	a = &st[15].args;
	ck_assert_int_eq(st[15].op, SCN_OP_WRITE);
	ck_assert_uint_eq(a->has, SCN_HAS_BYTES | SCN_HAS_ALIGN);
	ck_assert_uint_eq(a->bytes, 4096);
	ck_assert_uint_eq(a->align, 0);
	check_expect(&st[15], SCN_KEY_CACHE_PAGES, SCN_CMP_EQ, 1, "1", 31, 27);
	check_expect(&st[15], SCN_KEY_CACHE_DIRTY_PAGES, SCN_CMP_EQ, 1, "= 1", 31, 49);
	check_expect(&st[15], SCN_KEY_CACHE_WRITEBACK_PAGES, SCN_CMP_EQ, 0, "0", 31, 79);
	ck_assert_int_eq(st[16].op, SCN_OP_READ);
	ck_assert_uint_eq(st[16].args.bytes, 512);
	ck_assert_uint_eq(st[16].args.align, 3);
	a = &st[17].args;
	ck_assert_int_eq(st[17].op, SCN_OP_PWRITE);
	ck_assert_uint_eq(a->has, SCN_HAS_BYTES | SCN_HAS_OFFSET | SCN_HAS_ALIGN);
	ck_assert_uint_eq(a->bytes, 1000);
	ck_assert_int_eq(a->offset, 1000000);
	ck_assert_uint_eq(a->align, 1);
	a = &st[18].args;
	ck_assert_int_eq(st[18].op, SCN_OP_PREAD);
	ck_assert_uint_eq(a->has, SCN_HAS_BYTES | SCN_HAS_OFFSET);
	ck_assert_uint_eq(a->bytes, 2048);
	ck_assert_int_eq(a->offset, 4096);

	/* 19, 20 lseek: negative offset from END; whence defaults to SET */
	ck_assert_int_eq(st[19].op, SCN_OP_LSEEK);
	ck_assert_int_eq(st[19].args.offset, -10);
	ck_assert_int_eq(st[19].args.whence, SEEK_END);
	ck_assert_int_eq(st[20].args.offset, 5);
	ck_assert_int_eq(st[20].args.whence, SEEK_SET);
	ck_assert_uint_eq(st[20].args.has, SCN_HAS_OFFSET);

	/* 21 fsync, 22 fdatasync, 23 sync_file_range, 24 sync */
	ck_assert_int_eq(st[21].op, SCN_OP_FSYNC);
	check_expect(&st[21], SCN_KEY_DISK_ALLOCATED_BYTES, SCN_CMP_GE, 4096, ">= 4KiB", 38, 36);
	check_expect(&st[21], SCN_KEY_DISK_DELALLOC_BYTES, SCN_CMP_EQ, 0, "0", 38, 68);
	check_expect(&st[21], SCN_KEY_DISK_UNWRITTEN_BYTES, SCN_CMP_NE, 1, "!= 1", 38, 93);
	ck_assert_int_eq(st[22].op, SCN_OP_FDATASYNC);
	a = &st[23].args;
	ck_assert_int_eq(st[23].op, SCN_OP_SYNC_FILE_RANGE);
	ck_assert_uint_eq(a->has, SCN_HAS_OFFSET | SCN_HAS_LEN | SCN_HAS_FLAGS);
	ck_assert_int_eq(a->offset, 0);
	ck_assert_uint_eq(a->len, 8192);
	ck_assert_int_eq(a->flags, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			 SYNC_FILE_RANGE_WAIT_AFTER);
	ck_assert_int_eq(st[24].op, SCN_OP_SYNC);

	/* 25, 26 posix_fadvise; 27 fallocate; 28 ftruncate; 29 close */
	ck_assert_int_eq(st[25].op, SCN_OP_FADVISE);
	ck_assert_int_eq(st[25].args.advice, POSIX_FADV_DONTNEED);
	ck_assert_uint_eq(st[25].args.has, SCN_HAS_ADVICE);
	ck_assert_int_eq(st[25].args.offset, 0);
	ck_assert_uint_eq(st[25].args.len, 0);
	a = &st[26].args;
	ck_assert_int_eq(a->advice, POSIX_FADV_WILLNEED);
	ck_assert_uint_eq(a->has, SCN_HAS_ADVICE | SCN_HAS_OFFSET | SCN_HAS_LEN);
	ck_assert_int_eq(a->offset, 4096);
	ck_assert_uint_eq(a->len, 65536);
	ck_assert_int_eq(st[27].op, SCN_OP_FALLOCATE);
	ck_assert_int_eq(st[27].args.offset, 1 << 20);
	ck_assert_uint_eq(st[27].args.len, 1 << 20);
	ck_assert_int_eq(st[28].op, SCN_OP_FTRUNCATE);
	ck_assert_uint_eq(st[28].args.has, SCN_HAS_LEN);
	ck_assert_uint_eq(st[28].args.len, 100);
	ck_assert_int_eq(st[29].op, SCN_OP_CLOSE);

	/* 30-32 wait */
	ck_assert_int_eq(st[30].op, SCN_OP_WAIT);
	ck_assert_uint_eq(st[30].args.has, SCN_HAS_SECONDS);
	ck_assert_double_eq(st[30].args.seconds, 2.5);
	ck_assert(!st[30].args.until_clean);
	ck_assert_uint_eq(st[31].args.has, SCN_HAS_UNTIL | SCN_HAS_TIMEOUT);
	ck_assert(st[31].args.until_clean);
	ck_assert_double_eq(st[31].args.timeout, 40);
	ck_assert_uint_eq(st[32].args.has, SCN_HAS_UNTIL);
	ck_assert_double_eq(st[32].args.timeout, 60);

	/* 33 pty, 34 tail */
	a = &st[33].args;
	ck_assert_int_eq(st[33].op, SCN_OP_PTY);
	ck_assert_str_eq(a->text, "If I had more time, \n");
	ck_assert_str_eq(a->text2, "I would have written you a shorter letter.\n");
	ck_assert_int_eq(a->between, SCN_PTY_FFLUSH);
	ck_assert_uint_eq(st[33].n_expects, 2);
	ck_assert_int_eq(st[33].expects[0].key, SCN_KEY_OUTPUT);
	ck_assert_int_eq(st[33].expects[0].cmp, SCN_CMP_EQ);
	ck_assert_str_eq(st[33].expects[0].str,
			 "If I had more time, \nI would have written you a shorter letter.\n");
	ck_assert_int_eq(st[33].expects[1].key, SCN_KEY_OUTPUT_FILE);
	ck_assert_str_eq(st[33].expects[1].str, "x");
	a = &st[34].args;
	ck_assert_int_eq(st[34].op, SCN_OP_TAIL);
	ck_assert_uint_eq(a->has, SCN_HAS_LINES | SCN_HAS_SIZE);
	ck_assert_uint_eq(a->lines, 10);
	ck_assert_uint_eq(a->size, 4096);
	ck_assert_str_eq(st[34].expects[0].str, "last lines");

	/* 35, 36 note */
	ck_assert_int_eq(st[35].op, SCN_OP_NOTE);
	ck_assert_str_eq(st[35].say, "[background] narration only");
	ck_assert_str_eq(st[35].args.text, "[background] narration only");
	ck_assert_str_eq(st[36].say, "[background] the say");
	ck_assert_str_eq(st[36].args.text, "a note with its own say");

	/* 37 sweep with everything */
	const struct scn_sweep *sw = st[37].sweep;
	ck_assert_int_eq(st[37].op, SCN_OP_SWEEP);
	ck_assert_int_eq(st[37].line, 57);
	ck_assert_ptr_nonnull(sw);
	ck_assert_str_eq(sw->title, "Table 13-1 again");
	ck_assert_int_eq(sw->program, SCN_PROG_FREAD_SETVBUF);
	ck_assert_uint_eq(sw->n_buffer_sizes, 4);
	ck_assert_uint_eq(sw->buffer_sizes[0], 1);
	ck_assert_uint_eq(sw->buffer_sizes[1], 16);
	ck_assert_uint_eq(sw->buffer_sizes[2], 4096);
	ck_assert_uint_eq(sw->buffer_sizes[3], 1 << 20);
	ck_assert_uint_eq(sw->file_size, 4 << 20);
	ck_assert_uint_eq(sw->repeat, 3);
	ck_assert_uint_eq(sw->warmup, 0);
	ck_assert_int_eq(sw->cache, SCN_CACHE_WARM);
	ck_assert_double_eq(sw->budget, 2.5);
	ck_assert_uint_eq(sw->n_variants, 2);
	ck_assert_str_eq(sw->variants[0].name, "plain");
	ck_assert_int_eq(sw->variants[0].flags, 0);
	ck_assert_int_eq(sw->variants[0].sync_each, SCN_SYNC_NONE);
	ck_assert_int_eq(sw->variants[0].on, SCN_FS_DEFAULT);
	ck_assert_str_eq(sw->variants[1].name, "O_SYNC");
	ck_assert_int_eq(sw->variants[1].flags, O_SYNC | O_DSYNC);
	ck_assert_int_eq(sw->variants[1].sync_each, SCN_SYNC_FDATASYNC);
	ck_assert_int_eq(sw->variants[1].on, SCN_FS_TMPFS);
	ck_assert_uint_eq(sw->n_references, 1);
	const struct scn_reference *r = &sw->references[0];
	ck_assert_str_eq(r->label, "TLPI 2010");
	ck_assert_str_eq(r->source, "TLPI Table 13-1");
	ck_assert_str_eq(r->variant, "O_SYNC");
	ck_assert_uint_eq(r->total_bytes, 100000000);
	ck_assert_uint_eq(r->n_rows, 2);
	ck_assert_uint_eq(r->rows[0].buf_size, 1);
	ck_assert_double_eq_tol(r->rows[0].elapsed, 107.43, 1e-9);
	ck_assert_double_eq_tol(r->rows[0].user, 8.20, 1e-9);
	ck_assert_double_eq_tol(r->rows[0].system, 99.12, 1e-9);
	ck_assert_uint_eq(r->rows[1].buf_size, 4096);
	ck_assert_double_eq_tol(r->rows[1].elapsed, 0.86, 1e-9);
	ck_assert(r->rows[1].user < 0); /* not given */
	ck_assert(r->rows[1].system < 0);

	/* 38 sweep with defaults: one "default" variant, repeat 5, warmup 1, cold */
	sw = st[38].sweep;
	ck_assert_int_eq(sw->program, SCN_PROG_COPY);
	ck_assert_str_eq(sw->title, "copy");
	ck_assert_uint_eq(sw->n_variants, 1);
	ck_assert_str_eq(sw->variants[0].name, "default");
	ck_assert_uint_eq(sw->repeat, 5);
	ck_assert_uint_eq(sw->warmup, 1);
	ck_assert_int_eq(sw->cache, SCN_CACHE_COLD);
	ck_assert_double_eq(sw->budget, 0);
	ck_assert_uint_eq(sw->n_references, 0);

	/* 39-41 O_DIRECT */
	ck_assert_int_eq(st[39].args.flags, O_WRONLY | O_DIRECT);
	check_expect(&st[40], SCN_KEY_RESULT_ERRNO, SCN_CMP_EQ, EINVAL, "EINVAL", 80, 28);
	ck_assert_int_eq(st[41].args.offset, 8192);
	ck_assert_str_eq(st[41].ask, "How many bytes will pwrite() hand to the kernel?");
	ck_assert_ptr_null(st[40].ask);

	/* 42 run: the program, its arguments in order, its stdin and timeout */
	ck_assert_int_eq(st[42].op, SCN_OP_RUN);
	ck_assert_str_eq(st[42].args.program, "./mytail");
	ck_assert_uint_eq(st[42].args.n_argv, 3);
	ck_assert_str_eq(st[42].args.argv[0], "-n");
	ck_assert_str_eq(st[42].args.argv[2], "{file}");
	ck_assert_str_eq(st[42].args.stdin_path, "/dev/null");
	ck_assert(st[42].args.timeout == 5.0);
	check_expect(&st[42], SCN_KEY_EXIT_STATUS, SCN_CMP_EQ, 0, "0", 85, 27);

	/* 43-44 fcntl; 45-49 named pairs (as:, on:) and write/pwrite with text */
	ck_assert_int_eq(st[43].args.cmd, F_GETFL);
	ck_assert_ptr_nonnull(st[43].expects[0].str);
	ck_assert_int_eq(st[44].args.cmd, F_SETFL);
	ck_assert_int_eq(st[44].args.flags, O_APPEND);
	ck_assert_int_eq(st[45].args.flags, O_RDWR | O_RSYNC);
	ck_assert_uint_eq(st[45].handle, 1);
	ck_assert(st[45].made && !st[46].made);
	ck_assert_str_eq(st[45].name, "second");
	ck_assert_uint_eq(st[46].handle, 1);
	ck_assert_str_eq(st[46].args.text, "hello");
	ck_assert_uint_eq(st[46].args.has, SCN_HAS_TEXT);
	check_expect(&st[46], SCN_KEY_FILE_SIZE, SCN_CMP_GE, 5, ">= 5", 93, 25);
	ck_assert_str_eq(st[46].expects[2].str, "hel");
	ck_assert_str_eq(st[47].args.text, "hi");
	ck_assert_int_eq(st[47].args.offset, 2);
	ck_assert_uint_eq(st[48].handle, 2);
	ck_assert_uint_eq(st[49].handle, 2);
	ck_assert_uint_eq(st[41].handle, 0);
	ck_assert_ptr_null(st[41].name);

	/* 50-52 fork (the child's end) and exit */
	ck_assert_int_eq(st[50].op, SCN_OP_FORK);
	ck_assert(!st[50].args.child_flushes);
	ck_assert(st[51].args.child_flushes);
	ck_assert_int_eq(st[52].op, SCN_OP_EXIT);

	load_scenario_free(s);
}
END_TEST

/* Every op of the table, found there (a new op needs no line here nor in a fixture): its
 * example loads, has its line of C and its statements, the schema takes its name, and
 * doc/scenarios.md has its row. */
START_TEST(test_every_op)
{
	char undocumented[1024];

	ck_assert_int_eq(test_ops_check_all(undocumented, sizeof undocumented), SCN_OP__COUNT);
	ck_assert_msg(undocumented[0] == '\0', "doc/scenarios.md has no row for op %s",
		      undocumented);
}
END_TEST

/* Every expectation key of the table has its row in doc/scenarios.md. */
START_TEST(test_tables_documented)
{
	char path[4096], row[128];
	FILE *f = fopen(test_util_src_path("doc/scenarios.md", path, sizeof path), "r");
	char *doc = calloc(1, 256 * 1024);
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(doc);
	n = fread(doc, 1, 256 * 1024 - 1, f);
	fclose(f);
	ck_assert_uint_gt(n, 0);
	for (int k = 0; k < SCN_KEY__COUNT; k++) {
		snprintf(row, sizeof row, "\n| `%s` |", scenario_key_name(k));
		ck_assert_msg(strstr(doc, row) != NULL, "doc/scenarios.md has no row for key %s",
			      scenario_key_name(k));
	}
	free(doc);
}
END_TEST

/* Exercise 13-3, doc/scenarios.md's example: positions of steps and expectations. */
START_TEST(test_design_example)
{
	char path[4096];
	struct scenario *s = load_ok(fixture("good/13-3.yaml", path, sizeof path));

	ck_assert_str_eq(s->title, "Exercise 13-3: fflush() then fsync()");
	ck_assert_uint_eq(s->file.size, 0);
	ck_assert_int_eq(s->file.on, SCN_FS_DEFAULT);
	ck_assert_int_eq(s->file.fill, SCN_FILL_LINES);
	ck_assert_uint_eq(s->n_steps, 4);
	ck_assert_int_eq(s->steps[1].line, 9);
	ck_assert_int_eq(s->steps[1].col, 5);
	ck_assert_str_eq(s->steps[1].say,
			 "5000 bytes: one write(4096) happened [calls.write], {stdio.pending} wait in "
			 "the stdio buffer.");
	check_expect(&s->steps[1], SCN_KEY_STDIO_PENDING, SCN_CMP_EQ, 904, "904", 11, 29);
	check_expect(&s->steps[3], SCN_KEY_DISK_DELALLOC_BYTES, SCN_CMP_EQ, 0, "0", 15, 57);
	load_scenario_free(s);
}
END_TEST

/* The O_DIRECT lesson loads; the rule stops at a plain open. */
START_TEST(test_odirect_lesson)
{
	char path[4096];
	struct scenario *s = load_ok(fixture("good/odirect-lesson.yaml", path, sizeof path));

	ck_assert_uint_eq(s->n_steps, 9);
	check_expect(&s->steps[1], SCN_KEY_RESULT_VALUE, SCN_CMP_EQ, -1, "-1", 7, 50);
	ck_assert_uint_eq(s->steps[8].args.bytes, 100);
	load_scenario_free(s);
	s = load_ok(fixture("good/tmpfs-direct.yaml", path, sizeof path));
	ck_assert_int_eq(s->file.on, SCN_FS_TMPFS);
	load_scenario_free(s);
}
END_TEST

/* Build a position tree from TEXT; on failure fill msg/line/col. */
static int
tree(const char *text, struct yamlpos **ix, int *line, int *col, char *msg, size_t len)
{
	*line = *col = 0;
	msg[0] = '\0';
	return yamlpos_build(text, strlen(text), ix, line, col, msg, len);
}

/* The position index: kinds, keys, values and 1-based positions of keys and values. */
START_TEST(test_yamlpos_tree)
{
	struct yamlpos *ix;
	int line, col;
	char msg[256];
	const char *text = "a: 1\nb: [x, {c: d}]\nlist:\n  - ~\n  - \"q\"\n";

	ck_assert_int_eq(tree(text, &ix, &line, &col, msg, sizeof msg), 0);
	const struct yamlpos_node *root = yamlpos_node(ix, 0);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(root->kind, YAMLPOS_MAP);
	ck_assert_uint_eq(root->n_children, 3);
	const struct yamlpos_node *a = yamlpos_get(ix, root, "a");
	ck_assert_int_eq(a->kind, YAMLPOS_SCALAR);
	ck_assert_str_eq(a->value, "1");
	ck_assert_int_eq(a->key_line, 1);
	ck_assert_int_eq(a->key_col, 1);
	ck_assert_int_eq(a->line, 1);
	ck_assert_int_eq(a->col, 4);
	const struct yamlpos_node *b = yamlpos_get(ix, root, "b");
	ck_assert_int_eq(b->kind, YAMLPOS_SEQ);
	ck_assert_int_eq(b->line, 2);
	ck_assert_int_eq(b->col, 4);
	ck_assert_uint_eq(b->n_children, 2);
	const struct yamlpos_node *m = yamlpos_at(ix, b, 1);
	ck_assert_int_eq(m->kind, YAMLPOS_MAP);
	ck_assert_int_eq(m->col, 8);
	ck_assert_str_eq(yamlpos_get(ix, m, "c")->value, "d");
	ck_assert_int_eq(yamlpos_get(ix, m, "c")->key_col, 9);
	ck_assert_ptr_null(yamlpos_get(ix, m, "x"));
	ck_assert_ptr_null(yamlpos_get(ix, b, "x")); /* not a mapping */
	ck_assert_ptr_null(yamlpos_at(ix, b, 2));
	const struct yamlpos_node *l = yamlpos_get(ix, root, "list");
	ck_assert(yamlpos_at(ix, l, 0)->is_null);
	ck_assert(!yamlpos_at(ix, l, 1)->is_null); /* quoted: a value, not null */
	ck_assert_int_eq(yamlpos_at(ix, l, 1)->line, 5);
	ck_assert_int_eq(yamlpos_at(ix, l, 1)->col, 5);
	ck_assert_ptr_eq(yamlpos_next(ix, yamlpos_first(ix, root)), b);
	ck_assert_ptr_null(yamlpos_node(ix, -1));
	ck_assert_ptr_null(yamlpos_node(ix, 1000));
	yamlpos_free(ix);
	yamlpos_free(NULL);

	ck_assert_int_eq(tree("", &ix, &line, &col, msg, sizeof msg), 0);
	ck_assert_uint_eq(ix->n, 0);
	ck_assert_ptr_null(yamlpos_node(ix, 0));
	yamlpos_free(ix);
}
END_TEST

/* What the index refuses, and where it says so. */
START_TEST(test_yamlpos_refusals)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} cases[] = {
		{ "a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a'" },
		{ "a: &x 1\nb: *x\n", 2, 4, "YAML aliases (*x) are not supported in scenarios: write the value out" },
		{ "a: 1\n---\nb: 2\n", 2, 1, "a second YAML document starts here: a scenario is one document" },
		{ "? [a]\n: 1\n", 1, 3, "a key must be plain text, not a mapping or a list" },
		{ "a:\n\tb: 1\n", 2, 1, "YAML syntax error: a tab; YAML indents with spaces only" },
		{ "a: [1, 2\n", 2, 1, "YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence (from line 1, column 4)" },
		{ "a: \"\x01\"\n", 1, 5, "not a YAML text file: control characters are not allowed" },
		{ "a: 1\nb: \"x\\0y\"\n", 2, 4, "a NUL byte in this text: a scenario's texts are C "
		  "strings, which it would end (for bytes that are not text, write bytes: N)" },
		{ "\"k\\0\": 1\n", 1, 1, "a NUL byte in this text: a scenario's texts are C "
		  "strings, which it would end (for bytes that are not text, write bytes: N)" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct yamlpos *ix = (struct yamlpos *)1;
		int line, col;
		char msg[256];
		ck_assert_int_eq(tree(cases[i].text, &ix, &line, &col, msg, sizeof msg), -1);
		ck_assert_ptr_null(ix);
		ck_assert_str_eq(msg, cases[i].msg);
		ck_assert_msg(line == cases[i].line && col == cases[i].col, "case %zu: %d:%d, want %d:%d",
			      i, line, col, cases[i].line, cases[i].col);
	}
}
END_TEST

/* Names of ops, keys and comparisons, and which ops are stdio's. */
START_TEST(test_names)
{
	for (int i = 0; i < SCN_OP__COUNT; i++) {
		ck_assert_str_ne(scenario_op_name(i), "?");
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(scenario_op_name(i), scenario_op_name(j));
	}
	for (int i = 0; i < SCN_KEY__COUNT; i++)
		ck_assert_str_ne(scenario_key_name(i), "?");
	ck_assert_str_eq(scenario_op_name(SCN_OP_FADVISE), "posix_fadvise");
	ck_assert_str_eq(scenario_op_name(SCN_OP_SYNC_FILE_RANGE), "sync_file_range");
	ck_assert_str_eq(scenario_op_name(SCN_OP__COUNT), "?");
	ck_assert_str_eq(scenario_key_name(SCN_KEY_CACHE_DIRTY_PAGES), "cache.dirty_pages");
	ck_assert_str_eq(scenario_key_name(SCN_KEY_OUTPUT_FILE), "output.file");
	ck_assert_str_eq(scenario_key_name(SCN_KEY__COUNT), "?");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_EQ), "=");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_NE), "!=");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_LT), "<");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_LE), "<=");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_GT), ">");
	ck_assert_str_eq(scenario_cmp_name(SCN_CMP_GE), ">=");
	ck_assert(scenario_op_is_stdio(SCN_OP_FWRITE));
	ck_assert(scenario_op_is_stdio(SCN_OP_FOPEN));
	ck_assert(scenario_op_is_stdio(SCN_OP_FCLOSE));
	ck_assert(scenario_op_is_stdio(SCN_OP_SETVBUF));
	ck_assert(!scenario_op_is_stdio(SCN_OP_WRITE));
	ck_assert(!scenario_op_is_stdio(SCN_OP_FSYNC));
	ck_assert(!scenario_op_is_stdio(SCN_OP_SWEEP));
	ck_assert(!scenario_op_is_stdio(SCN_OP__COUNT));
}
END_TEST

/* The suite. */
static Suite *
scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, test_nonexistent);
	tcase_add_test(tc, test_directory);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_hostile_inputs);
	tcase_add_test(tc, test_several_errors);
	tcase_add_test(tc, test_shapes);
	tcase_add_test(tc, test_one_pass);
	tcase_add_test(tc, test_many_errors);
	tcase_add_test(tc, test_bad_fixtures);
	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_narration);
	tcase_add_test(tc, test_good_fixtures);
	tcase_add_test(tc, test_all_ops);
	tcase_add_test(tc, test_named_describe);
	tcase_add_test(tc, test_tables_documented);
	tcase_add_test(tc, test_every_op);
	tcase_add_test(tc, test_design_example);
	tcase_add_test(tc, test_odirect_lesson);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_libcyaml_raw);
	tcase_add_test(tc, test_libcyaml_op_args);
	tcase_add_test(tc, test_fuzz_shapes);
	suite_add_tcase(s, tc);
	tc = tcase_create("yamlpos");
	tcase_add_test(tc, test_yamlpos_tree);
	tcase_add_test(tc, test_yamlpos_refusals);
	suite_add_tcase(s, tc);
	return s;
}

/* Run the suite. */
int
main(void)
{
	return test_util_run(scenario_suite());
}
