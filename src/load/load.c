/* SPDX-License-Identifier: MIT */
/* load.c: load a scenario: read it, check its shape, map it with libcyaml, convert it; free.
 *
 * The YAML is parsed twice, on purpose. Every error the loader reports is FILE:LINE:COL, and
 * most are found after the mapping (a size that is not one, an unknown name, a rule between
 * steps). libcyaml (1.3: cyaml_load_data, cyaml_load_file) gives back structs without a
 * position in them, tells where only in the text of its own errors, and takes bytes, not a
 * libyaml parser or its events. So libyaml reads the document once into a tree whose every
 * node keeps its line and column (yamlpos.c: no schema, no conversion), the shape check
 * runs on that tree, and libcyaml maps the same bytes to structs of text (raw.c: the schema,
 * one call) that the loader converts with the tree's positions at hand. The text is emitted
 * again from the tree only after shape errors: without what they were about, so that the
 * checks after the mapping still report theirs in the same run (--check shows them all). */
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/load-int.h"

/* A scenario is a small text file; anything bigger is a mistake (and is not read whole). */
#define SCN_MAX_FILE (1024 * 1024)

/* Where KEY of mapping N was written (NULL if absent). */
#define AT(n, key) yamlpos_get(ld->ix, (n), (key))

/*
 * "-": standard input, whatever it is (a pipe, a terminal), read to its end but never past
 * SCN_MAX_FILE bytes: one byte more says it is too big, and the rest is left unread.
 */
