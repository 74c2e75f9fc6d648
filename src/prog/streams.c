/* SPDX-License-Identifier: MIT */
/* streams.c: find _IO_list_all in a tracee's glibc and read its FILEs with process_vm_readv. */
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/fdio.h"
#include "base/grow.h"
#include "shim/protocol.h"
#include "prog/streams.h"

/*
 * The tracee's FILE is read as our own glibc's struct _IO_FILE (<bits/types/struct_FILE.h>,
 * from <stdio.h>): both are this machine's glibc, whose ABI for that struct has not changed
 * since 2.1 on 64-bit targets. prog_streams_find checks that the tracee's libc is a glibc
 * (it exports gnu_get_libc_version and _IO_list_all) before anything is read.
 */
#if !defined(__GLIBC__)
#error "prog/streams.c reads glibc's struct _IO_FILE: build it against glibc"
#endif

/* glibc's _flags bits (libio.h, not installed). */
#define PS_MAGIC_MASK      0xFFFF0000u
#define PS_MAGIC           0xFBAD0000u
#define PS_UNBUFFERED      0x0002u
#define PS_NO_READS        0x0004u
#define PS_NO_WRITES       0x0008u
#define PS_LINE_BUF        0x0200u
#define PS_CURRENTLY_PUTTING PROG_MARK_IO_CURRENTLY_PUTTING

/* The kept chain is read back this many pieces to a process_vm_readv (within IOV_MAX). */
#define PS_IOV 64

static const char prog_streams_hidden[] = "stdio: not visible (static / not glibc), only system calls";
static const char prog_streams_not_yet[] = "stdio: libc not loaded yet";

/* The per-process state: where _IO_list_all is, once found. */
struct prog_streams {
	pid_t pid;
	int state;                /* PROG_STREAMS_NOT_YET until found; then OK or HIDDEN */
	uint64_t list_all;        /* address of the variable _IO_list_all */
	/* Where _IO_file_doallocate's code is, and _IO_file_stat's ([lo, hi); 0, 0: unknown). */
	uint64_t alloc[2][2];
	/* The FILEs libc made for stdin, stdout, stderr (0: not found). */
	uint64_t std_file[3];
	/* The chain as last walked by prog_streams_holds: its FILE*s and the FILEs read (room for
	 * cap_kept; kept false: to walk again). */
	uint64_t *kept;
	struct _IO_FILE *v;
	size_t n_kept, cap_kept;
	bool is_kept;
};

/* Copy len bytes at addr of process pid into buf. 0, or -1 with errno (EFAULT if short). */
static int
prog_streams_peek(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);

	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = EFAULT;
	return -1;
}

/* Read len bytes at off of fd into buf. 0, or -1. */
static int
prog_streams_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -1;
}

/* Look name up in the symbol table section sh (its strings in section sh->sh_link): its
 * value and size into value[0], value[1]. */
static int
prog_streams_symtab(int fd, const Elf64_Shdr *shs, size_t nsh, const Elf64_Shdr *sh,
                    const char *name, uint64_t value[2])
{
	const Elf64_Shdr *strs;
	size_t nsym, nlen = strlen(name);
	Elf64_Sym *syms;
	char *str;
	int found = -1;

	if (sh->sh_link >= nsh || sh->sh_entsize != sizeof(Elf64_Sym))
		return -1;
	strs = &shs[sh->sh_link];
	if (sh->sh_size > (64u << 20) || strs->sh_size > (64u << 20))
		return -1;
	nsym = sh->sh_size / sizeof(Elf64_Sym);
	syms = malloc(sh->sh_size ? sh->sh_size : 1);
	str = malloc(strs->sh_size + 1);
	if (syms != NULL && str != NULL && prog_streams_pread(fd, syms, sh->sh_size, sh->sh_offset) == 0 &&
	    prog_streams_pread(fd, str, strs->sh_size, strs->sh_offset) == 0) {
		str[strs->sh_size] = '\0';
		for (size_t i = 0; i < nsym; i++)
			if (syms[i].st_name < strs->sh_size && syms[i].st_shndx != SHN_UNDEF &&
			    strncmp(str + syms[i].st_name, name, nlen + 1) == 0) {
				value[0] = syms[i].st_value;
				value[1] = syms[i].st_size;
				found = 0;
				break;
			}
	}
	free(syms);
	free(str);
	return found;
}

