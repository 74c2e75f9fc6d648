/* SPDX-License-Identifier: MIT */
/* practice/practice.h: practice problems without end: a seeded generator per topic, run for real. */
#ifndef IOBUFVIZ_PRACTICE_H
#define IOBUFVIZ_PRACTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario/scenario.h"
#include "lesson/step.h"

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

/* A generated problem: the scenario text, and the questions asked about it. */
struct practice_problem {
	const struct practice_topic *topic;
	uint64_t seed;
	char *yaml;                 /* the scenario, loaded through scenario_load() */
	size_t yaml_len;
	struct practice_question q[PRACTICE_MAX_Q];
	size_t n_q;
};

/* What this machine did, for one question. */
struct practice_answer {
	bool seen;                  /* false: not observable here (text says why) */
	char text[128];             /* as the student would write it ("3", "b", "0-2") */
	char detail[128];           /* more: the write() sizes, the choice spelled out */
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

/* Fill a (one per question of p) from the results of a run of p's scenario. */
void practice_observe(const struct practice_problem *p, const struct step_result *results,
                      size_t n_results, struct practice_answer *a);

/* Does a given answer match the observed one? Numbers by value, letters and page sets as text. */
bool practice_match(const struct practice_question *q, const struct practice_answer *truth,
                    const char *given);

/* How many of the given answers (NULL: not answered) match the observed ones. */
size_t practice_score(const struct practice_problem *p, const struct practice_answer *truth,
                      const char *const *given);

/* Next value of the splitmix64 generator in *state. */
uint64_t practice_rand(uint64_t *state);

#endif
