/* SPDX-License-Identifier: MIT */
/* narr-rule.c: what a sentence may state only when it rests on a fact of the same kind (the
 * dirty state, what is cached, the disk, durability and crashes, what waits in a buffer, a
 * count, in digits or words of any size; in a sweep, a comparison of times), the check of each
 * sentence against it, and of each number against the value of its fact (doc/scenarios.md,
 * section 5). */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load-int.h"

/*
 * What a sentence may not state unless it rests on a fact of the same kind: the state words,
 * the units of counts and, in a sweep, the words that compare times. A sentence has the
 * backing when one of its claims names a key starting with one of KEYS (a quote, a check or a
 * citation), or checks one of FACTS, or (KEYS NULL) compares two of the sweep's rows.
 */
struct narr_rule_family {
	const char *what;          /* for messages */
	const char *hint;          /* marks that would back it, for messages */
	const char *const *words;  /* lowercase; a phrase matches as whole words */
	const char *keys;          /* key prefixes, space-separated; "" any key; NULL: a
	                              comparison of a sweep's rows */
	unsigned facts;            /* 1 << scn_fact */
	unsigned in;               /* SCN_NARR_IN_STEP, SCN_NARR_IN_SWEEP: the says it applies to */
};

#define NARR_RULE_FACT(f) (1u << SCN_FACT_##f)
static const char *const narr_rule_dirty_words[] = {
	"dirty", "clean", "written back", "writeback", "write back", "writes back", NULL,
};
static const char *const narr_rule_cached_words[] = { "cached", NULL };
static const char *const narr_rule_disk_words[] = {
	"allocated", "allocate", "allocates", "allocation", "delalloc", "on the disk", "on disk",
	"the disk", "to disk", "device", "devices", "platter", "platters", "ssd", "ssds", NULL,
};
/* A sweep's say may not name the disk at all without a fact of it: its table has no column
 * for it, and tmpfs has none. */
static const char *const narr_rule_sweep_disk_words[] = {
	"the disk", "a disk", "the disks", "disk's", "the device", "device's", NULL,
};
/* What would outlast a crash: facts of the crash lab and of what reached the device. */
static const char *const narr_rule_durable_words[] = {
	"durable", "durably", "durability", "persistent", "persist", "persists", "persisted",
	"safe", "safely", "stable storage", "journal", "journals", "journaled", "journalled",
	"committed", "commit", "commits", NULL,
};
/* What a crash did: the crash lab's facts only; a power cut's its power cut's, a kill's its
 * process crash's ("kill -9 keeps 100 bytes, and so would a power failure" rests on the
 * kill alone). */
static const char *const narr_rule_crash_words[] = {
	"crash", "crashes", "crashed", "survive", "survives", "survived", "recover", "recovers",
	"recovered", "recovery", NULL,
};
static const char *const narr_rule_power_words[] = {
	"power cut", "power cuts", "power loss", "power failure", NULL,
};
static const char *const narr_rule_kill_words[] = {
	"kill", "kills", "killed", "sigkill", NULL,
};
static const char *const narr_rule_keep_words[] = { "keep", "keeps", "kept", NULL };
/* What waits in a buffer (the stdio buffer's, the cache's). */
static const char *const narr_rule_wait_words[] = {
	"wait", "waits", "waiting", "waited", "pending", NULL,
};
static const char *const narr_rule_flushed_words[] = { "flushed", NULL };
static const char *const narr_rule_full_words[] = {
	"empty", "emptied", "full", "fills", "filled", NULL,
};
static const char *const narr_rule_page_units[] = { "page", "pages", "folio", "folios", NULL };
static const char *const narr_rule_byte_units[] = {
	"byte", "bytes", "b", "kib", "mib", "gib", "kb", "mb", "gb", NULL,
};
/* Each byte unit's size, in the order of narr_rule_byte_units. */
static const int64_t narr_rule_byte_scale[] = {
	1, 1, 1, 1 << 10, 1 << 20, 1 << 30, 1 << 10, 1 << 20, 1 << 30,
};
static const char *const narr_rule_call_units[] = {
	"call", "calls", "syscall", "syscalls", "()", NULL,
};
/* "three writes" counts write() calls as "three write() calls" does ("no writes" names a
 * call the lesson does not make, as "no fsync()" does). */