/*
 * In the ELF64 file path: the values and sizes of the symbols names[0..n-1] (.dynsym, then
 * .symtab) into values (0, 0: not found), and the page-aligned vaddr of its first PT_LOAD
 * into *base. 0 if the first need were found, -1 otherwise.
 */
static int
prog_streams_elf(const char *path, const char *const *names, uint64_t (*values)[2], size_t n,
                 size_t need, uint64_t *base)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *shs = NULL;
	/* The path is the tracee's to choose (a mapping it made, renamed): never a FIFO that
	 * would block us, nor a terminal or device; only a regular file is read. */
	int fd = fdio_open_regular(path, 0), rc = 0;

	if (fd < 0)
		return -1;
	if (prog_streams_pread(fd, &eh, sizeof eh, 0) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_shnum == 0 || eh.e_shnum > 4096)
		rc = -1;
	*base = 0;
	for (unsigned i = 0; rc == 0 && i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (prog_streams_pread(fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph) != 0) {
			rc = -1;
			break;
		}
		if (ph.p_type == PT_LOAD) {
			*base = ph.p_vaddr & ~(uint64_t)4095;
			break;
		}
	}
	if (rc == 0) {
		shs = malloc(eh.e_shnum * sizeof *shs);
		if (shs == NULL ||
		    prog_streams_pread(fd, shs, eh.e_shnum * sizeof *shs, eh.e_shoff) != 0)
			rc = -1;
	}
	for (size_t k = 0; rc == 0 && k < n; k++) {
		int ok = -1;
		for (unsigned i = 0; ok != 0 && i < eh.e_shnum; i++)
			if (shs[i].sh_type == SHT_DYNSYM)
				ok = prog_streams_symtab(fd, shs, eh.e_shnum, &shs[i], names[k], values[k]);
		for (unsigned i = 0; ok != 0 && i < eh.e_shnum; i++)
			if (shs[i].sh_type == SHT_SYMTAB)
				ok = prog_streams_symtab(fd, shs, eh.e_shnum, &shs[i], names[k], values[k]);
		if (ok != 0)
			values[k][0] = values[k][1] = 0;
		if (k < need)
			rc = ok;
	}
	free(shs);
	close(fd);
	return rc;
}

/* True if the file name (last component of a path) is a C library: "libc.so.6", "libc-2.31.so". */
static bool
prog_streams_is_libc(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b != NULL ? b + 1 : path;
	return strncmp(b, "libc.so", 7) == 0 || strncmp(b, "libc-", 5) == 0 ||
	       strncmp(b, "libc.musl", 9) == 0 || strncmp(b, "ld-musl", 7) == 0;
}

/*
 * Find _IO_list_all in s->pid's libc: its file mapping at offset 0 in /proc/PID/maps
 * gives the load address; the file's symbol table gives the offset.
 */
static void
prog_streams_find(struct prog_streams *s)
{
	/* The two first are needed; the others say where stdio allocates a buffer. */
	static const char *const names[] = { "_IO_list_all", "gnu_get_libc_version",
	                                     "_IO_file_doallocate", "_IO_file_stat",
	                                     "_IO_2_1_stdin_", "_IO_2_1_stdout_",
	                                     "_IO_2_1_stderr_" };
	char maps[64], line[PATH_MAX + 128], path[PATH_MAX + 32];
	uint64_t start = 0, values[7][2], base;
	bool interp = false, libc = false, any = false;
	FILE *f;

	snprintf(maps, sizeof maps, "/proc/%d/maps", (int)s->pid);
	f = fopen(maps, "re");
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned long long lo, off;
		char *p;
		int used = 0;

		if (sscanf(line, "%llx-%*x %*s %llx %*s %*s %n", &lo, &off, &used) < 2 || used == 0)
			continue;
		any = true;
		p = line + used;
		p[strcspn(p, "\n")] = '\0';
		if (*p != '/')
			continue;
		if (strstr(p, "/ld-linux") != NULL || strstr(p, "/ld64.so") != NULL ||
		    strstr(p, "/ld-musl") != NULL)
			interp = true;
		if (!libc && off == 0 && prog_streams_is_libc(p)) {
			libc = true;
			start = lo;
			snprintf(path, sizeof path, "/proc/%d/root%s", (int)s->pid, p);
		}
	}
	fclose(f);
	if (!libc) {
		/* A dynamic program before its loader mapped libc, or a static one (no mapping at
		 * all: a process that has ended, which says nothing). */
		s->state = interp || !any ? PROG_STREAMS_NOT_YET : PROG_STREAMS_HIDDEN;
		return;
	}
	if (prog_streams_elf(path, names, values, 7, 2, &base) != 0) {
		s->state = PROG_STREAMS_HIDDEN;     /* musl, or a libc we cannot read */
		return;
	}
	s->list_all = start - base + values[0][0];
	for (int i = 0; i < 2; i++) {
		s->alloc[i][0] = values[2 + i][1] > 0 ? start - base + values[2 + i][0] : 0;
		s->alloc[i][1] = s->alloc[i][0] + values[2 + i][1];
	}
	for (int i = 0; i < 3; i++)
		s->std_file[i] = values[4 + i][0] != 0 ? start - base + values[4 + i][0] : 0;
	s->state = PROG_STREAMS_OK;
}

