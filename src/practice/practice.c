/* SPDX-License-Identifier: MIT */
/* practice/practice.c: the practice topics' generators and their models (practice-judge.c
 * scores them against a real run). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/event.h"
#include "lesson/expect.h"
#include "practice/practice-int.h"
#include "practice/practice.h"
#include "scenario/scenario.h"
#include "probe/snapshot.h"

#define PRACTICE_CACHE_PAGES 8

/* Next value of the splitmix64 generator in *state. */
uint64_t
practice_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A number in [0, n): the same on every machine (no rand(), no modulo of a libc value). */
uint64_t
practice_below(uint64_t *rng, uint64_t n)
{
	return n == 0 ? 0 : practice_rand(rng) % n;
}

/* Copy src into dst of len bytes, cut short if it must be (messages and short labels). */
void
practice_copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

/* One of the n values of v. */
uint64_t
practice_pick(uint64_t *rng, const uint64_t *v, size_t n)
{
	return v[practice_below(rng, n)];
}

/* Start a question about step (0-based) into p; NULL when p has no room left. */
struct practice_question *
practice_question_add(struct practice_problem *p, size_t step, enum scn_key key,
                      enum practice_kind kind)
{
	struct practice_question *q;

	if (p->n_q >= PRACTICE_MAX_Q)
		return NULL;
	q = &p->q[p->n_q++];
	memset(q, 0, sizeof *q);
	q->step = step;
	q->key = key;
	q->kind = kind;
	return q;
}

/* Write a step's ask: and exact expectation of key (the quiz asks it before the step). */
static void
practice_expect(FILE *y, const char *ask, enum scn_key key, const char *value)
{
	fprintf(y, "    ask: \"%s\"\n    expect: {%s: %s}\n", ask, scenario_key_name(key), value);
}

/* Write pages set in v[0..n) as ranges ("0-2,5"; "none" when empty) into buf. */
void
practice_pages_format(const bool *v, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		if (!v[i])
			continue;
		while (j + 1 < n && v[j + 1])
			j++;
		if (j == i)
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%zu",
			                         used > 0 ? "," : "", i);
		else
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%zu-%zu",
			                         used > 0 ? "," : "", i, j);
		i = j;
	}
	if (used == 0)
		snprintf(buf, len, "none");
}

/* ---- stdio: a model of glibc 2.36's fileops (_IO_new_file_xsputn and friends) ---- */

/* new_do_write(): one write() of n bytes, then the buffer is empty again. */
void
practice_stdio_write(struct practice_stdio *m, int64_t n)
{
	if (m->n_writes < sizeof m->writes / sizeof m->writes[0])
		m->writes[m->n_writes] = n;
	m->n_writes++;
	m->ptr = 0;
	m->end = (m->line || m->unbuf) ? 0 : m->size;
}

/* _IO_new_file_overflow(f, ch); ch < 0 is EOF (flush only). */
static void
practice_stdio_overflow(struct practice_stdio *m, int ch)
{
	if (!m->putting) {
		if (m->size == 0)
			m->size = m->unbuf ? 1 : (m->own > 0 ? m->own : PRACTICE_PAGE);
		m->ptr = 0;
		m->end = (m->line || m->unbuf) ? 0 : m->size;
		m->putting = true;
	}
	if (ch < 0) {
		if (m->ptr > 0)
			practice_stdio_write(m, m->ptr);
		return;
	}
	if (m->ptr == m->size)
		practice_stdio_write(m, m->ptr);
	m->ptr++;
	if (m->unbuf || (m->line && ch == '\n'))
		practice_stdio_write(m, m->ptr);
}

