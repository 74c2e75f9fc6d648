/* SPDX-License-Identifier: MIT */
/* crash/hazard.c: the durability hazards a traced program's calls show (see crash/hazard.h). */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "crash/hazard.h"
#include "trace/calls.h"

/* One file, as the calls so far left it. */
struct crash_hazard_file {
	long id;
	bool created;              /* opened with O_CREAT (new, unless it was there) */
	bool written;              /* written since its last sync */
	bool synced;               /* fsynced, or written through O_SYNC/O_DSYNC */
	bool renamed;              /* its rename hazard was noted */
	char path[PATH_MAX];
};

/* The entry of file id, added if new; NULL out of memory. */
static struct crash_hazard_file *
crash_hazards_file(struct crash_hazards *h, long id, const char *path)
{
	struct crash_hazard_file *f;

	for (size_t i = 0; i < h->n_files; i++)
		if (h->files[i].id == id)
			return &h->files[i];
	if ((f = grow(h->files, &h->cap_files, h->n_files, sizeof *f, 8)) == NULL)
		return NULL;
	h->files = f;
	f = &h->files[h->n_files++];
	memset(f, 0, sizeof *f);
	f->id = id;
	snprintf(f->path, sizeof f->path, "%s", path != NULL ? path : "?");
	return f;
}

/* A hazard of kind, shown by lesson, about path; its text from fmt. */
static void __attribute__((format(printf, 5, 6)))
crash_hazards_add(struct crash_hazards *h, const char *kind, const char *lesson,
                  const char *path, const char *fmt, ...)
{
	struct crash_hazard *z;
	va_list ap;

	if (h->n >= CRASH_HAZARD_MAX)
		return;
	z = &h->v[h->n];
	z->kind = kind;
	z->lesson = lesson;
	va_start(ap, fmt);
	if (vasprintf(&z->text, fmt, ap) < 0)
		z->text = NULL;
	va_end(ap);
	z->file = strdup(path);
	if (z->text == NULL || z->file == NULL) {
		/* Out of memory: the note is left out, not half kept. */
		free(z->text);
		free(z->file);
		memset(z, 0, sizeof *z);
		return;
	}
	h->n++;
}

/* Feed one call (see crash/hazard.h). */
void
crash_hazards_call(struct crash_hazards *h, const struct event *ev, long file, const char *path,
                   bool waits)
{
	const struct call_row *c = calls_named(ev->call);
	unsigned f = c != NULL ? c->flags : 0;
	struct crash_hazard_file *x;

	if (ev->result < 0)
		return;
	if (f & CALL_ALL_FILES) {
		/* sync(): every file, every directory. */
		for (size_t i = 0; i < h->n_files; i++) {
			h->files[i].written = false;
			h->files[i].synced = true;
		}
		h->dir_synced = true;
		return;
	}
	if (file < 0) {
		/* An fsync on what is not a regular file: a directory. */
		if ((f & CALL_SYNC) && (f & CALL_FD))
			h->dir_synced = true;
		return;
	}
	if ((x = crash_hazards_file(h, file, path)) == NULL)
		return;
	if ((f & CALL_NEWFD) && (f & CALL_PATH) && strstr(ev->detail, "O_CREAT") != NULL)
		x->created = true;
	if (f & (CALL_WRITE | CALL_WRITE2 | CALL_RESIZE)) {
		x->written = !waits;
		x->synced = x->synced || waits;
	}
	if ((f & CALL_SYNC) && (f & CALL_FD)) {
		x->written = false;
		x->synced = true;
	}
	if ((f & CALL_NAMES) && x->written && !x->renamed) {
		x->renamed = true;
		crash_hazards_add(h, "rename-unsynced", "crash-rename", path, "rename() gave %s a new "
		                  "name while its new data had never been fsynced: once the rename "
		                  "is committed (a journal's timer, within seconds) and before that "
		                  "data is written back, a power cut leaves the name holding an "
		                  "empty file on xfs and btrfs. fsync() it before the rename: the "
		                  "lesson crash-rename shows both.", path);
	}
	if (f & CALL_NAMES)
		snprintf(x->path, sizeof x->path, "%s", path);
}