/* A reader for pid. */
struct prog_streams *
prog_streams_new(pid_t pid)
{
	struct prog_streams *s = calloc(1, sizeof *s);

	if (s != NULL) {
		s->pid = pid;
		s->state = PROG_STREAMS_NOT_YET;
	}
	return s;
}

/* Forget the libc found (a new program image). */
void
prog_streams_reset(struct prog_streams *s)
{
	s->state = PROG_STREAMS_NOT_YET;
	s->list_all = 0;
	s->is_kept = false;
}

/* A pointer of the tracee as a number (it points into the tracee, never into us). */
static uint64_t
prog_streams_addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* A stream from its _flags, _fileno and buffer pointers (tracee addresses, only compared),
 * as the FILE at addr. */
static void
prog_streams_raw(unsigned fl, int fd, uint64_t buf_base, uint64_t buf_end, uint64_t wbase,
                 uint64_t wptr, uint64_t rptr, uint64_t rend, uint64_t addr,
                 struct prog_stream *out)
{
	memset(out, 0, sizeof *out);
	out->addr = addr;
	out->fd = fd;
	out->flags = fl;
	out->mode = (fl & PS_UNBUFFERED) ? PROG_STREAM_UNBUFFERED :
	            (fl & PS_LINE_BUF) ? PROG_STREAM_LINE : PROG_STREAM_FULL;
	out->can_read = !(fl & PS_NO_READS);
	out->can_write = !(fl & PS_NO_WRITES);
	out->putting = (fl & PS_CURRENTLY_PUTTING) != 0;
	out->buf_base = buf_base;
	if (buf_end > buf_base)
		out->buf_size = buf_end - buf_base;
	/* __fpending for a byte stream: write_ptr - write_base, whatever the mode. */
	if (wptr > wbase)
		out->pending = wptr - wbase;
	if (!out->putting && rend > rptr)
		out->read_ahead = rend - rptr;
	prog_mark_head(fl, wbase, wptr, rptr, rend, &out->head_addr);
}

/* Decode one FILE read from the tracee. */
static void
prog_streams_decode(const struct _IO_FILE *fp, uint64_t addr, struct prog_stream *out)
{
	prog_streams_raw((unsigned)fp->_flags, fp->_fileno, prog_streams_addr(fp->_IO_buf_base),
	                 prog_streams_addr(fp->_IO_buf_end), prog_streams_addr(fp->_IO_write_base),
	                 prog_streams_addr(fp->_IO_write_ptr), prog_streams_addr(fp->_IO_read_ptr),
	                 prog_streams_addr(fp->_IO_read_end), addr, out);
}

/* The stream as a logged call left it. */
void
prog_streams_from_call(const struct prog_mark_call *c, struct prog_stream *out)
{
	prog_streams_raw(c->st_flags, c->fd, c->buf_base, c->buf_end, c->write_base, c->write_ptr,
	                 c->read_ptr, c->read_end, c->file, out);
}

/*
 * The stream st as its flush (wrote) or refill of n bytes at buf, whose system call has just
 * returned, leaves it once over: glibc moves the pointers after the call returns
 * (new_do_write: the bytes written leave the buffer; _IO_file_underflow: the bytes read are
 * there to be read).
 */
void
prog_streams_after_io(struct prog_stream *st, bool wrote, uint64_t buf, uint64_t n)
{
	uint64_t end = st->head_addr + st->pending;

	if (wrote && st->pending > 0 && buf >= st->head_addr && buf < end) {
		/* A flush's write, the first or one after a short one: what is left after it. */
		st->pending = buf + n < end ? end - (buf + n) : 0;
		st->head_addr = st->pending > 0 ? buf + n : 0;
	} else if (!wrote && buf == st->buf_base && n > 0) {
		st->putting = false;
		st->pending = 0;
		st->read_ahead = n;
		st->head_addr = buf;
	}
}

