/* SPDX-License-Identifier: MIT */
/* base/grow.h: arrays that double when full, the one way every area grows one. */
#ifndef IOBUFVIZ_GROW_H
#define IOBUFVIZ_GROW_H

#include <stddef.h>

/*
 * Room for element n of array v (elements of size bytes, *cap of them): v itself while
 * n < *cap; else v reallocated to twice *cap (first when *cap is 0), *cap updated. NULL (v
 * and *cap untouched) when memory runs out or the size would overflow.
 */
void *grow(void *v, size_t *cap, size_t n, size_t size, size_t first);

#endif
