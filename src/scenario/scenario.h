/* SPDX-License-Identifier: MIT */
/* scenario/scenario.h: a loaded, validated scenario: the plain data every other layer reads. */
#ifndef IOBUFVIZ_SCENARIO_H
#define IOBUFVIZ_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario/bufmode.h"
#include "scenario/oplist.h"

/* Which optional arguments a step gave (bits of scn_args.has). */
enum scn_has {
	SCN_HAS_BYTES = 1u << 0,
	SCN_HAS_OFFSET = 1u << 1,
	SCN_HAS_LEN = 1u << 2,
	SCN_HAS_WHENCE = 1u << 3,
	SCN_HAS_TEXT = 1u << 4,
	SCN_HAS_MODE = 1u << 5,
	SCN_HAS_SIZE = 1u << 6,
	SCN_HAS_BUFFER = 1u << 7,
	SCN_HAS_FLAGS = 1u << 8,
	SCN_HAS_ADVICE = 1u << 9,
	SCN_HAS_ALIGN = 1u << 10,
	SCN_HAS_SECONDS = 1u << 11,
	SCN_HAS_UNTIL = 1u << 12,
	SCN_HAS_LINES = 1u << 13,
	SCN_HAS_TIMEOUT = 1u << 14,
};

/* Where a setvbuf/setbuffer buffer comes from. */
enum scn_buffer { SCN_BUFFER_LIBRARY, SCN_BUFFER_OWN };

/* pty op: what happens between printf() and write() (exercise 13-4). */
enum scn_pty_between { SCN_PTY_NOTHING, SCN_PTY_FFLUSH, SCN_PTY_UNBUFFERED };

/* Arguments of one op, already converted (sizes in bytes, names to values). */
struct scn_args {
	unsigned has;         /* SCN_HAS_* bits: which fields below were given */
	uint64_t bytes;       /* transfer size */
	int64_t offset;       /* file offset (pread/pwrite/fseek/lseek/fadvise/...) */
	uint64_t len;         /* range length (fadvise/fallocate/sync_file_range/ftruncate) */
	int whence;           /* SEEK_SET, SEEK_CUR, SEEK_END */
	char *text;           /* fputs/printf text; pty: the printf() text */
	char *text2;          /* pty: the write() text */
	char mode[8];         /* fopen/fdopen mode ("r", "w", "a", "r+", ...) */
	enum scn_bufmode bufmode; /* setvbuf mode */
	uint64_t size;        /* setvbuf/setbuffer buffer size; tail block size */
	enum scn_buffer buffer;   /* own or library buffer */
	int flags;            /* open: O_* bits; sync_file_range: SYNC_FILE_RANGE_* bits */
	int advice;           /* POSIX_FADV_* */
	int cmd;              /* fcntl: F_GETFL or F_SETFL */
	bool child_flushes;   /* fork: the child ends with exit() (flushes stdio), not _exit() */
	unsigned align;       /* O_DIRECT: user buffer misaligned by this many bytes */
	double seconds;       /* wait: fixed time */
	bool until_clean;     /* wait: until the file has no dirty/writeback pages */
	double timeout;       /* wait until clean: give up after this many seconds */
	uint64_t lines;       /* tail: how many lines */
	enum scn_pty_between between; /* pty */
	char *program;        /* run: the program (a path, or a name in PATH) */
	char **argv;          /* run: its arguments ("{file}": the scratch file), n_argv of them */
	size_t n_argv;
	char *stdin_path;     /* run: its standard input (NULL: /dev/null) */
	char *file;           /* open, fopen, rename, crash: another file of the scratch file's
	                         directory, by name ("." its directory); NULL: the scratch file */
	char *to;             /* rename: the new name */
};

/* Comparison of an expectation. */
enum scn_cmp { SCN_CMP_EQ, SCN_CMP_NE, SCN_CMP_LT, SCN_CMP_LE, SCN_CMP_GT, SCN_CMP_GE };

/* One expectation: KEY CMP VALUE. */
struct scn_expect {
	enum scn_key key;
	enum scn_cmp cmp;
	int64_t num;          /* numeric value (stdio.mode: an scn_bufmode; result.errno: errno) */
	char *str;            /* output keys: the expected text; else NULL */
	char *source;         /* the value as written in the scenario, for messages */
	int line, col;        /* where it was written (1-based) */
};

/* Sweep programs (doc/scenarios.md, sweep). */
enum scn_program {
	SCN_PROG_COPY, SCN_PROG_WRITE, SCN_PROG_READ,
	SCN_PROG_FWRITE, SCN_PROG_FREAD, SCN_PROG_FREAD_SETVBUF, SCN_PROG_OVERWRITE
};

