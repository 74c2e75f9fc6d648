/* SPDX-License-Identifier: MIT */
/* scenario/names.c: the one table of names for each enum a scenario holds (its YAML names);
 * an observation's enums are named in probe/names.c. */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"
#include "scenario/names.h"

const struct scn_name scn_open_flags[] = {
	{ "O_RDONLY", O_RDONLY }, { "O_WRONLY", O_WRONLY }, { "O_RDWR", O_RDWR },
	{ "O_CREAT", O_CREAT }, { "O_TRUNC", O_TRUNC }, { "O_APPEND", O_APPEND },
	{ "O_SYNC", O_SYNC }, { "O_DSYNC", O_DSYNC }, { "O_DIRECT", O_DIRECT },
	{ "O_RSYNC", O_RSYNC }, { "O_EXCL", O_EXCL }, { "O_DIRECTORY", O_DIRECTORY }, { NULL, 0 }
};
const struct scn_name scn_fcntl_cmds[] = {
	{ "F_GETFL", F_GETFL }, { "F_SETFL", F_SETFL }, { NULL, 0 }
};
const struct scn_name scn_child_ends[] = {
	{ "exit", 1 }, { "_exit", 0 }, { NULL, 0 }
};
const struct scn_name scn_sfr_flags[] = {
	{ "WAIT_BEFORE", SYNC_FILE_RANGE_WAIT_BEFORE }, { "WRITE", SYNC_FILE_RANGE_WRITE },
	{ "WAIT_AFTER", SYNC_FILE_RANGE_WAIT_AFTER }, { NULL, 0 }
};
const struct scn_name scn_variant_flags[] = {
	{ "O_SYNC", O_SYNC }, { "O_DSYNC", O_DSYNC }, { "O_DIRECT", O_DIRECT }, { NULL, 0 }
};
const struct scn_name scn_advices[] = {
	{ "NORMAL", POSIX_FADV_NORMAL }, { "SEQUENTIAL", POSIX_FADV_SEQUENTIAL },
	{ "RANDOM", POSIX_FADV_RANDOM }, { "WILLNEED", POSIX_FADV_WILLNEED },
	{ "DONTNEED", POSIX_FADV_DONTNEED }, { "NOREUSE", POSIX_FADV_NOREUSE }, { NULL, 0 }
};
const struct scn_name scn_whences[] = {
	{ "SET", SEEK_SET }, { "CUR", SEEK_CUR }, { "END", SEEK_END }, { NULL, 0 }
};
const struct scn_name scn_bufmodes[] = {
	{ "none", SCN_BUF_NONE }, { "line", SCN_BUF_LINE }, { "full", SCN_BUF_FULL }, { NULL, 0 }
};
const struct scn_name scn_buffers[] = {
	{ "library", SCN_BUFFER_LIBRARY }, { "own", SCN_BUFFER_OWN }, { NULL, 0 }
};
/* setbuf also takes none: setbuf(fp, NULL). -1 marks it. */
const struct scn_name scn_setbuf_buffers[] = {
	{ "library", SCN_BUFFER_LIBRARY }, { "own", SCN_BUFFER_OWN }, { "none", -1 }, { NULL, 0 }
};
const struct scn_name scn_betweens[] = {
	{ "nothing", SCN_PTY_NOTHING }, { "fflush", SCN_PTY_FFLUSH },
	{ "unbuffered", SCN_PTY_UNBUFFERED }, { NULL, 0 }
};
const struct scn_name scn_untils[] = { { "clean", 1 }, { NULL, 0 } };
const struct scn_name scn_yesno[] = { { "no", 0 }, { "yes", 1 }, { NULL, 0 } };
const struct scn_name scn_fss[] = {
	{ "default", SCN_FS_DEFAULT }, { "tmpfs", SCN_FS_TMPFS }, { NULL, 0 }
};
const struct scn_name scn_fills[] = {
	{ "lines", SCN_FILL_LINES }, { "zero", SCN_FILL_ZERO }, { NULL, 0 }
};
const struct scn_name scn_programs[] = {
	{ "copy", SCN_PROG_COPY }, { "write", SCN_PROG_WRITE }, { "read", SCN_PROG_READ },
	{ "fwrite", SCN_PROG_FWRITE }, { "fread", SCN_PROG_FREAD },
	{ "fread+setvbuf", SCN_PROG_FREAD_SETVBUF }, { "overwrite", SCN_PROG_OVERWRITE },
	{ NULL, 0 }
};
const struct scn_name scn_sync_eachs[] = {
	{ "none", SCN_SYNC_NONE }, { "fsync", SCN_SYNC_FSYNC },
	{ "fdatasync", SCN_SYNC_FDATASYNC }, { NULL, 0 }
};
const struct scn_name scn_caches[] = {
	{ "cold", SCN_CACHE_COLD }, { "warm", SCN_CACHE_WARM }, { NULL, 0 }
};

/* Length of the longest name of t (they are ASCII: columns too). */
int
scenario_names_width(const struct scn_name *t)
{
	size_t w = 0;

	for (; t->name != NULL; t++)
		if (strlen(t->name) > w)
			w = strlen(t->name);
	return (int)w;
}

/* Name of value in t (the first that matches), "?" if none. */
const char *
scenario_names_of(const struct scn_name *t, int value)
{
	for (; t->name != NULL; t++)
		if (t->value == value)
			return t->name;
	return "?";
}

/* The facts of enum scn_fact a case or a mark may name, then the rest of enum scn_env. */
const char *const scn_env_names[SCN_ENV__COUNT + 1] = {
	[SCN_FACT_FS] = "fs", [SCN_FACT_PROBE] = "probe", [SCN_FACT_BLKSIZE] = "blksize",
	[SCN_FACT_LARGE_FOLIOS] = "large_folios", [SCN_FACT_DELALLOC] = "delalloc",
	[SCN_FACT_CACHESTAT] = "cachestat", [SCN_FACT_DIRTY] = "dirty", [SCN_FACT_DISK] = "disk",
	[SCN_ENV_DEVICE] = "device", [SCN_ENV_KERNEL] = "kernel", [SCN_ENV_TIME] = "time",
	[SCN_ENV_DIRTY_EXPIRE] = "dirty_expire", [SCN_ENV__COUNT] = NULL,
};

/* Name of an errno value. */
const char *
scenario_errno_name(int err)
{
	const char *n;

	if (err == 0)
		return "0";
	n = strerrorname_np(err);
	return n != NULL ? n : "E?";
}

/* Long name of a buffering mode. */
const char *
scenario_bufmode_name(enum scn_bufmode m)
{
	switch (m) {
	case SCN_BUF_NONE: return "unbuffered";
	case SCN_BUF_LINE: return "line buffered";
	case SCN_BUF_FULL: return "fully buffered";
	}
	return "?";
}
