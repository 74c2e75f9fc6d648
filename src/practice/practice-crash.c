/* SPDX-License-Identifier: MIT */
/* practice/practice-crash.c: the crash topic: a new file written through stdio or a descriptor,
 * crashed twice for real (kill -9, a power cut); the student says what each leaves. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "crash/crash.h"
#include "practice/practice-int.h"

/* The file as the model holds it: what the program has given stdio, the kernel, the device. */
struct practice_file {
	struct practice_stdio m;    /* the FILE*'s buffer (stdio programs) */
	bool stdio, osync, fileno;
	int64_t kernel;             /* bytes the kernel has: the page cache's file */
	int64_t durable;            /* bytes a power cut keeps; -1: no file */
};

/* "no file", or "N bytes", into buf. */
static void
practice_crash_says(int64_t bytes, char *buf, size_t len)
{
	if (bytes < 0)
		snprintf(buf, len, "no file");
	else
		snprintf(buf, len, "%" PRId64 " bytes", bytes);
}

/* Add the answer bytes to q's choices unless one says it already. */
static void
practice_crash_choice(struct practice_question *q, int64_t bytes)
{
	char c[48];

	practice_crash_says(bytes, c, sizeof c);
	for (size_t i = 0; i < q->n_choices; i++)
		if (strcmp(q->choices[i], c) == 0)
			return;
	if (q->n_choices < PRACTICE_MAX_CHOICES)
		practice_copy(q->choices[q->n_choices++], sizeof q->choices[0], c);
}

/* The choices of a question: the model's, then the other outcomes the file went through, in
 * a seeded order. */
static void
practice_crash_choices(struct practice_question *q, uint64_t *rng, int64_t model,
                       const int64_t *others, size_t n)
{
	char tmp[48];

	practice_crash_says(model, q->model, sizeof q->model);
	practice_crash_choice(q, model);
	for (size_t i = 0; i < n; i++)
		practice_crash_choice(q, others[i]);
	/* The model's answer anywhere among them, by the seed. */
	for (size_t i = q->n_choices; i > 1; i--) {
		size_t j = (size_t)practice_below(rng, i);
		memcpy(tmp, q->choices[i - 1], sizeof tmp);
		memcpy(q->choices[i - 1], q->choices[j], sizeof tmp);
		memcpy(q->choices[j], tmp, sizeof tmp);
	}
}

/* A crash step at step, with its two questions and their expectations. */
static void
practice_crash_point(struct practice_problem *p, uint64_t *rng, FILE *y, size_t step,
                     const struct practice_file *f)
{
	int64_t given = f->kernel + (f->stdio && f->m.putting ? f->m.ptr : 0);
	int64_t kill_others[] = { given, 0, -1 }, power_others[] = { f->kernel, 0, -1, given };
	struct practice_question *q;

	fputs("  - crash: {}\n", y);
	if ((q = practice_question_add(p, step, SCN_KEY_CRASH_PROCESS_SIZE, PRACTICE_FILE)) != NULL) {
		snprintf(q->text, sizeof q->text, "Line %zu kills the program (kill -9). What does the "
		         "file hold then?", step + 1);
		practice_crash_choices(q, rng, f->kernel, kill_others, 3);
	}
	if ((q = practice_question_add(p, step, SCN_KEY_CRASH_POWER_SIZE, PRACTICE_FILE)) != NULL) {
		snprintf(q->text, sizeof q->text, "Line %zu cuts the power instead. What does the file "
		         "hold once the kernel has recovered the disk?", step + 1);
		practice_crash_choices(q, rng, f->durable, power_others, 4);
	}
	fprintf(y, "    expect: {crash.process.size: %" PRId64 ", ", f->kernel);
	if (f->durable < 0)
		fputs("crash.power.exists: no}\n", y);
	else
		fprintf(y, "crash.power.size: %" PRId64 "}\n", f->durable);
}