/* What each write is followed by in a sweep variant. */
enum scn_sync_each { SCN_SYNC_NONE, SCN_SYNC_FSYNC, SCN_SYNC_FDATASYNC };

/* Filesystem of a scratch file. */
enum scn_fs { SCN_FS_DEFAULT, SCN_FS_TMPFS };

/* One variant of a sweep: a name and how its file is opened and synced. */
struct scn_variant {
	char *name;
	int flags;                 /* extra open flags: O_SYNC, O_DSYNC, O_DIRECT */
	enum scn_sync_each sync_each;
	enum scn_fs on;
};

/* One row of a book's figure. A negative value means "not given". */
struct scn_ref_row {
	uint64_t buf_size;
	double elapsed, user, system;
};

/* A book's published figures, shown next to ours. */
struct scn_reference {
	char *label;               /* e.g. "TLPI 2010" */
	char *source;              /* e.g. "TLPI Table 13-1: 100 MB, ext2, kernel 2.6.30" */
	char *variant;             /* which variant it compares with; NULL: the first */
	uint64_t total_bytes;      /* the book's total transfer, for the scaling note */
	struct scn_ref_row *rows;
	size_t n_rows;
};

/* Cache state a sweep starts from. */
enum scn_cache { SCN_CACHE_COLD, SCN_CACHE_WARM };

/* A timed comparison (its runtime is sweep/sweep.c). */
struct scn_sweep {
	char *title;
	enum scn_program program;
	uint64_t *buffer_sizes;
	size_t n_buffer_sizes;
	uint64_t file_size;
	struct scn_variant *variants;  /* at least one ("default") after loading */
	size_t n_variants;
	unsigned repeat, warmup;
	enum scn_cache cache;
	double budget;             /* seconds per row before scaling down; 0 = default */
	struct scn_reference *references;
	size_t n_references;
};

/* A fact of the run a case can depend on (load/cond.c names them). */
enum scn_fact {
	SCN_FACT_FS,             /* the scratch file's filesystem: ext4, xfs, btrfs, tmpfs, overlay */
	SCN_FACT_PROBE,          /* the page cache's source: cachestat, kpageflags, mincore */
	SCN_FACT_BLKSIZE,        /* the filesystem's block size (statfs f_bsize) */
	SCN_FACT_LARGE_FOLIOS,   /* yes/no: the filesystem caches in large folios here */
	SCN_FACT_DELALLOC,       /* yes/no: written data waits for its blocks (delayed allocation) */
	SCN_FACT_CACHESTAT,      /* yes/no: cachestat(2) is the probe */
	SCN_FACT_DIRTY,          /* yes/no: dirty pages can be counted */
	SCN_FACT_DISK,           /* yes/no: the file has a disk (not tmpfs) */
	SCN_FACT__COUNT
};

/* One condition: FACT is one of VALUES (a size for blksize, yes/no for the flags). */
struct scn_cond {
	enum scn_fact fact;
	bool negate;               /* written under unless: (the case is left out when all of
	                              its unless conditions hold) */
	char **values;
	size_t n_values;
};

/*
 * Narration bound to the facts it states (doc/scenarios.md, section 5). A say (or an intro) is
 * parts; a part is one or more sentences, or alternatives of them, of which the run shows the
 * first that holds here. A sentence rests on the facts its marks name: {name} quotes a value of
 * the run, {name OP value} checks it and shows it, [name OP value] checks it and shows nothing,
 * [key] rests on the step's own expectations of key.
 */

/* Names a mark may quote besides the expectation keys and the facts of enum scn_fact. */
enum scn_env {
	SCN_ENV_DEVICE = SCN_FACT__COUNT,  /* the device under the scratch file (/dev/loop2) */
	SCN_ENV_KERNEL,                    /* the kernel's release (uname -r) */
	SCN_ENV_TIME,                      /* how long the step's op took, with its unit */
	SCN_ENV_DIRTY_EXPIRE,              /* vm.dirty_expire_centisecs, in seconds */
	SCN_ENV__COUNT
};

/* What one mark of a sentence names. */
enum scn_claim_kind {
	SCN_CLAIM_QUOTE,           /* {key} or {env}: the run's value; rests on seeing it */
	SCN_CLAIM_CHECK,           /* key OP value: an expectation written where it is said */
	SCN_CLAIM_FACT,            /* fact = values / fact != values: fs = tmpfs, disk = no */
	SCN_CLAIM_CITE,            /* [key]: the step's own expectations of key */
	SCN_CLAIM_TIMES,           /* a sweep's row against another (O_SYNC@1 > plain@1), or
	                              one row's time quoted ({O_SYNC@1}) */
};