static const char *const narr_rule_call_nouns[] = { "writes", "reads", NULL };
/* Words that compare times or tell their trend: a sweep's table, measured this run, says. */
static const char *const narr_rule_times_words[] = {
	"slower", "faster", "quicker", "cheaper", "dearer", "costlier", "as fast", "as slow",
	"as cheap", "costs more", "cost more", "costs less", "cost less", "the same time",
	"fall", "falls", "falling", "fell", "rise", "rises", "rising", "rose", "doubles", "halves",
	"jump", "jumps", NULL,
};
#define NARR_RULE_RUN (SCN_NARR_IN_STEP | SCN_NARR_IN_INTRO)
#define NARR_RULE_ANY (SCN_NARR_IN_STEP | SCN_NARR_IN_SWEEP | SCN_NARR_IN_INTRO)
static const struct narr_rule_family narr_rule_states[] = {
	{ "the dirty state of pages", "{cache.dirty_pages}, [cache.dirty_pages = 0], [fs = tmpfs]",
	  narr_rule_dirty_words, "cache.dirty_pages cache.writeback_pages cache.cleaned_pages "
	  "cache.dirty_before",
	  NARR_RULE_FACT(FS) | NARR_RULE_FACT(DIRTY) | NARR_RULE_FACT(DISK) |
	  NARR_RULE_FACT(LARGE_FOLIOS), NARR_RULE_ANY },
	{ "what is cached", "{cache.pages}, [cache.pages >= 1]", narr_rule_cached_words, "cache.",
	  NARR_RULE_FACT(FS), NARR_RULE_ANY },
	/* What reached a crash lab's device, and what a power cut kept, are facts of the disk. */
	{ "the disk", "[disk.allocated_bytes = 0], {disk.delalloc_bytes}, [device.writes >= 1], "
	  "[disk = yes]", narr_rule_disk_words, "disk. device. crash.power.", NARR_RULE_FACT(FS) |
	  NARR_RULE_FACT(DISK) | NARR_RULE_FACT(DELALLOC), NARR_RULE_RUN },
	{ "the disk", "[disk = yes], [fs = tmpfs], [fs != tmpfs]", narr_rule_sweep_disk_words,
	  "disk. device.", NARR_RULE_FACT(FS) | NARR_RULE_FACT(DISK) | NARR_RULE_FACT(DELALLOC),
	  SCN_NARR_IN_SWEEP },
	{ "what would outlast a crash", "[crash.power.size = 5000], [device.flushes >= 1], "
	  "[disk = no]", narr_rule_durable_words, "crash. device.", NARR_RULE_FACT(FS) |
	  NARR_RULE_FACT(DISK), NARR_RULE_ANY },
	{ "what a crash did", "[crash.power.exists = no], {crash.process.size}",
	  narr_rule_crash_words, "crash.", 0, NARR_RULE_ANY },
	{ "what a power cut did", "[crash.power.exists = no], {crash.power.size}",
	  narr_rule_power_words, "crash.power.", 0, NARR_RULE_ANY },
	{ "what a kill did", "[crash.process.exists = yes], {crash.process.size}",
	  narr_rule_kill_words, "crash.process.", 0, NARR_RULE_ANY },
	{ "what is kept", "[crash.power.size = 0], [cache.pages = 2], [stdio.pending = 904]",
	  narr_rule_keep_words, "crash. cache. disk. device. stdio. file. result.", 0,
	  NARR_RULE_ANY },
	{ "what waits in a buffer", "[stdio.pending = 0], {cache.dirty_pages}",
	  narr_rule_wait_words, "stdio. cache. disk.delalloc_bytes exit. output device.",
	  NARR_RULE_FACT(FS) |
	  NARR_RULE_FACT(DISK), NARR_RULE_ANY },
	{ "what a flush did", "[stdio.pending = 0], [calls.write = 1]", narr_rule_flushed_words,
	  "stdio. calls. bytes. device. cache. output", 0, NARR_RULE_ANY },
	{ "how full a buffer or file is", "[stdio.pending = 0], [cache.pages = 0], "
	  "[file.size = 0]", narr_rule_full_words, "stdio. cache. disk. file. crash. output", 0,
	  NARR_RULE_ANY },
	{ "a comparison of times", "[O_SYNC@1 > plain@1], [@4096 ~ @65536]: the sweep's rows "
	  "as this run timed them", narr_rule_times_words, NULL, 0, SCN_NARR_IN_SWEEP },
};
static const struct narr_rule_family narr_rule_counts[] = {
	[SCN_COUNT_BYTES] = { "a number of bytes", "{stdio.pending}, [bytes.written = 4KiB]",
	  narr_rule_byte_units, "", 0, NARR_RULE_RUN },
	[SCN_COUNT_PAGES] = { "a number of pages", "{cache.pages}, [cache.dirty_pages = 2]",
	  narr_rule_page_units, "", 0, NARR_RULE_RUN },
	[SCN_COUNT_CALLS] = { "a number of calls", "[calls.write = 1], {calls.read}",
	  narr_rule_call_units, "", 0, NARR_RULE_RUN },
	[SCN_COUNT_ANY] = { "a number", "[stdio.pending = 903], {calls.write}: the fact whose "
	  "value it is", NULL, "", 0, NARR_RULE_RUN },
};
/* Number words and their values: "nine thousand", "twenty five", "a dozen". */
static const struct { const char *w; int64_t v; } narr_rule_units_words[] = {
	{ "zero", 0 }, { "one", 1 }, { "two", 2 }, { "three", 3 }, { "four", 4 }, { "five", 5 },
	{ "six", 6 }, { "seven", 7 }, { "eight", 8 }, { "nine", 9 }, { "ten", 10 },
	{ "eleven", 11 }, { "twelve", 12 }, { "thirteen", 13 }, { "fourteen", 14 },
	{ "fifteen", 15 }, { "sixteen", 16 }, { "seventeen", 17 }, { "eighteen", 18 },
	{ "nineteen", 19 }, { "twenty", 20 }, { "thirty", 30 }, { "forty", 40 }, { "fifty", 50 },
	{ "sixty", 60 }, { "seventy", 70 }, { "eighty", 80 }, { "ninety", 90 },
};
static const struct { const char *w; int64_t v; } narr_rule_scale_words[] = {
	{ "dozen", 12 }, { "hundred", 100 }, { "thousand", 1000 }, { "million", 1000000 },
	{ "billion", 1000000000 },
};
/* Words that count without a number: they too need a fact of what they count. */
static const char *const narr_rule_quantifiers[] = {
	"both", "all", "several", "many", "few", "dozens", "hundreds", "thousands", "no", "none",
	NULL,
};
/* Words after which digits name a thing, not a count of the run ("step 3", "section 13.3"). */
static const char *const narr_rule_label_words[] = {
	"step", "steps", "section", "sections", "chapter", "chapters", "ch", "listing", "figure",
	"fig", "table", "exercise", "line", "lines", "tlpi", "apue", "offset", "offsets", "kill",
	"signal", "fd", "mode", "errno", "exit", "status", "version", "linux", "kernel", "page",
	"record", "records",
	"byte", "bytes", "block", "sector", "size", "part", "case", "variant", NULL,
};
/* Words that part a number from what follows: "2 in 3 pages", "10 with lseek()". */
static const char *const narr_rule_stop_words[] = {
	"of", "in", "and", "or", "to", "with", "for", "at", "on", "by", "from", "than", "as",
	"into", "is", "are", "was", "were", "per", "the", "a", "an", NULL,
};
/* Units of time and ratios: a time is not a count of the run's state. */
static const char *const narr_rule_time_units[] = {
	"s", "ms", "us", "ns", "sec", "secs", "second", "seconds", "minute", "minutes", "min",
	"hour", "hours", "percent", "x", "times", "th", "st", "nd", "rd", "bit", "bits", NULL,
};
/* Lowercase copy of sentence s as a reader sees it, for the rest-on rule: shown marks as
 * "#" (a value of the run, not a number written down), the rest left out. A heap string, or
 * NULL out of memory. */
