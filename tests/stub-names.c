/* SPDX-License-Identifier: MIT */
/* stub-names.c: TEMPORARY names of ops/keys/cmps until the loader's scenario.c lands on main. */
#include <config.h>

#include "scenario.h"

/* Name of an op. */
const char *
scenario_op_name(enum scn_op op)
{
	static const char *n[SCN_OP__COUNT] = {
		"open", "fopen", "fdopen", "fileno", "setvbuf", "setbuf", "setbuffer", "fwrite",
		"fputs", "printf", "fread", "fgets", "fflush", "fseek", "fclose", "write", "read",
		"pread", "pwrite", "lseek", "fsync", "fdatasync", "sync_file_range", "sync",
		"posix_fadvise", "fallocate", "ftruncate", "close", "wait", "pty", "tail", "sweep",
		"note" };
	return op < SCN_OP__COUNT ? n[op] : "?";
}

/* Name of a key. */
const char *
scenario_key_name(enum scn_key key)
{
	static const char *n[SCN_KEY__COUNT] = {
		"stdio.size", "stdio.pending", "stdio.mode", "calls.write", "calls.read",
		"calls.total", "bytes.written", "bytes.read", "cache.pages", "cache.dirty_pages",
		"cache.writeback_pages", "disk.allocated_bytes", "disk.delalloc_bytes",
		"disk.unwritten_bytes", "result.errno", "result.value", "output", "output_file" };
	return key < SCN_KEY__COUNT ? n[key] : "?";
}

/* Symbol of a comparison. */
const char *
scenario_cmp_name(enum scn_cmp cmp)
{
	static const char *n[] = { "=", "!=", "<", "<=", ">", ">=" };
	return n[cmp];
}
