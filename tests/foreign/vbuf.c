/* SPDX-License-Identifier: MIT */
/* vbuf.c: setvbuf as a student calls it, for tests/prog-setvbuf.sh: "vbuf DIR" opens four
 * files in DIR and gives each a setvbuf: a.txt (NULL, _IOLBF, 0), b.txt (NULL, _IOLBF, 8192),
 * c.txt (NULL, _IOFBF, 8192), d.txt (its own buffer, _IOFBF, 1000); then writes a line to
 * each and closes them. It prints, at the end (no call in between), the buffer size glibc's
 * own __fbufsize gave right after each setvbuf: "sizes A B C D" (0: none yet). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int mode;
		size_t size;
		int own;
	} v[] = {
		{ "a.txt", _IOLBF, 0, 0 }, { "b.txt", _IOLBF, 8192, 0 },
		{ "c.txt", _IOFBF, 8192, 0 }, { "d.txt", _IOFBF, 1000, 1 },
	};
	static char own[1000];
	size_t got[4];
	FILE *f[4];
	char path[4096];

	if (argc != 2)
		return 2;
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/%s", argv[1], v[i].name);
		if ((f[i] = fopen(path, "w")) == NULL ||
		    setvbuf(f[i], v[i].own ? own : NULL, v[i].mode, v[i].size) != 0)
			return 2;
		got[i] = __fbufsize(f[i]);
	}
	for (int i = 0; i < 4; i++)
		if (fputs("a line\n", f[i]) == EOF || fclose(f[i]) != 0)
			return 2;
	printf("sizes %zu %zu %zu %zu\n", got[0], got[1], got[2], got[3]);
	return 0;
}
