/* SPDX-License-Identifier: MIT */
/* practice/practice.h: practice problems without end: a seeded generator per topic, run for real. */
#ifndef IOBUFVIZ_PRACTICE_H
#define IOBUFVIZ_PRACTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario/scenario.h"
#include "step/step.h"

/* How a question is answered. */
enum practice_kind {
	PRACTICE_NUMBER,   /* a number: the observed value of key after the step */
	PRACTICE_PAGES,    /* a set of page numbers ("0-2,5"), one of the choices */
	PRACTICE_CHOICE,   /* one of the choices (a, b, ...) */
	PRACTICE_FILE,     /* what a crash leaves of the file ("no file", "4096 bytes"), one of
	                      the choices */
};

#define PRACTICE_MAX_Q 16
#define PRACTICE_MAX_CHOICES 4

/* One question about one step. */
struct practice_question {
	size_t step;                /* 0-based step after which it is answered */
	enum scn_key key;           /* what is observed */
	enum practice_kind kind;
	bool dirty;                 /* PAGES: the dirty pages (else the cached ones) */
	char text[160];
	char choices[PRACTICE_MAX_CHOICES][48];
	size_t n_choices;
	char model[64];             /* the generator's own answer, as the student writes it */
	char model_detail[64];      /* and its details (the write() sizes) */
};

/*
 * The rules of glibc and Linux a problem's answers rest on beyond its topic's intro: each is
 * stated in the problem's intro when one of its answers needs it (practice.c's table).
 */
enum practice_rule {
	PRACTICE_RULE_FULL = 1u << 0,     /* full buffering: fill, write, whole buffers direct
	                                   * (the first output call fills nothing) */
	PRACTICE_RULE_LINE = 1u << 1,     /* line buffering: fit and newline, else byte by byte
	                                   * (so the first output call) */
	PRACTICE_RULE_UNBUF = 1u << 2,    /* unbuffered: one write() a call */
	PRACTICE_RULE_LIBBUF = 1u << 3,   /* the library's buffer is st_blksize bytes */
	PRACTICE_RULE_FOLIO = 1u << 4,    /* large folios: a write caches 2^k pages at once */
	PRACTICE_RULE_DIOMEM = 1u << 5,   /* a buffer off its O_DIRECT alignment comes only with
	                                   * a length or an offset off theirs, which decide */
	PRACTICE_RULE__COUNT = 6
};

/* A generated problem: the scenario text, and the questions asked about it. */
struct practice_problem {
	const struct practice_topic *topic;
	uint64_t seed;
	char *yaml;                 /* the scenario, loaded through load_scenario() */
	size_t yaml_len;
	struct practice_question q[PRACTICE_MAX_Q];
	size_t n_q;
	unsigned rules;             /* enum practice_rule: stated in the intro */
};

/* What this machine did, for one question. */
struct practice_answer {
	bool seen;                  /* false: not observable here (text says why) */
	char text[128];             /* as the student would write it ("3", "b", "0-2") */
	char detail[128];           /* more: the write() sizes, the choice spelled out; an
	                             * answer is printed and may be given as "TEXT (DETAIL)" */
	char why[320];              /* the run's facts behind it (practice_why); "" if none */
};

/* One topic: a name, a line of description, and its generator. */
struct practice_topic {
	const char *name;
	const char *summary;
	const char *intro;          /* the scenario's intro: what the student should think about */
	void (*generate)(struct practice_problem *p, uint64_t *rng, FILE *yaml);
};

/* The topics, ending with a zeroed entry. */
extern const struct practice_topic practice_topics[];

/* The topic named name, or NULL. */
const struct practice_topic *practice_topic_find(const char *name);

/* Generate topic t's problem for seed into p (free with practice_problem_clear). 0 or -1. */
int practice_generate(const struct practice_topic *t, uint64_t seed, struct practice_problem *p);

/* Free what p owns. */
void practice_problem_clear(struct practice_problem *p);

/* Load p's scenario through the normal loader (from a memfd). 0, or -1 with *err set. */
int practice_load(const struct practice_problem *p, struct scenario **out, char **err);

/* The facts of step result sr that an answer about it rests on, as the run saw them: the
 * calls it made (which call wrote how much), what the stdio buffer held after it and what
 * the kernel's page cache did, into buf ("line 3 made write(3, 4096) = 4096; after it the
 * stdio buffer held 904 B; the page cache: 1 page cached, 1 dirty"). Return buf. */
char *practice_why(const struct step_result *sr, char *buf, size_t len);

/* Fill a (one per question of p) from the results of a run of p's scenario. */
void practice_observe(const struct practice_problem *p, const struct step_result *results,
                      size_t n_results, struct practice_answer *a);

/* Does a given answer match the observed one? Numbers by value, letters and page sets as
 * text, each alone or followed by its detail in parentheses as --answers prints it
 * ("1 (3000)", "b (EINVAL)"): a detail given must be the observed one. */
bool practice_match(const struct practice_question *q, const struct practice_answer *truth,
                    const char *given);

/* How many of the given answers (NULL: not answered) match the observed ones. */
size_t practice_score(const struct practice_problem *p, const struct practice_answer *truth,
                      const char *const *given);

/* practice/practice-listing.c: the line of C of step st as a listing shows it: valid C (a
 * text is its escaped literal), the stream's buffer sbuf, the data data (+ its skew). */
char *practice_listing_line(const struct scn_step *st, char *buf, size_t len);

/* Print s's program to f, each line after indent: a C translation unit that compiles as it
 * is shown (cc -std=c11 -c), its steps numbered in comments as the questions number them. */
void practice_listing_print(FILE *f, const struct scenario *s, const char *indent);

/* Next value of the splitmix64 generator in *state. */
uint64_t practice_rand(uint64_t *state);

#endif