/* _IO_new_file_xsputn(): fwrite()/fputs() of n bytes of s (s NULL: no newlines). */
void
practice_stdio_put(struct practice_stdio *m, const char *s, int64_t n)
{
	int64_t count = 0, todo = n, block, direct;
	bool must_flush = false;

	if (m->line && m->putting) {
		count = m->size - m->ptr;
		if (count >= n && s != NULL)
			for (int64_t i = n; i > 0; i--)
				if (s[i - 1] == '\n') {
					count = i;
					must_flush = true;
					break;
				}
	} else if (m->end > m->ptr) {
		count = m->end - m->ptr;
	}
	if (count > 0) {
		if (count > todo)
			count = todo;
		m->ptr += count;
		todo -= count;
	}
	if (todo + must_flush == 0)
		return;
	practice_stdio_overflow(m, -1);
	block = m->size;
	direct = todo - (block >= 128 ? todo % block : 0);
	if (direct > 0)
		practice_stdio_write(m, direct);
	/* _IO_default_xsputn(): copy what fits, the rest one byte at a time through overflow. */
	for (int64_t i = n - todo + direct; i < n;) {
		int64_t room = m->end - m->ptr;
		if (room > 0) {
			int64_t k = room < n - i ? room : n - i;
			m->ptr += k;
			i += k;
			if (i == n)
				break;
		}
		practice_stdio_overflow(m, s != NULL ? (unsigned char)s[i] : 'a');
		i++;
	}
}

/* A line of text for fputs(): letters, with a newline or two, or none. */
static void
practice_stdio_text(uint64_t *rng, char *buf, size_t len)
{
	/* At most 36 bytes: the program listing shows 40 in full, and where the newlines are. */
	size_t n = 3 + (size_t)practice_below(rng, len - 4 < 34 ? len - 4 : 34);
	unsigned nl = (unsigned)practice_below(rng, 3);

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + practice_below(rng, 26));
	buf[n] = '\0';
	if (nl >= 1)
		buf[n - 1] = '\n';
	if (nl == 2)
		buf[practice_below(rng, n - 1)] = '\n';
}

/* Write text as a YAML double-quoted string body (newlines as \n). */
static void
practice_yaml_text(FILE *y, const char *text)
{
	for (const char *c = text; *c != '\0'; c++)
		if (*c == '\n')
			fputs("\\n", y);
		else
			putc(*c, y);
}

/* The stdio topic: a buffering mode and size, then fwrite/fputs/fflush, then fclose. */
void
practice_stdio_generate(struct practice_problem *p, uint64_t *rng, FILE *y)
{
	static const uint64_t sizes[] = { 1000, 1024, 1500, 2000, 2048, 3000, 4000, 5000, 8192 };
	struct practice_stdio m;
	unsigned mode = (unsigned)practice_below(rng, 10);
	size_t step = 1, n_ops = 4 + (size_t)practice_below(rng, 3);

	memset(&m, 0, sizeof m);
	fputs("  - fopen: {mode: w}\n", y);
	m.line = mode >= 6 && mode < 9;
	m.unbuf = mode == 9;
	if (m.unbuf) {
		fputs("  - setvbuf: {mode: none}\n", y);
	} else if (practice_below(rng, 4) == 0) {
		fprintf(y, "  - setvbuf: {mode: %s}\n", m.line ? "line" : "full");
	} else {
		m.own = (int64_t)practice_pick(rng, sizes, sizeof sizes / sizeof sizes[0]);
		m.size = m.own;
		fprintf(y, "  - setvbuf: {mode: %s, size: %" PRId64 ", buffer: own}\n",
		        m.line ? "line" : "full", m.own);
	}
	p->rules |= m.unbuf ? PRACTICE_RULE_UNBUF : m.line ? PRACTICE_RULE_LINE : PRACTICE_RULE_FULL;
	if (!m.unbuf && m.own == 0)
		p->rules |= PRACTICE_RULE_LIBBUF;
	step++;
	for (size_t k = 0; k < n_ops; k++, step++) {
		unsigned op = (unsigned)practice_below(rng, 10);
		int64_t unit = m.own > 0 ? m.own : PRACTICE_PAGE;
		char text[64];
		struct practice_question *q;
		bool pending = practice_below(rng, 3) == 0;

		m.n_writes = 0;
		if (op < 5) {
			int64_t n = 1 + (int64_t)practice_below(rng, (uint64_t)(unit * 5 / 2));
			fprintf(y, "  - fwrite: {bytes: %" PRId64 "}\n", n);
			practice_stdio_put(&m, NULL, n);
		} else if (op < 9 || k == 0) {
			practice_stdio_text(rng, text, sizeof text);
			fputs("  - fputs: {text: \"", y);
			practice_yaml_text(y, text);
			fputs("\"}\n", y);
			practice_stdio_put(&m, text, (int64_t)strlen(text));
		} else {
			fputs("  - fflush: {}\n", y);
			if (m.putting && m.ptr > 0)
				practice_stdio_write(&m, m.ptr);
		}
		q = practice_question_add(p, step, pending ? SCN_KEY_STDIO_PENDING : SCN_KEY_CALLS_WRITE,
		                          PRACTICE_NUMBER);
		if (q == NULL)
			continue;
		if (pending) {
			snprintf(q->text, sizeof q->text, "How many bytes are pending in the stdio "
			         "buffer after line %zu?", step + 1);
			snprintf(q->model, sizeof q->model, "%" PRId64, m.putting ? m.ptr : 0);
		} else {
			size_t used = 0;
			snprintf(q->text, sizeof q->text, "How many write() calls does line %zu make, "
			         "and of which sizes?", step + 1);
			snprintf(q->model, sizeof q->model, "%zu", m.n_writes);
			for (size_t i = 0; i < m.n_writes && i < 64 && used < sizeof q->model_detail; i++)
				used += (size_t)snprintf(q->model_detail + used, sizeof q->model_detail - used,
				                         "%s%" PRId64, i > 0 ? ", " : "", m.writes[i]);
		}
		practice_expect(y, q->text, q->key, q->model);
	}
	fputs("  - fclose: {}\n", y);
}

