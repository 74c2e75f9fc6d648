/* SPDX-License-Identifier: MIT */
/* lesson/narrate.c: narration as this run tells it. Each sentence rests on the facts its marks
 * name (load/narr.c); here each fact is looked up in what the run observed, the sentence is held,
 * unchecked or false, and each part shows the first of its alternatives that is true here. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/adapt.h"
#include "lesson/expect.h"
#include "lesson/narrate.h"
#include "base/text.h"
#include "base/units.h"
#include "scenario/names.h"
#include "sweep/sweep.h"

/* One fact of a sentence, looked up: its outcome, the text it shows, and why when not held;
 * both whole (narrate_fact_free). */
struct narrate_fact {
	enum sentence_outcome outcome;
	bool by_other;            /* false by what another writer did (sentence_result) */
	bool by_strays;           /* unchecked: what a power cut kept may be stray writes'
	                             (expect_crash_kept); kept is what it kept */
	struct text_buf text;
	struct text_buf why;
	struct text_buf kept;
};

/* Free what fact f owns. */
static void
narrate_fact_clear(struct narrate_fact *f)
{
	text_buf_free(&f->text);
	text_buf_free(&f->why);
	text_buf_free(&f->kept);
}

/* Free the n facts f, and f. */
static void
narrate_facts_free(struct narrate_fact *f, size_t n)
{
	for (size_t i = 0; f != NULL && i < n; i++)
		narrate_fact_clear(&f[i]);
	free(f);
}

/* A fact looked up afresh: held, with no text or why yet (their memory kept). */
static void
narrate_fact_reset(struct narrate_fact *f)
{
	f->outcome = SENTENCE_HELD;
	f->by_other = false;
	f->by_strays = false;
	text_reset(&f->kept);
	text_reset(&f->text);
	text_reset(&f->why);
}

/* What a check wants, as a reader says it ("2", "at least 1"), into b, whole. */
static void
narrate_want(const struct scn_expect *w, struct text_buf *b)
{
	static const char *const words[] = {
		[SCN_CMP_EQ] = "", [SCN_CMP_NE] = "not ", [SCN_CMP_LT] = "fewer than ",
		[SCN_CMP_LE] = "at most ", [SCN_CMP_GT] = "more than ", [SCN_CMP_GE] = "at least ",
	};
	struct text_buf v = { 0 };

	expect_want_add(w, &v);
	/* expect_want_add writes "OP VALUE": keep the value. */
	const char *val = strchr(text_str(&v), ' ');
	text_setf(b, "%s%s", words[w->cmp], val != NULL ? val + 1 : text_str(&v));
	text_buf_free(&v);
}

/* Append "KEY OP VALUE" for what check w wants to b ("file.content = \"...\""), whole. */
static void
narrate_add_want(struct text_buf *b, const struct scn_expect *w)
{
	text_addf(b, "%s ", scenario_key_name(w->key));
	expect_want_add(w, b);
}

/* The value of environment name ENV (an scn_fact or scn_env) for sr, into buf. */
static const char *
narrate_env(const struct step_result *sr, int env, char *buf, size_t len)
{
	switch (env) {
	case SCN_ENV_DEVICE:
		snprintf(buf, len, "%s", sr->after.disk.device[0] ? sr->after.disk.device : "unknown");
		return buf;
	case SCN_ENV_KERNEL:
		adapt_kernel(buf, len);
		return buf;
	case SCN_ENV_TIME:
		return units_format_ns(sr->op_ns, buf, len);
	case SCN_ENV_DIRTY_EXPIRE:
		return adapt_dirty_expire(buf, len);
	default:
		return adapt_fact(sr, (enum scn_fact)env, buf, len);
	}
}

