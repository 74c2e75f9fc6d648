/* SPDX-License-Identifier: MIT */
/* tests/crash-seq.c: the oracle's program (tests/crash-oracle.sh): the calls of each bundled crash
 * lesson (scenarios/crash-*.yaml), written out by hand in plain C and stdio, nothing of
 * iobufviz. At each of the lesson's crash: steps it stops and lets the test crash it.
 * Usage: crash-seq DIR DEVICE LESSON     (LESSON: crash-13-3, crash-fflush, ...)
 * It works in DIR (a filesystem of the test's own on /dev/DEVICE). It first makes the file
 * the lesson starts with, as iobufviz does ("scratch": created, prefilled with numbered lines
 * and synced if the lesson has any). At a crash step it forks a copy of itself that sleeps
 * (the process crash: the test kills it with SIGKILL, and its stdio buffers with it), prints
 * "crash K NAME PID WRITES STRAY" (K from 1, NAME the file to read, PID the copy, WRITES the
 * write requests the device has completed now, STRAY those of them no call of the lesson
 * waited for: fsync, fdatasync, a write on an O_SYNC or O_DSYNC descriptor), then reads one
 * byte from standard input and goes on. At the end it prints "done" and sleeps until killed. */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *device;
static int crashes;
/* The device's write requests and sectors after the last call the lesson waited for. */
static uint64_t last_writes, last_sectors, stray;

/* Stop with a message. */
static void
die(const char *what)
{
	perror(what);
	exit(1);
}

/* The device's completed write requests and written sectors (/sys/block/DEV/stat). */
static void
counters(uint64_t *writes, uint64_t *sectors)
{
	char path[128];
	unsigned long long v[7];
	FILE *f;

	snprintf(path, sizeof path, "/sys/block/%s/stat", device);
	f = fopen(path, "r");
	if (f == NULL || fscanf(f, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	                        &v[4], &v[5], &v[6]) != 7)
		die(path);
	fclose(f);
	*writes = v[4];
	*sectors = v[6];
}

/* Count the requests with data since the last waited-for call as stray. */
static void
account(uint64_t writes, uint64_t sectors)
{
	if (writes > last_writes && sectors > last_sectors)
		stray += writes - last_writes;
}

/* Before a call the lesson waits for: what reached the device since the last one was not its. */
static void
wait_begin(void)
{
	uint64_t w, s;

	counters(&w, &s);
	account(w, s);
}

/* After it: what it sent was the lesson's. */
static void
wait_end(void)
{
	counters(&last_writes, &last_sectors);
}

/* A crash step: a sleeping copy for the test to kill, the line, then wait to go on. */
static void
crash(const char *name)
{
	uint64_t w, s, at;
	pid_t pid;
	char c;

	counters(&w, &s);
	at = stray;
	if (w > last_writes && s > last_sectors)
		at += w - last_writes;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		for (;;)
			pause();
	printf("crash %d %s %d %" PRIu64 " %" PRIu64 "\n", ++crashes, name, (int)pid, w, at);
	fflush(stdout);
	if (read(STDIN_FILENO, &c, 1) != 1)
		exit(0);
}

/* "abc...z" repeating, as iobufviz's writes send. */
static void
pattern(char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + i % 26);
}