/* ---- cache: pages cached and dirty, folio by folio ---- */

/* The page cache of the scratch file as a model sees it: pages, and the folios holding them. */
struct practice_pages {
	bool large;                 /* writes make large folios (ext4 on Linux 6.x); else pages */
	bool cached[PRACTICE_CACHE_PAGES], dirty[PRACTICE_CACHE_PAGES];
	size_t head[PRACTICE_CACHE_PAGES];   /* first page of the folio holding page i */
	size_t nr[PRACTICE_CACHE_PAGES];     /* pages of the folio that starts at page i */
};

/* The two models of the topic, and the pages the last transfer touched. */
struct practice_cache {
	struct practice_pages now;  /* large folios: the answer, on kernels like this one */
	struct practice_pages book; /* one page per folio: the textbook's answer */
	size_t first, last;
};

/* Count the true entries of v[0..PRACTICE_CACHE_PAGES). */
static size_t
practice_cache_count(const bool *v)
{
	size_t n = 0;

	for (size_t i = 0; i < PRACTICE_CACHE_PAGES; i++)
		n += v[i];
	return n;
}

/* Cache a folio of nr pages from page first. */
static void
practice_cache_add(struct practice_pages *m, size_t first, size_t nr)
{
	for (size_t i = first; i < first + nr; i++) {
		m->cached[i] = true;
		m->head[i] = first;
	}
	m->nr[first] = nr;
}

/*
 * pwrite() of n bytes at off, as generic_perform_write() does it: where no folio is cached,
 * one of 2^order pages, order from the bytes left (fgf_set_order), cut to the index's
 * alignment and to what is free; the whole folio holding a written byte becomes dirty.
 */
static void
practice_cache_write(struct practice_pages *m, uint64_t off, uint64_t n)
{
	while (n > 0) {
		size_t idx = (size_t)(off / PRACTICE_PAGE);
		uint64_t end;

		if (!m->cached[idx]) {
			unsigned order = 0;
			while (m->large && ((uint64_t)PRACTICE_PAGE << (order + 1)) <= n)
				order++;
			while (order > 0 && idx % ((size_t)1 << order) != 0)
				order--;
			for (bool busy = true; busy && order > 0;) {
				busy = idx + ((size_t)1 << order) > PRACTICE_CACHE_PAGES;
				for (size_t i = idx; !busy && i < idx + ((size_t)1 << order); i++)
					busy = m->cached[i];
				order -= busy;
			}
			practice_cache_add(m, idx, (size_t)1 << order);
		}
		idx = m->head[idx];
		for (size_t i = idx; i < idx + m->nr[idx]; i++)
			m->dirty[i] = true;
		end = (uint64_t)(idx + m->nr[idx]) * PRACTICE_PAGE;
		n -= end - off < n ? end - off : n;
		off = end;
	}
}