static char *
narr_rule_plain(const struct scn_sentence *s)
{
	size_t n = 0, len = 1;
	char *buf;

	for (size_t i = 0; i < s->n_pieces; i++)
		len += s->pieces[i].text != NULL ? strlen(s->pieces[i].text) : 1;
	if ((buf = malloc(len)) == NULL)
		return NULL;
	for (size_t i = 0; i < s->n_pieces; i++) {
		const char *t = s->pieces[i].text != NULL ? s->pieces[i].text : "#";
		/* "write-back" reads "write back"; "4096-byte" stays a size, not a count. */
		for (const char *t0 = t; *t != '\0'; t++)
			buf[n++] = *t == '-' && !(t > t0 && isdigit((unsigned char)t[-1])) &&
				   t[1] != '-' && !(t > t0 && t[-1] == '-') ? ' ' :
				   (char)tolower((unsigned char)*t);
	}
	buf[n] = '\0';
	return buf;
}

/* True if key name KN is one of the space-separated KEYS, or (PREFIX) starts with one. */
static bool
narr_rule_key_in(const char *kn, const char *keys, bool prefix)
{
	for (const char *k = keys; *k != '\0'; ) {
		size_t n = strcspn(k, " ");
		if (strncmp(kn, k, n) == 0 && (prefix || kn[n] == '\0'))
			return true;
		k += n + (k[n] == ' ');
	}
	return false;
}

