/* SPDX-License-Identifier: MIT */
/* base/errmsg.c: the one way a layer hands a formatted error message to its caller. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include "base/errmsg.h"

/* Format the message into a new heap string. */
void
errmsg_set(char **err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
}
