/* SPDX-License-Identifier: MIT */
/* pend.c: stdio programs that report their own __fpending after every stdio call on a side
 * channel, for the tracer's view of each stream to be checked against the program's own. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The side channel: a FIFO, so that reporting is no call on a regular file. */
static int side = -1;

/* Report "FD PENDING" (one write: whole, from any thread). */
static void
report_fd(int fd, size_t pending)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%d %zu\n", fd, pending);

	if (write(side, line, (size_t)n) != n)
		_exit(9);
}

/* Report "FD PENDING" of fp after each call on it (fopen, stdio calls, write on its fd). */
static void
report(FILE *fp)
{
	report_fd(fileno(fp), __fpending(fp));
}

/* copy IN OUT: fgetc/fputc, a byte at a time; OUT is not closed (exit flushes it). */
static int
pend_copy(const char *in, const char *out)
{
	FILE *a = fopen(in, "r"), *b = fopen(out, "w");
	int c;

	if (a == NULL || b == NULL)
		return 2;
	report(a);
	report(b);
	while ((c = fgetc(a)) != EOF) {
		report(a);
		fputc(c, b);
		report(b);
	}
	report(a);
	fclose(a);
	return 0;
}

/* mix OUT: fprintf, a write() of the program's own, fprintf again, no fclose. */
static int
pend_mix(const char *out)
{
	FILE *fp = fopen(out, "w");

	if (fp == NULL)
		return 2;
	report(fp);
	fprintf(fp, "first line: %d\n", 1);
	report(fp);
	if (write(fileno(fp), "written directly\n", 17) != 17)
		return 1;
	report(fp);
	fprintf(fp, "second line: %d\n", 2);
	report(fp);
	return 0;
}

/* tail N IN: the last N lines of IN (read with fgets) on stdout, left for exit to flush. */
static int
pend_tail(int n, const char *in)
{
	static char ring[64][256];
	FILE *fp = fopen(in, "r");
	long k = 0;

	if (fp == NULL || n < 1 || n > 64)
		return 2;
	report(fp);
	while (fgets(ring[k % n], sizeof ring[0], fp) != NULL) {
		report(fp);
		k++;
	}
	report(fp);
	fclose(fp);
	for (long i = k > n ? k - n : 0; i < k; i++) {
		fputs(ring[i % n], stdout);
		report(stdout);
	}
	return 0;
}

/* lines N OUT: N lines by fprintf into OUT, closed (many buffers' worth, one after another). */
static int
pend_lines(long n, const char *out)
{
	FILE *fp = fopen(out, "w");

	if (fp == NULL)
		return 2;
	report(fp);
	for (long i = 0; i < n; i++) {
		fprintf(fp, "line %ld\n", i);
		report(fp);
	}
	return fclose(fp) != 0;
}

/* The streams random mode reports on, and their count. */
static FILE *streams[4];
static int nstreams;

/* Report "FD fd:pending:ahead ..." after a call on fd: every stream the random mode uses, as
 * the program sees it (__fpending; the input read ahead, from glibc's FILE). */
static void
report_all(int fd)
{
	char line[256];
	int n = snprintf(line, sizeof line, "%d", fd);

	for (int i = 0; i < nstreams; i++) {
		FILE *f = streams[i];
		long ahead = f->_IO_read_end > f->_IO_read_ptr ? f->_IO_read_end - f->_IO_read_ptr : 0;
		n += snprintf(line + n, sizeof line - (size_t)n, " %d:%zu:%ld", fileno(f),
		              __fpending(f), f->_IO_write_ptr > f->_IO_write_base ? 0 : ahead);
	}
	line[n++] = '\n';
	if (write(side, line, (size_t)n) != n)
		_exit(9);
}

/*
 * random SEED N IN OUT1 OUT2: N stdio calls drawn at random on four streams at once (IN read,
 * OUT1 written, OUT2 line buffered, stdout), each reported with every stream's state; some
 * write()s of the program's own on OUT1's fd between them; OUT1, OUT2 and stdout left for
 * exit to flush.
 */
