/* SPDX-License-Identifier: MIT */
/* narr-rule.c: what a sentence may state only when it rests on a fact of the same kind (the
 * dirty state, what is cached, the disk, a count; in a sweep, a comparison of times), and the
 * check of each sentence against it (doc/scenarios.md, section 5). */
#include <config.h>

#include <ctype.h>
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
	"dirty", "clean", "written back", "writeback", NULL,
};
static const char *const narr_rule_cached_words[] = { "cached", NULL };
static const char *const narr_rule_disk_words[] = {
	"allocated", "allocate", "allocates", "allocation", "delalloc", "on the disk", "on disk",
	"the device", NULL,
};
/* A sweep's say may not name the disk at all without a fact of it: its table has no column
 * for it, and tmpfs has none. */
static const char *const narr_rule_sweep_disk_words[] = {
	"the disk", "a disk", "the disks", "disk's", "the device", "device's", NULL,
};
static const char *const narr_rule_page_units[] = { "page", "pages", "folio", "folios", NULL };
static const char *const narr_rule_byte_units[] = {
	"byte", "bytes", "b", "kib", "mib", "gib", "kb", "mb", "gb", NULL,
};
static const char *const narr_rule_call_units[] = { "call", "calls", "()", NULL };
/* Words that compare times or tell their trend: a sweep's table, measured this run, says. */
static const char *const narr_rule_times_words[] = {
	"slower", "faster", "quicker", "cheaper", "dearer", "costlier", "as fast", "as slow",
	"as cheap", "costs more", "cost more", "costs less", "cost less", "the same time",
	"fall", "falls", "falling", "fell", "rise", "rises", "rising", "rose", "doubles", "halves",
	"jump", "jumps", NULL,
};
#define NARR_RULE_ANY (SCN_NARR_IN_STEP | SCN_NARR_IN_SWEEP)
static const struct narr_rule_family narr_rule_states[] = {
	{ "the dirty state of pages", "{cache.dirty_pages}, [cache.dirty_pages = 0], [fs = tmpfs]",
	  narr_rule_dirty_words, "cache.dirty_pages cache.writeback_pages",
	  NARR_RULE_FACT(FS) | NARR_RULE_FACT(DIRTY) | NARR_RULE_FACT(DISK) |
	  NARR_RULE_FACT(LARGE_FOLIOS), NARR_RULE_ANY },
	{ "what is cached", "{cache.pages}, [cache.pages >= 1]", narr_rule_cached_words, "cache.",
	  NARR_RULE_FACT(FS), NARR_RULE_ANY },
	/* What reached a crash lab's device, and what a power cut kept, are facts of the disk. */
	{ "the disk", "[disk.allocated_bytes = 0], {disk.delalloc_bytes}, [device.writes >= 1], "
	  "[disk = yes]", narr_rule_disk_words, "disk. device. crash.power.", NARR_RULE_FACT(FS) |
	  NARR_RULE_FACT(DISK) | NARR_RULE_FACT(DELALLOC), NARR_RULE_ANY },
	{ "the disk", "[disk = yes], [fs = tmpfs], [fs != tmpfs]", narr_rule_sweep_disk_words,
	  "disk. device.", NARR_RULE_FACT(FS) | NARR_RULE_FACT(DISK) | NARR_RULE_FACT(DELALLOC),
	  SCN_NARR_IN_SWEEP },
	{ "a comparison of times", "[O_SYNC@1 > plain@1], [@4096 ~ @65536]: the sweep's rows "
	  "as this run timed them", narr_rule_times_words, NULL, 0, SCN_NARR_IN_SWEEP },
};
static const struct narr_rule_family narr_rule_counts[] = {
	{ "a number of pages", "{cache.pages}, [cache.dirty_pages = 2]", narr_rule_page_units,
	  "cache.", NARR_RULE_FACT(FS) | NARR_RULE_FACT(LARGE_FOLIOS), SCN_NARR_IN_STEP },
	{ "a number of bytes", "{stdio.pending}, [bytes.written = 4KiB]", narr_rule_byte_units,
	  "", 0, SCN_NARR_IN_STEP },
	{ "a number of calls", "[calls.write = 1], {calls.read}", narr_rule_call_units,
	  "calls. bytes. result.", 0, SCN_NARR_IN_STEP },
};
static const char *const narr_rule_numbers[] = {
	"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "sixteen", "both", NULL,
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
		for (; *t != '\0'; t++)
			buf[n++] = *t == '-' ? ' ' : (char)tolower((unsigned char)*t);
	}
	buf[n] = '\0';
	return buf;
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
		const char *kn = scn_key_table[c->key].name;
		if (f->keys[0] == '\0')
			return true;
		for (const char *k = f->keys; *k != '\0'; ) {
			size_t n = strcspn(k, " ");
			if (strncmp(kn, k, n) == 0)
				return true;
			k += n + (k[n] == ' ');
		}
	}
	return false;
}

