/* SPDX-License-Identifier: MIT */
/* srcloc.c: a step's line in the student's source: addresses of a traced process mapped to
 * file:line:function with elfutils' libdwfl (its DWARF with -g, else its symbol table), and
 * a stopped thread's stack walked to the first frame in the program's own file. */
#include <config.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "prog/srcloc.h"

/* Processes whose files are known at once, and call sites remembered. */
#define SRCLOC_PROCS 8
#define SRCLOC_SITES 256
/* Frames walked at most to find the program's. */
#define SRCLOC_DEPTH 64
/* Stdio call sites whose walk is remembered, and how far above the shim's frame the
 * caller's return address is looked for. */
#define SRCLOC_WALKED 64
#define SRCLOC_WAYS 4
#define SRCLOC_SCAN 4096

/* One process: its files as reported from /proc/PID/maps, the program's own among them. */
struct srcloc_proc {
	pid_t tgid;
	Dwfl *dwfl;
	bool attached;            /* dwfl_linux_proc_attach done (for unwinding) */
	uint64_t lo, hi;          /* the program's own file's addresses */
	Dwfl_Module *main;
	unsigned age;
	char exe[PATH_MAX];       /* its /proc/PID/exe */
};

/* A call site already resolved. */
struct srcloc_site {
	pid_t tgid;
	uint64_t pc;
	struct prog_src src;
};

/*
 * A stdio call site's walk: the call from return address ra on stream file, its line and its
 * caller's; that caller's return address ra1 was found off bytes above the shim's frame.
 * Another call from there whose frame holds ra1 at the same offset is made from the same
 * line of the same caller: its walk would find the same two frames.
 */
struct srcloc_walked {
	pid_t tgid;
	uint64_t ra, file, off;
	uintptr_t ra1;
	uint64_t off0;            /* a system call's walk (file SRCLOC_SYS): where its first */
	uintptr_t ra0;            /* frame's return address was, off0 bytes above its sp */
	struct prog_src src;
};

/* The file of a walk remembered for a system call made outside stdio (no FILE* is at the
 * top of the address space). */
#define SRCLOC_SYS UINT64_MAX

struct prog_srcloc {
	struct srcloc_proc p[SRCLOC_PROCS];
	struct srcloc_site *sites;
	struct srcloc_walked *walked;
	unsigned clock;
	unsigned turn;             /* the way of a full set replaced next */
	struct prog_srcloc_stats st;
};

/* Separate debug files are not looked for (nor fetched: no debuginfod): a student's -g is in
 * the program itself, which libdwfl reads first. */
static int
srcloc_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                    const char *file_name, const char *debuglink_file,
                    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc; (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks srcloc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = srcloc_no_debuginfo,
};

/* A new resolver. */
struct prog_srcloc *
prog_srcloc_new(void)
{
	struct prog_srcloc *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->sites = calloc(SRCLOC_SITES, sizeof *s->sites);
	s->walked = calloc(SRCLOC_WALKED, sizeof *s->walked);
	if (s->sites == NULL || s->walked == NULL) {
		free(s->sites);
		free(s->walked);
		free(s);
		return NULL;
	}
	return s;
}

/* Drop what is known of one process. */
static void
srcloc_drop(struct prog_srcloc *s, struct srcloc_proc *p)
{
	for (size_t i = 0; i < SRCLOC_SITES && p->tgid != 0; i++)
		if (s->sites[i].tgid == p->tgid)
			s->sites[i].tgid = 0;
	for (size_t i = 0; i < SRCLOC_WALKED && p->tgid != 0; i++)
		if (s->walked[i].tgid == p->tgid)
			s->walked[i].tgid = 0;
	if (p->dwfl != NULL)
		dwfl_end(p->dwfl);
	memset(p, 0, sizeof *p);
}

void
prog_srcloc_forget(struct prog_srcloc *s, pid_t tgid)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < SRCLOC_PROCS; i++)
		if (s->p[i].tgid == tgid) {
			srcloc_drop(s, &s->p[i]);
			return;
		}
	for (size_t i = 0; i < SRCLOC_SITES; i++)
		if (s->sites[i].tgid == tgid)
			s->sites[i].tgid = 0;
	for (size_t i = 0; i < SRCLOC_WALKED; i++)
		if (s->walked[i].tgid == tgid)
			s->walked[i].tgid = 0;
}

