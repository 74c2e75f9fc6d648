/* SPDX-License-Identifier: MIT */
/* load-int.h: the loader's private state and the functions its files share. */
#ifndef IOBUFVIZ_SCENARIO_LOAD_H
#define IOBUFVIZ_SCENARIO_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"
#include "scenario/names.h"
#include "load/yamlpos.h"

/* After this many errors the rest are noise: they are counted, not shown. */
#define SCN_MAX_ERRORS 20
/* Errors kept to be sorted by position; past it they are counted only (memory stays bounded
 * whatever a 1 MiB scenario holds). */
#define SCN_KEPT_ERRORS 1000

/* One error line: where it is, and its text ("PATH:LINE:COL: message\n"). */
struct scn_report_line {
	int line, col;
	size_t seq;           /* the order it was reported in, for equal positions */
	char *text;
};
/* Longest wait a scenario may ask for, in seconds. */
#define SCN_MAX_WAIT 3600.0
/* wait until: clean gives up after this long unless the step says otherwise. */
#define SCN_WAIT_TIMEOUT 60.0
/*
 * O_DIRECT wants offsets and sizes in multiples of the device's logical block size, never
 * below 512 on a disk, and the buffer aligned to what the device's DMA needs (512 on most
 * disks, as listing 13-1 teaches; 4 on some NVMe). The loader knows neither of the scratch
 * file's values, so it holds scenarios to 512 for all three: a size or offset that breaks it
 * fails on every disk. The file's real alignments are known only to the run, which checks a
 * failed transfer against them (engine/ops.c, statx) and says which rule it broke. Both use one
 * rule, scenario_dio_misfit.
 */
#define SCN_DIO_MIN_ALIGN 512

/* One load: where errors go, what is being read, and what the steps so far left open. */
struct scn_load {
	const char *path;
	const struct yamlpos *ix;
	struct scn_report_line *lines; /* the errors so far (at most SCN_KEPT_ERRORS), unsorted */
	size_t n_lines, lines_cap;
	int n_err;            /* errors reported (some may not be kept) */
	int n_quiet;          /* errors not reported: consequences of one reported at a node */
	char *err;            /* load_report_finish(): the lines to show */
	bool oom;
	bool shaping;         /* the shape check runs: an error marks its node */
	unsigned char *marks; /* per node of ix: enum scn_mark bits (NULL: none kept) */
	bool direct;          /* the current fd was opened with O_DIRECT */
	bool tmpfs;           /* the scratch file is on tmpfs: O_DIRECT has no alignment rules */
	char *names[SCN_MAX_NAMES]; /* as: names so far (steps' own copies), handle = index + 1 */
	unsigned name_has[SCN_MAX_NAMES]; /* what each holds: SCN_IO_FD and SCN_IO_STDIO bits */
	size_t n_names;
	const char *ended;          /* the exit or _exit op that ended the program; NULL: none */
	const char *src;            /* the file's text, to find a sentence's place in it */
	const char *src_cur;        /* a place in it (the start of line src_line), or NULL */
	int src_line;
	bool *step_bad;             /* per step: its conversion had errors (said or not) */
};

/*
 * What the shape check left of a node (load/report.c). The shape check reports every error
 * there is on the tree; the tree is then pruned of what it reported, so that the conversion
 * and the bounds check still run on the rest and report their errors in the same pass. An
 * error at a marked node is a consequence of one already reported, and is not reported.
 */
enum scn_mark {
	SCN_MARK_BAD = 1,         /* the shape check reported it: taken out (a step: emptied) */
	SCN_MARK_INCOMPLETE = 2,  /* a key or entry of it was taken out: what it misses is not
	                             reported (the misspelt key is the missing one) */
};

/* What a key of a mapping takes (the schema: load/schema.c). */
enum scn_shape {
	SCN_SHAPE_SCALAR,     /* a single value */
	SCN_SHAPE_LIST,       /* a list of single values */
	SCN_SHAPE_MAP,        /* a mapping of FIELDS; a null value stands for an empty one */
	SCN_SHAPE_MAP_LIST,   /* a list of mappings of FIELDS */
	SCN_SHAPE_TEXT,       /* narration: a text, or a list of parts (load/narr.c) */
};