/* True if s has a claim that backs family F. */
static bool
narr_rule_backed(const struct scn_sentence *s, const struct narr_rule_family *f)
{
	for (size_t i = 0; i < s->n_claims; i++) {
		const struct scn_claim *c = &s->claims[i];
		if (f->keys == NULL || c->kind == SCN_CLAIM_TIMES) {
			if (f->keys == NULL && c->kind == SCN_CLAIM_TIMES && !c->times.quote)
				return true;
			continue;
		}
		if (c->kind == SCN_CLAIM_FACT) {
			if (f->facts & (1u << c->cond.fact))
				return true;
			continue;
		}
		if (c->key < 0)
			continue;
		if (f->keys[0] == '\0' ||
		    narr_rule_key_in(scn_key_table[c->key].name, f->keys, true))
			return true;
	}
	return false;
}

/* Where phrase W first occurs in PLAIN as whole words, or NULL. */
static const char *
narr_rule_find_words(const char *plain, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(plain, w); p != NULL; p = strstr(p + 1, w))
		if ((p == plain || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '_')
			return p;
	return NULL;
}

/* True if phrase W occurs in PLAIN as whole words. */
static bool
narr_rule_has_words(const char *plain, const char *w)
{
	return narr_rule_find_words(plain, w) != NULL;
}

/* One word of a sentence's plain text: where it starts and how long it is. */
struct narr_rule_word {
	const char *p;
	size_t n;
	bool in_call;              /* inside the parentheses of a call: "write(4096)" */
};

/* Split PLAIN into words (letters, digits, '.', ',' inside a number, '%'): at most MAX into w.
 * The number of words. */
static size_t
narr_rule_words(const char *plain, struct narr_rule_word *w, size_t max)
{
	size_t n = 0;
	int depth = 0, call_depth = 0;

	for (const char *p = plain; *p != '\0' && n < max; ) {
		if (*p == '(') {
			depth++;
			if (call_depth == 0 && p > plain && (isalnum((unsigned char)p[-1]) ||
							     p[-1] == '_'))
				call_depth = depth;
			p++;
			continue;
		}
		if (*p == ')') {
			if (depth == call_depth)
				call_depth = 0;
			depth -= depth > 0;
			p++;
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '%') {
			p++;
			continue;
		}
		size_t k = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_.,%");
		while (k > 0 && (p[k - 1] == '.' || p[k - 1] == ','))
			k--;
		w[n].p = p;
		w[n].n = k;
		w[n].in_call = call_depth > 0;
		n++;
		p += k;
	}
	return n;
}

/* True if word W is S. */
static bool
narr_rule_is(const struct narr_rule_word *w, const char *s)
{
	return strlen(s) == w->n && strncmp(w->p, s, w->n) == 0;
}

/* True if word W is one of LIST. */
static bool
narr_rule_in(const struct narr_rule_word *w, const char *const *list)
{
	for (size_t i = 0; list[i] != NULL; i++)
		if (narr_rule_is(w, list[i]))
			return true;
	return false;
}

/* The value of a number word W (0..90), or -1. */
static int64_t
narr_rule_small(const struct narr_rule_word *w)
{
	for (size_t i = 0; i < sizeof narr_rule_units_words / sizeof narr_rule_units_words[0]; i++)
		if (narr_rule_is(w, narr_rule_units_words[i].w))
			return narr_rule_units_words[i].v;
	return -1;
}

/* The value of a scale word W (dozen, hundred, thousand, ...), or -1. */
static int64_t
narr_rule_scale(const struct narr_rule_word *w)
{
	for (size_t i = 0; i < sizeof narr_rule_scale_words / sizeof narr_rule_scale_words[0]; i++)
		if (narr_rule_is(w, narr_rule_scale_words[i].w))
			return narr_rule_scale_words[i].v;
	return -1;
}

/* A number written in words from w[i] ("nine thousand", "twenty five", "a dozen", "one
 * hundred and six"): its value and the words it takes (*used), or -1 (no number). */