void
prog_srcloc_free(struct prog_srcloc *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < SRCLOC_PROCS; i++)
		srcloc_drop(s, &s->p[i]);
	free(s->sites);
	free(s->walked);
	free(s);
}

/* dwfl_getmodules's callback: note the module named as the program (arg: exe). */
static int
srcloc_module(Dwfl_Module *m, void **userdata, const char *name, Dwarf_Addr start, void *arg)
{
	struct srcloc_proc *p = arg;
	Dwarf_Addr lo, hi;

	(void)userdata;
	(void)start;
	if (name == NULL || p->main != NULL)
		return DWARF_CB_OK;
	dwfl_module_info(m, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	if (strcmp(name, (const char *)p->exe) == 0) {
		p->main = m;
		p->lo = lo;
		p->hi = hi;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* Report p's files (again: a library dlopen'd since), and find the program's own: the module
 * of /proc/PID/exe. 0, or -1. */
static int
srcloc_report(struct srcloc_proc *p)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/%d/exe", (int)p->tgid);
	n = readlink(link, p->exe, sizeof p->exe - 1);
	if (n <= 0)
		return -1;
	p->exe[n] = '\0';
	if (n > 10 && strcmp(p->exe + n - 10, " (deleted)") == 0)
		p->exe[n - 10] = '\0';
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, p->tgid) != 0) {
		dwfl_report_end(p->dwfl, NULL, NULL);
		return -1;
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	p->main = NULL;
	p->lo = p->hi = 0;
	dwfl_getmodules(p->dwfl, srcloc_module, p, 0);
	return 0;
}

/* Process tgid's entry: found, else made (the oldest one replaced). NULL if it cannot be. */
static struct srcloc_proc *
srcloc_proc(struct prog_srcloc *s, pid_t tgid)
{
	struct srcloc_proc *p = &s->p[0];

	for (size_t i = 0; i < SRCLOC_PROCS; i++) {
		if (s->p[i].tgid == tgid && s->p[i].dwfl != NULL) {
			s->p[i].age = ++s->clock;
			return &s->p[i];
		}
		if (s->p[i].age < p->age)
			p = &s->p[i];
	}
	srcloc_drop(s, p);
	p->tgid = tgid;
	p->age = ++s->clock;
	p->dwfl = dwfl_begin(&srcloc_callbacks);
	if (p->dwfl == NULL || srcloc_report(p) != 0) {
		srcloc_drop(s, p);
		return NULL;
	}
	return p;
}

/* Copy src (cut) into dst of len bytes. */
static void
srcloc_copy(char *dst, const char *src, size_t len)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

/* The line and function of address pc (a call's: the instruction is at pc) of p into file,
 * line, func. False if no module of p holds it. */
static bool
srcloc_lookup(struct srcloc_proc *p, uint64_t pc, uint64_t *addr, char *file, size_t flen,
              uint32_t *line, char *func, size_t fnlen)
{
	Dwfl_Module *m = dwfl_addrmodule(p->dwfl, pc);
	Dwfl_Line *l;
	const char *name;
	Dwarf_Addr bias = 0;
	int ln = 0;

	if (m == NULL) {
		/* A library loaded since the files were reported. */
		if (srcloc_report(p) != 0 || (m = dwfl_addrmodule(p->dwfl, pc)) == NULL)
			return false;
	}
	file[0] = '\0';
	*line = 0;
	if (dwfl_module_getelf(m, &bias) != NULL)
		*addr = pc - bias;
	name = dwfl_module_addrname(m, pc);
	srcloc_copy(func, name, fnlen);
	l = dwfl_module_getsrc(m, pc);
	if (l != NULL) {
		const char *dir = NULL;
		const char *f = dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL);
		if (f != NULL && f[0] != '/')
			dir = dwfl_line_comp_dir(l);
		if (f != NULL && dir != NULL)
			snprintf(file, flen, "%s/%s", dir, f);
		else
			srcloc_copy(file, f, flen);
		*line = ln > 0 ? (uint32_t)ln : 0;
	}
	return true;
}

/* A call site (its return address ra) into out: its own line, no caller. */
static bool
srcloc_site(struct srcloc_proc *p, uint64_t ra, struct prog_src *out)
{
	memset(out, 0, sizeof *out);
	/* The call instruction ends at ra: ra - 1 is in it (and on its line). */
	out->pc = ra - 1;
	return srcloc_lookup(p, ra - 1, &out->addr, out->file, sizeof out->file, &out->line, out->func,
	                     sizeof out->func);
}