/* pread() of whole pages with read-ahead off: each missing page comes in as its own folio. */
static void
practice_cache_read(struct practice_pages *m, size_t first, size_t last)
{
	for (size_t i = first; i <= last; i++)
		if (!m->cached[i])
			practice_cache_add(m, i, 1);
}

/* DONTNEED on pages first..last: clean folios wholly inside the range leave the cache. */
static void
practice_cache_drop(struct practice_pages *m, size_t first, size_t last)
{
	for (size_t i = first; i <= last; i++) {
		size_t h = m->head[i];
		if (!m->cached[i] || m->dirty[i] || h < first || h + m->nr[h] - 1 > last)
			continue;
		for (size_t k = h; k < h + m->nr[h]; k++)
			m->cached[k] = false;
	}
}

/* Add the choices of a "which pages" question: the model's set and two wrong ones. */
static void
practice_cache_choices(struct practice_question *q, const struct practice_cache *m,
                       uint64_t *rng)
{
	const struct practice_pages *now = &m->now, *book = &m->book;
	bool v[PRACTICE_CACHE_PAGES];
	char cand[5][48];
	size_t n = 0;

	practice_pages_format(q->dirty ? now->dirty : now->cached, PRACTICE_CACHE_PAGES, q->model,
	                      sizeof q->model);
	/* Wrong but tempting (or right on another kernel): the textbook's pages, the last call's
	 * pages alone, the other set, none, all. */
	practice_pages_format(q->dirty ? book->dirty : book->cached, PRACTICE_CACHE_PAGES, cand[0],
	                      sizeof cand[0]);
	for (size_t i = 0; i < PRACTICE_CACHE_PAGES; i++)
		v[i] = i >= m->first && i <= m->last;
	practice_pages_format(v, PRACTICE_CACHE_PAGES, cand[1], sizeof cand[1]);
	practice_pages_format(q->dirty ? now->cached : now->dirty, PRACTICE_CACHE_PAGES, cand[2],
	                      sizeof cand[2]);
	snprintf(cand[3], sizeof cand[3], "none");
	snprintf(cand[4], sizeof cand[4], "0-%d", PRACTICE_CACHE_PAGES - 1);
	practice_copy(q->choices[n++], sizeof q->choices[0], q->model);
	for (size_t c = 0; c < 5 && n < 3; c++) {
		bool dup = false;
		for (size_t i = 0; i < n; i++)
			dup |= strcmp(q->choices[i], cand[c]) == 0;
		if (!dup)
			practice_copy(q->choices[n++], sizeof q->choices[0], cand[c]);
	}
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)practice_below(rng, i + 1);
		char t[48];
		memcpy(t, q->choices[i], sizeof t);
		memcpy(q->choices[i], q->choices[j], sizeof t);
		memcpy(q->choices[j], t, sizeof t);
	}
	/* Last, for a kernel that does neither model's way: its answer is still a choice. */
	practice_copy(q->choices[n++], sizeof q->choices[0], PRACTICE_OTHER_SET);
	q->n_choices = n;
}

/* Write a pread or pwrite of n bytes at off into the scenario and into both models. */
static void
practice_cache_transfer(struct practice_cache *m, FILE *y, bool write, uint64_t off,
                        uint64_t n)
{
	fprintf(y, "  - %s: {bytes: %" PRIu64 ", offset: %" PRIu64 "}\n",
	        write ? "pwrite" : "pread", n, off);
	m->first = (size_t)(off / PRACTICE_PAGE);
	m->last = (size_t)((off + n - 1) / PRACTICE_PAGE);
	for (int k = 0; k < 2; k++) {
		struct practice_pages *pg = k == 0 ? &m->now : &m->book;
		if (write)
			practice_cache_write(pg, off, n);
		else
			practice_cache_read(pg, m->first, m->last);
	}
}