/* Look a sweep's claim t up in its rows as this run timed them, into f. */
static void
narrate_times(const struct step_result *sr, const struct scn_times *t, struct narrate_fact *f)
{
	char said[512];           /* the sweep's own words (sweep/sweep.c cuts them with "…") */
	int rel;
	bool holds;

	if (sr->sweep == NULL) {
		f->outcome = SENTENCE_UNCHECKED;
		text_setf(&f->text, "unknown");
		text_setf(&f->why, "the sweep did not run");
		return;
	}
	if (t->quote) {
		if (sweep_row_quote(sr->sweep, t->variant[0], t->buf_size[0], said,
				    sizeof said) != 0) {
			f->outcome = SENTENCE_UNCHECKED;
			text_setf(&f->why, "%s", said);
			text_setf(&f->text, "unknown");
		} else {
			text_setf(&f->text, "%s", said);
		}
		return;
	}
	rel = sweep_compare(sr->sweep, t->variant, t->buf_size, said, sizeof said);
	text_setf(&f->why, "%s", said);
	text_setf(&f->text, "%s", rel == -2 ? "unknown" : said);
	if (rel == -2) {
		f->outcome = SENTENCE_UNCHECKED;
		return;
	}
	switch (t->cmp) {
	case SCN_CMP_GT: holds = rel > 0; break;
	case SCN_CMP_LT: holds = rel < 0; break;
	case SCN_CMP_GE: holds = rel >= 0; break;
	case SCN_CMP_LE: holds = rel <= 0; break;
	case SCN_CMP_NE: holds = rel != 0; break;
	case SCN_CMP_EQ: default: holds = rel == 0; break;
	}
	f->outcome = holds ? SENTENCE_HELD : SENTENCE_FALSE;
	if (holds)
		text_reset(&f->why);
}

/* What check c came to (oc, r) into f. */
static void
narrate_check(const struct scn_claim *c, enum expect_outcome oc, const struct expect_result *r,
              struct narrate_fact *f)
{
	switch (oc) {
	case EXPECT_HELD:
		text_setf(&f->text, "%s", text_str(&r->got_text));
		text_reset(&f->why);
		return;
	case EXPECT_NOT_OBSERVABLE:
		narrate_want(&c->want, &f->text);
		/* Excused as an expectation, yet seen otherwise: the sentence is false here,
		 * and says why; the run does not fail for what another writer (the kernel's
		 * writeback, a sync() elsewhere) did. */
		if (r->contradicted) {
			f->outcome = SENTENCE_FALSE;
			f->by_other = true;
			text_setf(&f->why, "%s; so false here: ", text_str(&r->got_text));
			narrate_add_want(&f->why, &c->want);
			text_addf(&f->why, ", here %" PRId64, r->got);
			return;
		}
		f->outcome = SENTENCE_UNCHECKED;
		text_setf(&f->why, "%s", text_str(&r->got_text));
		if (r->by_strays) {
			f->by_strays = true;
			text_setf(&f->kept, "%s", text_str(&r->kept_text));
		}
		return;
	case EXPECT_FAILED:
		/* Shown as written: the claim, not the run's value, is what is false. */
		f->outcome = SENTENCE_FALSE;
		narrate_want(&c->want, &f->text);
		text_reset(&f->why);
		narrate_add_want(&f->why, &c->want);
		text_addf(&f->why, ", here %s", text_str(&r->got_text));
		return;
	}
}

