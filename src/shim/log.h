/* SPDX-License-Identifier: MIT */
/* shim/log.h: the shim's log (shim/log.c), for its wrappers (shim/iobufviz-shim.c). Nothing
 * of it is exported from the shared object: the program sees the wrappers only. */
#ifndef IOBUFVIZ_SHIM_LOG_H
#define IOBUFVIZ_SHIM_LOG_H

#include <stdint.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)

/* A wrapper's call begins (called from ra, its frame at frame): whether it is logged. */
int iobufviz_shim_enter_at(void *ra, void *frame, int id, FILE *f, long a, long b,
                           const char *s1, const char *s2);

/* Enter from a wrapper: its return address is where the program called it (exact and
 * cheap: the tracer maps it to the line), its frame where the program's stack was then (the
 * tracer checks its caller's return address there instead of walking the stack again). A
 * macro, so that they are the wrapper's own. */
#define iobufviz_shim_enter(...) \
	iobufviz_shim_enter_at(__builtin_return_address(0), __builtin_frame_address(0), __VA_ARGS__)

/* It ends: logged (if it is) with the stream it left, its bytes, result and literal. */
void iobufviz_shim_leave(int logged, FILE *f, uint64_t size, int64_t ret, const char *literal);

/* exit()'s flush of every stream begins (an atexit handler), and a child after fork. */
void iobufviz_shim_exit(void);
void iobufviz_shim_forked(void);

#pragma GCC visibility pop

#endif
