/* SPDX-License-Identifier: MIT */
/* srcloc.h: the line of the student's source that made a step: a call site's address, or a
 * stopped thread's stack, mapped to file:line:function through the program's DWARF (libdwfl). */
#ifndef IOBUFVIZ_PROG_SRCLOC_H
#define IOBUFVIZ_PROG_SRCLOC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PROG_SRC_FILE 256
#define PROG_SRC_FUNC 64

/* Where in the program a step was made: the first frame in the program's own file (not in
 * a library), and the one that called its function. */
struct prog_src {
	uint64_t pc;              /* the call's address in the process (0: not known) */
	uint64_t addr;            /* ... in its file (as addr2line -e FILE takes it) */
	uint32_t line;            /* its line (0: no DWARF line: built without -g) */
	uint32_t caller_line;     /* the line that called func (0: not known) */
	char file[PROG_SRC_FILE]; /* the source file, absolute when DWARF names its dir */
	char func[PROG_SRC_FUNC]; /* the function, from the symbol table ("": none) */
	char caller_func[PROG_SRC_FUNC];
};

struct prog_srcloc;

/* A resolver of the processes' addresses (NULL on ENOMEM); free with prog_srcloc_free. */
struct prog_srcloc *prog_srcloc_new(void);
void prog_srcloc_free(struct prog_srcloc *s);

/* Process tgid exec'd or ended: what was known of its files is gone. */
void prog_srcloc_forget(struct prog_srcloc *s, pid_t tgid);

/* Thread tid of process tgid, stopped under our ptrace: walk its stack to the first frame in
 * the program's own file (and the next, its caller) into *out. False if none is found. */
bool prog_srcloc_unwind(struct prog_srcloc *s, pid_t tgid, pid_t tid, struct prog_src *out);

/*
 * Thread tid of process tgid, stopped in a stdio call made from return address ra on stream
 * file, the shim's frame at frame (shim/protocol.h): as prog_srcloc_unwind, but a call site
 * walked before whose caller's return address is still where the walk found it, above the
 * shim's frame, is not walked again (a call in a loop costs one read of a word, not a walk).
 * *off: how far above frame the caller's return address is (UINT64_MAX: not known).
 */
bool prog_srcloc_unwind_call(struct prog_srcloc *s, pid_t tgid, pid_t tid, uint64_t ra,
                             uint64_t file, uint64_t frame, struct prog_src *out,
                             uint64_t *off);

/*
 * A stdio call from return address ra on stream file that made no stop, whose stack held up
 * off bytes above the shim's frame (shim/protocol.h, prog_mark_tls.up): if a walk from
 * there found its caller's return address equal to up at that offset, its line and its
 * caller's into *out; or a walk from another call site of the same function (the shim
 * read up where that walk found its caller's return address, in the same frame): its own
 * line, and that walk's caller. False if none did.
 */
bool prog_srcloc_logged(struct prog_srcloc *s, pid_t tgid, uint64_t ra, uint64_t file,
                        uint64_t off, uint64_t up, struct prog_src *out);

/* The code of the function that return address ra is in, as (lo, hi] holds a return address
 * into it, from its symbol's address and size. False (lo, hi untouched) if not known. */
bool prog_srcloc_func(struct prog_srcloc *s, pid_t tgid, uint64_t ra, uint64_t *lo, uint64_t *hi);

/*
 * Thread tid of process tgid, stopped in a system call made outside stdio, at instruction ip
 * with stack pointer sp: as prog_srcloc_unwind, but a system call instruction walked before
 * whose return addresses into the program (its call site's, and its caller's) are still
 * where the walk found them above sp is not walked again: a program's own write() in a loop
 * costs one read of its stack's top, not a walk.
 */
bool prog_srcloc_unwind_sys(struct prog_srcloc *s, pid_t tgid, pid_t tid, uint64_t ip,
                            uint64_t sp, struct prog_src *out);

/* How many stacks were walked, and how many stdio calls' lines were known without a walk. */
struct prog_srcloc_stats {
	uint64_t walks, remembered;
};
void prog_srcloc_stats(const struct prog_srcloc *s, struct prog_srcloc_stats *out);

/* The return address ra of a call in process tgid (the shim's caller): the call's line into
 * *out. False if no file of the process holds it. */
bool prog_srcloc_at(struct prog_srcloc *s, pid_t tgid, uint64_t ra, struct prog_src *out);

/* "line 9 in save(), called from line 17" (or "save()+0x1a", or "0x4011a6") into buf: the
 * words a step's source takes; "" when src knows nothing. */
char *prog_srcloc_format(const struct prog_src *src, char *buf, size_t len);

#endif