/* The crash topic: 3 to 5 calls and two crash steps, one among them, one at the end. */
void
practice_crash_generate(struct practice_problem *p, uint64_t *rng, FILE *y)
{
	static const uint64_t sizes[] = { 100, 1000, 3000, 4096, 5000, 9000 };
	struct practice_file f;
	size_t step = 1, n_ops = 3 + (size_t)practice_below(rng, 3);
	size_t middle = 1 + (size_t)practice_below(rng, n_ops - 1);

	memset(&f, 0, sizeof f);
	f.durable = -1;
	f.stdio = practice_below(rng, 2) == 0;
	f.osync = !f.stdio && practice_below(rng, 4) == 0;
	if (f.stdio)
		fputs("  - fopen: {mode: w}\n", y);
	else
		fprintf(y, "  - open: {flags: [O_WRONLY, O_CREAT, O_TRUNC%s]}\n",
		        f.osync ? ", O_SYNC" : "");
	for (size_t k = 0; k < n_ops; k++, step++) {
		unsigned op = (unsigned)practice_below(rng, 10);
		int64_t n = (int64_t)practice_pick(rng, sizes, sizeof sizes / sizeof sizes[0]);

		if (k == middle) {
			practice_crash_point(p, rng, y, step, &f);
			step++;
		}
		if (op < 5 || k == 0) {
			fprintf(y, "  - %s: {bytes: %" PRId64 "}\n", f.stdio ? "fwrite" : "write", n);
			if (f.stdio) {
				f.m.n_writes = 0;
				practice_stdio_put(&f.m, NULL, n);
				for (size_t i = 0; i < f.m.n_writes && i < 64; i++)
					f.kernel += f.m.writes[i];
			} else {
				f.kernel += n;
			}
			if (f.osync)
				f.durable = f.kernel;
		} else if (op < 7 && f.stdio) {
			fputs("  - fflush: {}\n", y);
			if (f.m.putting && f.m.ptr > 0) {
				f.kernel += f.m.ptr;
				practice_stdio_write(&f.m, f.m.ptr);
			}
		} else {
			if (f.stdio && !f.fileno) {
				fputs("  - fileno: {}\n", y);
				f.fileno = true;
				step++;
			}
			/* fdatasync() keeps the size too: it is needed to read the data back. */
			fprintf(y, "  - %s: {}\n", op < 9 ? "fsync" : "fdatasync");
			f.durable = f.kernel;
		}
	}
	practice_crash_point(p, rng, y, step, &f);
}

/* What the crash step sr left of the file, for q (see practice/practice-int.h). */
void
practice_crash_observe(const struct practice_question *q, const struct step_result *sr,
                       struct practice_answer *a)
{
	const struct crash_half *h = sr->crash == NULL ? NULL :
	                             q->key == SCN_KEY_CRASH_POWER_SIZE ? &sr->crash->power :
	                             &sr->crash->process;

	snprintf(a->text, sizeof a->text, "?");
	if (h == NULL || !h->observed) {
		practice_copy(a->detail, sizeof a->detail, h != NULL ? h->why :
		              "no crash was made at this step");
		return;
	}
	practice_crash_says(h->file.exists ? (int64_t)h->file.size : -1, a->detail,
	                    sizeof a->detail);
	if (q->key == SCN_KEY_CRASH_POWER_SIZE && h->stray_writes > 0) {
		/* Not fixed by the program's calls: the kernel's timers (or a sync() elsewhere)
		 * wrote first. */
		snprintf(a->detail + strlen(a->detail), sizeof a->detail - strlen(a->detail),
		         ", after %" PRIu64 " writes no call waited for", h->stray_writes);
		return;
	}
	a->seen = true;
	for (size_t i = 0; i < q->n_choices; i++)
		if (strncmp(q->choices[i], a->detail, strlen(q->choices[i])) == 0 &&
		    strlen(q->choices[i]) == strlen(a->detail))
			snprintf(a->text, sizeof a->text, "%c", (char)('a' + i));
}
