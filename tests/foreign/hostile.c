/* SPDX-License-Identifier: MIT */
/* hostile.c: a traced program that tries to escape, stall or flood its tracer, one way per mode
 * (tests/hostile-prog.sh). It says on stdout what each attempt gave; a process that got away
 * lingers for 30 s, for the test to find by its exe. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "shim/protocol.h"

/* Stay alive (SIGTERM and SIGHUP ignored) for 30 s, as an escapee would. Its file calls would
 * fail (the filter's SECCOMP_RET_TRACE with no tracer): tests look for it by its exe. */
static void
linger(void)
{
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	for (int i = 0; i < 300; i++)
		usleep(100000);
	_exit(0);
}

/* Say what an attempt gave: "WHAT: ok" or "WHAT: strerror". */
static void
say(const char *what, long rc, int err)
{
	printf("%s: %s\n", what, rc < 0 ? strerror(err) : "ok");
	fflush(stdout);
}

/* clone with CLONE_UNTRACED, in every way a 64-bit program can ask for it. */
static int
untraced(void)
{
	struct clone_args ca = { .flags = CLONE_UNTRACED, .exit_signal = SIGCHLD };
	long rc;

	rc = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
	if (rc == 0)
		linger();
	say("clone", rc, errno);
	rc = syscall(SYS_clone3, &ca, sizeof ca);
	if (rc == 0)
		linger();
	say("clone3", rc, errno);
#if defined(__x86_64__)
	/* The i386 ABI's clone (120) through int $0x80: flags in ebx, no new stack (as fork).
	 * In a child: a kernel without IA32 emulation answers int $0x80 with SIGSEGV, which
	 * is said ("no IA32 emulation") for the test to skip. */
	{
		int st;
		pid_t ch = fork();
		if (ch == 0) {
			long r = 120;
			__asm__ volatile("int $0x80" : "+a"(r) : "b"(CLONE_UNTRACED | SIGCHLD), "c"(0),
			                 "d"(0), "S"(0), "D"(0) : "memory");
			if (r == 0)
				linger();
			say("clone (int $0x80)", r < 0 ? -1 : r, (int)-r);
			_exit(0);
		}
		if (ch > 0 && waitpid(ch, &st, 0) == ch && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) {
			printf("clone (int $0x80): no IA32 emulation\n");
			fflush(stdout);
		}
	}
#endif
	return 0;
}

/* A traced child that makes itself a daemon (new session, double fork) and ignores SIGTERM. */
static int
daemonize(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		if (fork() == 0)
			linger();
		_exit(0);
	}
	say("fork", pid, errno);
	return 0;
}

/*
 * Make the tracer open a FIFO: map a file named like a C library at a low address (so it is
 * the first "libc" in /proc/PID/maps), remove it, put a FIFO at the path the maps then show
 * ("... (deleted)"), and make a file call in a child, whose streams the tracer looks for.
 */
static int
fifo(void)
{
	static char page[4096];
	int fd = open("libc.so.6", O_RDWR | O_CREAT | O_TRUNC, 0644);
	void *want = (void *)(uintptr_t)0x10000000, *p;

	if (fd < 0 || write(fd, page, sizeof page) != (ssize_t)sizeof page)
		return 1;
	p = mmap(want, sizeof page, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	say("mmap", p == MAP_FAILED ? -1 : 0, errno);
	close(fd);
	unlink("libc.so.6");
	say("mkfifo", mkfifo("libc.so.6 (deleted)", 0644), errno);
	if (fork() == 0) {
		fd = open("touch", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		say("child open", fd, errno);
		_exit(0);
	}
	sleep(1);
	return 0;
}

/* Open the controlling terminal and write to it. */
static int
tty(void)
{
	int fd = open("/dev/tty", O_WRONLY);

	say("open /dev/tty", fd, errno);
	if (fd >= 0 && write(fd, "\033]0;pwned\007", 10) < 0)
		return 1;
	return 0;
}

/* Make no system call for 30 s (the clock is read through the vDSO): a tracer waiting for
 * the next step waits that long. */
static int
quiet(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec - t0.tv_sec < 30);
	return 0;
}

/* Say what an attempt gave, rc taken before errno is read. */
#define TRY(what, call) do { long rc_ = (long)(call); say(what, rc_, errno); } while (0)

/* Stop the tracer (our parent) with SIGSTOP, then its process group, then through the i386
 * ABI on x86_64; a tracer stopped for good is the test's to see (its --timeout must hold). */
static int
stop(void)
{
	pid_t tracer = getppid();

	TRY("kill SIGSTOP", kill(tracer, SIGSTOP));
	pid_t pg = getpgid(tracer);
	if (pg > 1)
		TRY("kill -pgrp SIGSTOP", kill(-pg, SIGSTOP));
	TRY("tgkill SIGSTOP", syscall(SYS_tgkill, tracer, tracer, SIGSTOP));
#if defined(__x86_64__)
	/* In a child: a kernel without IA32 emulation answers int $0x80 with SIGSEGV. */
	if (fork() == 0) {
		long r = 37;        /* i386 kill */
		__asm__ volatile("int $0x80" : "+a"(r) : "b"(tracer), "c"(SIGSTOP)
		                 : "memory", "r8", "r9", "r10", "r11");
		say("kill (int $0x80)", r < 0 ? -1 : r, (int)-r);
		_exit(0);
	}
	wait(NULL);
#endif
	sleep(1);
	return 0;
}

/* The parent of pid (0: unknown). */
static pid_t
parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	long pp = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(buf, sizeof buf, f) != NULL && (p = strrchr(buf, ')')) != NULL)
		sscanf(p + 1, " %*c %ld", &pp);
	fclose(f);
	return (pid_t)pp;
}