/* A sweep's rows as a claim names them: each a variant and a BUF_SIZE. */
struct scn_times {
	size_t variant[2];         /* indexes into the sweep's variants */
	uint64_t buf_size[2];
	bool quote;                /* {A@N}: row 0's time shown, nothing compared */
	enum scn_cmp cmp;          /* row 0 against row 1: GT slower, LT faster, EQ alike (their
	                              runs' times overlap), GE not faster, LE not slower */
};

/* One fact a sentence rests on. */
struct scn_claim {
	enum scn_claim_kind kind;
	int key;                   /* QUOTE, CHECK, CITE: an expectation key; else -1 */
	int env;                   /* QUOTE of an environment name, FACT: an scn_fact or scn_env;
	                              else -1 */
	struct scn_expect want;    /* CHECK */
	struct scn_cond cond;      /* FACT (negate: written with !=) */
	struct scn_times times;    /* TIMES */
};

/* A piece of a sentence as written: literal text, or the value of one of its claims. */
struct scn_piece {
	char *text;                /* literal text; NULL: the value of claims[claim] */
	size_t claim;
};

/* What a count written in a sentence counts: the kind of fact whose value it must be. */
enum scn_count_kind { SCN_COUNT_BYTES, SCN_COUNT_PAGES, SCN_COUNT_CALLS, SCN_COUNT_ANY };

/* A number written in a sentence ("9000 bytes", "a dozen calls") that the loader could not
 * tell true or false: the run shows the sentence false unless a fact of its kind that the
 * sentence names has this value here. */
struct scn_count {
	enum scn_count_kind kind;
	int64_t value;             /* in the fact's unit: bytes, pages, calls */
	char text[48];             /* as written, lowercase ("nine thousand bytes") */
};

/* One sentence: its pieces and the facts it rests on. */
struct scn_sentence {
	struct scn_piece *pieces;
	size_t n_pieces;
	struct scn_claim *claims;
	size_t n_claims;
	struct scn_count *counts;  /* numbers the run must find among its facts' values */
	size_t n_counts;
	bool background;           /* marked [background]: not about this run (the book's rule, a
	                              definition); it names no fact and is shown as background */
	int line, col;             /* where it starts in the scenario file */
};

/* One alternative of a part: a sentence or more. */
struct scn_alt {
	struct scn_sentence *sentences;
	size_t n_sentences;
};

/* One part of narration: its alternatives, in the order written (one when it has none). */
struct scn_part {
	struct scn_alt *alts;
	size_t n_alts;
};

/* A say or an intro: its parts. */
struct scn_narration {
	struct scn_part *parts;
	size_t n_parts;
};

/* A case of a step: when its conditions hold, its expectations are checked too and its say
 * (if any) replaces the step's. */
struct scn_case {
	struct scn_cond *conds;
	size_t n_conds;
	char *say;
	struct scn_narration narr;     /* say, in sentences and facts */
	struct scn_expect *expects;
	size_t n_expects;
	int line, col;
};

/* One step: an op, its arguments, narration and expectations. */
struct scn_step {
	enum scn_op op;
	struct scn_args args;
	struct scn_sweep *sweep;   /* only for SCN_OP_SWEEP */
	char *say;                 /* narration shown after the step, as written; may be NULL */
	struct scn_narration narr; /* say (or a note's text), in sentences and facts */
	char *ask;                 /* the quiz question for this step; NULL: the key's own */
	struct scn_expect *expects;
	size_t n_expects;
	struct scn_case *cases;    /* cases: narration and expectations that depend on the run */
	size_t n_cases;
	int line, col;             /* where the step starts */
	char *name;                /* as: or on: (a named fd/FILE* pair); NULL: the unnamed one */
	unsigned handle;           /* 0: the unnamed fd/FILE*; n: the n-th name (SCN_MAX_NAMES) */
	bool made;                 /* as: the step made the named pair (else on: acts on it) */
};

/* Names a scenario may give its descriptors and streams (as: a). */
#define SCN_MAX_NAMES 8

/* Content of the prefilled scratch file. */
enum scn_fill { SCN_FILL_LINES, SCN_FILL_ZERO };

/* The scratch file a scenario starts with. */
struct scn_file {
	uint64_t size;             /* prefill size; 0 = empty, created by the first open */
	enum scn_fs on;
	enum scn_fill fill;
};

/* A whole scenario. */
struct scenario {
	char *path;                /* the file it was loaded from */
	char *title;
	char *source;
	char *intro;
	struct scn_narration intro_narr; /* intro, in sentences and facts of the environment */
	struct scn_file file;
	struct scn_step *steps;
	size_t n_steps;
};