/* Look claim c up in sr into f. */
static void
narrate_claim(const struct step_result *sr, const struct scn_claim *c, struct narrate_fact *f)
{
	struct expect_result r;
	char env[256];            /* a fact of the machine's ("ext4", "6.18.0", "30") */
	int64_t num;

	narrate_fact_reset(f);
	switch (c->kind) {
	case SCN_CLAIM_QUOTE:
		if (c->key < 0) {
			text_setf(&f->text, "%s", narrate_env(sr, c->env, env, sizeof env));
			return;
		}
		/* A value shown of a fact that does not apply here (dirty pages on tmpfs) is
		 * never right, whatever it reads. */
		if (!expect_applies(sr, (enum scn_key)c->key, &f->why)) {
			f->outcome = SENTENCE_FALSE;
			return;
		}
		if (expect_observe(sr, (enum scn_key)c->key, &num, &f->text)) {
			/* f->text is the value, whole. */
		} else if (num == EXPECT_ABSENT) {
			f->outcome = SENTENCE_FALSE;
			text_setf(&f->why, "%s: %s", scenario_key_name(c->key), text_str(&f->text));
			text_reset(&f->text);
		} else {
			f->outcome = SENTENCE_UNCHECKED;
			text_setf(&f->why, "%s", text_str(&f->text));
			text_setf(&f->text, "unknown");
		}
		return;
	case SCN_CLAIM_CHECK:
		narrate_check(c, expect_check(sr, &c->want, &r), &r, f);
		expect_result_clear(&r);
		return;
	case SCN_CLAIM_FACT: {
		int state = adapt_cond_state(&c->cond, sr);
		bool holds = (state == 1) != c->cond.negate;
		text_setf(&f->text, "%s", narrate_env(sr, c->cond.fact, env, sizeof env));
		if (state < 0) {
			/* A sweep under several --dir: true of some of its filesystems only. */
			f->outcome = SENTENCE_UNCHECKED;
			text_setf(&f->why, "%s is %s in the places this sweep ran: "
				  "true of some of them only", scn_env_names[c->cond.fact], env);
		} else if (!holds) {
			f->outcome = SENTENCE_FALSE;
			text_setf(&f->why, "%s is %s here", scn_env_names[c->cond.fact], env);
		}
		return;
	}
	case SCN_CLAIM_TIMES:
		narrate_times(sr, &c->times, f);
		return;
	case SCN_CLAIM_CITE: {
		bool any = false;
		for (size_t i = 0; i < sr->n_expects; i++) {
			const struct expect_result *e = &sr->expects[i];
			if ((int)e->want->key != c->key)
				continue;
			any = true;
			if (e->outcome == EXPECT_FAILED || e->contradicted) {
				/* Contradicted by what another writer did: false here, with why,
				 * not the lesson's failure (as above). */
				f->outcome = SENTENCE_FALSE;
				f->by_other = e->contradicted;
				text_reset(&f->why);
				if (e->contradicted)
					text_addf(&f->why, "%s; so false here: ",
					          text_str(&e->got_text));
				narrate_add_want(&f->why, e->want);
				if (e->contradicted)
					text_addf(&f->why, ", here %" PRId64, e->got);
				else
					text_addf(&f->why, ", here %s", text_str(&e->got_text));
				return;
			}
			if (e->outcome == EXPECT_NOT_OBSERVABLE) {
				f->outcome = SENTENCE_UNCHECKED;
				text_setf(&f->why, "%s", text_str(&e->got_text));
			}
		}
		if (!any) {
			f->outcome = SENTENCE_UNCHECKED;
			text_setf(&f->why, "no expectation of %s applies here",
				  scenario_key_name(c->key));
		}
		return;
	}
	}
}

/* Count k of a sentence against the facts of its kind it names (claims c, n of them), in sr:
 * held when one of them has its value here, false when all were seen otherwise, else
 * unchecked; into f. */
