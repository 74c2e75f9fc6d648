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

#include "tui/cast.h"

struct cast {
	FILE *f;
	struct timespec t0;
	char *last;            /* last frame written, to skip identical ones */
	int w, h;
	bool failed;
	char *title;           /* the header waits for the first frame's size: its title */
};

static void cast_put_string(FILE *f, const char *s);

/* Write the header line: a w x h terminal, title. */
static void
cast_header(struct cast *c, int w, int h, const char *title)
{
	c->w = w;
	c->h = h;
	fprintf(c->f, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, "
	        "\"title\": ", w, h, (long long)time(NULL));
	cast_put_string(c->f, title != NULL ? title : "iobufviz");
	fputs(", \"env\": {\"TERM\": \"xterm-256color\"}}\n", c->f);
}

/* JSON-escape s into buf. */
size_t
cast_json_string(const char *s, char *buf, size_t len)
{
	size_t n = 0;

#define CAST_PUT(ch) do { if (n + 1 < len) buf[n] = (ch); n++; } while (0)
	CAST_PUT('"');
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			CAST_PUT('\\');
			CAST_PUT((char)*p);
		} else if (*p < 0x20 || *p == 0x7f) {
			char e[8];
			snprintf(e, sizeof e, "\\u%04x", *p);
			for (char *q = e; *q != '\0'; q++)
				CAST_PUT(*q);
		} else {
			CAST_PUT((char)*p);
		}
	}
	CAST_PUT('"');
#undef CAST_PUT
	if (len > 0)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

/* Write a JSON string to f. */
static void
cast_put_string(FILE *f, const char *s)
{
	size_t need = cast_json_string(s, NULL, 0) + 1;
	char *buf = malloc(need);

	if (buf == NULL)
		return;
	cast_json_string(s, buf, need);
	fputs(buf, f);
	free(buf);
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
		fprintf(c->f, "[%.6f, \"r\", \"%dx%d\"]\n", t, g->w, g->h);
		c->w = g->w;
		c->h = g->h;
		free(c->last);
		c->last = NULL;
	}
	if (c->last != NULL && strcmp(c->last, text) == 0) {
		free(text);
		return 0;
	}
	fprintf(c->f, "[%.6f, \"o\", ", t);
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
		cast_put_string(c->f, data);
		free(data);
	}
	fputs("]\n", c->f);
	fflush(c->f);
	if (ferror(c->f))
		c->failed = true;
	free(c->last);
	c->last = text;
	return 0;
}

/* Close the recording. */
int
cast_close(struct cast *c)
{
	int rc;

	if (c == NULL)
		return 0;
	rc = c->failed || ferror(c->f) ? -1 : 0;
	if (fclose(c->f) != 0)
		rc = -1;
	free(c->last);
	free(c->title);
	free(c);
	return rc;
}
