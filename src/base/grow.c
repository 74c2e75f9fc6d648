/* SPDX-License-Identifier: MIT */
/* base/grow.c: arrays that double when full. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "base/grow.h"

/* Room for element n of v (see base/grow.h). */
void *
grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t c;

	if (n < *cap)
		return v;
	c = *cap ? *cap * 2 : first;
	if (c < *cap || size == 0 || c > SIZE_MAX / size)
		return NULL;
	v = realloc(v, c * size);
	if (v != NULL)
		*cap = c;
	return v;
}