bool
prog_srcloc_at(struct prog_srcloc *s, pid_t tgid, uint64_t ra, struct prog_src *out)
{
	struct srcloc_site *c;
	struct srcloc_proc *p;

	memset(out, 0, sizeof *out);
	if (s == NULL || ra == 0)
		return false;
	c = &s->sites[(ra ^ (ra >> 12) ^ (uint64_t)tgid) % SRCLOC_SITES];
	if (c->tgid == tgid && c->pc == ra) {
		*out = c->src;
		return true;
	}
	p = srcloc_proc(s, tgid);
	if (p == NULL || !srcloc_site(p, ra, out))
		return false;
	c->tgid = tgid;
	c->pc = ra;
	c->src = *out;
	return true;
}

/* The walk of a stack: the program's frames' call sites, two at most. */
struct srcloc_walk {
	const struct srcloc_proc *p;
	uint64_t pc[2];
	int k, n;
	bool miss;                /* a frame in no file reported */
};

/* dwfl_getthread_frames's callback: keep the frames in the program's own file. */
static int
srcloc_frame(Dwfl_Frame *f, void *arg)
{
	struct srcloc_walk *w = arg;
	Dwarf_Addr pc;
	bool activation;

	if (++w->n > SRCLOC_DEPTH || !dwfl_frame_pc(f, &pc, &activation))
		return DWARF_CB_ABORT;
	/* A caller's pc is a return address: the call is the instruction before it. */
	if (!activation)
		pc--;
	if (dwfl_addrmodule(w->p->dwfl, pc) == NULL) {
		/* A library loaded since its files were reported: report them again. */
		w->miss = true;
		return DWARF_CB_ABORT;
	}
	if (pc >= w->p->lo && pc < w->p->hi) {
		w->pc[w->k++] = pc;
		if (w->k == 2)
			return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* prog_srcloc_unwind, and the caller's frame's pc into *pc1 (0: none found). */
static bool
srcloc_unwind(struct prog_srcloc *s, pid_t tgid, pid_t tid, struct prog_src *out, uint64_t *pc1)
{
	struct srcloc_walk w = { 0 };
	struct srcloc_proc *p;

	memset(out, 0, sizeof *out);
	*pc1 = 0;
	if (s == NULL)
		return false;
	s->st.walks++;
	for (int again = 0; again < 2; again++) {
		if ((p = srcloc_proc(s, tgid)) == NULL || p->main == NULL)
			return false;
		if (!p->attached) {
			/* The tracer has every thread stopped when it asks: no attach of libdwfl's. */
			if (dwfl_linux_proc_attach(p->dwfl, tgid, true) != 0)
				return false;
			p->attached = true;
		}
		memset(&w, 0, sizeof w);
		w.p = p;
		dwfl_getthread_frames(p->dwfl, tid, srcloc_frame, &w);
		if (!w.miss)
			break;
		srcloc_drop(s, p);
	}
	if (w.k == 0)
		return false;
	out->pc = w.pc[0];
	srcloc_lookup(p, w.pc[0], &out->addr, out->file, sizeof out->file, &out->line, out->func,
	              sizeof out->func);
	if (w.k == 2) {
		char file[PROG_SRC_FILE];
		uint64_t addr;
		*pc1 = w.pc[1];
		srcloc_lookup(p, w.pc[1], &addr, file, sizeof file, &out->caller_line, out->caller_func,
		              sizeof out->caller_func);
	}
	return true;
}

bool
prog_srcloc_unwind(struct prog_srcloc *s, pid_t tgid, pid_t tid, struct prog_src *out)
{
	uint64_t pc1;

	return srcloc_unwind(s, tgid, tid, out, &pc1);
}

/* Read len bytes at addr of process pid into buf: the bytes read (a short read stops at
 * memory that is not mapped). */
static size_t
srcloc_peek(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);

	return n > 0 ? (size_t)n : 0;
}

/* The set of entries call site ra on stream file of tgid may have in the table of walks
 * (a call site reached from several callers, or by several threads, has one for each). */
static struct srcloc_walked *
srcloc_walked(struct prog_srcloc *s, pid_t tgid, uint64_t ra, uint64_t file)
{
	uint64_t h = ra ^ (ra >> 9) ^ file ^ (uint64_t)tgid;

	return &s->walked[h % (SRCLOC_WALKED / SRCLOC_WAYS) * SRCLOC_WAYS];
}

/* A free way of set, else the next in turn. */
static struct srcloc_walked *
srcloc_way(struct prog_srcloc *s, struct srcloc_walked *set)
{
	for (int k = 0; k < SRCLOC_WAYS; k++)
		if (set[k].tgid == 0)
			return &set[k];
	return &set[s->turn++ % SRCLOC_WAYS];
}

bool
prog_srcloc_unwind_call(struct prog_srcloc *s, pid_t tgid, pid_t tid, uint64_t ra,
                        uint64_t file, uint64_t frame, struct prog_src *out, uint64_t *off)
{
	uintptr_t word = 0, scan[SRCLOC_SCAN / sizeof(uintptr_t)];
	struct srcloc_walked *set, *e;
	uint64_t pc1, read_off = UINT64_MAX;
	size_t n;

	*off = UINT64_MAX;
	if (s == NULL || ra == 0 || frame == 0)
		return prog_srcloc_unwind(s, tgid, tid, out);
	set = srcloc_walked(s, tgid, ra, file);
	for (int i = 0; i < SRCLOC_WAYS; i++) {
		e = &set[i];
		if (e->tgid != tgid || e->ra != ra || e->file != file)
			continue;
		if (e->off != read_off) {
			read_off = e->off;
			if (srcloc_peek(tid, frame + e->off, &word, sizeof word) != sizeof word)
				word = 0;
		}
		if (word != 0 && word == e->ra1) {
			s->st.remembered++;
			*out = e->src;
			*off = e->off;
			return true;
		}
	}
	if (!srcloc_unwind(s, tgid, tid, out, &pc1))
		return false;
	/* Remembered only when the walk's first frame in the program is the call itself (no
	 * callback of the program's between, as fopencookie's) and its caller was found: its
	 * return address, the first word above the shim's frame that holds it. */
	if (out->pc != ra - 1 || pc1 == 0)
		return true;
	n = srcloc_peek(tid, frame, scan, sizeof scan) / sizeof scan[0];
	for (size_t i = 0; i < n; i++)
		if (scan[i] == (uintptr_t)(pc1 + 1)) {
			e = srcloc_way(s, set);
			*e = (struct srcloc_walked){ .tgid = tgid, .ra = ra, .file = file,
			                             .off = i * sizeof scan[0], .ra1 = scan[i],
			                             .src = *out };
			*off = e->off;
			break;
		}
	return true;
}

bool
prog_srcloc_func(struct prog_srcloc *s, pid_t tgid, uint64_t ra, uint64_t *lo, uint64_t *hi)
{
	struct srcloc_proc *p = s != NULL && ra != 0 ? srcloc_proc(s, tgid) : NULL;
	Dwfl_Module *m = p != NULL ? dwfl_addrmodule(p->dwfl, ra - 1) : NULL;
	GElf_Off at = 0;
	GElf_Sym sym;

	if (m == NULL || dwfl_module_addrinfo(m, ra - 1, &at, &sym, NULL, NULL, NULL) == NULL ||
	    sym.st_size == 0 || at >= sym.st_size)
		return false;
	*lo = ra - 1 - at;
	*hi = *lo + sym.st_size;
	return true;
}

bool
prog_srcloc_logged(struct prog_srcloc *s, pid_t tgid, uint64_t ra, uint64_t file, uint64_t off,
                   uint64_t up, struct prog_src *out)
{
	struct srcloc_walked *set, *e;
	struct prog_src here;

	if (s == NULL || ra == 0 || up == 0)
		return false;
	set = srcloc_walked(s, tgid, ra, file);
	/* The word where a walk from this call site found its caller's return address holds
	 * it again: the same two frames, as for a stopped thread (prog_srcloc_unwind_call). */
	for (int i = 0; i < SRCLOC_WAYS; i++)
		if (set[i].tgid == tgid && set[i].ra == ra && set[i].file == file &&
		    set[i].off == off && set[i].ra1 == up) {
			s->st.remembered++;
			*out = set[i].src;
			return true;
		}
	/* Another call site of the same function, walked with the same frame: the shim read
	 * up where that walk found the function's caller's return address, and it is the
	 * same one. This call's own line, that walk's caller; remembered for this site. */
	if (!prog_srcloc_at(s, tgid, ra, &here) || here.func[0] == '\0')
		return false;
	for (size_t i = 0; i < SRCLOC_WALKED; i++) {
		const struct srcloc_walked *w = &s->walked[i];
		if (w->tgid != tgid || w->file == SRCLOC_SYS || w->off != off || w->ra1 != up ||
		    w->ra == ra || w->src.caller_line == 0 || strcmp(w->src.func, here.func) != 0 ||
		    strcmp(w->src.file, here.file) != 0)
			continue;
		here.caller_line = w->src.caller_line;
		memcpy(here.caller_func, w->src.caller_func, sizeof here.caller_func);
		e = srcloc_way(s, set);
		*e = (struct srcloc_walked){ .tgid = tgid, .ra = ra, .file = file, .off = off,
		                             .ra1 = up, .src = here };
		s->st.remembered++;
		*out = here;
		return true;
	}
	return false;
}

bool
prog_srcloc_unwind_sys(struct prog_srcloc *s, pid_t tgid, pid_t tid, uint64_t ip, uint64_t sp,
                       struct prog_src *out)
{
	uintptr_t scan[SRCLOC_SCAN / sizeof(uintptr_t)];
	struct srcloc_walked *set, *e;
	uint64_t pc1;
	size_t n = 0;
	bool read = false;

	if (s == NULL || ip == 0 || sp == 0)
		return prog_srcloc_unwind(s, tgid, tid, out);
	set = srcloc_walked(s, tgid, ip, SRCLOC_SYS);
	for (int i = 0; i < SRCLOC_WAYS; i++) {
		e = &set[i];
		if (e->tgid != tgid || e->ra != ip || e->file != SRCLOC_SYS)
			continue;
		if (!read) {
			read = true;
			n = srcloc_peek(tid, sp, scan, sizeof scan) / sizeof scan[0];
		}
		if (e->off0 / sizeof scan[0] < n && scan[e->off0 / sizeof scan[0]] == e->ra0 &&
		    (e->ra1 == 0 || (e->off / sizeof scan[0] < n &&
		                     scan[e->off / sizeof scan[0]] == e->ra1))) {
			s->st.remembered++;
			*out = e->src;
			return true;
		}
	}
	if (!srcloc_unwind(s, tgid, tid, out, &pc1))
		return false;
	/* Remembered when the first frame in the program called (its pc is a return address's,
	 * found on the stack: not the program's own system call instruction), with where its
	 * caller's return address is (when there is a caller in the program). */
	if (!read)
		n = srcloc_peek(tid, sp, scan, sizeof scan) / sizeof scan[0];
	for (size_t i = 0; i < n; i++) {
		if (scan[i] != (uintptr_t)(out->pc + 1))
			continue;
		size_t j = i + 1;
		if (pc1 != 0) {
			while (j < n && scan[j] != (uintptr_t)(pc1 + 1))
				j++;
			if (j == n)
				break;
		}
		e = srcloc_way(s, set);
		*e = (struct srcloc_walked){ .tgid = tgid, .ra = ip, .file = SRCLOC_SYS,
		                             .off0 = i * sizeof scan[0], .ra0 = scan[i],
		                             .off = pc1 != 0 ? j * sizeof scan[0] : 0,
		                             .ra1 = pc1 != 0 ? scan[j] : 0, .src = *out };
		break;
	}
	return true;
}

void
prog_srcloc_stats(const struct prog_srcloc *s, struct prog_srcloc_stats *out)
{
	memset(out, 0, sizeof *out);
	if (s != NULL)
		*out = s->st;
}

char *
prog_srcloc_format(const struct prog_src *src, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	if (src->pc == 0)
		return buf;
	if (src->line > 0)
		at = (size_t)snprintf(buf, len, "line %" PRIu32, src->line);
	else
		at = (size_t)snprintf(buf, len, "at 0x%" PRIx64, src->addr);
	if (at < len && src->func[0] != '\0')
		at += (size_t)snprintf(buf + at, len - at, " in %s()", src->func);
	if (at < len && src->caller_line > 0 && src->line > 0)
		snprintf(buf + at, len - at, ", called from line %" PRIu32, src->caller_line);
	return buf;
}