/* A run step's program: stop iobufviz itself, its tracer's parent (only if that is an
 * iobufviz: a test's shell is never stopped), then make no call for 30 s. */
static int
stopgrand(void)
{
	pid_t grand = parent_of(getppid());
	char path[64], exe[4096];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/exe", (long)grand);
	n = readlink(path, exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	/* An exe we may not read (EACCES: not dumpable, and no CAP_SYS_PTRACE here, as root
	 * too) is iobufviz's too. */
	if (grand > 1 && ((n > 8 && strcmp(exe + n - 8, "iobufviz") == 0) ||
	                  (n < 0 && errno == EACCES)))
		TRY("kill iobufviz SIGSTOP", kill(grand, SIGSTOP));
	else
		printf("no iobufviz above the tracer: %s\n", exe);
	fflush(stdout);
	return quiet();
}

/* A child that seizes the tracer and interrupts it (a ptrace-stop: it then waits for us). */
static int
seize(void)
{
	pid_t tracer = getppid(), pid = fork();

	if (pid == 0) {
		long rc = ptrace(PTRACE_SEIZE, tracer, 0, 0);
		say("PTRACE_SEIZE", rc, errno);
		if (rc == 0)
			TRY("PTRACE_INTERRUPT", ptrace(PTRACE_INTERRUPT, tracer, 0, 0));
		linger();
	}
	sleep(30);
	return 0;
}

/* Open the tracer's memory read-write and its maps; read its environment. */
static int
mem(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/mem", (long)getppid());
	TRY("open mem", fd = open(path, O_RDWR));
	snprintf(path, sizeof path, "/proc/%ld/maps", (long)getppid());
	TRY("open maps", fd = open(path, O_RDONLY));
	return 0;
}

/* A log of its own, told to the tracer as the shim's: every entry a run that claims 4 G calls,
 * the run going on too; 8 stops, the log full again before each. The tracer takes at most
 * PROG_MARK_RUN calls an entry: the run ends at once, its calls bounded. */
static int
forge(void)
{
	static struct prog_mark_tls tls;
	struct prog_mark_call *log = calloc(PROG_MARK_LOG, sizeof *log), c = { 0 };

	if (log == NULL)
		return 1;
	c.id = PROG_MARK_FUNC_fwrite;
	c.file = 0x1000;
	c.fd = 1;
	c.a = 1;
	c.b = 30;
	c.size = 30;
	c.ret = 30;
	c.flags = PROG_MARK_F_STATE;
	c.count = 0xffffffffu;
	c.write_base = 0x1000;
	c.write_ptr = 0x1000 + 30;
	tls.log = (uintptr_t)log;
	tls.magic = PROG_MARK_MAGIC;
	syscall(SYS_prctl, PROG_MARK_OPTION, PROG_MARK_HELLO, (long)&tls, 0L, 0L);
	for (int stop = 0; stop < 8; stop++) {
		for (int i = 0; i < PROG_MARK_LOG; i++) {
			c.seq = 0xfffffffffff00000ull + (uint64_t)stop * PROG_MARK_LOG + (uint64_t)i;
			log[i] = c;
		}
		tls.run = c;
		tls.run.seq = ~0ull;
		tls.written += PROG_MARK_LOG;
		close(open(".", O_RDONLY));     /* a stop */
	}
	say("forged", 0, 0);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "forge") == 0)
		return forge();
	if (argc == 2 && strcmp(argv[1], "stop") == 0)
		return stop();
	if (argc == 2 && strcmp(argv[1], "seize") == 0)
		return seize();
	if (argc == 2 && strcmp(argv[1], "mem") == 0)
		return mem();
	if (argc == 2 && strcmp(argv[1], "stopgrand") == 0)
		return stopgrand();
	if (argc == 2 && strcmp(argv[1], "untraced") == 0)
		return untraced();
	if (argc == 2 && strcmp(argv[1], "daemon") == 0)
		return daemonize();
	if (argc == 2 && strcmp(argv[1], "fifo") == 0)
		return fifo();
	if (argc == 2 && strcmp(argv[1], "tty") == 0)
		return tty();
	if (argc == 2 && strcmp(argv[1], "quiet") == 0)
		return quiet();
	fputs("usage: hostile untraced|daemon|fifo|tty|quiet|stop|seize|mem|stopgrand|forge\n", stderr);
	return 2;
}