/* The file the lesson starts with: size bytes of "line 000001\n"..., synced if any. */
static void
prepare(size_t size)
{
	int fd = open("scratch", O_WRONLY | O_CREAT | O_EXCL, 0600);
	size_t n = 0;
	char line[16];

	if (fd < 0)
		die("scratch");
	for (int i = 1; n < size; i++) {
		size_t k = (size_t)snprintf(line, sizeof line, "line %06d\n", i);
		if (k > size - n) {
			k = size - n;
			line[k - 1] = '\n';
		}
		if (write(fd, line, k) != (ssize_t)k)
			die("prepare");
		n += k;
	}
	if (size > 0 && fsync(fd) != 0)
		die("fsync");
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

/* open(), or die. */
static int
xopen(const char *name, int flags)
{
	int fd = open(name, flags, 0600);

	if (fd < 0)
		die(name);
	return fd;
}

/* write() of a text, or die. */
static void
xwrite(int fd, const char *text)
{
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write");
}

/* fsync() or fdatasync(), waited for. */
static void
xsync(int fd, int data)
{
	wait_begin();
	if ((data ? fdatasync(fd) : fsync(fd)) != 0)
		die("fsync");
	wait_end();
}

/* Exercise 13-3 (scenarios/crash-13-3.yaml). */
static void
lesson_13_3(void)
{
	char buf[5000];
	FILE *fp;

	prepare(0);
	pattern(buf, sizeof buf);
	if ((fp = fopen("scratch", "w")) == NULL)
		die("fopen");
	crash("scratch");
	if (fwrite(buf, 1, sizeof buf, fp) != sizeof buf)
		die("fwrite");
	crash("scratch");
	if (fflush(fp) != 0)
		die("fflush");
	crash("scratch");
	xsync(fileno(fp), 0);
	crash("scratch");
	if (fclose(fp) != 0)
		die("fclose");
	crash("scratch");
}

/* fflush() alone (scenarios/crash-fflush.yaml). */
static void
lesson_fflush(void)
{
	FILE *fp;

	prepare(0);
	if ((fp = fopen("scratch", "a")) == NULL)
		die("fopen");
	fputs("record 1\n", fp);
	crash("scratch");
	if (fflush(fp) != 0)
		die("fflush");
	fputs("record 2\n", fp);
	crash("scratch");
}

/* write() and close() (scenarios/crash-close.yaml). */
static void
lesson_close(void)
{
	int fd;

	prepare(0);
	fd = xopen("scratch", O_WRONLY | O_CREAT | O_TRUNC);
	xwrite(fd, "hello, world\n");
	close(fd);
	crash("scratch");
	fd = xopen("fresh", O_WRONLY | O_CREAT | O_EXCL);
	xwrite(fd, "hello again\n");
	close(fd);
	crash("fresh");
	fd = xopen("fresh", O_WRONLY | O_APPEND);
	xsync(fd, 0);
	close(fd);
	crash("fresh");
}

/* A new file and its directory (scenarios/crash-new-file.yaml). */
static void
lesson_new_file(void)
{
	int a, b, dir;

	prepare(0);
	a = xopen("a", O_WRONLY | O_CREAT | O_EXCL);
	xwrite(a, "file a\n");
	xsync(a, 0);
	crash("a");
	b = xopen("b", O_WRONLY | O_CREAT | O_EXCL);
	xwrite(b, "file b\n");
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	xsync(dir, 0);
	crash("b");
	xsync(b, 0);
	crash("b");
}

/* Replacing a file with rename() (scenarios/crash-rename.yaml). */
static void
lesson_rename(void)
{
	char buf[8192];
	int fd, dir;

	prepare(0);
	pattern(buf, sizeof buf);
	fd = xopen("data", O_WRONLY | O_CREAT | O_EXCL);
	xwrite(fd, "old version\n");
	xsync(fd, 0);
	close(fd);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	xsync(dir, 0);
	crash("data");
	fd = xopen("data.new", O_WRONLY | O_CREAT | O_EXCL);
	if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
		die("write");
	close(fd);
	if (rename("data.new", "data") != 0)
		die("rename");
	crash("data");
	xsync(dir, 0);
	crash("data");
	fd = xopen("data.new", O_WRONLY | O_CREAT | O_EXCL);
	xwrite(fd, "third version\n");
	xsync(fd, 0);
	close(fd);
	if (rename("data.new", "data") != 0)
		die("rename");
	xsync(dir, 0);
	crash("data");
}

/* One write() on a descriptor opened O_SYNC or O_DSYNC: waited for. */
static void
sync_write(int fd, const char *buf, size_t n)
{
	wait_begin();
	if (write(fd, buf, n) != (ssize_t)n)
		die("write");
	wait_end();
}

/* O_SYNC and O_DSYNC (scenarios/crash-osync.yaml). */
static void
lesson_osync(void)
{
	char buf[4096];
	int fd;

	prepare(0);
	pattern(buf, sizeof buf);
	fd = xopen("scratch", O_WRONLY | O_CREAT | O_TRUNC | O_SYNC);
	sync_write(fd, buf, sizeof buf);
	crash("scratch");
	close(fd);
	fd = xopen("log", O_WRONLY | O_CREAT | O_EXCL | O_DSYNC);
	sync_write(fd, buf, sizeof buf);
	sync_write(fd, buf, sizeof buf);
	lseek(fd, 0, SEEK_SET);
	sync_write(fd, buf, sizeof buf);
	crash("log");
}

/* fdatasync() in place and past the end (scenarios/crash-fdatasync.yaml). */
static void
lesson_fdatasync(void)
{
	int fd;

	prepare(8192);
	/* The prefill's own writes were waited for (its fsync), as iobufviz's are. */
	wait_end();
	fd = xopen("scratch", O_WRONLY);
	if (pwrite(fd, "NEW", 3, 0) != 3)
		die("pwrite");
	xsync(fd, 1);
	crash("scratch");
	if (pwrite(fd, "MORE", 4, 8192) != 4)
		die("pwrite");
	xsync(fd, 1);
	crash("scratch");
}

static const struct {
	const char *name;
	void (*run)(void);
} lessons[] = {
	{ "crash-13-3", lesson_13_3 },
	{ "crash-fflush", lesson_fflush },
	{ "crash-close", lesson_close },
	{ "crash-new-file", lesson_new_file },
	{ "crash-rename", lesson_rename },
	{ "crash-osync", lesson_osync },
	{ "crash-fdatasync", lesson_fdatasync },
};

int
main(int argc, char **argv)
{
	size_t i, n = sizeof lessons / sizeof lessons[0];

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < n; i++)
			printf("%s\n", lessons[i].name);
		return 0;
	}
	for (i = 0; argc == 4 && i < n && strcmp(argv[3], lessons[i].name) != 0; i++)
		;
	if (argc != 4 || i == n) {
		fprintf(stderr, "usage: crash-seq DIR DEVICE LESSON | crash-seq --list\n");
		return 2;
	}
	device = argv[2];
	if (chdir(argv[1]) != 0)
		die(argv[1]);
	signal(SIGCHLD, SIG_IGN);   /* the killed copies are reaped by the kernel */
	wait_end();
	lessons[i].run();
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