static int64_t
narr_rule_number_words(const struct narr_rule_word *w, size_t n, size_t i, size_t *used)
{
	int64_t total = 0, cur = -1;
	size_t j = i;

	/* "a dozen", "a hundred", "a thousand". */
	if ((narr_rule_is(&w[j], "a") || narr_rule_is(&w[j], "an")) && j + 1 < n &&
	    narr_rule_scale(&w[j + 1]) > 0) {
		cur = 1;
		j++;
	}
	for (; j < n; j++) {
		int64_t v = narr_rule_small(&w[j]), sc;
		if (v >= 0) {
			if (cur < 0)
				cur = v;
			else if ((cur > 0 && cur % 100 == 0 && v < 100) ||
				 (cur % 10 == 0 && cur % 100 >= 20 && v < 10))
				cur += v;
			else
				break;
			continue;
		}
		if ((sc = narr_rule_scale(&w[j])) > 0 && cur >= 0) {
			if (sc >= 1000) {
				total += cur * sc;
				cur = 0;
			} else
				cur *= sc;
			continue;
		}
		if (narr_rule_is(&w[j], "and") && cur >= 0 && j + 1 < n &&
		    narr_rule_small(&w[j + 1]) >= 0)
			continue;
		break;
	}
	if (j == i || (cur < 0 && total == 0))
		return -1;
	*used = j - i;
	return total + (cur > 0 ? cur : 0);
}

/* A count found in a sentence: what it counts, its value (-1: a word with none, "several"),
 * and its words as written. */
struct narr_rule_found {
	enum scn_count_kind kind;
	int64_t value;
	char text[48];
};

/* The unit of a count whose number ends before word w[j] (at most two words later: "2 dirty
 * pages"), or the digits' own suffix SUF ("8kib"): its kind into *kind, its scale into
 * *scale, and the index of the unit's word into *at. False if there is none. */
static bool
narr_rule_unit(const struct narr_rule_word *w, size_t n, size_t j, const char *suf, size_t suf_n,
	       enum scn_count_kind *kind, int64_t *scale, size_t *at)
{
	if (suf_n > 0) {
		for (size_t u = 0; narr_rule_byte_units[u] != NULL; u++)
			if (strlen(narr_rule_byte_units[u]) == suf_n &&
			    strncmp(suf, narr_rule_byte_units[u], suf_n) == 0) {
				*kind = SCN_COUNT_BYTES;
				*scale = narr_rule_byte_scale[u];
				*at = j - 1;
				return true;
			}
		return false;
	}
	for (size_t k = j; k < n && k < j + 2; k++) {
		/* Only white space between the number and its unit: "6: setbuf(" counts nothing. */
		for (const char *g = k > 0 ? w[k - 1].p + w[k - 1].n : w[k].p; g < w[k].p; g++)
			if (!isspace((unsigned char)*g))
				return false;
		for (size_t u = 0; narr_rule_byte_units[u] != NULL; u++)
			if (narr_rule_is(&w[k], narr_rule_byte_units[u])) {
				*kind = SCN_COUNT_BYTES;
				*scale = narr_rule_byte_scale[u];
				*at = k;
				return true;
			}
		*scale = 1;
		*at = k;
		if (narr_rule_in(&w[k], narr_rule_page_units)) {
			*kind = SCN_COUNT_PAGES;
			return true;
		}
		if (narr_rule_in(&w[k], narr_rule_call_units) ||
		    narr_rule_in(&w[k], narr_rule_call_nouns) ||
		    (w[k].p[w[k].n] == '(' && isalpha((unsigned char)*w[k].p))) {
			*kind = SCN_COUNT_CALLS;
			return true;
		}
		/* Only words between a number and its unit: "2 dirty pages", not "2 in 3 pages". */
		if (!isalpha((unsigned char)*w[k].p) || narr_rule_in(&w[k], narr_rule_stop_words))
			break;
	}
	return false;
}

/* The counts of PLAIN into found (at most MAX): numbers in digits or words before a unit
 * (bytes, pages, calls), words that count ("both", "all", "a dozen"), and bare numbers in
 * digits or of thirteen and more in words ("903 wait"). The number found. */
