/* SPDX-License-Identifier: MIT */
/* practice/practice-topic.c: the practice topics (their table) and a problem made from one:
 * above every topic's generator (practice.c, practice-crash.c), which it calls. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "practice/practice-int.h"
#include "practice/practice.h"

/*
 * The rules the answers rest on beyond a topic's intro, as the intro states them (glibc 2.36's
 * _IO_new_file_xsputn, _IO_new_file_overflow and _IO_default_xsputn, which the stdio model
 * follows; Linux 6.x's page cache, which the cache model follows). Each is stated when an
 * answer of the problem needs it.
 */
static const char *const practice_rule_text[PRACTICE_RULE__COUNT] = {
	/* PRACTICE_RULE_FULL */
	"Fully buffered, glibc's rule: a call first copies into the buffer what fits in the room "
	"left (on the stream's first output call, nothing: the buffer is not in use yet). If bytes "
	"remain, the buffer is written with one write() if it holds any, then the largest "
	"multiple of the buffer size among the remaining bytes goes out with one write() of its "
	"own, and the rest is copied into the empty buffer. fflush() and fclose() write what is "
	"pending.",
	/* PRACTICE_RULE_LINE */
	"Line buffered, glibc's rule: when the stream has written before and a call's bytes fit "
	"in the room left, they are copied and, if they hold a newline, everything up to the last "
	"newline is written with one write() (the pending bytes with it). Otherwise (the stream's "
	"first output call, or bytes that do not fit): what fits is copied (nothing on the first "
	"call), the buffer is written with one write() if it holds any, the largest multiple of "
	"the buffer size among the remaining bytes goes out with one write(), and the rest goes in "
	"one byte at a time: each newline writes the buffer, as does a full buffer before the next "
	"byte. fflush() and fclose() write what is pending.",
	/* PRACTICE_RULE_UNBUF */
	"Unbuffered: each call is one write() of all its bytes.",
	/* PRACTICE_RULE_LIBBUF */
	"setvbuf() with a NULL buffer: glibc ignores the size and allocates st_blksize bytes at "
	"the first output call (4096 is assumed; a filesystem with another st_blksize gives "
	"other answers, and this machine's count).",
	/* PRACTICE_RULE_FOLIO */
	"Large folios (Linux 6.x, ext4 and xfs): where a write finds its page not cached, the "
	"kernel caches a folio of 2, 4, 8 ... pages at once: the largest power of two that the "
	"bytes left to write fill, starting at a page number that is a multiple of it, made of "
	"pages not cached yet. A folio is dirtied as a whole (one byte written dirties all its "
	"pages), and DONTNEED drops it only when all of it is in the range and clean. With one "
	"page a folio (the textbook; some filesystems) the answers differ, and this machine's "
	"count.",
	/* PRACTICE_RULE_DIOMEM */
	"A buffer off its alignment comes here only with a length or an offset off theirs, which "
	"decide. Alone, it would be the device's question, not the rule's: Linux checks the "
	"address against the device's DMA alignment, which may be finer than dio_mem_align (a "
	"virtio disk on Linux 6.x takes a buffer 1 byte off, within one page).",
};

/* The topics. Their intros are the scenario's intro: the teaching text is data. */
const struct practice_topic practice_topics[] = {
	{ "stdio", "stdio buffer arithmetic: setvbuf modes and sizes, fwrite/fputs/fflush",
	  "A stdio stream with a buffering mode and a buffer size, then a few calls. Work out, "
	  "from the mode and the size alone, when stdio calls write() and with how many bytes, "
	  "and what is left waiting in the buffer.",
	  practice_stdio_generate },
	{ "cache", "page cache: which pages pwrite/pread/fsync/fadvise leave cached or dirty",
	  "An 8-page file (pages 0-7, 4096 bytes each), not in the page cache. Read-ahead is off "
	  "(POSIX_FADV_RANDOM): a read caches exactly the pages it touches. Which pages does "
	  "each call bring in, dirty, clean or drop?",
	  practice_cache_generate },
	{ "direct", "O_DIRECT: which transfers of these sizes, offsets and buffers fail (EINVAL)",
	  "A 64 KiB file opened with O_DIRECT. The rule, as statx(STATX_DIOALIGN) gives it: a "
	  "transfer's length and file offset must be multiples of dio_offset_align, its buffer's "
	  "address a multiple of dio_mem_align; a length or an offset that breaks it gets EINVAL. "
	  "The questions assume 512 for both, as most disks report (where this machine differs, "
	  "its answer counts). The buffer is data, page-aligned, plus the skew shown. Which "
	  "transfers does the kernel refuse?",
	  practice_direct_generate },
	{ "crash", "what survives a crash: kill -9 or a power cut after fwrite/fflush/fsync/O_SYNC",
	  "A new file, written through stdio or a descriptor, then crashed twice, for real: kill -9 "
	  "of the process (its stdio buffer dies with it, the page cache does not), and a power "
	  "cut (the disk as the device holds it, recovered by the kernel: as root, on a crash lab "
	  "of the run's own). What does the file hold after each?",
	  practice_crash_generate },
	{ NULL, NULL, NULL, NULL },
};

/* The topic named name, or NULL. */
const struct practice_topic *
practice_topic_find(const char *name)
{
	for (const struct practice_topic *t = practice_topics; t->name != NULL; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

/* Generate topic t's problem for seed into p. 0, or -1 out of memory. */
int
practice_generate(const struct practice_topic *t, uint64_t seed, struct practice_problem *p)
{
	uint64_t rng = seed;
	char *steps = NULL;
	size_t steps_len = 0;
	FILE *y, *st;
	int rc;

	memset(p, 0, sizeof *p);
	p->topic = t;
	p->seed = seed;
	/* The steps first: they decide which rules the intro must state. */
	st = open_memstream(&steps, &steps_len);
	if (st == NULL)
		return -1;
	t->generate(p, &rng, st);
	if (fclose(st) != 0) {
		free(steps);
		return -1;
	}
	y = open_memstream(&p->yaml, &p->yaml_len);
	if (y == NULL) {
		free(steps);
		return -1;
	}
	fprintf(y, "# SPDX-License-Identifier: MIT\n"
	        "title: \"Practice: %s, seed %" PRIu64 "\"\n"
	        "source: \"iobufviz --practice %s --seed %" PRIu64 "\"\n"
	        "intro: \"[background]\\n%s", t->name, seed, t->name, seed, t->intro);
	/* The problem and its rules are general teaching, not facts of a run: background. */
	for (int r = 0; r < PRACTICE_RULE__COUNT; r++)
		if (p->rules & (1u << r))
			fprintf(y, "\\n\\n[background]\\n%s", practice_rule_text[r]);
	fprintf(y, "\"\nfile: {size: %s, fill: zero}\nsteps:\n%s",
	        strcmp(t->name, "stdio") == 0 || strcmp(t->name, "crash") == 0 ? "0" :
	        strcmp(t->name, "cache") == 0 ? "32KiB" : "64KiB", steps);
	free(steps);
	rc = fclose(y);
	if (rc != 0) {
		practice_problem_clear(p);
		return -1;
	}
	return 0;
}