/* The cache topic: pwrite/pread at offsets, fsync/fdatasync, DONTNEED on a cold 8-page file. */
void
practice_cache_generate(struct practice_problem *p, uint64_t *rng, FILE *y)
{
	struct practice_cache m;
	size_t step = 2, n_ops = 4 + (size_t)practice_below(rng, 3);

	memset(&m, 0, sizeof m);
	m.now.large = true;
	fputs("  - open: {flags: [O_RDWR]}\n", y);
	fputs("  - posix_fadvise: {advice: RANDOM}\n", y);
	for (size_t k = 0; k < n_ops; k++, step++) {
		unsigned op = (unsigned)practice_below(rng, 10);
		uint64_t size = PRACTICE_CACHE_PAGES * PRACTICE_PAGE;
		struct practice_question *q;
		unsigned ask = (unsigned)practice_below(rng, 4);
		char ask_text[160], count[24];

		if (op < 4 || k == 0) {
			uint64_t off = practice_below(rng, size - 1);
			uint64_t n = 1 + practice_below(rng, size - off < 3 * PRACTICE_PAGE ?
			                                     size - off : 3 * PRACTICE_PAGE);
			if (practice_below(rng, 2) == 0)
				off -= off % PRACTICE_PAGE;
			if (off + n > size)
				n = size - off;
			practice_cache_transfer(&m, y, true, off, n);
		} else if (op < 7) {
			uint64_t off = PRACTICE_PAGE * practice_below(rng, PRACTICE_CACHE_PAGES);
			uint64_t n = PRACTICE_PAGE * (1 + practice_below(rng, 3));
			if (off + n > size)
				n = size - off;
			practice_cache_transfer(&m, y, false, off, n);
		} else {
			size_t first = (size_t)practice_below(rng, PRACTICE_CACHE_PAGES);
			size_t last = first + (size_t)practice_below(rng, PRACTICE_CACHE_PAGES - first);
			bool dirty = false;
			for (size_t i = first; i <= last; i++)
				dirty |= m.now.dirty[i] || m.book.dirty[i];
			if (op == 9 && !dirty) {
				/* DONTNEED drops clean pages only: dirty ones would race with writeback. */
				fprintf(y, "  - posix_fadvise: {advice: DONTNEED, offset: %zu, len: %zu}\n",
				        first * PRACTICE_PAGE, (last - first + 1) * PRACTICE_PAGE);
				practice_cache_drop(&m.now, first, last);
				practice_cache_drop(&m.book, first, last);
			} else {
				fprintf(y, "  - %s: {}\n", op == 7 ? "fsync" : "fdatasync");
				memset(m.now.dirty, 0, sizeof m.now.dirty);
				memset(m.book.dirty, 0, sizeof m.book.dirty);
			}
		}
		q = practice_question_add(p, step, ask < 2 ? SCN_KEY_CACHE_DIRTY_PAGES :
		                          SCN_KEY_CACHE_PAGES, ask % 2 == 0 ? PRACTICE_PAGES :
		                          PRACTICE_NUMBER);
		if (q == NULL)
			continue;
		q->dirty = ask < 2;
		snprintf(ask_text, sizeof ask_text, "How many pages of the file are %s after line %zu?",
		         q->dirty ? "dirty" : "in the page cache", step + 1);
		snprintf(count, sizeof count, "%zu",
		         practice_cache_count(q->dirty ? m.now.dirty : m.now.cached));
		/* An answer that large folios change rests on their rule: the intro states it. */
		{
			const bool *now = q->dirty ? m.now.dirty : m.now.cached;
			const bool *book = q->dirty ? m.book.dirty : m.book.cached;
			if (q->kind == PRACTICE_PAGES ?
			    memcmp(now, book, PRACTICE_CACHE_PAGES * sizeof *now) != 0 :
			    practice_cache_count(now) != practice_cache_count(book))
				p->rules |= PRACTICE_RULE_FOLIO;
		}
		if (q->kind == PRACTICE_PAGES) {
			snprintf(q->text, sizeof q->text, "Which pages of the file are %s after line %zu?",
			         q->dirty ? "dirty" : "in the page cache", step + 1);
			practice_cache_choices(q, &m, rng);
		} else {
			snprintf(q->text, sizeof q->text, "%s", ask_text);
			snprintf(q->model, sizeof q->model, "%s", count);
		}
		practice_expect(y, ask_text, q->key, count);
	}
	fputs("  - close: {}\n", y);
}