static void
narrate_count(const struct step_result *sr, const struct scn_count *k, const struct scn_claim *c,
	      size_t n, struct narrate_fact *f)
{
	struct text_buf got = { 0 }, seen = { 0 };
	bool unseen = false;
	int64_t num;

	narrate_fact_reset(f);
	for (size_t i = 0; i < n; i++) {
		int kind = c[i].kind == SCN_CLAIM_FACT || c[i].kind == SCN_CLAIM_TIMES ? -1 :
			   scenario_key_counts(c[i].key);
		if (kind < 0 || (k->kind != SCN_COUNT_ANY && kind != (int)k->kind))
			continue;
		if (!expect_observe(sr, (enum scn_key)c[i].key, &num, &got)) {
			unseen = true;
			continue;
		}
		if (num == k->value)
			goto out;
		text_addf(&seen, "%s%s is %" PRId64, seen.len > 0 ? ", " : "",
			  scenario_key_name(c[i].key), num);
	}
	f->outcome = unseen ? SENTENCE_UNCHECKED : SENTENCE_FALSE;
	text_setf(&f->why, "the sentence says '%s'%s%s", k->text,
		  seen.len > 0 ? "; here " :
		  unseen ? ", and its facts cannot be observed here" : "", text_str(&seen));
out:
	text_buf_free(&got);
	text_buf_free(&seen);
}

/* Append LEN bytes of T to b; -1 out of memory (or past b's bound: a sentence cut is not
 * told). */
static int
narrate_append(struct text_buf *b, const char *t, size_t len)
{
	text_addn(b, t, len);
	return b->nomem || b->cut ? -1 : 0;
}

/* The last byte of b's text ('\0' when empty). */
static char
narrate_last(const struct text_buf *b)
{
	return b->len > 0 ? b->s[b->len - 1] : '\0';
}

/* Take b's text with its trailing spaces and line breaks dropped. */
static char *
narrate_take(struct text_buf *b)
{
	while (b->len > 0 && (b->s[b->len - 1] == ' ' || b->s[b->len - 1] == '\n'))
		b->s[--b->len] = '\0';
	return text_take(b);
}

/* True if sentence s, its facts looked up into f, rests on stray writes having reached the
 * crash lab's device: a check of crash.power.strays that held and that no count of 0 would
 * hold ([crash.power.strays >= 1]). */
static bool
narrate_tells_strays(const struct scn_sentence *s, const struct narrate_fact *f)
{
	for (size_t i = 0; i < s->n_claims; i++) {
		const struct scn_claim *c = &s->claims[i];
		if (c->kind == SCN_CLAIM_CHECK && c->want.key == SCN_KEY_CRASH_POWER_STRAYS &&
		    f[i].outcome == SENTENCE_HELD && !scenario_cmp_holds(c->want.cmp, 0, c->want.num))
			return true;
	}
	return false;
}

/* Tell sentence s for sr into out (its text, outcome and why). 0, or -1 out of memory. */
static int
narrate_sentence(const struct step_result *sr, const struct scn_sentence *s,
		 struct sentence_result *out)
{
	/* Each fact looked up once: what decides the sentence is what it shows. */
	struct narrate_fact *f = calloc(s->n_claims + 1, sizeof *f), k = { 0 };
	struct text_buf b = { 0 };
	bool own_false = false;