static char *
load_read_stdin(struct scn_load *ld, size_t *len)
{
	char *buf = malloc(SCN_MAX_FILE + 2);
	size_t got = 0;

	if (buf == NULL) {
		ld->oom = true;
		return NULL;
	}
	while (got <= SCN_MAX_FILE) {
		ssize_t n = read(STDIN_FILENO, buf + got, SCN_MAX_FILE + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			load_report_error(ld, 1, 1, "cannot read: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > SCN_MAX_FILE) {
		load_report_error(ld, 1, 1, "too large for a scenario (more than 1 MiB; the "
				      "limit is 1 MiB)");
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Read a whole regular file of at most SCN_MAX_FILE bytes ("-": standard input). Report and
 * return NULL on failure. */
static char *
load_read_file(struct scn_load *ld, const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd;

	if (strcmp(path, "-") == 0)
		return load_read_stdin(ld, len);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		load_report_error(ld, 1, 1, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		load_report_error(ld, 1, 1, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		load_report_error(ld, 1, 1, "is a directory, not a scenario file");
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		load_report_error(ld, 1, 1, "not a regular file");
		close(fd);
		return NULL;
	}
	if (st.st_size > SCN_MAX_FILE) {
		load_report_error(ld, 1, 1, "too large for a scenario (%jd bytes; the limit is 1 MiB)",
			 (intmax_t)st.st_size);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		ld->oom = true;
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			load_report_error(ld, 1, 1, "cannot read: %s", strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Convert RAW (libcyaml's) into S, reporting every mistake at its place in the tree ROOT. */
static void
load_convert(struct scn_load *ld, struct scenario *s, const struct scn_raw_scenario *raw,
		 const struct yamlpos_node *root)
{
	static const struct scn_raw_file no_file;
	const struct scn_raw_file *rf = raw->file != NULL ? raw->file : &no_file;
	const struct yamlpos_node *n, *fn;
	int v;

	n = AT(root, "title");
	if (n == NULL || raw->title == NULL || *raw->title == '\0' || load_value_is_null(n))
		load_at(ld, n ? n : root, "the scenario needs a title (title: \"...\")");
	s->title = load_value_strdup(ld, raw->title);
	s->source = load_value_strdup(ld, raw->source);
	s->intro = load_narr_text(ld, AT(root, "intro"));
	load_narr_parse(ld, &s->intro_narr, AT(root, "intro"), NULL, "the intro");
	fn = AT(root, "file");
	if (rf->size != NULL)
		load_value_size(ld, AT(fn, "size"), rf->size, "file size", SZ_ZERO_OK | SZ_BOUNDED,
				    &s->file.size);
	if (rf->on != NULL &&
	    load_value_name(ld, AT(fn, "on"), rf->on, scn_fss, "filesystem", &v) == 0)
		s->file.on = (enum scn_fs)v;
	if (rf->fill != NULL &&
	    load_value_name(ld, AT(fn, "fill"), rf->fill, scn_fills, "fill", &v) == 0)
		s->file.fill = (enum scn_fill)v;
	ld->tmpfs = s->file.on == SCN_FS_TMPFS;

	n = AT(root, "steps");
	if (n == NULL) {
		load_at(ld, root, "the scenario needs steps (steps: followed by a list of ops)");
		return;
	}
	if (n->kind != YAMLPOS_SEQ || n->n_children == 0) {
		load_at(ld, n, "steps is empty: a scenario needs at least one step");
		return;
	}
	/* Steps in step with the tree, for positions: both come from the same document, and the
	 * shape check refused any step that is not a mapping, so libcyaml skipped none. */
	assert(raw->steps_count == n->n_children);
	s->steps = calloc(n->n_children, sizeof *s->steps);
	if (s->steps == NULL) {
		ld->oom = true;
		return;
	}
	s->n_steps = n->n_children;
	/* A step with errors (said, or left unsaid as consequences) is left out of the bounds. */
	ld->step_bad = calloc(n->n_children, sizeof *ld->step_bad);
	if (ld->step_bad == NULL) {
		ld->oom = true;
		return;
	}
	const struct yamlpos_node *c = yamlpos_first(ld->ix, n);
	for (size_t i = 0; c != NULL; i++, c = yamlpos_next(ld->ix, c)) {
		int before = ld->n_err + ld->n_quiet;
		load_step_parse(ld, &s->steps[i], &raw->steps[i], c, i + 1);
		ld->step_bad[i] = ld->n_err + ld->n_quiet != before;
	}
	for (size_t i = 0; i < ld->n_names; i++) /* names matter only while steps are read */
		free(ld->names[i]);
	ld->n_names = 0;
}

/*
 * Check and convert the len bytes of buf (NUL-terminated; freed here) as a scenario named
 * ld->path into *out. 0, or -1 with the errors in ld.
 */
static int
load_parse(struct scn_load *ld, char *buf, size_t len, struct scenario **out)
{
	struct scn_raw_scenario *raw = NULL;
	struct scenario *s = NULL;
	struct yamlpos *ix = NULL;
	char msg[512];
	int line, col;

	if (yamlpos_build(buf, len, &ix, &line, &col, msg, sizeof msg) != 0) {
		load_report_error(ld, line, col, "%s", msg);
		goto fail;
	}
	ld->ix = ix;
	ld->src = buf;
	const struct yamlpos_node *root = yamlpos_node(ix, 0);
	if (root == NULL || (root->kind == YAMLPOS_SCALAR && root->is_null)) {
		load_report_error(ld, 1, 1, "empty scenario: it needs a title and steps");
		goto fail;
	}
	if (root->kind != YAMLPOS_MAP) {
		load_at(ld, root, "a scenario is a mapping (title: ..., steps: ...), not %s",
		        root->kind == YAMLPOS_SEQ ? "a list" : "a single value");
		goto fail;
	}
	if ((ld->marks = calloc(ix->n, 1)) == NULL) {
		ld->oom = true;
		goto fail;
	}
	/* Keys and kinds first, all of them, on the tree: every shape error with its position.
	 * Then libcyaml maps the same bytes to raw structs; it sees only well-shaped input: the
	 * document itself, or, after shape errors, the tree without what they were about, so
	 * that the checks below report their errors in the same run (--check shows them all). */
	ld->shaping = true;
	int shape = load_schema_check(ld, root);
	ld->shaping = false;
	if (load_bounds_steps(ld, root) != 0)
		goto fail;
	if (shape != 0) {
		load_report_prune(ld, ix, yamlpos_get(ix, root, "steps"));
		/* The text re-emitted from the pruned tree is not the file's: a sentence's place
		 * is then its node's (load/narr.c). */
		ld->src = ld->src_cur = NULL;
		free(buf);
		if (yamlpos_emit(ix, &buf, &len) != 0) {
			buf = NULL;
			goto fail;
		}
	}
	if (load_raw_load(ld, buf, len, shape == 0, &raw) != 0)
		goto fail;
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		ld->oom = true;
		goto fail;
	}
	s->path = load_value_strdup(ld, ld->path);
	load_convert(ld, s, raw, root);
	load_bounds_check(ld, s, root);
	if (ld->n_err > 0 || ld->oom)
		goto fail;
	load_raw_free(raw);
	yamlpos_free(ix);
	free(ld->marks);
	free(ld->step_bad);
	free(buf);
	*out = s;
	return 0;

fail:
	free(ld->marks);
	free(ld->step_bad);
	ld->marks = NULL;
	ld->step_bad = NULL;
	load_scenario_free(s);
	load_raw_free(raw);
	yamlpos_free(ix);
	free(buf);
	return -1;
}

/* Hand ld's errors to the caller (*err, or freed): in the order they are written, the first
 * SCN_MAX_ERRORS of them; NULL when out of memory with nothing else to say. */
static int
load_fail(struct scn_load *ld, char **err)
{
	load_report_finish(ld);
	if (err != NULL)
		*err = ld->err;
	else
		free(ld->err);
	return -1;
}

/* Load and validate a scenario. */
int
load_scenario(const char *path, struct scenario **out, char **err)
{
	/* "-" is standard input: messages and transcripts name it <stdin>. */
	struct scn_load ld = { .path = path == NULL ? "(null)" :
			       strcmp(path, "-") == 0 ? SCN_STDIN_NAME : path };
	char *buf;
	size_t len = 0;

	if (out != NULL)
		*out = NULL;
	if (err != NULL)
		*err = NULL;
	if (path == NULL || out == NULL) {
		load_report_error(&ld, 1, 1, "no scenario file given");
		return load_fail(&ld, err);
	}
	buf = load_read_file(&ld, path, &len);
	if (buf == NULL || load_parse(&ld, buf, len, out) != 0)
		return load_fail(&ld, err);
	return 0;
}

/* Load and validate a scenario given as text. */
int
load_scenario_text(const char *name, const char *text, size_t len, struct scenario **out,
                   char **err)
{
	struct scn_load ld = { .path = name != NULL ? name : "(null)" };
	char *buf;

	*out = NULL;
	if (err != NULL)
		*err = NULL;
	if (len > SCN_MAX_FILE) {
		load_report_error(&ld, 1, 1, "too large for a scenario (%zu bytes; the limit is "
		                      "1 MiB)", len);
		return load_fail(&ld, err);
	}
	buf = malloc(len + 1);
	if (buf == NULL) {
		ld.oom = true;
		return load_fail(&ld, err);
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (load_parse(&ld, buf, len, out) != 0)
		return load_fail(&ld, err);
	return 0;
}

/* Free one step's owned data. */
static void
load_step_free(struct scn_step *st)
{
	free(st->args.text);
	free(st->args.text2);
	free(st->args.program);
	free(st->args.stdin_path);
	free(st->args.file);
	free(st->args.to);
	for (size_t k = 0; k < st->args.n_argv; k++)
		free(st->args.argv[k]);
	free(st->args.argv);
	free(st->say);
	load_narr_free(&st->narr);
	free(st->ask);
	free(st->name);
	load_value_expects_free(st->expects, st->n_expects);
	for (size_t i = 0; i < st->n_cases; i++)
		load_narr_free(&st->cases[i].narr);
	load_cond_free(st);
	load_sweep_free(st->sweep);
}

/* Free a scenario. */
void
load_scenario_free(struct scenario *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n_steps; i++)
		load_step_free(&s->steps[i]);
	free(s->steps);
	free(s->path);
	free(s->title);
	free(s->source);
	free(s->intro);
	load_narr_free(&s->intro_narr);
	free(s);
}