/* Largest size a scenario may ask for (iobufviz(1), BOUNDS). */
#define SCN_MAX_SIZE ((uint64_t)1 << 30)

/*
 * A whole run's bounds (iobufviz(1), BOUNDS), checked by the loader where the scenario's
 * own numbers say (load/bounds.c) and enforced by the run (--timeout): its steps, the
 * seconds it may take (--timeout's default and maximum), and the bytes it keeps at once on
 * disk in one directory and in tmpfs, which is RAM.
 */
#define SCN_MAX_STEPS 1000
#define SCN_MAX_RUN_SECONDS 3600
#define SCN_MAX_DISK ((uint64_t)2 << 30)
#define SCN_MAX_RAM ((uint64_t)1 << 30)

/*
 * What the tail op keeps, whatever the file (engine/tail.c), checked by the loader against
 * a step's lines: and block: (load/bounds.c): at most TAIL_LINES_MAX lines, each cut to its
 * first TAIL_LINE_MAX bytes, and one block of at most TAIL_BLOCK_MAX bytes. Its memory is
 * bounded by these (about 2 MiB), not by the file: a 1 GiB file of one line costs no more.
 */
#define TAIL_LINES_MAX 1000
#define TAIL_LINE_MAX 1024
#define TAIL_BLOCK_MAX (1024 * 1024)

/* How standard input is named when the scenario is "-" (load_scenario). */
#define SCN_STDIN_NAME "<stdin>"

/*
 * Load and validate PATH ("-": standard input, named SCN_STDIN_NAME). On success return 0 and set *out. On failure return -1 and
 * write one "PATH:LINE:COL: message" line per error to ERR (a heap string the caller
 * frees; may be NULL if out of memory).
 */
int load_scenario(const char *path, struct scenario **out, char **err);

/* The same, for the len bytes of text (a scenario held in memory, a fuzzer's input), named
 * name in messages. */
int load_scenario_text(const char *name, const char *text, size_t len, struct scenario **out,
                       char **err);

/* Seconds the steps of S may take by their own numbers (its waits' seconds or timeouts, its
 * sweeps' budgets per row times their rows); 0 when no step waits or times. (load/bounds.c) */
double load_seconds_at_most(const struct scenario *s);

/* Free a scenario from load_scenario(). NULL is fine. */
void load_scenario_free(struct scenario *s);

/* Name of an op as written in YAML ("fwrite"). */
const char *scenario_op_name(enum scn_op op);

/* The op named NAME in YAML, or -1. */
int scenario_op_find(const char *name);

/* The expectation key named NAME in YAML, or -1. */
int scenario_key_find(const char *name);

/* Name of an expectation key as written in YAML ("stdio.pending"). */
const char *scenario_key_name(enum scn_key key);

/* What key counts, as a number written in narration must match it (struct scn_count): bytes,
 * pages, calls, SCN_COUNT_ANY for another number; -1 for a key whose value is no number. */
int scenario_key_counts(int key);

/* Symbol of a comparison ("=", "!=", "<", "<=", ">", ">="). */
const char *scenario_cmp_name(enum scn_cmp cmp);

/* Does got CMP want hold? */
bool scenario_cmp_holds(enum scn_cmp cmp, int64_t got, int64_t want);

/* True if op acts through the FILE* (its syscalls are made by stdio). */
bool scenario_op_is_stdio(enum scn_op op);

/* True if op's entry has any of the SCN_OPF_* bits in flags (false for no op). */
bool scenario_op_has(enum scn_op op, unsigned flags);

/*
 * O_DIRECT's rule, the one place it is written: which of a transfer's bytes, offset and buffer
 * skew (SCN_HAS_* bits) are not multiples of these alignments (0: it keeps the rule). The
 * loader asks with the least alignment any disk has, the run with the file's own (statx).
 */
unsigned scenario_dio_misfit(const struct scn_args *a, unsigned offset_align, unsigned mem_align);

/*
 * True if the traced worker takes part in op: it runs it, or (wait) looks at its stdio again
 * after it; then the op's time includes ptrace stops when the run is traced.
 */
bool scenario_op_in_worker(enum scn_op op);

/* True if key may be expected of a step doing op (output keys: only pty/tail). */
bool scenario_key_applies(enum scn_key key, enum scn_op op);

/*
 * Run step st's command line, whole, as a shell would read it: each word as it is when no
 * shell would read it otherwise, else in single quotes; " < FILE" for its stdin. Not escaped:
 * for a writer that escapes it (export/ctext.c's comments). Free it; NULL if out of memory.
 */
char *scenario_run_command(const struct scn_step *st);

/* True if step st runs a program (the run op). */
bool scenario_step_runs(const struct scn_step *st);

#endif