static size_t
narr_rule_counts_of(const char *plain, struct narr_rule_found *found, size_t max)
{
	struct narr_rule_word w[256];
	size_t n = narr_rule_words(plain, w, sizeof w / sizeof w[0]), nf = 0;

	size_t from = 0;

	/* "$ ./direct_read x 512 1 -- Read 512 bytes": a command line's arguments count
	 * nothing of the run. */
	if (strncmp(plain + strspn(plain, " \n"), "$ ", 2) == 0) {
		const char *dash = strstr(plain, " -- ");
		while (dash != NULL && from < n && w[from].p < dash)
			from++;
	}
	for (size_t i = from; i < n && nf < max; i++) {
		int64_t value = -1, scale = 1;
		size_t used = 1, at = i, suf_n = 0;
		const char *suf = NULL;
		bool digits = isdigit((unsigned char)*w[i].p), bare_ok = false;
		enum scn_count_kind kind = SCN_COUNT_ANY;

		if (digits) {
			/* "9,000", "8kib"; "13.3", "0x10", "4k" are no counts. */
			int64_t v = 0;
			size_t k = 0;
			for (; k < w[i].n && (isdigit((unsigned char)w[i].p[k]) || w[i].p[k] == ','); k++)
				if (w[i].p[k] != ',' && v < INT64_MAX / 10)
					v = v * 10 + (w[i].p[k] - '0');
			if (memchr(w[i].p, '.', w[i].n) != NULL || memchr(w[i].p, '_', w[i].n) != NULL ||
			    (w[i].p[0] == '0' && w[i].n > 1 && isdigit((unsigned char)w[i].p[1])) ||
			    w[i].in_call || (i > 0 && narr_rule_in(&w[i - 1], narr_rule_label_words)) ||
			    w[i].p[w[i].n] == '-' ||
			    (w[i].p > plain && (w[i].p[-1] == '-' || w[i].p[-1] == '#' ||
						w[i].p[-1] == '@' || w[i].p[-1] == '=')))
				continue;
			if (k < w[i].n) {
				suf = w[i].p + k;
				suf_n = w[i].n - k;
				if (*suf == '%')
					continue;
			}
			value = v;
			bare_ok = true;
		} else if (narr_rule_in(&w[i], narr_rule_quantifiers)) {
			value = narr_rule_is(&w[i], "both") ? 2 : narr_rule_is(&w[i], "no") ||
				narr_rule_is(&w[i], "none") ? 0 : -1;
			/* "none of the 5000 bytes": the number that follows is the count's. */
			if (narr_rule_is(&w[i], "all") || narr_rule_is(&w[i], "none"))
				value = -1;
		} else if ((value = narr_rule_number_words(w, n, i, &used)) >= 0) {
			/* "the one fsync() needs", "one of them": a pronoun, not a count. */
			if (value == 1 && used == 1 && ((i > 0 && (narr_rule_is(&w[i - 1], "the") ||
								  narr_rule_is(&w[i - 1], "this") ||
								  narr_rule_is(&w[i - 1], "that") ||
								  narr_rule_is(&w[i - 1], "no"))) ||
							(i + 1 < n && (narr_rule_is(&w[i + 1], "of") ||
								      narr_rule_is(&w[i + 1], "by")))))
				continue;
			bare_ok = value >= 13 || (used > 1);
		} else
			continue;
		if (suf_n > 0 && !narr_rule_unit(w, n, i + 1, suf, suf_n, &kind, &scale, &at))
			continue;
		if (suf_n == 0 && !narr_rule_unit(w, n, i + used, NULL, 0, &kind, &scale, &at)) {
			/* A time, a ratio, an ordinal: not a count of the run's state. */
			if (!bare_ok || (i + used < n && narr_rule_in(&w[i + used],
								       narr_rule_time_units)))
				continue;
			kind = SCN_COUNT_ANY;
			at = i + used - 1;
		}
		/* "no fsync()": a call the lesson does not make, not a count the run observed. */
		if (narr_rule_is(&w[i], "no") && kind == SCN_COUNT_CALLS &&
		    !narr_rule_in(&w[at], narr_rule_call_units))
			continue;
		found[nf].kind = kind;
		found[nf].value = value >= 0 ? value * scale : -1;
		snprintf(found[nf].text, sizeof found[nf].text, "%.*s",
			 (int)(w[at].p + w[at].n - w[i].p), w[i].p);
		nf++;
		i = at;
	}
	return nf;
}

/* True if claim c is of a fact whose value a count of KIND may be. */
static bool
narr_rule_kind_of(const struct scn_claim *c, enum scn_count_kind kind)
{
	int k;

	if (c->kind == SCN_CLAIM_FACT || c->kind == SCN_CLAIM_TIMES || c->key < 0)
		return false;
	k = scenario_key_counts(c->key);
	return k >= 0 && (kind == SCN_COUNT_ANY || k == (int)kind);
}

/* Check count F of sentence s: 0 when a fact of its kind agrees, or cannot be told until the
 * run (then F goes into s->counts); else reported at AT and -1. */