/* The first bytes a stream holds. */
size_t
prog_streams_head(pid_t pid, const struct prog_stream *st, void *buf, size_t max)
{
	uint64_t n = st->pending > 0 ? st->pending : st->read_ahead;

	if (n > max)
		n = max;
	if (n == 0 || st->head_addr == 0 || prog_streams_peek(pid, st->head_addr, buf, n) != 0)
		return 0;
	return (size_t)n;
}

/* Walk the tracee's list of streams. */
int
prog_streams_scan(struct prog_streams *s, struct prog_stream *v, size_t max, size_t *n,
                  const char **why)
{
	uint64_t addr;

	*n = 0;
	*why = NULL;
	if (s->state == PROG_STREAMS_NOT_YET)
		prog_streams_find(s);
	if (s->state != PROG_STREAMS_OK) {
		*why = s->state == PROG_STREAMS_HIDDEN ? prog_streams_hidden : prog_streams_not_yet;
		return s->state;
	}
	if (prog_streams_peek(s->pid, s->list_all, &addr, sizeof addr) != 0)
		return PROG_STREAMS_ERROR;
	for (; addr != 0 && *n < PROG_STREAMS_CHAIN_MAX; (*n)++) {
		struct _IO_FILE fp;

		if (prog_streams_peek(s->pid, addr, &fp, sizeof fp) != 0)
			return PROG_STREAMS_ERROR;
		if (*n < max)
			prog_streams_decode(&fp, addr, &v[*n]);
		addr = prog_streams_addr(fp._chain);
	}
	return PROG_STREAMS_OK;
}

/* Read the head of s's chain into *head and the streams kept into s->v, PS_IOV to a read.
 * 0, or -1. */
static int
prog_streams_reread(struct prog_streams *s, uint64_t *head)
{
	struct iovec local[PS_IOV], remote[PS_IOV];
	size_t i = 0, k = 1, want = sizeof *head;

	local[0] = (struct iovec){ head, sizeof *head };
	remote[0] = (struct iovec){ (void *)(uintptr_t)s->list_all, sizeof *head };
	for (;;) {
		for (; k < PS_IOV && i < s->n_kept; k++, i++) {
			local[k] = (struct iovec){ &s->v[i], sizeof s->v[i] };
			remote[k] = (struct iovec){ (void *)(uintptr_t)s->kept[i], sizeof s->v[i] };
			want += sizeof s->v[i];
		}
		if (process_vm_readv(s->pid, local, k, remote, k, 0) != (ssize_t)want)
			return -1;
		if (i == s->n_kept)
			return 0;
		k = 0;
		want = 0;
	}
}

/* Read the chain of s into s->v: read back if it is still the one kept (its head and every
 * link as they were), else walked again and kept. Streams read; -1: unreadable; -2: longer
 * than PROG_STREAMS_CHAIN_MAX (or a loop), not kept. */
static long
prog_streams_chain(struct prog_streams *s)
{
	uint64_t head;
	size_t n;

	if (s->is_kept && prog_streams_reread(s, &head) == 0) {
		bool same = head == (s->n_kept > 0 ? s->kept[0] : 0);
		for (size_t i = 0; same && i < s->n_kept; i++)
			same = ((unsigned)s->v[i]._flags & PS_MAGIC_MASK) == PS_MAGIC &&
			       prog_streams_addr(s->v[i]._chain) ==
			       (i + 1 < s->n_kept ? s->kept[i + 1] : 0);
		if (same)
			return (long)s->n_kept;
	}
	/* Changed (a stream opened or closed): walk it again. */
	s->is_kept = false;
	if (prog_streams_peek(s->pid, s->list_all, &head, sizeof head) != 0)
		return -1;
	for (n = 0; head != 0; n++) {
		if (n == PROG_STREAMS_CHAIN_MAX)
			return -2;
		if (n == s->cap_kept) {
			size_t cap = s->cap_kept, cap2 = cap;
			uint64_t *k = grow(s->kept, &cap, n, sizeof *k, 32);
			struct _IO_FILE *v;
			if (k == NULL)
				return -1;
			s->kept = k;
			if ((v = grow(s->v, &cap2, n, sizeof *v, 32)) == NULL)
				return -1;
			s->v = v;
			s->cap_kept = cap;
		}
		if (prog_streams_peek(s->pid, head, &s->v[n], sizeof s->v[n]) != 0)
			return -1;
		s->kept[n] = head;
		head = prog_streams_addr(s->v[n]._chain);
	}
	s->n_kept = n;
	s->is_kept = true;
	return (long)n;
}

