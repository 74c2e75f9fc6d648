/* SPDX-License-Identifier: MIT */
/* scenario/bufmode.h: a stdio buffering mode, as setvbuf takes it and as a probe sees it
 * (probe/snapshot.h includes this, not all of scenario.h). */
#ifndef IOBUFVIZ_BUFMODE_H
#define IOBUFVIZ_BUFMODE_H

/* setvbuf modes: _IONBF, _IOLBF, _IOFBF. */
enum scn_bufmode { SCN_BUF_NONE, SCN_BUF_LINE, SCN_BUF_FULL };

#endif
