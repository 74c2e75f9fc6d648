/* SPDX-License-Identifier: MIT */
/* scenario/glossary.c: the words the panes, the log and the transcripts print, each with what
 * it means, in the order a reader meets them: stdio, the page cache, the disk, the log, the
 * probes. tests/check-views.c fails when a pane prints a word that is in neither this table
 * nor its short list of plain English; tests/docs.sh when the man page lacks a term. */
#include <config.h>

#include <string.h>

#include "scenario/glossary.h"

static const struct glossary_entry glossary[] = {
	{ "stdio buffer, FILE*",
	  "The buffer a FILE* keeps in the process's own memory (glibc allocates it at the "
	  "first read or write: st_blksize, 4096 bytes on ext4). fwrite() and printf() copy "
	  "bytes into it; they reach the kernel only when stdio calls write()." },
	{ "pending",
	  "Bytes in the stdio buffer that stdio has not passed to the kernel yet "
	  "(__fpending()). A process that dies without fflush(), fclose() or exit() loses them." },
	{ "fully buffered, full",
	  "The stream calls write() when its buffer is full, and at fflush(), fclose() and "
	  "exit(): the default for a file." },
	{ "line buffered, line",
	  "The stream also calls write() at each newline: the default for a terminal." },
	{ "unbuffered, none",
	  "The stream calls write() at each stdio call: the default for stderr." },
	{ "read ahead (stdio), unread",
	  "Bytes a stream's read() brought into its buffer that the program has not consumed "
	  "yet: the next fread() or fgets() takes them without a system call." },
	{ "last flush",
	  "The newest write() or read() that stdio made for the program." },
	{ "page cache, kernel",
	  "The kernel's copy of file data in memory. read() and write() go through it; "
	  "written data reaches the disk later (writeback) unless the program asks for it "
	  "(fsync(), O_SYNC) or goes around the cache (O_DIRECT)." },
	{ "page, pages",
	  "The page cache's unit: 4096 bytes on most machines." },
	{ "cell, cells",
	  "A square of the page-cache grid: one page, or a run of pages when the file is "
	  "large (the pane says how many). The disk strip has one cell under each." },
	{ "cached",
	  "Pages of the file that are in memory: reading them needs no disk." },
	{ "clean",
	  "A cached page that holds what the disk holds: the kernel may drop it at any time." },
	{ "dirty",
	  "A cached page changed by a write and not yet on the disk: a crash now loses it. "
	  "fsync() writes it; the kernel writes it by itself after about 30 seconds "
	  "(dirty_expire_centisecs)." },
	{ "writeback, wb",
	  "The kernel is writing a dirty page to the disk right now; the page is clean when "
	  "the device has it." },
	{ "absent",
	  "A page of the file that is not in memory: reading it reads the disk." },
	{ "dirty ?, dirty unknown",
	  "Only which pages are cached is known (mincore()): whether they are dirty is not "
	  "observable with this probe." },
	{ "read-ahead, read ahead, ahead",
	  "Pages the kernel reads beyond the bytes asked for, betting on a sequential read. "
	  "After a read the cache's cells say where their pages came from: underlined the "
	  "bytes asked for, bold read ahead, dim cached before." },
	{ "asked for, asked",
	  "After a read: the pages of the bytes the read asked for (underlined)." },
	{ "cached before, before",
	  "After a read: the pages that were in the cache already before it (dim)." },
	{ "large folio, folio",
	  "A block of several pages the kernel handles as one (ext4 since Linux 6.16, xfs): "
	  "writing one byte of it dirties all of its pages." },
	{ "evicted",
	  "Dropped from the page cache (posix_fadvise() POSIX_FADV_DONTNEED, memory pressure)." },
	{ "disk, on disk",
	  "What the filesystem has stored on the device for the file (FIEMAP): on disk means "
	  "the bytes have blocks and no cached page is newer." },
	{ "extent, extents",
	  "A run of the file's bytes stored in consecutive blocks: [start, end) in the file, "
	  "and its state." },
	{ "allocated",
	  "Bytes that have disk blocks of their own." },
	{ "delalloc, no block yet, delayed allocation",
	  "Delayed allocation: ext4, xfs and btrfs choose the disk blocks only when they write "
	  "the data back. After write() the data is in memory only, with no block yet; "
	  "fsync() or writeback allocates them." },
	{ "unwritten",
	  "Blocks reserved for the file (fallocate()) but never written: they read as zeros." },
	{ "stale",
	  "Allocated blocks under dirty pages: the disk holds an older copy of these bytes." },
	{ "hole",
	  "A range of the file with no block and no data: it reads as zeros (a sparse file)." },
	{ "inline",
	  "btrfs keeps a small file's data inside its metadata: no data block of its own." },
	{ "beyond EOF",
	  "Blocks past the file's end: xfs's speculative preallocation, or fallocate() with "
	  "FALLOC_FL_KEEP_SIZE. Not counted as the file's allocation." },
	{ "[by stdio], stdio",
	  "A system call that stdio made inside a stdio function (fwrite(), fflush(), "
	  "fclose(), ...), on the program's behalf (origin stdio in JSON); in a traced program, "
	  "also one on a stream's buffer that inline stdio code led to (putc_unlocked, a "
	  "macro: a flush, a refill, the fstat that sizes a new buffer)." },
	{ "[your call], direct",
	  "A system call the step made itself (write(), fsync(), ...; origin direct in JSON, "
	  "nothing to do with O_DIRECT)." },
	{ "*, timed by the tracer",
	  "A time measured by the tracer: it includes two ptrace stops, so it is longer than "
	  "the call itself takes." },
	{ "@N, offset",
	  "A file offset in a call: pwrite(3, 10, @4096) writes 10 bytes at offset 4096." },
	{ "len=N, length",
	  "The length of the range a call acts on: fadvise64(3, @0, len=0, ...) means to the "
	  "end of the file." },
	{ "O_SYNC, O_DSYNC",
	  "Open flags: each write() returns only when its data is on the disk (O_DSYNC), and "
	  "with O_SYNC all of the file's metadata too." },
	{ "O_DIRECT",
	  "Open flag: reads and writes go around the page cache, straight between the "
	  "program's buffer and the disk; buffer, offset and length must be aligned." },
	{ "cachestat",
	  "The system call (Linux 6.5 and later) that counts a file's cached, dirty and "
	  "writeback pages: the page-cache probe when it exists." },
	{ "mincore",
	  "The system call that says which pages of a mapped file are in memory: residency "
	  "only, no dirty counts." },
	{ "kpageflags",
	  "/proc/kpageflags: every page's flags, readable by root: dirty and writeback counts "
	  "where cachestat() is missing." },
	{ "FIEMAP, fiemap",
	  "The ioctl that lists a file's extents and their flags." },
	{ "ptrace",
	  "How iobufviz sees each system call, exactly, as strace does: the process stops at "
	  "each call." },
	{ "procio, /proc/PID/io",
	  "A process's I/O counters. Where ptrace is refused only the number of calls and "
	  "their bytes are known, marked counts only." },
	{ "write_bytes",
	  "Of /proc/PID/io: the bytes the process caused to be sent to the storage layer (the "
	  "pages it dirtied); the disk pane shows it where extents cannot be seen." },
	{ "not observable here",
	  "This kernel, filesystem or probe cannot show the fact: an expectation on it is "
	  "skipped (or fails with --strict)." },
	{ "REPLAY",
	  "Going back shows the state recorded after that step, not a new run." },
	{ "+31 s since step 3",
	  "In the title bar: the time a person took before the shown step, when it was over a "
	  "second. The kernel may have acted on its own in it (a journal commit after 5 s, "
	  "writeback after 30 s); the step's details (Tab) say what it did and when." },
};

#define GLOSSARY_N (sizeof glossary / sizeof glossary[0])

/* The i-th entry. */
const struct glossary_entry *
glossary_at(size_t i)
{
	return i < GLOSSARY_N ? &glossary[i] : NULL;
}

/* The entry one of whose names is word. */
const struct glossary_entry *
glossary_find(const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i < GLOSSARY_N; i++)
		for (const char *p = glossary[i].term; *p != '\0';) {
			size_t len = strcspn(p, ",");
			if (len == n && strncmp(p, word, n) == 0)
				return &glossary[i];
			p += len;
			while (*p == ',' || *p == ' ')
				p++;
		}
	return NULL;
}