/* out, whose FILE is found among the n streams of s's chain: the others on fd, its name. */
static void
prog_streams_owner_fill(struct prog_streams *s, long n, int fd, struct prog_streams_owner *out)
{
	for (long i = 0; i < n; i++)
		out->others += s->v[i]._fileno == fd && s->kept[i] != out->file;
	out->name = prog_streams_name(s, out->file, fd);
}

/* The stream on fd whose buffer holds [addr, addr + len), and which of stdin, stdout and
 * stderr it is. */
enum prog_streams_hold
prog_streams_holds(struct prog_streams *s, int fd, uint64_t addr, uint64_t len,
                   struct prog_streams_owner *out)
{
	long n;

	memset(out, 0, sizeof *out);
	if (s->state == PROG_STREAMS_NOT_YET)
		prog_streams_find(s);
	if (s->state != PROG_STREAMS_OK || addr == 0 || (n = prog_streams_chain(s)) == -1)
		return PROG_STREAMS_NOT_HELD;
	if (n < 0)
		return PROG_STREAMS_TOO_MANY;
	for (long i = 0; i < n; i++) {
		const struct _IO_FILE *f = &s->v[i];
		uint64_t base = prog_streams_addr(f->_IO_buf_base), end = prog_streams_addr(f->_IO_buf_end);
		if (f->_fileno == fd && base != 0 && addr >= base && addr < end && len <= end - addr)
			out->file = s->kept[i];
	}
	if (out->file == 0)
		return PROG_STREAMS_NOT_HELD;
	prog_streams_owner_fill(s, n, fd, out);
	return PROG_STREAMS_HELD;
}

/* The stream on fd with no buffer yet, when only one. */
bool
prog_streams_unallocated(struct prog_streams *s, int fd, struct prog_streams_owner *out)
{
	unsigned found = 0;
	long n;

	memset(out, 0, sizeof *out);
	if (s->state != PROG_STREAMS_OK || (n = prog_streams_chain(s)) < 0)
		return false;
	for (long i = 0; i < n; i++)
		if (s->v[i]._fileno == fd && s->v[i]._IO_buf_base == NULL && found++ == 0)
			out->file = s->kept[i];
	if (found != 1) {
		out->file = 0;
		out->others = found > 1 ? found - 1 : 0;
		return false;
	}
	prog_streams_owner_fill(s, n, fd, out);
	return true;
}

/* A stream's name: by the FILEs libc made, when found. */
const char *
prog_streams_name(struct prog_streams *s, uint64_t file, int fd)
{
	static const char *const std[] = { "stdin", "stdout", "stderr" };

	if (s != NULL && s->state == PROG_STREAMS_NOT_YET)
		prog_streams_find(s);
	if (s != NULL && s->state == PROG_STREAMS_OK &&
	    (s->std_file[0] | s->std_file[1] | s->std_file[2]) != 0) {
		for (int i = 0; i < 3; i++)
			if (file != 0 && file == s->std_file[i])
				return std[i];
		return "fp";
	}
	return fd >= 0 && fd <= 2 ? std[fd] : "fp";
}

/* Whether s's thread, at sp, is in stdio's allocation of a buffer: it returns into
 * _IO_file_doallocate or _IO_file_stat (glibc's fstat wrappers make no frame of their own:
 * at the system call, sp holds their caller's return address). */
bool
prog_streams_allocating(struct prog_streams *s, uint64_t sp)
{
	uint64_t ret;

	if (s->state == PROG_STREAMS_NOT_YET)
		prog_streams_find(s);
	if (s->state != PROG_STREAMS_OK || prog_streams_peek(s->pid, sp, &ret, sizeof ret) != 0)
		return false;
	for (int i = 0; i < 2; i++)
		if (ret >= s->alloc[i][0] && ret < s->alloc[i][1])
			return true;
	return false;
}

/* Free a reader. */
void
prog_streams_free(struct prog_streams *s)
{
	if (s != NULL) {
		free(s->kept);
		free(s->v);
	}
	free(s);
}