/* Feed a crash view (see crash/hazard.h). */
void
crash_hazards_view(struct crash_hazards *h, const struct crash_view *v, long file,
                   const char *where)
{
	struct crash_hazard_kept now = { v != NULL && v->power.file.exists,
	                                 v != NULL ? v->power.file.size : 0, "" };
	struct crash_hazard_cut *c = NULL;

	if (v == NULL || !v->power.observed || !v->process.observed)
		return;
	snprintf(now.where, sizeof now.where, "%s", where);
	for (size_t i = 0; i < h->n_cuts && c == NULL; i++)
		if (h->cuts[i].id == file)
			c = &h->cuts[i];
	if (c == NULL) {
		if (h->n_cuts >= CRASH_HAZARD_MAX)
			return;
		c = &h->cuts[h->n_cuts++];
		memset(c, 0, sizeof *c);
		c->id = file;
	} else if ((c->last.exists != now.exists || c->last.size != now.size) &&
	           c->n_changes < CRASH_HAZARD_CHANGES) {
		c->change[c->n_changes] = now;
		c->prior[c->n_changes++] = c->last;
	}
	if (c->file[0] != '\0' && strcmp(c->file, v->file) != 0)
		c->renamed = true;
	snprintf(c->file, sizeof c->file, "%s", v->file);
	c->last = now;
	c->killed = v->process.file.exists;
	c->killed_size = v->process.file.size;
}

/* What a crash kept of a file, as words, into buf. */
static const char *
crash_hazards_words(bool exists, uint64_t size, char *buf, size_t len)
{
	if (!exists)
		snprintf(buf, len, "nothing (no file)");
	else if (size == 0)
		snprintf(buf, len, "an empty file");
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)size);
	return buf;
}

/*
 * At the end: where each file's power cut came to keep other than after the step before
 * ("after line 19 (fsync) a power cut keeps 5000 bytes; after line 18 (fflush) nothing");
 * and when a kill -9 after the last step keeps more than a power cut, what of it was not on
 * the disk yet and the lesson that shows it.
 */
static void
crash_hazards_cuts(struct crash_hazards *h)
{
	char now[48], then[48], killed[48], said[400];

	for (size_t i = 0; i < h->n_cuts; i++) {
		const struct crash_hazard_cut *c = &h->cuts[i];
		bool short_of = c->killed && (!c->last.exists || c->last.size < c->killed_size);
		const char *lesson = !short_of || c->last.exists ? "crash-13-3" :
		                     c->renamed ? "crash-rename" : "crash-new-file";
		size_t n = 0;

		said[0] = '\0';
		for (size_t k = 0; k < c->n_changes && n < sizeof said; k++)
			n += (size_t)snprintf(said + n, sizeof said - n, "%safter %s a power cut keeps "
			                      "%s; after %s %s", k > 0 ? "; then " : "",
			                      c->change[k].where, crash_hazards_words(c->change[k].exists,
			                      c->change[k].size, now, sizeof now), c->prior[k].where,
			                      crash_hazards_words(c->prior[k].exists, c->prior[k].size,
			                      then, sizeof then));
		if (c->n_changes == 0)
			snprintf(said, sizeof said, "after every step a power cut keeps %s",
			         crash_hazards_words(c->last.exists, c->last.size, now, sizeof now));
		crash_hazards_words(c->killed, c->killed_size, killed, sizeof killed);
		if (!short_of && c->n_changes > 0)
			crash_hazards_add(h, "power-cut", lesson, c->file, "%s: %s (the crash lab's "
			                  "views).", c->file, said);
		else if (short_of)
			crash_hazards_add(h, "power-cut", lesson, c->file, "%s: %s; but a kill -9 "
			                  "after %s keeps %s: %s; the lesson %s shows it.", c->file, said,
			                  c->last.where, killed, c->last.exists ? "the rest was not on "
			                  "the disk yet: fsync() it" : c->renamed ? "its new name was not "
			                  "on the disk yet: fsync() its directory after the rename" :
			                  "its name was not on the disk yet: fsync() it (and its "
			                  "directory)", lesson);
	}
}

/* At the end: new files fsynced while no directory was (see crash/hazard.h). */
size_t
crash_hazards_end(struct crash_hazards *h)
{
	for (size_t i = 0; i < h->n_files && !h->dir_synced; i++)
		if (h->files[i].created && h->files[i].synced)
			crash_hazards_add(h, "directory-unsynced", "crash-new-file", h->files[i].path,
			                  "%s was opened with O_CREAT (a new file, unless it was there) "
			                  "and made durable, but no directory was fsynced: POSIX does not "
			                  "promise its name survives a power cut without an fsync() of "
			                  "its directory (ext4, xfs and btrfs keep it). The lesson "
			                  "crash-new-file shows both.", h->files[i].path);
	crash_hazards_cuts(h);
	return h->n;
}

/* Free what h holds. */
void
crash_hazards_free(struct crash_hazards *h)
{
	free(h->files);
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].file);
		free(h->v[i].text);
	}
	memset(h, 0, sizeof *h);
}