/* ---- direct: O_DIRECT transfers that keep or break the alignment rule ---- */

/* The direct topic: preads and pwrites of various sizes, offsets and buffer skews. */
void
practice_direct_generate(struct practice_problem *p, uint64_t *rng, FILE *y)
{
	static const uint64_t bytes[] = { 512, 1024, 4096, 8192, 2048, 100, 256, 1000, 3000 };
	static const uint64_t offs[] = { 0, 512, 4096, 8192, 1024, 0, 1, 100, 2048 };
	static const uint64_t aligns[] = { 0, 0, 0, 0, 0, 0, 256, 1, 512, 8 };
	size_t step = 1, n_ops = 5 + (size_t)practice_below(rng, 3);

	fputs("  - open: {flags: [O_RDWR, O_DIRECT]}\n", y);
	for (size_t k = 0; k < n_ops; k++, step++) {
		struct scn_args a;
		bool wr = practice_below(rng, 2) == 0;
		struct practice_question *q;
		char ask[160], got[24];

		memset(&a, 0, sizeof a);
		a.has = SCN_HAS_BYTES | SCN_HAS_OFFSET | SCN_HAS_ALIGN;
		a.bytes = practice_pick(rng, bytes, sizeof bytes / sizeof bytes[0]);
		a.offset = (int64_t)practice_pick(rng, offs, sizeof offs / sizeof offs[0]);
		a.align = (unsigned)practice_pick(rng, aligns, sizeof aligns / sizeof aligns[0]);
		/* A buffer off its alignment alone is the device's question, not the rule's
		 * (PRACTICE_RULE_DIOMEM): it comes only with a length or an offset off theirs. */
		if (a.bytes % 512 == 0 && a.offset % 512 == 0)
			a.align -= a.align % 512;
		if (a.align % 512 != 0)
			p->rules |= PRACTICE_RULE_DIOMEM;
		fprintf(y, "  - %s: {bytes: %" PRIu64 ", offset: %" PRId64 ", align: %u}\n",
		        wr ? "pwrite" : "pread", a.bytes, a.offset, a.align);
		bool bad = scenario_dio_misfit(&a, 512, 512) != 0;
		q = practice_question_add(p, step, SCN_KEY_RESULT_ERRNO, PRACTICE_CHOICE);
		if (q == NULL)
			continue;
		snprintf(q->text, sizeof q->text, "Does line %zu succeed, or fail with EINVAL?",
		         step + 1);
		snprintf(q->choices[0], sizeof q->choices[0], "succeeds");
		snprintf(q->choices[1], sizeof q->choices[1], "fails with EINVAL");
		q->n_choices = 2;
		snprintf(q->model, sizeof q->model, "%c", bad ? 'b' : 'a');
		snprintf(ask, sizeof ask, "How many bytes will line %zu transfer (0 if it fails)?",
		         step + 1);
		snprintf(got, sizeof got, "%" PRIu64, bad ? 0 : a.bytes);
		fprintf(y, "    ask: \"%s\"\n    expect: {result.errno: %s, %s: %s}\n", ask,
		        bad ? "EINVAL" : "0", wr ? "bytes.written" : "bytes.read", got);
	}
	fputs("  - close: {}\n", y);
}

/* Free what p owns. */
void
practice_problem_clear(struct practice_problem *p)
{
	free(p->yaml);
	p->yaml = NULL;
	p->yaml_len = 0;
}

/* Load p's scenario through the normal loader, from a memfd seen through /proc/self/fd. */
int
practice_load(const struct practice_problem *p, struct scenario **out, char **err)
{
	char path[64];
	int fd = memfd_create("iobufviz-practice", MFD_CLOEXEC), rc;
	size_t done = 0;

	*err = NULL;
	if (fd < 0)
		goto fail;
	while (done < p->yaml_len) {
		ssize_t w = write(fd, p->yaml + done, p->yaml_len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			goto fail;
		}
		done += (size_t)w;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	rc = load_scenario(path, out, err);
	close(fd);
	return rc;
fail:
	if (asprintf(err, "practice: cannot hold the scenario in memory: %s\n",
	             strerror(errno)) < 0)
		*err = NULL;
	return -1;
}