/* True if phrase W occurs in PLAIN as whole words. */
static bool
narr_rule_has_words(const char *plain, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(plain, w); p != NULL; p = strstr(p + 1, w))
		if ((p == plain || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '_')
			return true;
	return false;
}

/* The count in PLAIN a unit of F follows (a number in digits or words, then at most two words,
 * then the unit: "2 dirty pages", "one write(4096)", "64 KiB"), or NULL. Written into buf. */
static const char *
narr_rule_count(const char *plain, const struct narr_rule_family *f, char *buf, size_t len)
{
	for (const char *p = plain; *p != '\0'; ) {
		const char *w = p;
		size_t n;
		while (*w != '\0' && !isalnum((unsigned char)*w))
			w++;
		n = strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789.,");
		while (n > 0 && (w[n - 1] == '.' || w[n - 1] == ','))
			n--;
		if (n == 0)
			break;
		p = w + n;
		bool digits = isdigit((unsigned char)*w);
		char word[24];
		snprintf(word, sizeof word, "%.*s", (int)n, w);
		if (!digits && scenario_cond_index(narr_rule_numbers, word) < 0)
			continue;
		/* "the one fsync() needs": a pronoun, not a count. */
		if (!digits && w >= plain + 4 && strncmp(w - 4, "the ", 4) == 0)
			continue;
		/* The unit: the next word, or the one after it ("2 dirty pages"). */
		const char *q = p;
		for (int k = 0; k < 2; k++) {
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			size_t m = strspn(q, "abcdefghijklmnopqrstuvwxyz_");
			char unit[32];
			snprintf(unit, sizeof unit, "%.*s", (int)m, q);
			if (m > 0 && scenario_cond_index(f->words, unit) >= 0 && !isalnum((unsigned char)q[m])) {
				snprintf(buf, len, "%s %s", word, unit);
				return buf;
			}
			/* A call: a name followed by "(" ("one write(4096)"). */
			if (m > 0 && q[m] == '(' && scenario_cond_index(f->words, "()") >= 0) {
				snprintf(buf, len, "%s %s()", word, unit);
				return buf;
			}
			if (m == 0 || !isalpha((unsigned char)*q))
				break;
			q += m;
		}
	}
	return NULL;
}

/* The rest-on rule for sentence s of a text of kind IN. */
void
scenario_narr_rule(struct scn_load *ld, const struct yamlpos_node *at, const struct scn_sentence *s,
		   unsigned in, const char *where)
{
	char *plain = narr_rule_plain(s), count[64];

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
				scenario_at(ld, at, "'%s' in %s states %s, and the sentence rests on "
					    "no fact of it: name one (%s; doc/scenarios.md, section 5)",
					    f->words[j], where, f->what, f->hint);
				free(plain);
				return;
			}
	}
	for (size_t i = 0; i < sizeof narr_rule_counts / sizeof narr_rule_counts[0]; i++) {
		const struct narr_rule_family *f = &narr_rule_counts[i];
		if ((f->in & in) == 0)
			continue;
		if (narr_rule_count(plain, f, count, sizeof count) != NULL && !narr_rule_backed(s, f)) {
			scenario_at(ld, at, "'%s' in %s states %s, and the sentence rests on no "
				    "fact of it: name one (%s; doc/scenarios.md, section 5)", count,
				    where, f->what, f->hint);
			free(plain);
			return;
		}
	}
	free(plain);
}
