/* SPDX-License-Identifier: MIT */
/* lesson/adapt-say.c: a step's narration for one run: the case that holds chooses it, and its
 * {placeholders} are filled with what this run observed (the expectation keys' getters). */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/adapt.h"
#include "lesson/adapt-say.h"
#include "lesson/expect.h"
#include "base/text.h"

/* The value of placeholder NAME for sr, into buf: an expectation key's or an environment
 * name's; "unknown" where this run cannot see it. */
static void
adapt_say_placeholder(const struct step_result *sr, const char *name, char *buf, size_t len)
{
	int k = scenario_key_find(name);
	int64_t num;

	if (k >= 0) {
		if (!expect_observe(sr, (enum scn_key)k, &num, buf, len))
			snprintf(buf, len, "unknown");
		return;
	}
	if (strcmp(name, "kernel") == 0) {
		adapt_kernel(buf, len);
		return;
	}
	if (strcmp(name, "device") == 0) {
		snprintf(buf, len, "%s", sr->after.disk.device[0] ? sr->after.disk.device : "unknown");
		return;
	}
	enum scn_fact f = strcmp(name, "fs") == 0 ? SCN_FACT_FS :
			  strcmp(name, "blksize") == 0 ? SCN_FACT_BLKSIZE : SCN_FACT_PROBE;
	adapt_fact(sr, f, buf, len);
}

/* The step's narration for sr, filled in and made safe. */
char *
adapt_say(const struct step_result *sr)
{
	const struct scn_step *st = sr->step;
	const char *say;
	char *out;
	size_t cap, n = 0;

	if (st == NULL)
		return NULL;
	say = st->say;
	for (size_t i = 0; i < st->n_cases; i++)
		if (st->cases[i].say != NULL && adapt_case_holds(&st->cases[i], sr)) {
			say = st->cases[i].say;
			break;
		}
	if (say == NULL)
		return NULL;
	cap = strlen(say) + 1;
	out = malloc(cap);
	if (out == NULL)
		return NULL;
	for (const char *p = say; *p != '\0'; p++) {
		char raw[256], val[256];
		const char *add = p;
		size_t alen = 1;
		const char *e = *p == '{' && p[1] != '{' ? strchr(p, '}') : NULL;
		if (*p == '{' && p[1] == '{') {
			p++;
		} else if (e != NULL && e - p < 48) {
			char name[48];
			snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
			adapt_say_placeholder(sr, name, raw, sizeof raw);
			/* Values come from the kernel and the filesystem: one line, no controls. */
			text_safe(raw, TEXT_LINE, val, sizeof val);
			add = val;
			alen = strlen(val);
			p = e;
		}
		if (n + alen + 1 > cap) {
			char *t = realloc(out, cap = (n + alen + 1) * 2);
			if (t == NULL) {
				free(out);
				return NULL;
			}
			out = t;
		}
		memcpy(out + n, add, alen);
		n += alen;
	}
	out[n] = '\0';
	return out;
}