	memset(out, 0, sizeof *out);
	out->line = s->line;
	out->col = s->col;
	/* Background may quote the environment ({dirty_expire}); it still rests on nothing. */
	out->rests = s->n_claims > 0 && !s->background;
	out->background = s->background;
	out->outcome = SENTENCE_HELD;
	if (f == NULL || narrate_append(&b, "", 0) != 0)
		goto oom;
	for (size_t i = 0; i < s->n_claims; i++) {
		const struct scn_claim *c = &s->claims[i];
		bool shown = false;
		narrate_claim(sr, c, &f[i]);
		for (size_t p = 0; p < s->n_pieces && !shown; p++)
			shown = s->pieces[p].text == NULL && s->pieces[p].claim == i;
		/* A value shown of a fact that does not apply here is false ("0 dirty" on
		 * tmpfs). Checked or cited without being shown, it is the 0 its getter gives: a
		 * definition, not something seen, so a sentence resting on it is not held
		 * ("fsync() wrote the dirty pages back [cache.dirty_pages = 0]" on tmpfs, which
		 * has no disk to write them to): unchecked, and why. */
		if (c->kind == SCN_CLAIM_CHECK && f[i].outcome != SENTENCE_FALSE &&
		    !expect_applies(sr, c->want.key, &f[i].why))
			f[i].outcome = shown ? SENTENCE_FALSE : SENTENCE_UNCHECKED;
		else if (c->kind == SCN_CLAIM_CITE && f[i].outcome == SENTENCE_HELD &&
		         !expect_applies(sr, (enum scn_key)c->key, &f[i].why))
			f[i].outcome = SENTENCE_UNCHECKED;
	}
	/* What a power cut kept, when stray writes reached the device first, is the lesson's
	 * only in a sentence that says they did: one resting on [crash.power.strays >= 1]. */
	if (narrate_tells_strays(s, f))
		for (size_t i = 0; i < s->n_claims; i++)
			if (f[i].by_strays) {
				f[i].outcome = SENTENCE_HELD;
				text_setf(&f[i].text, "%s", text_str(&f[i].kept));
				text_reset(&f[i].why);
			}
	for (size_t i = 0; i < s->n_claims; i++) {
		if (f[i].outcome > out->outcome) {
			out->outcome = f[i].outcome;
			text_setf(&out->why, "%s", text_str(&f[i].why));
		}
		/* False by another writer only if every fact seen false is. */
		if (f[i].outcome == SENTENCE_FALSE)
			own_false |= !f[i].by_other;
	}
	/* A number written in the sentence is held when a fact of its kind has that value. */
	for (size_t i = 0; i < s->n_counts; i++) {
		narrate_count(sr, &s->counts[i], s->claims, s->n_claims, &k);
		if (k.outcome > out->outcome) {
			out->outcome = k.outcome;
			text_setf(&out->why, "%s", text_str(&k.why));
		}
		own_false |= k.outcome == SENTENCE_FALSE;
	}
	out->by_other = out->outcome == SENTENCE_FALSE && !own_false;
	for (size_t p = 0; p < s->n_pieces; p++) {
		const struct scn_piece *pc = &s->pieces[p];
		int rc;
		if (pc->text != NULL) {
			rc = narrate_append(&b, pc->text, strlen(pc->text));
		} else {
			/* Values come from the kernel, the filesystem and the program (a file's
			 * content): one line, no controls, whole. */
			char *safe = text_safe_dup(text_str(&f[pc->claim].text), TEXT_LINE);
			rc = safe != NULL ? narrate_append(&b, safe, strlen(safe)) : -1;
			free(safe);
		}
		if (rc != 0)
			goto oom;
	}
	if (out->why.nomem)
		goto oom;
	narrate_facts_free(f, s->n_claims + 1);
	narrate_fact_clear(&k);
	out->text = text_take(&b);
	return 0;
oom:
	narrate_facts_free(f, s->n_claims + 1);
	narrate_fact_clear(&k);
	text_buf_free(&b);
	sentence_result_clear(out);
	return -1;
}

/* Tell alternative a for sr into v (a->n_sentences results); its worst outcome in *worst. */
static int
narrate_alt(const struct step_result *sr, const struct scn_alt *a, struct sentence_result *v,
	    enum sentence_outcome *worst)
{
	*worst = SENTENCE_HELD;
	for (size_t i = 0; i < a->n_sentences; i++) {
		if (narrate_sentence(sr, &a->sentences[i], &v[i]) != 0) {
			for (size_t k = 0; k <= i; k++)
				sentence_result_clear(&v[k]);
			return -1;
		}
		if (v[i].outcome > *worst)
			*worst = v[i].outcome;
	}
	return 0;
}

/* Tell narration nr for sr: the sentences told (and the false ones) into *out (*n_out); the
 * told text into *say. 0, or -1 out of memory. */
static int
narrate_tell(const struct step_result *sr, const struct scn_narration *nr, char **say,
	     struct sentence_result **out, size_t *n_out)
{
	size_t total = 0, n = 0;
	struct text_buf b = { 0 };