/* One key of a mapping in the schema. */
struct scn_field {
	const char *key;
	enum scn_shape shape;
	const struct scn_field *fields; /* keys of the mapping(s) it holds */
};

/* The YAML key of each op argument, and what it takes. */
extern const struct scn_field scn_arg_fields[SCN_ARG__COUNT];

/* An example of each op argument's value, as YAML (tests make a step of every op from them). */
extern const char *const scn_arg_examples[SCN_ARG__COUNT];

/* ---- load/report.c ---- */

/* Append one "PATH:LINE:COL: message" line. */
void load_report_error(struct scn_load *ld, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append one such line at node N's value (KEY false) or key; NULL node: at 1:1. While the
 * shape check runs, mark N bad; after it, say nothing at a marked node. */
void load_report_at(struct scn_load *ld, const struct yamlpos_node *n, bool key,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Error at a node's value; NULL node: at 1:1. */
#define load_at(ld, node, ...) load_report_at((ld), (node), false, __VA_ARGS__)
/* Error at a node's key. */
#define load_at_key(ld, node, ...) load_report_at((ld), (node), true, __VA_ARGS__)

/* After the shape check: take out of IX (ld->ix) every node it reported, so that what is left
 * is well-shaped; STEPS is the list of steps (its entries are emptied, not taken out: a step's
 * number is in later messages). */
void load_report_prune(struct scn_load *ld, struct yamlpos *ix,
			   const struct yamlpos_node *steps);

/* The errors in the order of their positions, at most SCN_MAX_ERRORS of them and a line that
 * says how many more there are, into ld->err; the kept lines are freed. */
void load_report_finish(struct scn_load *ld);

/* The closest of N names to WORD if it is close enough, else NULL. */
const char *load_report_suggest(const char *word, const char *const *names, size_t n);

/* Append WORD to the text in buf, after SEP unless buf is empty. */
void load_report_append(char *buf, size_t len, const char *sep, const char *word);

/* Write "a, b, c" (the names of a table) into buf. */
const char *load_report_names(const struct scn_name *t, char *buf, size_t len);

/* ---- load/value.c ---- */

/* Duplicate S, remembering failure. */
char *load_value_strdup(struct scn_load *ld, const char *s);

/* True if NODE is a plain null scalar ("", "~", "null"): a key written with no value. */
bool load_value_is_null(const struct yamlpos_node *node);

/* Look S up in table T. Return 0 and set *out, or report at NODE and return -1. */
int load_value_name(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			const struct scn_name *t, const char *what, int *out);

/* Sizes: what a zero means and whether the 1 GiB bound applies. */
enum { SZ_ZERO_OK = 1, SZ_BOUNDED = 2 };

/* Parse a size ("4096", "4KiB"). */
int load_value_size(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			const char *what, int how, uint64_t *out);

/* Parse an offset: a size, negative only where ALLOW_NEG. */
int load_value_offset(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			  bool allow_neg, int64_t *out);

/* Parse a real number within [lo, hi]. */
int load_value_real(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			const char *what, double lo, double hi, double *out);

/* Parse a whole number within [lo, hi]. */
int load_value_count(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			 const char *what, uint64_t lo, uint64_t hi, uint64_t *out);

struct scn_raw_list;
struct scn_raw_step;
struct scn_raw_sweep;

/* Map the list of flag names L (libcyaml's), written at LIST, to their OR. */
int load_value_flags(struct scn_load *ld, const struct yamlpos_node *list,
			 const struct scn_raw_list *l, const struct scn_name *t, const char *what,
			 int *out);

/* Parse one expectation value S (written at NODE) for key E->key into E. */
int load_value_expect(struct scn_load *ld, const struct yamlpos_node *node, const char *s,
			  struct scn_expect *e);

/* Parse one expectation: key C (known) with value VAL, of a step doing OP, into E. */
void load_value_step_expect(struct scn_load *ld, enum scn_op op, const struct yamlpos_node *c,
				const char *val, struct scn_expect *e, size_t stepno);

/* Free N expectations E (what they own, and the array). */
void load_value_expects_free(struct scn_expect *e, size_t n);

/* ---- load/bounds.c ---- */

/* Refuse more than SCN_MAX_STEPS steps, on the tree ROOT; 0, or -1 after reporting. */
int load_bounds_steps(struct scn_load *ld, const struct yamlpos_node *root);

/* A whole run's bounds (time, bytes, tail), reported at the step or key that crosses one. */
void load_bounds_check(struct scn_load *ld, const struct scenario *s,
			   const struct yamlpos_node *root);

/* ---- load/schema.c ---- */

/* Check a step's expect mapping N (or null). */
void load_schema_expect(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno);

/* Check every key and the kind of every value against the schema; 0 if all is well-shaped. */
int load_schema_check(struct scn_load *ld, const struct yamlpos_node *root);

/* ---- load/step.c ---- */

/* Parse one step RS (libcyaml's), written at SN (STEPNO is 1-based, for messages). */
void load_step_parse(struct scn_load *ld, struct scn_step *st, const struct scn_raw_step *rs,
			 const struct yamlpos_node *sn, size_t stepno);

/* wait's rules: seconds or until, not both; timeout only with until. */
void load_step_wait(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *opnode, size_t stepno);

/* write/pwrite's rule: bytes or text, not both. */
void load_step_text(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *opnode, size_t stepno);

/* fcntl's rule: F_SETFL needs flags, F_GETFL takes none. */
void load_step_fcntl(struct scn_load *ld, const struct scn_step *st,
			 const struct yamlpos_node *opnode, size_t stepno);

/* fallocate's rule: at least one byte. */
void load_step_fallocate(struct scn_load *ld, const struct scn_step *st,
			 const struct yamlpos_node *opnode, size_t stepno);

/* The rule of file: and to: (open, fopen, rename, crash): a name in the scratch file's
 * directory, '.' only for open and fopen. */
void load_step_file(struct scn_load *ld, const struct scn_step *st,
			const struct yamlpos_node *opnode, size_t stepno);

/* ---- load/cond.c ---- */

/* The fact named NAME, or -1. */
int load_cond_fact(const char *name);

/* Index of NAME in the NULL-ended list T, or -1. */
int load_cond_index(const char *const *t, const char *name);

/* Write the NULL-ended list T as "a, b, c" into buf. */
const char *load_cond_list(const char *const *t, char *buf, size_t len);

/* Check value *V (written at N) of fact F, in WHERE ("a case of step 2"); a size is rewritten
 * as its number of bytes. 0 if it is one F can have. */
int load_cond_value(struct scn_load *ld, const struct yamlpos_node *n, enum scn_fact f,
			char **v, const char *where);

/* Check a case's when/unless mapping N: known facts, each a value or a list of values. */
void load_cond_schema_facts(struct scn_load *ld, const struct yamlpos_node *n, size_t stepno);

/* Parse a step's cases N (NULL: none) into st. */
void load_cond_parse(struct scn_load *ld, struct scn_step *st, const struct yamlpos_node *n,
			 size_t stepno);

/* Free a step's cases (their narrations are the caller's to free first). */
void load_cond_free(struct scn_step *st);

/* ---- load/narr-rule.c ---- */

/* The says a rule applies to: a step's (not a sweep's) and a sweep's. A sweep's counts are its
 * parameters (buffer sizes, the calls they make), and its table shows them. */
#define SCN_NARR_IN_STEP 1u
#define SCN_NARR_IN_SWEEP 2u
#define SCN_NARR_IN_INTRO 4u    /* an intro: the facts of the environment only */

/* The rest-on rule for sentence s of a say of kind IN (SCN_NARR_IN_*), WHERE it is ("the say of
 * step 3"): a word of a state, a count or (in a sweep) a comparison of times is reported at AT
 * unless the sentence rests on a fact of that kind; a number that contradicts the fact it
 * rests on is reported; one the loader cannot tell is added to s->counts for the run. */
void load_narr_rule(struct scn_load *ld, const struct yamlpos_node *at,
			struct scn_sentence *s, unsigned in, const char *where);

/* ---- load/narr.c ---- */

/* Check the shape of a say or intro N: a text, or a list of parts (a text or a list of
 * alternative texts). */
void load_narr_schema(struct scn_load *ld, const struct yamlpos_node *n);

/* Read say or intro N (NULL: none) into out; ST: the step (NULL: the intro); WHERE names it
 * in messages ("the say of step 3"). */
void load_narr_parse(struct scn_load *ld, struct scn_narration *out,
			 const struct yamlpos_node *n, const struct scn_step *st, const char *where);

/* The text of say or intro N as written (a list's first alternatives joined); heap or NULL. */
char *load_narr_text(struct scn_load *ld, const struct yamlpos_node *n);

/* Free what a narration owns. */
void load_narr_free(struct scn_narration *nr);


/* ---- load/sweep.c ---- */

/* Parse a sweep step's mapping RW (libcyaml's; NULL: nothing given), written at SN. */
void load_sweep_parse(struct scn_load *ld, struct scn_step *st,
			  const struct scn_raw_sweep *rw, const struct yamlpos_node *sn,
			  size_t stepno);

/* Free a sweep. NULL is fine. */
void load_sweep_free(struct scn_sweep *sw);

/* ---- load/raw.c: what libcyaml maps the document to (every scalar kept as text) ---- */

/* A list of single values. */
struct scn_raw_list {
	char **items;
	unsigned count;
};

/* An op's argument mapping: each argument's text (or list) by enum scn_arg; NULL: absent. */
struct scn_raw_args {
	char *v[SCN_ARG__COUNT];
	struct scn_raw_list list[SCN_ARG__COUNT];
};

/* A step's expect mapping: each key's text by enum scn_key; NULL: absent. */
struct scn_raw_expect {
	char *v[SCN_KEY__COUNT];
};

/* A sweep reference's row. */
struct scn_raw_row {
	char *buf_size, *elapsed, *user, *system;
};

/* A sweep reference. */
struct scn_raw_ref {
	char *label, *source, *variant, *total;
	struct scn_raw_row *rows;
	unsigned rows_count;
};

/* A sweep variant. */
struct scn_raw_variant {
	char *name, *sync_each, *on;
	struct scn_raw_list flags;
};

/* A sweep's mapping. */
struct scn_raw_sweep {
	char *title, *program, *file_size, *repeat, *warmup, *cache, *budget;
	struct scn_raw_list buffer_sizes;
	struct scn_raw_variant *variants;
	unsigned variants_count;
	struct scn_raw_ref *reference;
	unsigned reference_count;
};

/* One step: its op's value by enum scn_op, in the slot its form says (NULL: absent or null). */
struct scn_raw_step {
	struct scn_raw_args *args[SCN_OP__COUNT];   /* SCN_FORM_ARGS */
	char *text[SCN_OP__COUNT];                  /* SCN_FORM_TEXT */
	struct scn_raw_sweep *sweep[SCN_OP__COUNT]; /* SCN_FORM_SWEEP */
	char *ask;
	char *as, *on;                              /* a named fd/FILE* pair */
	struct scn_raw_expect *expect;
};

/* The file mapping. */
struct scn_raw_file {
	char *size, *on, *fill;
};

/* A whole scenario. */
struct scn_raw_scenario {
	char *title, *source;
	struct scn_raw_file *file;
	struct scn_raw_step *steps;
	unsigned steps_count;
};

/* The start of the message when libcyaml refuses what the shape check accepted (a bug). */
#define SCN_RAW_REFUSED "libcyaml refused a document the shape check accepted"

/* Map BUF (LEN bytes, already shape-checked) to *OUT with libcyaml; return -1 if libcyaml
 * refuses it, and (REPORT) say so at 1:1: after shape errors, they are what is said. */
int load_raw_load(struct scn_load *ld, const char *buf, size_t len, bool report,
		  struct scn_raw_scenario **out);

/* Free what load_raw_load() gave (with the schema it was loaded with). NULL is fine. */
void load_raw_free(struct scn_raw_scenario *raw);

#endif
