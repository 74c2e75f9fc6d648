/* SPDX-License-Identifier: MIT */
/* tui/cast.c: asciicast v2 writer: a JSON header line, then one [time, "o", text] line per frame. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "tui/cast.h"

struct cast {
	FILE *f;
	struct json j;         /* one JSON document a line: the header, then each event */
	struct timespec t0;
	char *last;            /* last frame written, to skip identical ones */
	int w, h;
	bool failed;
	char *title;           /* the header waits for the first frame's size: its title */
};

/* Write the header line: a w x h terminal, title. */
static void
cast_header(struct cast *c, int w, int h, const char *title)
{
	c->w = w;
	c->h = h;
	json_begin_object(&c->j, NULL);
	json_int(&c->j, "version", 2);
	json_int(&c->j, "width", w);
	json_int(&c->j, "height", h);
	json_int(&c->j, "timestamp", (int64_t)time(NULL));
	json_string(&c->j, "title", title != NULL ? title : "iobufviz");
	json_begin_object(&c->j, "env");
	json_string(&c->j, "TERM", "xterm-256color");
	json_end_object(&c->j);
	json_end_object(&c->j);
	json_break(&c->j);
}

/* Write one event line: [time, "code", "data"]. */
static void
cast_event(struct cast *c, double t, const char *code, const char *data)
{
	json_begin_array(&c->j, NULL);
	json_fixed(&c->j, NULL, t, 6);
	json_string(&c->j, NULL, code);
	json_string(&c->j, NULL, data);
	json_end_array(&c->j);
	json_break(&c->j);
}

/* Open a recording. */
struct cast *
cast_open(const char *path, int w, int h, const char *title)
{
	struct cast *c = calloc(1, sizeof *c);
	int fd;

	if (c == NULL)
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || (c->f = fdopen(fd, "w")) == NULL) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		free(c);
		errno = e;
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	json_init(&c->j, c->f, JSON_SPACED);
	/* No size yet (the file is made before the screen is taken): the first frame's. */
	if (w <= 0 || h <= 0)
		c->title = strdup(title != NULL ? title : "iobufviz");
	else
		cast_header(c, w, h, title);
	return c;
}

/* Record a frame. */
int
cast_frame(struct cast *c, const struct grid *g, bool color)
{
	struct timespec now;
	double t;
	char *text;

	if (c == NULL)
		return 0;
	if (c->title != NULL) {
		cast_header(c, g->w, g->h, c->title);
		free(c->title);
		c->title = NULL;
	}
	text = grid_ansi(g, color);
	if (text == NULL)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (double)(now.tv_sec - c->t0.tv_sec) + (double)(now.tv_nsec - c->t0.tv_nsec) / 1e9;
	if (g->w != c->w || g->h != c->h) {
		char size[32];
		snprintf(size, sizeof size, "%dx%d", g->w, g->h);
		cast_event(c, t, "r", size);
		c->w = g->w;
		c->h = g->h;
		free(c->last);
		c->last = NULL;
	}
	if (c->last != NULL && strcmp(c->last, text) == 0) {
		free(text);
		return 0;
	}
	/* A full repaint per frame, after clearing the screen on the first one: simple, and
	 * exactly what was on the screen. */
	{
		const char *pre = c->last == NULL ? "\033[2J" : "";
		size_t n = strlen(pre) + strlen(text) + 1;
		char *data = malloc(n);
		if (data == NULL) {
			free(text);
			c->failed = true;
			return -1;
		}
		snprintf(data, n, "%s%s", pre, text);
		cast_event(c, t, "o", data);
		free(data);
	}
	fflush(c->f);
	if (ferror(c->f))
		c->failed = true;
	free(c->last);
	c->last = text;
	return 0;
}

/* A marker, as the frames' events are written. */
int
cast_marker(struct cast *c, const char *label)
{
	struct timespec now;

	if (c == NULL || c->title != NULL)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	cast_event(c, (double)(now.tv_sec - c->t0.tv_sec) + (double)(now.tv_nsec - c->t0.tv_nsec) /
	           1e9, "m", label);
	fflush(c->f);
	if (ferror(c->f))
		c->failed = true;
	return c->failed ? -1 : 0;
}

/* Close the recording. */
int
cast_close(struct cast *c)
{
	int rc;

	if (c == NULL)
		return 0;
	rc = c->failed || json_finish(&c->j) != 0 ? -1 : 0;
	if (fclose(c->f) != 0)
		rc = -1;
	free(c->last);
	free(c->title);
	free(c);
	return rc;
}