	*say = NULL;
	*out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < nr->n_parts; i++) {
		size_t most = 0;
		for (size_t j = 0; j < nr->parts[i].n_alts; j++)
			if (nr->parts[i].alts[j].n_sentences > most)
				most = nr->parts[i].alts[j].n_sentences;
		total += most;
	}
	if (total == 0)
		return 0;
	*out = calloc(total, sizeof **out);
	if (*out == NULL || narrate_append(&b, "", 0) != 0)
		goto oom;
	for (size_t i = 0; i < nr->n_parts; i++) {
		const struct scn_part *p = &nr->parts[i];
		struct sentence_result *v = *out + n;
		size_t pick = 0;
		enum sentence_outcome best = SENTENCE_FALSE + 1, worst;
		/* The first alternative that holds; else the first with nothing false; else the
		 * first, whose false sentences are not told. */
		for (size_t j = 0; j < p->n_alts; j++) {
			if (narrate_alt(sr, &p->alts[j], v, &worst) != 0)
				goto oom;
			for (size_t k = 0; k < p->alts[j].n_sentences; k++)
				sentence_result_clear(&v[k]);
			if (worst < best) {
				best = worst;
				pick = j;
			}
			if (worst == SENTENCE_HELD)
				break;
		}
		if (p->n_alts == 0)
			continue;
		if (best == SENTENCE_FALSE)
			pick = 0;
		if (narrate_alt(sr, &p->alts[pick], v, &worst) != 0)
			goto oom;
		for (size_t k = 0; k < p->alts[pick].n_sentences; k++) {
			if (v[k].outcome == SENTENCE_FALSE)
				continue;
			if (b.len > 0 && narrate_last(&b) != ' ' && narrate_last(&b) != '\n' &&
			    narrate_append(&b, " ", 1) != 0)
				goto oom;
			if (narrate_append(&b, v[k].text, strlen(v[k].text)) != 0)
				goto oom;
		}
		n += p->alts[pick].n_sentences;
	}
	*say = narrate_take(&b);
	*n_out = n;
	return 0;
oom:
	sentence_results_free(*out, n);
	text_buf_free(&b);
	*out = NULL;
	*say = NULL;
	return -1;
}

/* Count the outcomes of sr's sentences; a false one fails the step. */
static void
narrate_outcomes(struct step_result *sr)
{
	sr->n_unchecked = sr->n_false = sr->n_false_other = 0;
	for (size_t i = 0; i < sr->n_sentences; i++) {
		sr->n_unchecked += sr->sentences[i].outcome == SENTENCE_UNCHECKED;
		sr->n_false += sr->sentences[i].outcome == SENTENCE_FALSE;
		sr->n_false_other += sr->sentences[i].outcome == SENTENCE_FALSE &&
		                     sr->sentences[i].by_other;
	}
	if (sr->n_false > sr->n_false_other)
		sr->ok = false;
}

/* Tell sr's narration. */
int
narrate_step(struct step_result *sr)
{
	const struct scn_step *st = sr->step;
	const struct scn_narration *nr;

	if (st == NULL)
		return 0;
	nr = &st->narr;
	for (size_t i = 0; i < st->n_cases; i++)
		if (st->cases[i].narr.n_parts > 0 && adapt_case_holds(&st->cases[i], sr)) {
			nr = &st->cases[i].narr;
			break;
		}
	free(sr->say);
	sentence_results_free(sr->sentences, sr->n_sentences);
	sr->sentences = NULL;
	sr->n_sentences = 0;
	if (narrate_tell(sr, nr, &sr->say, &sr->sentences, &sr->n_sentences) != 0)
		return -1;
	narrate_outcomes(sr);
	return 0;
}

/* Tell the intro. */
int
narrate_intro(const struct scenario *s, const struct snapshot *initial, char **say,
	      struct sentence_result **v, size_t *n)
{
	struct step_result *sr = calloc(1, sizeof *sr);
	int rc;

