/* SPDX-License-Identifier: MIT */
/* runs.c: runs of like stdio calls, which the shim logs as one entry each (shim/protocol.h,
 * prog_mark_tls.run): a helper's fwrite of a 30-byte record called from two lines of main in
 * an irregular order (as sort's write_line is), then fputc of one character, then fputs of one
 * literal. After each call it keeps its own __fpending and which line called the helper; at
 * the end it writes them to REPORT, one line per call: "FUNC PENDING CALLER_LINE" (0: main
 * called it), with one write() (no stdio call of its own). Built with -g
 * (tests/own-prog-runs.sh).
 *
 * runs OUT REPORT N [BUF [EVERY]]: BUF, a buffer of that many bytes (setvbuf; 0: stdio's own);
 * EVERY, a write() of nothing to /dev/null after every EVERY calls (a stop of the tracer,
 * which no step is: it takes a run in parts). */
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <unistd.h>

static const char rec_text[31] = "abcdefghijklmnopqrstuvwxyz0123\n";

static volatile long recs;

/* Not inlined, and its fwrite no tail call: a helper's call, as in sort's write_line. */
static void __attribute__((noinline))
rec(FILE *f)
{
	fwrite(rec_text, 1, 30, f); /* LINE:rec */
	recs++;
}

int
main(int argc, char **argv)
{
	FILE *f;
	char *buf;
	size_t len = 0;
	int fd, ok;
	long n = argc >= 4 ? atol(argv[3]) : 0, k = 0;
	long bufsz = argc >= 5 ? atol(argv[4]) : 0, every = argc >= 6 ? atol(argv[5]) : 0;
	int null = open("/dev/null", O_WRONLY);
	struct { char func; size_t pend; int line; } *log;
	unsigned x = 12345;

	if (n <= 0 || null < 0 || (f = fopen(argv[1], "w")) == NULL)
		return 2;
	if (bufsz > 0 && setvbuf(f, NULL, _IOFBF, (size_t)bufsz) != 0)
		return 2;
	if ((log = calloc((size_t)(3 * n), sizeof *log)) == NULL)
		return 2;
	for (long i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		if ((x >> 16) & 1) {
			rec(f); /* LINE:a */
			log[k].line = __LINE__ - 1;
		} else {
			rec(f); /* LINE:b */
			log[k].line = __LINE__ - 1;
		}
		log[k].func = 'w';
		log[k++].pend = __fpending(f);
		if (every > 0 && k % every == 0 && write(null, "", 0) != 0)
			return 4;
	}
	for (long i = 0; i < n; i++) {
		fputc('x', f); /* LINE:c */
		log[k].func = 'c';
		log[k++].pend = __fpending(f);
		if (every > 0 && k % every == 0 && write(null, "", 0) != 0)
			return 4;
	}
	for (long i = 0; i < n; i++) {
		fputs("line of a literal\n", f); /* LINE:s */
		log[k].func = 's';
		log[k++].pend = __fpending(f);
		if (every > 0 && k % every == 0 && write(null, "", 0) != 0)
			return 4;
	}
	if (fclose(f) != 0 || (fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
	    (buf = malloc((size_t)k * 40)) == NULL)
		return 3;
	for (long i = 0; i < k; i++)
		len += (size_t)snprintf(buf + len, 40, "%c %zu %d\n", log[i].func, log[i].pend,
		                        log[i].line);
	ok = write(fd, buf, len) == (ssize_t)len;
	free(buf);
	free(log);
	return close(fd) != 0 || !ok;
}