static int
narr_rule_count_check(struct scn_load *ld, const struct yamlpos_node *at, struct scn_sentence *s,
		      const struct narr_rule_found *f, const char *where)
{
	const struct narr_rule_family *fam = &narr_rule_counts[f->kind];
	const struct scn_claim *against = NULL;
	bool any = false, open = false;

	for (size_t i = 0; i < s->n_claims; i++) {
		const struct scn_claim *c = &s->claims[i];
		if (!narr_rule_kind_of(c, f->kind))
			continue;
		any = true;
		if (f->value < 0)
			return 0;
		/* "5000 bytes [file.size = 5000]" holds as its check does; "5000 bytes
		 * [disk.allocated_bytes > 0]" may, and the run tells. */
		if (c->kind == SCN_CLAIM_CHECK && c->want.str == NULL) {
			if (scenario_cmp_holds(c->want.cmp, f->value, c->want.num) &&
			    c->want.cmp == SCN_CMP_EQ)
				return 0;
			if (!scenario_cmp_holds(c->want.cmp, f->value, c->want.num)) {
				against = c;
				continue;
			}
		}
		open = true;
	}
	if (!any) {
		load_at(ld, at, "'%s' in %s states %s, and the sentence rests on no fact of it: "
			    "name one (%s; doc/scenarios.md, section 5)", f->text, where, fam->what,
			    fam->hint);
		return -1;
	}
	if (!open && against != NULL) {
		load_at(ld, at, "'%s' in %s says %" PRId64 ", and the fact it rests on says "
			    "otherwise ([%s %s %" PRId64 "]): a number must be the value of its own "
			    "fact (doc/scenarios.md, section 5)", f->text, where, f->value,
			    scn_key_table[against->want.key].name, scenario_cmp_name(against->want.cmp),
			    against->want.num);
		return -1;
	}
	struct scn_count *v = realloc(s->counts, (s->n_counts + 1) * sizeof *v);
	if (v == NULL) {
		ld->oom = true;
		return -1;
	}
	s->counts = v;
	v[s->n_counts].kind = f->kind;
	v[s->n_counts].value = f->value;
	snprintf(v[s->n_counts].text, sizeof v[s->n_counts].text, "%s", f->text);
	s->n_counts++;
	return 0;
}

/* A shown value of a count followed by a unit of another kind ("{cache.pages} bytes": a page
 * count read as bytes; "{crash.power.strays} bytes": write requests read as bytes): reported
 * at AT and -1; else 0. */
static int
narr_rule_mark_units(struct scn_load *ld, const struct yamlpos_node *at,
		     const struct scn_sentence *s, const char *where)
{
	static const char *const kinds[] = { "bytes", "pages", "calls", "another kind" };

	for (size_t i = 0; i + 1 < s->n_pieces; i++) {
		const struct scn_piece *p = &s->pieces[i], *next = &s->pieces[i + 1];
		struct narr_rule_word w[4];
		enum scn_count_kind kind;
		char buf[48];
		size_t n = 0, nw, u;
		int64_t scale;
		int k;

		if (p->text != NULL || next->text == NULL || p->claim >= s->n_claims)
			continue;
		const struct scn_claim *c = &s->claims[p->claim];
		if (c->kind == SCN_CLAIM_FACT || c->kind == SCN_CLAIM_TIMES || c->key < 0)
			continue;
		k = scenario_key_counts(c->key);
		/* A count of no unit here (write requests, flushes) is no bytes nor pages either
		 * ("{device.writes} write requests" is one of writes). */
		if (k < 0 || !isspace((unsigned char)next->text[0]))
			continue;
		for (const char *t = next->text; *t != '\0' && n < sizeof buf - 1; t++)
			buf[n++] = (char)tolower((unsigned char)*t);
		buf[n] = '\0';
		nw = narr_rule_words(buf, w, sizeof w / sizeof w[0]);
		if (nw == 0 || !narr_rule_unit(w, nw, 0, NULL, 0, &kind, &scale, &u) ||
		    kind == SCN_COUNT_ANY || (int)kind == k ||
		    (k == SCN_COUNT_ANY && kind == SCN_COUNT_CALLS))
			continue;
		load_at(ld, at, "'{%s} %.*s' in %s reads a number of %s as %s: a number must "
			    "be the value of its own fact (doc/scenarios.md, section 5)",
			    scn_key_table[c->key].name, (int)w[u].n, w[u].p, where, kinds[k],
			    kinds[kind]);
		return -1;
	}
	return 0;
}

/* What a shown value is a count of, by the words right after it: "{cache.writeback_pages}
 * pages are dirty" shows a writeback count as dirty pages. A word of the clause after a shown
 * key of GROUP says the key must be one of KEYS. */
