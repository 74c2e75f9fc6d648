/* SPDX-License-Identifier: MIT */
/* probe/names.c: the one table of names for each enum of an observation that is printed. */
#include <config.h>

#include "probe/names.h"
#include "probe/snapshot.h"
#include "trace/event.h"

/*
 * Where a fact came from. SNAP_SRC_NONE is "none", not "unknown": it says that no probe could
 * observe the fact here (the note says why), and that is known; "unknown" would claim a
 * source that we cannot name. The cache probes' names are also --probe's values.
 */
const struct scn_name scn_sources[] = {
	{ "none", SNAP_SRC_NONE }, { "stdio_ext", SNAP_SRC_STDIO_EXT },
	{ "cachestat", SNAP_SRC_CACHESTAT }, { "mincore", SNAP_SRC_MINCORE },
	{ "fiemap", SNAP_SRC_FIEMAP }, { "procio", SNAP_SRC_PROCIO },
	{ "kpageflags", SNAP_SRC_KPAGEFLAGS }, { "blockstat", SNAP_SRC_BLOCKSTAT }, { NULL, 0 }
};
/* How a step's calls were seen. */
const struct scn_name scn_traces[] = {
	{ "ptrace", EV_SRC_PTRACE }, { "procio", EV_SRC_PROCIO }, { NULL, 0 }
};
/* Who made a call: the op itself, or stdio on its behalf (JSON's values). */
const struct scn_name scn_origins[] = {
	{ "direct", EV_DIRECT }, { "stdio", EV_STDIO }, { NULL, 0 }
};
/* The same, in words a reader cannot take for O_DIRECT or for the stream's fd: the call
 * lines of the TUI, the text and TAP transcripts. */
const struct scn_name scn_origin_words[] = {
	{ "your call", EV_DIRECT }, { "by stdio", EV_STDIO }, { NULL, 0 }
};
/* What the disk holds of a cell of the page-cache grid. */
const struct scn_name scn_cell_disks[] = {
	{ "unknown", SNAP_DISK_UNKNOWN }, { "hole", SNAP_DISK_HOLE },
	{ "no_block", SNAP_DISK_NOT_ALLOCATED }, { "unwritten", SNAP_DISK_UNWRITTEN },
	{ "on_disk", SNAP_DISK_ON_DISK }, { "stale", SNAP_DISK_STALE },
	{ "allocated", SNAP_DISK_ALLOCATED }, { "inline", SNAP_DISK_INLINE }, { NULL, 0 }
};