static int
pend_random(unsigned seed, long n, const char *in, const char *out1, const char *out2)
{
	static char buf[8192];
	FILE *a = fopen(in, "r"), *b, *c;
	char *line = NULL;
	size_t cap = 0;

	srand(seed);
	memset(buf, 'r', sizeof buf);
	if (a == NULL)
		return 2;
	streams[nstreams++] = a;
	streams[nstreams++] = stdout;
	report_all(fileno(a));
	if ((b = fopen(out1, "w")) == NULL)
		return 2;
	streams[nstreams++] = b;
	report_all(fileno(b));
	if ((c = fopen(out2, "w")) == NULL)
		return 2;
	streams[nstreams++] = c;
	report_all(fileno(c));
	setvbuf(c, NULL, _IOLBF, 0);
	report_all(fileno(c));
	for (long i = 0; i < n; i++) {
		FILE *w = rand() % 3 == 0 ? c : rand() % 2 ? b : stdout, *f = a;
		int op = rand() % 13, end = 0;
		switch (op) {
		case 0: end = fgetc(a) == EOF; break;
		case 1: end = fgets(buf, 1 + rand() % 200, a) == NULL; break;
		case 2: end = fread(buf, 1, 1 + (size_t)(rand() % 5000), a) == 0; break;
		case 3: end = getline(&line, &cap, a) < 0; break;
		case 4: f = w; fputc('a' + rand() % 26, w); break;
		case 5: f = w; fputs(rand() % 4 ? "some words\n" : "no newline", w); break;
		case 6: f = w; fwrite(buf, 1, 1 + (size_t)(rand() % 6000), w); break;
		case 7: f = w; fprintf(w, "%ld: %d\n", i, rand()); break;
		case 8: f = w; fflush(w); break;
		case 9: f = b; if (write(fileno(b), "direct\n", 7) != 7) return 1; break;
		case 10: f = w; if (ftell(w) < 0) return 1; break;
		case 11: f = stdout; puts("puts"); break;
		default: f = stdout; printf("%ld\n", i); break;
		}
		report_all(fileno(f));
		if (end) {
			rewind(a);
			report_all(fileno(a));
		}
	}
	free(line);
	fclose(a);
	nstreams = 3;
	streams[0] = stdout;
	streams[1] = b;
	streams[2] = c;
	return 0;
}

/* reread OUT IN: a line by fprintf into OUT, then a line of IN read and IN closed; OUT left
 * for exit to flush (the file opened last is one the program only read). */
static int
pend_reread(const char *out, const char *in)
{
	FILE *fp = fopen(out, "w"), *rd;
	char line[256];

	if (fp == NULL)
		return 2;
	report(fp);
	fprintf(fp, "a line for %s\n", in);
	report(fp);
	if ((rd = fopen(in, "r")) == NULL || fgets(line, sizeof line, rd) == NULL)
		return 2;
	return fclose(rd) != 0;
}

/* burst N OUT: 100 + N fputc into a 1 MB buffer, reported after the first 100 and the last
 * only (no system call between the others: the tracer reads them from the log in runs). */
static int
pend_burst(long n, const char *out)
{
	static char buf[1 << 20];           /* glibc sizes no buffer of its own by setvbuf */
	FILE *fp = fopen(out, "w");

	if (fp == NULL || setvbuf(fp, buf, _IOFBF, sizeof buf) != 0)
		return 2;
	report(fp);
	for (long i = 0; i < 100 + n; i++) {
		fputc('x', fp);
		if (i == 99 || i == 100 + n - 1)
			report(fp);
	}
	return fclose(fp) != 0;
}

/* A thread of threads mode: its file, its lines, its stream, the pending bytes its last call
 * left. */