static const struct {
	const char *word, *group, *keys;
} narr_rule_named[] = {
	{ "dirty", "cache.", "cache.dirty_pages cache.dirty_before" },
	{ "writeback", "cache.", "cache.writeback_pages" },
	{ "under writeback", "cache.", "cache.writeback_pages" },
	{ "written back", "cache.", "cache.cleaned_pages cache.writeback_pages" },
	{ "cached", "cache.", "cache.pages" },
	{ "allocated", "disk.", "disk.allocated_bytes" },
	{ "delalloc", "disk.", "disk.delalloc_bytes" },
	{ "unwritten", "disk.", "disk.unwritten_bytes" },
	{ "inline", "disk.", "disk.inline_bytes" },
	{ "wait", "stdio.", "stdio.pending" },
	{ "waits", "stdio.", "stdio.pending" },
	{ "waiting", "stdio.", "stdio.pending" },
	{ "pending", "stdio.", "stdio.pending" },
};

/* A shown value whose clause names another fact than its own ("{cache.writeback_pages} pages
 * are dirty", "{stdio.size} bytes wait"): reported at AT and -1; else 0. The clause is the
 * text after the mark up to the next mark or the next , ; : ( or end of sentence. */
static int
narr_rule_mark_names(struct scn_load *ld, const struct yamlpos_node *at,
		     const struct scn_sentence *s, const char *where)
{
	for (size_t i = 0; i + 1 < s->n_pieces; i++) {
		const struct scn_piece *p = &s->pieces[i], *next = &s->pieces[i + 1];
		char buf[160];
		size_t n = 0;

		if (p->text != NULL || next->text == NULL || p->claim >= s->n_claims)
			continue;
		const struct scn_claim *c = &s->claims[p->claim];
		if (c->kind == SCN_CLAIM_FACT || c->kind == SCN_CLAIM_TIMES || c->key < 0)
			continue;
		const char *kn = scn_key_table[c->key].name;
		for (const char *t = next->text; *t != '\0' && n < sizeof buf - 1 &&
		     strchr(",;:(.!?", *t) == NULL; t++)
			buf[n++] = *t == '-' ? ' ' : (char)tolower((unsigned char)*t);
		buf[n] = '\0';
		const char *first = NULL;
		size_t which = 0;
		for (size_t j = 0; j < sizeof narr_rule_named / sizeof narr_rule_named[0]; j++) {
			const char *f = narr_rule_find_words(buf, narr_rule_named[j].word);
			if (f != NULL && narr_rule_key_in(kn, narr_rule_named[j].group, true) &&
			    (first == NULL || f < first)) {
				first = f;
				which = j;
			}
		}
		if (first == NULL || narr_rule_key_in(kn, narr_rule_named[which].keys, false))
			continue;
		load_at(ld, at, "'{%s}%.*s' in %s shows %s as if it counted what '%s' names: a "
			    "number must be the value of the fact its words name (%s; "
			    "doc/scenarios.md, section 5)", kn,
			    (int)(first - buf + strlen(narr_rule_named[which].word)), buf, where, kn,
			    narr_rule_named[which].word, narr_rule_named[which].keys);
		return -1;
	}
	return 0;
}

/* The rest-on rule for sentence s of a text of kind IN. */
void
load_narr_rule(struct scn_load *ld, const struct yamlpos_node *at, struct scn_sentence *s,
		   unsigned in, const char *where)
{
	char *plain = narr_rule_plain(s);
	struct narr_rule_found found[16];
	size_t nf;

	if (plain == NULL) {
		ld->oom = true;
		return;
	}
	for (size_t i = 0; i < sizeof narr_rule_states / sizeof narr_rule_states[0]; i++) {
		const struct narr_rule_family *f = &narr_rule_states[i];
		if ((f->in & in) == 0)
			continue;
		for (size_t j = 0; f->words[j] != NULL; j++)
			if (narr_rule_has_words(plain, f->words[j]) && !narr_rule_backed(s, f)) {
				load_at(ld, at, "'%s' in %s states %s, and the sentence rests on "
					    "no fact of it: name one (%s; doc/scenarios.md, section 5)%s",
					    f->words[j], where, f->what, f->hint, in == SCN_NARR_IN_INTRO ?
					    ", or mark it [background] if it is not about this run" : "");
				free(plain);
				return;
			}
	}
	if ((in & NARR_RULE_RUN) && (narr_rule_mark_units(ld, at, s, where) != 0 ||
				     narr_rule_mark_names(ld, at, s, where) != 0)) {
		free(plain);
		return;
	}
	if (in & NARR_RULE_RUN) {
		nf = narr_rule_counts_of(plain, found, sizeof found / sizeof found[0]);
		for (size_t i = 0; i < nf; i++)
			if (narr_rule_count_check(ld, at, s, &found[i], where) != 0)
				break;
	}
	free(plain);
}