	*say = NULL;
	*v = NULL;
	*n = 0;
	if (sr == NULL)
		return -1;
	if (initial != NULL)
		sr->after = *initial;
	rc = narrate_tell(sr, &s->intro_narr, say, v, n);
	free(sr);
	return rc;
}

/* Sentence text T on one line. */
char *
narrate_line(const char *t)
{
	char *c = strdup(t);
	size_t n = c != NULL ? strlen(c) : 0;

	while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\n'))
		c[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		c[i] = c[i] == '\n' ? ' ' : c[i];
	return c;
}

/* True if the sentence told before v[i] (false ones are not told) is background. */
static bool
narrate_prev_background(const struct sentence_result *v, size_t i)
{
	while (i-- > 0)
		if (v[i].outcome != SENTENCE_FALSE)
			return v[i].background;
	return false;
}

/* True if the sentence told after v[i] (of N) is background. */
static bool
narrate_next_background(const struct sentence_result *v, size_t n, size_t i)
{
	while (++i < n)
		if (v[i].outcome != SENTENCE_FALSE)
			return v[i].background;
	return false;
}

/* The told text of V, unchecked sentences marked [?K], background ones inside
 * "[background: ...]". */
char *
narrate_marked(const struct sentence_result *v, size_t n)
{
	struct text_buf b = { 0 };
	unsigned k = 0;

	if (narrate_append(&b, "", 0) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *t = v[i].text;
		size_t body = strlen(t);
		char mark[24];
		if (v[i].outcome == SENTENCE_FALSE)
			continue;
		while (body > 0 && (t[body - 1] == ' ' || t[body - 1] == '\n'))
			body--;
		if (b.len > 0 && narrate_last(&b) != ' ' && narrate_last(&b) != '\n' &&
		    narrate_append(&b, " ", 1) != 0)
			goto oom;
		/* Background (not about this run) is told inside "[background: ...]", a run of
		 * such sentences in one: never as a checked claim. */
		size_t lead = strspn(t, " \n");
		bool open = v[i].background && !narrate_prev_background(v, i);
		bool close = v[i].background && !narrate_next_background(v, n, i);
		if (lead > body)
			lead = body;
		/* Before "[background: " only the lead's line breaks: its spaces (where the mark
		 * was) would start a line kept verbatim, unwrapped (out/text.c, page.js). But a
		 * sentence that starts a line indented by two spaces or more of its own (code, as
		 * in 13-4-pty's intro; a mark leaves one) keeps them, on the line after
		 * "[background:". */
		size_t nl = 0, sp = 0;
		for (size_t j = 0; open && j < lead; j++) {
			nl += t[j] == '\n';
			sp = t[j] == '\n' ? 0 : sp + 1;
		}
		bool verbatim = open && sp >= 2 && (nl > 0 || b.len == 0);
		if ((open ? narrate_append(&b, "\n\n", nl > 2 ? 2 : nl) :
		     narrate_append(&b, t, lead)) != 0 ||
		    (open && !verbatim && narrate_append(&b, "[background: ", 13) != 0) ||
		    (verbatim && (narrate_append(&b, "[background:\n", 13) != 0 ||
				  narrate_append(&b, t + lead - sp, sp) != 0)) ||
		    narrate_append(&b, t + lead, body - lead) != 0 ||
		    (close && narrate_append(&b, "]", 1) != 0))
			goto oom;
		if (v[i].outcome == SENTENCE_UNCHECKED) {
			snprintf(mark, sizeof mark, " [?%u]", ++k);
			if (narrate_append(&b, mark, strlen(mark)) != 0)
				goto oom;
		}
		if (narrate_append(&b, t + body, strlen(t + body)) != 0)
			goto oom;
	}
	return narrate_take(&b);
oom:
	text_buf_free(&b);
	return NULL;
}