struct pend_worker {
	const char *out;
	long n;
	FILE *fp;
	size_t last;
};

/* n fprintf lines into its own stream, each reported; then a 5000-byte fwrite, which writes,
 * not reported here: the thread ends right after it, with no system call of its own. */
static void *
pend_worker_run(void *arg)
{
	static char block[5000];
	struct pend_worker *w = arg;

	memset(block, 'b', sizeof block);
	if ((w->fp = fopen(w->out, "w")) == NULL)
		return NULL;
	report(w->fp);
	for (long i = 0; i < w->n; i++) {
		fprintf(w->fp, "thread line %ld\n", i);
		report(w->fp);
	}
	fwrite(block, 1, sizeof block, w->fp);
	w->last = __fpending(w->fp);
	return NULL;
}

/* threads N OUT1 OUT2: two threads at once, each writing its own stream (N lines, then a
 * block); the main thread reports each one's last call after joining it, then closes both. */
static int
pend_threads(long n, const char *out1, const char *out2)
{
	struct pend_worker w[2] = { { out1, n, NULL, 0 }, { out2, n, NULL, 0 } };
	pthread_t th[2];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, pend_worker_run, &w[i]) != 0)
			return 2;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		if (w[i].fp == NULL)
			return 2;
		report_fd(fileno(w[i].fp), w[i].last);
	}
	return (fclose(w[0].fp) | fclose(w[1].fp)) != 0;
}

/* A thread of serial mode: one fwrite of 5000 bytes that writes, then its end, with no system
 * call of its own after it. */
static void *
pend_serial_run(void *arg)
{
	static char block[5000];

	memset(block, 's', sizeof block);
	fwrite(block, 1, sizeof block, arg);
	return NULL;
}

/* serial N OUT: N threads one after another (each joined before the next starts, which then
 * reuses its stack, and the shim's state in it), each writing to the one stream the main
 * thread opened; the main thread reports the stream after each join. */
static int
pend_serial(long n, const char *out)
{
	FILE *fp = fopen(out, "w");

	if (fp == NULL)
		return 2;
	report(fp);
	for (long i = 0; i < n; i++) {
		pthread_t th;
		if (pthread_create(&th, NULL, pend_serial_run, fp) != 0)
			return 2;
		pthread_join(th, NULL);
		report(fp);
	}
	return fclose(fp) != 0;
}

/* pend FIFO MODE ARGS... (FIFO "-": no reports) */
int
main(int argc, char **argv)
{
	if (argc < 4 || (side = open(strcmp(argv[1], "-") == 0 ? "/dev/null" : argv[1],
	                             O_WRONLY | O_CLOEXEC)) < 0)
		return 2;
	if (strcmp(argv[2], "copy") == 0 && argc == 5)
		return pend_copy(argv[3], argv[4]);
	if (strcmp(argv[2], "mix") == 0)
		return pend_mix(argv[3]);
	if (strcmp(argv[2], "tail") == 0 && argc == 5)
		return pend_tail(atoi(argv[3]), argv[4]);
	if (strcmp(argv[2], "lines") == 0 && argc == 5)
		return pend_lines(atol(argv[3]), argv[4]);
	if (strcmp(argv[2], "reread") == 0 && argc == 5)
		return pend_reread(argv[3], argv[4]);
	if (strcmp(argv[2], "burst") == 0 && argc == 5)
		return pend_burst(atol(argv[3]), argv[4]);
	if (strcmp(argv[2], "serial") == 0 && argc == 5)
		return pend_serial(atol(argv[3]), argv[4]);
	if (strcmp(argv[2], "threads") == 0 && argc == 6)
		return pend_threads(atol(argv[3]), argv[4], argv[5]);
	if (strcmp(argv[2], "random") == 0 && argc == 8)
		return pend_random((unsigned)atoi(argv[3]), atol(argv[4]), argv[5], argv[6], argv[7]);
	return 2;
}
